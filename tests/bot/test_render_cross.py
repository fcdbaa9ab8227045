"""The scoring games as the group and the players see them: the cross on the board, the ends a
tile may go to, the scores against the target, the results; every name escaped."""

from __future__ import annotations

import dataclasses
import html

import pytest

from bot.render.board import board_text
from bot.render.hand import end_keyboard, live_hand, way_keyboard, which_end_text
from bot.render.layout import ends_text, layout_lines
from bot.render.results import match_result_text, round_result_text
from bot.service.finish import results
from bot.table import Table
from engine import Match, Tile
from engine.cross import Cross
from engine.events import MatchEnded, MatchEndedBy, RoundEnded
from engine.line import Line
from engine.rules import PRESETS
from tests.bot.tables import table_of
from tests.bot.test_locales import html_problems

NAUGHTY = "Zoë & <Co>"


def known_cross() -> Cross:
    """6-6 and 6-5 left of the spinner 5-5, 5-2 and 2-2 right of it, 5-4 and 4-3 on its top arm,
    5-1 on the bottom one: S = 12 + 4 + 3 + 1 = 20 (RULES.md §1.8, the spinner covered on all
    four sides counts nothing)."""
    return Cross(
        chain=[(6, 6), (6, 5), (5, 5), (5, 2), (2, 2)],
        spinner=2,
        up=[(5, 4), (4, 3)],
        down=[(5, 1)],
    )


def muggins_table(names: list[str], layout: Cross, lang: str = "en") -> Table:
    table = table_of(names, lang=lang, rules=PRESETS["muggins"]())
    assert table.match is not None and table.match.round is not None
    # a new round with this layout, as one played to it would be (``Round.led`` follows it)
    table.match.round = dataclasses.replace(table.match.round, layout=layout)
    return table


def test_the_cross_shows_its_arms_around_the_marked_spinner() -> None:
    assert layout_lines(known_cross()) == [
        "⬆️ [5|4][4|3]",
        "[6|6][6|5]✳️<b>[5|5]</b>[5|2][2|2]",
        "⬇️ [5|1]",
    ]


def test_a_double_laid_along_the_line_is_marked_so_on_the_board() -> None:
    """English fives (RULES.md §3.9): 3-3 laid along the line at its right end counts 3, not 6.
    The board showed "[3|3]" as it shows a double across, beside "➡️ 3", and a reader counted 6:
    it is marked as the button that lays it so says it."""
    along = Cross(chain=[(4, 6), (6, 6), (6, 3), (3, 3)], spinner=1, lengthwise=[Tile(3, 3)])
    assert layout_lines(along) == ["[4|6]✳️<b>[6|6]</b>[6|3][3|3]↔️"]
    assert ends_text("en", along) == (
        "Open ends: ⬅️ 4 · ➡️ 3 · ⬆️ ✳️6 · ⬇️ ✳️6 · sum <b>7</b> (✳️ counts 0)"
    )
    across = Cross(chain=[(4, 6), (6, 6), (6, 3), (3, 3)], spinner=1)
    assert layout_lines(across) == ["[4|6]✳️<b>[6|6]</b>[6|3][3|3]"]


def test_the_open_ends_show_what_they_count_and_their_sum() -> None:
    text = ends_text("en", known_cross())
    assert text == "Open ends: ⬅️ 6|6 · ➡️ 2|2 · ⬆️ 3 · ⬇️ 1 · sum <b>20</b>"
    assert html_problems(text or "") == []


def test_bare_sides_of_the_spinner_are_marked_and_counted_as_the_rules_say() -> None:
    """The lead 5-5 with 5-3 on its right: covered on one side, it counts 10, and 3 makes 13;
    its three bare sides each show 5, so the line says what they count together."""
    led = Cross(chain=[(5, 5), (5, 3)], spinner=0)
    ends = "⬅️ ✳️5 · ➡️ 3 · ⬆️ ✳️5 · ⬇️ ✳️5"
    assert ends_text("en", led) == f"Open ends: {ends} · sum <b>13</b> (✳️ counts 10)"
    assert ends_text("ru", led) == f"Открытые концы: {ends} · сумма <b>13</b> (✳️ считается за 10)"
    assert ends_text("uk", led) == f"Відкриті кінці: {ends} · сума <b>13</b> (✳️ рахується за 10)"


def test_a_spinner_covered_on_both_long_sides_says_its_bare_arms_count_nothing() -> None:
    """6-6 between 6-4 and 6-3, its arms bare: under ``spinner_count = A`` (RULES.md §1.8) it
    counts nothing and S is 4 + 3 = 7, but the line showed "⬆️ ✳️6 · ⬇️ ✳️6 · sum 7" and a
    reader added 6 + 6 more. Under B each bare arm counts its 6, as shown: nothing to add."""
    chain = [(4, 6), (6, 6), (6, 3)]
    ends = "⬅️ 4 · ➡️ 3 · ⬆️ ✳️6 · ⬇️ ✳️6"
    counted_a = Cross(chain=chain, spinner=1)
    assert ends_text("en", counted_a) == f"Open ends: {ends} · sum <b>7</b> (✳️ counts 0)"
    counted_b = Cross(chain=chain, spinner=1, spinner_count="B")
    assert ends_text("en", counted_b) == f"Open ends: {ends} · sum <b>19</b>"


@pytest.mark.parametrize(
    "led",
    [
        # the Ukrainian Telephone's lead: not the house until covered on both long sides (§3.5)
        Cross(chain=[(5, 5)], arms_open="after_both_long_sides", house_when_covered=True),
        Cross(chain=[(5, 5)], spinner_rule="none"),  # Muggins played without a spinner (§3.6)
    ],
)
def test_a_lone_double_led_shows_each_end_as_the_half_that_adds_up_to_the_sum(led: Cross) -> None:
    """A double led that is no spinner counts its pips once (RULES.md §1.8), 10 for 5-5: each of
    its two ends showed "5|5" and the line read 5|5 + 5|5 = 10, as if the sum were wrong."""
    assert ends_text("en", led) == "Open ends: ⬅️ 5 · ➡️ 5 · sum <b>10</b>"
    assert ends_text("uk", led) == "Відкриті кінці: ⬅️ 5 · ➡️ 5 · сума <b>10</b>"


def test_kozel_keeps_its_line_and_its_two_ends() -> None:
    table = table_of(["Masha", "Alex"])
    text = html.unescape(board_text(table))
    assert text.startswith("🎲 <b>Kozel</b> · round 1 · to 101")
    assert "Open ends" not in text


def test_the_board_of_a_scoring_game_escapes_names_and_counts_to_the_target() -> None:
    table = muggins_table([NAUGHTY, "Bob"], known_cross())
    text = board_text(table)
    assert html_problems(text) == []
    assert "Zoë &amp; &lt;Co&gt;: <b>0</b> of 100" in text
    assert "<Co>" not in text
    assert text.startswith("🎲 <b>Muggins</b> · round 1 · to 100")
    assert "sum <b>20</b>" in text


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Bazaar: empty"), ("ru", "Базар: пусто"), ("uk", "Базар: порожньо")]
)
def test_a_bazaar_drawn_to_its_last_tile_says_it_is_empty(lang: str, said: str) -> None:
    """The board's "Bazaar: 3 tiles" went without a word once the last was drawn: a knock then
    read as if the player might have drawn. A deal that leaves no bazaar (four at Kozel) still
    shows none."""
    table = muggins_table([NAUGHTY, "Bob"], known_cross(), lang)
    assert table.match is not None and table.match.round is not None
    table.match.round.bazaar.clear()
    assert said in board_text(table).splitlines()
    four = table_of(["Masha", "Alex", "Olya", "Serg"], lang=lang)
    bazaar = said.partition(":")[0]
    assert not any(line.startswith(bazaar) for line in board_text(four).splitlines())


def test_a_tile_that_fits_several_ends_offers_each_named_as_players_would() -> None:
    """5-6 fits the 6-6 on the left and a bare arm of the spinner 5-5 (either arm: one choice)."""
    spinner_inside = Cross(chain=[(6, 6), (6, 5), (5, 5), (5, 2)], spinner=2)
    table = muggins_table(["Masha", "Bob"], spinner_inside)
    seat = table.seats[0]
    keyboard = end_keyboard(table, seat, Tile(5, 6)).inline_keyboard
    assert [[b.text for b in row] for row in keyboard] == [
        ["⬅️ to the 6 on the left"],
        ["✳️ on the spinner's arm (5|5)"],
        ["« Back"],
    ]
    assert [b.callback_data for b in keyboard[1]] == [f"p:1:{table.version}:5-6:up"]
    # with the open ends and their sum, as the hand it takes the place of showed them: the end
    # chosen is what the move scores by (on the 6-6, 5 + 2 = 7; on the arm, 12 + 2 + 6 = 20)
    question = which_end_text(table, seat, Tile(5, 6))
    assert question.splitlines() == [
        "[5|6] fits more than one of the open ends. Where does it go?",
        "Open ends: ⬅️ 6|6 · ➡️ 2 · ⬆️ ✳️5 · ⬇️ ✳️5 · sum <b>14</b> (✳️ counts 0)",
    ]
    # Kozel's line keeps its question alone: its ends score nothing, and the buttons name them
    kozel = table_of(["Masha", "Bob"])
    assert kozel.match is not None and kozel.match.round is not None
    kozel.match.round = dataclasses.replace(kozel.match.round, layout=Line(chain=[(5, 6)]))
    assert which_end_text(kozel, kozel.seats[0], Tile(5, 6)) == (
        "[5|6] fits both ends. Where does it go?"
    )
    # nor Traditional's, whose ends score nothing either, though it is won at a target
    traditional = table_of(["Masha", "Bob"], rules=PRESETS["traditional"]())
    assert traditional.match is not None and traditional.match.round is not None
    traditional.match.round = dataclasses.replace(
        traditional.match.round, layout=Line(chain=[(5, 6)])
    )
    assert which_end_text(traditional, traditional.seats[0], Tile(5, 6)) == (
        "[5|6] fits both ends. Where does it go?"
    )


def test_a_grown_arm_is_named_by_the_value_it_shows() -> None:
    table = muggins_table(["Маша", "Лёша"], known_cross())
    seat = table.seats[0]
    seat.language = "ru"  # the hand speaks its player's language
    keyboard = end_keyboard(table, seat, Tile(1, 3)).inline_keyboard
    assert [[b.text for b in row] for row in keyboard][:1] == [
        ["⬆️ к 3 на верхней ветке", "⬇️ к 1 на нижней ветке"]
    ]


def test_the_way_to_lay_an_english_fives_double_says_what_each_way_scores() -> None:
    """RULES.md §4.8 E-1: the ends 4 and 3 (the spinner 6-6 between them, its bare arms counting
    nothing), 3-3 on the 3. Across it counts 6 and S = 4 + 6 = 10 scores 10; along it counts 3,
    S = 7 scores nothing. The question takes the place of the hand and its open ends: the
    buttons said "counts 6" and "counts 3" alone, and the player had to remember the 4 to tell
    that across scores."""
    layout = Cross(chain=[(4, 6), (6, 6), (6, 3)], spinner=1)
    table = table_of(["Masha", "Bob"], rules=PRESETS["english_fives"]())
    assert table.match is not None and table.match.round is not None
    table.match.round = dataclasses.replace(table.match.round, layout=layout)
    keyboard = way_keyboard(table, table.seats[0], Tile(3, 3), "right").inline_keyboard
    assert [[b.text for b in row] for row in keyboard] == [
        ["✖️ [3|3] across: counts 6 · +10"],
        ["↔️ [3|3] along: counts 3"],
        ["« Back"],
    ]
    # and where only along scores: 4-4 on the 4 beside a 6 makes 8 + 6 = 14 across, 10 along
    layout = Cross(chain=[(4, 3), (3, 3), (3, 6)], spinner=1)
    table.match.round = dataclasses.replace(table.match.round, layout=layout)
    keyboard = way_keyboard(table, table.seats[0], Tile(4, 4), "left").inline_keyboard
    assert [[b.text for b in row] for row in keyboard][:2] == [
        ["✖️ [4|4] across: counts 8"],
        ["↔️ [4|4] along: counts 4 · +10"],
    ]


def test_a_scoring_round_shows_bonuses_and_write_offs_with_their_sign() -> None:
    table = muggins_table([NAUGHTY, "Bob"], known_cross())
    ended = RoundEnded(
        round=3,
        result="fish",
        winner=1,
        fisherman=0,
        hands=[[Tile(6, 4), Tile(5, 3)], [Tile(0, 1)]],
        hand_values=[18, 1],
        amounts=[-15, 3],
        scores=[40, 63],
    )
    text = round_result_text(table, ended)
    assert html_problems(text) == []
    lines = html.unescape(text).splitlines()
    assert lines[:2] == [
        "🧱 Round 3: <b>blocked</b> — nobody can move.",
        "Bob has the lightest hand and takes the round.",
    ]
    assert f"{NAUGHTY}: 18 in hand → <b>−15</b>" in lines
    paid = "Bob: the opponent holds 18, less own 1: 17, rounded to 15, divided by 5 → <b>+3</b>"
    assert paid in lines  # from theirs, as the rules count it


@pytest.mark.parametrize(
    ("ended", "head"),
    [
        (MatchEnded([0], [60, 105], "target", [1]), "🏆 <b>Bob wins!</b>"),
        (MatchEnded([], [230, 226], "draw", []), "🤝 <b>A draw:</b>"),
        (MatchEnded([1], [30, 20], "timeout", [0]), "The match ended early: Bob timed out."),
    ],
)
def test_a_win_at_target_match_names_its_winners(ended: MatchEnded, head: str) -> None:
    table = muggins_table([NAUGHTY, "Bob"], known_cross())
    text = match_result_text(table, ended)
    assert html_problems(text) == []
    assert html.unescape(text).startswith(head)
    assert "goat" not in text
    best = max(ended.scores)
    assert text.index(f": {best}") < text.index(f": {min(ended.scores)}")


def test_a_pair_wins_together() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, rules=PRESETS["muggins"]())
    text = match_result_text(table, MatchEnded([1], [100, 80], "target", [0]))
    assert text.startswith("🏆 <b>Masha and Olya win!</b>")


@pytest.mark.parametrize(
    ("ended_by", "winners", "losers", "outcomes", "deltas"),
    [
        ("target", [1], [0], ["lost", "won"], [-3, 3]),
        ("draw", [], [], ["draw", "draw"], [0, 0]),
    ],
)
def test_a_win_at_target_match_is_recorded_with_winners_and_margins(
    ended_by: MatchEndedBy,
    winners: list[int],
    losers: list[int],
    outcomes: list[str],
    deltas: list[int],
) -> None:
    """Rated by the margin in tenths of the target: 70 against 100 in a game to 100 is 3."""
    table = table_of(["Masha", "Bob"], rules=PRESETS["muggins"]())
    match = table.match
    assert match is not None
    match.tally = dataclasses.replace(match.tally, scores=(70, 100))
    match.winners, match.losers, match.ended_by = winners, losers, ended_by
    found = results(table)
    assert [r.outcome for r in found] == outcomes
    assert [r.rating_delta for r in found] == deltas


@pytest.mark.parametrize(
    ("lang", "board", "hand", "no_double"),
    [
        (
            "en",
            "Must lead: [6|6] (whoever holds the highest double leads)",
            "Lead with [6|6]: whoever holds the highest double leads.",
            "Must lead: [5|6] (no one holds a double, so the highest tile leads)",
        ),
        (
            "ru",
            "Заход с [6|6]: у кого старший дубль, тот и заходит",
            "Заходи с [6|6]: у кого старший дубль, тот и заходит.",
            "Заход с [5|6]: дублей ни у кого нет, заходит старший камень",
        ),
        (
            "uk",
            "Заходять з [6|6]: у кого найстарший дубль, той і заходить",
            "Заходь з [6|6]: у кого найстарший дубль, той і заходить.",
            "Заходять з [5|6]: дублів ні в кого немає, заходить найстарший камінь",
        ),
    ],
)
def test_bulgarian_fives_says_why_its_lead_is_fixed(
    lang: str, board: str, hand: str, no_double: str
) -> None:
    """Bulgarian fives' highest double leads every round, else the highest tile (RULES.md
    §3.8), so the second player leads as often as the first: the board said only "Must lead:
    [6|6]", and why him, and why that tile, was left to guess."""
    rules = PRESETS["bulgarian_fives"]()
    table = table_of(["Masha", "Alex"], lang=lang, rules=rules)
    table.match = next(
        match
        for match, _ in (Match.new(2, False, rules, seed) for seed in range(100))
        if match.current_seat == 1 and match.round and match.round.lead_tiles == [Tile(6, 6)]
    )
    alex = dataclasses.replace(table.seats[1], language=lang)
    assert board in board_text(table).splitlines()
    assert hand in live_hand(table, alex)[0].splitlines()
    rnd = table.match.round
    assert rnd is not None  # as when neither hand holds a double:
    rnd.hands = [[Tile(4, 5), Tile(1, 2)], [Tile(5, 6), Tile(0, 1)]]
    rnd.lead_tiles = [Tile(5, 6)]
    assert no_double in board_text(table).splitlines()
