"""A group's calls under Telegram's limit of about 20 a minute, which edits share with new
messages (tdlib issue 2592).

Each group has one outbox: a queue that a background task works through one call at a time,
each as soon as the group's budget has room. Whoever posts to it need not wait for that
room, so no table's lock is held across it. New messages keep their order and are never
skipped; a table's board is the latest state, not a history, so a board still waiting in the
queue is replaced by a newer one, and the group sees the newest board as soon as the budget
allows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .place import Place

log = logging.getLogger(__name__)
#: room an optional message (a reminder) leaves to the moves, the results and the goat
RESERVE = 3
#: Up to this share of a call's refill time is added to each wait, at random: busy groups that ran
#: out of room together (tables started at once) would otherwise refill together and send
#: together, all in the same instant every few seconds, for as long as they stay busy.
JITTER = 0.1


class GroupPacer:
    """Spends a token bucket per group on every call, new messages and edits alike, so the bot
    stays under Telegram's ~20 a minute: optional messages check ``room``; everything else
    waits (``wait_for_room``) until a call's worth has refilled.

    Why a bucket: a sliding count of the last minute let a busy group (a move a second) spend
    its whole minute in the first seconds, and its board froze until the minute rolled over,
    every minute. The bucket holds a third of the minute (``burst``) for a flurry and refills
    the rest evenly over the minute, so a busy board moves every few seconds and no minute
    sees more than ``per_minute`` calls (a full burst plus the refill)."""

    def __init__(
        self,
        per_minute: int,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.per_minute = per_minute
        self.burst = math.ceil(per_minute / 3)
        self.window = window
        #: ``sleep`` waits seconds of ``clock``: tests run both faster than real time
        self.clock = clock
        self.sleep = sleep
        self.rng = random.Random()
        self._room: dict[int, tuple[float, float]] = {}  # room, and when it was counted

    @property
    def pace(self) -> float:
        """Room refilled a clock-second (``window`` may be shortened, as tests do)."""
        return max(1, self.per_minute - self.burst) / self.window

    def _level(self, chat_id: int, now: float) -> float:
        """The group's room at ``now``: below zero after more calls than room, as retries are
        noted too."""
        room, then = self._room.get(chat_id, (self.burst, now))
        return min(self.burst, room + (now - then) * self.pace)

    def room(self, chat_id: int) -> int:
        """Whole calls the group has room for now."""
        return math.floor(self._level(chat_id, self.clock()))

    def wait(self, chat_id: int) -> float:
        """Seconds (on ``clock``) until the group has room for one call."""
        return max(0.0, (1 - self._level(chat_id, self.clock())) / self.pace)

    def wake_in(self, chat_id: int) -> float:
        """How long (on ``clock``) the group sleeps before its next call: 0 with room, else
        until it has room and a little more, at random (``JITTER``)."""
        seconds = self.wait(chat_id)
        return seconds and seconds + self.rng.uniform(0, JITTER / self.pace)

    def note(self, chat_id: int) -> None:
        now = self.clock()
        self._room[chat_id] = (self._level(chat_id, now) - 1, now)

    async def wait_for_room(self, chat_id: int) -> None:
        """Wait until the group has room for one more call: one sleep, as long as it takes to
        refill (a group waiting in a busy hour wakes once a call, not in polling steps)."""
        while (seconds := self.wake_in(chat_id)) > 0:
            await self.sleep(seconds)


@dataclass
class Board:
    """A table's board as it should look now. ``fresh`` asks for a new message (a new round),
    below the last round's result: it costs the budget one call, as editing the old board
    would, so a busy group gets it too. ``where`` says where the board is when its turn comes
    (an earlier fresh board may have moved it), and ``remember`` is told when it moves."""

    table_id: int
    place: Place
    text: str
    fresh: bool
    where: Callable[[], int | None]
    remember: Callable[[int], Awaitable[None]]


@dataclass
class _Call:
    """A call in its turn; ``done`` gets its result if someone awaits it."""

    request: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any] | None = None
    paced: bool = True  # a call to Telegram; not so what only follows the calls before it


class Outbox:
    """One group's queue of calls and boards and the task that works through it."""

    def __init__(
        self,
        chat_id: int,
        pacer: GroupPacer,
        show_board: Callable[[int, Board], Awaitable[None]],
    ) -> None:
        self.chat_id = chat_id
        self.pacer = pacer
        self.show_board = show_board
        self._queue: deque[_Call | Board] = deque()
        self._task: asyncio.Task[None] | None = None

    def call(self, request: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        """Queue a call to Telegram; the future gets its result or its failure."""
        done = asyncio.get_running_loop().create_future()
        self._queue.append(_Call(request, done))
        self._start()
        return done

    def post(self, request: Callable[[], Awaitable[Any]], *, paced: bool = True) -> None:
        """Queue a call nobody waits for (a round's result, say); a failure is logged. With
        ``paced=False`` it is not a call to Telegram but what must follow the calls before it
        (noting that results were announced)."""
        self._queue.append(_Call(request, paced=paced))
        self._start()

    def board(self, board: Board) -> None:
        """Queue the newest board of a table: it replaces that table's board still waiting,
        unless a call was queued after it (a round's final board stays before its result)."""
        for index in range(len(self._queue) - 1, -1, -1):
            waiting = self._queue[index]
            if not isinstance(waiting, Board):
                break
            if waiting.table_id == board.table_id:
                board.fresh = board.fresh or waiting.fresh
                self._queue[index] = board
                return
        self._queue.append(board)
        self._start()

    @property
    def idle(self) -> bool:
        return self._task is None

    def _start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"outbox {self.chat_id}")

    async def _run(self) -> None:
        item: _Call | Board | None = None
        try:
            while self._queue:
                if isinstance(self._queue[0], Board) or self._queue[0].paced:
                    await self.pacer.wait_for_room(self.chat_id)
                item = self._queue.popleft()  # only now: a newer board may replace it meanwhile
                if isinstance(item, Board):
                    await self._show(item)
                else:
                    await self._make(item)
                item = None
        finally:
            self._task = None
            dropped = [item, *self._queue]  # when stopping
            self._queue.clear()
            for call in dropped:
                if isinstance(call, _Call) and call.done is not None and not call.done.done():
                    call.done.cancel()

    async def _show(self, board: Board) -> None:
        try:
            await self.show_board(self.chat_id, board)
        except Exception:  # resync (at the next show that fails, or at start-up) puts it right
            log.exception("could not show a board", extra={"chat": self.chat_id})

    async def _make(self, call: _Call) -> None:
        try:
            result = await call.request()
        except Exception as exc:
            if call.done is None:
                log.warning("a group call failed: %s", exc, extra={"chat": self.chat_id})
            else:
                call.done.set_exception(exc)
            return
        if call.done is not None:
            call.done.set_result(result)

    async def close(self, grace: float) -> None:
        """Let what is queued go within ``grace`` seconds and drop the rest: a restart puts
        the board right (resync) and announces the results not marked as announced."""
        task = self._task
        if task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), grace)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
