"""Fixtures for storage tests: a fresh database per test and a clock that only moves on purpose."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage


class FakeClock:
    """Deterministic timestamps: every reading is one second after the previous one."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=[True, False], ids=["group-commit", "single-commit"])
def group_commit(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "kozel.sqlite3"


@pytest.fixture
async def storage(clock: FakeClock) -> AsyncIterator[Storage]:
    """An in-memory database: fast, and gone after the test."""
    async with await Storage.open(":memory:", clock=clock) as s:
        yield s


@pytest.fixture
async def file_storage(
    db_path: Path, clock: FakeClock, group_commit: bool
) -> AsyncIterator[Storage]:
    """A WAL database on disk, run with and without group commit."""
    async with await Storage.open(db_path, clock=clock, group_commit=group_commit) as s:
        yield s


async def seed_chat(storage: Storage, chat_id: int = -100, *users: int) -> None:
    """A chat and its users (ids 1.. if none given), as the bot upserts them from updates."""
    await storage.upsert_chat(chat_id, f"Chat {chat_id}", "group")
    for user_id in users or (1, 2, 3, 4):
        await storage.upsert_user(user_id, f"Player {user_id}", f"player{user_id}", "en")
