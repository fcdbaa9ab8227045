"""A group's calls under Telegram's limit of about 20 a minute, which edits share with new
messages (tdlib issue 2592).

Each group has one outbox: a queue that a background task works through one call at a time,
each as soon as the group's budget has room. Whoever posts to it need not wait for that
room, so no table's lock is held across it. New messages keep their order and are never
skipped; a table's board, and its lobby message, are the latest state, not a history, so one
still waiting in the queue is replaced by a newer one, and the group sees the newest as soon
as the budget allows (and flood control, waited out however long it lasts, lets it).

Answers to the commands that only tell (/help, /rules, /standings, /top, /stats) wait apart,
behind the game: one goes only when no call or board waits and the group has more room than
``RESERVE``, so that nobody who floods the group with them holds up its results, its goat,
its boards or its lobby. An answer is dropped (logged at DEBUG) when the same is asked of the
same place while an answer waits (one written as it goes says the same as the one waiting will:
the same question; else the same text), or when the same text went there within the minute for
the same asker (someone else may not see that the answer above was for them too); when
``ANSWERS_WAITING`` answers already wait; or when it waited a minute for room: the game kept the
group that busy.
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
from typing import Any, Literal

from telegram import InlineKeyboardMarkup

from .place import Place

log = logging.getLogger(__name__)
#: room an optional message (a reminder, an answer) leaves to the moves, the results and the goat
RESERVE = 3
#: the most answers to commands that wait for a group's spare room at once
ANSWERS_WAITING = 3
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

    def wait(self, chat_id: int, keep: int = 0) -> float:
        """Seconds (on ``clock``) until the group has room for one call (and ``keep`` more)."""
        return max(0.0, (1 + keep - self._level(chat_id, self.clock())) / self.pace)

    def wake_in(self, chat_id: int) -> float:
        """How long (on ``clock``) the group sleeps before its next call: 0 with room, else
        until it has room and a little more, at random (``JITTER``)."""
        seconds = self.wait(chat_id)
        return seconds and seconds + self.rng.uniform(0, JITTER / self.pace)

    def note(self, chat_id: int) -> None:
        now = self.clock()
        self._room[chat_id] = (self._level(chat_id, now) - 1, now)

    async def within(self, seconds: float, waiting: Awaitable[Any]) -> None:
        """Wait for ``waiting``, at most ``seconds`` (on ``clock``): it is cancelled then
        (``asyncio.shield`` what must go on)."""
        waits = [asyncio.ensure_future(self.sleep(seconds)), asyncio.ensure_future(waiting)]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def wait_for_room(self, chat_id: int) -> None:
        """Wait until the group has room for one more call: one sleep, as long as it takes to
        refill (a group waiting in a busy hour wakes once a call, not in polling steps)."""
        while (seconds := self.wake_in(chat_id)) > 0:
            await self.sleep(seconds)


@dataclass
class Board:
    """A table's board as it should look now, or (``shows="lobby"``) its lobby message with
    the lobby's ``keyboard``. ``fresh`` asks for a new message (a new round), below the last
    round's result: it costs the budget one call, as editing the old board would, so a busy
    group gets it too. ``where`` says where the message is when its turn comes (an earlier
    fresh board may have moved it), and ``remember`` is told when it moves. A ``closing`` lobby
    (a started, cancelled or expired table's, without buttons) only edits a lobby already
    shown: it takes the place of the table's lobby still waiting, or waiting out flood control,
    so a lobby never shown is never shown live, nor at all; nor is one deleted in the group
    (``Sender._draw``). Once closed (or found deleted), the lobby is remembered as None: no
    message shows the table's buttons any more, and none is touched again. A ``closing`` board
    is the last look of a table whose place takes no new message (a closed forum topic): it
    too only edits the board already shown, and is then forgotten."""

    table_id: int
    place: Place
    text: str
    fresh: bool
    where: Callable[[], int | None]
    remember: Callable[[int | None], Awaitable[None]]
    keyboard: InlineKeyboardMarkup | None = None
    shows: Literal["board", "lobby"] = "board"
    closing: bool = False
    #: For a closing lobby: what a new message says in its place if it was never shown or is
    #: gone (a /cancel, which nothing else would answer then).
    instead: str | None = None

    @property
    def key(self) -> tuple[int, str]:
        """A newer message of the same key replaces this one while it waits."""
        return self.table_id, self.shows


@dataclass
class _Call:
    """A call in its turn; ``done`` gets its result if someone awaits it."""

    request: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any] | None = None
    paced: bool = True  # a call to Telegram; not so what only follows the calls before it


@dataclass
class _Answer:
    """An answer to a command, waiting for room the game leaves: its ``text`` for ``place``,
    what was asked (``question``), who asked (a user's or a chat's id), and when (on the
    pacer's clock)."""

    place: Place
    text: str
    question: str
    asker: int
    call: _Call
    asked: float


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
        self._answers: deque[_Answer] = deque()
        #: when each answer last went to its place for its asker, for a minute
        self._said: dict[tuple[Place, int, str], float] = {}
        #: set when anything is queued: an answer waiting for room gives way to a call or board
        self._queued = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: the board being shown (it may be waiting out flood control)
        self._showing: Board | None = None

    def call(
        self, request: Callable[[], Awaitable[Any]], *, paced: bool = True
    ) -> asyncio.Future[Any]:
        """Queue a call to Telegram; the future gets its result or its failure (or is cancelled
        when the outbox stops first). ``paced=False`` as for ``post``."""
        done = asyncio.get_running_loop().create_future()
        self._queue.append(_Call(request, done, paced))
        self._start()
        return done

    def post(self, request: Callable[[], Awaitable[Any]], *, paced: bool = True) -> None:
        """Queue a call nobody waits for (a round's result, say); a failure is logged. With
        ``paced=False`` it is not a call to Telegram but what must follow the calls before it
        (noting that results were announced)."""
        self._queue.append(_Call(request, paced=paced))
        self._start()

    def board(self, board: Board) -> None:
        """Queue the newest board (or lobby) of a table: it replaces that table's board (or
        lobby) still waiting, unless a call was queued after it (a round's final board stays
        before its result). A closing lobby (or board) takes the place of the table's wherever
        it waits, and of the one being shown (``Board``)."""
        if board.closing:
            self._close(board)
        for index in range(len(self._queue) - 1, -1, -1):
            waiting = self._queue[index]
            if not isinstance(waiting, Board):
                break
            if waiting.key == board.key:
                board.fresh = board.fresh or waiting.fresh
                self._queue[index] = board
                return
        self._queue.append(board)
        self._start()

    def _close(self, closing: Board) -> None:
        """The table's lobby waiting anywhere in the queue goes (nobody saw it); the one being
        shown, still waiting out flood control, is shown closed or not at all if tried again.
        ``closing`` follows it, to edit what it showed before it was closed."""
        self._queue = deque(
            waiting
            for waiting in self._queue
            if not (isinstance(waiting, Board) and waiting.key == closing.key)
        )
        showing = self._showing
        if showing is not None and showing.key == closing.key:
            showing.text, showing.keyboard, showing.closing = closing.text, None, True

    @property
    def idle(self) -> bool:
        return self._task is None

    def answer(
        self,
        place: Place,
        text: str,
        asker: int,
        request: Callable[[], Awaitable[Any]],
        question: str | None = None,
    ) -> None:
        """Queue ``asker``'s answer to a command that only tells, behind the game's calls and
        boards, unless it is dropped (see the module's docstring). ``question``: what was
        asked, for an answer written anew as it goes (its text now says nothing of then)."""
        question = text if question is None else question
        now = self.pacer.clock()
        self._said = {
            said: when for said, when in self._said.items() if now - when < self.pacer.window
        }
        if (place, asker, text) in self._said:
            why = "it was just sent to the asker"
        elif any(w.place == place and w.question == question for w in self._answers):
            why = "the same waits"
        elif len(self._answers) >= ANSWERS_WAITING:
            why = "answers enough wait"
        else:
            self._answers.append(_Answer(place, text, question, asker, _Call(request), now))
            self._start()
            return
        log.debug("an answer was dropped: %s", why, extra={"chat": self.chat_id})

    def _start(self) -> None:
        self._queued.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"outbox {self.chat_id}")

    async def _run(self) -> None:
        item: _Call | Board | None = None
        try:
            while self._queue or self._answers:
                if not self._queue:
                    await self._answer()
                    continue
                if isinstance(self._queue[0], Board) or self._queue[0].paced:
                    await self.pacer.wait_for_room(self.chat_id)
                item = self._queue.popleft()  # only now: a newer board may replace it meanwhile
                if isinstance(item, Board):
                    self._showing = item
                    await self._show(item)
                    self._showing = None
                else:
                    await self._make(item)
                item = None
        finally:
            self._task = self._showing = None
            dropped = [item, *self._queue]  # when stopping
            self._queue.clear()
            self._answers.clear()
            for call in dropped:
                if isinstance(call, _Call) and call.done is not None and not call.done.done():
                    call.done.cancel()

    async def _answer(self) -> None:
        """The oldest answer, if the group has room to spare now; else a nap until it has, or
        until the game queues something, which goes first."""
        seconds = self.pacer.wait(self.chat_id, keep=RESERVE)
        if seconds > 0:
            await self._nap(seconds)
            return
        answer = self._answers.popleft()
        if self.pacer.clock() - answer.asked > self.pacer.window:
            log.debug("an answer was dropped: it waited a minute", extra={"chat": self.chat_id})
            return
        self._said[(answer.place, answer.asker, answer.text)] = self.pacer.clock()
        await self._make(answer.call)

    async def _nap(self, seconds: float) -> None:
        """Sleep ``seconds`` (on the pacer's clock), or less if a call or a board is queued."""
        self._queued.clear()
        await self.pacer.within(seconds, self._queued.wait())

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
