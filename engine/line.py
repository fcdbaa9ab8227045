"""The line of play: a chain with two open ends, doubles laid crosswise (RULES.md §1.6, §1.7).

The layout of Kozel and the other line games (``layout.py`` says what a layout answers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .actions import Action, Play, plays_of
from .layout import End, Layout
from .tiles import ALL_TILES, BY_HALVES, Tile, far_half

__all__ = ["LEFT", "RIGHT", "End", "Line"]

LEFT: Final[End] = "left"
RIGHT: Final[End] = "right"
_NAMES: Final[tuple[End, ...]] = (LEFT, RIGHT)
_BOTH: Final[tuple[End, ...]] = _NAMES
_LEFT_ONLY: Final[tuple[End, ...]] = (LEFT,)
_RIGHT_ONLY: Final[tuple[End, ...]] = (RIGHT,)


@dataclass(slots=True)
class Line(Layout):
    """Tiles on the table, oriented left to right, so ``chain[0][0]`` and ``chain[-1][1]`` are the
    open ends. A double shows its value on its outward side, which is how a crosswise double plays.
    """

    chain: list[tuple[int, int]] = field(default_factory=list)
    #: What the open ends show, left then right (none while the line is empty): kept up to date
    #: by ``place``, since nearly every question about a move starts from them.
    ends: tuple[int, ...] = field(init=False)
    #: Each tile that fits those ends, with its choices (``fits``) and the moves they make
    #: (``plays``): looked up, not worked out, since every turn asks them of a whole hand.
    _choices: dict[Tile, tuple[End, ...]] = field(init=False, repr=False, compare=False)
    _plays: dict[Tile, tuple[Play, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.chain:
            self.ends, self._choices, self._plays = (), {}, {}
            return
        left, right = self.chain[0][0], self.chain[-1][1]
        self.ends = (left, right)
        self._choices, self._plays = _CHOICES[left][right]

    @classmethod
    def from_chain(cls, chain: list[tuple[int, int]]) -> Line:
        return cls(chain)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Line:
        return cls([(a, b) for a, b in data["chain"]])

    @property
    def is_empty(self) -> bool:
        return not self.chain

    def end_names(self) -> tuple[End, ...]:
        return _NAMES

    def open_ends(self) -> dict[End, int]:
        return dict(zip(_NAMES, self.ends, strict=False))  # no ends before the lead

    def ends_showing(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` may be attached to: those showing one of its values."""
        left, right = self.ends
        if left in tile:
            return (LEFT, RIGHT) if right in tile else (LEFT,)
        return (RIGHT,) if right in tile else ()

    def fits(self, tile: Tile) -> tuple[End, ...]:
        return self._choices.get(tile, ())

    def plays(self, hand: Sequence[Tile]) -> list[Action]:
        plays = self._plays
        moves: list[Action] = []
        for tile in hand:  # a loop, not a comprehension: a comprehension is a call of its own
            if tile in plays:
                moves += plays[tile]
        return moves

    def takes_any(self, hands: Iterable[Iterable[Tile]]) -> bool:
        choices = self._choices
        for hand in hands:  # plain loops: the fish test runs after every move
            for tile in hand:
                if tile in choices:
                    return True
        return False

    def end_for(self, tile: Tile, end: End | None) -> End:
        """The end it names; else the lead goes on the left, and a tile on the first end it fits."""
        if end is not None or not self.chain:
            return end or LEFT
        return self.ends_showing(tile)[0]

    def ends_after(self, tile: Tile, end: End) -> tuple[int, int]:
        """The open ends once ``tile`` (already checked to fit) is attached to ``end``, or led."""
        if not self.chain:
            return tile.a, tile.b
        left, right = self.ends
        if end == LEFT:
            return far_half(tile, left), right
        return left, far_half(tile, right)

    def place(self, tile: Tile, end: End) -> None:
        """Attach ``tile`` (already checked to fit), or lead it when the line is empty."""
        ends = self.ends_after(tile, end)
        if not self.chain:
            self.chain.append(ends)
        elif end == LEFT:
            self.chain.insert(0, (ends[0], self.ends[0]))
        else:
            self.chain.append((self.ends[1], ends[1]))
        self.ends = ends
        self._choices, self._plays = _CHOICES[ends[0]][ends[1]]

    def end_sum(self) -> int:
        """§1.8 on a line: each end counts the value it shows, twice when a double forms it; a
        lone lead counts its pips (a lead 6-4 makes 10, a lead 5-5 makes 10, §3.5)."""
        if self.is_empty:
            return 0
        if len(self.chain) == 1:
            return sum(self.chain[0])
        (left, inner_left), (inner_right, right) = self.chain[0], self.chain[-1]
        return _counts(left, inner_left) + _counts(right, inner_right)

    def end_sum_after(self, tile: Tile, end: End) -> int:
        after = self.copy()
        after.place(tile, end)
        return after.end_sum()

    def copy(self) -> Line:
        return Line(list(self.chain))

    def closed_on(self) -> int | None:
        """The suit that closes the line (§1.9 closure test): both ends show v and all six
        non-doubles of suit v are on the table, wherever v-v is."""
        if not self.chain or self.ends[0] != self.ends[1]:
            return None
        suit = self.ends[0]
        on_table = sum(1 for a, b in self.chain if a != b and suit in (a, b))
        return suit if on_table == 6 else None

    def tiles(self) -> list[Tile]:
        return [BY_HALVES[pair] for pair in self.chain]

    def to_json(self) -> dict[str, Any]:
        return {"chain": [list(pair) for pair in self.chain]}

    def restored(self, data: dict[str, Any]) -> Line:
        return Line.from_json(data)


def _choices_at(
    left: int, right: int
) -> tuple[dict[Tile, tuple[End, ...]], dict[Tile, tuple[Play, ...]]]:
    """The ends each tile can go on, on a line whose ends show ``left`` and ``right``, that make
    different lines: one end only when both ends show the same value, where either end gives the
    same line. Tiles that fit neither end are left out. Then the moves those choices make."""
    choices: dict[Tile, tuple[End, ...]] = {}
    for tile in ALL_TILES:
        if left in tile:
            choices[tile] = _BOTH if right in tile and right != left else _LEFT_ONLY
        elif right in tile:
            choices[tile] = _RIGHT_ONLY
    return choices, {tile: plays_of(tile, ends) for tile, ends in choices.items()}


def _counts(outward: int, inward: int) -> int:
    """What an end counts in the open-end sum: a crosswise double at the end counts both halves."""
    return 2 * outward if outward == inward else outward


#: ``_choices_at`` for every pair of ends, by left then right: worked out once, looked up on
#: every move.
_CHOICES: Final = [[_choices_at(left, right) for right in range(7)] for left in range(7)]
