"""The tiles on the table as the board and the hands show them: the line, and in the scoring
games the open ends with their sum S (RULES.md §1.8), which is what a player adds up."""

from __future__ import annotations

from typing import Final

from engine.layout import End
from engine.line import Line

from ..i18n import Html, t
from .tiles import tile_text, tiles_text

#: How each end is pointed at, on the board and on the buttons that choose one.
ARROWS: Final[dict[End, str]] = {"left": "⬅️", "right": "➡️", "up": "⬆️", "down": "⬇️"}


def layout_lines(layout: Line) -> list[Html]:
    """The tiles on the table, left to right."""
    return [Html(tiles_text(layout.chain))]


def outer_tile(layout: Line, end: End) -> tuple[int, int] | None:
    """The tile that forms ``end``, outer half first."""
    if layout.is_empty:
        return None
    if end == "left":
        return layout.chain[0]
    inner, outer = layout.chain[-1]
    return outer, inner


def ends_text(lang: str, layout: Line, *, scoring: bool) -> Html | None:
    """Kozel's "Ends: 3 … 5"; in a scoring game each open end with what it counts (a double at
    an end counts both halves, so it shows as one) and their sum, S. None before the lead."""
    if layout.is_empty:
        return None
    ends = layout.open_ends()
    if not scoring:
        return t(lang, "board.ends", left=ends["left"], right=ends["right"])
    shown = []
    for end, value in ends.items():
        tile = outer_tile(layout, end)
        double = tile is not None and tile[0] == tile[1] and len(layout.chain) > 1
        shown.append(f"{ARROWS[end]} {tile_text(tile)[1:-1] if double and tile else value}")
    return t(lang, "board.open_ends", ends=Html(" · ".join(shown)), sum=layout.end_sum())
