"""What a player's last hand message in the DM says when a round ends, as the game numbers its
rounds (RULES.md §3.10)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render.ending import ending_line
from engine.events import RoundEnded
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
