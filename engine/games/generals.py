"""General's Goat (RULES.md §3.10): two pairs, 1-1 leads every round, and no points: a round is
lost by the player after the one who went out, and his team may have a General hung on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..events import MatchEnded, MatchEndedBy, RoundEnded
from ..leads import Lead, LotWinner
from ..round import Hand, Round
from ..rules import SCORING_OPTION_NAMES, RuleSet
from ..scoring.fives import pips
from ..scoring.tally import Tally
from ..seats import PAIR_SEATS, side_of
from ..tiles import Tile
from .base import Game

if TYPE_CHECKING:
    from ..match import Match

#: The doubles that hang a General.
GENERAL_TILES: Final = frozenset((Tile(0, 0), Tile(6, 6)))
#: The tile that leads every round.
ONE_ONE: Final = Tile(1, 1)


def hangs_general(move: tuple[Tile, ...], rules: RuleSet) -> bool:
    """Whether the move that went out hangs a General (``general_title``): by DEFAULT only 0-0
    and 6-6 placed together in it ("відразу і 0х0, і 6х6"), or with ``either`` one of them."""
    held = GENERAL_TILES.intersection(move)
    return held == GENERAL_TILES if rules.general_title == "both_at_once" else bool(held)


def can_hang_general(rules: RuleSet) -> bool:
    """Whether any move can hang a General: with ``either`` one, yet 0-0 and 6-6 together need
    two doubles a move (``multi_double``, §3.10); at one tile a move they never go down at once."""
    return rules.general_title == "either" or rules.multi_double >= 2


def generals(ended_by: MatchEndedBy | None, losers: Sequence[int], sides: int) -> list[int]:
    """Each team's Generals, from how the match ended (``Match.ended_by`` and ``losers``, or
    ``MatchEnded``'s): a General ends the match at once on the team it is hung on, so a team
    has one only then."""
    hung = losers if ended_by == "general" else ()
    return [int(side in hung) for side in range(sides)]


class GeneralsGoat(Game):
    """Four players in two pairs, 7 tiles each, a line; the holder of 1-1 leads it every round,
    and two doubles may go down at once (``multi_double = 2``), one on each end.

    A fish does not count (§3.10): the round ends with ``outcome`` "redealt" and nothing written,
    and the next round (its number the next one, FLAG) is dealt anew. A round someone goes out of
    is lost by the next player clockwise, an opponent: ``scores`` counts each team's lost rounds.

    The match (FLAG: the seed's table rotates teams, a "team that loses twice gives up its
    place"): a team that has lost ``gg_losses`` rounds (DEFAULT 2) loses it, ``ended_by``
    "losses"; a General ends it at once, the team it is hung on losing (the seed: such a team
    "gives up its place immediately"), ``ended_by`` "general". So each team's Generals are the
    ``round_ended`` events that say ``general``, at most one a match, on the losing team."""

    name = "generals_goat"
    ended_by = "losses"
    settable = ("gg_losses", "general_title", "multi_double")
    races_out = True
    keeps_points = False
    names_winners = True  # the team that neither lost its rounds nor had a General hung

    def options(self, rules: RuleSet) -> dict[str, Any]:
        names = (*SCORING_OPTION_NAMES, "general_title", "gg_losses")
        return {name: rules.option(name) for name in names}

    def check_table(self, players: int, pairs: bool) -> None:
        if players != PAIR_SEATS or not pairs:
            raise ValueError("general's goat is played by four, as two pairs")

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return 7

    def first_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        """1-1 leads (§3.10), whatever ``first_lead`` says: all 28 tiles are dealt, so its holder
        always has it."""
        seat = next(seat for seat, hand in enumerate(hands) if ONE_ONE in hand)
        return Lead(seat, [ONE_ONE], "one_one_every_round")

    def first_lead_lot(self, rules: RuleSet) -> LotWinner | None:
        return None

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        """1-1 leads every round (``first_lead``)."""
        return True

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """Unused (``restarts_lead``); the loser, who shuffles for the next round."""
        return ended.loser if ended.loser is not None else 0

    def counted_round(self, number: int, scores: Sequence[int], result: str | None) -> int:
        """A fish does not count (§3.10), yet the engine numbers its redeal as the next round:
        the players know a round by the rounds lost before it, one a round, plus one. ``scores``
        count the lost rounds; one gone out of is among them."""
        return sum(scores) + (0 if result == "out" else 1)

    def limit(self, rules: RuleSet) -> int:
        """The rounds a team may lose (§3.10)."""
        return rules.gg_losses

    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        scores = list(tally.scores)
        amounts = [0] * len(scores)
        went_out = rnd.outcome == "out"
        finisher = rnd.last_placer
        assert finisher is not None
        loser = general = None
        if went_out:
            loser = (finisher + 1) % PAIR_SEATS
            amounts[side_of(loser, pairs)] = 1
            scores[side_of(loser, pairs)] += 1
            general = hangs_general(rnd.last_move, rules)
        values = [0] * len(scores)
        for seat, hand in enumerate(rnd.hands):
            values[side_of(seat, pairs)] += pips(hand)
        return RoundEnded(
            round=rnd.number,
            result="out" if went_out else "fish",
            winner=finisher if went_out else None,
            fisherman=None if went_out else finisher,
            hands=list(map(list, rnd.hands)),
            hand_values=values,
            amounts=amounts,
            scores=scores,
            outcome=None if went_out else "redealt",
            loser=loser,
            general=general,
            closure_suit=rnd.closure_suit(rules),
        )

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        return [side for side, lost in enumerate(tally.scores) if lost >= self.limit(rules)]

    def match_end_after(self, ended: RoundEnded, tally: Tally, rules: RuleSet) -> MatchEnded | None:
        scores = list(tally.scores)
        if ended.general and ended.loser is not None:
            hung = side_of(ended.loser, True)
            return MatchEnded([hung], scores, "general", [1 - hung])
        losers = self.losers(tally, rules)
        if not losers:
            return None
        return MatchEnded(losers, scores, self.ended_by, [1 - losers[0]])

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """The chance that ``side`` wins: certain once the match is over; otherwise half, moved
        by the rounds each team still may lose."""
        if match.is_over:
            return 1.0 if side in match.winners else 0.0
        lost = match.tally.scores
        limit = match.rules.gg_losses
        return 0.5 + 0.5 * (lost[1 - side] - lost[side]) / limit
