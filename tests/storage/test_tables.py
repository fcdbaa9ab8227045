"""Chats, users, tables and seats: the rows the lobby and the timers live on."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from storage import (
    AlreadySeated,
    NotFound,
    SeatTaken,
    Storage,
    TableAlreadyActive,
)
from storage.db import Database

from .conftest import FakeClock, seed_chat


async def test_chat_upsert_refreshes_title_and_keeps_choices(storage: Storage) -> None:
    created = await storage.upsert_chat(-1, "Yard", "group")
    assert created.language is None
    await storage.set_chat_language(-1, "uk")
    renamed = await storage.upsert_chat(-1, "Yard (new name)", "supergroup")
    assert renamed.title == "Yard (new name)" and renamed.type == "supergroup"
    assert renamed.language == "uk"
    assert renamed.created_at == created.created_at
    assert await storage.get_chat(-1) == renamed
    assert await storage.get_chat(-2) is None


async def test_updating_an_unknown_chat_says_so(storage: Storage) -> None:
    with pytest.raises(NotFound, match="chat -5"):
        await storage.set_chat_language(-5, "en")


async def test_user_names_and_language(storage: Storage) -> None:
    user = await storage.upsert_user(1, "Ann", "ann", "ru")
    assert (user.display_name, user.username, user.language) == ("Ann", "ann", "ru")
    user2 = await storage.upsert_user(1, "Ann K.", None, None)
    assert user2.display_name == "Ann K." and user2.username is None
    assert user2.language == "ru"  # an update without a language keeps the known one
    assert await storage.get_user(1) == user2
    assert await storage.get_user(2) is None


async def test_a_chosen_language_outlasts_the_updates_until_cleared(storage: Storage) -> None:
    """The language a person chose (/language in the DM) is theirs whatever their Telegram
    app says in each later update, until they clear it; an unknown person has none to set."""
    await storage.upsert_user(1, "Ann", "ann", "en")
    await storage.set_user_language(1, "uk")
    user = await storage.upsert_user(1, "Ann", "ann", "en")
    assert (user.language, user.chosen_language) == ("en", "uk")
    await storage.set_user_language(1, None)
    user2 = await storage.get_user(1)
    assert user2 is not None and (user2.language, user2.chosen_language) == ("en", None)
    with pytest.raises(NotFound, match="user 2"):
        await storage.set_user_language(2, "ru")


async def test_create_table_and_read_it_back(storage: Storage) -> None:
    await seed_chat(storage, -100)
    table = await storage.create_table(
        -100,
        1,
        rules={"goat_limit": 101, "fish_mode": "for_one"},
        players=4,
        pairs=True,
        turn_seconds=90,
    )
    assert table.status == "lobby" and table.is_active and table.last_seq == 0
    assert table.rules == {"goat_limit": 101, "fish_mode": "for_one"}
    assert (table.players, table.pairs, table.turn_seconds, table.game) == (4, True, 90, "kozel")
    assert await storage.get_table(table.table_id) == table
    assert await storage.get_active_table(-100) == table
    assert await storage.get_table(999) is None


async def test_unknown_chat_or_opener_is_refused(storage: Storage) -> None:
    await seed_chat(storage, -100)
    with pytest.raises(NotFound, match="upsert them first"):
        await storage.create_table(-999, 1)
    with pytest.raises(NotFound):
        await storage.create_table(-100, 999)


async def test_one_active_table_per_chat(storage: Storage) -> None:
    await seed_chat(storage, -100)
    await seed_chat(storage, -200)
    first = await storage.create_table(-100, 1)
    with pytest.raises(TableAlreadyActive, match="chat -100"):
        await storage.create_table(-100, 2)
    await storage.update_table(first.table_id, status="playing")
    with pytest.raises(TableAlreadyActive):
        await storage.create_table(-100, 2)
    other_chat = await storage.create_table(-200, 1)  # another chat is not affected
    assert other_chat.is_active

    await storage.update_table(first.table_id, status="cancelled")
    second = await storage.create_table(-100, 2)
    # reviving the cancelled table would make two active tables
    with pytest.raises(TableAlreadyActive):
        await storage.update_table(first.table_id, status="lobby")
    assert await storage.get_active_table(-100) == second


async def test_one_active_table_per_forum_topic(storage: Storage) -> None:
    """A forum's topics are places of their own: each may hold a table beside the one in the
    chat itself (the General topic), and each still holds at most one."""
    await seed_chat(storage, -100)
    general = await storage.create_table(-100, 1)
    topic_7 = await storage.create_table(-100, 2, thread_id=7)
    topic_9 = await storage.create_table(-100, 3, thread_id=9)
    assert (general.thread_id, topic_7.thread_id, topic_9.thread_id) == (None, 7, 9)
    with pytest.raises(TableAlreadyActive):
        await storage.create_table(-100, 4, thread_id=7)
    assert await storage.get_active_table(-100) == general
    assert await storage.get_active_table(-100, 7) == topic_7
    assert await storage.get_active_table(-100, 8) is None
    assert await storage.chat_active_tables(-100) == [general, topic_7, topic_9]

    await storage.update_table(topic_7.table_id, status="cancelled")
    again = await storage.create_table(-100, 4, thread_id=7)
    assert await storage.get_active_table(-100, 7) == again
    with pytest.raises(TableAlreadyActive):
        await storage.update_table(topic_7.table_id, status="lobby")
    with pytest.raises(ValueError, match="rejected by the schema"):
        await storage.create_table(-100, 1, thread_id=0)  # topic ids are positive


async def test_a_topic_is_called_by_its_latest_name_and_a_guess_never_overrules(
    storage: Storage,
) -> None:
    """A topic's name comes from its service messages (created, renamed), which replace what
    was known; a guess (the name it was created with, seen in a message's reply) only fills a
    gap. Topics of two forums with the same id are two topics."""
    assert await storage.topic_name(-100, 7) is None
    await storage.name_topic(-100, 7, "Friday", known_wins=True)
    await storage.name_topic(-100, 7, "Friday games")
    await storage.name_topic(-100, 7, "Old name", known_wins=True)
    await storage.name_topic(-200, 7, "Elsewhere")
    assert await storage.topic_name(-100, 7) == "Friday games"
    assert await storage.topic_name(-200, 7) == "Elsewhere"


async def test_update_table_whitelist_and_timestamps(storage: Storage, clock: FakeClock) -> None:
    await seed_chat(storage, -100)
    table = await storage.create_table(-100, 1)
    updated = await storage.update_table(
        table.table_id,
        status="playing",
        rules={"goat_limit": 301},
        players=3,
        pairs=False,
        lobby_message_id=10,
        board_message_id=11,
        turn_seconds=30,
        turn_deadline=1_700_000_123.5,
    )
    assert updated.status == "playing" and updated.finished_at is None
    assert updated.rules == {"goat_limit": 301}
    assert (updated.players, updated.lobby_message_id, updated.board_message_id) == (3, 10, 11)
    assert updated.turn_deadline == 1_700_000_123.5
    assert updated.updated_at > table.updated_at
    cleared = await storage.update_table(table.table_id, lobby_message_id=None, turn_deadline=None)
    assert cleared.lobby_message_id is None and cleared.turn_deadline is None
    done = await storage.update_table(table.table_id, status="finished")
    assert done.finished_at == clock.now and not done.is_active

    with pytest.raises(ValueError, match="cannot change chat_id"):
        await storage.update_table(table.table_id, chat_id=5)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="cannot change last_seq"):
        await storage.update_table(table.table_id, last_seq=5)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="unknown table status"):
        await storage.update_table(table.table_id, status="paused")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rejected by the schema"):
        await storage.update_table(table.table_id, players=9)
    with pytest.raises(NotFound):
        await storage.update_table(999, turn_seconds=5)


async def test_list_tables_by_status(storage: Storage) -> None:
    for chat in (-1, -2, -3):
        await seed_chat(storage, chat)
    lobby = await storage.create_table(-1, 1)
    playing = await storage.update_table(
        (await storage.create_table(-2, 1)).table_id, status="playing", turn_deadline=123.0
    )
    finished = await storage.update_table(
        (await storage.create_table(-3, 1)).table_id, status="finished"
    )
    assert [t.table_id for t in await storage.list_tables()] == [lobby.table_id, playing.table_id]
    assert await storage.list_tables(status="playing") == [playing]
    assert await storage.list_tables(status=["finished"]) == [finished]
    with pytest.raises(ValueError):
        await storage.list_tables(status="bogus")  # type: ignore[arg-type]


async def steps_to_list_the_active_tables(path: Path) -> int:
    """SQLite's virtual machine steps for the sweep's listing, with the planner's statistics
    fresh (as ``PRAGMA optimize`` leaves them when the bot stops): a count, not a time."""
    steps = 0

    def step() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    def count_steps(conn: sqlite3.Connection) -> None:
        conn.execute("ANALYZE")
        conn.set_progress_handler(step, 1)

    db = await Database.open(path)
    async with Storage(db) as storage:
        await db.run(count_steps)
        assert len(await storage.list_tables()) == 2
        return steps


def add_finished_tables(path: Path, count: int) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.executemany(
            "INSERT INTO tables (chat_id, status, players, opener_id, created_at, updated_at) "
            "VALUES (-1, 'finished', 4, 1, 0, 0)",
            [()] * count,
        )


async def test_listing_the_active_tables_reads_them_only_however_long_the_history(
    db_path: Path,
) -> None:
    """The sweep lists the lobbies and the matches in play every minute, on the thread every
    move waits for: a group's thousands of finished tables must not be read each time."""
    async with await Storage.open(db_path) as storage:
        for chat in (-1, -2):
            await seed_chat(storage, chat)
        await storage.create_table(-1, 1)
        await storage.update_table((await storage.create_table(-2, 1)).table_id, status="playing")
    add_finished_tables(db_path, 50)
    short = await steps_to_list_the_active_tables(db_path)
    add_finished_tables(db_path, 5000)
    assert await steps_to_list_the_active_tables(db_path) < 2 * short


async def test_finished_tables_whose_results_were_not_all_announced(storage: Storage) -> None:
    for chat in (-1, -2):
        await seed_chat(storage, chat)
    told, untold = [(await storage.create_table(chat, 1)).table_id for chat in (-1, -2)]
    for tid in (told, untold):
        await storage.append_events(tid, 0, [{"type": "a"}, {"type": "b"}], {"n": 2})
        await storage.update_table(tid, status="finished")
    await storage.update_table(told, announced_seq=2)
    await storage.update_table(untold, announced_seq=1)
    found = await storage.list_tables(status="finished", unannounced=True)
    assert [t.table_id for t in found] == [untold]
    assert len(await storage.list_tables(status="finished")) == 2
    await storage.update_table(untold, announced_seq=2)
    assert await storage.list_tables(status="finished", unannounced=True) == []


async def test_seats(storage: Storage) -> None:
    await seed_chat(storage, -100)
    table = await storage.create_table(-100, 1, players=4, pairs=True)
    tid = table.table_id
    ann = await storage.add_seat(tid, 0, side=0, user_id=1)
    assert ann.display_name == "Player 1" and ann.ai is None and not ann.absent
    bot = await storage.add_seat(tid, 1, side=1, ai="greedy")
    assert bot.display_name is None and bot.user_id is None
    await storage.add_seat(tid, 2, side=0, user_id=2)

    with pytest.raises(SeatTaken, match="seat 1"):
        await storage.add_seat(tid, 1, side=1, user_id=3)
    with pytest.raises(AlreadySeated):
        await storage.add_seat(tid, 3, side=1, user_id=1)
    with pytest.raises(ValueError, match="exactly one"):
        await storage.add_seat(tid, 3, side=1)
    with pytest.raises(ValueError, match="exactly one"):
        await storage.add_seat(tid, 3, side=1, user_id=3, ai="greedy")
    with pytest.raises(NotFound):
        await storage.add_seat(tid, 3, side=1, user_id=999)

    assert [s.seat for s in await storage.get_seats(tid)] == [0, 1, 2]

    # Player 2 times out twice and a computer takes over the seat.
    await storage.update_seat(tid, 2, missed_turns=2, absent=True, hand_message_id=77)
    taken_over = await storage.update_seat(tid, 2, user_id=None, ai="greedy")
    assert (taken_over.user_id, taken_over.ai, taken_over.missed_turns) == (None, "greedy", 2)
    assert taken_over.absent and taken_over.hand_message_id == 77
    with pytest.raises(ValueError, match="rejected by the schema"):
        await storage.update_seat(tid, 2, ai=None)  # neither human nor computer
    with pytest.raises(AlreadySeated):
        await storage.update_seat(tid, 2, user_id=1, ai=None)
    with pytest.raises(ValueError, match="cannot change table_id"):
        await storage.update_seat(tid, 2, table_id=5)  # type: ignore[call-arg]
    with pytest.raises(NotFound):
        await storage.update_seat(tid, 3, missed_turns=1)


async def test_arranging_seats_moves_everything_a_seat_holds_at_once(storage: Storage) -> None:
    """Seats change places (a lobby closing a gap, people changing pairs, partners sitting
    opposite at the deal) in one transaction, keeping what each seat holds."""
    await seed_chat(storage, -100)
    table = await storage.create_table(-100, 1, players=4, pairs=True)
    tid = table.table_id
    await storage.add_seat(tid, 0, side=0, user_id=1)
    await storage.add_seat(tid, 1, side=0, user_id=2)
    await storage.add_seat(tid, 2, side=1, ai="easy")
    await storage.add_seat(tid, 3, side=1, ai="strong")
    await storage.update_seat(
        tid, 1, missed_turns=1, absent=True, hand_message_id=77, hand_question="end:5-6"
    )

    arranged = await storage.arrange_seats(tid, [(0, 0), (2, 1), (1, 0), (3, 1)])
    assert arranged == await storage.get_seats(tid)
    assert [(s.seat, s.side, s.user_id, s.ai) for s in arranged] == [
        (0, 0, 1, None),
        (1, 1, None, "easy"),
        (2, 0, 2, None),
        (3, 1, None, "strong"),
    ]
    moved = arranged[2]
    assert (moved.display_name, moved.missed_turns, moved.absent) == ("Player 2", 1, True)
    assert (moved.hand_message_id, moved.hand_question) == (77, "end:5-6")

    # a seat left out leaves the table: the others close the gap
    arranged = await storage.arrange_seats(tid, [(0, 0), (2, 0), (3, 1)])
    assert [(s.seat, s.side, s.user_id, s.ai) for s in arranged] == [
        (0, 0, 1, None),
        (1, 0, 2, None),
        (2, 1, None, "strong"),
    ]


async def test_a_computer_keeps_its_name_and_no_two_at_a_table_share_one(
    storage: Storage,
) -> None:
    """A computer is named by its seat's number when no other computer has it, else by the
    lowest free one; the name moves with it, a person's seat taken over gets a free one, and a
    name another computer has is refused."""
    await seed_chat(storage, -100)
    tid = (await storage.create_table(-100, 1, players=4, pairs=True)).table_id
    await storage.add_seat(tid, 0, side=0, user_id=1)
    await storage.add_seat(tid, 1, side=1, ai="easy")
    await storage.add_seat(tid, 2, side=1, ai="easy")
    arranged = await storage.arrange_seats(tid, [(1, 1), (2, 1)])  # the person leaves
    assert [(s.seat, s.computer) for s in arranged] == [(0, 1), (1, 2)]
    assert (await storage.add_seat(tid, 2, side=0, ai="easy")).computer == 0
    assert (await storage.add_seat(tid, 3, side=0, user_id=2)).computer is None

    taken_over = await storage.update_seat(tid, 3, user_id=None, ai="easy")
    assert taken_over.computer == 3
    again = await storage.update_seat(tid, 3, user_id=2, ai=None)
    assert again.computer is None
    await storage.arrange_seats(tid, [(0, 1), (1, 1), (2, 0)])
    with pytest.raises(ValueError, match="name is taken"):
        await storage.add_seat(tid, 3, side=0, ai="easy", computer=1)
    assert (await storage.add_seat(tid, 3, side=0, ai="easy", computer=3)).computer == 3


async def test_an_ask_to_change_pair_lapses_once_the_seat_changes_pair(storage: Storage) -> None:
    await seed_chat(storage, -100)
    tid = (await storage.create_table(-100, 1, players=4, pairs=True)).table_id
    for seat, user in enumerate((1, 2, 3)):
        await storage.add_seat(tid, seat, side=seat % 2, user_id=user)
    await storage.update_seat(tid, 0, asks_swap=True)
    await storage.update_seat(tid, 1, asks_swap=True)
    arranged = await storage.arrange_seats(tid, [(0, 1), (1, 1), (2, 0)])
    assert [(s.side, s.asks_swap) for s in arranged] == [(1, False), (1, True), (0, False)]


async def test_an_arrangement_storage_cannot_make_changes_nothing(storage: Storage) -> None:
    await seed_chat(storage, -100)
    table = await storage.create_table(-100, 1, players=4, pairs=True)
    tid = table.table_id
    await storage.add_seat(tid, 0, side=0, user_id=1)
    await storage.add_seat(tid, 1, side=1, ai="easy")
    seated = await storage.get_seats(tid)

    with pytest.raises(NotFound, match="seat 2"):
        await storage.arrange_seats(tid, [(1, 0), (2, 1)])
    with pytest.raises(ValueError, match="listed twice"):
        await storage.arrange_seats(tid, [(0, 0), (0, 1)])
    with pytest.raises(ValueError, match="rejected by the schema"):
        await storage.arrange_seats(tid, [(1, 0), (0, -1)])
    assert await storage.get_seats(tid) == seated


async def test_seating_keeps_a_lobby_alive(storage: Storage, clock: FakeClock) -> None:
    """A lobby expires when nothing has happened for a while; people joining is something."""
    await seed_chat(storage, -100)
    table = await storage.create_table(-100, 1, players=4)
    clock.now += 600
    await storage.add_seat(table.table_id, 0, side=0, user_id=1)
    joined = await storage.get_table(table.table_id)
    assert joined is not None and joined.updated_at > table.updated_at + 600
    clock.now += 600
    await storage.arrange_seats(table.table_id, [])
    left = await storage.get_table(table.table_id)
    assert left is not None and left.updated_at > joined.updated_at + 600
