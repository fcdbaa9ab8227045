"""The two Telephones (RULES.md §3.4, §3.5): the house of the first double, points on the open-end
sum; to 72 with S/5 and a winner's bonus, or the Ukrainian game to 225 with write-offs."""

from __future__ import annotations

from typing import ClassVar

from ..events import RoundEnded
from ..round import Round
from ..rules import RuleSet
from ..scoring import fives
from ..scoring.bonus import Bonus
from ..scoring.tally import Tally
from ..seats import side_of
from .target import Settled, TargetGame, others_than, out_or_lowest, winner_side_bonus

#: The Telephone to 72's winner: the others' pips "divided by 5 and rounded up" (§3.4).
BONUS = Bonus("opponents", 5, "up", divided=True)


class Telephone(TargetGame):
    """Telephone to 72 (§3.4). 2-4 players each for themselves (teams are not mentioned, so none:
    FLAG), 7 tiles each; drawing and leads as in Kozel (FLAG): the 1-1 chain leads the match, and
    the winner or the player who made the fish leads the next round, any tile. The target is
    checked after every scoring move (FLAG)."""

    name = "telephone"
    settable = (
        "target",
        "play_points",
        "spinner_arms_open",
        "spinner_count",
        "multi_double",
        "draw_mode",
    )
    hand_sizes: ClassVar[dict[int, int]] = {2: 7, 3: 7, 4: 7}

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """The player who went out scores ceil(others' pips / 5); at a block the lowest hand wins
        the same bonus over the others, a tie scores nothing (FLAG)."""
        winner, won_by = out_or_lowest(rnd, values, pairs, rules)
        bonus = 0 if winner is None else BONUS.paid(others_than(values, winner, pairs), 0)
        return Settled(winner, winner_side_bonus(len(tally.scores), winner, pairs, bonus), won_by)

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        return BONUS

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """Kozel's later lead (§2.6, inherited: FLAG): after a fish the player who made it."""
        leader = ended.fisherman if ended.result == "fish" else ended.winner
        assert leader is not None
        return leader


class TelephoneUA(TargetGame):
    """The Ukrainian Telephone to 225 (§3.5): 2 players, or 4 as two pairs, 7 tiles each. The
    holder of 3-2 leads the match's first round with it (and scores its 5); later rounds are led
    by the player who went out, or after a fish by the player who made it, any tile. The target
    is checked only at the end of a game, after the write-offs: both sides past it is a draw.
    Up to four doubles may go down at once where the table sets ``multi_double`` (§3.5
    "Variant")."""

    name = "telephone_ua"
    settable = ("target", "spinner_arms_open", "spinner_count", "multi_double", "draw_mode")
    table_sizes: ClassVar[tuple[int, ...]] = (2, 4)
    pairs_allowed: ClassVar[bool] = True
    pairs_only: ClassVar[bool] = True
    hand_sizes: ClassVar[dict[int, int]] = {2: 7, 4: 7}
    ends_mid_round: ClassVar[bool] = False

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """No bonus for going out: each side writes off floor5 of the pips it still holds, never
        going below 0. Partners write off jointly, floor5 of their two hands together (FLAG)."""
        held = [0] * len(tally.scores)
        for seat, value in enumerate(values):
            held[side_of(seat, pairs)] += value
        amounts = [fives.write_off(s, v) - s for s, v in zip(tally.scores, held, strict=True)]
        return Settled(rnd.last_placer if rnd.outcome == "out" else None, amounts)

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        """No winner is paid: every side writes off its own hand."""
        return None
