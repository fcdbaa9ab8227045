"""The line of play: a chain with two open ends, doubles laid crosswise (RULES.md §1.6, §1.7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from .tiles import Tile

End = Literal["left", "right"]
LEFT: Final[End] = "left"
RIGHT: Final[End] = "right"


@dataclass(slots=True)
class Line:
    """Tiles on the table, oriented left to right, so ``chain[0][0]`` and ``chain[-1][1]`` are the
    open ends. A double shows its value on its outward side, which is how a crosswise double plays.
    """

    chain: list[tuple[int, int]] = field(default_factory=list)

    @classmethod
    def from_chain(cls, chain: list[tuple[int, int]]) -> Line:
        return cls(chain)

    @property
    def is_empty(self) -> bool:
        return not self.chain

    @property
    def ends(self) -> tuple[int, int]:
        return self.chain[0][0], self.chain[-1][1]

    def ends_showing(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` may be attached to: those showing one of its values."""
        left, right = self.ends
        if left in tile:
            return (LEFT, RIGHT) if right in tile else (LEFT,)
        return (RIGHT,) if right in tile else ()

    def fits(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` can go on that make different lines: one end only when both ends show
        the same value, where either end gives the same line."""
        ends = self.ends_showing(tile)
        left, right = self.ends
        return ends[:1] if left == right else ends

    def ends_after(self, tile: Tile, end: End) -> tuple[int, int]:
        """The open ends once ``tile`` (already checked to fit) is attached to ``end``, or led."""
        if self.is_empty:
            return tile.a, tile.b
        left, right = self.ends
        if end == LEFT:
            return _far_half(tile, left), right
        return left, _far_half(tile, right)

    def place(self, tile: Tile, end: End) -> None:
        """Attach ``tile`` (already checked to fit), or lead it when the line is empty."""
        left, right = self.ends_after(tile, end)
        if self.is_empty:
            self.chain.append((left, right))
        elif end == LEFT:
            self.chain.insert(0, (left, self.chain[0][0]))
        else:
            self.chain.append((self.chain[-1][1], right))

    def closed_on(self) -> int | None:
        """The suit that closes the line (§1.9 closure test): both ends show v and all six
        non-doubles of suit v are on the table, wherever v-v is."""
        if self.is_empty or self.ends[0] != self.ends[1]:
            return None
        suit = self.ends[0]
        on_table = sum(1 for a, b in self.chain if a != b and suit in (a, b))
        return suit if on_table == 6 else None

    def tiles(self) -> list[Tile]:
        return [Tile.of(a, b) for a, b in self.chain]


def _far_half(tile: Tile, value: int) -> int:
    """The half of ``tile`` opposite the half that matches ``value``: what the end shows next."""
    return tile.b if tile.a == value else tile.a
