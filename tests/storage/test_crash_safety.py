"""Kill -9 the bot mid-game, many times: what was committed must be whole and consistent.

A child process (``crash_writer``) plays real Kozel matches on several tables in one database,
appending events and snapshots as fast as it can, and records finished matches. The parent
kills it with SIGKILL at random (seeded) moments, resumes it, kills it again, and finally checks
every table: events are 1..last_seq without gaps, ``tables.last_seq`` = snapshot seq = max
event seq, and the snapshot equals the state rebuilt by replaying the committed events.
"""

from __future__ import annotations

import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import replay
from storage import Storage

ROOT = Path(__file__).resolve().parents[2]
SEED = 20240611
KILLS = 8
TABLES = 6
READY_TIMEOUT = 20.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


def start_writer(db_path: Path, run: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.crash_writer",
            str(db_path),
            str(SEED + run),
            str(TABLES),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], READY_TIMEOUT)
    line = proc.stdout.readline() if ready else ""
    if line.strip() != "ready":
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"crash writer did not start (exit {proc.returncode}):\n{err}")


def committed_events(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


async def test_sigkill_never_leaves_a_torn_table(db_path: Path) -> None:
    rng = random.Random(SEED)
    progress = []
    for run in range(KILLS):
        proc = start_writer(db_path, run)
        wait_ready(proc)
        time.sleep(rng.uniform(0.02, 0.4))
        if proc.poll() is not None:  # it must still be running: nobody but us may stop it
            _, err = proc.communicate()
            pytest.fail(f"crash writer died on its own (exit {proc.returncode}):\n{err}")
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        assert proc.returncode == -signal.SIGKILL
        progress.append(committed_events(db_path))
    assert progress == sorted(progress) and progress[-1] > progress[0], progress

    async with await Storage.open(db_path) as storage:
        tables = await storage.list_tables(status=["lobby", "playing", "finished"])
        assert len(tables) >= TABLES
        finished = 0
        for table in tables:
            tid = table.table_id
            events = await storage.load_events(tid)  # raises CorruptData on gaps
            snapshot = await storage.load_snapshot(tid)
            if not events:
                assert table.last_seq == 0 and snapshot is None, tid
                continue
            assert len(events) == table.last_seq, tid
            assert snapshot is not None, tid
            seq, state = snapshot
            assert seq == table.last_seq, tid
            rebuilt = replay(events)
            assert rebuilt.to_json() == state, f"table {tid}: snapshot differs from replay"
            if table.status == "finished":
                finished += 1
                assert rebuilt.is_over, tid
        assert finished > 0, "no match finished; make the runs longer"

    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute(
            "SELECT COUNT(*) FROM tables t WHERE (t.status = 'finished') <> EXISTS "
            "(SELECT 1 FROM matches m WHERE m.table_id = t.table_id)"
        ).fetchone() == (0,)
        max_seq_mismatch = conn.execute(
            "SELECT COUNT(*) FROM tables t WHERE t.last_seq <> "
            "COALESCE((SELECT MAX(seq) FROM events e WHERE e.table_id = t.table_id), 0)"
        ).fetchone()
        assert max_seq_mismatch == (0,)
