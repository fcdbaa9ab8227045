"""The lightest hand(s): who holds the fewest pips when a round is blocked, which is who wins
most games' fish (RULES.md §2.7.3 ``lowest_wins``, §3.1, §3.2.1, §3.4, §3.6, §3.9). One rule
for every game, whether it compares players' hands or sides' totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..events import WonBy


def lightest(values: Sequence[int], among: Iterable[int] | None = None) -> list[int]:
    """The indexes of ``values`` (only those ``among``, if given) that hold the fewest pips, in
    order: one, or every one that shares them.

    >>> lightest([7, 3, 9, 3])
    [1, 3]
    >>> lightest([7, 3, 9, 3], among=[0, 2])
    [0]
    """
    indexes = range(len(values)) if among is None else list(among)
    low = min(values[i] for i in indexes)
    return [i for i in indexes if values[i] == low]


def single(found: Sequence[int]) -> int | None:
    """The one index ``lightest`` found, None when several share the fewest pips (a tie)."""
    return found[0] if len(found) == 1 else None


def standing_for(seats: Sequence[int], fisherman: int | None) -> int:
    """Which of ``seats`` (all winners together: partners who share the lightest hand, or a side
    that wins by its total) is named the round's winner and leads where the winner leads: the
    one who made the fish if he is among them, else the first of them (FLAG: RULES.md names one
    winner)."""
    return fisherman if fisherman is not None and fisherman in seats else seats[0]


def by_seats(seats: Sequence[int]) -> WonBy:
    """How the ``seats`` that hold the fewest pips alone won a block: one by his lightest hand,
    or two partners who share it."""
    return "lightest" if len(seats) == 1 else "lightest_partners"


def by_total(pairs: bool) -> WonBy:
    """How a block is won where a side's hands count together (Traditional, Sea Goat): in pairs
    by the pair's hands together, else by the one player's lightest hand."""
    return "lightest_pair" if pairs else "lightest"
