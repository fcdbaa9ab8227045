"""Muggins / All Fives / "Пятёрочка" (RULES.md §3.6) and All Threes (§3.7), one game read through
``score_multiple``: S in full whenever it is a positive multiple of 5 (3), and a bonus from the
losers' hands at the end."""

from __future__ import annotations

from typing import ClassVar

from ..round import Round
from ..rules import RuleSet
from ..scoring import fives
from ..scoring.tally import Tally
from .target import TargetGame, others_than, out_or_lowest, winner_side_bonus


class Muggins(TargetGame):
    """2-4 players (7, 5, 5 tiles), four may play as two pairs. A lot picks the first leader,
    later the previous round's winner leads (FLAG), any tile. The first side to reach the
    target wins at once (FLAG)."""

    pairs_allowed: ClassVar[bool] = True

    def __init__(self, name: str, bonus: str) -> None:
        """``name``: Muggins or All Threes; ``bonus``: the option that says how its end bonus
        is counted (``muggins_bonus``, ``threes_bonus``)."""
        self.name = name
        self.settable = ("target", bonus, "spinner", "spinner_count", "draw_mode")

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> tuple[int | None, list[int]]:
        """The player who went out, or at a block the lowest hand (a tie: nobody, FLAG), takes
        ``fives.muggins_bonus`` of his opponents' pips; a partner's hand is ignored (FLAG). All
        keep what they scored during play."""
        winner = out_or_lowest(rnd, values)
        bonus = 0
        if winner is not None:
            opponents = others_than(values, winner, pairs)
            blocked = rnd.outcome == "fish"
            bonus = fives.muggins_bonus(opponents, values[winner], blocked, rules)
        return winner, winner_side_bonus(len(tally.scores), winner, pairs, bonus)

    def bonus_basis(self, result: str, rules: RuleSet) -> str | None:
        """At a block his own hand comes off, unless the bonus is the opponents' in full."""
        divided = result == "fish" and rules.muggins_bonus == "divided"
        return "less_winner" if divided else "opponents"
