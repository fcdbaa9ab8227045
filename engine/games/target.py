"""What the win-at-target scoring games share (RULES.md §1.11, §3.4-§3.9): points during play on
the open-end sum, a round's end that pays the winner (or writes off), and a match won by the
first side to reach ``rules.target``. Each game (``telephone.py``, ``muggins.py``,
``bulgarian.py``, ``english.py``) says who wins a round and what it pays (``settle``); the
arithmetic is ``scoring/fives.py``."""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from ..actions import Lay, Placement
from ..cross import Cross
from ..events import MatchEnded, RoundEnded, WonBy
from ..layout import End, Layout, Placements
from ..round import Round
from ..rules import SCORING_OPTION_NAMES, RuleSet
from ..scoring import fives
from ..scoring.bonus import Bonus
from ..scoring.lightest import by_seats, lightest, standing_for
from ..scoring.tally import Tally
from ..seats import side_of
from ..tiles import Tile
from .base import Game

if TYPE_CHECKING:
    from ..match import Match

#: The revision of the rules' code from which both partners of a side holding the lightest hand
#: win a block for their side (``out_or_lowest``); before it, nobody won (``revisions.py``).
LIGHTEST_PARTNERS_WIN: Final = 4
#: The revision from which a round's end records how a block was won (``RoundEnded.won_by``);
#: before it, it did not, and a stored log replays only as it was written.
WON_BY_RECORDED: Final = 5


class Settled(NamedTuple):
    """A round's settlement (``TargetGame.settle``): the seat that won it (None: nobody), what
    each side gets at its end, and at a block that someone won, how he won it."""

    winner: int | None
    amounts: list[int]
    won_by: WonBy | None = None


def recorded_won_by(won_by: WonBy | None, rules: RuleSet) -> WonBy | None:
    """``won_by`` as the round's end records it: nothing before ``WON_BY_RECORDED``."""
    return won_by if rules.revision >= WON_BY_RECORDED else None


class TargetGame(Game):
    """A scoring game: the defaults are Muggins' (§3.6), the family's fullest description."""

    ended_by = "target"
    wins_at_target = True
    names_winners = True
    blocks_are_fish = False
    pairs_block_by_total = False  # the player with the fewest pips wins (``out_or_lowest``)
    #: How many may play (§1.4), and whether four may (``pairs_allowed``) or must
    #: (``pairs_only``) play as two pairs.
    table_sizes: ClassVar[tuple[int, ...]] = (2, 3, 4)
    pairs_allowed: ClassVar[bool] = False
    pairs_only: ClassVar[bool] = False
    #: Tiles each, by the number of players (§1.4).
    hand_sizes: ClassVar[dict[int, int]] = {2: 7, 3: 5, 4: 5}
    #: Whether a side that reaches the target in the middle of a round wins at once (§3.4, §3.6,
    #: §3.8, §3.9), or only once the round is over (§3.5).
    ends_mid_round: ClassVar[bool] = True
    #: Whether a double other than the spinner may be laid lengthwise, counting once (§3.9).
    lengthwise_doubles: ClassVar[bool] = False

    def options(self, rules: RuleSet) -> dict[str, Any]:
        """The options these games have always recorded, none of the games that came later."""
        return {name: rules.option(name) for name in SCORING_OPTION_NAMES}

    def check_table(self, players: int, pairs: bool) -> None:
        if players not in self.table_sizes:
            counts = " or ".join(map(str, self.table_sizes))
            raise ValueError(f"{self.name} is played by {counts} players")
        if pairs and players != 4:
            raise ValueError("pairs need exactly 4 players")
        if pairs and not self.pairs_allowed:
            raise ValueError(f"{self.name} is not played in pairs")
        if self.pairs_only and players == 4 and not pairs:
            raise ValueError(f"four play {self.name} as two pairs only")

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return self.hand_sizes[players]

    def layout(self, rules: RuleSet) -> Layout:
        """The spinner's cross (§1.7), or with ``spinner = none`` a line that counts as §1.8."""
        return Cross.for_rules(rules)

    def move(
        self, layout: Layout, tile: Tile, end: End, rules: RuleSet, lengthwise: bool = False
    ) -> tuple[list[int] | dict[str, int], int | None]:
        if not lengthwise:
            return self.move_all(layout, ((tile, end),), rules)
        assert isinstance(layout, Cross)  # only the cross lays doubles lengthwise
        after = layout.copy()
        after.place(tile, end, lengthwise)
        return _recorded(after, rules)

    def move_all(
        self, layout: Layout, placements: Placements, rules: RuleSet, closed: Sequence[bool] = ()
    ) -> tuple[list[int] | dict[str, int], int | None]:
        """The open ends by name after the move, and its points (§1.8; with several doubles, on
        the sum once all are down, §3.4): every move records them, 0 included."""
        after = layout.copy()
        after.place_all(placements, closed)
        return _recorded(after, rules)

    def lays(self, rnd: Round, seat: int, rules: RuleSet) -> list[Lay]:
        """In English fives, every double but the spinner laid lengthwise (§3.9), on each end it
        fits."""
        layout = rnd.layout
        if not self.lengthwise_doubles or not isinstance(layout, Cross):
            return []
        return [
            Lay((Placement(tile, end, lengthwise=True),))
            for tile in filter(layout.may_lie_lengthwise, rnd.hands[seat])
            for end in layout.fits(tile)
        ]

    def move_points(self, layout: Layout, tile: Tile, end: End, rules: RuleSet) -> int:
        return fives.move_points(layout.end_sum_after(tile, end), rules)

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """The round's winner leads the next, any tile (§3.5, §3.6 "the previous hand's winner",
        FLAG); after a block that nobody won, the player who made it (§1.9)."""
        leader = ended.winner if ended.winner is not None else ended.fisherman
        assert leader is not None
        return leader

    @abstractmethod
    def settle(
        self, rnd: Round, values: list[int], tally: Tally, pairs: bool, rules: RuleSet
    ) -> Settled:
        """The seat that won the round that has just ended (None: nobody), what each side gets
        at its end, and how a block was won; ``values`` are the seats' hand values."""

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        """By default the winner takes his opponents' hands."""
        return Bonus("opponents")

    def hand_value(self, hand: list[Tile], rules: RuleSet) -> int:
        """What a hand left at the round's end counts: its pips (§1.10)."""
        return fives.pips(hand)

    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        values = [self.hand_value(hand, rules) for hand in rnd.hands]
        winner, amounts, won_by = self.settle(rnd, values, tally, pairs, rules)
        went_out = rnd.outcome == "out"
        side_values = [0] * len(tally.scores)
        for seat, value in enumerate(values):
            side_values[side_of(seat, pairs)] += value
        return RoundEnded(
            round=rnd.number,
            result="out" if went_out else "fish",
            winner=winner,
            fisherman=None if went_out else rnd.last_placer,
            hands=list(map(list, rnd.hands)),
            hand_values=side_values,
            amounts=amounts,
            scores=[s + a for s, a in zip(tally.scores, amounts, strict=True)],
            won_by=recorded_won_by(won_by, rules),
            closure_suit=rnd.closure_suit(rules),
        )

    def match_end(self, tally: Tally, rules: RuleSet, in_round: bool) -> MatchEnded | None:
        """The side at or past the target wins; when two are (possible only where the check
        waits for the round's end, §3.5), the match is a draw: no winners and no losers."""
        if in_round and not self.ends_mid_round:
            return None
        scores = list(tally.scores)
        reached = [side for side, score in enumerate(scores) if score >= rules.target]
        if not reached:
            return None
        if len(reached) > 1:
            return MatchEnded([], scores, "draw", [])
        others = [side for side in range(len(scores)) if side not in reached]
        return MatchEnded(others, scores, "target", reached)

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        ended = self.match_end(tally, rules, in_round=False)
        return [] if ended is None else ended.losers

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """The chance that ``side`` wins, as the strong player estimates it: certain once the
        match is over (a draw is half a win); otherwise each side's chance grows exponentially
        with its score, the more sharply the nearer the leader is to the target."""
        if match.is_over:
            return 1.0 if side in match.winners else (0.5 if not match.losers else 0.0)
        scores = match.tally.scores
        target = match.rules.target
        top = max(scores)
        to_go = max(0, target - top)
        spread = 0.1 * target * math.sqrt(1.0 + 5.0 * to_go / target)
        weights = [math.exp((score - top) / spread) for score in scores]
        return weights[side] / sum(weights)


def _recorded(after: Layout, rules: RuleSet) -> tuple[list[int] | dict[str, int], int | None]:
    """What ``played`` records of a move that leaves ``after``: the open ends, and the points."""
    ends: dict[str, int] = {name: value for name, value in after.open_ends().items()}
    return ends, fives.move_points(after.end_sum(), rules)


def winner_side_bonus(sides: int, winner: int | None, pairs: bool, bonus: int) -> list[int]:
    """Round amounts where only the winner's side gets ``bonus`` (nothing when nobody won)."""
    amounts = [0] * sides
    if winner is not None:
        amounts[side_of(winner, pairs)] = bonus
    return amounts


def out_or_lowest(
    rnd: Round, values: list[int], pairs: bool, rules: RuleSet
) -> tuple[int | None, WonBy | None]:
    """The round's winner in the games where the lowest hand wins a block, and how a block was
    won: the player who went out, else the player with the fewest pips (§3.4, §3.6, §3.9).
    Players of two sides sharing them is a tie: nobody wins (§3.6 "Ties at a block: no bonus",
    FLAG). That tie is read as one between sides, to which scores belong (§0.2): both partners
    of one side sharing them is none, and their side wins (from revision
    ``LIGHTEST_PARTNERS_WIN``; before it, nobody won), paid as either would be, their hands
    being equal; the one who made the block stands for it, or if the other side made it, the
    side's first seat (FLAG: the rules name one winner, who leads the next round)."""
    if rnd.outcome == "out":
        return rnd.last_placer, None
    seats = lightest(values)
    sides = {side_of(seat, pairs) for seat in seats}
    if len(sides) > 1 or (len(seats) > 1 and rules.revision < LIGHTEST_PARTNERS_WIN):
        return None, None
    return standing_for(seats, rnd.last_placer), by_seats(seats)


def others_than(values: list[int], winner: int, pairs: bool) -> int:
    """The pips of the winner's opponents: every other side's hands; a partner's do not count
    (§3.6, FLAG)."""
    side = side_of(winner, pairs)
    return sum(v for seat, v in enumerate(values) if side_of(seat, pairs) != side)
