"""What the winner of a scoring game's round is paid from his opponents' hands (RULES.md §3.1,
§3.4-§3.9), step by step: the same steps pay him and let his round's result show the sum.

The steps, in the order the rules take them: the opponents' pips (``basis``); the winner's own
taken off; rounded to a multiple, the nearest, down or up; divided by that multiple. Bulgarian
fives rounds the opponent's pips before the winner's own comes off (§3.8: "floor5(opponent's
pips) − own pips"), which ``rounded_first`` says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .fives import round_to

#: What the winner is paid from: "opponents" (their hands), "less_own" (theirs less his side's),
#: "less_own_each" (theirs less his side's once for each of them), "less_winner" (theirs less
#: his own hand, a partner's ignored), "out" (a prize for going out, not from any hand).
Basis = Literal["opponents", "less_own", "less_own_each", "less_winner", "out"]
Rounding = Literal["nearest", "down", "up"]


@dataclass(frozen=True, slots=True)
class Bonus:
    basis: Basis
    #: The count is rounded to a multiple of this (round5, floor5, round3); 1: not rounded.
    multiple: int = 1
    rounding: Rounding = "nearest"
    #: And then divided by ``multiple`` (the count in fives, or threes: §3.4, §3.6, §3.7).
    divided: bool = False
    #: The opponents' pips are rounded before the winner's own comes off (§3.8).
    rounded_first: bool = False

    def rounded(self, count: int) -> int:
        """``count`` rounded as the rules say (22 → 20 to the nearest 5, 23 → 25; down: 23 →
        20; up: 21 → 25), not yet divided."""
        step = self.multiple
        if self.rounding == "down":
            return count - count % step
        if self.rounding == "up":
            return -(-count // step) * step
        return round_to(count, step)

    def paid(self, opponents: int, own: int) -> int:
        """The winner's bonus when his opponents hold ``opponents`` and he (his side) ``own``,
        which comes off unless he is paid from the opponents' hands alone."""
        if self.basis == "opponents":
            own = 0
        if self.rounded_first:
            return self.rounded(opponents) - own
        counted = self.rounded(opponents - own)
        return counted // self.multiple if self.divided else counted
