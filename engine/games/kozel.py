"""Kozel through the game hooks: the rules of RULES.md §2, which live in ``deal.py``, ``leads.py``
and ``scoring/kozel.py``; this module only says which of them answers each hook."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..deal import first_redeal
from ..events import MatchEndedBy, RoundEnded
from ..leads import Lead, compulsory_leads, later_leader, restart_rules, restarted
from ..round import Hand, Round
from ..rules import KOZEL_OPTION_NAMES, RuleSet
from ..scoring.kozel import goats, score_round, side_values
from ..scoring.tally import Tally
from ..seats import partner_of, side_of
from .base import Game, RedealReason

if TYPE_CHECKING:
    from ..match import Match


class Kozel(Game):
    """Lose-at-limit: the losers of each round collect points, and 101 makes the goat (§2.9)."""

    name = "kozel"
    settable: tuple[str, ...] = (
        "goat_limit",
        "fish_mode",
        "lone_00",
        "lone_66",
        "special_bones",
        "memory",
        "eggs",
        "draw_mode",
        "bazaar_reserve",
        "first_lead",
        "next_lead",
        "lead_tile",
        "redeal_rule",
        "kozel_hand_sizes",
        "restart_1_1_after_unrecorded",
        "fish_closure_rule",
    )
    ended_by: MatchEndedBy = "goat"
    loser_title: str | None = "goat"
    #: Whether a side records points only from a round of 13 on (§2.8); Sport domino writes all.
    threshold: ClassVar[bool] = True

    def options(self, rules: RuleSet) -> dict[str, Any]:
        """The options Kozel's logs have always recorded, none of the scoring games'."""
        return {name: getattr(rules, name) for name in KOZEL_OPTION_NAMES}

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return rules.hand_size(players)

    def redeal(self, hands: list[Hand], rules: RuleSet) -> tuple[int, RedealReason] | None:
        return first_redeal(hands, rules)

    def later_lead(self, seat: int, hand: Hand, rules: RuleSet) -> Lead:
        tiles = compulsory_leads(hand, rules)
        return Lead(seat, tiles, None if tiles is None else "double_if_held")

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        return later_leader(players, pairs, ended.winner, ended.fisherman, rules)

    def restart_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        """The holder of 1-1 leads again, as the §2.3 chain finds him (``leads.restart_rules``),
        because the last round went unrecorded."""
        return restarted(self.first_lead(hands, restart_rules(rules), seed), "one_one_again")

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        """``restart_1_1_after_unrecorded`` (§2.3): the 1-1 chain again after a round in which a
        side scored points that it could not record yet."""
        return (
            rules.restart_1_1_after_unrecorded
            and ended.amounts is not None
            and ended.opened is not None
            and any(a > 0 and not o for a, o in zip(ended.amounts, ended.opened, strict=True))
        )

    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        """The hands are valued, the partner of the player who went out not counting (§2.7.2),
        and scored with the threshold, memory and eggs of §2.7-§2.8."""
        went_out = rnd.outcome == "out"
        winner_seat = rnd.last_placer if went_out else None
        ignore = partner_of(winner_seat) if pairs and winner_seat is not None else None
        values = side_values(rnd.hands, pairs, rules, ignore_seat=ignore)
        scored = score_round(
            tally,
            values,
            rules,
            result="out" if went_out else "fish",
            winner=None if winner_seat is None else side_of(winner_seat, pairs),
            lead=rnd.lead,
            last=rnd.last,
            threshold=self.threshold,
        )
        t = scored.tally
        return RoundEnded(
            round=rnd.number,
            result="out" if went_out else "fish",
            winner=winner_seat,
            fisherman=None if went_out else rnd.last_placer,
            eggs=scored.eggs,
            hands=list(map(list, rnd.hands)),
            hand_values=values,
            amounts=scored.amounts,
            scores=list(t.scores),
            memory=list(t.memory) if self.threshold else None,
            opened=list(t.opened) if self.threshold else None,
            pot=t.pot,
            pot_awarded_to=scored.pot_awarded_to,
            closure_suit=rnd.closure_suit(rules),
        )

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        return goats(tally.scores, rules)

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """Minus the chance that ``side`` ends up the goat, from the tally after ``ended``.

        A finished match is certain. Otherwise each side is the goat with a chance that grows
        exponentially with its points (remembered ones included, as they count once the side
        opens); the spread shrinks as the leader nears the goat limit, since fewer rounds are left
        to turn it.
        """
        if match.is_over:
            return -1.0 if side in match.losers else 0.0
        assert ended is not None and ended.memory is not None  # Kozel ends only after a round
        points = [s + m for s, m in zip(ended.scores, ended.memory, strict=True)]
        to_go = max(0, match.rules.goat_limit - max(points))
        spread = 11.0 * math.sqrt(1.0 + to_go / 15.0)
        top = max(points)
        weights = [math.exp((p - top) / spread) for p in points]
        return -weights[side] / sum(weights)
