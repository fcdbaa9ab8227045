"""One round (deal) of play: hands, the bazaar, the line, whose turn, and how it ends (§1.5-§1.9).

The round only changes through ``apply_*`` methods, which the match calls both when acting and when
replaying events, so a replayed round is the same round. They also keep the index of the open ends
and the per-value counts of the tiles in hands that the fish test reads: to set up a position by
hand, build a new ``Round``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from .actions import DRAW, KNOCK, Action, Play
from .line import LEFT, RIGHT, End, Line
from .rules import RuleSet
from .tiles import ALL_TILES, CODES, VALUE_COUNTS, Tile, tile_code, value_counts, value_field

Hand = list[Tile]
Outcome = Literal["out", "fish"]
_T = TypeVar("_T")

# Everything a move asks about a tile depends only on the two open ends, so it is worked out once
# here for each pair of ends, at index ``7 * left + right`` (see ``ends_index``), and each tile, at
# its ``tile_code``, instead of on every move. Play objects are immutable, so the same ones are
# handed out each time.
_PLAY: Final = {(t, end): Play(t, end) for t in ALL_TILES for end in (None, LEFT, RIGHT)}
_LEAD_PLAYS: Final = {t: _PLAY[t, None] for t in ALL_TILES}


def ends_index(left: int, right: int) -> int:
    return 7 * left + right


def _fitting_ends(tile: Tile, left: int, right: int) -> tuple[End, ...]:
    """The ends ``tile`` matches, both when both ends show its value (``Match.act``'s check)."""
    return tuple(end for end, value in ((LEFT, left), (RIGHT, right)) if value in tile)


def _listed_plays(tile: Tile, left: int, right: int) -> tuple[Play, ...]:
    """What ``plays`` lists for ``tile``: one play per distinct resulting position."""
    ends = _fitting_ends(tile, left, right)
    if len(ends) == 2 and left != right:
        return (_PLAY[tile, LEFT], _PLAY[tile, RIGHT])
    return (_PLAY[tile, None],) if ends else ()


def _per_code(
    make: Callable[[Tile, int, int], tuple[_T, ...]],
) -> list[list[tuple[_T, ...]]]:
    """``make(tile, left, right)`` for every pair of ends and tile, as [ends index][tile code]."""
    tables = []
    for left, right in ENDS:
        table: list[tuple[_T, ...]] = [()] * CODES
        for t in ALL_TILES:
            table[tile_code(t)] = make(t, left, right)
        tables.append(table)
    return tables


#: Per pair of ends: (left, right), to read the ends back from ``Round.ends_at``.
ENDS: Final[list[tuple[int, int]]] = [(left, right) for left in range(7) for right in range(7)]
#: Per pair of ends, per tile code: the ends the tile matches, none if it cannot be attached.
FITTING_ENDS: Final[list[list[tuple[End, ...]]]] = _per_code(_fitting_ends)
#: Per pair of ends, per tile code: the tile's legal plays.
_PLAYS_AT: Final[list[list[tuple[Play, ...]]]] = _per_code(_listed_plays)
#: Per pair of ends: the fields of ``Round._held`` that count tiles showing either end's value.
_HELD_FIELDS: Final[list[int]] = [value_field(left) | value_field(right) for left, right in ENDS]


def index_in(tiles: list[Tile], tile: Tile) -> int:
    """Where ``tile`` is in ``tiles``, -1 if it is not: compiled, comparing the halves as ints is
    several times quicker than ``list.index``'s tuple comparisons."""
    a, b = tile
    for i, (x, y) in enumerate(tiles):
        if x == a and y == b:
            return i
    return -1


# ``__init__`` is spelled out because mypyc compiles it; the one ``dataclass`` writes runs
# interpreted (see ``events.py``). The dataclass still gives ``fields``, ``==`` and ``repr``.
@dataclass(slots=True, init=False)
class Round:
    number: int
    hands: list[Hand]
    bazaar: list[Tile]
    leader: int
    #: Tiles the leader must choose from (first-lead chain, compulsory double), None for any.
    lead_tiles: list[Tile] | None
    line: Line
    turn: int
    drew_this_turn: bool
    last_placer: int | None
    lead: Tile | None
    last: Tile | None
    outcome: Outcome | None
    #: ``ends_index`` of the line's open ends, -1 while the line is empty: the index into the
    #: tables above, kept by ``apply_played`` so a move never reads the ends off the chain.
    ends_at: int = field(repr=False, compare=False)
    #: ``VALUE_COUNTS`` summed over all hands, so how many tiles in hands show each value; kept up
    #: to date by the ``apply_*`` methods so the fish test after each move needs no scan of hands.
    _held: int = field(repr=False, compare=False)

    def __init__(
        self,
        number: int,
        hands: list[Hand],
        bazaar: list[Tile],
        leader: int,
        lead_tiles: list[Tile] | None,
        *,
        line: Line | None = None,
        turn: int = -1,
        drew_this_turn: bool = False,
        last_placer: int | None = None,
        lead: Tile | None = None,
        last: Tile | None = None,
        outcome: Outcome | None = None,
    ) -> None:
        self.number = number
        self.hands = hands
        self.bazaar = bazaar
        self.leader = leader
        self.lead_tiles = lead_tiles
        self.line = line = Line() if line is None else line
        self.turn = leader if turn < 0 else turn
        self.drew_this_turn = drew_this_turn
        self.last_placer = last_placer
        self.lead = lead
        self.last = last
        self.outcome = outcome
        pairs = line.chain
        self.ends_at = ends_index(pairs[0][0], pairs[-1][1]) if pairs else -1
        self._held = sum(map(value_counts, hands))

    @property
    def ended(self) -> bool:
        # A property, not ``outcome is not None`` at the call site: there mypy would narrow
        # ``outcome`` to None for the rest of ``Match.act``, and mypyc trusts that narrowing.
        return self.outcome is not None

    @property
    def players(self) -> int:
        return len(self.hands)

    # --- questions ---------------------------------------------------------------------------

    def drawable(self, rules: RuleSet) -> int:
        """How many bazaar tiles may still be drawn; the ``bazaar_reserve`` tiles never are."""
        if rules.draw_mode == "none":
            return 0
        return max(0, len(self.bazaar) - rules.bazaar_reserve)

    def can_draw(self, rules: RuleSet) -> bool:
        if rules.draw_mode == "one_per_turn" and self.drew_this_turn:
            return False
        return self.drawable(rules) > 0

    def can_play(self, seat: int) -> bool:
        at = self.ends_at
        if at < 0:
            return bool(self.hands[seat])
        fitting = FITTING_ENDS[at]
        return any(fitting[tile_code(t)] for t in self.hands[seat])

    def legal_actions(self, seat: int, rules: RuleSet) -> list[Action]:
        """Every legal placement for ``seat``, one per distinct resulting position, in hand order;
        else the draw or the knock."""
        if self.outcome is not None or seat != self.turn:
            return []
        hand = self.hands[seat]
        at = self.ends_at
        if at < 0:
            lead_tiles = self.lead_tiles
            return [_LEAD_PLAYS[t] for t in hand if lead_tiles is None or t in lead_tiles]
        plays_at = _PLAYS_AT[at]
        moves: list[Action] = []
        for tile in hand:
            found = plays_at[tile_code(tile)]
            if found:
                moves += found
        if moves:
            return moves
        return [DRAW] if self.can_draw(rules) else [KNOCK]

    def blocked(self, rules: RuleSet) -> bool:
        """The generic fish test: nobody can place a tile and nothing can be drawn (§1.9)."""
        at = self.ends_at  # on an empty line, any tile in a hand can be led
        return at >= 0 and self.drawable(rules) == 0 and not self._held & _HELD_FIELDS[at]

    def ends_after(self, play: Play) -> list[int]:
        """The open ends once the legal ``play`` is made; a play that names no end goes on the end
        its tile fits, as ``Match.act`` places it."""
        a, b = tile = play.tile
        at = self.ends_at
        if at < 0:
            return [a, b]
        left, right = ENDS[at]
        if (play.end or FITTING_ENDS[at][tile_code(tile)][0]) == LEFT:
            return [b if a == left else a, right]
        return [left, b if a == right else a]

    # --- changes -----------------------------------------------------------------------------

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.hands)
        self.drew_this_turn = False

    def apply_played(
        self, seat: int, tile: Tile, end: End, rules: RuleSet, index: int = -1
    ) -> None:
        """``index``: where ``tile`` is in the hand, when the caller has found it already."""
        hand = self.hands[seat]
        del hand[index_in(hand, tile) if index < 0 else index]
        self._held -= VALUE_COUNTS[tile_code(tile)]
        line = self.line
        if self.ends_at < 0:
            self.lead = tile
        line.place(tile, end)
        self.last = tile
        self.last_placer = seat
        left, right = line.chain[0][0], line.chain[-1][1]
        self.ends_at = at = 7 * left + right  # ends_index(left, right)
        if not hand:
            self.outcome = "out"
        # line.closed_on() and self.blocked(), inlined: this runs after every placement.
        elif (left == right and line.suit_on_table[left] == 6 and rules.fish_closure_rule) or (
            not self._held & _HELD_FIELDS[at] and self.drawable(rules) == 0
        ):
            self.outcome = "fish"
        else:  # self._next_turn(), inlined
            self.turn = (self.turn + 1) % len(self.hands)
            self.drew_this_turn = False

    def apply_drew(self, seat: int, tile: Tile) -> None:
        self.bazaar.remove(tile)
        self.hands[seat].append(tile)
        self._held += VALUE_COUNTS[tile_code(tile)]
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
            "chain": [list(pair) for pair in self.line.chain],
            "turn": self.turn,
            "drew_this_turn": self.drew_this_turn,
            "last_placer": self.last_placer,
            "lead": None if self.lead is None else str(self.lead),
            "last": None if self.last is None else str(self.last),
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        def tile(text: str | None) -> Tile | None:
            return None if text is None else Tile.parse(text)

        line = Line.from_chain([(a, b) for a, b in data["chain"]])
        lead_tiles = data["lead_tiles"]
        return cls(
            number=data["number"],
            hands=[[Tile.parse(t) for t in h] for h in data["hands"]],
            bazaar=[Tile.parse(t) for t in data["bazaar"]],
            leader=data["leader"],
            lead_tiles=None if lead_tiles is None else [Tile.parse(t) for t in lead_tiles],
            line=line,
            turn=data["turn"],
            drew_this_turn=data["drew_this_turn"],
            last_placer=data["last_placer"],
            lead=tile(data["lead"]),
            last=tile(data["last"]),
            outcome=data["outcome"],
        )
