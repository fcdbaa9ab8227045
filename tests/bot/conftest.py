from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.harness import Harness
from tests.fake_telegram import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def harness(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    runner = Harness(tg, tmp_path / "kozel.sqlite3")
    await runner.start()
    yield runner
    if runner.app is not None:
        await runner.stop()
