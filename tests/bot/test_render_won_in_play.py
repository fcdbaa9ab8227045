"""A match won in the middle of a round, by a move that reached the target (RULES.md §1.11;
§3.4, §3.6-§3.9: the round is not finished): its end names that move, what it scored and the
score it reached, and shows what each player still held, which nobody collects. The group got
the winner and the final scores, and of the last round only the board's "+10"."""

from __future__ import annotations

import pytest

from bot.render.results import match_result_text
from bot.table import Table
from engine import Play
from engine.events import MatchEnded, RoundEnded
from engine.games import GAMES
from engine.games.target import TargetGame
from tests.bot.tables import table_of
from tests.bot.test_render_round_names import plain
from tests.engine.support import layout_position, scoring_table
from tests.engine.support import t as tile
from tests.engine.test_scoring_examples import P0, SIXES

#: The games a move can win in the middle of a round, and a tile that scores on the ends 6 and
#: 6 of ``SIXES``: [4|6] makes 10 (Telephone counts it as 2), [3|6] makes 9 in All Threes.
WINNING = {
    "muggins": "4-6",
    "all_threes": "3-6",
    "bulgarian_fives": "4-6",
    "english_fives": "4-6",
    "telephone": "4-6",
}
POINTS = {game: 10 for game in WINNING} | {"all_threes": 9, "telephone": 2}
BO = "3-5 2-2"


def won_by(game: str, al: str, lang: str = "en", *, behind: int = 1) -> tuple[Table, str]:
    """Al (seat 0), ``behind`` the target, plays the first tile of his hand ``al`` on the right
    end in the middle of round 2; Bo holds 3-5 and 2-2. The table as the bot keeps it (the
    round's events), and what the group is told of the match's end."""
    match = scoring_table(game)
    target = match.game.target(match.rules)
    layout_position(match, hands=[al, BO], lays=SIXES, turn=P0, scores=(target - behind, 7))
    events = match.act(P0, Play(tile(al[:3]), "right"))
    assert match.is_over
    table = table_of(["Al", "Bo"], lang=lang, rules=match.rules)
    table.match = match
    table.round_events = list(events)
    table.round_ends = [e for e in events if isinstance(e, RoundEnded)]
    ended = events[-1]
    assert isinstance(ended, MatchEnded)
    return table, plain(match_result_text(table, ended))


def test_every_game_a_move_can_win_in_the_middle_of_a_round_is_checked() -> None:
    ends_mid_round = {
        name for name, game in GAMES.items() if isinstance(game, TargetGame) and game.ends_mid_round
    }
    assert ends_mid_round == set(WINNING)


@pytest.mark.parametrize("game", WINNING)
def test_the_winning_move_its_points_and_the_hands_left_are_told(game: str) -> None:
    winning, kept = (WINNING[game], *({"4-6", "3-6"} - {WINNING[game]}))
    table, text = won_by(game, f"{winning} {kept} 1-2")
    assert table.match is not None
    target = table.match.game.target(table.match.rules)
    points = POINTS[game]
    played, left, reached = tile(winning), tile(kept), target - 1 + points
    assert text.splitlines()[:9] == [
        "🏆 Al wins!",
        f"🎯 Round 2 stops here: Al played [{played.a}|{played.b}] for +{points} → {reached} of"
        f" {target}. The hands left are not counted.",
        "",
        f"Al: [{left.a}|{left.b}][1|2]",
        "Bo: [3|5][2|2]",
        "",
        "Final score:",
        f"Al: {reached}",
        "Bo: 7",
    ]


@pytest.mark.parametrize(
    ("lang", "said", "out"),
    [
        (
            "ru",
            "🎯 Раунд 2 на этом заканчивается: Al кладёт [4|6] — +10 → 109 из 100. Оставшиеся"
            " на руках камни не считаются.",
            "🎯 Раунд 2 на этом заканчивается: Al кладёт [4|6] и выходит — +10 → 109 из 100."
            " Оставшиеся на руках камни не считаются.",
        ),
        (
            "uk",
            "🎯 Раунд 2 на цьому закінчується: Al кладе [4|6] — +10 → 109 з 100. Камені, що"
            " лишилися на руках, не рахуються.",
            "🎯 Раунд 2 на цьому закінчується: Al кладе [4|6] і виходить — +10 → 109 з 100."
            " Камені, що лишилися на руках, не рахуються.",
        ),
    ],
)
def test_the_winning_move_is_told_in_russian_and_ukrainian(lang: str, said: str, out: str) -> None:
    assert won_by("muggins", "4-6 1-2", lang)[1].splitlines()[1] == said
    assert won_by("muggins", "4-6", lang)[1].splitlines()[1] == out


def test_a_winning_move_that_empties_the_hand_is_told_once() -> None:
    """Al goes out with the move that wins: one line says both, and no round result (the
    hands are not counted: the target came first)."""
    _, text = won_by("english_fives", "4-6")
    lines = text.splitlines()
    assert lines[1] == (
        "🎯 Round 2 stops here: Al went out with [4|6] for +10 → 209 of 200. The hands left are"
        " not counted."
    )
    assert lines[3:5] == ["Al: —", "Bo: [3|5][2|2]"]
    assert text.count("went out") == 1 and text.count("[4|6]") == 1


def test_the_sheet_ends_with_the_round_the_move_won_in() -> None:
    """The round cut short is the sheet's last row, at the final scores: no round is missing
    between the last one counted and the match's end."""
    table, _ = won_by("muggins", "4-6 1-2")
    first = RoundEnded(
        round=1,
        result="out",
        winner=0,
        fisherman=None,
        hands=[[], [tile("3-5")]],
        hand_values=[0, 8],
        amounts=[2, 0],
        scores=[99, 7],
    )
    table.round_ends = [first]
    ended = table.round_events[-1]
    assert isinstance(ended, MatchEnded)
    text = plain(match_result_text(table, ended))
    assert text.splitlines()[-5:-2] == ["📝 Round by round: Al · Bo", "1. 99 · 7", "2. 109 · 7"]


def test_a_match_won_at_the_end_of_a_round_tells_no_winning_move() -> None:
    """Al goes out with [2|6], which scores nothing (ends 6 and 2), and the bonus for Bo's 12
    pips (2) reaches the target: the match's end tells that round as its result would (it gets
    none of its own), the bonus that won, not a winning move."""
    table, text = won_by("muggins", "2-6", behind=2)
    assert table.round_ends and "🎯" not in text
    assert text.splitlines()[:12] == [
        "🏆 Al wins!",
        "🏁 Round 2: Al went out!",
        "",
        "Al: —",
        "Bo: [3|5][2|2]",
        "",
        "Al: the opponent holds 12, rounded to 10, divided by 5 → +2",
        "Bo: 12 in hand → 0",
        "",
        "Final score:",
        "Al: 100",
        "Bo: 7",
    ]
