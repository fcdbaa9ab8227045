"""The arithmetic of the fives and threes games (RULES.md §1.8, §3.4-§3.9), each rule said once.

During play a move scores on the open-end sum S; at a round's end the winner takes a bonus from
the others' hands (``bonus.py``). The games differ only in which of these pieces they use
(``games/``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import RuleSet
from ..tiles import Tile


def round_to(value: int, multiple: int) -> int:
    """The nearest multiple of ``multiple`` (round5, round3 of §3.6-§3.7): 22 → 20, 23 → 25,
    3 → 5; with 3, 4 → 3 and 5 → 6 (an integer is never halfway between multiples of 5 or 3)."""
    return (value + multiple // 2) // multiple * multiple


def floor5(value: int) -> int:
    """Down to a multiple of 5 (§3.5 write-offs, §3.8): 18 → 15, 23 → 20."""
    return value - value % 5


def move_points(end_sum: int, rules: RuleSet) -> int:
    """What a move that leaves the open-end sum ``end_sum`` scores (§1.8, §3.4-§3.9): nothing
    unless S is a positive multiple of ``score_multiple``; then S (``play_points = full``) or
    S / ``score_multiple`` (``divided``, the Telephone to 72). The lead is scored the same way."""
    multiple = rules.score_multiple
    if end_sum <= 0 or end_sum % multiple:
        return 0
    return end_sum if rules.play_points == "full" else end_sum // multiple


def pips(hand: Sequence[Tile]) -> int:
    """A hand's value in the scoring games: its pips, with none of Kozel's overrides (§1.10)."""
    return sum(tile.pips for tile in hand)


def write_off(score: int, hand_value: int) -> int:
    """The Ukrainian Telephone's end of a game (§3.5): floor5 of the tiles still held comes off
    the score, which never goes below 0 ("боргів у цій грі немає")."""
    return max(0, score - floor5(hand_value))
