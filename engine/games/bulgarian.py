"""The Bulgarian two-player fives game to 100 (RULES.md §3.8, 001_79019b977377449f.txt)."""

from __future__ import annotations

from typing import ClassVar

from ..events import RoundEnded, WonBy
from ..round import Round
from ..rules import RuleSet
from ..scoring.bonus import Bonus
from ..scoring.tally import Tally
from .target import Settled, TargetGame


class BulgarianFives(TargetGame):
    """Two players, 7 tiles each and 14 in the stock. Every round (FLAG: the seed describes only
    the start) the highest double leads, else the highest non-double, and the lead scores like any
    move (FLAG). The first double is the spinner, its arms open at once, and it counts by
    ``spinner_count = A`` unless the table sets B (both FLAG: "the doubles at ends" is all the seed
    says). A move scores S in full; reaching 100 ends the game at once, mid-round too."""

    name = "bulgarian_fives"
    settable = ("target", "bg_block_winner", "spinner_count")
    table_sizes: ClassVar[tuple[int, ...]] = (2,)
    hand_sizes: ClassVar[dict[int, int]] = {2: 7}
    places_lead = True

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        return True

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """Going out scores floor5 of the opponent's pips. A block is won as ``bg_block_winner``
        says, ties broken by fewer tiles, then by who played the last tile (what decided it is
        recorded); the block winner scores floor5(opponent's pips) − his own, which may be
        negative (the seed says so)."""
        assert rnd.outcome is not None
        won_by: WonBy | None = None
        if rnd.outcome == "out":
            assert rnd.last_placer is not None
            winner = rnd.last_placer
        else:
            orders = [_block_order(rnd, values, tally, seat, rules) for seat in range(2)]
            winner = min(range(2), key=orders.__getitem__)
            criteria = (_FIRST_CRITERION[rules.bg_block_winner], *_TIE_BREAKS)
            won_by = next(
                (by for by, a, b in zip(criteria, *orders, strict=True) if a != b), "last_tile"
            )
        amounts = [0, 0]
        amounts[winner] = self.bonus(rnd.outcome, rules).paid(values[1 - winner], values[winner])
        return Settled(winner, amounts, won_by)

    def bonus(self, result: str, rules: RuleSet) -> Bonus:
        """floor5 of the opponent's pips; at a block his own then comes off."""
        if result == "out":
            return Bonus("opponents", 5, "down")
        return Bonus("less_own", 5, "down", rounded_first=True)


#: What decides a block, in ``_block_order``'s order: the option's count, then its tie-breaks.
_FIRST_CRITERION: dict[str, WonBy] = {
    "lowest_pips": "lightest",
    "literal_most_points": "most_points",
}
_TIE_BREAKS: tuple[WonBy, WonBy] = ("fewer_tiles", "last_tile")


def _block_order(
    rnd: Round, values: list[int], tally: Tally, seat: int, rules: RuleSet
) -> tuple[int, int, bool]:
    """Sorts the block's winner first: fewer pips (``lowest_pips``, DEFAULT) or more match points
    (``literal_most_points``), then fewer tiles, then the player who played the last tile."""
    first = values[seat] if rules.bg_block_winner == "lowest_pips" else -tally.scores[seat]
    return first, len(rnd.hands[seat]), seat != rnd.last_placer
