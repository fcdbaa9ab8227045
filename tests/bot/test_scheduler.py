"""The scheduler's timers, each one replaced as soon as the turn it was armed for moves on."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings
from types import SimpleNamespace
from typing import cast

import pytest

from bot.place import Place
from bot.presenter import Presenter
from bot.scheduler import Scheduler
from bot.service import TableService
from bot.table import Table


class Deadlines:
    """The service's timeouts, as far as arming a timer goes: it stores the deadline."""

    async def set_deadline(self, table: Table, deadline: float | None) -> None:
        """Nothing to store: no timer here lives long enough to read it."""


class Unreadable:
    """A store whose every read fails, as a database gone away would."""

    async def table(self, table_id: int) -> Table:
        raise RuntimeError("disk I/O error")


def playing_table(computer_plays: bool = False) -> SimpleNamespace:
    """What the scheduler reads of a table: whose turn it is and for how long, and whether
    anybody still plays in person (somebody does)."""
    seat = SimpleNamespace(computer_plays=computer_plays)
    return SimpleNamespace(
        id=1,
        chat_id=-1,
        status="playing",
        match=SimpleNamespace(is_over=False, current_seat=0),
        seats=[seat],
        people=[seat],
        everyone_away=False,
        version=1,
        turn_deadline=None,
        turn_seconds=30,
    )


async def test_a_timer_replaced_before_it_ever_ran_leaves_no_coroutine_unawaited() -> None:
    """A move right after another re-arms the turn's timer before the first one took a step: its
    work was never started, and Python warned of a coroutine never awaited."""
    service = cast(TableService, SimpleNamespace(timeouts=Deadlines()))
    scheduler = Scheduler(service, cast(Presenter, None), delay=0.0)
    table = playing_table()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await scheduler.after_change(cast(Table, table))
        table.version = 2  # the turn moved on before the first timer's task ran
        await scheduler.after_change(cast(Table, table))
        await scheduler.stop()
        gc.collect()
    assert [str(w.message) for w in caught] == []


async def test_a_timer_that_fails_is_logged_with_its_table(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nobody waits for a timer: its failure would go unseen but for the log."""
    service = cast(TableService, SimpleNamespace(timeouts=Deadlines(), store=Unreadable()))
    scheduler = Scheduler(service, cast(Presenter, None), delay=0.0)
    await scheduler.after_change(cast(Table, playing_table(computer_plays=True)))
    for _ in range(10):
        await asyncio.sleep(0)
    failed = [r for r in caplog.records if r.getMessage() == "a scheduled action failed"]
    assert [(r.levelno, getattr(r, "table", None)) for r in failed] == [(logging.ERROR, 1)]
    assert failed[0].exc_info is not None and "disk I/O error" in str(failed[0].exc_info[1])
    await scheduler.stop()


class ComputerMoves:
    """The service's computer players: each move passes the turn to another computer."""

    def __init__(self, table: SimpleNamespace) -> None:
        self.table = table
        self.made = 0
        self._lock = asyncio.Lock()

    async def set_deadline(self, table: Table, deadline: float | None) -> None:
        """Nothing to store: a computer's turn has no deadline."""

    async def computer_turn(self, table: Table) -> list[str]:
        self.made += 1
        self.table.version += 1
        return ["played"]

    async def read(self, table_id: int) -> SimpleNamespace:
        return self.table

    def lock(self, chat_id: int) -> asyncio.Lock:
        return self._lock


class SlowTelegram:
    """A presenter whose show waits until Telegram answers (``answered``)."""

    def __init__(self) -> None:
        self.answered = asyncio.Event()

    async def show(self, table: Table, events: list[str]) -> None:
        await self.answered.wait()


async def test_a_computer_move_shown_as_the_bot_stops_arms_no_next_turn() -> None:
    """The bot stopped while a computer's move was being shown: the stop left that move going,
    and once Telegram answered it armed the next computer's turn, which played after the stop,
    in a bot shutting down (its thinking processes gone: 'a scheduled action failed')."""
    table = playing_table(computer_plays=True)
    moves = ComputerMoves(table)
    store = SimpleNamespace(table=moves.read, lock=moves.lock)
    service = cast(TableService, SimpleNamespace(timeouts=moves, store=store))
    telegram = SlowTelegram()
    scheduler = Scheduler(service, cast(Presenter, telegram), delay=0.0)
    await scheduler.after_change(cast(Table, table))
    while not moves.made:
        await asyncio.sleep(0)
    await scheduler.stop()
    telegram.answered.set()
    await asyncio.sleep(0.05)
    assert moves.made == 1
    assert [task for task in asyncio.all_tasks() if task is not asyncio.current_task()] == []


def others() -> set[asyncio.Task[object]]:
    """The tasks running besides the test's own."""
    return {task for task in asyncio.all_tasks() if task is not asyncio.current_task()}


class Tables:
    """A store that counts what the scheduler read of it; every table is gone."""

    def __init__(self) -> None:
        self.reads = 0
        self._lock = asyncio.Lock()

    def lock(self, chat_id: int) -> asyncio.Lock:
        self.reads += 1
        return self._lock

    async def active_tables(self, chat_id: int) -> list[Table]:
        self.reads += 1
        return []

    async def active_table(self, place: Place) -> Table | None:
        self.reads += 1
        return None


async def test_a_place_found_gone_as_the_bot_stops_starts_no_ending() -> None:
    """As the bot stops, the groups' last calls go out (``Sender.close``), and one refused
    (the bot removed from the group) started ending the group's tables after the stop: a task
    nobody would wait for, cut short by the storage closing under it. Now nothing starts; the
    next message to the place after a restart finds it gone again."""
    tables = Tables()
    service = cast(TableService, SimpleNamespace(store=tables))
    scheduler = Scheduler(service, cast(Presenter, None), delay=0.0)
    await scheduler.stop()
    scheduler.place_gone(Place(-1), "removed")
    assert others() == set()
    await asyncio.sleep(0.01)
    assert tables.reads == 0


async def test_the_bot_stopping_leaves_no_sweep_pending() -> None:
    """The sweep of expired tables was cancelled at the stop but not waited for: the stop
    returned with it still pending, and the storage closed under it."""
    tables = SimpleNamespace(expired=Tables().active_tables)
    service = cast(TableService, SimpleNamespace(timeouts=tables))
    scheduler = Scheduler(service, cast(Presenter, None), delay=0.0)
    scheduler.start_sweeping(every=0.001)
    await asyncio.sleep(0.01)
    await scheduler.stop()
    assert others() == set()
