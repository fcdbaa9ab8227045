"""What a player can do on his turn: play a tile, draw from the bazaar, or knock (pass)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .layout import End
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile put down: on ``end`` (needed only when it fits ends that give different layouts),
    and ``closed`` when laid face down so that nothing more goes there (Donkey, RULES.md §3.3)."""

    tile: Tile
    end: End | None = None
    closed: bool = False

    def __str__(self) -> str:
        where = f" {self.end}" if self.end else ""
        return f"{self.tile}{where}" + (" closed" if self.closed else "")


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``tile``; ``end`` is needed only when it fits both ends and they differ.

    A move may also close its tile and carry ``also``, further doubles placed in the same move
    (the multi-double move of §1.6). Kozel allows neither: the game says how many placements a move
    may have and whether a tile may be closed (``games``).
    """

    tile: Tile
    end: End | None = None
    closed: bool = field(default=False, kw_only=True)
    also: tuple[Placement, ...] = field(default=(), kw_only=True)

    @property
    def placements(self) -> tuple[Placement, ...]:
        return (Placement(self.tile, self.end, self.closed), *self.also)

    def __str__(self) -> str:
        return "play " + " and ".join(str(placement) for placement in self.placements)


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Knock:
    def __str__(self) -> str:
        return "knock"


Action = Play | Draw | Knock
DRAW: Final = Draw()
KNOCK: Final = Knock()
