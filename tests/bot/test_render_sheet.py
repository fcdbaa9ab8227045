"""The match's scoresheet: /standings and the match's end list each side's score after every
round, as players chalk it up, and say which rounds were fish or eggs."""

from __future__ import annotations

import html
import random
import re

import pytest

from bot.i18n import t
from bot.render.results import match_result_text
from bot.render.sheet import ROWS
from bot.render.standings import match_text
from bot.sender import fit
from bot.table import Table
from devtools.fake_telegram import utf16_len
from engine import Match
from engine.ai import greedy_player
from engine.events import MatchEnded, RoundEnded
from engine.rules import PRESETS, RuleSet
from tests.bot.tables import table_of


def play_out(table: Table, seed: int = 1) -> MatchEnded:
    """Play the table's match to its end by greedy players, keeping its round ends as the table
    store does; the match's end."""
    match = table.match
    assert match is not None
    rng = random.Random(seed)
    while True:
        seat = match.current_seat
        assert seat is not None
        for event in match.act(seat, greedy_player(match, seat, rng)):
            if isinstance(event, RoundEnded):
                table.round_ends.append(event)
            if isinstance(event, MatchEnded):
                return event


def sheet_rows(text: str) -> list[str]:
    """The lines of ``text`` after the sheet's head, up to the next blank line."""
    lines = html.unescape(text).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("📝"))
    rows = lines[start + 1 :]
    return rows[: rows.index("")] if "" in rows else rows


def test_standings_show_no_sheet_before_a_round_has_ended() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True)
    assert "📝" not in match_text(table, "en")


def test_the_match_end_lists_the_scores_after_every_round_and_marks_the_fish() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True)
    ended = play_out(table)
    text = html.unescape(match_result_text(table, ended))
    assert "📝 <b>Round by round</b>: Masha and Olya · Alex and Serg" in text
    expected = [
        f"{end.round}. {end.scores[0]} · {end.scores[1]}"
        + (" 🥚" if end.eggs else " 🐟" if end.result == "fish" else "")
        for end in table.round_ends
    ]
    rows = sheet_rows(text)
    shown = ROWS + 1 if len(table.round_ends) == ROWS + 1 else ROWS
    if len(table.round_ends) > shown:
        assert rows[0] == f"… {len(table.round_ends) - shown} earlier rounds"
        rows = rows[1:]
    assert rows == expected[-shown:]
    assert rows[-1].startswith(f"{len(table.round_ends)}. ")


def test_standings_in_play_show_the_rounds_so_far_in_the_groups_language() -> None:
    table = table_of(["Маша", "Саша", "Оля"], lang="ru")
    match = table.match
    assert match is not None
    rng = random.Random(3)
    while not table.round_ends:
        seat = match.current_seat
        assert seat is not None
        for event in match.act(seat, greedy_player(match, seat, rng)):
            if isinstance(event, RoundEnded):
                table.round_ends.append(event)
    text = match_text(table, "ru")
    assert "📝 <b>По раундам</b>: Маша · Саша · Оля" in text
    scores = " · ".join(str(score) for score in table.round_ends[0].scores)
    assert sheet_rows(text)[0].startswith(f"1. {scores}")


def test_a_long_match_shows_its_newest_rounds_and_counts_the_others() -> None:
    """A goat limit of 500 makes a match of many rounds; the sheet keeps to the newest."""
    table = table_of(["Masha", "Alex"], rules=RuleSet(goat_limit=500))
    ended = play_out(table, seed=2)
    count = len(table.round_ends)
    assert count > ROWS + 1
    rows = sheet_rows(match_result_text(table, ended))
    assert rows[0] == f"… {count - ROWS} earlier rounds"
    newest = range(count - ROWS + 1, count + 1)
    assert [row.split(".")[0] for row in rows[1:]] == [str(n) for n in newest]


def test_a_fish_dealt_again_in_generals_goat_is_not_a_row_of_its_own() -> None:
    """General's Goat deals a fish again under the same round number (§3.10): the sheet numbers
    the rounds that counted, each once."""
    rules = PRESETS["generals_goat"]()
    for seed in range(1, 200):
        table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, rules=rules)
        table.match, _ = Match.new(4, True, rules, seed=seed)
        ended = play_out(table, seed)
        if any(end.outcome == "redealt" for end in table.round_ends):
            break
    else:
        raise AssertionError("no General's Goat match with a fish dealt again in 199 seeds")
    numbers = [row.split(".")[0] for row in sheet_rows(match_result_text(table, ended))]
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)]
    counted = len(table.round_ends) - sum(end.outcome == "redealt" for end in table.round_ends)
    assert len(numbers) == min(counted, ROWS)


def test_standings_after_a_fish_dealt_again_in_generals_goat_show_no_row_for_it() -> None:
    """/standings while General's Goat deals a fish again (§3.10) said "rounds played: 1" over
    a sheet of two rows, "2. 1 · 0 🐟" for the round being played again."""
    rules = PRESETS["generals_goat"]()
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, rules=rules)
    table.match, _ = Match.new(4, True, rules, seed=3)
    match = table.match
    rng = random.Random(3)
    while not any(end.outcome == "redealt" for end in table.round_ends):
        seat = match.current_seat
        assert seat is not None
        for event in match.act(seat, greedy_player(match, seat, rng)):
            if isinstance(event, RoundEnded):
                table.round_ends.append(event)
    counted = [end for end in table.round_ends if end.outcome != "redealt"]
    text = match_text(table, "en")
    assert f"rounds played: {len(counted)}" in html.unescape(text).splitlines()[0]
    rows = sheet_rows(text)
    assert [row.split(". ")[0] for row in rows] == [str(n) for n in range(1, len(counted) + 1)]
    assert not any("🐟" in row for row in rows)


def test_a_match_won_during_play_ends_its_sheet_at_the_final_score() -> None:
    """Muggins is won the moment a move reaches the target, before its round ends: the sheet
    stopped at the round before, "2. 70 · 79" under a final score of 85 to 114."""
    rules = PRESETS["muggins"]()
    for seed in range(1, 50):
        table = table_of(["Masha", "Alex"], rules=rules)
        table.match, _ = Match.new(2, False, rules, seed=seed)
        ended = play_out(table, seed)
        if table.round_ends and table.round_ends[-1].scores != ended.scores:
            break
    else:
        raise AssertionError("no Muggins match won during play in 49 seeds")
    rows = sheet_rows(match_result_text(table, ended))
    assert rows[-1] == f"{len(table.round_ends) + 1}. {ended.scores[0]} · {ended.scores[1]}"
    last = table.round_ends[-1]
    assert rows[-2] == f"{len(table.round_ends)}. {last.scores[0]} · {last.scores[1]}"


def test_a_blocked_round_of_telephone_is_marked_as_its_result_names_it() -> None:
    """Telephone calls a blocked round "🧱 blocked", not a fish (it has none): its sheet marked
    that round 🐟 all the same."""
    rules = PRESETS["telephone_ua"]()
    table = table_of(["Masha", "Alex"], rules=rules)
    table.match, _ = Match.new(2, False, rules, seed=8)
    ended = play_out(table, seed=8)
    (blocked,) = [end for end in table.round_ends if end.result == "fish"]
    rows = sheet_rows(match_result_text(table, ended))
    row = next(row for row in rows if row.startswith(f"{blocked.round}. "))
    assert row.endswith(" 🧱")
    assert not any("🐟" in row for row in rows)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "… 4 earlier deals"),
        ("ru", "… ещё 4 раздачи до этого"),
        ("uk", "… ще 4 роздачі до цього"),
    ],
)
def test_sport_dominos_sheet_counts_its_earlier_deals_as_deals(lang: str, said: str) -> None:
    """Sixteen deals of Sport domino outgrow the sheet, whose head says "Deal by deal": the
    line for the earlier ones said "… 4 earlier rounds"."""
    rules = PRESETS["sport"]().with_options(sport_deals=16)
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang, rules=rules)
    table.match, _ = Match.new(4, True, rules, seed=1)
    ended = play_out(table)
    assert len(table.round_ends) == 16
    assert sheet_rows(match_result_text(table, ended))[0] == said


@pytest.mark.parametrize(
    ("lang", "head"),
    [
        ("en", "📝 Lost rounds, round by round: Masha and Olya · Alex and Serg"),
        ("ru", "📝 Проигранные раунды, по раундам: Masha и Olya · Alex и Serg"),
        ("uk", "📝 Програні раунди, по раундах: Masha і Olya · Alex і Serg"),
    ],
)
def test_generals_goats_sheet_says_it_counts_lost_rounds(lang: str, head: str) -> None:
    """General's Goat keeps no points: its sheet's "2 · 0" are the rounds each team lost, which
    the head did not say ("Round by round"), so they read as points."""
    rules = PRESETS["generals_goat"]()
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang, rules=rules)
    table.match, _ = Match.new(4, True, rules, seed=1)
    ended = play_out(table)
    lines = html.unescape(match_result_text(table, ended)).replace("<b>", "").replace("</b>", "")
    assert head in lines.splitlines()


#: The longest name Telegram allows (64 characters, first and last), each character an emoji
#: that Telegram counts as two (UTF-16 code units).
EMOJI_NAME = "😀" * 64 + " " + "🐐" * 64


def rounds_into(table: Table, rounds: int) -> None:
    """Play the table's match (to a goat limit it will not reach) until ``rounds`` ended."""
    match = table.match
    assert match is not None
    rng = random.Random(3)
    while len(table.round_ends) < rounds:
        seat = match.current_seat
        assert seat is not None
        for event in match.act(seat, greedy_player(match, seat, rng)):
            if isinstance(event, RoundEnded):
                table.round_ends.append(event)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_standings_of_emoji_names_keep_whole_rounds_and_count_those_left_out(lang: str) -> None:
    """Four names of 128 emoji: /standings outgrew Telegram's 4096 characters (as it counts
    them: two for an emoji), and the sender cut it mid-name, taking its formatting off. The
    newest rounds stay whole, a line counts the others, in the room the board leaves (which no
    longer says the score again, and so fits)."""
    table = table_of([EMOJI_NAME] * 4, lang=lang, rules=RuleSet(goat_limit=1000))
    rounds_into(table, 14)
    text = match_text(table, lang)
    assert utf16_len(html.unescape(re.sub(r"<[^>]*>", "", text))) <= 4096
    assert fit(text) == text  # nothing for the sender to cut
    rows = sheet_rows(text)
    earlier, *shown = rows
    assert earlier.startswith("… ")
    assert str(14 - len(shown)) in earlier
    assert [row.split(". ")[0] for row in shown] == [str(n) for n in range(15 - len(shown), 15)]
    assert "\n🎲 <b>" in text  # the board, whole to its last line, whose turn it is
    assert text.splitlines()[-1] == t(lang, "board.turn", name=EMOJI_NAME)


@pytest.mark.parametrize(
    ("rounds", "counted"), [(ROWS + 1, None), (ROWS + 2, "… 2 earlier rounds")]
)
def test_one_round_more_than_the_sheet_keeps_is_shown_not_counted(
    rounds: int, counted: str | None
) -> None:
    """Thirteen rounds: the sheet showed the newest twelve under "… 1 earlier round", a line
    as long as the round it stood for, which was nowhere to be read."""
    table = table_of(["Masha", "Alex"], rules=RuleSet(goat_limit=1000))
    rounds_into(table, rounds)
    rows = sheet_rows(match_text(table, "en"))
    if counted is not None:
        assert rows.pop(0) == counted
    first = 1 if counted is None else rounds - ROWS + 1
    assert [row.split(". ")[0] for row in rows] == [str(n) for n in range(first, rounds + 1)]


def test_standings_with_room_for_the_board_keep_it() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"], rules=RuleSet(goat_limit=1000))
    rounds_into(table, 3)
    text = match_text(table, "en")
    assert "🎲 <b>Kozel</b> · round 4" in text
    assert "did not fit" not in text


@pytest.mark.parametrize(("game", "mark"), [("telephone", "🧱"), ("traditional", "🐟")])
def test_a_blocked_round_is_marked_as_its_result_calls_it(game: str, mark: str) -> None:
    """The fives games call a round nobody can move in "🧱 blocked", the games that score it as
    a fish "🐟 fish" (Traditional, Sea Goat, Kozel): the sheet marked every one of them 🐟, so a
    Telephone's row said fish where its result had said blocked."""
    table = table_of(["Masha", "Alex"], rules=PRESETS[game]())
    blocked = RoundEnded(
        round=1,
        result="fish",
        winner=1,
        fisherman=0,
        hands=[[], []],
        hand_values=[9, 2],
        amounts=[0, 2],
        scores=[5, 7],
    )
    table.round_ends.append(blocked)
    assert sheet_rows(match_text(table, "en")) == [f"1. 5 · 7 {mark}"]
