"""The board's score, where points are bad, comes under a head that says what they count: Kozel's
board listed each name twice, with its tiles and then "Masha: 0" under nothing, which read as
anything (the scoring games say "25 of 100" on each line)."""

from __future__ import annotations

import pytest

from bot.render.board import board_text
from bot.table import Table
from engine.rules import PRESETS
from tests.bot.tables import table_of
from tests.bot.test_render_round_names import plain


def score_block(table: Table) -> list[str]:
    """The board's lines from the blank line after the bazaar to the next blank line."""
    lines = plain(board_text(table)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("Bazaar", "Базар"))) + 2
    return lines[start : lines.index("", start)]


def test_a_kozel_board_shows_its_tiles_then_its_points_under_a_head() -> None:
    table = table_of(["Masha", "Alex", "Olya"])
    assert plain(board_text(table)).splitlines() == [
        "🎲 Kozel · round 1 · to 101",
        "—",
        "",
        "▶️ Masha: 7 tiles",
        "     Alex: 7 tiles",
        "     Olya: 7 tiles",
        "Bazaar: 7 tiles",
        "",
        "Points (101 loses):",
        "Masha: 0",
        "Alex: 0",
        "Olya: 0",
        "",
        "Turn: Masha",
        "Must lead: [1|1] (the first round starts with 1-1)",
    ]


@pytest.mark.parametrize(
    ("lang", "head"), [("ru", "Очки (101 — проигрыш):"), ("uk", "Очки (101 — програш):")]
)
def test_the_head_of_the_points_in_russian_and_ukrainian(lang: str, head: str) -> None:
    table = table_of(["Masha", "Alex", "Olya"], lang=lang)
    assert score_block(table) == [head, "Masha: 0", "Alex: 0", "Olya: 0"]


@pytest.mark.parametrize(
    ("game", "head"),
    [("donkey", "Points (101 loses):"), ("sport", "Points (fewer is better):")],
)
def test_the_other_games_where_points_are_bad_say_it_too(game: str, head: str) -> None:
    """Donkey loses at its limit; Sport domino, played by two pairs, has no limit: its deals end
    it, and the pair with fewer points wins."""
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, rules=PRESETS[game]())
    lines = plain(board_text(table)).splitlines()
    at = lines.index(head)
    assert lines[at - 1 : at + 4] == ["", head, "Masha and Olya: 0", "Alex and Serg: 0", ""]


@pytest.mark.parametrize("game", ["muggins", "generals_goat"])
def test_games_whose_score_lines_say_it_get_no_head(game: str) -> None:
    """Muggins says "0 of 100" on each line, General's Goat "lost 0 of 2"."""
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, rules=PRESETS[game]())
    text = plain(board_text(table))
    assert "Points" not in text and "Masha and Olya: " in text
