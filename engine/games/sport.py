"""Sport domino (RULES.md §3.11): two pairs play a fixed number of deals of pair Kozel, and the
pair that wrote fewer points wins."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..events import MatchEnded, RoundEnded
from ..leads import Lead, LotWinner
from ..round import Hand
from ..rules import SCORING_OPTION_NAMES, RuleSet
from ..scoring.tally import Tally
from ..seats import PAIR_SEATS
from .kozel import Kozel

if TYPE_CHECKING:
    from ..match import Match


class Sport(Kozel):
    """Four players in two pairs, 7 tiles each (FLAG: §1.4 implies it), dealt and redealt as in
    Kozel (§2.2). Deal k is led by seat (k − 1) mod 4 with any tile (FLAG). Each deal is scored
    as pair Kozel (§2.7, ``fish_mode``, eggs, special bones) with every amount written at once:
    no 13 threshold, no memory, no goat limit (FLAG). After ``sport_deals`` deals the pair with
    fewer points wins, equal points are a draw; an eggs pot still waiting then goes to nobody
    (FLAG)."""

    name = "sport"
    ended_by = "deals"
    loser_title = None  # the pair with more points just loses
    names_winners = True  # the pair with fewer points, after its deals
    settable = ("sport_deals", "fish_mode", "eggs", "special_bones", "draw_mode")
    threshold: ClassVar[bool] = False

    def options(self, rules: RuleSet) -> dict[str, Any]:
        return {name: rules.option(name) for name in (*SCORING_OPTION_NAMES, "sport_deals")}

    def check_table(self, players: int, pairs: bool) -> None:
        if players != PAIR_SEATS or not pairs:
            raise ValueError("sport domino is played by four, as two pairs")

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return 7

    def first_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        return Lead(0, None)

    def first_lead_lot(self, rules: RuleSet) -> LotWinner | None:
        return None

    def later_lead(self, seat: int, hand: Hand, rules: RuleSet) -> Lead:
        return Lead(seat, None)

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """Deal ``ended.round + 1`` is led by the seat after the one that led deal ``round``."""
        return ended.round % players

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        return False

    def limit(self, rules: RuleSet) -> None:
        """No score ends the match: its ``deals`` do."""
        return None

    def deals(self, rules: RuleSet) -> int:
        return rules.sport_deals

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        """No score loses by itself: only the count of deals ends the match."""
        return []

    def match_end_after(self, ended: RoundEnded, tally: Tally, rules: RuleSet) -> MatchEnded | None:
        if ended.round < self.deals(rules):
            return None
        scores = list(tally.scores)
        if scores[0] == scores[1]:
            return MatchEnded([], scores, "draw", [])
        winner = scores.index(min(scores))
        return MatchEnded([1 - winner], scores, self.ended_by, [winner])

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """The chance that ``side`` wins: certain once the match is over (a draw is half a win);
        otherwise logistic in the points it is ahead by (fewer is better), the flatter the more
        deals are left to turn it."""
        if match.is_over:
            return 1.0 if side in match.winners else (0.5 if not match.losers else 0.0)
        scores = match.tally.scores
        ahead = scores[1 - side] - scores[side]
        left = match.rules.sport_deals - match.rounds_played
        spread = 12.0 * math.sqrt(1.0 + left)
        return 1.0 / (1.0 + math.exp(-ahead / spread))
