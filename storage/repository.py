"""Every SQL statement of the bot, behind domain-speaking async methods on :class:`Storage`.

Each public method runs one synchronous function on the database's worker thread (one hop; see
``db.py``), so a multi-statement transaction is never interleaved with another call and costs a
single thread round trip. All values travel as ``?`` parameters; the only SQL assembled at run
time is from fixed, module-level mappings of column names and ORDER BY clauses.

``append_events`` additionally uses *group commit*: calls that arrive while a commit is in
flight are queued and written together in the next transaction, in arrival order, each keeping
its own sequence check and its own result. An idle bot still commits each move at once; under
load many tiny transactions become one, which more than doubles the moves per second one
connection can commit (see ``benchmarks/bench_storage.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, TypedDict, TypeVar, Unpack, get_args

from .db import Database
from .errors import (
    AlreadySeated,
    ConcurrentAppend,
    CorruptData,
    MatchAlreadyRecorded,
    NotFound,
    SameChatMigration,
    SeatTaken,
    StorageError,
    TableAlreadyActive,
)
from .models import (
    ACTIVE_STATUSES,
    DEFAULT_LEVEL,
    ChatRow,
    EndedBy,
    GameRecord,
    LobbyView,
    PastMatch,
    PastSeat,
    PlayerResult,
    RecentMatch,
    SeatRow,
    StandingRow,
    StandingsOrder,
    TableRow,
    TableStatus,
    UserRecord,
    UserRow,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Clock = Callable[[], float]
_Row = TypeVar("_Row", bound="DataclassInstance")

_STATUSES: Final = frozenset(get_args(TableStatus))
_ENDED_BY: Final = frozenset(get_args(EndedBy))
_TERMINAL: Final = frozenset(_STATUSES - set(ACTIVE_STATUSES))


# --- small helpers ---------------------------------------------------------------------------


# Built once: ``json.dumps`` with non-default options builds a new encoder per call, which is a
# third of the cost of encoding a 2 KB snapshot. NaN/Infinity are refused: they are not JSON.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _dumps(value: Any) -> str:
    """Compact JSON text, as stored in every JSON column."""
    return _ENCODER.encode(value)


def _load_object(text: Any, where: str) -> dict[str, Any]:
    """Decode a stored JSON object, or raise ``CorruptData`` saying where it came from."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise CorruptData(f"{where} is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise CorruptData(f"{where} is not a JSON object but {type(value).__name__}")
    return value


def _constraint(exc: sqlite3.IntegrityError) -> int:
    """Which constraint failed (SQLITE_CONSTRAINT_*), so we never parse SQLite's messages."""
    return exc.sqlite_errorcode


_UNIQUE: Final = (sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception.

    IMMEDIATE takes the write lock up front, so a transaction never fails half-way with
    SQLITE_BUSY when it first writes (busy_timeout only helps when the lock is asked first).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _decoded(model: type[_Row], row: sqlite3.Row, **read: Any) -> _Row:
    """A row of ``model`` from the columns named like its fields, as SQLite gives them.

    Every row type in ``models.py`` names its fields after the columns it comes from, so only
    the fields ``read`` otherwise (a flag, JSON, a column a later migration added) are spelt out.
    """
    stored = {f.name: row[f.name] for f in dataclasses.fields(model) if f.name not in read}
    return model(**stored, **read)


def _chat(row: sqlite3.Row) -> ChatRow:
    return _decoded(ChatRow, row)


def _user(row: sqlite3.Row) -> UserRow:
    columns = row.keys()  # ``in`` on a sqlite3.Row looks among the values
    # Before migration 0017 everyone followed their Telegram app's language.
    chosen = row["chosen_language"] if "chosen_language" in columns else None
    return _decoded(UserRow, row, chosen_language=chosen)


def _table(row: sqlite3.Row) -> TableRow:
    # ``.keys()`` because ``in`` on a sqlite3.Row looks among the values.
    columns = row.keys()
    return _decoded(
        TableRow,
        row,
        # Before migration 0005 every table sat in its chat itself.
        thread_id=row["thread_id"] if "thread_id" in columns else None,
        rules=_load_object(row["rules"], f"table {row['table_id']}: rules"),
        pairs=bool(row["pairs"]),
        # Before migration 0003 (a database opened with ``max_version``) everything counts as told.
        announced_seq=row["announced_seq"] if "announced_seq" in columns else row["last_seq"],
        computer_level=row["computer_level"] if "computer_level" in columns else DEFAULT_LEVEL,
        # Before migration 0013 a lobby showed itself after a restart.
        lobby_view=row["lobby_view"] if "lobby_view" in columns else "lobby",
        # Before migration 0016 nothing told an expired table from a cancelled one.
        expired="expired" in columns and bool(row["expired"]),
    )


def _seat(row: sqlite3.Row) -> SeatRow:
    columns = row.keys()  # ``in`` on a sqlite3.Row looks among the values
    # Before migration 0009 no hand asked a question, before 0010 no computer had a name,
    # before 0011 no computer stood in for anyone, and before 0012 nobody asked for a swap.
    return _decoded(
        SeatRow,
        row,
        absent=bool(row["absent"]),
        hand_question=row["hand_question"] if "hand_question" in columns else None,
        computer=row["computer"] if "computer" in columns else None,
        stand_in="stand_in" in columns and bool(row["stand_in"]),
        asks_swap="asks_swap" in columns and bool(row["asks_swap"]),
    )


# --- chats -----------------------------------------------------------------------------------

_SELECT_CHAT: Final = "SELECT * FROM chats WHERE chat_id = ?"


def _upsert_chat(
    conn: sqlite3.Connection, chat_id: int, title: str, type_: str, now: float
) -> ChatRow:
    conn.execute(
        "INSERT INTO chats (chat_id, title, type, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title, type = excluded.type",
        (chat_id, title, type_, now),
    )
    return _chat(conn.execute(_SELECT_CHAT, (chat_id,)).fetchone())


def _get_chat(conn: sqlite3.Connection, chat_id: int) -> ChatRow | None:
    row = conn.execute(_SELECT_CHAT, (chat_id,)).fetchone()
    return None if row is None else _chat(row)


#: A topic's name noted: a service message's replaces the known one; a guess does not.
_NAME_TOPIC: Final = {
    known_wins: "INSERT INTO topics (chat_id, thread_id, name) VALUES (?, ?, ?) "
    f"ON CONFLICT (chat_id, thread_id) DO {conflict}"
    for known_wins, conflict in ((False, "UPDATE SET name = excluded.name"), (True, "NOTHING"))
}


def _name_topic(
    conn: sqlite3.Connection, chat_id: int, thread_id: int, name: str, known_wins: bool
) -> None:
    conn.execute(_NAME_TOPIC[known_wins], (chat_id, thread_id, name))


def _topic_name(conn: sqlite3.Connection, chat_id: int, thread_id: int) -> str | None:
    row = conn.execute(
        "SELECT name FROM topics WHERE chat_id = ? AND thread_id = ?", (chat_id, thread_id)
    ).fetchone()
    return None if row is None else str(row["name"])


def _set_chat_language(conn: sqlite3.Connection, chat_id: int, language: str | None) -> None:
    cur = conn.execute("UPDATE chats SET language = ? WHERE chat_id = ?", (language, chat_id))
    if cur.rowcount == 0:
        raise NotFound(f"chat {chat_id} is unknown")


def _migrate_chat(conn: sqlite3.Connection, old_id: int, new_id: int, now: float) -> bool:
    with _transaction(conn):
        old = conn.execute(_SELECT_CHAT, (old_id,)).fetchone()
        if old is None:
            return False
        if conn.execute(_SELECT_CHAT, (new_id,)).fetchone() is None:
            # Telegram only migrates a group to a supergroup, so that is the new chat's type.
            conn.execute(
                "INSERT INTO chats (chat_id, title, type, language, created_at) "
                "SELECT ?, title, 'supergroup', language, created_at "
                "FROM chats WHERE chat_id = ?",
                (new_id, old_id),
            )
        else:
            # The new chat already spoke to us: its own title, type and language win; the old
            # chat fills in only what the new one has not set.
            conn.execute(
                "UPDATE chats SET language = COALESCE(language, ?), "
                "created_at = MIN(created_at, ?) WHERE chat_id = ?",
                (old["language"], old["created_at"], new_id),
            )
            # Both may have an active table in one place only if a table was opened in the
            # supergroup before we saw the migration; the old group can no longer be written
            # to, so its table is the one that cannot go on.
            conn.execute(
                "UPDATE tables SET status = 'cancelled', finished_at = ?, updated_at = ?, "
                "turn_deadline = NULL "
                "WHERE chat_id = ? AND status IN ('lobby', 'playing') AND EXISTS "
                "(SELECT 1 FROM tables AS t WHERE t.chat_id = ? AND t.thread_id IS "
                "tables.thread_id AND t.status IN ('lobby', 'playing'))",
                (now, now, old_id, new_id),
            )
        # The old group's messages stay there: the supergroup gets its lobby and board afresh.
        conn.execute(
            "UPDATE tables SET chat_id = ?, lobby_message_id = NULL, board_message_id = NULL "
            "WHERE chat_id = ?",
            (new_id, old_id),
        )
        conn.execute("UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
        conn.execute("DELETE FROM chats WHERE chat_id = ?", (old_id,))
    return True


# --- users -----------------------------------------------------------------------------------

_SELECT_USER: Final = "SELECT * FROM users WHERE user_id = ?"


def _upsert_user(
    conn: sqlite3.Connection,
    user_id: int,
    *,
    display_name: str,
    username: str | None,
    language: str | None,
    now: float,
) -> UserRow:
    conn.execute(
        "INSERT INTO users (user_id, display_name, username, language, updated_at) "
        "VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
        "username = excluded.username, "
        "language = COALESCE(excluded.language, users.language), "
        "updated_at = excluded.updated_at",
        (user_id, display_name, username, language, now),
    )
    return _user(conn.execute(_SELECT_USER, (user_id,)).fetchone())


def _set_user_language(conn: sqlite3.Connection, user_id: int, language: str | None) -> None:
    cur = conn.execute(
        "UPDATE users SET chosen_language = ? WHERE user_id = ?", (language, user_id)
    )
    if cur.rowcount == 0:
        raise NotFound(f"user {user_id} is unknown")


def _get_user(conn: sqlite3.Connection, user_id: int) -> UserRow | None:
    row = conn.execute(_SELECT_USER, (user_id,)).fetchone()
    return None if row is None else _user(row)


# --- tables ----------------------------------------------------------------------------------

_SELECT_TABLE: Final = "SELECT * FROM tables WHERE table_id = ?"


class TableUpdate(TypedDict, total=False):
    """The columns ``update_table`` may change; anything else is refused."""

    status: TableStatus
    game: str
    rules: Mapping[str, Any]
    players: int
    pairs: bool
    lobby_message_id: int | None
    board_message_id: int | None
    turn_seconds: int | None
    turn_deadline: float | None
    announced_seq: int
    computer_level: str
    lobby_view: LobbyView
    expired: bool


def _status(value: Any) -> str:
    if value not in _STATUSES:
        raise ValueError(f"unknown table status {value!r}")
    return str(value)


def _same(value: Any) -> Any:
    return value


def _flag(value: Any) -> int:
    return int(bool(value))


#: How a column's value is written: the stored form of what the caller gave.
_Encoder = Callable[[Any], Any]
#: Column name -> (SET clause, encoder). The clauses are the only SQL text an update joins.
_Columns = Mapping[str, tuple[str, _Encoder]]


def _settable(update: type, encoders: Mapping[str, _Encoder]) -> _Columns:
    """The columns the TypedDict ``update`` lets a method change, with their SET clauses.

    The whitelist is named once, in the TypedDict that types the method's keywords, so the two
    cannot drift apart; a value is stored as given unless ``encoders`` says otherwise.
    """
    names = update.__annotations__
    assert set(encoders) <= set(names), f"{update.__name__} has no {set(encoders) - set(names)}"
    return {name: (f"{name} = ?", encoders.get(name, _same)) for name in names}


_TABLE_COLUMNS: Final = _settable(
    TableUpdate, {"status": _status, "rules": _dumps, "pairs": _flag, "expired": _flag}
)


def _set_clause(
    columns: _Columns, fields: Mapping[str, Any], what: str
) -> tuple[list[str], list[Any]]:
    unknown = set(fields) - set(columns)
    if unknown:
        raise ValueError(f"{what} cannot change {', '.join(sorted(unknown))}")
    clauses: list[str] = []
    params: list[Any] = []
    for name, value in fields.items():
        clause, encode = columns[name]
        clauses.append(clause)
        params.append(encode(value))
    return clauses, params


def _check_failed(exc: sqlite3.IntegrityError, what: str) -> ValueError:
    return ValueError(f"{what} rejected by the schema: {exc}")


# A table in the chat itself leaves thread_id out, so that a database opened at a version
# before migration 0005 (``max_version``, in tests of the upgrade path) can still open tables.
_INSERT_TABLE: Final = (
    "INSERT INTO tables (chat_id, status, game, rules, players, pairs, opener_id, "
    "turn_seconds, created_at, updated_at) VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_TOPIC_TABLE: Final = (
    "INSERT INTO tables (chat_id, status, game, rules, players, pairs, opener_id, "
    "turn_seconds, created_at, updated_at, thread_id) "
    "VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _create_table(
    conn: sqlite3.Connection,
    chat_id: int,
    thread_id: int | None,
    opener_id: int,
    *,
    game: str,
    rules: str,
    players: int,
    pairs: bool,
    turn_seconds: int | None,
    now: float,
) -> TableRow:
    values = (chat_id, game, rules, players, int(pairs), opener_id, turn_seconds, now, now)
    try:
        if thread_id is None:
            cur = conn.execute(_INSERT_TABLE, values)
        else:
            cur = conn.execute(_INSERT_TOPIC_TABLE, (*values, thread_id))
    except sqlite3.IntegrityError as exc:
        code = _constraint(exc)
        if code in _UNIQUE:
            raise TableAlreadyActive(chat_id) from exc
        if code == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
            raise NotFound(
                f"chat {chat_id} or user {opener_id} is unknown; upsert them first"
            ) from exc
        raise _check_failed(exc, "table") from exc
    return _table(conn.execute(_SELECT_TABLE, (cur.lastrowid,)).fetchone())


def _get_table(conn: sqlite3.Connection, table_id: int) -> TableRow | None:
    row = conn.execute(_SELECT_TABLE, (table_id,)).fetchone()
    return None if row is None else _table(row)


def _get_active_table(
    conn: sqlite3.Connection, chat_id: int, thread_id: int | None
) -> TableRow | None:
    row = conn.execute(
        "SELECT * FROM tables WHERE chat_id = ? AND thread_id IS ? "
        "AND status IN ('lobby', 'playing')",
        (chat_id, thread_id),
    ).fetchone()
    return None if row is None else _table(row)


def _chat_active_tables(conn: sqlite3.Connection, chat_id: int) -> list[TableRow]:
    rows = conn.execute(
        "SELECT * FROM tables WHERE chat_id = ? AND status IN ('lobby', 'playing') "
        "ORDER BY table_id",
        (chat_id,),
    ).fetchall()
    return [_table(r) for r in rows]


def _update_table(
    conn: sqlite3.Connection, table_id: int, fields: Mapping[str, Any], now: float
) -> TableRow:
    clauses, params = _set_clause(_TABLE_COLUMNS, fields, "update_table")
    clauses.append("updated_at = ?")
    params.append(now)
    if "status" in fields:
        clauses.append("finished_at = ?")
        params.append(now if fields["status"] in _TERMINAL else None)
    sql = "UPDATE tables SET " + ", ".join(clauses) + " WHERE table_id = ?"
    try:
        cur = conn.execute(sql, (*params, table_id))
    except sqlite3.IntegrityError as exc:
        if _constraint(exc) in _UNIQUE:
            row = conn.execute("SELECT chat_id FROM tables WHERE table_id = ?", (table_id,))
            raise TableAlreadyActive(row.fetchone()["chat_id"]) from exc
        raise _check_failed(exc, f"table {table_id} update") from exc
    if cur.rowcount == 0:
        raise NotFound(f"table {table_id} is unknown")
    return _table(conn.execute(_SELECT_TABLE, (table_id,)).fetchone())


def _list_tables(
    conn: sqlite3.Connection, statuses: Sequence[str], unannounced: bool, with_lobby: bool
) -> list[TableRow]:
    """One ``status = ?`` per status: it keeps to the index on the status once ANALYZE has
    counted a long history, where ``status IN`` a list of values read every table."""
    rows = [
        row
        for status in dict.fromkeys(statuses)
        for row in conn.execute(
            "SELECT * FROM tables WHERE status = ? AND (? = 0 OR announced_seq < last_seq)"
            " AND (? = 0 OR lobby_message_id IS NOT NULL)",
            (status, int(unannounced), int(with_lobby)),
        )
    ]
    return sorted(map(_table, rows), key=lambda table: table.table_id)


# --- seats -----------------------------------------------------------------------------------

_SELECT_SEATS: Final = (
    "SELECT s.*, u.display_name FROM seats AS s LEFT JOIN users AS u ON u.user_id = s.user_id "
    "WHERE s.table_id = ?"
)


class SeatUpdate(TypedDict, total=False):
    """The columns ``update_seat`` may change; anything else is refused."""

    user_id: int | None
    ai: str | None
    side: int
    hand_message_id: int | None
    hand_question: str | None
    missed_turns: int
    absent: bool
    stand_in: bool
    asks_swap: bool


_SEAT_COLUMNS: Final = _settable(
    SeatUpdate, {"absent": _flag, "stand_in": _flag, "asks_swap": _flag}
)


def _seat_conflict(
    exc: sqlite3.IntegrityError, table_id: int, seat: int
) -> StorageError | ValueError:
    code = _constraint(exc)
    if code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
        return SeatTaken(f"table {table_id}: seat {seat} is taken")
    if code == sqlite3.SQLITE_CONSTRAINT_UNIQUE and "computer" in str(exc):
        return _check_failed(exc, f"table {table_id} seat {seat}: a computer's name is taken")
    if code == sqlite3.SQLITE_CONSTRAINT_UNIQUE:
        return AlreadySeated(f"table {table_id}: that user already has a seat")
    if code == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
        return NotFound(f"table {table_id} or the seat's user is unknown")
    return _check_failed(exc, f"table {table_id} seat {seat}")


def _add_seat(
    conn: sqlite3.Connection,
    table_id: int,
    seat: int,
    *,
    user_id: int | None,
    ai: str | None,
    side: int,
    computer: int | None,
    now: float,
) -> SeatRow:
    given = {"table_id": table_id, "seat": seat, "user_id": user_id, "ai": ai, "side": side}
    if computer is not None:  # else the schema names a computer (migration 0010)
        given["computer"] = computer
    _insert_seat(conn, given)
    _touch_table(conn, table_id, now)
    return _seat(conn.execute(_SELECT_SEATS + " AND s.seat = ?", (table_id, seat)).fetchone())


def _arrange_seats(
    conn: sqlite3.Connection, table_id: int, order: Sequence[tuple[int, int]], now: float
) -> list[SeatRow]:
    with _transaction(conn):
        rows = {r["seat"]: r for r in conn.execute(_SELECT_SEATS, (table_id,)).fetchall()}
        wanted = [seat for seat, _ in order]
        if len(set(wanted)) != len(wanted):
            raise ValueError(f"table {table_id}: a seat is listed twice in {wanted}")
        missing = sorted(set(wanted) - set(rows))
        if missing:
            raise NotFound(f"table {table_id} has nobody in seat {missing[0]}")
        conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        for seat, (was, side) in enumerate(order):
            # every column the seat holds moves with it, whatever later migrations add
            row = rows[was]
            columns = row.keys()  # iterating a sqlite3.Row gives its values
            held = {k: row[k] for k in columns if k != "display_name"}
            held |= {"seat": seat, "side": side}
            if side != row["side"] and "asks_swap" in columns:
                held["asks_swap"] = 0  # granted, or the pairs were made anew
            _insert_seat(conn, held)
        _touch_table(conn, table_id, now)
    return _get_seats(conn, table_id)


def _insert_seat(conn: sqlite3.Connection, values: dict[str, Any]) -> None:
    """A seat row of ``values``, keyed by column (names from this module and the schema, never
    from input); a taken seat, or a person seated twice, raises what ``_seat_conflict`` says."""
    try:
        conn.execute(
            f"INSERT INTO seats ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
            tuple(values.values()),
        )
    except sqlite3.IntegrityError as exc:
        raise _seat_conflict(exc, values["table_id"], values["seat"]) from exc


def _touch_table(conn: sqlite3.Connection, table_id: int, now: float) -> None:
    """Someone sat down or got up: the table is alive, so its lobby's expiry starts again."""
    conn.execute("UPDATE tables SET updated_at = ? WHERE table_id = ?", (now, table_id))


def _update_seat(
    conn: sqlite3.Connection, table_id: int, seat: int, fields: Mapping[str, Any]
) -> SeatRow:
    clauses, params = _set_clause(_SEAT_COLUMNS, fields, "update_seat")
    if not clauses:
        row = conn.execute(_SELECT_SEATS + " AND s.seat = ?", (table_id, seat)).fetchone()
        if row is None:
            raise NotFound(f"table {table_id} has nobody in seat {seat}")
        return _seat(row)
    sql = "UPDATE seats SET " + ", ".join(clauses) + " WHERE table_id = ? AND seat = ?"
    try:
        cur = conn.execute(sql, (*params, table_id, seat))
    except sqlite3.IntegrityError as exc:
        raise _seat_conflict(exc, table_id, seat) from exc
    if cur.rowcount == 0:
        raise NotFound(f"table {table_id} has nobody in seat {seat}")
    return _seat(conn.execute(_SELECT_SEATS + " AND s.seat = ?", (table_id, seat)).fetchone())


def _get_seats(conn: sqlite3.Connection, table_id: int) -> list[SeatRow]:
    rows = conn.execute(_SELECT_SEATS + " ORDER BY s.seat", (table_id,)).fetchall()
    return [_seat(r) for r in rows]


# --- event log -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Append:
    """One ``append_events`` call, already encoded to JSON on the event loop."""

    table_id: int
    expected_seq: int
    events: list[tuple[str, str]]  # (type, payload)
    snapshot: str


def _append_batch(
    conn: sqlite3.Connection, batch: Sequence[_Append], now: float
) -> list[int | StorageError]:
    """Write a batch of appends in one transaction; one outcome per request, in order.

    A request whose sequence check fails gets ``ConcurrentAppend`` and writes nothing, without
    disturbing the others. If SQLite rejects a row (an integrity error: a bug or a damaged
    database), the batch is rolled back and each request retried alone, so only the guilty one
    fails. Other errors (disk full, I/O) fail the whole batch, since retrying cannot help.
    """
    try:
        return _append_together(conn, batch, now)
    except sqlite3.IntegrityError as exc:
        if len(batch) == 1:
            return [_rejected(batch[0], exc)]
    outcomes: list[int | StorageError] = []
    for request in batch:
        try:
            outcomes.extend(_append_together(conn, [request], now))
        except sqlite3.IntegrityError as exc:
            outcomes.append(_rejected(request, exc))
    return outcomes


def _rejected(request: _Append, exc: sqlite3.IntegrityError) -> StorageError:
    error = StorageError(f"table {request.table_id}: append rejected by SQLite: {exc}")
    error.__cause__ = exc
    return error


def _append_together(
    conn: sqlite3.Connection, batch: Sequence[_Append], now: float
) -> list[int | StorageError]:
    outcomes: list[int | StorageError] = []
    event_rows: list[tuple[int, int, str, str, float]] = []
    snapshots: dict[int, tuple[int, str, float, int]] = {}
    with _transaction(conn):
        ids = _dumps(sorted({r.table_id for r in batch}))
        last: dict[int, int] = {
            row[0]: row[1]
            for row in conn.execute(
                "SELECT table_id, last_seq FROM tables "
                "WHERE table_id IN (SELECT value FROM json_each(?))",
                (ids,),
            )
        }
        for request in batch:
            tid = request.table_id
            current = last.get(tid)
            if current is None:
                outcomes.append(NotFound(f"table {tid} is unknown"))
                continue
            if current != request.expected_seq:
                outcomes.append(ConcurrentAppend(tid, request.expected_seq, current))
                continue
            for offset, (type_, payload) in enumerate(request.events, start=1):
                event_rows.append((tid, current + offset, type_, payload, now))
            last[tid] = current + len(request.events)
            snapshots[tid] = (last[tid], request.snapshot, now, tid)
            outcomes.append(last[tid])
        if event_rows:
            conn.executemany(
                "INSERT INTO events (table_id, seq, type, payload, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                event_rows,
            )
            conn.executemany(
                "INSERT INTO snapshots (seq, state, updated_at, table_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, "
                "state = excluded.state, updated_at = excluded.updated_at",
                snapshots.values(),
            )
            conn.executemany(
                "UPDATE tables SET last_seq = ?, updated_at = ? WHERE table_id = ?",
                [(seq, ts, tid) for seq, _, ts, tid in snapshots.values()],
            )
    return outcomes


def _load_events(conn: sqlite3.Connection, table_id: int, after_seq: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT seq, type, payload FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
        (table_id, after_seq),
    ).fetchall()
    events: list[dict[str, Any]] = []
    expected = after_seq + 1
    for seq, type_, payload in rows:
        if seq != expected:
            raise CorruptData(f"table {table_id}: event seq {expected} is missing (next is {seq})")
        event = _load_object(payload, f"table {table_id}: event seq {seq}")
        if event.get("type") != type_:
            raise CorruptData(
                f"table {table_id}: event seq {seq} has type {event.get('type')!r} "
                f"but is filed as {type_!r}"
            )
        events.append(event)
        expected += 1
    return events


def _load_snapshot(conn: sqlite3.Connection, table_id: int) -> tuple[int, dict[str, Any]] | None:
    row = conn.execute(
        "SELECT seq, state FROM snapshots WHERE table_id = ?", (table_id,)
    ).fetchone()
    if row is None:
        return None
    seq, state = row
    return seq, _load_object(state, f"table {table_id}: snapshot at seq {seq}")


# --- matches and standings -------------------------------------------------------------------


def _record_match(
    conn: sqlite3.Connection,
    table_id: int,
    *,
    game: str | None,
    ended_by: str,
    rounds: int,
    results: Sequence[PlayerResult],
    now: float,
) -> int:
    with _transaction(conn):
        table = conn.execute(
            "SELECT chat_id, game, players, pairs FROM tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        if table is None:
            raise NotFound(f"table {table_id} is unknown")
        try:
            cur = conn.execute(
                "INSERT INTO matches (table_id, chat_id, game, players, pairs, rounds, ended_by, "
                "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    table["chat_id"],
                    table["game"] if game is None else game,
                    table["players"],
                    table["pairs"],
                    rounds,
                    ended_by,
                    now,
                ),
            )
        except sqlite3.IntegrityError as exc:
            if _constraint(exc) in _UNIQUE:
                raise MatchAlreadyRecorded(f"table {table_id}: match already recorded") from exc
            raise
        match_id = cur.lastrowid
        assert match_id is not None
        try:
            conn.executemany(
                "INSERT INTO match_players (match_id, user_id, seat, side, score, outcome, "
                "rating_delta) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (match_id, r.user_id, r.seat, r.side, r.score, r.outcome, r.rating_delta)
                    for r in results
                ],
            )
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"table {table_id}: bad match results: {exc}") from exc
        conn.execute(
            "UPDATE tables SET status = 'finished', finished_at = ?, updated_at = ?, "
            "turn_deadline = NULL WHERE table_id = ?",
            (now, now, table_id),
        )
    return match_id


# A player's totals over a set of results: the same columns for the standings and /stats.
_TOTALS: Final = (
    "COUNT(*) AS matches, COALESCE(SUM(mp.outcome = 'lost'), 0) AS losses, "
    "COALESCE(SUM(mp.outcome = 'won'), 0) AS wins, "
    "COALESCE(SUM(mp.outcome = 'draw'), 0) AS draws, "
    "COALESCE(AVG(mp.score), 0.0) AS avg_points, COALESCE(SUM(mp.rating_delta), 0) AS rating"
)

_STANDINGS_FROM: Final = (
    f"SELECT mp.user_id AS user_id, u.display_name AS display_name, {_TOTALS} "
    "FROM match_players AS mp JOIN matches AS m ON m.match_id = mp.match_id "
    "JOIN users AS u ON u.user_id = mp.user_id "
    "WHERE m.chat_id = ? AND m.game = ? AND mp.user_id IS NOT NULL GROUP BY mp.user_id"
)

# Best first. "losses" (Kozel's goats) is the hall of shame, most first; points are bad in
# Kozel (collect enough and you are the goat) and good in the scoring games, so there is an
# order each way. user_id makes every order total, so pages never overlap or skip a player.
_STANDINGS_SQL: Final[Mapping[str, str]] = {
    order: f"{_STANDINGS_FROM} ORDER BY {clause} LIMIT ? OFFSET ?"
    for order, clause in {
        "rating": "rating DESC, matches DESC, user_id",
        "matches": "matches DESC, rating DESC, user_id",
        "losses": "losses DESC, matches DESC, user_id",
        "wins": "wins DESC, rating DESC, user_id",
        "avg_points": "avg_points ASC, matches DESC, user_id",
        "most_points": "avg_points DESC, matches DESC, user_id",
    }.items()
}
assert set(_STANDINGS_SQL) == set(get_args(StandingsOrder))


def _chat_standings(
    conn: sqlite3.Connection, chat_id: int, game: str, *, order_by: str, limit: int, offset: int
) -> list[StandingRow]:
    sql = _STANDINGS_SQL.get(order_by)
    if sql is None:
        raise ValueError(f"cannot order standings by {order_by!r}")
    rows = conn.execute(sql, (chat_id, game, limit, offset)).fetchall()
    return [
        _decoded(StandingRow, r, rank=offset + i, avg_points=float(r["avg_points"]))
        for i, r in enumerate(rows, start=1)
    ]


def _count_chat_players(conn: sqlite3.Connection, chat_id: int, game: str) -> int:
    row = conn.execute(
        "SELECT COUNT(DISTINCT mp.user_id) FROM match_players AS mp "
        "JOIN matches AS m ON m.match_id = mp.match_id WHERE m.chat_id = ? AND m.game = ?",
        (chat_id, game),
    ).fetchone()
    return int(row[0])


def _chat_games(conn: sqlite3.Connection, chat_id: int) -> list[str]:
    rows = conn.execute(
        "SELECT game FROM matches WHERE chat_id = ? GROUP BY game "
        "ORDER BY MAX(finished_at) DESC, MAX(match_id) DESC",
        (chat_id,),
    ).fetchall()
    return [r["game"] for r in rows]


def _user_record(conn: sqlite3.Connection, user_id: int) -> UserRecord:
    user = conn.execute("SELECT display_name FROM users WHERE user_id = ?", (user_id,)).fetchone()
    games = conn.execute(
        f"SELECT m.game AS game, {_TOTALS}, COUNT(DISTINCT m.chat_id) AS chats "
        "FROM match_players AS mp JOIN matches AS m ON m.match_id = mp.match_id "
        "WHERE mp.user_id = ? GROUP BY m.game ORDER BY matches DESC, MAX(m.finished_at) DESC",
        (user_id,),
    ).fetchall()
    chats = conn.execute(
        "SELECT COUNT(DISTINCT m.chat_id) FROM match_players AS mp "
        "JOIN matches AS m ON m.match_id = mp.match_id WHERE mp.user_id = ?",
        (user_id,),
    ).fetchone()[0]
    return UserRecord(
        user_id=user_id,
        display_name="" if user is None else user["display_name"],
        matches=sum(r["matches"] for r in games),
        chats=chats,
        games=tuple(_decoded(GameRecord, r, avg_points=float(r["avg_points"])) for r in games),
    )


def _check_page(limit: int, offset: int = 0) -> None:
    """Refuse what SQLite would quietly reinterpret: LIMIT -1 as "all", OFFSET -3 as 0."""
    if limit < 1:
        raise ValueError(f"limit must be positive, not {limit}")
    if offset < 0:
        raise ValueError(f"offset must not be negative, not {offset}")


def _recent_matches(conn: sqlite3.Connection, user_id: int, limit: int) -> list[RecentMatch]:
    rows = conn.execute(
        "SELECT m.match_id, m.chat_id, c.title AS chat_title, m.game, m.finished_at, m.ended_by, "
        "mp.score, mp.outcome, mp.rating_delta "
        "FROM match_players AS mp JOIN matches AS m ON m.match_id = mp.match_id "
        "JOIN chats AS c ON c.chat_id = m.chat_id "
        "WHERE mp.user_id = ? ORDER BY m.finished_at DESC, m.match_id DESC LIMIT ?",
        (user_id, limit),
    ).fetchall()
    return [_decoded(RecentMatch, r) for r in rows]


def _chat_history(conn: sqlite3.Connection, chat_id: int, limit: int) -> list[PastMatch]:
    """The chat's latest matches that ended with a result, newest first, each with its seats."""
    rows = conn.execute(
        "SELECT m.match_id, m.game, m.ended_by, m.finished_at, "
        "mp.seat, mp.side, u.display_name, mp.score, mp.outcome, "
        "CASE WHEN mp.user_id IS NULL THEN COALESCE(s.computer, mp.seat) END AS computer "
        "FROM (SELECT * FROM matches WHERE chat_id = ? AND ended_by != 'cancelled' "
        "      ORDER BY finished_at DESC, match_id DESC LIMIT ?) AS m "
        "JOIN match_players AS mp ON mp.match_id = m.match_id "
        "LEFT JOIN users AS u ON u.user_id = mp.user_id "
        "LEFT JOIN seats AS s ON s.table_id = m.table_id AND s.seat = mp.seat "
        "ORDER BY m.finished_at DESC, m.match_id DESC, mp.seat",
        (chat_id, limit),
    ).fetchall()
    seats: dict[int, list[PastSeat]] = {}
    matches: dict[int, sqlite3.Row] = {}
    for r in rows:
        matches.setdefault(r["match_id"], r)
        seats.setdefault(r["match_id"], []).append(_decoded(PastSeat, r))
    return [_decoded(PastMatch, r, seats=tuple(seats[match_id])) for match_id, r in matches.items()]


# --- the public face -------------------------------------------------------------------------


class Storage:
    """The bot's database: one connection, shared by every table on the event loop.

    Open it once at startup with ``await Storage.open(path)`` (or ``async with``) and close it
    at shutdown. All methods are safe to call concurrently from many tasks.
    """

    def __init__(self, db: Database, *, group_commit: bool = True, clock: Clock = time.time):
        self._db = db
        self._group_commit = group_commit
        self._clock = clock
        self._pending: list[tuple[_Append, asyncio.Future[int]]] = []
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Traversable | Path | None = None,
        max_version: int | None = None,
        group_commit: bool = True,
        clock: Clock = time.time,
    ) -> Storage:
        """Open (creating and migrating as needed) the database at ``path``; ``:memory:`` works.

        ``migrations``/``max_version`` exist for tests of the upgrade path; ``group_commit=False``
        commits every ``append_events`` on its own (for comparison in the benchmark); ``clock``
        supplies timestamps.
        """
        db = await Database.open(path, migrations=migrations, max_version=max_version)
        return cls(db, group_commit=group_commit, clock=clock)

    async def close(self) -> None:
        """Finish queued appends, then close the connection."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)
        await self._db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- chats ---

    async def upsert_chat(self, chat_id: int, title: str, type: str) -> ChatRow:
        """Create the chat or refresh its title and type (they change); returns the row."""
        return await self._db.run(_upsert_chat, chat_id, title, type, self._clock())

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        return await self._db.run(_get_chat, chat_id)

    async def name_topic(
        self, chat_id: int, thread_id: int, name: str, *, known_wins: bool = False
    ) -> None:
        """Note a forum topic's name (it was created or renamed); with ``known_wins``, only if
        none is known yet (a guess that a service message's name overrules)."""
        await self._db.run(_name_topic, chat_id, thread_id, name, known_wins)

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        """A forum topic's name, None for a topic the bot never heard named."""
        return await self._db.run(_topic_name, chat_id, thread_id)

    async def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Set (or with ``None`` clear) the chat's chosen language."""
        await self._db.run(_set_chat_language, chat_id, language)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Move a group that became a supergroup to its new id, with its tables and matches.

        One transaction. If the new chat is already known, its own title, type and language win
        and the old chat only fills gaps; if both have an active table, the old
        one is cancelled (the old group can no longer be written to). The tables forget their
        lobby and board messages, which stay in the old group: Telegram edits none of them in
        the supergroup (its message ids are its own), so the next lobby or board is posted
        afresh. Returns ``False`` if the old chat was unknown (nothing to move); raises
        ``SameChatMigration`` if both ids are one.
        """
        if old_chat_id == new_chat_id:
            raise SameChatMigration(old_chat_id)
        return await self._db.run(_migrate_chat, old_chat_id, new_chat_id, self._clock())

    # --- users ---

    async def upsert_user(
        self, user_id: int, display_name: str, username: str | None, language: str | None
    ) -> UserRow:
        """Create or refresh a user from an update; a ``None`` language keeps the known one."""
        return await self._db.run(
            _upsert_user,
            user_id,
            display_name=display_name,
            username=username,
            language=language,
            now=self._clock(),
        )

    async def get_user(self, user_id: int) -> UserRow | None:
        return await self._db.run(_get_user, user_id)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Set the language a person chose to be written to in, or with ``None`` clear it
        (their Telegram app's again)."""
        await self._db.run(_set_user_language, user_id, language)

    # --- tables ---

    async def create_table(
        self,
        chat_id: int,
        opener_id: int,
        *,
        thread_id: int | None = None,
        game: str = "kozel",
        rules: Mapping[str, Any] | None = None,
        players: int = 4,
        pairs: bool = False,
        turn_seconds: int | None = None,
    ) -> TableRow:
        """Open a lobby in the chat, or in its forum topic ``thread_id``; raises
        ``TableAlreadyActive`` if that place has one open already."""
        return await self._db.run(
            _create_table,
            chat_id,
            thread_id,
            opener_id,
            game=game,
            rules=_dumps(dict(rules or {})),
            players=players,
            pairs=pairs,
            turn_seconds=turn_seconds,
            now=self._clock(),
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._db.run(_get_table, table_id)

    async def get_active_table(self, chat_id: int, thread_id: int | None = None) -> TableRow | None:
        """The table in the lobby or playing in the chat itself, or in its forum topic
        ``thread_id``, if any."""
        return await self._db.run(_get_active_table, chat_id, thread_id)

    async def chat_active_tables(self, chat_id: int) -> list[TableRow]:
        """Every table in the lobby or playing in the chat, one per place, oldest first."""
        return await self._db.run(_chat_active_tables, chat_id)

    async def update_table(self, table_id: int, /, **fields: Unpack[TableUpdate]) -> TableRow:
        """Change whitelisted columns; returns the updated row.

        Setting ``status`` to finished/cancelled stamps ``finished_at`` (and clears it
        otherwise); reopening a table while its place has another active one raises
        ``TableAlreadyActive``. Only a cancelled table may be marked ``expired`` (nobody
        started it in time); the schema refuses any other.
        """
        return await self._db.run(_update_table, table_id, dict(fields), self._clock())

    async def list_tables(
        self,
        status: TableStatus | Collection[TableStatus] = ACTIVE_STATUSES,
        *,
        unannounced: bool = False,
        with_lobby: bool = False,
    ) -> list[TableRow]:
        """Tables in the given status(es), oldest first: at startup, the games to resume,
        (``unannounced``) the ones with events past ``announced_seq``, whose results to tell,
        and (``with_lobby``) the ones whose lobby message still shows their buttons."""
        statuses = [status] if isinstance(status, str) else list(status)
        for s in statuses:
            _status(s)
        return await self._db.run(_list_tables, statuses, unannounced, with_lobby)

    # --- seats ---

    async def add_seat(
        self,
        table_id: int,
        seat: int,
        *,
        side: int,
        user_id: int | None = None,
        ai: str | None = None,
        computer: int | None = None,
    ) -> SeatRow:
        """Seat a user or a computer player (exactly one of ``user_id`` and ``ai``); a
        computer by the name ``computer`` (``SeatRow.computer``), else by one the table's other
        computers do not have.

        Raises ``SeatTaken`` or ``AlreadySeated`` rather than overwriting anybody, and
        ``ValueError`` for a computer's name another one at the table has.
        """
        if (user_id is None) == (ai is None):
            raise ValueError("a seat holds exactly one of a user and a computer player")
        return await self._db.run(
            _add_seat,
            table_id,
            seat,
            user_id=user_id,
            ai=ai,
            side=side,
            computer=computer,
            now=self._clock(),
        )

    async def arrange_seats(self, table_id: int, order: Sequence[tuple[int, int]]) -> list[SeatRow]:
        """Seat the table anew, in one transaction: whoever sits in seat ``order[n][0]`` moves
        to seat ``n``, on the side ``order[n][1]``, with all the seat holds (its hand's message,
        missed turns, away), but for an ask to change pair once it changes pair; whoever
        ``order`` leaves out leaves the table. A lobby closes the
        gap one who left made, people change pairs, and a pair game's players sit down opposite
        their partners at the deal. Raises ``NotFound`` for an empty seat in ``order`` and
        ``ValueError`` for a seat listed twice or one the schema refuses, changing nothing.
        Returns the seats as they are now."""
        return await self._db.run(_arrange_seats, table_id, list(order), self._clock())

    async def update_seat(
        self, table_id: int, seat: int, /, **fields: Unpack[SeatUpdate]
    ) -> SeatRow:
        """Change whitelisted seat columns (e.g. a computer takes over: ``user_id=None,
        ai='greedy'``); returns the updated seat."""
        return await self._db.run(_update_seat, table_id, seat, dict(fields))

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        """The table's seats in seat order, with each user's display name."""
        return await self._db.run(_get_seats, table_id)

    # --- event log ---

    async def append_events(
        self,
        table_id: int,
        expected_seq: int,
        events: Sequence[Mapping[str, Any]],
        snapshot: Mapping[str, Any],
    ) -> int:
        """Commit events ``expected_seq + 1 ...`` and the state after them; returns the new seq.

        Atomic: the events, the snapshot and ``tables.last_seq`` are written in one
        transaction or not at all. Raises ``ConcurrentAppend`` (writing nothing) if the table's
        last seq is not ``expected_seq``. When this returns, the events are committed, so the
        caller may announce them. Appends to one table must be awaited one after another (the
        bot's per-chat lock does this); if the awaiting task is cancelled after the write
        started, the events may still be committed.
        """
        if not events:
            raise ValueError("append_events needs at least one event")
        encoded: list[tuple[str, str]] = []
        for event in events:
            type_ = event.get("type")
            if not isinstance(type_, str) or not type_:
                raise ValueError(f"table {table_id}: every event needs a string 'type': {event!r}")
            encoded.append((type_, _dumps(event)))
        request = _Append(table_id, expected_seq, encoded, _dumps(snapshot))
        if not self._group_commit:
            [outcome] = await self._db.run(_append_batch, [request], self._clock())
            return _unwrap(outcome)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending.append((request, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="storage-group-commit")
        return await future

    async def _flush(self) -> None:
        """Commit queued appends, a batch per hop, until the queue is empty.

        Whatever arrives while a batch is being written waits for the next one, so batches grow
        exactly as much as the load requires and an idle bot commits each move at once.
        """
        while self._pending:
            batch = [(r, f) for r, f in self._pending if not f.done()]
            self._pending = []
            if not batch:
                continue
            try:
                outcomes = await self._db.run(_append_batch, [r for r, _ in batch], self._clock())
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            except BaseException:
                for _, future in batch:
                    future.cancel()
                raise
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    async def load_events(self, table_id: int, after_seq: int = 0) -> list[dict[str, Any]]:
        """The table's events after ``after_seq``, in order; ``CorruptData`` if any is damaged
        or missing (a damaged log is never silently skipped)."""
        return await self._db.run(_load_events, table_id, after_seq)

    async def load_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        """``(seq, state)`` of the latest snapshot, or ``None`` before the first append."""
        return await self._db.run(_load_snapshot, table_id)

    # --- matches and standings ---

    async def record_match(
        self,
        table_id: int,
        ended_by: EndedBy,
        rounds: int,
        results: Sequence[PlayerResult],
        *,
        game: str | None = None,
    ) -> int:
        """Write the match result of ``game`` (by default the table's) and mark the table
        finished, in one transaction.

        Returns the match id; ``MatchAlreadyRecorded`` if this table's result exists.
        """
        if ended_by not in _ENDED_BY:
            raise ValueError(f"unknown ended_by {ended_by!r}")
        return await self._db.run(
            _record_match,
            table_id,
            game=game,
            ended_by=ended_by,
            rounds=rounds,
            results=list(results),
            now=self._clock(),
        )

    async def chat_standings(
        self,
        chat_id: int,
        order_by: StandingsOrder = "rating",
        limit: int = 10,
        offset: int = 0,
        *,
        game: str = "kozel",
    ) -> list[StandingRow]:
        """One page of the chat's human players in ``game``, best first by ``order_by``.

        ``losses`` lists the most first. ``limit`` must be positive and ``offset`` not
        negative (``ValueError``).
        """
        _check_page(limit, offset)
        return await self._db.run(
            _chat_standings, chat_id, game, order_by=order_by, limit=limit, offset=offset
        )

    async def count_chat_players(self, chat_id: int, *, game: str = "kozel") -> int:
        """How many humans have finished a match of ``game`` in the chat (for paging)."""
        return await self._db.run(_count_chat_players, chat_id, game)

    async def chat_games(self, chat_id: int) -> list[str]:
        """The games the chat has finished matches of, the latest played first."""
        return await self._db.run(_chat_games, chat_id)

    async def user_record(self, user_id: int) -> UserRecord:
        """The user's record across every chat: in all, and in each game."""
        return await self._db.run(_user_record, user_id)

    async def recent_matches(self, user_id: int, limit: int = 5) -> list[RecentMatch]:
        """The user's latest matches, newest first; ``limit`` must be positive."""
        _check_page(limit)
        return await self._db.run(_recent_matches, user_id, limit)

    async def chat_history(self, chat_id: int, limit: int = 10) -> list[PastMatch]:
        """The chat's latest matches with a result (all its topics), newest first, each with its
        seats in order; ``limit`` must be positive."""
        _check_page(limit)
        return await self._db.run(_chat_history, chat_id, limit)


def _unwrap(outcome: int | StorageError) -> int:
    if isinstance(outcome, StorageError):
        raise outcome
    return outcome
