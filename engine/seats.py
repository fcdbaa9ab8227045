"""Sides and partners: in a pair game seats 0 and 2 play against 1 and 3; otherwise each seat
is its own side. The one place that says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

PAIR_SEATS = 4
#: The players of a pair.
PAIR = 2
T = TypeVar("T")


def side_of(seat: int, pairs: bool) -> int:
    return seat % 2 if pairs else seat


def partner_of(seat: int) -> int:
    """The partner across the table in a pair game."""
    return (seat + 2) % PAIR_SEATS


def seats_of(side: int, players: int, pairs: bool) -> list[int]:
    return [seat for seat in range(players) if side_of(seat, pairs) == side]


def opposite(pairs: Sequence[Sequence[T]]) -> list[T]:
    """Two pairs, each in its own order, around a pair game's table: each pair's first at its
    side's first seat and its second across from them (``side_of``)."""
    if [len(pair) for pair in pairs] != [PAIR, PAIR]:
        raise ValueError(f"two pairs of two sit at a pair game, not {pairs!r}")
    return [pairs[side_of(seat, True)][seat // PAIR] for seat in range(PAIR_SEATS)]
