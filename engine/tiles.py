"""Tiles of the double-six set and their ranking (RULES.md §1.1, §1.2)."""

from __future__ import annotations

from typing import Final, NamedTuple


class Tile(NamedTuple):
    """A domino tile ``a-b`` with ``a <= b``; a tuple so it is cheap, hashable and ordered."""

    a: int
    b: int

    @classmethod
    def of(cls, x: int, y: int) -> Tile:
        """The tile with halves ``x`` and ``y`` in any order (the seeds write 5-2 and 2-5 alike):
        one of the 28, looked up, since a layout's tiles are asked for by their halves."""
        tile = BY_HALVES.get((x, y))
        if tile is None:
            raise ValueError(f"tile halves must be 0..6, got {x}-{y}")
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``"a-b"`` (either order)."""
        named = _BY_NAME.get(text)  # as the engine writes it (``str``): one of the 28 tiles
        if named is not None:
            return named
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

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


def far_half(tile: Tile, value: int) -> int:
    """The half of ``tile`` opposite a half showing ``value``: what an end shows once ``tile`` is
    attached there."""
    return tile.b if tile.a == value else tile.a


ALL_TILES: Final[tuple[Tile, ...]] = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
DOUBLES: Final[tuple[Tile, ...]] = tuple(Tile(v, v) for v in range(7))
#: The doubles, for asking whether a tile is one after every move: a set lookup, where a call
#: of the ``is_double`` property costs several times as much.
DOUBLE_TILES: Final[frozenset[Tile]] = frozenset(DOUBLES)
_BY_NAME: Final[dict[str, Tile]] = {str(tile): tile for tile in ALL_TILES}
#: Each of the 28 tiles by its halves in either order, as a line holds them (``Tile.of``).
BY_HALVES: Final[dict[tuple[int, int], Tile]] = {
    halves: tile for tile in ALL_TILES for halves in ((tile.a, tile.b), (tile.b, tile.a))
}


def rank(tile: Tile) -> tuple[int, int, int]:
    """Sort key, higher is stronger: doubles above non-doubles, then pips, then the larger half.

    RULES.md §1.2 (from 001_79019b977377449f.txt): 0-0 outranks 5-6, and 3-6 outranks 4-5.
    """
    return (1 if tile.is_double else 0, tile.pips, tile.b)


NON_DOUBLES_DESCENDING: Final[tuple[Tile, ...]] = tuple(
    sorted((t for t in ALL_TILES if not t.is_double), key=rank, reverse=True)
)
