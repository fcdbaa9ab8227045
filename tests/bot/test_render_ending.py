"""What a player's last hand message in the DM says when a round or the match ends, as the game
numbers its rounds (RULES.md §3.10), and as the group names its goats."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render.ending import ending_line
from bot.render.results import match_result_text
from engine.events import MatchEnded, RoundEnded
from engine.rules import PRESETS
from tests.bot.tables import table_of
from tests.bot.test_render_round_names import plain


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "🏁 Round 1 is over: fish! It does not count: the tiles are dealt again."),
        ("ru", "🏁 Раунд 1 окончен: рыба! Она не считается: пересдаём."),
        ("uk", "🏁 Раунд 1 закінчено: риба! Вона не рахується: перероздаємо."),
    ],
)
def test_a_fish_of_generals_goat_says_the_round_is_dealt_again(lang: str, said: str) -> None:
    """§3.10: a fish does not count, and the deal after it keeps its number. The hand said
    "Round 1 is over: fish!", and the next hand came as round 1 again."""
    names = ["Masha", "Alex", "Olya", "Petya"]
    table = table_of(names, pairs=True, lang=lang, rules=PRESETS["generals_goat"]())
    assert table.match is not None and table.match.round is not None
    fish = RoundEnded(
        round=1,
        result="fish",
        winner=None,
        fisherman=0,
        hands=table.match.round.hands,
        hand_values=[60, 50],
        amounts=[0, 0],
        scores=[0, 0],
        outcome="redealt",
    )
    seat = dataclasses.replace(table.seats[1], language=lang)
    assert plain(ending_line(table, seat, fish)).splitlines()[0].startswith(said)


@pytest.mark.parametrize(
    ("lang", "goats"),
    [
        ("en", "🐐 Zoë & <Co> and Olya are the goats!"),
        ("ru", "🐐 Zoë & <Co> и Olya — козлы!"),
        ("uk", "🐐 Zoë & <Co> і Olya — козли!"),
    ],
)
def test_two_goats_at_once_are_named_as_two_people(lang: str, goats: str) -> None:
    """Two players of three past the limit in one round: "Zoë & <Co>, Olya are the goats!",
    in the group and in the third player's DM, where a pair's names say "and"."""
    table = table_of(["Zoë & <Co>", "Alex", "Olya"], lang=lang)
    ended = MatchEnded(losers=[0, 2], scores=[104, 30, 101])
    assert plain(match_result_text(table, ended)).splitlines()[0] == goats
    seat = dataclasses.replace(table.seats[1], language=lang)
    assert f": {goats} " in plain(ending_line(table, seat, ended))
