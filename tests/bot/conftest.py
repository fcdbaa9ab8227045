from __future__ import annotations

import time
from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest

from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import DEALS_VARIABLE, RUN_DEALS, Accelerated, Harness

#: How much faster than real time the fake server's clock runs. People tap at machine speed
#: here and computers move at once, so whole matches outrun Telegram's 20 group messages a
#: minute and the bot must wait; the harness gives its pacer this clock (and its waits after a
#: 429), so such a minute passes in 60/SPEED seconds.
SPEED = 100
#: The speed of the tests marked ``minute``, about what the bot lets happen at most once a
#: minute (an answer said once, or dropped once it waited that long): their minute lasts three
#: seconds, long enough for whatever the test does meanwhile, however busy the machine.
MINUTE_SPEED = 20
#: How much faster than real time the turns run in the tests marked ``fast_turns``: those where
#: nobody needs to tap within a turn's time (everyone lets it run out, or is away), so that a
#: turn of 1 s passes in a tenth of one. The others' turns run in real time: a person there
#: must be able to tap in time, however busy the machine.
TURN_SPEED = 10


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``python -m bot`` runs: PTB's timedelta opt-in. The bot's transport honours proxy
    variables, as in production; the fake server is local."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport() -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing test's report says how to deal its matches again."""
    report = yield
    if report.failed:
        report.sections.append(("deals", f"{DEALS_VARIABLE}={RUN_DEALS} deals them again"))
    return report


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    speed = MINUTE_SPEED if request.node.get_closest_marker("minute") else SPEED
    async with FakeTelegram(clock=Accelerated(speed)) as server:
        yield server


@pytest.fixture
async def harness(
    tg: FakeTelegram, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Harness]:
    """The bot, started with the test module's ``SETTINGS`` (if any) over the harness's."""
    overrides = dict(getattr(request.module, "SETTINGS", {}))
    fast = request.node.get_closest_marker("fast_turns")
    turns = Accelerated(TURN_SPEED, now=time.time) if fast else None
    runner = Harness(tg, tmp_path / "kozel.sqlite3", overrides, turns=turns)
    await runner.start()
    yield runner
    if runner.app is not None:
        await runner.stop()
