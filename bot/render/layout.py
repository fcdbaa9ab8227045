"""The tiles on the table as the board and the hands show them: Kozel's line with its two ends,
and the spinner's cross of the scoring games, with its open ends and their sum S (RULES.md
§1.8), which is what a player adds up before moving."""

from __future__ import annotations

from typing import Final

from engine.cross import Cross
from engine.layout import End, Layout
from engine.line import Line
from engine.tiles import Tile

from ..i18n import Html, t
from .tiles import tile_text, tiles_text

#: How each end is pointed at, on the board and on the buttons that choose one.
ARROWS: Final[dict[End, str]] = {"left": "⬅️", "right": "➡️", "up": "⬆️", "down": "⬇️"}
SPINNER: Final = "✳️"
#: A double laid closed (Donkey, RULES.md §3.3): nothing more goes on its end.
CLOSED: Final = "🔒"
#: A double laid along the line (English fives, §3.9), as its button says it: it counts once.
ALONG: Final = "↔️"


def layout_lines(layout: Layout) -> list[Html]:
    """The long line left to right; with a spinner, the spinner marked and in bold, its top arm
    above the line and its bottom arm below, each read outward from the spinner."""
    if not isinstance(layout, Cross):
        assert isinstance(layout, Line)
        return [Html(tiles_text(layout.chain))]

    def shown(pairs: list[tuple[int, int]], spinner: int | None = None) -> str:
        return "".join(
            f"{SPINNER}<b>{tile_text(pair)}</b>" if i == spinner else _tile_on(layout, pair)
            for i, pair in enumerate(pairs)
        )

    line = Html(shown(layout.chain, layout.spinner) or "—")
    up = [Html(f"{ARROWS['up']} {shown(layout.up)}")] if layout.up else []
    down = [Html(f"{ARROWS['down']} {shown(layout.down)}")] if layout.down else []
    return [*up, line, *down]


def _tile_on(layout: Cross, pair: tuple[int, int]) -> str:
    """A tile of the cross; a closed double (Donkey) locked, its end dead; a double laid along
    the line (English fives) so marked: at an end it shows "⬅️ 5" where "[5|5]" across would
    show "5|5", and the board did not say why."""
    tile = Tile.of(*pair)
    mark = CLOSED if tile in layout.closed else ALONG if tile in layout.lengthwise else ""
    return tile_text(pair) + mark


def ends_text(lang: str, layout: Layout, *, with_sum: bool = True) -> Html | None:
    """Kozel's "Ends: 3 … 5"; on a cross each open end with what it counts, and their sum S: a
    crosswise double at an end shows as one ("6|6": both halves count), a free side of the
    spinner with its mark and value, and what the spinner counts after the sum where its sides
    do not add up to it ("✳️ counts 0": the sum read as if each "✳️6" counted 6); where nothing
    is scored on them (Donkey), without the sum, a double's end a plain number as Kozel's, and
    "no open end" once closed doubles have killed them all. None before the lead."""
    if layout.is_empty:
        return None
    if not isinstance(layout, Cross):
        ends = layout.open_ends()
        return t(lang, "board.ends", left=ends["left"], right=ends["right"])
    full = layout.ends_in_full()
    if not full:
        return t(lang, "board.no_open_end")
    # a lone double led that is no spinner counts its pips once: each end shows its half
    doubled = with_sum and not (len(layout.chain) == 1 and layout.spinner is None)
    shown = Html(
        " · ".join(
            f"{ARROWS[end]} {_counted(value, twice and doubled, spinner_side)}"
            for end, value, twice, spinner_side in full
        )
    )
    if not with_sum:
        return t(lang, "board.open_ends_only", ends=shown)
    # the spinner's open sides show its value, which is not always what they add up to
    spinner = layout.spinner_counts()
    if spinner != sum(value for _, value, _, spinner_side in full if spinner_side):
        key = "board.open_ends_spinner"
        return t(lang, key, ends=shown, sum=layout.end_sum(), spinner=spinner)
    return t(lang, "board.open_ends", ends=shown, sum=layout.end_sum())


def _counted(value: int, twice: bool, spinner_side: bool) -> str:
    if spinner_side:
        return f"{SPINNER}{value}"
    return f"{value}|{value}" if twice else str(value)


def end_label(lang: str, layout: Layout, end: End, value: int) -> Html:
    """A button that puts the tile on ``end``, named as a player would point at it: "⬅️ to the
    5 on the left", "⬆️ to the 4 on the top arm", "✳️ on the spinner's arm (5|5)" while the arm
    is bare (either arm: they are one choice then)."""
    if isinstance(layout, Cross) and end in ("up", "down") and not getattr(layout, end):
        return t(lang, "hand.on_arm", value=value)
    return t(lang, f"hand.on_{end}", value=value)
