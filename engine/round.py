"""One round (deal) of play: hands, the bazaar, the layout, whose turn, and how it ends (§1.5-§1.9).

The round only changes through ``apply_*`` methods, which the match calls both when acting and when
replaying events, so a replayed round is the same round. Where tiles go is the layout's business
(``layout.py``): the round asks it, never assumes two ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Final, Literal

from . import errors
from .actions import DRAW, KNOCK, PLAYS, Action, Lay, Placement, Play
from .cross import Cross
from .events import Played
from .layout import End, Layout, Placements
from .line import Line
from .rules import RuleSet
from .tiles import DOUBLE_TILES, Tile

Hand = list[Tile]
Outcome = Literal["out", "fish"]

#: The revision from which a round's end records the suit the closure test closed
#: (``Round.closure_suit``); before it, it did not, and a stored log replays only as written.
CLOSURE_RECORDED: Final = 6


@dataclass(slots=True)
class Round:
    number: int
    hands: list[Hand]
    bazaar: list[Tile]
    leader: int
    #: Tiles the leader must choose from (first-lead chain, compulsory double), None for any.
    lead_tiles: list[Tile] | None
    _: KW_ONLY
    #: Where the tiles go: Kozel's ``Line`` or the spinner's ``Cross``, whichever the game plays.
    #: The round asks it only what ``Layout`` answers, so it never assumes two ends.
    layout: Layout = field(default_factory=Line)
    #: Whose turn it is; the leader's when not given.
    turn: int = -1
    drew_this_turn: bool = False
    last_placer: int | None = None
    lead: Tile | None = None
    last: Tile | None = None
    #: Every tile of the last move, several doubles included: General's Goat asks whether the
    #: move that went out had 0-0 and 6-6 together (§3.10).
    last_move: tuple[Tile, ...] = ()
    #: Who placed the last non-double: Sea Goat's fisherman (§1.9.4).
    last_single_placer: int | None = None
    outcome: Outcome | None = None
    #: Whether the lead is down: what the layout's ``is_empty`` says, kept here because every
    #: question about a move starts from it, and a property costs a call each time.
    led: bool = field(init=False)

    def __post_init__(self) -> None:
        self.led = not self.layout.is_empty
        if self.turn < 0:
            self.turn = self.leader

    @property
    def ended(self) -> bool:
        return self.outcome is not None

    @property
    def players(self) -> int:
        return len(self.hands)

    # --- questions ---------------------------------------------------------------------------

    def drawable(self, rules: RuleSet) -> int:
        """How many bazaar tiles may still be drawn; the ``bazaar_reserve`` tiles never are."""
        if not self.bazaar or rules.draw_mode == "none":  # no bazaar: most tables of four
            return 0
        return max(0, len(self.bazaar) - rules.bazaar_reserve)

    def can_draw(self, rules: RuleSet) -> bool:
        if rules.draw_mode == "one_per_turn" and self.drew_this_turn:
            return False
        return self.drawable(rules) > 0

    def can_play(self, seat: int) -> bool:
        hand = self.hands[seat]
        if not self.led:
            return bool(hand)
        return self.layout.takes_any((hand,))

    def legal_actions(self, seat: int, rules: RuleSet) -> list[Action]:
        """Every legal placement for ``seat``, one per distinct resulting position, in hand order;
        else the draw or the knock."""
        if self.outcome is not None or seat != self.turn:
            return []
        hand, layout = self.hands[seat], self.layout
        if not self.led:
            return [PLAYS[t, None] for t in hand if self.lead_tiles is None or t in self.lead_tiles]
        moves = layout.plays(hand)
        if moves and rules.multi_double:
            moves += [
                Lay(tuple(Placement(tile, end) for tile, end in placements))
                for placements in layout.double_sets(hand, rules.multi_double)
            ]
        if moves:
            return moves
        return [DRAW] if self.can_draw(rules) else [KNOCK]

    def check_turn(self, seat: int) -> None:
        """Raise the ``IllegalAction`` that says why ``seat`` may not act now, if he may not."""
        if self.outcome is not None:
            raise errors.GameOver("the round is over")
        if seat != self.turn:
            raise errors.NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def check_play(self, seat: int, play: Play) -> End:
        """The end ``play`` goes on; raises the ``IllegalAction`` that says why it is not legal,
        if it is not."""
        tile, end, layout = play.tile, play.end, self.layout
        if end is not None:
            _check_end_name(layout, end)
        if tile not in self.hands[seat]:
            raise errors.TileNotInHand(f"{tile} is not in your hand")
        if not self.led:
            if self.lead_tiles is not None and tile not in self.lead_tiles:
                allowed = ", ".join(str(t) for t in self.lead_tiles)
                raise errors.WrongLead(f"this round must be led with {allowed}")
            return layout.end_for(tile, end)
        return _check_fit(layout, tile, end)

    def check_lay(self, seat: int, lay: Lay, most: int) -> Placements:
        """The placements of ``lay``, several doubles in one move, each on the end it goes to;
        raises the ``IllegalAction`` that says why it is not legal: more than ``most`` doubles,
        a tile that is not a double, or two on one end (§1.6). Each is checked as a play on the
        layout the ones before it leave."""
        if len(lay.placements) > most:
            raise errors.OneTilePerMove(f"at most {most} doubles go down in one move (§1.6)")
        if self.layout.is_empty:
            raise errors.OneTilePerMove("the lead is one tile")
        hand, layout = list(self.hands[seat]), self.layout.copy()
        placed: list[tuple[Tile, End]] = []
        for placement in lay.placements:
            tile = placement.tile
            if not tile.is_double:
                raise errors.OneTilePerMove(f"only doubles go down together, and {tile} is not one")
            if placement.end is not None:
                _check_end_name(layout, placement.end)
            if tile not in hand:
                raise errors.TileNotInHand(f"{tile} is not in your hand")
            end = _check_fit(layout, tile, placement.end)
            if any(end == used for _, used in placed):
                raise errors.TileDoesNotFit(f"one double a move on the {end} end")
            hand.remove(tile)
            layout.place(tile, end)
            placed.append((tile, end))
        return tuple(placed)

    def blocked(self, rules: RuleSet) -> bool:
        """The generic fish test: nobody can place a tile and nothing can be drawn (§1.9); or no
        open end is left (Donkey's closed doubles, §1.9 item 3), bazaar or not. Only the open
        ends count: a closed double its closer could reopen keeps nothing going (FLAG).

        Whether a tile fits is asked first: after nearly every move one does, and this runs after
        every move. A layout with no open end, empty or dead, takes none."""
        layout = self.layout
        if layout.takes_any(self.hands) or not self.led:
            return False
        return layout.is_dead() or self.drawable(rules) == 0

    def closure_suit(self, rules: RuleSet) -> int | None:
        """The suit v whose closure ended this round as a fish (§1.9 closure test: both ends v,
        its six non-doubles down) while v-v was still off the table, in a hand or the bazaar:
        whoever held it could see it fit both ends and was never let lay it. None after any
        other end, and before ``CLOSURE_RECORDED``."""
        if self.outcome != "fish" or not rules.fish_closure_rule:
            return None
        if rules.revision < CLOSURE_RECORDED:
            return None
        suit = self.layout.closed_on()
        if suit is None or Tile.of(suit, suit) in self.layout.tiles():
            return None
        return suit

    def reopenable(self, seat: int) -> list[Tile]:
        """The closed doubles ``seat`` may reopen now (``donkey_reopen``, §3.3): his own, at the
        start of his turn, before he draws."""
        if self.ended or seat != self.turn or self.drew_this_turn:
            return []
        return self.layout.closed_by(seat)

    def end_for(self, play: Play) -> End:
        """The end the legal ``play`` goes on."""
        return self.layout.end_for(play.tile, play.end)

    def ends_after(self, play: Play) -> list[int]:
        """The open ends once the legal ``play`` is made."""
        return list(self.layout.ends_after(play.tile, self.end_for(play)))

    # --- changes -----------------------------------------------------------------------------

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.hands)
        self.drew_this_turn = False

    def apply_played(self, played: Played, rules: RuleSet) -> None:
        """A placement; the round ends when the hand is empty (out) or nobody can go on (fish:
        the closure test when the rules use it, else the generic test). A double laid
        ``lengthwise`` along the line (§3.9) is the cross's business; a ``closed`` one is laid
        face down (Donkey, §3.3)."""
        seat, tile, end = played.seat, played.tile, played.end
        self.hands[seat].remove(tile)
        layout = self.layout
        if not self.led:
            self.lead, self.led = tile, True
        if played.lengthwise:
            assert isinstance(layout, Cross)
            layout.place(tile, end, lengthwise=True)
        else:
            layout.place(tile, end)
        if played.closed:
            layout.close(tile, seat)
        self._placed(seat, (tile,), rules)

    def apply_laid(
        self, seat: int, placements: Placements, rules: RuleSet, closed: Sequence[bool] = ()
    ) -> None:
        """Several doubles in one move, in order, those flagged in ``closed`` face down; then as
        ``apply_played``."""
        hand = self.hands[seat]
        for tile, _ in placements:
            hand.remove(tile)
        self.layout.place_all(placements, closed, seat)
        self._placed(seat, tuple(tile for tile, _ in placements), rules)

    def apply_reopened(self, tile: Tile) -> None:
        """A closed double turned face up; the same player moves on (§3.3)."""
        self.layout.reopen(tile)

    def _placed(self, seat: int, move: tuple[Tile, ...], rules: RuleSet) -> None:
        """After a move, the round ends or the turn passes on; with the house rule
        ``extra_turn_after_double`` (§1.6) a move that ends on a double is followed by another
        turn of the same player."""
        self.last = last = move[-1]
        self.last_move = move
        self.last_placer = seat
        double = last in DOUBLE_TILES
        if not double:
            self.last_single_placer = seat
        closed = rules.fish_closure_rule and self.layout.closed_on() is not None
        if not self.hands[seat]:
            self.outcome = "out"
        elif closed or self.blocked(rules):
            self.outcome = "fish"
        elif rules.extra_turn_after_double and double:
            self.drew_this_turn = False
        else:
            self._next_turn()

    def apply_drew(self, seat: int, tile: Tile) -> None:
        self.bazaar.remove(tile)
        self.hands[seat].append(tile)
        self.drew_this_turn = True

    def apply_knocked(self, rules: RuleSet) -> None:
        if self.blocked(rules):
            self.outcome = "fish"
        else:
            self._next_turn()

    # --- serialization -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "hands": [[str(t) for t in h] for h in self.hands],
            "bazaar": [str(t) for t in self.bazaar],
            "leader": self.leader,
            "lead_tiles": None if self.lead_tiles is None else [str(t) for t in self.lead_tiles],
            **self.layout.to_json(),
            "turn": self.turn,
            "drew_this_turn": self.drew_this_turn,
            "last_placer": self.last_placer,
            "lead": None if self.lead is None else str(self.lead),
            "last": None if self.last is None else str(self.last),
            "last_move": [str(t) for t in self.last_move],
            "outcome": self.outcome,
        }

    def sea_goat_json(self) -> dict[str, Any]:
        """``last_single_placer`` where it says more than ``last_placer``: Sea Goat's match JSON
        adds it to the round's (``to_json`` leaves it out, so other games' JSON is as it was)."""
        data: dict[str, Any] = {}
        if self.last_single_placer != self.last_placer:
            data["last_single_placer"] = self.last_single_placer
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], layout: Layout) -> Round:
        """The round ``data`` records; ``layout``, an empty one of the kind its game plays, tells
        how to read the tiles on the table."""

        def tile(text: str | None) -> Tile | None:
            return None if text is None else Tile.parse(text)

        lead_tiles = data["lead_tiles"]
        return cls(
            number=data["number"],
            hands=[[Tile.parse(t) for t in h] for h in data["hands"]],
            bazaar=[Tile.parse(t) for t in data["bazaar"]],
            leader=data["leader"],
            lead_tiles=None if lead_tiles is None else [Tile.parse(t) for t in lead_tiles],
            layout=layout.restored(data),
            turn=data["turn"],
            drew_this_turn=data["drew_this_turn"],
            last_placer=data["last_placer"],
            lead=tile(data["lead"]),
            last=tile(data["last"]),
            last_move=tuple(
                Tile.parse(t) for t in data.get("last_move", filter(None, [data["last"]]))
            ),
            last_single_placer=data.get("last_single_placer", data["last_placer"]),
            outcome=data["outcome"],
        )


def _check_end_name(layout: Layout, end: End) -> None:
    if end not in layout.end_names():
        names = " or ".join(layout.end_names())
        raise errors.NoSuchEnd(f"there is no {end!r} end: choose {names}")


def _check_fit(layout: Layout, tile: Tile, end: End | None) -> End:
    """The end ``tile`` goes on: ``end``, or with none named the one end it fits, of the
    ``layout`` that has its lead; raises the ``IllegalAction`` that says why it cannot."""
    # With no end named, the choices it has; else every end it may be attached to.
    fitting = layout.fits(tile) if end is None else layout.ends_showing(tile)
    if not fitting:
        values = ", ".join(str(v) for v in layout.open_ends().values())
        raise errors.TileDoesNotFit(f"{tile} fits none of the open ends ({values})")
    if end is None:
        if len(fitting) > 1:
            raise errors.EndRequired(f"{tile} fits several ends: choose {' or '.join(fitting)}")
        return fitting[0]
    if end not in fitting:
        raise errors.TileDoesNotFit(f"{tile} does not fit the {end} end")
    return end
