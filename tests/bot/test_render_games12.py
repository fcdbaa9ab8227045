"""Donkey and Sea Goat as the group sees them: closed doubles locked on the board and their ends
dead, Sea Goat's holder, target and "на сто", the special ends of its rounds and matches, and
the buttons of several doubles at once; every name escaped."""

from __future__ import annotations

import dataclasses
import html

import pytest

from bot.callbacks import decode
from bot.i18n import Html, t
from bot.presenter.news import follow
from bot.render.board import board_text, headline, teams_text
from bot.render.hand import close_keyboard, laid_text, live_hand, played_note
from bot.render.lobby import choices, describe, game_line, rules_text, seated
from bot.render.results import match_result_text, round_result_text
from bot.render.standings import match_text
from bot.render.tiles import laid, laid_words, played_toast
from bot.sender import TOAST, read_len
from bot.service.finish import results
from bot.table import Table
from engine import Lay, Placement, Tile
from engine.cross import Cross
from engine.events import MatchEnded, MatchEndedBy, Played, PlayedDoubles, RoundEnded
from engine.games.sea_goat import SeaGoat
from engine.rules import PRESETS
from engine.scoring.sea_goat import SeaState
from engine.scoring.tally import Tally
from tests.bot.summaries import every_line, usual_summary
from tests.bot.tables import table_of
from tests.bot.test_locales import html_problems

NAUGHTY = "Zoë & <Co>"


def donkey_table(layout: Cross) -> Table:
    table = table_of([NAUGHTY, "Bob"], rules=PRESETS["donkey"]())
    assert table.match is not None and table.match.round is not None
    # a new round with this layout, as one played to it would be (``Round.led`` follows it)
    table.match.round = dataclasses.replace(table.match.round, layout=layout)
    return table


def test_a_closed_double_shows_locked_and_its_end_is_gone_from_the_open_ends() -> None:
    """5-5 spinner; 5-3 then 3-3 closed on the left; 5-2 on the right: only the right and the
    spinner's arms are open, and Donkey adds up nothing."""
    cross = Cross(chain=[(3, 3), (3, 5), (5, 5), (5, 2)], spinner=2, closed={Tile(3, 3): 0})
    text = board_text(donkey_table(cross))
    assert html_problems(text) == []
    assert "[3|3]🔒[3|5]✳️<b>[5|5]</b>[5|2]" in text
    assert "Open ends: ➡️ 2 · ⬆️ ✳️5 · ⬇️ ✳️5\n" in text + "\n"
    assert "⬅️" not in text and "sum" not in text
    assert text.startswith("🎲 <b>Donkey</b> · round 1 · to 101")
    assert "Zoë &amp; &lt;Co&gt;" in text and "<Co>" not in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "• A lone 0-0 left in hand counts 10"),
        ("ru", "• Если на руках один 0-0 — это 10 очков"),
        ("uk", "• Якщо на руках лише 0-0 — це 10 очок"),
    ],
)
def test_donkey_says_what_a_lone_0_0_counts(lang: str, said: str) -> None:
    """Donkey scores as Kozel (RULES.md §3.3), a lone 0-0 at 10: a result said "[0|0] → 10 in
    hand" where neither the lobby nor /rules said why."""
    lines = rules_text(lang, PRESETS["donkey"]())
    assert said in lines
    assert any("6-6" in line and "12" in line for line in lines)


def test_the_hand_on_turn_in_donkey_adds_up_nothing_either() -> None:
    """The board of Donkey shows its open ends without a sum, as nothing is scored on them; the
    hand on turn showed "sum 12" under them, as if the ends counted."""
    cross = Cross(chain=[(3, 3), (3, 5), (5, 5), (5, 2)], spinner=2, closed={Tile(3, 3): 0})
    table = donkey_table(cross)
    assert table.match is not None and table.match.current_seat is not None
    text, _ = live_hand(table, table.seats[table.match.current_seat])
    assert "Open ends: ➡️ 2 · ⬆️ ✳️5 · ⬇️ ✳️5\n" in text
    assert "sum" not in text


def test_an_open_double_at_an_end_in_donkey_shows_its_number_as_kozel_does() -> None:
    """Donkey's open ends showed the 3-3 left open at an end as "⬅️ 3|3", the fives games' mark
    of a double that counts both halves; nothing is counted in Donkey, so it is a plain 3, as
    Kozel's ends say it; the scoring games keep the mark (``test_render_cross``)."""
    cross = Cross(chain=[(3, 3), (3, 5), (5, 5), (5, 2)], spinner=2)
    table = donkey_table(cross)
    assert "Open ends: ⬅️ 3 · ➡️ 2 · ⬆️ ✳️5 · ⬇️ ✳️5\n" in board_text(table) + "\n"
    assert table.match is not None and table.match.current_seat is not None
    text, _ = live_hand(table, table.seats[table.match.current_seat])
    assert "Open ends: ⬅️ 3 · ➡️ 2 · ⬆️ ✳️5 · ⬇️ ✳️5\n" in text


def test_a_cross_with_every_end_closed_says_none_is_left() -> None:
    cross = Cross(chain=[(3, 3), (3, 4), (4, 4)], closed={Tile(3, 3): 0, Tile(4, 4): 1})
    assert "🔒 No open end is left" in board_text(donkey_table(cross))


def test_closing_is_asked_with_each_way_and_several_doubles_are_one_button() -> None:
    table = donkey_table(Cross(chain=[(3, 5)]))
    seat = table.seats[0]
    both = (Placement(Tile(3, 3), "left"), Placement(Tile(5, 5), "right"))
    assert laid_text(both) == "[3|3]⬅️ + [5|5]➡️"
    ways = [Lay((Placement(Tile(3, 3), "left", closed=True), both[1]))]
    keyboard = close_keyboard(table, seat, both, ways).inline_keyboard
    assert [[b.text for b in row] for row in keyboard] == [
        ["[3|3]⬅️ + [5|5]➡️"],
        ["[3|3]🔒⬅️ + [5|5]➡️"],
        ["« Back"],
    ]
    closed = decode(str(keyboard[1][0].callback_data))
    assert closed is not None and closed.settled
    assert closed.placements == ways[0].placements


@pytest.mark.parametrize(
    ("lang", "popup", "record", "alone"),
    [
        (
            "en",
            "You played [3|3] on the left and a closed [5|5] on the right",
            "You played [3|3] and a closed [5|5].",
            "You played a closed [4|4].",
        ),
        (
            "ru",
            "Сыграно: [3|3] слева и закрытый [5|5] справа",
            "Сыграно: [3|3] и закрытый [5|5].",
            "Сыграно: закрытый [4|4].",
        ),
        (
            "uk",
            "Зіграно: [3|3] ліворуч і закритий [5|5] праворуч",
            "Зіграно: [3|3] і закритий [5|5].",
            "Зіграно: закритий [4|4].",
        ),
    ],
)
def test_a_move_with_a_closed_double_is_said_in_words(
    lang: str, popup: str, record: str, alone: str
) -> None:
    """The pop-up of a tap read the buttons' shorthand, "You played [3|3]⬅️ + [5|5]🔒➡️"; and
    the player's record, "You played [3|3][5|5].", did not say the 5-5 went down closed."""
    laid = (Placement(Tile(3, 3), "left"), Placement(Tile(5, 5), "right", closed=True))
    assert t(lang, "hand.played_toast", tile=laid_words(lang, laid)) == popup
    seat = donkey_table(Cross(chain=[(3, 5)])).seats[0]
    seat.language = lang
    doubles = [Tile(3, 3), Tile(5, 5)]
    move = PlayedDoubles(1, 0, doubles, ["left", "right"], [3, 5], closed=[False, True])
    assert played_note(seat, move) == record
    assert played_note(seat, Played(1, 0, Tile(4, 4), "up", {}, closed=True)) == alone


FOUR = (
    Placement(Tile(3, 3), "left"),
    Placement(Tile(5, 5), "right"),
    Placement(Tile(6, 6), "up"),
    Placement(Tile(4, 4), "down"),
)


@pytest.mark.parametrize(
    ("lang", "closed", "scored", "said"),
    [
        ("en", True, 0, "You played 4 doubles (4 closed): [3|3] [5|5] [6|6] [4|4]"),
        ("ru", True, 0, "Сыграно: 4 дубля (4 закрытых) — [3|3] [5|5] [6|6] [4|4]"),
        ("uk", True, 0, "Зіграно: 4 дублі (4 закриті) — [3|3] [5|5] [6|6] [4|4]"),
        ("en", False, 95, "You played 4 doubles: [3|3] [5|5] [6|6] [4|4] · +95"),
        ("ru", False, 95, "Сыграно: 4 дубля — [3|3] [5|5] [6|6] [4|4] · +95"),
        ("uk", False, 95, "Зіграно: 4 дублі — [3|3] [5|5] [6|6] [4|4] · +95"),
    ],
)
def test_four_doubles_at_once_fit_a_toast(lang: str, closed: bool, scored: int, said: str) -> None:
    """Four doubles on four arms, all closed (Donkey), or scoring (Telephone): the pop-up named
    every end and every closed one, 140 characters, which Telegram shows as an alert box to
    dismiss; now the doubles and how many are closed, in a toast."""
    laid = tuple(dataclasses.replace(placement, closed=closed) for placement in FOUR)
    toast = played_toast(lang, laid, scored)
    assert toast == said
    assert read_len(toast) <= TOAST


def test_doubles_whose_words_fit_a_toast_are_said_in_full() -> None:
    laid = (Placement(Tile(3, 3), "left", closed=True), Placement(Tile(5, 5), "right"))
    assert (
        played_toast("en", laid, 0)
        == "You played [5|5] on the right and a closed [3|3] on the left"
    )
    three = FOUR[:3]
    assert played_toast("en", three, 0) == "You played 3 doubles: [3|3] [5|5] [6|6]"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "[2|2] and a closed [0|0]"),
        ("ru", "[2|2] и закрытый [0|0]"),
        ("uk", "[2|2] і закритий [0|0]"),
    ],
)
def test_two_doubles_one_closed_say_which_is_closed(lang: str, said: str) -> None:
    """The group's list of moves read "played a closed [0|0] and [2|2]", as if both went down
    closed, where the 2-2 stayed open: the open one is named first."""
    tiles = [Tile(0, 0), Tile(2, 2)]
    move = PlayedDoubles(1, 0, tiles, ["left", "right"], [0, 2], closed=[True, False])
    assert laid_words(lang, laid(move)) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Zoë &amp; &lt;Co&gt; played a closed [3|3]"),
        ("ru", "Zoë &amp; &lt;Co&gt; кладёт закрытый [3|3]"),
        ("uk", "Zoë &amp; &lt;Co&gt; кладе закритий [3|3]"),
    ],
)
def test_the_board_says_a_double_went_down_closed(lang: str, said: str) -> None:
    """The group's list of moves read "played [3|3]" for a double laid face down: only the 🔒
    in the layout told it from an open one."""
    cross = Cross(chain=[(3, 3), (3, 5), (5, 5), (5, 2)], spinner=2, closed={Tile(3, 3): 0})
    table = donkey_table(cross)
    table.language = lang
    follow(table, [Played(1, 0, Tile(3, 3), "left", {"right": 2}, closed=True)])
    assert said in board_text(table).splitlines()


def test_a_hand_offers_two_doubles_together_when_it_may() -> None:
    table = donkey_table(Cross(chain=[(3, 5)]))
    assert table.match is not None and table.match.round is not None
    rnd = table.match.round
    rnd.hands[0] = [Tile(3, 3), Tile(5, 5), Tile(0, 1)]
    rnd.turn = 0
    rows = live_hand(table, table.seats[0])[1].inline_keyboard
    together = [b.text for row in rows for b in row if b.text.startswith("⏬")]
    # with no spinner yet, either may go first and become it: two different moves
    assert together == ["⏬ Together: [3|3]⬅️ + [5|5]➡️", "⏬ Together: [5|5]➡️ + [3|3]⬅️"]
    assert all(len(str(b.callback_data).encode()) <= 64 for row in rows for b in row)


def sea_table(scores: list[int], na_sto: int | None = None, lang: str = "en") -> Table:
    table = table_of([NAUGHTY, "Bob"], lang=lang, rules=PRESETS["sea_goat"]())
    assert table.match is not None
    table.match.tally = dataclasses.replace(
        Tally.fresh(2), scores=tuple(scores), sea=SeaState(na_sto=na_sto)
    )
    return table


def test_the_sea_goat_board_names_the_holder_and_the_target() -> None:
    text = board_text(sea_table([40, 0]))
    assert html_problems(text) == []
    assert text.startswith("🎲 <b>Sea Goat</b> · round 1 · to 125")
    assert "📝 Holding points: Zoë &amp; &lt;Co&gt;" in text
    assert "Bob: <b>0</b> of 125" in text
    assert "📝 Nobody holds points yet (recording starts at 25)" in board_text(sea_table([0, 0]))


def test_a_sea_goat_round_written_off_and_a_match_won_na_sto_say_so() -> None:
    table = sea_table([0, 0])
    ended = RoundEnded(
        round=4,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(6, 4), Tile(5, 3)], []],
        hand_values=[18, 0],
        amounts=[-40, 0],
        scores=[0, 0],
        outcome="writeoff",
    )
    text = round_result_text(table, ended)
    assert html_problems(text) == []
    said = "✂️ Bob wins 25 or more while Zoë &amp; &lt;Co&gt; holds the points: every score is"
    assert said in text
    won = match_result_text(table, MatchEnded([0], [0, 60], "na_sto", [1]))
    assert html_problems(won) == []
    assert html.unescape(won).startswith("🏆 <b>Bob wins!</b>\n💯 Won <b>na sto</b>")


def bob_went_out(outcome: str) -> RoundEnded:
    """Round 5 of ``sea_table([0, 40])``: Bob went out, and the round ended so (``outcome``)."""
    return RoundEnded(
        round=5,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(4, 5), Tile(0, 2)], []],
        hand_values=[11, 0],
        amounts=[0, 0],
        scores=[0, 40],
        outcome=outcome,
    )


@pytest.mark.parametrize(
    ("outcome", "ended_by", "round_says", "match_says"),
    [
        ("na_sto_won", "na_sto", "is won, and the match with it!", "Won <b>na sto</b>"),
        ("two_doubles", "two_doubles", "the match is won at once!", "Won by going out"),
    ],
)
def test_a_match_ended_by_its_round_says_how_once(
    outcome: str, ended_by: MatchEndedBy, round_says: str, match_says: str
) -> None:
    """The match's end tells the round that ended it: the round's own line ("💯 The round played
    na sto is won, and the match with it!") and the match's ("💯 Won na sto.") said it twice in
    one message."""
    table = sea_table([0, 40])
    assert table.match is not None
    ended = bob_went_out(outcome)
    table.round_events = [ended]
    table.match.over = True
    won = match_result_text(table, MatchEnded([0], [0, 40], ended_by, [1]))
    assert html_problems(won) == []
    assert won.startswith("🏆 <b>Bob wins!</b>\n")
    assert round_says in won
    assert match_says not in won
    # told without its round, the match's end says how
    table.round_events = []
    assert match_says in match_result_text(table, MatchEnded([0], [0, 40], ended_by, [1]))


@pytest.mark.parametrize(
    ("lang", "pairs", "said"),
    [
        ("en", False, "✂️ Bob wins 25 or more while Zoë & <Co> holds the points: every score"),
        ("ru", False, "✂️ Bob выигрывает 25 и больше, а очки пишет Zoë & <Co>: всё списано."),
        ("uk", False, "✂️ Bob виграє 25 і більше, а очки пише Zoë & <Co>: усе списано."),
        ("en", True, "✂️ Bob and Ivan win 25 or more while Zoë & <Co> and Olya hold the points"),
        ("ru", True, "✂️ Bob и Ivan выигрывают 25 и больше, а очки пишут Zoë & <Co> и Olya"),
        ("uk", True, "✂️ Bob і Ivan виграють 25 і більше, а очки пишуть Zoë & <Co> і Olya"),
    ],
)
def test_a_sea_goat_write_off_names_the_winner_and_the_holder(
    lang: str, pairs: bool, said: str
) -> None:
    """A win of 25 or more against the holder writes every score off (RULES.md §3.2.1 rule 4):
    "another side won" meant nothing to players who each play alone."""
    names = [NAUGHTY, "Bob", "Olya", "Ivan"] if pairs else [NAUGHTY, "Bob", "Olya"]
    table = table_of(names, pairs=pairs, lang=lang, rules=PRESETS["sea_goat"]())
    sides = 2 if pairs else 3
    ended = RoundEnded(
        round=4,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(6, 4), Tile(5, 3)], [], [Tile(6, 6)], [Tile(1, 2)]][: len(names)],
        hand_values=[18, 0, 50][:sides],
        amounts=[-40, 0, 0][:sides],
        scores=[0] * sides,
        outcome="writeoff",
        sea=SeaState().to_dict(),
    )
    text = round_result_text(table, ended)
    assert html_problems(text) == []
    assert said in html.unescape(text)
    assert "side" not in text and "сторон" not in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "✂️ Bob wins 31 (25 or more) while Zoë & <Co> holds the points: every score is"),
        ("ru", "✂️ Bob выигрывает 31 — это 25 и больше, а очки пишет Zoë & <Co>: всё списано."),
        ("uk", "✂️ Bob виграє 31 — це 25 і більше, а очки пише Zoë & <Co>: усе списано."),
    ],
)
def test_a_sea_goat_write_off_says_what_the_winner_won(lang: str, said: str) -> None:
    """ "✂️ Bob wins 25 or more" left the amount, the others' 18 and 13, to be added up from the
    lines below (RULES.md §3.2.1 rule 4)."""
    table = table_of([NAUGHTY, "Bob", "Olya"], lang=lang, rules=PRESETS["sea_goat"]())
    ended = RoundEnded(
        round=1,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(6, 4), Tile(5, 3)], [], [Tile(5, 5), Tile(0, 3)]],
        hand_values=[18, 0, 13],
        amounts=[-40, 0, 0],
        scores=[0, 0, 0],
        outcome="writeoff",
        sea=SeaState().to_dict(),
    )
    assert said in html.unescape(round_result_text(table, ended))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_what_sea_goat_says_of_itself_speaks_of_players_not_sides(lang: str) -> None:
    """The chooser's line, /rules' summary and every option's words of Sea Goat, which two or
    three play each alone as often as two pairs: "only one side may hold points", "that side is
    the sea goat" spoke of sides a player alone does not have."""
    said = [game_line(lang, "sea_goat"), *every_line(lang, "sea_goat")]
    for name in SeaGoat.settable:
        said += [describe(lang, name, value, "sea_goat") for value in choices(name, "sea_goat")]
    assert not [line for line in said if "side" in line or "сторон" in line]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "a lone 0-0 counts 25, a lone 6-6 50, and 0-0 with 6-6 alone 75."),
        ("ru", "одинокий 0-0 — 25, одинокий 6-6 — 50, а 0-0 и 6-6 вдвоём — 75."),
        ("uk", "самотній 0-0 — 25, самотній 6-6 — 50, а 0-0 і 6-6 удвох — 75."),
    ],
)
def test_sea_goats_rules_say_what_0_0_and_6_6_left_together_count(lang: str, said: str) -> None:
    """RULES.md §3.2.1 rule 2: a hand of 0-0 and 6-6 counts 75. /rules said only the lone ones,
    and a result's "[0|0][6|6] → 75 in hand" looked like a mistake for 12."""
    assert said in usual_summary(lang, "sea_goat")


def sea_round(amounts: list[int]) -> RoundEnded:
    """Bob went out of a Sea Goat round with 23 left in the other hand."""
    return RoundEnded(
        round=2,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(1, 2), Tile(4, 6), Tile(3, 5), Tile(1, 1)], []],
        hand_values=[23, 0],
        amounts=amounts,
        scores=[0, sum(amounts)],
        sea=SeaState().to_dict(),
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "📝 23 is under 25: nothing is recorded."),
        ("ru", "📝 23 — меньше 25: не записывается."),
        ("uk", "📝 23 — менше 25: не записується."),
    ],
)
def test_a_sea_goat_win_too_small_to_record_says_why_it_scores_nothing(
    lang: str, said: str
) -> None:
    text = round_result_text(sea_table([0, 0], lang=lang), sea_round([0, 0]))
    assert html_problems(text) == []
    assert said in text
    # the holder adds any amount (§3.2.1 rule 4): nothing to explain then
    held = round_result_text(sea_table([0, 40], lang=lang), sea_round([0, 23]))
    assert "📝 23" not in held


@pytest.mark.parametrize(
    ("outcome", "held", "noted"),
    [
        ("fish_lost", 0, True),
        ("fish_writeoff", 30, False),
        ("instant_win", 0, False),
    ],
)
def test_the_25_note_comes_exactly_where_the_minimum_applied(
    outcome: str, held: int, noted: bool
) -> None:
    """§3.2.1 rules 3-4 apply to every win the engine records, the round whose win ends a
    fisherman's three attempts ("fish lost", §3.2.4) too, where the note was missing; not to
    the fisherman's win that writes the fish off, nor to a match won on a finish (§3.2.2)."""
    ended = dataclasses.replace(sea_round([-held, 0]), scores=[0, 0], outcome=outcome)
    text = round_result_text(sea_table([held, 0]), ended)
    assert html_problems(text) == []
    assert ("📝 23 is under 25: nothing is recorded." in text) == noted


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "💯 Bob plays <b>na sto</b> (“for a hundred”): winning this round wins the match, "
            "losing it writes every score off",
        ),
        (
            "ru",
            "💯 Bob играет <b>на сто</b>: выиграет раунд — выиграет матч, проиграет — всё "
            "списывается",
        ),
        ("uk", "💯 Bob грає <b>на сто</b>: виграє раунд — виграє матч, програє — усе списується"),
    ],
)
def test_the_board_says_who_plays_na_sto_in_words_the_player_reads(lang: str, said: str) -> None:
    """The English board wrote "plays <b>на сто</b>" in Cyrillic, and nothing said what it
    stakes; Russian and Ukrainian keep the name players know, and say what it stakes too:
    "Bob играет на сто" alone told a newcomer nothing."""
    table = sea_table([40, 0], lang=lang)
    assert table.match is not None and table.match.round is not None
    leader = table.match.round.leader
    table = sea_table([40, 0] if leader == 0 else [0, 40], na_sto=leader, lang=lang)
    text = board_text(table)
    assert html_problems(text) == []
    assert html.unescape(said.replace("Bob", table.seats[leader].name)) in html.unescape(text)


@pytest.mark.parametrize(
    ("lang", "board", "result"),
    [
        (
            "en",
            "losing it with 25 or more in hand loses the match, with less writes every score off",
            "💯 The round played <b>na sto</b> (“for a hundred”) is lost with 25 or more in hand: "
            "the match is lost.",
        ),
        (
            "ru",
            "проиграет с 25 и больше на руках — проиграет матч, с меньшим — всё списывается",
            "💯 Раунд <b>на сто</b> проигран с 25 и больше на руках: матч проигран.",
        ),
        (
            "uk",
            "програє з 25 і більше на руках — програє матч, з меншим — усе списується",
            "💯 Раунд <b>на сто</b> програно з 25 і більше на руках: матч програно.",
        ),
    ],
)
def test_na_sto_lost_with_25_in_hand_under_svoyak_loses_the_match_and_says_so(
    lang: str, board: str, result: str
) -> None:
    """Under ``sg_na_sto = svoyak`` (RULES.md §3.2.1 rule 7) a "на сто" lost with 25 or more in
    hand loses the match, and the scores stay: the result said "every score is written off"
    beside scores that were not, and the board staked only the scores."""
    table = sea_table([40, 0], lang=lang)
    assert table.match is not None and table.match.round is not None
    table.match.rules = table.match.rules.with_options(sg_na_sto="svoyak")
    leader = table.match.round.leader
    table.match.tally = dataclasses.replace(
        table.match.tally,
        scores=(40, 0) if leader == 0 else (0, 40),
        sea=SeaState(na_sto=leader),
    )
    assert board in board_text(table)
    ended = RoundEnded(
        round=3,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(6, 4), Tile(5, 3), Tile(2, 2)], []],
        hand_values=[22, 0],
        amounts=[0, 0],
        scores=[40, 0],
        outcome="na_sto_lost",
        sea=SeaState(winners=(1,), losers=(0,), ended_by="na_sto").to_dict(),
    )
    text = round_result_text(table, ended)
    assert html_problems(text) == []
    assert html.unescape(result) in html.unescape(text)
    assert "→" not in text


def test_a_sea_goat_match_won_on_any_two_doubles_says_so() -> None:
    table = sea_table([0, 40])
    ended = RoundEnded(
        round=3,
        result="out",
        winner=0,
        fisherman=None,
        hands=[[], [Tile(4, 5), Tile(0, 6), Tile(2, 6), Tile(0, 2)]],
        hand_values=[0, 25],
        amounts=[0, 0],
        scores=[0, 40],
        outcome="two_doubles",
    )
    text = round_result_text(table, ended)
    assert html_problems(text) == []
    assert "⚡ Out on two doubles together: the match is won at once!" in text
    assert "0-0 or 6-6" not in text
    won = match_result_text(table, MatchEnded([1], [0, 40], "two_doubles", [0]))
    assert html_problems(won) == []
    assert "<b>Zoë &amp; &lt;Co&gt; wins!</b>\n⚡ Won by going out on two doubles together." in won


@pytest.mark.parametrize("ended_by", ["instant_win", "na_sto"])
def test_a_sea_goat_match_won_by_the_side_with_fewer_points_lists_it_first(
    ended_by: MatchEndedBy,
) -> None:
    """Going out on 0-0 or winning na sto wins the match whatever the scores (RULES.md §3.2.1
    rule 7, §3.2.2): the final score put Bob's 40 above the 0 of the winner just named."""
    table = sea_table([0, 40], lang="ru")
    won = html.unescape(match_result_text(table, MatchEnded([1], [0, 40], ended_by, [0])))
    assert won.startswith("🏆 <b>Zoë & <Co> побеждает!</b>")
    assert "<b>Итоговый счёт:</b>\nZoë & <Co>: 0\nBob: 40\n" in won


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "⚡ Out on [0|0]: the match is won at once!"),
        ("ru", "⚡ Выход на [0|0]: матч выигран сразу!"),
        ("uk", "⚡ Вихід на [0|0]: матч виграно одразу!"),
    ],
)
def test_a_sea_goat_match_won_on_0_0_names_the_tile_it_went_out_on(lang: str, said: str) -> None:
    """Going out on 0-0 wins the match at once (RULES.md §3.2.2): "Out on 0-0 or 6-6" under
    "Bob went out!" read as if the bot did not know which of the two he laid."""
    table = sea_table([0, 40], lang=lang)
    assert table.match is not None
    ended = bob_went_out("instant_win")
    out = Played(round=5, seat=1, tile=Tile(0, 0), end="left", ends=[0, 3])
    table.round_events = [out, ended]
    table.match.over = True
    won = match_result_text(table, MatchEnded([0], [0, 40], "instant_win", [1]))
    assert html_problems(won) == []
    assert said in won
    assert "6-6" not in won


def pairs_table(game: str) -> Table:
    return table_of([NAUGHTY, "Bob", "Olya", "Ivan"], pairs=True, rules=PRESETS[game]())


def test_each_game_has_its_title_and_its_own_score_lines() -> None:
    traditional = board_text(table_of([NAUGHTY, "Bob"], rules=PRESETS["traditional"]()))
    assert traditional.startswith("🎲 <b>Traditional</b> · round 1 · to 100")
    assert "Zoë &amp; &lt;Co&gt;: <b>0</b> of 100" in traditional
    sport = board_text(pairs_table("sport"))
    assert sport.startswith("🎲 <b>Sport Domino</b> · deal 1 of 8")
    generals = board_text(pairs_table("generals_goat"))
    assert generals.startswith("🎲 <b>General's Goat</b> · round 1 · lost rounds to lose: 2")
    assert "Zoë &amp; &lt;Co&gt; and Olya: lost <b>0</b> of 2 · 🎖 Generals: 0" in generals
    for text in (traditional, sport, generals):
        assert html_problems(text) == [] and "<Co>" not in text


@pytest.mark.parametrize(("lang", "word"), [("en", "and"), ("ru", "и"), ("uk", "і")])
def test_a_pair_is_named_with_a_word_that_a_name_holding_an_ampersand_leaves_readable(
    lang: str, word: str
) -> None:
    """ "Zoë & <Co> & Olya" read as three players, or as one: a pair is named with the
    language's "and" on the board, in the results and the standings, at the deal and in the
    lobby; the name shows as typed."""
    table = table_of([NAUGHTY, "Bob", "Olya", "Ivan"], pairs=True, lang=lang)
    for seat in table.seats:  # the pairs as the lobby chose them: seats 1 and 3 against 2 and 4
        seat.side = seat.seat % 2
    pair = f"Zoë &amp; &lt;Co&gt; {word} Olya"
    assert table.match is not None
    ended = MatchEnded([1], [0, 101], "goat")
    said = {
        "board": board_text(table),
        "standings": match_text(table, lang),
        "result": match_result_text(table, ended),
        "deal": teams_text(table),
        "lobby": Html("\n".join(seated(table))),
    }
    for where, text in said.items():
        assert html_problems(text) == [], where
        assert "<Co>" not in text and " &amp; Olya" not in text, where
    for where in ("board", "standings", "result"):
        assert f"{pair}: " in said[where], where
    assert f"Bob {word} Ivan" in said["result"]
    assert f"1. Zoë &amp; &lt;Co&gt; {word} 3. Olya" in said["deal"]
    assert f"1. Zoë &amp; &lt;Co&gt; {word} 3. Olya" in said["lobby"]


def bob_loses(round: int, general: bool) -> RoundEnded:
    """A round of General's Goat that the first seat went out of, lost by Bob (seat 1)."""
    return RoundEnded(
        round=round,
        result="out",
        winner=0,
        fisherman=None,
        hands=[[], [Tile(6, 4)], [Tile(1, 2)], [Tile(3, 3)]],
        hand_values=[3, 16],
        amounts=[0, 1],
        scores=[0, 1],
        loser=1,
        general=general,
    )


def test_a_general_hung_is_told_with_the_round_and_ends_the_match() -> None:
    table = pairs_table("generals_goat")
    ended = bob_loses(2, general=True)
    text = html.unescape(round_result_text(table, ended))
    assert "Bob loses the round." in text
    assert "in hand" not in text and "+1" not in text  # no points: the round lost says it
    assert "🎖 <b>A General</b> is hung on Bob and Ivan!" in text
    over = html.unescape(match_result_text(table, MatchEnded([1], [0, 1], "general", [0])))
    assert over.startswith(f"🏆 <b>{NAUGHTY} and Olya win!</b>\n🎖 A General was hung")
    # no points here: the team that lost fewer rounds comes first
    assert over.index(f"{NAUGHTY} and Olya: lost <b>0</b> of 2 · 🎖 Generals: 0") < over.index(
        "Bob and Ivan: lost <b>1</b> of 2 · 🎖 Generals: 1"
    )
    # told with the round that hung it, the General is said once, by the round
    assert table.match is not None
    table.round_events, table.match.over = [ended], True
    told = html.unescape(match_result_text(table, MatchEnded([1], [0, 1], "general", [0])))
    assert told.count("🎖 <b>A General</b> is hung on Bob and Ivan!") == 1
    assert "A General was hung" not in told
    # a round that says nothing of the match's end leaves the match's line to say it
    table.round_events = [bob_loses(2, general=False)]
    told = html.unescape(match_result_text(table, MatchEnded([1], [0, 2], "losses", [0])))
    assert "Bob and Ivan have lost 2 rounds, the most a team may: the match is over." in told


def test_a_round_result_told_late_shows_the_generals_of_its_own_round() -> None:
    """A result told after the match went on (a restart, the group's budget) shows the lost
    rounds and Generals its round left: round 1's showed the General hung in round 2."""
    table = pairs_table("generals_goat")
    match = table.match
    assert match is not None
    match.tally = dataclasses.replace(match.tally, scores=(0, 2))
    match.winners, match.losers, match.ended_by = [0], [1], "general"
    text = html.unescape(round_result_text(table, bob_loses(1, general=False)))
    assert "Bob and Ivan: lost <b>1</b> of 2 · 🎖 Generals: 0" in text


def test_a_general_hung_on_the_team_that_lost_fewer_rounds_still_wins_the_other() -> None:
    table = pairs_table("generals_goat")
    match = table.match
    assert match is not None
    match.tally = dataclasses.replace(match.tally, scores=(1, 0))
    match.winners, match.losers, match.ended_by = [0], [1], "general"
    assert [r.outcome for r in results(table)] == ["won", "lost", "won", "lost"]


def test_a_sport_match_with_equal_points_is_a_draw_for_everyone() -> None:
    table = pairs_table("sport")
    match = table.match
    assert match is not None
    match.tally = dataclasses.replace(match.tally, scores=(40, 40))
    match.winners, match.losers, match.ended_by = [], [], "draw"
    assert [r.outcome for r in results(table)] == ["draw"] * 4


def test_standings_say_what_ends_each_match() -> None:
    """/standings' head: Sport domino's deals (not Kozel's goat limit, which it has not) and
    General's Goat's lost rounds, the others' target; and the rounds played as a count, which
    read "1 rounds played" after the first."""

    def head(table: Table) -> str:
        assert table.match is not None
        return headline("en", "standings.head", table.match, rounds=3)

    assert head(pairs_table("sport")).endswith("Sport Domino</b> · deals played: 3 of 8")
    assert head(pairs_table("generals_goat")).endswith(
        " · rounds played: 3 · lost rounds to lose: 2"
    )
    traditional = table_of([NAUGHTY, "Bob"], rules=PRESETS["traditional"]())
    assert head(traditional).endswith("Traditional</b> · rounds played: 3 · to 100")
    kozel = table_of([NAUGHTY, "Bob"])
    assert head(kozel).endswith("Kozel</b> · rounds played: 3 · to 101")
    assert kozel.match is not None
    first = headline("en", "standings.head", kozel.match, rounds=1)
    assert first.endswith("Kozel</b> · rounds played: 1 · to 101")


def test_a_sport_draw_is_told_as_equal_points_after_the_deals() -> None:
    table = pairs_table("sport")
    over = html.unescape(match_result_text(table, MatchEnded([], [40, 40], "draw", [])))
    assert over.startswith("🤝 <b>A draw:</b> equal points after all the deals.")
    assert "target" not in over


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_ukrainian_telephone_is_named_apart_from_the_target_it_is_played_to(lang: str) -> None:
    """Its name once carried "(to 225)", so its board said the target twice, and a table playing
    it to 300 read "Telephone (to 225) · to 300"."""
    table = table_of(["Ann", "Bob"], rules=PRESETS["telephone_ua"]().with_options(target=300))
    assert table.match is not None
    head = html.unescape(headline(lang, "board.title", table.match, round=1))
    assert "300" in head
    assert "225" not in head


def holder_leading(holds_66: bool, lang: str = "en") -> tuple[Table, int]:
    """A later round of Sea Goat, led freely by the seat whose side holds the points, with 6-6
    in hand or not; and the leader's seat."""
    first = sea_table([0, 0])
    assert first.match is not None and first.match.round is not None
    leader = first.match.round.leader
    table = sea_table([40, 0] if leader == 0 else [0, 40], lang=lang)
    assert table.match is not None and table.match.round is not None
    rnd = table.match.round
    rnd.lead_tiles = None
    six_six, hand = Tile(6, 6), rnd.hands[leader]
    if holds_66 != (six_six in hand):  # trade 6-6 into the hand, or out of it to the bazaar
        other = (
            next(h for h in [*rnd.hands, rnd.bazaar] if six_six in h) if holds_66 else rnd.bazaar
        )
        mine, theirs = (hand[0], six_six) if holds_66 else (six_six, other[0])
        hand[hand.index(mine)], other[other.index(theirs)] = theirs, mine
    return table, leader


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "💯 Lead [6|6] and you play na sto (“for a hundred”): win this round and you win"),
        ("ru", "💯 Зайдёшь с [6|6] — играешь на сто: выиграешь раунд — выиграешь матч"),
        ("uk", "💯 Зайдеш з [6|6] — граєш на сто: виграєш раунд — виграєш матч"),
    ],
)
def test_the_holder_leading_with_6_6_in_hand_is_told_it_plays_na_sto(lang: str, said: str) -> None:
    """Leading 6-6 stakes the whole match (RULES.md §3.2.1 rule 7), but the holder's hand said
    only "Lead any tile.": the board told the group once it was led."""
    table, leader = holder_leading(True, lang)
    text, _ = live_hand(table, dataclasses.replace(table.seats[leader], language=lang))
    assert html_problems(text) == []
    assert said in html.unescape(text).replace("<b>", "").replace("</b>", "")
    # not the holder without 6-6 in hand, nor anyone while nobody holds points
    table, leader = holder_leading(False)
    assert "na sto" not in live_hand(table, table.seats[leader])[0]
    table, leader = holder_leading(True)
    assert table.match is not None
    table.match.tally = dataclasses.replace(table.match.tally, scores=(0, 0))
    assert "na sto" not in live_hand(table, table.seats[leader])[0]
