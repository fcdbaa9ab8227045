"""What a player can do on his turn: play a tile, draw from the bazaar, or knock (pass)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .line import End
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``tile``; ``end`` is needed only when it fits both ends and they differ."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"play {self.tile}" + (f" {self.end}" if self.end else "")


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
