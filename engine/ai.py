"""Computer players. They fill empty seats and play for absent players.

A player is a function of the match and a seat; it only looks at its own hand and the table, never
at other hands or the bazaar's order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, Play
from .match import Match

Player = Callable[[Match, int, random.Random], Action]


def random_player(match: Match, seat: int, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(match.legal_actions(seat))


def greedy_player(match: Match, seat: int, rng: random.Random) -> Action:
    """Dump weight early and keep the line open for yourself.

    Points are bad in Kozel, so the heaviest tile goes first; doubles are worth shedding early
    because they can only go on one value; and among equals, prefer leaving an end that this hand
    can follow next turn, so as not to be forced to draw or knock.
    """
    actions = match.legal_actions(seat)
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[0]
    rnd = match.round
    assert rnd is not None
    hand = rnd.hands[seat]

    def worth(play: Play) -> tuple[int, float]:
        tile = play.tile
        ends = rnd.ends_after(play)
        rest = [t for t in hand if t != tile]
        followers = sum(1 for t in rest if t.has(ends[0]) or t.has(ends[1]))
        return (2 * tile.pips + (6 if tile.is_double else 0) + 3 * followers, rng.random())

    return max(plays, key=worth)


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}
