"""The line of play: a chain with two open ends, doubles laid crosswise (RULES.md §1.6, §1.7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .tiles import Tile

End = Literal["left", "right"]
LEFT: Final[End] = "left"
RIGHT: Final[End] = "right"


@dataclass(slots=True, init=False)  # mypyc compiles this ``__init__``, not a generated one
class Line:
    """Tiles on the table, oriented left to right, so ``chain[0][0]`` and ``chain[-1][1]`` are the
    open ends. A double shows its value on its outward side, which is how a crosswise double plays.
    """

    chain: list[tuple[int, int]]
    #: Non-double tiles of each suit on the table, for the closure test of §1.9.
    suit_on_table: list[int]

    def __init__(
        self, chain: list[tuple[int, int]] | None = None, suit_on_table: list[int] | None = None
    ) -> None:
        self.chain = [] if chain is None else chain
        self.suit_on_table = [0] * 7 if suit_on_table is None else suit_on_table

    @property
    def is_empty(self) -> bool:
        return not self.chain

    @property
    def ends(self) -> tuple[int, int]:
        return self.chain[0][0], self.chain[-1][1]

    def fits(self, tile: Tile) -> tuple[End, ...]:
        """Ends ``tile`` can go on; one end only when both ends show the same value."""
        left, right = self.chain[0][0], self.chain[-1][1]
        on_left = tile.a == left or tile.b == left
        if left == right:
            return ("left",) if on_left else ()
        on_right = tile.a == right or tile.b == right
        if on_left:
            return ("left", "right") if on_right else ("left",)
        return ("right",) if on_right else ()

    def can_take(self, tile: Tile) -> bool:
        left, right = self.chain[0][0], self.chain[-1][1]
        return tile.a in (left, right) or tile.b in (left, right)

    def place(self, tile: Tile, end: End) -> None:
        """Attach ``tile`` (already checked to fit), or lead it when the line is empty."""
        a, b = tile
        if a != b:
            suits = self.suit_on_table
            suits[a] += 1
            suits[b] += 1
        chain = self.chain
        if not chain:
            chain.append((a, b))
        elif end == "left":
            value = chain[0][0]
            chain.insert(0, (b if a == value else a, value))
        else:
            value = chain[-1][1]
            chain.append((value, b if a == value else a))

    def closed_on(self) -> int | None:
        """The suit that closes the line (§1.9 closure test): both ends show v and all six
        non-doubles of suit v are on the table, wherever v-v is."""
        chain = self.chain
        if not chain:
            return None
        left = chain[0][0]
        if left == chain[-1][1] and self.suit_on_table[left] == 6:
            return left
        return None

    @classmethod
    def from_chain(cls, chain: list[tuple[int, int]]) -> Line:
        line = cls(chain=chain)
        for a, b in chain:
            if a != b:
                line.suit_on_table[a] += 1
                line.suit_on_table[b] += 1
        return line

    def tiles(self) -> list[Tile]:
        return [Tile.of(a, b) for a, b in self.chain]
