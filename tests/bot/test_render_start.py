"""The message that opens a match: who plays in which order, and why the first player leads."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest

from bot.render.board import teams_text
from bot.table import Table
from engine import Match, RuleSet
from engine.leads import lot
from engine.rules import PRESETS
from engine.tiles import Tile, rank
from tests.bot.tables import table_of

NAMES = ["Masha", "Zoë & <Co>", "Petya"]


def drawn(seed: int, players: int) -> list[str]:
    return [f"[{tile.a}|{tile.b}]" for tile in lot(seed, players)]


@pytest.mark.parametrize("game", ["muggins", "all_threes", "english_fives"])
def test_a_lot_for_the_first_lead_is_shown_with_who_drew_what(game: str) -> None:
    """Muggins' first player is chosen by lot (RULES.md §3.6): the group saw the order of play
    and someone other than the first seat lead, and nothing said why."""
    table = table_of(NAMES, rules=PRESETS[game]())
    assert table.match is not None
    tiles = lot(table.match.seed, 3)
    leader = min(range(3), key=lambda seat: rank(tiles[seat]))
    assert table.match.round is not None and table.match.round.turn == leader
    text = teams_text(table)
    shown = drawn(table.match.seed, 3)
    assert "🎲 Drawn by lot: Masha " + shown[0] + " · Zoë &amp; &lt;Co&gt; " + shown[1] in text
    name = html.escape(NAMES[leader], quote=False)
    assert f"The lowest tile leads: <b>{name}</b> begins." in text


def test_a_heaviest_lot_says_so_in_russian() -> None:
    rules = PRESETS["traditional"]().with_options(trad_lead="lot_heaviest")
    table = table_of(NAMES, lang="ru", rules=rules)
    assert table.match is not None
    tiles = lot(table.match.seed, 3)
    leader = max(range(3), key=lambda seat: rank(tiles[seat]))
    assert table.match.round is not None and table.match.round.turn == leader
    text = teams_text(table)
    assert "🎲 Жребий: Masha " + drawn(table.match.seed, 3)[0] in text
    assert "Начинает тот, кто вытянул самый тяжёлый камень" in text


@pytest.mark.parametrize("game", ["kozel", "traditional", "telephone", "bulgarian_fives"])
def test_no_lot_no_word_of_it(game: str) -> None:
    table = table_of(NAMES[:2], rules=PRESETS[game]())
    assert "🎲" not in teams_text(table)


def test_two_pairs_hear_the_lot_too() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Petya"], pairs=True, rules=PRESETS["muggins"]())
    text = teams_text(table)
    assert text.startswith("🤝 Pairs: ")
    assert "\n🎲 Drawn by lot: Masha " in text


def table_with_lot(lang: str, rules: RuleSet, wanted: Callable[[list[Tile]], bool]) -> Table:
    """A table of three whose match's lot (the first seed from 1 up that deals one) is
    ``wanted``."""
    seed = next(seed for seed in range(1, 10_000) if wanted(lot(seed, 3)))
    table = table_of(["Masha", "Alex", "Petya"], lang=lang, rules=rules)
    table.match, _ = Match.new(3, False, rules, seed=seed)
    return table


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A double ranks above any tile that is not a double."),
        ("ru", "Дубль старше любого камня, который не дубль."),
        ("uk", "Дубль старший за будь-який камінь, що не є дублем."),
    ],
)
def test_a_lot_won_against_a_lighter_double_says_doubles_rank_higher(lang: str, said: str) -> None:
    """ "The lowest tile leads: Masha begins" beside Alex's [0|0] read as the bot's mistake: a
    double ranks above every other tile (RULES.md §1.2), and the lot now says so, only where
    that decided it."""
    muggins = PRESETS["muggins"]()
    table = table_with_lot(lang, muggins, lambda tiles: Tile(0, 0) in tiles and Tile(0, 1) in tiles)
    assert said in teams_text(table)
    table = table_with_lot(lang, muggins, lambda tiles: not any(t.is_double for t in tiles))
    assert said not in teams_text(table)
    heaviest = PRESETS["traditional"]().with_options(trad_lead="lot_heaviest")
    table = table_with_lot(
        lang, heaviest, lambda tiles: Tile(0, 0) in tiles and Tile(5, 6) in tiles
    )
    assert said in teams_text(table)
