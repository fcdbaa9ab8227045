"""Traditional's round scoring: the winner collects (RULES.md §3.1, §1.10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules import RuleSet
from ..seats import side_of
from ..tiles import Tile
from .lightest import lightest, single

ZERO_ZERO: Final = Tile(0, 0)
SIX_SIX: Final = Tile(6, 6)
LONE_ZERO_ZERO: Final = 25  # "if the player has any other tile, 0-0 counts zero" (§A)
ALWAYS_SIX_SIX: Final = 50  # §HT


def hand_value(hand: Sequence[Tile], rules: RuleSet) -> int:
    """Pips left in a hand (§1.10): 0-0 counts 25 alone and nothing beside other tiles, or 25 in
    any hand with ``00_always_25``; 6-6 counts 50 in any hand with ``66_always_50`` (a lone
    6-6 is otherwise 12: §1.10 gives 50 for it only in Kozel's §TEAM and Sea Goat)."""
    total = 0
    for tile in hand:
        if tile == ZERO_ZERO and (rules.zero_zero_always_25 or len(hand) == 1):
            total += LONE_ZERO_ZERO
        elif tile == SIX_SIX and rules.six_six_always_50:
            total += ALWAYS_SIX_SIX
        else:
            total += tile.pips
    return total


def side_totals(values: Sequence[int], pairs: bool) -> list[int]:
    """Each side's hand value: partners' hands summed (§3.1 "2x2", as §2.10, FLAG)."""
    totals = [0] * (2 if pairs else len(values))
    for seat, value in enumerate(values):
        totals[side_of(seat, pairs)] += value
    return totals


def domino(values: Sequence[int], winner: int, pairs: bool) -> int:
    """Going out scores the losers' hands: every opponent's, a partner's not (§2.10, §3.1)."""
    side = side_of(winner, pairs)
    return sum(v for seat, v in enumerate(values) if side_of(seat, pairs) != side)


def fish(totals: Sequence[int], rules: RuleSet) -> tuple[int | None, int]:
    """The side that wins a fish, the fewest pips (None when two share them: nobody scores,
    FLAG), and what it scores: the others' pips minus its own (``trad_fish = difference``,
    DEFAULT) or the sum of each other side's pips minus its own (``per_player``)."""
    winner = single(lightest(totals))
    if winner is None:
        return None, 0
    low = totals[winner]
    others = [v for side, v in enumerate(totals) if side != winner]
    if rules.trad_fish == "per_player":
        return winner, sum(v - low for v in others)
    return winner, sum(others) - low
