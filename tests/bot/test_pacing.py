"""A group's outbox, below Telegram: order, coalesced boards, the budget, stopping."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from itertools import pairwise

import pytest

from bot.pacing import JITTER, Board, GroupPacer, Outbox
from bot.place import Place

GROUP = -100
PLACE = Place(GROUP)


class Clock:
    """Time that the test moves on by hand; a pacer waiting on it looks again every 10 ms."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0.01)


class Group:
    """What the group shows: the calls made, in order, each noted against the budget."""

    def __init__(self, pacer: GroupPacer) -> None:
        self.pacer = pacer
        self.shown: list[str] = []
        self.board_id: int | None = 1

    async def show_board(self, chat_id: int, board: Board) -> None:
        self.pacer.note(chat_id)
        self.shown.append(board.text)

    def board(self, text: str, table_id: int = 1) -> Board:
        async def remember(message_id: int | None) -> None:
            self.board_id = message_id

        return Board(table_id, PLACE, text, False, lambda: self.board_id, remember)

    def message(self, text: str) -> Callable[[], Awaitable[str]]:
        async def send() -> str:
            self.pacer.note(GROUP)
            self.shown.append(text)
            return text

        return send


async def test_boards_waiting_for_the_budget_give_way_to_the_newest() -> None:
    """An empty budget: the moves' boards wait, and only the newest is shown when room comes;
    a round's last board stays before its result, which is never skipped."""
    clock = Clock()
    pacer = GroupPacer(2, clock=clock, sleep=clock.sleep)  # a burst of one, then one call a minute
    group = Group(pacer)
    outbox = Outbox(GROUP, pacer, group.show_board)
    pacer.note(GROUP)  # the budget is spent
    for move in range(1, 4):
        outbox.board(group.board(f"board {move}"))
    outbox.post(group.message("round 1 result"))
    for move in range(4, 7):
        outbox.board(group.board(f"board {move}"))
    await asyncio.sleep(0.05)
    assert group.shown == []  # nobody waited for this: the queue did
    clock.now = 60.0  # room for one
    await settled(lambda: len(group.shown) == 1)
    await asyncio.sleep(0.05)
    assert group.shown == ["board 3"]
    clock.now = 120.0
    await settled(lambda: len(group.shown) == 2)
    assert group.shown == ["board 3", "round 1 result"]
    outbox.board(group.board("board 7"))
    clock.now = 180.0
    await settled(lambda: outbox.idle)
    assert group.shown == ["board 3", "round 1 result", "board 7"]


def busy(pacer: GroupPacer, groups: Sequence[int], until: float) -> list[float]:
    """When ``groups`` send, each with a call always waiting and its outbox sleeping as the
    pacer says (``wake_in``), from the pacer's clock's now until ``until``."""
    clock = pacer.clock
    assert isinstance(clock, Clock)
    due = dict.fromkeys(groups, clock.now)
    sent: list[float] = []
    while True:
        group = min(due, key=due.__getitem__)
        if due[group] > until:
            return sent
        clock.now = due[group]
        while pacer.wait(group) == 0:
            pacer.note(group)
            sent.append(clock.now)
        due[group] = clock.now + pacer.wake_in(group)


def test_a_busy_group_sees_its_board_move_every_few_seconds() -> None:
    """Calls waiting all the time for five minutes: a burst at once, then calls spread over
    each minute, never more than its 18, rather than 18 at once and a board frozen for the
    rest of the minute."""
    pacer = GroupPacer(18, clock=Clock())
    sent = busy(pacer, [GROUP], 300.0)
    assert sent[:6] == [0.0] * 6
    assert max(later - earlier for earlier, later in pairwise(sent)) <= 5.0 * (1 + JITTER)
    assert max(sum(1 for at in sent if start <= at < start + 60) for start in sent) <= 18
    assert len(sent) >= 6 + 12 * 5 - 1


def test_busy_groups_that_ran_out_together_do_not_send_together() -> None:
    """Twenty busy groups out of room at the same moment (all started at once, say): they keep
    their 12 calls a minute, but not all at the same instants (which made a latency spike for
    every table every five seconds in bench_bot: p99 148 ms, and 43 ms once spread)."""
    pacer = GroupPacer(18, clock=Clock())
    pacer.rng = random.Random(1)
    groups = range(-1, -21, -1)
    for group in groups:
        for _ in range(pacer.burst):
            pacer.note(group)
    later = [at for at in busy(pacer, groups, 180.0) if at >= 60.0]
    assert len(later) >= 20 * 12 * 2 - 20  # each still sends its 12 a minute
    # in step, all twenty would go in the same instant, every five seconds
    assert max(sum(1 for at in later if start <= at < start + 0.01) for start in later) <= 6


async def settled(done: Callable[[], bool]) -> None:
    """Let the outbox's task run (its pacer polls the clock) until ``done``."""
    for _ in range(300):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not get there")


async def test_an_awaited_call_gets_its_result_in_its_turn() -> None:
    pacer = GroupPacer(5, clock=Clock())
    group = Group(pacer)
    outbox = Outbox(GROUP, pacer, group.show_board)
    outbox.board(group.board("board"))
    assert await outbox.call(group.message("lobby")) == "lobby"
    assert group.shown == ["board", "lobby"]


async def test_closing_drops_what_the_budget_does_not_let_through() -> None:
    """On stop, what cannot go within the grace is dropped (a restart resyncs the board and
    announces what was not marked announced), and whoever awaited it is not left hanging."""
    clock = Clock()
    pacer = GroupPacer(1, clock=clock, sleep=clock.sleep)
    group = Group(pacer)
    outbox = Outbox(GROUP, pacer, group.show_board)
    outbox.post(group.message("goat"))
    waiting = outbox.call(group.message("lobby"))
    await outbox.close(grace=0.1)
    assert group.shown == ["goat"]
    assert waiting.cancelled() and outbox.idle


async def test_answers_to_commands_wait_behind_the_game_and_are_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Answers to /help, /standings... go only when no call or board waits and the group has
    room to spare beyond ``RESERVE``; one the same as an answer waiting, or sent to the same
    place for the same asker within the minute, is dropped, and so is any beyond
    ``ANSWERS_WAITING``. What is dropped is logged at DEBUG."""
    caplog.set_level(logging.DEBUG, logger="bot.pacing")
    clock = Clock()
    pacer = GroupPacer(18, clock=clock, sleep=clock.sleep)  # a burst of 6, then 12 a minute
    group = Group(pacer)
    outbox = Outbox(GROUP, pacer, group.show_board)
    for _ in range(5):
        pacer.note(GROUP)  # room for one call: the game's, not an answer's
    topic = Place(GROUP, 7)
    asked = [("help", PLACE)] * 3 + [("standings", PLACE), ("help", topic), ("rules", PLACE)]
    for text, place in asked:
        outbox.answer(place, text, 1, group.message(f"{text} {place.thread_id}"))
    outbox.post(group.message("result"))
    outbox.board(group.board("board"))
    await settled(lambda: group.shown == ["result"])
    clock.now = 5.0  # room for one more call: the board's
    await settled(lambda: len(group.shown) == 2)
    clock.now = 20.0  # three calls of room: what the game keeps
    await asyncio.sleep(0.05)
    assert group.shown == ["result", "board"]
    for now in (25.0, 30.0, 35.0):
        clock.now = now
        await settled(lambda: len(group.shown) == int(now) // 5 - 2)  # noqa: B023
    assert group.shown == ["result", "board", "help None", "standings None", "help 7"]
    outbox.answer(PLACE, "help", 1, group.message("help again"))  # just said to them
    outbox.answer(PLACE, "help", 2, group.message("help for another"))
    clock.now = 40.0
    await settled(lambda: len(group.shown) == 6)
    clock.now = 90.0  # a minute after the first help: said again
    outbox.answer(PLACE, "help", 1, group.message("help a minute later"))
    await settled(lambda: len(group.shown) == 7)
    assert group.shown[-2:] == ["help for another", "help a minute later"]
    dropped = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert dropped == [
        "an answer was dropped: the same waits",
        "an answer was dropped: the same waits",
        "an answer was dropped: answers enough wait",
        "an answer was dropped: it was just sent to the asker",
    ]


async def test_an_answer_the_game_kept_waiting_a_minute_is_dropped() -> None:
    """A group so busy that no room was spare for a minute: the answer asked then is stale
    (/standings has moved on), and goes nowhere."""
    clock = Clock()
    pacer = GroupPacer(18, clock=clock, sleep=clock.sleep)
    group = Group(pacer)
    outbox = Outbox(GROUP, pacer, group.show_board)
    for _ in range(6):
        pacer.note(GROUP)
    outbox.answer(PLACE, "standings", 1, group.message("standings"))
    clock.now = 61.0  # a minute went by before the group had room to spare
    outbox.post(group.message("result"))
    await settled(lambda: outbox.idle)
    assert group.shown == ["result"]
