"""Opening databases: fresh, old (upgraded in place) and too new (refused)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from storage import (
    MigrationError,
    PlayerResult,
    SchemaTooNew,
    Storage,
    TableAlreadyActive,
    TableStatus,
    discover_migrations,
)
from storage.db import Database, default_migrations, split_statements

from .conftest import seed_chat

LATEST = len(discover_migrations())
EXPECTED_TABLES = {
    "chats",
    "users",
    "tables",
    "seats",
    "events",
    "snapshots",
    "matches",
    "match_players",
}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def table_names(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {r[0] for r in rows} - {"sqlite_sequence"}


def copy_shipped_migrations(target: Path) -> Path:
    target.mkdir()
    for entry in default_migrations().iterdir():
        if entry.name.endswith(".sql"):
            (target / entry.name).write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
    return target


async def test_empty_database_gets_every_migration(db_path: Path) -> None:
    async with await Storage.open(db_path):
        pass
    assert user_version(db_path) == LATEST >= 1
    assert table_names(db_path) >= EXPECTED_TABLES


def read_pragmas(conn: sqlite3.Connection) -> dict[str, Any]:
    names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
    return {name: conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names}


async def test_pragmas_are_set(db_path: Path) -> None:
    db = await Database.open(db_path)  # what Storage.open uses
    try:
        pragmas = await db.run(read_pragmas)
    finally:
        await db.close()
    # synchronous 1 is NORMAL; busy_timeout is in milliseconds
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 1,
        "foreign_keys": 1,
        "busy_timeout": 5000,
    }
    with sqlite3.connect(db_path) as other:  # WAL is a property of the file, kept for everyone
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_locked_database_is_waited_for(db_path: Path) -> None:
    """Another process (a backup, a migration) holding the write lock delays a write: no error."""
    async with await Storage.open(db_path) as storage:
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(0.2, other.execute, "COMMIT")
        started = time.monotonic()
        chat = await storage.upsert_chat(1, "waited", "group")
        other.close()
    assert chat.title == "waited"
    assert time.monotonic() - started >= 0.2


async def test_reopening_is_a_no_op(db_path: Path) -> None:
    async with await Storage.open(db_path) as s:
        await s.upsert_chat(1, "kept", "group")
    async with await Storage.open(db_path) as s:
        chat = await s.get_chat(1)
    assert chat is not None and chat.title == "kept"
    assert user_version(db_path) == LATEST


async def test_version_1_database_is_upgraded_in_place(tmp_path: Path, db_path: Path) -> None:
    migrations = copy_shipped_migrations(tmp_path / "migrations")
    (migrations / f"{LATEST + 1:04d}_chat_notes.sql").write_text(
        "-- a later migration: a new column and a table filled from old data\n"
        "ALTER TABLE chats ADD COLUMN note TEXT NOT NULL DEFAULT 'none';\n"
        "CREATE TABLE chat_titles (chat_id INTEGER PRIMARY KEY, title TEXT);\n"
        "INSERT INTO chat_titles SELECT chat_id, title FROM chats;\n",
        encoding="utf-8",
    )
    async with await Storage.open(db_path, migrations=migrations, max_version=1) as s:
        await s.upsert_chat(7, "Old group", "group")
    assert user_version(db_path) == 1

    async with await Storage.open(db_path, migrations=migrations) as s:
        chat = await s.get_chat(7)
    assert chat is not None and chat.title == "Old group"
    assert user_version(db_path) == LATEST + 1
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT note FROM chats WHERE chat_id = 7").fetchone() == ("none",)
        assert conn.execute("SELECT title FROM chat_titles").fetchall() == [("Old group",)]


async def test_shipped_migrations_upgrade_from_version_1(db_path: Path) -> None:
    async with await Storage.open(db_path, max_version=1) as s:
        await s.upsert_user(1, "Ann", None, None)
    async with await Storage.open(db_path) as s:
        user = await s.get_user(1)
    assert user is not None and user.display_name == "Ann"
    assert user_version(db_path) == LATEST


async def test_version_1_log_becomes_append_only_in_place(db_path: Path) -> None:
    """0002 adds triggers only: a version-1 database keeps its events and can go on appending."""
    async with await Storage.open(db_path, max_version=1) as s:
        await seed_chat(s, -100)
        tid = (await s.create_table(-100, 1)).table_id
        await s.append_events(tid, 0, [{"type": "a"}, {"type": "b"}], {"n": 2})
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute("UPDATE events SET created_at = created_at")  # version 1 did not stop it

    async with await Storage.open(db_path) as s:
        assert await s.append_events(tid, 2, [{"type": "c"}], {"n": 3}) == 3
        assert await s.load_events(tid) == [{"type": "a"}, {"type": "b"}, {"type": "c"}]
        assert await s.load_snapshot(tid) == (3, {"n": 3})
    assert user_version(db_path) == LATEST >= 2
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE events SET created_at = created_at")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM events")


async def test_tables_in_play_before_0003_count_as_announced(db_path: Path) -> None:
    """0003 adds ``announced_seq``: a table with events from before it must not have its whole
    history announced again at the next start-up, so it starts at the table's last event."""
    async with await Storage.open(db_path, max_version=2) as s:
        await seed_chat(s, -100)
        tid = (await s.create_table(-100, 1)).table_id
        await s.append_events(tid, 0, [{"type": "a"}, {"type": "b"}], {"n": 2})
    async with await Storage.open(db_path) as s:
        before = await s.get_table(tid)
        assert before is not None and (before.last_seq, before.announced_seq) == (2, 2)
        await s.append_events(tid, 2, [{"type": "c"}], {"n": 3})
        after = await s.get_table(tid)
        assert after is not None and (after.last_seq, after.announced_seq) == (3, 2)
        moved = await s.update_table(tid, announced_seq=3)
        assert moved.announced_seq == 3
        await seed_chat(s, -200)
        assert (await s.create_table(-200, 1)).announced_seq == 0  # a new table: nothing told
    assert user_version(db_path) == LATEST >= 3


def column_names(path: Path, table: str) -> set[str]:
    with closing(sqlite3.connect(path)) as conn:
        return {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))}


async def test_0004_drops_unused_columns_and_keeps_the_data(db_path: Path) -> None:
    """A version-3 database with settings and DM flags written loses those columns only."""
    async with await Storage.open(db_path, max_version=3) as s:
        await seed_chat(s, -100, 1, 2)
        await s.set_chat_language(-100, "uk")
        tid = (await s.create_table(-100, 1, players=2)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        await s.append_events(tid, 0, [{"type": "a"}], {"n": 1})
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute("UPDATE chats SET settings = '{\"goat_limit\": 301}'")
        conn.execute("UPDATE users SET started_bot = 1, blocked = 1 WHERE user_id = 1")
    assert {"started_bot", "blocked"} <= column_names(db_path, "users")

    async with await Storage.open(db_path) as s:
        chat = await s.get_chat(-100)
        assert chat is not None and (chat.title, chat.language) == ("Chat -100", "uk")
        user = await s.get_user(1)
        assert user is not None and user.display_name == "Player 1"
        [seat] = await s.get_seats(tid)
        assert seat.user_id == 1
        assert await s.load_snapshot(tid) == (1, {"n": 1})
        assert await s.append_events(tid, 1, [{"type": "b"}], {"n": 2}) == 2
        await s.upsert_user(3, "Newcomer", None, None)
    assert user_version(db_path) == LATEST >= 4
    assert "settings" not in column_names(db_path, "chats")
    assert not {"started_bot", "blocked"} & column_names(db_path, "users")
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_0005_makes_topics_places_and_keeps_tables_in_their_chats(db_path: Path) -> None:
    """A version-4 database with tables (one active, one finished) upgrades in place: its
    tables sit in their chats themselves, the chat still holds one active table there, and
    the chat's forum topics can now hold one each."""
    async with await Storage.open(db_path, max_version=4) as s:
        await seed_chat(s, -100)
        done = (await s.create_table(-100, 1)).table_id
        await s.update_table(done, status="finished")
        active = (await s.create_table(-100, 2, players=2)).table_id
        await s.add_seat(active, 0, side=0, user_id=2)
        await s.append_events(active, 0, [{"type": "a"}], {"n": 1})
    assert "thread_id" not in column_names(db_path, "tables")

    async with await Storage.open(db_path) as s:
        kept = await s.get_active_table(-100)
        assert kept is not None and (kept.table_id, kept.thread_id) == (active, None)
        assert (await s.get_table(done)) is not None
        with pytest.raises(TableAlreadyActive):
            await s.create_table(-100, 3)
        in_topic = await s.create_table(-100, 3, thread_id=42)
        assert [t.table_id for t in await s.chat_active_tables(-100)] == [
            active,
            in_topic.table_id,
        ]
        assert await s.append_events(active, 1, [{"type": "b"}], {"n": 2}) == 2
    assert user_version(db_path) == LATEST >= 5
    with closing(sqlite3.connect(db_path)) as conn:
        indexes = {r[1] for r in conn.execute("SELECT * FROM pragma_index_list('tables')")}
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert "tables_one_active_per_chat" not in indexes
    assert "tables_one_active_per_place" in indexes


async def test_0006_gives_every_table_a_strong_computer_level(db_path: Path) -> None:
    """0006 adds ``computer_level``: a version-5 table, its seats and its log carry on, and it
    (like a new table) gets strong computers until someone picks another level."""
    async with await Storage.open(db_path, max_version=5) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=2)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        await s.add_seat(tid, 1, side=1, ai="greedy")
        await s.append_events(tid, 0, [{"type": "a"}], {"n": 1})
    assert "computer_level" not in column_names(db_path, "tables")

    async with await Storage.open(db_path) as s:
        old = await s.get_table(tid)
        assert old is not None and old.computer_level == "strong" and old.last_seq == 1
        assert [seat.ai for seat in await s.get_seats(tid)] == [None, "greedy"]
        assert (await s.update_table(tid, computer_level="easy")).computer_level == "easy"
        with pytest.raises(ValueError, match="rejected by the schema"):
            await s.update_table(tid, computer_level="grandmaster")
        await seed_chat(s, -200, 2)
        assert (await s.create_table(-200, 2)).computer_level == "strong"
    assert user_version(db_path) == LATEST >= 6


# The standings as version 6 read them (repository.py before migration 0007), to show 0007
# keeps every number.
V6_STANDINGS = (
    "SELECT mp.user_id, COUNT(*), SUM(mp.is_goat), SUM(mp.is_winner), AVG(mp.score), "
    "SUM(mp.rating_delta) FROM match_players AS mp JOIN matches AS m ON m.match_id = mp.match_id "
    "WHERE m.chat_id = ? AND mp.user_id IS NOT NULL GROUP BY mp.user_id ORDER BY mp.user_id"
)


async def test_0007_keeps_kozel_results_and_opens_results_to_every_game(db_path: Path) -> None:
    """A version-6 database with Kozel matches (goats, a best score, players in between, a
    computer, a timeout) upgrades to results that name the game and the outcome: the goats
    have lost, the best has won, the rest neither, and the standings read exactly as before."""
    async with await Storage.open(db_path, max_version=6) as s:
        await seed_chat(s, -100, 1, 2, 3)
        tables = []
        for _ in range(2):
            tables.append((await s.create_table(-100, 1, players=3)).table_id)
            await s.update_table(tables[-1], status="finished")
    # user, seat, score, is_goat, is_winner, rating_delta (seat 2 of the first: a computer)
    played: dict[int, tuple[str, list[tuple[int | None, int, int, int, int, int]]]] = {
        tables[0]: ("goat", [(1, 0, 12, 0, 1, 9), (2, 1, 104, 1, 0, 0), (None, 2, 40, 0, 0, 0)]),
        tables[1]: ("timeout", [(1, 0, 30, 1, 0, 0), (2, 1, 20, 0, 1, 1), (3, 2, 25, 0, 0, 1)]),
    }
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        for tid, (ended_by, seats) in played.items():
            match_id = conn.execute(
                "INSERT INTO matches (table_id, chat_id, game, players, pairs, rounds, ended_by, "
                "finished_at) VALUES (?, -100, 'kozel', 3, 0, 4, ?, ?)",
                (tid, ended_by, 1_700_000_000 + tid),
            ).lastrowid
            conn.executemany(
                "INSERT INTO match_players (match_id, user_id, seat, side, score, is_goat, "
                "is_winner, rating_delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(match_id, user, seat, seat, *rest) for user, seat, *rest in seats],
            )
        before = conn.execute(V6_STANDINGS, (-100,)).fetchall()
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute(
                "INSERT INTO matches (table_id, chat_id, game, players, pairs, rounds, ended_by, "
                "finished_at) VALUES (?, -100, 'muggins', 2, 0, 1, 'target', 0)",
                (tables[0],),
            )
    assert before == [(1, 2, 1, 1, 21.0, 9), (2, 2, 1, 1, 62.0, 1), (3, 1, 0, 0, 25.0, 1)]

    async with await Storage.open(db_path) as s:
        after = await s.chat_standings(-100, order_by="matches")
        assert await s.chat_games(-100) == ["kozel"]
        assert [
            (r.user_id, r.matches, r.losses, r.wins, r.avg_points, r.rating)
            for r in sorted(after, key=lambda r: r.user_id)
        ] == before
        assert all(r.draws == 0 for r in after)
        assert [(m.ended_by, m.outcome, m.score) for m in await s.recent_matches(3)] == [
            ("timeout", "none", 25)
        ]
        [record] = (await s.user_record(2)).games
        assert (record.game, record.matches, record.losses, record.wins) == ("kozel", 2, 1, 1)
        # a muggins match can now be recorded, and stays out of the kozel standings
        await seed_chat(s, -100, 4)
        muggins = (await s.create_table(-100, 4, players=2)).table_id
        match_id = await s.record_match(
            muggins,
            "target",
            3,
            [PlayerResult(4, 0, 0, 105, "won", 4), PlayerResult(1, 1, 1, 60, "lost", -4)],
            game="muggins",
        )
        assert match_id == 3  # after the old matches' ids
        assert await s.chat_games(-100) == ["muggins", "kozel"]
        assert await s.chat_standings(-100, order_by="matches") == after
        assert [r.user_id for r in await s.chat_standings(-100, game="muggins")] == [4, 1]
    assert user_version(db_path) == LATEST >= 7
    assert {"is_goat", "is_winner"}.isdisjoint(column_names(db_path, "match_players"))
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT COUNT(*) FROM match_players").fetchone() == (8,)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert {"matches_by_chat_game", "match_players_by_user"} <= names
    assert not {n for n in names if n.endswith("_0006")}


async def test_0009_lets_a_live_hand_keep_its_question(db_path: Path) -> None:
    """0009 adds ``hand_question``: a version-8 seat, read before and after the upgrade, asks
    nothing and keeps its live hand; then its question is stored, read back, and cleared."""
    async with await Storage.open(db_path, max_version=8) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=2)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        await s.update_seat(tid, 0, hand_message_id=77)
        [seat] = await s.get_seats(tid)
        assert (seat.hand_message_id, seat.hand_question) == (77, None)
    assert "hand_question" not in column_names(db_path, "seats")

    async with await Storage.open(db_path) as s:
        [seat] = await s.get_seats(tid)
        assert (seat.hand_message_id, seat.hand_question) == (77, None)
        asked = await s.update_seat(tid, 0, hand_question='{"version": 5}')
        assert (asked.hand_message_id, asked.hand_question) == (77, '{"version": 5}')
        [seat] = await s.get_seats(tid)
        assert seat.hand_question == '{"version": 5}'
        cleared = await s.update_seat(tid, 0, hand_message_id=None, hand_question=None)
        assert (cleared.hand_message_id, cleared.hand_question) == (None, None)
    assert user_version(db_path) == LATEST >= 9


async def test_0010_names_the_computers_seated_as_their_seats_did(db_path: Path) -> None:
    """Before 0010 a computer was named by its seat's number: the computers seated keep that
    name, and a person keeps none."""
    async with await Storage.open(db_path, max_version=9) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=3)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        await s.add_seat(tid, 1, side=1, ai="easy")
        await s.add_seat(tid, 2, side=2, ai="strong")
    async with await Storage.open(db_path) as s:
        assert [seat.computer for seat in await s.get_seats(tid)] == [None, 1, 2]
    assert user_version(db_path) == LATEST >= 10


async def test_0011_counts_the_computers_seated_as_chosen(db_path: Path) -> None:
    """Before 0011 nothing told a computer that took a seat over from one the players seated:
    every computer counts as seated by them; one marked a stand-in reads so."""
    async with await Storage.open(db_path, max_version=10) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=2)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        await s.add_seat(tid, 1, side=1, ai="easy")
        assert [seat.stand_in for seat in await s.get_seats(tid)] == [False, False]
    async with await Storage.open(db_path) as s:
        assert [seat.stand_in for seat in await s.get_seats(tid)] == [False, False]
        taken = await s.update_seat(tid, 0, user_id=None, ai="easy", stand_in=True)
        assert (taken.stand_in, taken.computer) == (True, 0)
    assert user_version(db_path) == LATEST >= 11


async def test_0012_lets_a_person_ask_to_change_pair(db_path: Path) -> None:
    async with await Storage.open(db_path, max_version=11) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=4, pairs=True)).table_id
        await s.add_seat(tid, 0, side=0, user_id=1)
        assert not (await s.get_seats(tid))[0].asks_swap
    async with await Storage.open(db_path) as s:
        assert not (await s.get_seats(tid))[0].asks_swap
        assert (await s.update_seat(tid, 0, asks_swap=True)).asks_swap
    assert user_version(db_path) == LATEST >= 12


async def test_0013_keeps_the_view_a_lobby_shows(db_path: Path) -> None:
    """0013 adds ``lobby_view``: a version-12 lobby, read before and after the upgrade, shows
    itself; then its editor is stored and read back, and a view the bot has none of is
    refused."""
    async with await Storage.open(db_path, max_version=12) as s:
        await seed_chat(s, -100, 1)
        tid = (await s.create_table(-100, 1, players=2)).table_id
        old = await s.get_table(tid)
        assert old is not None and old.lobby_view == "lobby"
    assert "lobby_view" not in column_names(db_path, "tables")

    async with await Storage.open(db_path) as s:
        old = await s.get_table(tid)
        assert old is not None and old.lobby_view == "lobby"
        assert (await s.update_table(tid, lobby_view="games")).lobby_view == "games"
        again = await s.get_table(tid)
        assert again is not None and again.lobby_view == "games"
        with pytest.raises(ValueError, match="rejected by the schema"):
            await s.update_table(tid, lobby_view="chess")  # type: ignore[arg-type]
    assert user_version(db_path) == LATEST >= 13


async def test_0014_keeps_only_the_lobbies_a_stop_may_have_left_open(db_path: Path) -> None:
    """Before 0014 every table kept its lobby message. After it, a table past its lobby keeps
    it only if the bot may have stopped before closing it: one in play whose board nobody saw,
    or the newest table of its place, cancelled or finished in the last two days. An open
    lobby keeps its message, and the tables whose lobby to close are listed."""

    async def table(s: Storage, chat: int, status: TableStatus, board: int | None = None) -> int:
        await seed_chat(s, chat, 1)
        tid = (await s.create_table(chat, 1, players=2)).table_id
        await s.update_table(tid, lobby_message_id=10 * tid, board_message_id=board)
        if status != "lobby":
            await s.update_table(tid, status=status)
        return tid

    async with await Storage.open(db_path, max_version=13) as s:
        replaced = await table(s, -100, "cancelled")
        cancelled = await table(s, -100, "cancelled")
        shown = await table(s, -200, "playing", board=7)
        unseen = await table(s, -300, "playing")
        old = await table(s, -400, "cancelled")
        finished = await table(s, -500, "finished")
        open_lobby = await table(s, -600, "lobby")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "UPDATE tables SET finished_at = finished_at - 3 * 86400 WHERE table_id = ?", (old,)
        )

    async with await Storage.open(db_path) as s:
        kept = {
            tid: row.lobby_message_id
            for tid in (replaced, cancelled, shown, unseen, old, finished, open_lobby)
            if (row := await s.get_table(tid)) is not None
        }
        statuses: list[TableStatus] = ["lobby", "playing", "finished", "cancelled"]
        listed = [row.table_id for row in await s.list_tables(statuses, with_lobby=True)]
    assert kept == {
        replaced: None,
        cancelled: 10 * cancelled,
        shown: None,
        unseen: 10 * unseen,
        old: None,
        finished: 10 * finished,
        open_lobby: 10 * open_lobby,
    }
    assert listed == [cancelled, unseen, finished, open_lobby]
    assert user_version(db_path) == LATEST >= 14


async def test_0015_counts_the_order_of_play_told_once_the_board_was_shown(db_path: Path) -> None:
    """Before 0015 nothing said whether the group was told a match's order of play. After it
    a table in play whose board was shown was told it (announced_seq at least 1); one whose
    board nobody saw was not (0), and is told at start-up; results told stay told."""

    async def playing(s: Storage, chat: int, board: int | None, announced: int = 0) -> int:
        await seed_chat(s, chat, 1)
        tid = (await s.create_table(chat, 1, players=2)).table_id
        await s.update_table(tid, status="playing", board_message_id=board)
        await s.append_events(tid, 0, [{"type": "started"}, {"type": "dealt"}], {})
        return (await s.update_table(tid, announced_seq=announced)).table_id

    async with await Storage.open(db_path, max_version=14) as s:
        shown, unseen = await playing(s, -100, 7), await playing(s, -200, None)
        told = await playing(s, -300, 9, announced=2)
    async with await Storage.open(db_path) as s:
        announced = [
            row.announced_seq
            for tid in (shown, unseen, told)
            if (row := await s.get_table(tid)) is not None
        ]
    assert announced == [1, 0, 2]
    assert user_version(db_path) == LATEST >= 15


async def test_0016_tells_a_table_nobody_started_in_time_from_a_cancelled_one(
    db_path: Path,
) -> None:
    """Before 0016 a table nobody started in time was stored as cancelled, like one closed by
    /cancel, so its lobby said it was cancelled after a restart. After it a cancelled table
    from before still reads as cancelled; one closed now may be marked expired, and reads so
    once reopened; only a cancelled table can be."""
    async with await Storage.open(db_path, max_version=15) as s:
        await seed_chat(s, -100, 1)
        before = (await s.create_table(-100, 1, players=2)).table_id
        await s.update_table(before, status="cancelled")
    assert "expired" not in column_names(db_path, "tables")

    async with await Storage.open(db_path) as s:
        await seed_chat(s, -200, 1)
        lobby = (await s.create_table(-200, 1, players=2)).table_id
        with pytest.raises(ValueError, match="rejected by the schema"):
            await s.update_table(lobby, expired=True)
        await s.update_table(lobby, status="cancelled", expired=True)
    async with await Storage.open(db_path) as s:
        fates = {
            tid: (row.status, row.expired)
            for tid in (before, lobby)
            if (row := await s.get_table(tid)) is not None
        }
    assert fates == {before: ("cancelled", False), lobby: ("cancelled", True)}
    assert user_version(db_path) == LATEST >= 16


async def test_0017_lets_a_person_choose_their_language_and_keeps_everyone_as_they_were(
    db_path: Path,
) -> None:
    """Before 0017 a person was written to in their Telegram app's language only. After it
    everyone known before still follows their app, and a person may choose another."""
    async with await Storage.open(db_path, max_version=16) as s:
        await s.upsert_user(1, "Ann", None, "ru")
    assert "chosen_language" not in column_names(db_path, "users")
    async with await Storage.open(db_path) as s:
        before = await s.get_user(1)
        await s.set_user_language(1, "uk")
        after = await s.get_user(1)
    assert before is not None and (before.language, before.chosen_language) == ("ru", None)
    assert after is not None and (after.language, after.chosen_language) == ("ru", "uk")
    assert user_version(db_path) == LATEST >= 17


async def test_failed_migration_leaves_the_previous_version(tmp_path: Path, db_path: Path) -> None:
    migrations = copy_shipped_migrations(tmp_path / "migrations")
    (migrations / f"{LATEST + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n", encoding="utf-8"
    )
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(db_path, migrations=migrations)
    assert user_version(db_path) == LATEST
    assert "half_done" not in table_names(db_path)


async def test_newer_database_is_refused(tmp_path: Path, db_path: Path) -> None:
    migrations = copy_shipped_migrations(tmp_path / "migrations")
    for version in range(LATEST + 1, 4):
        (migrations / f"{version:04d}_noop.sql").write_text("SELECT 1;", encoding="utf-8")
    async with await Storage.open(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNew) as caught:
        await Storage.open(db_path, migrations=migrations, max_version=3)
    assert str(caught.value) == (
        f"database schema version {LATEST + 1} is newer than this bot supports (3); upgrade the bot"
    )
    with pytest.raises(SchemaTooNew, match=f"supports \\({LATEST}\\)"):
        await Storage.open(db_path)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["0001_a.sql", "0003_c.sql"], "expected 0002"),
        (["0001_a.sql", "0001_b.sql"], "expected 0002"),
        (["0002_b.sql"], "expected 0001"),
        (["1_a.sql"], "not named NNNN_name.sql"),
    ],
)
def test_malformed_migration_directories(tmp_path: Path, names: list[str], message: str) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "README.md").write_text("ignored", encoding="utf-8")
    with pytest.raises(MigrationError, match=message):
        discover_migrations(tmp_path)


def test_statement_splitter_keeps_triggers_and_quoted_semicolons() -> None:
    script = (
        "-- comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT ';');\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = 'a;b';\n"
        "  DELETE FROM t WHERE x = '';\n"
        "END;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)


def test_incomplete_statement_is_an_error() -> None:
    with pytest.raises(MigrationError, match="incomplete"):
        split_statements("CREATE TABLE t (x);\nCREATE TABLE u (y")


def test_shipped_migration_directory_is_intact(tmp_path: Path) -> None:
    copied = copy_shipped_migrations(tmp_path / "m")
    assert [m.name for m in discover_migrations(copied)] == [m.name for m in discover_migrations()]
    shutil.rmtree(copied)
