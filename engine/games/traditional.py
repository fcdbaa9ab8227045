"""Traditional / Draw domino (RULES.md §3.1): the line, a bazaar, and the winner collects to 100.

The arithmetic is ``scoring/traditional.py``, the leads ``leads.traditional_lead``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..events import RoundEnded
from ..layout import End, Layout, Placements
from ..leads import Lead, LotWinner, traditional_lead, traditional_lot
from ..line import Line
from ..round import Hand, Round
from ..rules import SCORING_OPTION_NAMES, RuleSet
from ..scoring import traditional as scoring
from ..scoring.bonus import Bonus
from ..scoring.lightest import by_total, lightest, standing_for
from ..scoring.tally import Tally
from ..seats import seats_of
from ..tiles import Tile
from .base import Game
from .target import Settled, TargetGame, winner_side_bonus

#: The options Traditional adds to the scoring games' (``rules.py``).
OPTIONS: tuple[str, ...] = (
    "trad_lead",
    "trad_fish",
    "00_always_25",
    "66_always_50",
    "extra_turn_after_double",
)


class Traditional(TargetGame):
    """Win-at-target without points during play: 2 players get 7 tiles, 3 or 4 get 5, and four
    may play as two pairs, partners' hands summed (FLAG); a player draws until a tile fits
    (§1.5). ``trad_lead`` leads every round, the later ones too (FLAG: the seeds give no rule),
    except under ``lot_heaviest``, whose lot seats only the match's first leader, and later
    rounds go to the last round's winner, or after a fish nobody won to the player who made it
    (FLAG). The target is checked when a round ends, the only time anyone scores."""

    name = "traditional"
    settable = (
        "target",
        "trad_lead",
        "trad_fish",
        "00_always_25",
        "66_always_50",
        "extra_turn_after_double",
        "draw_mode",
    )
    pairs_allowed: ClassVar[bool] = True
    ends_mid_round: ClassVar[bool] = False
    races_out = True
    blocks_are_fish = True  # the fish of ``trad_fish`` (§3.1)
    pairs_block_by_total = True  # partners' hands summed (§3.1 "2x2", FLAG)

    def options(self, rules: RuleSet) -> dict[str, Any]:
        return {name: rules.option(name) for name in (*SCORING_OPTION_NAMES, *OPTIONS)}

    def layout(self, rules: RuleSet) -> Layout:
        return Line()

    def first_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        return traditional_lead(hands, rules, seed)

    def first_lead_lot(self, rules: RuleSet) -> LotWinner | None:
        return traditional_lot(rules)

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        return traditional_lot(rules) is None  # a lot picks only the first leader

    def move(
        self, layout: Layout, tile: Tile, end: End, rules: RuleSet, lengthwise: bool = False
    ) -> tuple[list[int] | dict[str, int], int | None]:
        """As Kozel records a move: the ends ``[left, right]``, no points."""
        return list(layout.ends_after(tile, end)), None

    def move_all(
        self, layout: Layout, placements: Placements, rules: RuleSet, closed: Sequence[bool] = ()
    ) -> tuple[list[int] | dict[str, int], int | None]:
        return Game.move_all(self, layout, placements, rules, closed)

    def move_points(self, layout: Layout, tile: Tile, end: End, rules: RuleSet) -> int:
        """Nothing is scored during play (what the computer players ask)."""
        return 0

    def hand_value(self, hand: list[Tile], rules: RuleSet) -> int:
        return scoring.hand_value(hand, rules)

    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """Going out scores the losers' hands; at a fish the side with the fewest pips (in
        pairs, the pair whose hands weigh least together) scores as ``trad_fish`` says, and its
        player with the fewest pips is the round's winner (the one who made the fish on a tie
        between partners, FLAG)."""
        sides = len(tally.scores)
        if rnd.outcome == "out":
            assert rnd.last_placer is not None
            winner = rnd.last_placer
            return Settled(
                winner,
                winner_side_bonus(sides, winner, pairs, scoring.domino(values, winner, pairs)),
            )
        side, amount = scoring.fish(scoring.side_totals(values, pairs), rules)
        if side is None:
            return Settled(None, [0] * sides)
        seats = lightest(values, among=seats_of(side, len(values), pairs))
        seat = standing_for(seats, rnd.last_placer)
        amounts = winner_side_bonus(sides, seat, pairs, amount)
        return Settled(seat, amounts, by_total(pairs))

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        """The losers' pips, at a fish less the winner's side's (once for each, ``per_player``);
        never rounded (``scoring/traditional.py`` counts them)."""
        if result == "out":
            return Bonus("opponents")
        return Bonus("less_own" if rules.trad_fish == "difference" else "less_own_each")
