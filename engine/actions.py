"""What a player can do on his turn: play a tile, draw from the bazaar, or knock (pass)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .tiles import ALL_TILES, Tile

if TYPE_CHECKING:  # the layout offers the plays (``Layout.plays``), so it imports this module
    from .layout import End


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``tile``; ``end`` is needed only when it fits both ends and they differ."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"play {self.tile}" + (f" {self.end}" if self.end else "")


#: One ``Play`` per tile and end, shared by every list of legal moves: a play is a value, and a
#: frozen dataclass is slow to build, so the rounds look them up instead (``PLAYS[tile, end]``).
PLAYS: Final[dict[tuple[Tile, End | None], Play]] = {
    (tile, end): Play(tile, end)
    for tile in ALL_TILES
    for end in (None, "left", "right", "up", "down")
}


def plays_of(tile: Tile, ends: tuple[End, ...]) -> tuple[Play, ...]:
    """The moves that put ``tile`` on one of ``ends``, its choices (``Layout.fits``): with one,
    the move names no end, as a player who taps the tile names none."""
    if len(ends) == 1:
        return (PLAYS[tile, None],)
    return tuple(PLAYS[tile, end] for end in ends)


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile of a ``Lay``: on ``end``, and ``closed`` when laid face down so that nothing more
    goes there (Donkey, RULES.md §3.3), or ``lengthwise`` for a double that English fives lays
    along the line (§3.9), where it counts once in the open-end sum."""

    tile: Tile
    end: End | None = None
    closed: bool = False
    lengthwise: bool = False


@dataclass(frozen=True, slots=True)
class Lay:
    """A move that puts down several tiles at once, closes one or lays a double lengthwise: the
    multi-double move of §1.6, Donkey's closed doubles (§3.3) and English fives' lengthwise
    doubles (§3.9). Kozel has none, so it takes a ``Lay`` only when it is one open tile, the
    ``Play`` it spells. A separate action, so that the one-tile ``Play`` of every
    turn stays two fields (frozen dataclasses pay for each field they set)."""

    placements: tuple[Placement, ...]

    def __str__(self) -> str:
        return "lay " + " and ".join(
            f"{p.tile}"
            + (f" {p.end}" if p.end else "")
            + (" closed" if p.closed else "")
            + (" lengthwise" if p.lengthwise else "")
            for p in self.placements
        )


@dataclass(frozen=True, slots=True)
class Reopen:
    """Turn face up a double this player closed (Donkey with ``donkey_reopen``, RULES.md §3.3): a
    free action at the start of his turn, before he draws or moves, after which he moves as
    usual."""

    tile: Tile

    def __str__(self) -> str:
        return f"reopen {self.tile}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Knock:
    def __str__(self) -> str:
        return "knock"


Action = Play | Lay | Reopen | Draw | Knock
DRAW: Final = Draw()
KNOCK: Final = Knock()
