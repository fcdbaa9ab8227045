"""How tiles look in messages and on buttons."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Tile


def tile_text(tile: Tile | tuple[int, int]) -> str:
    """``[3|4]``: plain characters that look alike in every Telegram client."""
    return f"[{tile[0]}|{tile[1]}]"


def tiles_text(tiles: Iterable[Tile | tuple[int, int]]) -> str:
    return "".join(tile_text(t) for t in tiles) or "—"


def button_text(tile: Tile, playable: bool) -> str:
    return f"✅ {tile.a}|{tile.b}" if playable else f"{tile.a}|{tile.b}"
