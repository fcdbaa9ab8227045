"""English fives (RULES.md §3.9, 004_e49d6bb1ad46cbfe.txt §ENG)."""

from __future__ import annotations

from ..round import Round
from ..rules import RuleSet
from ..scoring.bonus import Bonus
from ..scoring.tally import Tally
from .target import Settled, TargetGame, out_or_lowest, winner_side_bonus

#: What going out earns; the opponents' pips are not mentioned, so they earn nothing (FLAG).
OUT_BONUS = 10
#: A block's winner: round5(the others' pips − his own).
BLOCK = Bonus("less_own", 5)


class EnglishFives(TargetGame):
    """2-4 players each for themselves (teams are not mentioned: FLAG), 7, 5, 5 tiles. The first
    lead is not given: a lot, the lowest tile leads, as in Muggins (FLAG); later the round's
    winner leads, any tile. Drawing until playable (FLAG). A move scores S in full; 200 wins at
    once (FLAG). Every double but the spinner may be laid crosswise (counting 2v at an end) or
    lengthwise (v), as the player chooses (``lengthwise_doubles``; only the scoring effect is
    modelled, FLAG)."""

    name = "english_fives"
    settable = ("target", "spinner_count", "draw_mode")
    lengthwise_doubles = True
    offers_lays = True

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """Going out scores 10; at a block the lowest hand (a tie: nobody, FLAG) scores
        round5(the others' pips − his own)."""
        winner, won_by = out_or_lowest(rnd, values, pairs, rules)
        bonus = 0
        if winner is not None:
            own = values[winner]
            bonus = OUT_BONUS if rnd.outcome == "out" else BLOCK.paid(sum(values) - own, own)
        return Settled(winner, winner_side_bonus(len(tally.scores), winner, pairs, bonus), won_by)

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        return Bonus("out") if result == "out" else BLOCK
