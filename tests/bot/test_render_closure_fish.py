"""A fish the closure test calls (RULES.md §1.9: both ends 2 and every other 2 down) while [2|2]
is still in a hand says why nobody may lay it: "🐟 fish! Alex closed the game." alone left the
player holding [2|2], which fits both ends, feeling cheated."""

from __future__ import annotations

import dataclasses
import html

import pytest

from bot.render.ending import ending_line
from bot.render.results import round_result_text
from bot.table import Table
from engine import Play
from engine.events import RoundEnded
from engine.rules import PRESETS
from tests.bot.tables import table_of
from tests.bot.test_render_results import lightest_wins_fish
from tests.engine.support import position, t
from tests.engine.test_kozel_examples import K6_CHAIN

NAMES = ["Masha", "Alex", "Olya", "Serg"]


def closed_by_olya(lang: str, on_table: bool = False) -> tuple[Table, RoundEnded]:
    """Olya lays [5|2], closing the line on 2s; [2|2] is in Masha's hand, or ``on_table``."""
    table = table_of(NAMES, lang=lang)
    match = table.match
    assert match is not None
    chain = K6_CHAIN[:-1]
    if on_table:
        chain = ["2-4", "4-1", "1-2", "2-2", "2-6", "6-0", "0-2", "2-3", "3-5"]
    hands = ["1-1" if on_table else "2-2 1-1", "3-3", "2-5 6-6", "4-4"]
    position(match, hands=hands, chain=chain, turn=2)
    [ended] = [e for e in match.act(2, Play(t("5-2"), "right")) if isinstance(e, RoundEnded)]
    table.round_ends = [ended]
    return table, ended


@pytest.mark.parametrize(
    ("lang", "head", "why", "heaviest"),
    [
        (
            "en",
            "🐟 Round 2: fish! Olya closed the game.",
            "All the 2s but [2|2] are down: the game is closed, and [2|2] cannot be played.",
            "Olya has the heaviest hand and takes all 32 points.",
        ),
        (
            "ru",
            "🐟 Раунд 2: рыба! Рыбак — Olya.",
            "Все камни, где есть 2, кроме [2|2], уже на столе: игра закрыта, [2|2] уже не"
            " поставить.",
            "Все очки (32) записываются тому, у кого больше всех на руках: Olya.",
        ),
        (
            "uk",
            "🐟 Раунд 2: риба! Рибак — Olya.",
            "Усі камені, де є 2, крім [2|2], уже на столі: гру закрито, [2|2] уже не поставити.",
            "Усі очки (32) записуються тому, у кого найбільше на руках: Olya.",
        ),
    ],
)
def test_a_closure_fish_with_the_double_in_a_hand_says_why(
    lang: str, head: str, why: str, heaviest: str
) -> None:
    """The reason comes with how the round ended, before who takes the points (``fish_mode =
    for_one``, the DEFAULT) and the hands."""
    table, ended = closed_by_olya(lang)
    lines = plain(round_result_text(table, ended)).splitlines()
    assert lines[:5] == [head, why, heaviest, "", "Masha: [2|2][1|1]"]


@pytest.mark.parametrize(
    ("lang", "over", "details"),
    [
        ("en", "🏁 Round 2 is over: fish!", "The group has the details."),
        ("ru", "🏁 Раунд 2 окончен: рыба!", "Подробности — в группе."),
        ("uk", "🏁 Раунд 2 закінчено: риба!", "Подробиці — у групі."),
    ],
)
def test_the_holder_of_the_closed_double_reads_why_in_his_dm(
    lang: str, over: str, details: str
) -> None:
    """Masha's hand message still shows [2|2], which fits both ends, under "fish!": the group's
    reason comes there too. The others hold no 2 and read the short line."""
    table, ended = closed_by_olya(lang)
    why = plain(round_result_text(table, ended)).splitlines()[1]
    masha, alex = (dataclasses.replace(table.seats[s], language=lang) for s in (0, 1))
    assert plain(ending_line(table, masha, ended)) == f"{over} {why} {details}"
    assert plain(ending_line(table, alex, ended)) == f"{over} {details}"


def test_a_closure_fish_with_the_double_down_needs_no_reason() -> None:
    """Every 2 is on the table: nobody holds one, and "fish!" says it all."""
    table, ended = closed_by_olya("en", on_table=True)
    lines = plain(round_result_text(table, ended)).splitlines()
    assert lines[:4] == [
        "🐟 Round 2: fish! Olya closed the game.",
        "Olya has the heaviest hand and takes all 28 points.",
        "",
        "Masha: [1|1]",
    ]


def test_a_sea_goat_closure_fish_says_why_before_whose_hand_was_lightest() -> None:
    table = table_of(["Маша", "Лёша"], rules=PRESETS["sea_goat"]())
    fish = dataclasses.replace(lightest_wins_fish(), closure_suit=4)
    lines = plain(round_result_text(table, fish)).splitlines()
    assert lines[:3] == [
        "🐟 Round 4: fish! Лёша closed the game.",
        "All the 4s but [4|4] are down: the game is closed, and [4|4] cannot be played.",
        "Лёша has the lightest hand and takes the round.",
    ]


def plain(text: str) -> str:
    return html.unescape(text.replace("<b>", "").replace("</b>", ""))
