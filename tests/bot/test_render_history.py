"""/history's lines: each side once, its score in the game's own terms, and how it came out."""

from __future__ import annotations

import dataclasses
import html
from datetime import UTC
from zoneinfo import ZoneInfo

import pytest

from bot.render.history import history_text
from bot.sender import fit
from devtools.fake_telegram import utf16_len
from storage import Outcome, PastMatch, PastSeat


def seat(seat: int, side: int, name: str | None, score: int, outcome: Outcome) -> PastSeat:
    """A person named ``name``, or with None a computer, numbered as its seat."""
    return PastSeat(seat, side, name, score, outcome, seat if name is None else None)


def past(game: str, ended_by: str, *seats: PastSeat) -> PastMatch:
    return PastMatch(game, ended_by, 1_764_000_000.0, seats)  # type: ignore[arg-type]


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
    [_, line] = history_text("en", [match], computer, UTC).splitlines()
    assert line == "2025-11-24 · Kozel: Masha and 🤖 C2 104 🐐 · Alex and Serg 40 🏆"


def test_a_match_is_dated_by_the_bots_time_zone_as_the_group_writes_dates() -> None:
    """Finished at 22:30 UTC: it was already the next day in Kyiv, where the group played it."""
    late = dataclasses.replace(
        past("kozel", "goat", seat(0, 0, "Маша", 104, "lost"), seat(1, 1, "Саша", 40, "won")),
        finished_at=1_764_023_400.0,  # 2025-11-24 22:30 UTC
    )
    [_, in_kyiv] = history_text("ru", [late], computer, ZoneInfo("Europe/Kyiv")).splitlines()
    [_, in_utc] = history_text("en", [late], computer, UTC).splitlines()
    assert in_kyiv.startswith("25.11.2025 · Козёл: ")
    assert in_utc.startswith("2025-11-24 · Kozel: ")


@pytest.mark.parametrize(
    ("lang", "teams", "drawn"),
    [
        (
            "en",
            "Masha and Olya: 2 rounds lost · Sasha and Petya: 1 round lost 🏆",
            ": Masha 30 🤝 · Sasha 30 🤝",
        ),
        (
            "ru",
            "Masha и Olya: проиграно 2 раунда · Sasha и Petya: проигран 1 раунд 🏆",
            ": Masha 30 🤝 · Sasha 30 🤝",
        ),
        (
            "uk",
            "Masha і Olya: програно 2 раунди · Sasha і Petya: програно 1 раунд 🏆",
            ": Masha 30 🤝 · Sasha 30 🤝",
        ),
    ],
)
def test_generals_goat_counts_lost_rounds_after_each_pairs_names_and_a_draw_is_marked(
    lang: str, teams: str, drawn: str
) -> None:
    """General's Goat read "Маша и Оля проиграно раундов: 2 · Саша и Петя проиграно раундов: 1":
    the names ran into the words, and the colon came after the words, not the names."""
    generals = past(
        "generals_goat",
        "target",
        seat(0, 0, "Masha", 2, "lost"),
        seat(1, 1, "Sasha", 1, "won"),
        seat(2, 0, "Olya", 2, "lost"),
        seat(3, 1, "Petya", 1, "won"),
    )
    draw = past("sport", "draw", seat(0, 0, "Masha", 30, "draw"), seat(1, 1, "Sasha", 30, "draw"))
    lines = history_text(lang, [generals, draw], computer, UTC).splitlines()
    assert lines[1].endswith(f": {teams}"), lines[1]
    assert lines[2].endswith(drawn)


def test_a_history_too_long_for_one_message_keeps_its_newest_matches_whole() -> None:
    """Four long names a match, ten matches: the text outgrew Telegram's 4096 characters, and
    the cut that made it fit took the formatting off and ended in the middle of a name. The
    matches left out are counted."""
    name = "Zoë & <Co> " * 10 + "the Magnificent"  # 125 characters, as first and last names allow
    seats = (
        seat(0, 0, f"{name} 0", 104, "lost"),
        seat(1, 1, f"{name} 1", 40, "won"),
        seat(2, 0, f"{name} 2", 104, "lost"),
        seat(3, 1, f"{name} 3", 40, "won"),
    )
    day = 86_400
    matches = [PastMatch("kozel", "goat", 1_764_000_000.0 - n * day, seats) for n in range(10)]
    text = history_text("en", matches, computer, UTC)
    assert fit(text) == text  # nothing left for the sender to cut
    head, *lines, older = text.splitlines()
    assert head == "📜 <b>Latest matches in this group</b>"
    assert 1 < len(lines) < 10
    assert older == f"… {10 - len(lines)} older matches"  # the others, counted
    # the newest first, each whole
    assert [line.split(" · ")[0] for line in lines] == [
        f"2025-11-{24 - n}" for n in range(len(lines))
    ]
    assert all(html.unescape(line).endswith(f"{name} 3 40 🏆") for line in lines)


def test_names_of_ampersands_take_the_room_people_read_not_their_html() -> None:
    """Telegram counts ``&amp;`` as the one character it shows: ten matches of such names are
    well within a message, though their HTML is three times too long for one."""
    name = "&" * 60
    seats = tuple(seat(n, n % 2, f"{name} {n}", 40, "won" if n % 2 else "lost") for n in range(4))
    matches = [PastMatch("kozel", "goat", 1_764_000_000.0, seats) for n in range(10)]
    text = history_text("en", matches, computer, UTC)
    assert len(text) > 3 * 4096
    assert len(text.splitlines()) == 1 + 10


def test_a_history_of_emoji_names_counts_them_as_telegram_does() -> None:
    """Telegram counts an emoji as two characters (UTF-16): names of 128 emoji leave fewer
    matches room than names of as many letters, and the Russian line counts the others."""
    name = "😀" * 64 + " " + "🐐" * 64
    seats = tuple(seat(n, n % 2, name, 40, "won" if n % 2 else "lost") for n in range(4))
    matches = [PastMatch("kozel", "goat", 1_764_000_000.0, seats) for n in range(10)]
    text = history_text("ru", matches, computer, UTC)
    assert utf16_len(html.unescape(text.replace("<b>", "").replace("</b>", ""))) <= 4096
    *_, older = text.splitlines()
    assert older == "… ещё 7 матчей до этого"
