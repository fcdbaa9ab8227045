"""The computer players think in worker processes: the same decisions as in the bot's process,
seeded by the match, and a move still played when the workers are gone."""

from __future__ import annotations

import logging
import random

import pytest

from bot.service.thinking import Thinker, decision_seed
from engine import Action, Event, Match
from engine.ai import greedy_player

from .workers import die


def position() -> tuple[Match, list[Event]]:
    """Four players a few moves into a round, the next one with a choice."""
    match, events = Match.new(4, False, seed=3)
    while True:
        seat = match.current_seat
        assert seat is not None
        if len(events) > 8 and len(match.legal_actions(seat)) > 1:
            return match, events
        events += match.act(seat, match.legal_actions(seat)[0])


async def test_a_worker_decides_as_this_process_would_and_again_after_a_restart() -> None:
    match, events = position()
    seat = match.current_seat
    assert seat is not None
    inline = Thinker(0)
    pooled = Thinker(1)
    try:
        chosen = await pooled.choose("strong", match, seat, events)
        assert chosen == await inline.choose("strong", match, seat, events)
        again = Match.from_json(match.to_json())  # the table loaded after a restart
        assert decision_seed(again) == decision_seed(match)
        assert await pooled.choose("strong", again, seat, events) == chosen
    finally:
        pooled.close()


async def ask_dying_workers(
    match: Match, seat: int, events: list[Event], caplog: pytest.LogCaptureFixture
) -> Action:
    """What a thinker whose workers die as they start plays for ``seat`` (strong, if it could)."""
    broken = Thinker(1, initializer=die)
    try:
        with caplog.at_level(logging.ERROR):
            return await broken.choose("strong", match, seat, events)
    finally:
        broken.close()


async def test_broken_workers_leave_the_move_to_greedy(caplog: pytest.LogCaptureFixture) -> None:
    match, events = position()
    seat = match.current_seat
    assert seat is not None
    chosen = await ask_dying_workers(match, seat, events, caplog)
    assert chosen == await Thinker(0).choose("greedy", match, seat, events)
    assert "worker pool broke" in caplog.text


async def test_a_forced_move_is_played_without_asking_a_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Asked, these workers would die and the move be logged as greedy's."""
    match, events = Match.new(2, False, seed=5)
    rng = random.Random(1)
    while len(match.legal_actions(seat := match.current_seat or 0)) > 1:
        events += match.act(seat, greedy_player(match, seat, rng))
    chosen = await ask_dying_workers(match, seat, events, caplog)
    assert [chosen] == match.legal_actions(seat)
    assert "worker pool broke" not in caplog.text
