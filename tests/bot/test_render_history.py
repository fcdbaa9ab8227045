"""/history's lines: each side once, its score in the game's own terms, and how it came out."""

from __future__ import annotations

from bot.render.history import history_text
from storage import Outcome, PastMatch, PastSeat


def seat(seat: int, side: int, name: str | None, score: int, outcome: Outcome) -> PastSeat:
    return PastSeat(seat, side, None if name is None else 100 + seat, name, score, outcome)


def past(game: str, ended_by: str, *seats: PastSeat) -> PastMatch:
    return PastMatch(1, game, True, 6, ended_by, 1_764_000_000.0, seats)  # type: ignore[arg-type]


def computer(seat: int) -> str:
    return f"🤖 C{seat}"


def test_a_pair_kozel_match_names_each_pair_once_with_the_goats_marked() -> None:
    match = past(
        "kozel",
        "goat",
        seat(0, 0, "Masha", 104, "lost"),
        seat(1, 1, "Alex", 40, "won"),
        seat(2, 0, None, 104, "lost"),
        seat(3, 1, "Serg", 40, "won"),
    )
    [_, line] = history_text("en", [match], computer).splitlines()
    assert line == "2025-11-24 · Kozel: Masha &amp; 🤖 C2 104 🐐 · Alex &amp; Serg 40 🏆"


def test_generals_goat_counts_lost_rounds_and_a_draw_is_marked_in_russian() -> None:
    generals = past(
        "generals_goat",
        "target",
        seat(0, 0, "Маша", 2, "lost"),
        seat(1, 1, "Саша", 1, "won"),
        seat(2, 0, "Оля", 2, "lost"),
        seat(3, 1, "Петя", 1, "won"),
    )
    draw = past("sport", "draw", seat(0, 0, "Маша", 30, "draw"), seat(1, 1, "Саша", 30, "draw"))
    lines = history_text("ru", [generals, draw], computer).splitlines()
    teams = "Маша &amp; Оля проиграно раундов: 2 · Саша &amp; Петя проиграно раундов: 1 🏆"
    assert teams in lines[1]
    assert lines[2].endswith(": Маша 30 🤝 · Саша 30 🤝")
