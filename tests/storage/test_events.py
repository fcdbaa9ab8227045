"""The event log: sequence checks, atomic snapshot+events, group commit, and loud corruption."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from storage import ConcurrentAppend, CorruptData, NotFound, Storage, StorageError

from .conftest import seed_chat


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, **fields}


async def new_table(storage: Storage, chat_id: int = -100) -> int:
    await seed_chat(storage, chat_id)
    return (await storage.create_table(chat_id, 1)).table_id


async def test_append_and_load(file_storage: Storage) -> None:
    tid = await new_table(file_storage)
    assert await file_storage.load_snapshot(tid) is None
    assert await file_storage.load_events(tid) == []

    seq = await file_storage.append_events(
        tid, 0, [ev("match_started", seed=7), ev("round_started", round=1)], {"turn": 0}
    )
    assert seq == 2
    seq = await file_storage.append_events(tid, 2, [ev("played", tile="1-1")], {"turn": 1})
    assert seq == 3

    assert await file_storage.load_events(tid) == [
        ev("match_started", seed=7),
        ev("round_started", round=1),
        ev("played", tile="1-1"),
    ]
    assert await file_storage.load_events(tid, after_seq=2) == [ev("played", tile="1-1")]
    assert await file_storage.load_snapshot(tid) == (3, {"turn": 1})
    table = await file_storage.get_table(tid)
    assert table is not None and table.last_seq == 3


async def test_stale_expected_seq_is_refused_and_writes_nothing(file_storage: Storage) -> None:
    tid = await new_table(file_storage)
    await file_storage.append_events(tid, 0, [ev("a")], {"n": 1})
    for stale in (0, 2, 5):
        with pytest.raises(ConcurrentAppend) as caught:
            await file_storage.append_events(tid, stale, [ev("b")], {"n": 2})
        assert (caught.value.table_id, caught.value.expected_seq, caught.value.actual_seq) == (
            tid,
            stale,
            1,
        )
    assert await file_storage.load_events(tid) == [ev("a")]
    assert await file_storage.load_snapshot(tid) == (1, {"n": 1})


async def test_racing_writers_one_wins(file_storage: Storage) -> None:
    """Two handlers that both read seq 0 and both try to write: exactly one succeeds."""
    tid = await new_table(file_storage)
    results = await asyncio.gather(
        *(file_storage.append_events(tid, 0, [ev("x", by=i)], {"by": i}) for i in range(5)),
        return_exceptions=True,
    )
    assert results[0] == 1
    assert all(isinstance(r, ConcurrentAppend) for r in results[1:])
    assert await file_storage.load_events(tid) == [ev("x", by=0)]
    assert await file_storage.load_snapshot(tid) == (1, {"by": 0})


async def test_concurrent_tables_keep_their_own_order(file_storage: Storage) -> None:
    tids = [await new_table(file_storage, chat_id=-100 - i) for i in range(20)]

    async def play(tid: int) -> None:
        seq = 0
        for move in range(15):
            seq = await file_storage.append_events(
                tid, seq, [ev("played", move=move, table=tid)], {"moves": move + 1}
            )

    await asyncio.gather(*(play(t) for t in tids))
    for tid in tids:
        events = await file_storage.load_events(tid)
        assert [e["move"] for e in events] == list(range(15))
        assert all(e["table"] == tid for e in events)
        assert await file_storage.load_snapshot(tid) == (15, {"moves": 15})


async def test_pipelined_appends_to_one_table_apply_in_order(file_storage: Storage) -> None:
    """Appends queued without waiting keep their order, so seq 1 then 2 both succeed."""
    tid = await new_table(file_storage)
    first = asyncio.ensure_future(file_storage.append_events(tid, 0, [ev("a")], {"n": 1}))
    second = asyncio.ensure_future(file_storage.append_events(tid, 1, [ev("b")], {"n": 2}))
    assert await first == 1
    assert await second == 2


async def test_one_bad_request_does_not_sink_the_batch(file_storage: Storage) -> None:
    good = await new_table(file_storage, -100)
    stale = await new_table(file_storage, -200)
    await file_storage.append_events(stale, 0, [ev("a")], {})
    results = await asyncio.gather(
        file_storage.append_events(good, 0, [ev("a")], {"ok": True}),
        file_storage.append_events(stale, 0, [ev("b")], {}),
        file_storage.append_events(999, 0, [ev("c")], {}),
        return_exceptions=True,
    )
    assert results[0] == 1
    assert isinstance(results[1], ConcurrentAppend)
    assert isinstance(results[2], NotFound)
    assert await file_storage.load_snapshot(good) == (1, {"ok": True})


async def test_failure_mid_transaction_writes_nothing(file_storage: Storage, db_path: Path) -> None:
    """If the snapshot insert fails after the events were inserted, neither is kept."""
    failing = await new_table(file_storage, -100)
    healthy = await new_table(file_storage, -200)
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            f"CREATE TRIGGER boom BEFORE INSERT ON snapshots WHEN NEW.table_id = {failing} "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    results = await asyncio.gather(
        file_storage.append_events(failing, 0, [ev("a"), ev("b")], {"n": 2}),
        file_storage.append_events(healthy, 0, [ev("a")], {"n": 1}),
        return_exceptions=True,
    )
    assert isinstance(results[0], StorageError)
    assert str(results[0]) == f"table {failing}: append rejected by SQLite: disk on fire"
    assert results[1] == 1  # in a group-commit batch, only the guilty request fails
    assert await file_storage.load_events(failing) == []
    assert await file_storage.load_snapshot(failing) is None
    table = await file_storage.get_table(failing)
    assert table is not None and table.last_seq == 0
    assert await file_storage.load_snapshot(healthy) == (1, {"n": 1})


async def test_bad_input_is_refused_before_writing(storage: Storage) -> None:
    tid = await new_table(storage)
    with pytest.raises(ValueError, match="at least one event"):
        await storage.append_events(tid, 0, [], {})
    with pytest.raises(ValueError, match="string 'type'"):
        await storage.append_events(tid, 0, [ev("a"), {"no": "type"}], {})
    with pytest.raises(ValueError):
        await storage.append_events(tid, 0, [ev("a")], {"score": float("nan")})
    with pytest.raises(TypeError):
        await storage.append_events(tid, 0, [ev("a", tile=object())], {})
    assert await storage.load_events(tid) == []


def corrupt(db_path: Path, sql: str, *params: Any) -> None:
    """Damage the database behind the bot's back, as disk rot or a careless hand might: past
    the CHECK constraints and the triggers that keep the event log append-only."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
        conn.execute(sql, params)


async def test_the_event_log_cannot_be_changed_or_cut(file_storage: Storage, db_path: Path) -> None:
    tid = await new_table(file_storage)
    await file_storage.append_events(tid, 0, [ev("a"), ev("b")], {"n": 2})
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys = ON")  # so deleting the table cascades to its events
        with pytest.raises(sqlite3.IntegrityError, match="append-only: an event cannot be changed"):
            conn.execute('UPDATE events SET payload = \'{"type": "b"}\' WHERE seq = 1')
        with pytest.raises(sqlite3.IntegrityError, match="append-only: an event cannot be deleted"):
            conn.execute("DELETE FROM events WHERE seq = 2")
        with pytest.raises(sqlite3.IntegrityError, match="append-only: an event cannot be deleted"):
            conn.execute("DELETE FROM tables WHERE table_id = ?", (tid,))
    # What the bot does to a table keeps working: it moves on and ends, its log stays whole.
    assert await file_storage.append_events(tid, 2, [ev("c")], {"n": 3}) == 3
    await file_storage.update_table(tid, status="cancelled")
    assert await file_storage.load_events(tid) == [ev("a"), ev("b"), ev("c")]


async def test_corrupt_snapshot_names_table_and_seq(file_storage: Storage, db_path: Path) -> None:
    tid = await new_table(file_storage)
    await file_storage.append_events(tid, 0, [ev("a"), ev("b")], {"ok": 1})
    corrupt(db_path, "UPDATE snapshots SET state = '{\"ok\": 1' WHERE table_id = ?", tid)
    with pytest.raises(CorruptData, match=f"^table {tid}: snapshot at seq 2 is not valid JSON"):
        await file_storage.load_snapshot(tid)
    corrupt(db_path, "UPDATE snapshots SET state = '[1, 2]' WHERE table_id = ?", tid)
    with pytest.raises(CorruptData, match=f"^table {tid}: snapshot at seq 2 is not a JSON object"):
        await file_storage.load_snapshot(tid)


async def test_corrupt_event_names_table_and_seq(file_storage: Storage, db_path: Path) -> None:
    tid = await new_table(file_storage)
    await file_storage.append_events(tid, 0, [ev("a"), ev("b"), ev("c")], {})
    corrupt(db_path, "UPDATE events SET payload = 'garbage' WHERE table_id = ? AND seq = 2", tid)
    with pytest.raises(CorruptData, match=f"^table {tid}: event seq 2 is not valid JSON"):
        await file_storage.load_events(tid)
    assert await file_storage.load_events(tid, after_seq=2) == [ev("c")]

    corrupt(
        db_path,
        "UPDATE events SET payload = ? WHERE table_id = ? AND seq = 2",
        '{"type": "z"}',
        tid,
    )
    with pytest.raises(CorruptData, match=f"^table {tid}: event seq 2 has type 'z'"):
        await file_storage.load_events(tid)

    corrupt(db_path, "DELETE FROM events WHERE table_id = ? AND seq = 2", tid)
    with pytest.raises(CorruptData, match=f"^table {tid}: event seq 2 is missing"):
        await file_storage.load_events(tid)


async def test_corrupt_rules_name_the_table(file_storage: Storage, db_path: Path) -> None:
    tid = await new_table(file_storage)
    corrupt(db_path, "UPDATE tables SET rules = '{' WHERE table_id = ?", tid)
    with pytest.raises(CorruptData, match=f"^table {tid}: rules"):
        await file_storage.get_table(tid)


async def test_close_waits_for_queued_appends(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    tid = await new_table(storage)
    pending = asyncio.ensure_future(storage.append_events(tid, 0, [ev("a")], {"n": 1}))
    await asyncio.sleep(0)
    await storage.close()
    assert await pending == 1
    async with await Storage.open(db_path) as reopened:
        assert await reopened.load_snapshot(tid) == (1, {"n": 1})
