"""The table service below the Telegram layer: real storage on a temporary SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.place import Place
from bot.service import TableService
from bot.settings import Settings
from bot.table import Table
from storage import Storage

GROUP = -100
#: The group itself, where its tables sit (no forum topic).
YARD = Place(GROUP)
MASHA, ALEX = 1, 2


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(tmp_path / "kozel.sqlite3") as opened:
        await opened.upsert_chat(GROUP, "Yard", "group")
        for user_id, name in ((MASHA, "Masha"), (ALEX, "Alex")):
            await opened.upsert_user(user_id, name, None, "en")
        yield opened


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        bot_token=SecretStr("1:test"),
        database=tmp_path / "kozel.sqlite3",
        default_language="en",
        missed_turns_absent=2,
    )


@pytest.fixture
def service(storage: Storage, settings: Settings) -> Iterator[TableService]:
    opened = TableService(storage, settings, random.Random(7))
    yield opened
    opened.close()


async def lobby_of(service: TableService, *, computers: int = 1, level: str = "normal") -> Table:
    """A lobby opened by Masha, who sits down, with ``computers`` computer players; computers
    play at ``level`` (quick greedy unless a test is about the search)."""
    table = await service.lobby.open_table(YARD, MASHA, "en")
    await service.lobby.change_setting(table, "computer_level", level)
    await service.lobby.change_setting(table, "players", max(2, 1 + computers))
    await service.lobby.join(table, MASHA)
    for _ in range(computers):
        await service.lobby.add_computer(table)
    return table


async def playing(service: TableService) -> Table:
    """Masha against a computer player, dealt."""
    table = await lobby_of(service)
    await service.player.start(table)
    return table


async def donkey_with_reopen(service: TableService) -> Table:
    """Masha and Alex, dealt Donkey in which a closed double may be reopened (RULES.md §3.3)."""
    table = await lobby_of(service, computers=0)
    await service.lobby.join(table, ALEX)
    await service.lobby.change_game(table, "donkey")
    await service.lobby.change_setting(table, "donkey_reopen", True)
    await service.player.start(table)
    return table
