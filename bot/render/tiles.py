"""How tiles look in messages and on buttons."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Placement, Tile
from engine.events import Played, PlayedDoubles

from ..i18n import Html, plural, spoken_list, t
from ..sender import TOAST, read_len


def tile_text(tile: Tile | tuple[int, int]) -> str:
    """``[3|4]``: plain characters that look alike in every Telegram client."""
    return f"[{tile[0]}|{tile[1]}]"


def tiles_text(tiles: Iterable[Tile | tuple[int, int]]) -> str:
    return "".join(tile_text(t) for t in tiles) or "—"


def laid(move: Played | PlayedDoubles) -> tuple[Placement, ...]:
    """The tiles a move put down, one or several doubles at once (``multi_double``), those laid
    face down flagged closed (Donkey, RULES.md §3.3); for saying the move, so without its ends."""
    if isinstance(move, Played):
        return (Placement(move.tile, closed=bool(move.closed)),)
    closed = move.closed or [False] * len(move.tiles)
    return tuple(
        Placement(tile, closed=shut) for tile, shut in zip(move.tiles, closed, strict=True)
    )


def laid_words(lang: str, placements: Sequence[Placement]) -> Html:
    """A move in words, as its pop-up, the player's record and the board say it: "[3|3] on the
    left and a closed [5|5] on the right". The buttons' shorthand ("[5|5]🔒➡️") read as a code,
    and a closed double was not told from an open one (Donkey, RULES.md §3.3). The open ones
    are said first: "a closed [0|0] and [2|2]" read as if both went down closed."""
    said: list[str] = []
    for placement in sorted(placements, key=lambda placement: placement.closed):
        tile = Html(tile_text(placement.tile))
        shown = t(lang, "hand.laid.closed", tile=tile) if placement.closed else tile
        said.append(t(lang, f"hand.laid.{placement.end}", laid=shown) if placement.end else shown)
    return Html(spoken_list(lang, said))


def played_toast(lang: str, placements: Sequence[Placement], points: int) -> Html:
    """What a tap's pop-up says of the move it made: "You played [3|3] on the left and a closed
    [5|5] on the right", and what it scored ("· +5"). Three or four doubles at once (Donkey)
    said so took an alert box to dismiss, not a toast: then the doubles alone, and how many
    went down closed; the player's record below says which."""
    key = "hand.played_toast_scored" if points else "hand.played_toast"
    said = t(lang, key, tile=laid_words(lang, placements), points=points)
    if len(placements) < 2 or read_len(said) <= TOAST:
        return said
    closed = sum(placement.closed for placement in placements)
    shut = plural(lang, "hand.laid.closed_count", closed) if closed else ""
    tiles = " ".join(tile_text(placement.tile) for placement in placements)
    doubles = plural(lang, "hand.laid.doubles", len(placements), closed=shut, tiles=tiles)
    return t(lang, key, tile=doubles, points=points)


def button_text(tile: Tile, playable: bool) -> str:
    return f"✅ {tile.a}|{tile.b}" if playable else f"{tile.a}|{tile.b}"
