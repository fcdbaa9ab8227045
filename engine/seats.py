"""Sides and partners: in a pair game seats 0 and 2 play against 1 and 3; otherwise each seat
is its own side. The one place that says so."""

from __future__ import annotations

PAIR_SEATS = 4


def side_of(seat: int, pairs: bool) -> int:
    return seat % 2 if pairs else seat


def partner_of(seat: int) -> int:
    """The partner across the table in a pair game."""
    return (seat + 2) % PAIR_SEATS


def seats_of(side: int, players: int, pairs: bool) -> list[int]:
    return [seat for seat in range(players) if side_of(seat, pairs) == side]
