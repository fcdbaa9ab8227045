"""Muggins / All Fives / "Пятёрочка" (RULES.md §3.6) and All Threes (§3.7), one game read through
``score_multiple``: S in full whenever it is a positive multiple of 5 (3), and a bonus from the
losers' hands at the end."""

from __future__ import annotations

from typing import ClassVar

from ..round import Round
from ..rules import RuleSet
from ..scoring.bonus import Basis, Bonus
from ..scoring.tally import Tally
from .target import Settled, TargetGame, others_than, out_or_lowest, winner_side_bonus


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
    ) -> Settled:
        """The player who went out, or at a block the lowest hand (``out_or_lowest``: a tie
        between sides wins nothing, FLAG; partners who share it win for their side), takes
        ``bonus`` of his opponents' pips; a partner's hand is ignored (FLAG). All keep what they
        scored during play."""
        winner, won_by = out_or_lowest(rnd, values, pairs, rules)
        bonus = 0
        if winner is not None:
            assert rnd.outcome is not None
            opponents = others_than(values, winner, pairs)
            bonus = self.bonus(rnd.outcome, rules).paid(opponents, values[winner])
        return Settled(winner, winner_side_bonus(len(tally.scores), winner, pairs, bonus), won_by)

    def bonus(self, result: str, rules: RuleSet) -> Bonus:
        """The Muggins winner's bonus (§3.6, M-e/M-f/M-g), and All Threes' (§3.7).

        ``divided`` (DEFAULT): round5(opponents' pips, minus his own at a block) / 5, the seed's
        mix of units (in-play points are not divided) kept literally (FLAG). ``full``: round5 of
        the opponents' pips, nothing subtracted. All Threes counts in threes (round3(...)/3)
        unless ``threes_bonus = fives`` keeps the Muggins bonus (FLAG)."""
        unit = rules.score_multiple if rules.threes_bonus == "threes" else 5
        if rules.muggins_bonus == "full":
            return Bonus("opponents", unit)
        basis: Basis = "less_winner" if result == "fish" else "opponents"
        return Bonus(basis, unit, divided=True)
