"""Greedy's measure of a placement: what the ``greedy`` player (``ai.py``) ranks its moves by, and
what the strong player's playouts (``search.py``) play by in the races to go out."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Final

from .actions import Lay, Play
from .match import Match
from .tiles import Tile

#: What greedy counts a placement worth: each pip it sheds, and each tile of the rest of the hand
#: that can follow an end after it. Where a round is a race to go out (``Game.races_out``),
#: following counts more than weight: with ``WEIGHTS`` greedy won 31-33% of Traditional matches
#: against three random players and 65.5% of General's Goat's, with ``RACE_WEIGHTS`` 34-35% and
#: 69% (``benchmarks.bench_ai_games``, 4000 matches at seeds 1 and 11); in Kozel, where the pips
#: left count against their holder, ``RACE_WEIGHTS`` won 92% where ``WEIGHTS`` won 94%.
WEIGHTS: Final = (2, 3)
RACE_WEIGHTS: Final = (1, 6)

Worth = tuple[bool, int, int, int, float]


def ranked(
    match: Match, seat: int, moves: Sequence[Play | Lay], rng: random.Random
) -> list[Play | Lay]:
    """``moves`` (placements of ``seat``'s, whose turn it is), best first by greedy's measure."""
    return sorted(moves, key=measure(match, seat, rng), reverse=True)


def measure(match: Match, seat: int, rng: random.Random) -> Callable[[Play | Lay], Worth]:
    """What a placement of ``seat``'s is worth to greedy, higher better: a move the game says
    to keep for last (``Game.declines``) comes last; then the points it scores; then the
    weight it sheds and the followers it keeps (``WEIGHTS``); then the ends it closes that only
    the others could follow; then chance."""
    rnd = match.round
    assert rnd is not None
    hand = rnd.hands[seat]
    shed, follow = RACE_WEIGHTS if match.game.races_out else WEIGHTS

    def outcome(move: Play | Lay) -> tuple[list[Tile], int, Collection[int]]:
        """The tiles the move puts down, its points and the values of the open ends after it."""
        if isinstance(move, Play):
            end = rnd.end_for(move)
            points = match.game.move_points(rnd.layout, move.tile, end, match.rules)
            return [move.tile], points or 0, rnd.layout.ends_after(move.tile, end)
        placements = tuple((p.tile, rnd.layout.end_for(p.tile, p.end)) for p in move.placements)
        if move.placements[0].lengthwise:
            ((tile, end),) = placements
            ends, points = match.game.move(rnd.layout, tile, end, match.rules, lengthwise=True)
        else:
            closed = [p.closed for p in move.placements]
            ends, points = match.game.move_all(rnd.layout, placements, match.rules, closed)
        values = ends.values() if isinstance(ends, dict) else ends
        return [tile for tile, _ in placements], points or 0, set(values)

    def worth(move: Play | Lay) -> Worth:
        tiles, points, ends = outcome(move)
        rest = [t for t in hand if t not in tiles]
        followers = sum(1 for t in rest if t.a in ends or t.b in ends)
        # A tile the move lays counts as one the hand no longer needs to follow.
        weight = sum(shedding(t, shed) for t in tiles) + follow * (followers + len(tiles))
        return (
            not match.game.declines(match, seat, move),
            points,
            weight,
            _denied(move, rest),
            rng.random(),
        )

    return worth


def shedding(tile: Tile, shed: int) -> int:
    """What shedding ``tile`` is worth to greedy: ``shed`` a pip, and a double more, as it can
    follow only one value."""
    return shed * tile.pips + (6 if tile.is_double else 0)


def _denied(move: Play | Lay, rest: list[Tile]) -> int:
    """How many ends ``move`` closes (Donkey, §3.3) that only the others could follow: doubles of
    a suit the rest of the hand does not hold."""
    if isinstance(move, Play):
        return 0
    return sum(
        1
        for p in move.placements
        if p.closed and not any(p.tile.a == t.a or p.tile.a == t.b for t in rest)
    )
