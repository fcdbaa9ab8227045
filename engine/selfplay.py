"""Play whole matches with computer players, as the ``selfplay`` and ``arena`` commands do."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from .ai import Player
from .events import Event, RoundStarted
from .match import Match
from .rules import RuleSet


def play_match(
    players: int, pairs: bool, rules: RuleSet, seed: int, ai: Sequence[Player]
) -> Iterator[Event]:
    """Yield every event of one match; the same arguments always give the same match. Each
    player is shown the events of the round in play."""
    match, events = Match.new(players, pairs, rules, seed)
    yield from events
    rng = random.Random(seed)
    this_round = current_round(events)
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        made = match.act(seat, ai[seat](match, seat, rng, this_round))
        yield from made
        this_round = current_round(this_round + made)


def current_round(events: list[Event]) -> list[Event]:
    """The events from the last ``round_started`` on: all a player needs of the past."""
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], RoundStarted):
            return events[i:]
    return events
