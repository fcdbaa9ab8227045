"""Code the computer players' worker processes run in tests (importable by them)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence

from engine import Action, Event, Match
from engine.ai import PLAYERS, greedy_player

#: How long ``slow`` thinks, in seconds.
SLOW = 1.5


def slow_player(
    match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
) -> Action:
    """Greedy, after thinking ``SLOW`` seconds: a search that takes its time."""
    time.sleep(SLOW)
    return greedy_player(match, seat, rng, events)


def register_slow() -> None:
    PLAYERS["slow"] = slow_player


def die() -> None:
    """A worker that dies at once, as one killed by the system would."""
    os._exit(1)
