"""Things that happen without a tap: computer moves, turn reminders and timeouts, expiry (of
tables, and of /cancel's questions), and the end of the tables of a place the bot may no longer
write to (a forum topic closed or deleted, a group that removed or muted the bot).

Deadlines are stored with the table, so a restart re-arms every timer; a timer remembers the
table version it was armed for and does nothing if the turn has moved on since. A question's
timer is not stored: after a restart, a tap on the question finds it expired and closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from functools import partial
from typing import Any, Literal

from .place import Place
from .presenter import Presenter
from .sender import CHAT_WIDE, Gone
from .service import DamagedTable, TableService
from .table import Table

log = logging.getLogger(__name__)
RESTART_GRACE = 15.0  # seconds a player gets at least after a restart
Armed = Literal["computer", "person", "wait"]


class Scheduler:
    def __init__(
        self,
        service: TableService,
        presenter: Presenter,
        delay: float,
        *,
        remind_before: float = 20.0,  # at most; a short turn is reminded a third before its end
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.delay = delay
        self.remind_before = remind_before
        #: The turns' clock (Unix seconds, as the deadlines are stored) and a sleep of seconds of
        #: it: tests run both faster than real time, as they run the groups' pacer
        self.clock = clock
        self.sleep = sleep
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: What each table's task was armed for: the table version and who is waited for: the
        #: computer, a person, or (every person being away) anyone coming back (a seat can
        #: change hands without a move: /kick, /leave, "I'm back").
        self._armed: dict[int, tuple[int, Armed]] = {}
        #: Tables being ended because their place refused a message, by place.
        self._endings: dict[Place, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: The timers of /cancel's questions still open.
        self._questions: set[asyncio.Task[None]] = set()
        #: Set as the bot stops: nothing is armed any more.
        self._stopped = False

    async def after_change(self, table: Table, *, restarted: bool = False) -> None:
        """Call with the table's lock held after every change: arms what the new turn needs.
        With every person away (unreachable, say) the computers stop, and the match waits a
        turn's time for someone to come back before it ends by timeout. A match that is over
        has no timers, nor /cancel questions that still offer to cancel it."""
        match = table.match
        if match is None or match.is_over or table.status != "playing":
            self._cancel(table.id)
            self.presenter.notices.close_questions(table)
            return
        seat = table.seats[match.current_seat or 0]
        version = table.version
        waiting = bool(table.people) and table.everyone_away
        waited: Armed = "wait" if waiting else "computer" if seat.computer_plays else "person"
        armed = (version, waited)
        if self._armed.get(table.id) == armed and table.id in self._tasks:
            return
        self._cancel(table.id)
        self._armed[table.id] = armed
        if seat.computer_plays and not waiting:
            await self.service.timeouts.set_deadline(table, None)
            self._start(table.id, self._computer_turn(table.id, version))
            return
        deadline = table.turn_deadline
        if restarted and deadline is not None:
            deadline = max(deadline, self.clock() + RESTART_GRACE)
        else:
            deadline = self.clock() + table.turn_seconds
            if waiting:
                self.presenter.notices.everyone_away(table, table.turn_seconds)
        await self.service.timeouts.set_deadline(table, deadline)
        # nobody is waited for with a reminder: the bot cannot reach any of them
        warning = 0.0 if waiting else min(self.remind_before, table.turn_seconds / 3)
        self._start(table.id, self._turn_timer(table.id, version, deadline, warning))

    def _start(self, table_id: int, work: Coroutine[Any, Any, None]) -> None:
        if self._stopped:  # a move the stop cut short arms no next turn
            work.close()
            return
        self._tasks[table_id] = _logged(work, table=table_id)

    def _cancel(self, table_id: int) -> None:
        task = self._tasks.pop(table_id, None)
        self._armed.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    @contextlib.asynccontextmanager
    async def _at(self, table_id: int, version: int) -> AsyncIterator[Table | None]:
        """The table, under its lock, if it is still in play at ``version``; else None: someone
        moved meanwhile, and the timer is stale."""
        table = await self.service.store.table(table_id)
        if table is None:
            yield None
            return
        async with self.service.store.lock(table.chat_id):
            table = await self.service.store.table(table_id)
            if table is None or table.version != version or table.status != "playing":
                yield None
            else:
                yield table

    async def _locked(
        self, table_id: int, version: int, work: Callable[[Table], Awaitable[None]]
    ) -> None:
        """Run ``work`` under the table's lock if the table is still at ``version``. Its task
        stays the table's meanwhile, so that the bot stopping cancels it."""
        async with self._at(table_id, version) as table:
            if table is None:
                return
            self._armed.pop(table_id, None)
            try:
                await work(table)
            finally:  # whatever failed, the table's next turn needs its timer
                await self.after_change(table)

    async def _computer_turn(self, table_id: int, version: int) -> None:
        await self.sleep(self.delay)
        await self._locked(table_id, version, self._computer_move)

    async def _computer_move(self, table: Table) -> None:
        events = await self.service.timeouts.computer_turn(table)
        if events:
            await self.presenter.show(table, events)

    async def _turn_timer(
        self, table_id: int, version: int, deadline: float, warning: float
    ) -> None:
        """Remind ``warning`` seconds before the deadline (a third of a short turn), or at once
        when a restart left less than that but still time to act on it (never, with no
        ``warning``); then time out."""
        if warning and deadline - self.clock() > warning / 2:
            await self.sleep(max(0.0, deadline - warning - self.clock()))
            async with self._at(table_id, version) as table:  # not while a tap is played
                if table is None:
                    return
                await self.presenter.remind(table, max(0.0, deadline - self.clock()))
        await self.sleep(max(0.0, deadline - self.clock()))

        async def timeout(table: Table) -> None:
            seat = table.seats[table.match.current_seat or 0] if table.match else None
            if seat is None:
                return
            if seat.computer_plays:  # marked away since (the reminder found his DM blocked)
                await self._computer_move(table)
                return
            events = await self.service.timeouts.timeout(table, seat)
            await self.presenter.timed_out(table, seat, events)

        await self._locked(table_id, version, timeout)

    def time_question(self, table: Table, message_id: int, seconds: float) -> None:
        """Close the /cancel question ``message_id`` once ``seconds`` (its minute, from its
        sending) are up, if nothing answered or closed it meanwhile (``Notices.expire``)."""
        if self._stopped:
            return
        task = _logged(self._question_timer(table, message_id, seconds), table=table.id)
        self._questions.add(task)
        task.add_done_callback(self._questions.discard)

    async def _question_timer(self, table: Table, message_id: int, seconds: float) -> None:
        await self.sleep(seconds)
        async with self.service.store.lock(table.chat_id):  # not while a tap answers it
            self.presenter.notices.expire(table, message_id)

    def start_sweeping(self, every: float = 60.0) -> None:
        """Close tables nobody started or nobody plays, once a minute: by real time, which
        storage stamps a table's changes with, whatever the turns' clock."""
        self._sweeper = asyncio.create_task(self._sweep_forever(every))

    async def _sweep_forever(self, every: float) -> None:
        while True:
            try:
                await self.sweep(time.time())
            except Exception:
                log.exception("sweeping expired tables failed")
            await asyncio.sleep(every)

    async def sweep(self, now: float) -> None:
        for found, why in await self.service.timeouts.expired(now):
            async with self.service.store.lock(found.chat_id):
                # asked again under the lock: a Start, a join or a move that held it meanwhile
                # keeps the table
                table = await self.service.store.table(found.id)
                if table is None or self.service.timeouts.expiry(table.row, now) != why:
                    continue
                log.info(
                    "table expired", extra={"table": table.id, "chat": table.chat_id, "why": why}
                )
                if why == "lobby":
                    await self.service.lobby.cancel(table, expired=True)
                    self.presenter.lobby.close(table)
                elif table.match is not None and not table.match.is_over:
                    seat = table.seats[table.match.current_seat or 0]
                    events = await self.service.timeouts.abandon(table, seat)
                    await self.presenter.show(table, events)
                self._cancel(table.id)

    def place_gone(self, place: Place, why: Gone) -> None:
        """A message to ``place`` was refused for good (a deleted topic, a group that removed
        the bot: Telegram may not have said so): its tables end once whoever holds the group's
        lock, very likely the caller in the middle of a move, is done. Not once the bot stops
        (the groups' last calls go out then): after a restart, the next message to the place
        finds it gone again."""
        if self._stopped or place in self._endings:
            return
        task = _logged(self.end_at(place, why), chat=place.chat_id)
        self._endings[place] = task
        task.add_done_callback(lambda _: self._endings.pop(place, None))

    async def end_at(self, place: Place, why: Gone) -> None:
        """End the tables of a place the bot may no longer write to (for a group that removed
        or muted the bot, every table of the chat), politely: each is cancelled, so nobody is
        recorded as losing, and its players, and the group where the bot can still write, are
        told."""
        async with self.service.store.lock(place.chat_id):
            if why in CHAT_WIDE:
                tables = await self.service.store.active_tables(place.chat_id)
            else:
                try:
                    table = await self.service.store.active_table(place)
                except DamagedTable as damaged:
                    await self.service.lobby.close_damaged(damaged.row)
                    return
                tables = [] if table is None else [table]
            for table in tables:
                log.info(
                    "the bot may no longer write to the table's place",
                    extra={"table": table.id, "chat": table.chat_id, "why": why},
                )
                await self.service.lobby.cancel(table)
                await self.after_change(table)  # a table no longer playing has no timers
                await self.presenter.place_gone(table, why)

    async def stop(self) -> None:
        """No more computer moves, timeouts or sweeps: what is in progress is cancelled (a move
        committed but not yet shown is shown after a restart), and nothing new is armed."""
        self._stopped = True
        sweeper = [] if self._sweeper is None else [self._sweeper]
        tasks = [*sweeper, *self._tasks.values(), *self._endings.values(), *self._questions]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._sweeper = None
        self._tasks.clear()
        self._armed.clear()
        self._endings.clear()
        self._questions.clear()


def _logged(work: Coroutine[Any, Any, None], **where: object) -> asyncio.Task[None]:
    """Run work of the scheduler's own as a task: a failure is logged, since nobody waits for
    it. The task runs ``work`` itself, so cancelling it before it starts closes ``work`` too."""
    task = asyncio.create_task(work)
    task.add_done_callback(partial(_log_failure, where=where))
    return task


def _log_failure(task: asyncio.Task[None], where: dict[str, object]) -> None:
    if not task.cancelled() and (failure := task.exception()) is not None:
        log.error("a scheduled action failed", exc_info=failure, extra=where)
