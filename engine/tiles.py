"""Tiles of the double-six set and their ranking (RULES.md §1.1, §1.2)."""

from __future__ import annotations

from typing import Final, NamedTuple


class Tile(NamedTuple):
    """A domino tile ``a-b`` with ``a <= b``; a tuple so it is cheap, hashable and ordered."""

    a: int
    b: int

    @classmethod
    def of(cls, x: int, y: int) -> Tile:
        """Build a tile from two halves given in any order (the seeds write 5-2 and 2-5 alike)."""
        if not (0 <= x <= 6 and 0 <= y <= 6):
            raise ValueError(f"tile halves must be 0..6, got {x}-{y}")
        return TILES_BY_HALVES[x][y]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``"a-b"`` (either order)."""
        left, sep, right = text.strip().partition("-")
        if not sep or not left.isdigit() or not right.isdigit():
            raise ValueError(f"not a tile: {text!r}")
        return cls.of(int(left), int(right))

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def pips(self) -> int:
        return self.a + self.b

    def has(self, value: int) -> bool:
        return self.a == value or self.b == value

    def other(self, value: int) -> int:
        """The half opposite ``value``: what an end shows after this tile is attached to it."""
        return self.b if self.a == value else self.a

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


TILES_BY_HALVES: Final[list[list[Tile]]] = [
    [tuple.__new__(Tile, (min(x, y), max(x, y))) for y in range(7)] for x in range(7)
]
ALL_TILES: Final[tuple[Tile, ...]] = tuple(Tile.of(a, b) for a in range(7) for b in range(a, 7))
DOUBLES: Final[tuple[Tile, ...]] = tuple(Tile.of(v, v) for v in range(7))


def rank(tile: Tile) -> tuple[int, int, int]:
    """Sort key, higher is stronger: doubles above non-doubles, then pips, then the larger half.

    RULES.md §1.2 (from 001_79019b977377449f.txt): 0-0 outranks 5-6, and 3-6 outranks 4-5.
    """
    return (1 if tile.is_double else 0, tile.pips, tile.b)


NON_DOUBLES_DESCENDING: Final[tuple[Tile, ...]] = tuple(
    sorted((t for t in ALL_TILES if not t.is_double), key=rank, reverse=True)
)

# Counting values by summing ints: each tile is a 1 in the 8-bit field of each value it shows (bits
# 8v..8v+7; a double once) and, for a double, in the field at DOUBLES_SHIFT. One C-level ``sum``
# then counts the values and doubles of a hand or of all hands, which the redeal and fish tests
# read, instead of a Python loop over the tiles.
VALUE_FIELD_BITS: Final = 8
DOUBLES_SHIFT: Final = 7 * VALUE_FIELD_BITS
VALUE_COUNTS: Final[dict[Tile, int]] = {
    t: (1 << VALUE_FIELD_BITS * t.a | 1 << VALUE_FIELD_BITS * t.b)
    + (1 << DOUBLES_SHIFT if t.is_double else 0)
    for t in ALL_TILES
}


def value_field(value: int) -> int:
    """The bits of ``value``'s field in a sum of ``VALUE_COUNTS``."""
    return 0xFF << VALUE_FIELD_BITS * value
