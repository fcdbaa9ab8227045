"""What a game of the domino family is to the match: the hooks it calls (``games/__init__.py``).

The defaults are the common model of RULES.md §1; a game overrides what it plays differently, the
way a chess variant overrides a few hooks of one board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..actions import Lay, Play
from ..events import MatchEnded, MatchEndedBy, RoundEnded
from ..layout import End, Layout, Placements
from ..leads import Lead, LotWinner, opening_lead, opening_lot
from ..line import Line
from ..round import Hand, Round
from ..rules import RuleSet
from ..scoring.bonus import Bonus
from ..scoring.tally import Tally
from ..tiles import ALL_TILES, Tile

if TYPE_CHECKING:
    from ..match import Match

RedealReason = Literal["doubles", "suit"]


class Game(ABC):
    """One game: its table, deal, leads, layout and scoring, each asked of its ``RuleSet``."""

    #: The name ``RuleSet.game`` gives it.
    name: str
    #: What ``match_ended`` says of a match the game itself ended (a timeout says "timeout").
    ended_by: MatchEndedBy
    #: The options a table may set for this game, as RULES.md spells them, the most argued
    #: about first: what the bot's ⚙️ Rules editor offers and ``--set`` accepts. The game reads
    #: no other, or keeps it as its preset has it.
    settable: tuple[str, ...]

    #: Whether the match is won by reaching a target (§1.11): its ``match_ended`` names winners.
    wins_at_target: bool = False
    #: Whether the match's own end names its winners (``MatchEnded.winners``), not only its
    #: losers: every game won at a target, and those whose own rule picks the winning side
    #: (Sport domino's count of deals §3.11, General's Goat's lost rounds and General §3.10).
    #: A match such a game loses by a timeout (``Match.abandon``) names the other sides as its
    #: winners, as its own end would have; Kozel and Donkey name only their goat or donkey, and
    #: a timeout only the side that timed out.
    names_winners: bool = False
    #: Whether a round is a race to go out, the pips left in one's own hand costing little or
    #: nothing (Traditional's winner collects the others', General's Goat counts lost rounds):
    #: greedy then prizes keeping a tile it can follow above shedding weight.
    races_out: bool = False
    #: Whether a double may be laid face down, closing its end (Donkey, §3.3): then every move is
    #: asked of ``move_all`` with its ``closed`` flags, and ``played`` records them.
    closes_doubles: bool = False
    #: Whether ``lays`` can offer a move: Donkey's closed doubles, English fives' lengthwise ones.
    #: The other games are not asked on every turn for moves they never have.
    offers_lays: bool = False
    #: Whether a side's score is points (§1.10): General's Goat keeps none, only the rounds each
    #: team lost (§3.10), which its board, results and records count instead.
    keeps_points: bool = True
    #: What the game calls the side that loses the match at its limit (§1.11), as its result and
    #: records name it: Kozel's goat (§2.9), Donkey's donkey (§3.3); None where the loser has no
    #: title of its own, a plain loss.
    loser_title: str | None = None
    #: Whether a blocked round is a fish (рыба, §1.9), its fisherman named: so the Kozel family,
    #: Traditional (§3.1) and Sea Goat (§3.2) call it; the fives games and the Telephones speak of
    #: a block that the lightest hand wins (§3.4-§3.9).
    blocks_are_fish: bool = True
    #: Whether, where a blocked round goes to the fewest pips and four play in pairs, partners
    #: are judged together, their hands summed (the Kozel family §2.10, Traditional §3.1, Sea
    #: Goat §3.2.1), or each on his own hand, the player with the lightest one winning for his
    #: side (the fives games, §3.6): what a round's result says of its winner.
    pairs_block_by_total: bool = True
    #: Whether a round's compulsory lead is placed for its leader, ending his turn with no
    #: choice made (Bulgarian fives §3.8: "The first tile is placed automatically"); elsewhere
    #: the leader lays it himself, even where the rules name the tile.
    places_lead: bool = False

    def options(self, rules: RuleSet) -> dict[str, Any]:
        """The options ``match_started`` records: by default every ``RuleSet`` field, which the
        next game's options would change; so each game names its own (``test_seams.py``)."""
        return rules.to_dict()

    def for_table(self, rules: RuleSet, players: int, pairs: bool) -> RuleSet:
        """The rules as a table of ``players`` (``pairs``) plays them, options left unset for
        its shape filled in (``rules.UNSET_BY_DEFAULT``): by default ``rules`` as they are."""
        return rules

    def check_table(self, players: int, pairs: bool) -> None:
        """Raise ValueError unless the game is played so: by 2 to 4, pairs only by 4 (§1.3)."""
        if not 2 <= players <= 4:
            raise ValueError(f"{self.name} is played by 2 to 4 players")
        if pairs and players != 4:
            raise ValueError("pairs need exactly 4 players")

    def fresh_tally(self, sides: int) -> Tally:
        """The standing at a match's start: by default every side at 0."""
        return Tally.fresh(sides)

    def layout(self, rules: RuleSet) -> Layout:
        """An empty layout for a new round: by default the line of §1.7."""
        return Line()

    @abstractmethod
    def hand_size(self, rules: RuleSet, players: int) -> int:
        """Tiles dealt to each player (§1.4)."""

    def bazaar_size(self, rules: RuleSet, players: int) -> int:
        """The tiles a deal to ``players`` leaves in the bazaar (§1.4): none where all 28 are
        dealt, as to four at seven each, so that nobody there ever draws, whatever
        ``draw_mode`` and ``bazaar_reserve`` say."""
        return len(ALL_TILES) - players * self.hand_size(rules, players)

    def redeal(self, hands: list[Hand], rules: RuleSet) -> tuple[int, RedealReason] | None:
        """The first seat whose hand throws the deal in, and why; only the Kozel family redeals
        (§1.4), so by default a deal always stands."""
        return None

    def first_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        """Who leads the match's first round, the tiles he must choose from (None: any), and why,
        as ``rules.first_lead`` says (``leads.opening_lead``; a lot draws on the match's
        ``seed``)."""
        return opening_lead(hands, rules, seed)

    def first_lead_lot(self, rules: RuleSet) -> LotWinner | None:
        """Whose tile wins the lot that picks the match's first leader (``leads.lot``), None
        where no lot does (``leads.opening_lot``, as ``first_lead`` leads)."""
        return opening_lot(rules)

    def restart_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        """Who leads a round that ``restarts_lead`` says is led as the first one was, with what
        and why: by default as ``first_lead``."""
        return self.first_lead(hands, rules, seed)

    def later_lead(self, seat: int, hand: Hand, rules: RuleSet) -> Lead:
        """The lead of a later round by ``seat``, holding ``hand``: by default any tile."""
        return Lead(seat, None)

    @abstractmethod
    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """Who leads the next round, from how the last one ended."""

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        """Whether the next round is led as the first one was; by default it is not."""
        return False

    def move(
        self, layout: Layout, tile: Tile, end: End, rules: RuleSet, lengthwise: bool = False
    ) -> tuple[list[int] | dict[str, int], int | None]:
        """What ``played`` records of putting ``tile`` on ``end`` (it is not placed yet), laid
        ``lengthwise`` where the game offers that (``lays``): the open ends after it, and the
        points it scores. By default Kozel's: the ends as a list, and ``move_points``."""
        return list(layout.ends_after(tile, end)), self.move_points(layout, tile, end, rules)

    def lays(self, rnd: Round, seat: int, rules: RuleSet) -> list[Lay]:
        """Moves of one tile laid otherwise than the round's plays, which ``seat`` may make now
        (English fives' lengthwise doubles, §3.9): by default none."""
        return []

    def doubles_a_move(self, rules: RuleSet) -> int:
        """The most doubles one move can put down (0: one tile a move): ``multi_double``, but no
        more than the layout has ends, each double of a move needing an open end of its own
        (§1.6). So on a line (§1.7) 3 or 4 play as 2, as tables set so before the editor
        offered 0 or 2 only (``rules.OFFERED_CHOICES``) still do."""
        return min(rules.multi_double, len(self.layout(rules).end_names()))

    def move_all(
        self, layout: Layout, placements: Placements, rules: RuleSet, closed: Sequence[bool] = ()
    ) -> tuple[list[int] | dict[str, int], int | None]:
        """What ``played`` records of several doubles put down in one move (§1.6; not placed yet),
        as ``move`` records one, those flagged in ``closed`` face down. By default: the ends as a
        list, and no points."""
        after = layout.copy()
        after.place_all(placements, closed)
        return list(after.open_ends().values()), None

    def move_points(self, layout: Layout, tile: Tile, end: End, rules: RuleSet) -> int | None:
        """The points the mover scores for putting ``tile`` on ``end`` (it is not placed yet);
        None in a game that scores nothing during play, whose moves then record no points."""
        return None

    def counted_round(self, number: int, scores: Sequence[int], result: str | None) -> int:
        """The number the players know the engine's round ``number`` by: its place among the
        rounds that count. ``scores`` are the match's after it once it ended with ``result``
        ("out" or "fish"; None while it is played). By default every round counts: ``number``."""
        return number

    @abstractmethod
    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        """Score the round that has just ended: the event that records it."""

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        """How the winner of a round that ended so (``result``: "out" or "fish") is paid, step
        by step, for its result to say (§3.1-§3.9); by default None, where no winner is paid
        from hands (Kozel's family, where the losers write their own, and the Ukrainian
        Telephone's write-offs)."""
        return None

    @abstractmethod
    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        """The sides that have lost the match with these scores; none while it goes on."""

    def target(self, rules: RuleSet) -> int:
        """The score a win-at-target match is played to (§1.11): by default ``target``."""
        return rules.target

    def limit(self, rules: RuleSet) -> int | None:
        """The score that ends the match (§1.11): the ``target`` a side wins at, where the game
        ``wins_at_target``, else the one a side loses at, by default Kozel's ``goat_limit``
        (§2.9); None where no score ends it (``deals``)."""
        return self.target(rules) if self.wins_at_target else rules.goat_limit

    def deals(self, rules: RuleSet) -> int | None:
        """How many deals the match lasts, where their count ends it rather than a score (Sport
        domino, §3.11), and its rounds are called deals; by default None."""
        return None

    def match_end(self, tally: Tally, rules: RuleSet, in_round: bool) -> MatchEnded | None:
        """The end of the match with these scores, or None while it goes on. ``in_round``: asked
        right after a move scored, where by default (lose-at-limit) a match never ends."""
        if in_round:
            return None
        losers = self.losers(tally, rules)
        return MatchEnded(losers, list(tally.scores), self.ended_by) if losers else None

    def declines(self, match: Match, seat: int, move: Play | Lay) -> bool:
        """Whether greedy players keep ``move`` for when nothing else is legal (Sea Goat's
        "на сто" lead, §3.2.1 rule 7): by default no move."""
        return False

    def match_end_after(self, ended: RoundEnded, tally: Tally, rules: RuleSet) -> MatchEnded | None:
        """The end of the match once the round ``ended`` is scored into ``tally``, or None: by
        default ``match_end``; a game whose end hangs on the round itself (the count of deals,
        a title won in it) reads ``ended``."""
        return self.match_end(tally, rules, in_round=False)

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """How good the match's standing is for ``side`` once the round ``ended`` (None: the match
        ended in the middle of one), higher better: what the strong player (``search.py``)
        maximizes over its playouts. By default, where points are good: the side's lead over the
        best of the others."""
        scores = match.tally.scores
        return float(scores[side] - max(s for i, s in enumerate(scores) if i != side))
