"""Tiles of the double-six set and their ranking (RULES.md §1.1, §1.2)."""

from __future__ import annotations

from collections.abc import Iterable
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


def tile_code(tile: Tile) -> int:
    """``7a + b``, a small int naming the tile: per-tile tables are lists indexed by it, which the
    hot path reads without hashing a tuple."""
    a, b = tile
    return 7 * a + b


CODES: Final = 49  # the length of a table indexed by ``tile_code``
#: Per tile code: the tile (a code 7a+b with a > b, which ``tile_code`` never gives, names b-a).
BY_CODE: Final[list[Tile]] = [TILES_BY_HALVES[code // 7][code % 7] for code in range(CODES)]

# Counting values by summing ints: each tile is a 1 in the 4-bit field of each value it shows (bits
# 4v..4v+3; a double once) and, for a double, in the field at DOUBLES_SHIFT. Adding these counts
# up gives how many tiles of a hand, or of all hands, show each value, and how many are doubles,
# which the redeal and fish tests read, in one int: no field passes 7, and the sum stays a small
# int that compiled code adds without allocating.
VALUE_FIELD_BITS: Final = 4
DOUBLES_SHIFT: Final = 7 * VALUE_FIELD_BITS
#: Per tile code: the tile's counts.
VALUE_COUNTS: Final[list[int]] = [0] * CODES
for _t in ALL_TILES:
    VALUE_COUNTS[tile_code(_t)] = (1 << VALUE_FIELD_BITS * _t.a | 1 << VALUE_FIELD_BITS * _t.b) + (
        1 << DOUBLES_SHIFT if _t.is_double else 0
    )


def value_counts(tiles: Iterable[Tile]) -> int:
    counts = 0
    for tile in tiles:
        counts += VALUE_COUNTS[tile_code(tile)]
    return counts


def value_field(value: int) -> int:
    """The bits of ``value``'s field in a sum of ``VALUE_COUNTS``."""
    return 0xF << VALUE_FIELD_BITS * value
