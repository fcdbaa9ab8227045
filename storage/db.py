"""Opening the SQLite database: pragmas, numbered migrations, and one-hop calls.

``sqlite3`` blocks, so the connection lives on one worker thread of its own, and every ``await``
is a round trip to it. The repository runs each operation as *one* small synchronous function
on that thread (:meth:`Database.run`): a whole transaction costs one hop, and nothing else on
the connection can interleave with it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from .errors import DatabaseUnavailable, MigrationError, SchemaTooNew

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file; ``version`` is the schema version it brings the database to."""

    version: int
    name: str
    sql: str


def default_migrations() -> Traversable:
    """The migrations shipped inside the package (``storage/migrations/*.sql``)."""
    return resources.files(__package__ or "storage").joinpath("migrations")


def discover_migrations(directory: Traversable | Path | None = None) -> list[Migration]:
    """Read ``NNNN_name.sql`` files in order; the numbers must run 1, 2, 3... without gaps.

    A stray ``.sql`` file with another name is an error rather than silently skipped: a
    misnamed migration that never runs is worse than a bot that refuses to start.
    """
    root = default_migrations() if directory is None else directory
    found: list[Migration] = []
    for entry in root.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        m = MIGRATION_NAME.match(entry.name)
        if m is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1, 2, 3... without gaps or duplicates; "
                f"expected {expected:04d} but found {mig.name}"
            )
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script into statements, respecting quotes and ``CREATE TRIGGER ... END``.

    ``executescript`` would do this too, but it commits any open transaction first, and a
    migration must run inside its own transaction.
    """
    statements: list[str] = []
    buffer = ""
    *terminated, rest = sql.split(";")
    for piece in terminated:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _strip_comments(buffer).strip(" \t\r\n;"):
                statements.append(buffer.strip())
            buffer = ""
    buffer += rest
    if _strip_comments(buffer).strip(" \t\r\n;"):
        raise MigrationError(f"incomplete SQL statement at the end of a migration: {buffer!r}")
    return statements


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database header (0 for a new database)."""
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(
    conn: sqlite3.Connection, migrations: list[Migration], max_version: int | None = None
) -> int:
    """Bring the database up to the newest migration (or ``max_version``); returns the version.

    Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the
    ``user_version`` bump, so a crash leaves the database at a whole version, and a second
    process migrating at the same moment waits and then sees the work already done.
    """
    known = [m for m in migrations if max_version is None or m.version <= max_version]
    supported = known[-1].version if known else 0
    current = schema_version(conn)
    if current > supported:
        raise SchemaTooNew(current, supported)
    for mig in known:
        if mig.version <= current:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = schema_version(conn)
            if mig.version <= current:  # another process got here first
                conn.execute("COMMIT")
                continue
            for statement in split_statements(mig.sql):
                conn.execute(statement)
            # PRAGMA takes no parameters; the value is an int parsed from the file name.
            conn.execute(f"PRAGMA user_version = {int(mig.version)}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        log.info("applied migration %s", mig.name)
        current = mig.version
    return current


def _connect(path: str) -> sqlite3.Connection:
    """Open the connection (on the worker thread) and set its pragmas.

    * ``journal_mode=WAL``: readers never block the writer, and a commit is one sequential
      append to the ``-wal`` file.
    * ``synchronous=NORMAL``: in WAL mode SQLite then fsyncs only at checkpoints, not at every
      commit. That is safe against *process* crashes (SIGKILL, OOM, a bug): a commit has been
      written to the WAL file with ``write()`` before ``COMMIT`` returns, the kernel keeps it,
      and the next open replays it, so a committed move is never lost and the database is never
      corrupt. Only a power cut or kernel crash can lose the last few commits (the database
      still stays consistent: it rolls back to an earlier commit). For a game bot that is the
      right price for commits that cost microseconds instead of an fsync each.
    * ``foreign_keys=ON``: SQLite leaves them off by default, per connection.
    * ``busy_timeout=5000``: if another process (a backup, a migration) holds the write lock,
      wait up to 5 s instead of failing at once.
    """
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode not in ("wal", "memory"):
            log.warning("SQLite refused WAL mode for %s (got %r): commits are slower", path, mode)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = 5000")
    except BaseException:
        conn.close()
        raise
    return conn


class Database:
    """One SQLite connection and the single worker thread that owns it.

    A one-worker executor is the whole machinery: it runs the calls one at a time, in the order
    they were made, on the thread that opened the connection.
    """

    def __init__(self, worker: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._worker = worker
        self._conn = conn

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Traversable | Path | None = None,
        max_version: int | None = None,
    ) -> Database:
        """Connect, set pragmas and migrate; raises ``DatabaseUnavailable`` for a file SQLite
        cannot open and ``SchemaTooNew`` for a newer database."""
        found = discover_migrations(migrations)
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(worker, _connect, str(path))
        except BaseException as exc:
            worker.shutdown(wait=False)
            if isinstance(exc, sqlite3.DatabaseError):
                raise DatabaseUnavailable(str(exc)) from exc
            raise
        db = cls(worker, conn)
        try:
            await db.run(migrate, found, max_version)
        except BaseException:
            await db._stop()
            raise
        return db

    async def run(
        self,
        fn: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``fn(connection, *args, **kwargs)`` on the worker thread: one hop, in order."""
        call = functools.partial(fn, self._conn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._worker, call)

    async def close(self) -> None:
        """Let SQLite refresh its planner statistics, then close the connection."""
        try:
            await self.run(_optimize)
        finally:
            await self._stop()

    async def _stop(self) -> None:
        try:
            await self.run(sqlite3.Connection.close)
        finally:
            self._worker.shutdown(wait=False)


def _optimize(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA optimize")
