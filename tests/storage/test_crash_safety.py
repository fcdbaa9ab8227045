"""Kill -9 the bot mid-game, many times: what was committed must be whole, consistent and kept.

A child process (``crash_writer``) plays real Kozel matches on many tables in one database,
appending events and snapshots as fast as it can, records finished matches, and reports every
append that returned. The parent kills it with SIGKILL at random (seeded) moments and, after
*every* kill, reopens the database and checks it: events are 1..last_seq without gaps,
``tables.last_seq`` = snapshot seq = max event seq, the snapshot equals the state rebuilt by
replaying the committed events, and every append the child was told was committed is there,
with the events it wrote.

Checking after each kill matters: the next run resumes from the event log and its first append
rewrites the snapshot, which hides a tear left by an earlier kill. Many tables matter too: group
commit then writes big batches, so a kill often lands inside a commit rather than between them.
With both, a snapshot written in its own transaction is caught by ~40% of kills, an append that
returns before its commit by ~97%; twenty kills keep the test to a few seconds.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine import Match, event_from_dict, replay
from storage import Storage

from .crash_writer import digest

ROOT = Path(__file__).resolve().parents[2]
SEED = 20240611
KILLS = 20
TABLES = 64
READY_TIMEOUT = 20.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


@dataclass(frozen=True, slots=True)
class Commit:
    """One append the child saw return: events ``after + 1 .. seq`` of a table, fingerprinted."""

    table_id: int
    after: int
    seq: int
    digest: str


class Writer:
    """One run of the child, with its reports read as they come (a full pipe would stall it)."""

    def __init__(self, db_path: Path, run: int) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        self.proc = subprocess.Popen(
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
        self.ready = threading.Event()
        self.commits: list[Commit] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if not line.endswith("\n"):
                continue  # cut off by the kill: the child never finished saying it
            if line == "ready\n":
                self.ready.set()
                continue
            tid, after, seq, fingerprint = line.split()
            self.commits.append(Commit(int(tid), int(after), int(seq), fingerprint))

    def fail(self, why: str) -> None:
        self.proc.kill()
        self.proc.wait()
        assert self.proc.stderr is not None
        pytest.fail(f"crash writer {why} (exit {self.proc.returncode}):\n{self.proc.stderr.read()}")

    def kill_after(self, delay: float) -> list[Commit]:
        """SIGKILL it ``delay`` seconds after it is ready; returns what it reported."""
        if not self.ready.wait(READY_TIMEOUT):
            self.fail("did not start")
        time.sleep(delay)
        if self.proc.poll() is not None:  # it must still be running: nobody but us may stop it
            self.fail("died on its own")
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        assert self.proc.returncode == -signal.SIGKILL
        self._reader.join()
        return self.commits


@dataclass
class Verified:
    """A table's log as far as a check has proven it, and the match its replay gives."""

    events: list[dict[str, Any]]
    match: Match


async def check_database(
    db_path: Path, commits: list[Commit], verified: dict[int, Verified]
) -> int:
    """Everything the module docstring promises; returns the number of committed events.

    ``verified`` carries what earlier checks proved, so only events committed since are loaded
    and replayed (on top of the earlier replay) and each check stays quick; pass an empty dict
    for a check from scratch. Each commit in ``commits`` is checked against the log.
    """
    async with await Storage.open(db_path) as storage:
        tables = await storage.list_tables(status=["lobby", "playing", "finished"])
        for table in tables:
            tid = table.table_id
            known = verified.get(tid)
            before = [] if known is None else known.events
            assert table.last_seq >= len(before), f"table {tid}: proven events were lost"
            new = await storage.load_events(tid, after_seq=len(before))  # CorruptData on gaps
            events = before + new
            snapshot = await storage.load_snapshot(tid)
            assert len(events) == table.last_seq, tid
            if not events:
                assert snapshot is None, tid
                continue
            assert snapshot is not None, tid
            seq, state = snapshot
            assert seq == table.last_seq, f"table {tid}: snapshot at {seq}, log at {table.last_seq}"
            match = replay(events) if known is None else known.match
            if known is not None:
                for event in new:
                    match.apply(event_from_dict(event))
            assert match.to_json() == state, f"table {tid}: snapshot differs from replay"
            assert match.is_over or table.status != "finished", tid
            verified[tid] = Verified(events, match)
    for c in commits:
        assert c.table_id in verified, f"reported {c} but the table is gone"
        log = verified[c.table_id].events
        assert len(log) >= c.seq, f"reported {c} but the log ends at {len(log)}"
        assert digest(log[c.after : c.seq]) == c.digest, f"reported {c} but the events differ"

    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute(
            "SELECT COUNT(*) FROM tables t WHERE (t.status = 'finished') <> EXISTS "
            "(SELECT 1 FROM matches m WHERE m.table_id = t.table_id)"
        ).fetchone() == (0,)
    return sum(len(v.events) for v in verified.values())


async def test_sigkill_never_loses_or_tears_a_committed_move(db_path: Path) -> None:
    rng = random.Random(SEED)
    commits: list[Commit] = []
    verified: dict[int, Verified] = {}
    progress = []
    for run in range(KILLS):
        reported = Writer(db_path, run).kill_after(rng.uniform(0.0, 0.05))
        commits += reported
        progress.append(await check_database(db_path, reported, verified))
    assert progress == sorted(progress) and progress[-1] > progress[0], progress
    # Once more from scratch: every log replayed whole, every reported commit still there.
    assert await check_database(db_path, commits, {}) == progress[-1]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] > 0, "make runs longer"
