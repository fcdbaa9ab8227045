"""How tiles look in messages and on buttons."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Tile
from engine.events import Played, PlayedDoubles


def tile_text(tile: Tile | tuple[int, int]) -> str:
    """``[3|4]``: plain characters that look alike in every Telegram client."""
    return f"[{tile[0]}|{tile[1]}]"


def tiles_text(tiles: Iterable[Tile | tuple[int, int]]) -> str:
    return "".join(tile_text(t) for t in tiles) or "—"


def moved(move: Played | PlayedDoubles) -> list[Tile]:
    """The tiles a move put down: one, or several doubles at once (``multi_double``)."""
    return [move.tile] if isinstance(move, Played) else move.tiles


def button_text(tile: Tile, playable: bool) -> str:
    return f"✅ {tile.a}|{tile.b}" if playable else f"{tile.a}|{tile.b}"
