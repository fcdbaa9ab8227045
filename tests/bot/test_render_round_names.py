"""A round is named alike on the group's board, in its results and in each player's DMs: Sport
domino's "deal 3 of 8", and General's Goat's rounds counted without the fish dealt again."""

from __future__ import annotations

import dataclasses
import html

import pytest

from bot.render.board import board_text
from bot.render.hand import live_hand, record_text
from bot.render.results import round_result_text
from bot.render.standings import match_text
from bot.table import Table
from engine import Tile
from engine.events import RoundEnded
from engine.rules import PRESETS
from engine.scoring.tally import Tally
from tests.bot.tables import table_of

NAMES = ["Masha", "Alex", "Olya", "Serg"]


def plain(text: str) -> str:
    return html.unescape(text.replace("<b>", "").replace("</b>", ""))


def pairs_of(game: str, lang: str) -> Table:
    """Four people of ``lang`` in two pairs at a new match of ``game``."""
    table = table_of(NAMES, pairs=True, lang=lang, rules=PRESETS[game]())
    for seat in table.seats:
        seat.language = lang
    return table


def on_turn(table: Table) -> str:
    """The live hand of the player on turn (the DM that asks for a tile)."""
    match = table.match
    assert match is not None and match.current_seat is not None
    return plain(live_hand(table, table.seats[match.current_seat])[0])


@pytest.mark.parametrize(
    ("lang", "board", "turn", "hand"),
    [
        ("en", "deal 1 of 8", "🎯 Your turn · deal 1 of 8", "Deal 1 of 8 · your hand: "),
        ("ru", "раздача 1 из 8", "🎯 Твой ход · раздача 1 из 8", "Раздача 1 из 8 · твои камни: "),
        ("uk", "роздача 1 з 8", "🎯 Твій хід · роздача 1 з 8", "Роздача 1 з 8 · твої камені: "),
    ],
)
def test_sport_domino_dms_name_the_deal_as_the_group_does(
    lang: str, board: str, turn: str, hand: str
) -> None:
    """The group's board said "deal 1 of 8" while the DMs said "round 1"."""
    table = pairs_of("sport", lang)
    assert f" · {board}" in plain(board_text(table)).splitlines()[0]
    assert on_turn(table).startswith(turn)
    assert plain(record_text(table, table.seats[0], "")).startswith(hand)


def generals_round(number: int, lost: list[int], *, fish: bool) -> RoundEnded:
    """General's Goat's ``round_ended`` of the engine's round ``number``: a fish (dealt again),
    or Serg going out and Masha losing it; ``lost``: each team's lost rounds after it."""
    hands = [[Tile(1, 2)], [Tile(3, 4)], [Tile(0, 5)], [] if not fish else [Tile(2, 6)]]
    return RoundEnded(
        round=number,
        result="fish" if fish else "out",
        winner=None if fish else 3,
        fisherman=3 if fish else None,
        hands=hands,
        hand_values=[4, 7],
        amounts=[0, 0] if fish else [1, 0],
        scores=lost,
        outcome="redealt" if fish else None,
        loser=None if fish else 0,
        general=None if fish else False,
    )


#: How each language says "round 2" on the board, in the DMs (the hand on turn, a hand
#: between turns) and in /standings' "rounds played".
ROUND_WORDS = {
    "en": (" · round 2 · ", "🎯 Your turn · round 2", "Round {n}: ", "Round 2 · ", ": 1 · "),
    "ru": (" · раунд 2 · ", "🎯 Твой ход · раунд 2", "Раунд {n}: ", "Раунд 2 · ", ": 1 · "),
    "uk": (" · раунд 2 · ", "🎯 Твій хід · раунд 2", "Раунд {n}: ", "Раунд 2 · ", ": 1 · "),
}


@pytest.mark.parametrize("lang", sorted(ROUND_WORDS))
def test_generals_goat_deals_a_fish_again_under_the_same_round_number(lang: str) -> None:
    """A fish does not count in General's Goat (RULES.md §3.10): the group read "Round 1: fish!
    A fish does not count: the tiles are dealt again", then a board and a result of "round 2",
    and "round 3" for the second round that counted. The engine numbers the redeal next (its
    events keep that number); the players see the round dealt again under its own."""
    board, turn, result, hand, standings = ROUND_WORDS[lang]
    table = pairs_of("generals_goat", lang)
    match = table.match
    assert match is not None and match.round is not None
    fish = generals_round(1, [0, 0], fish=True)
    assert plain(round_result_text(table, fish)).startswith("🐟 " + result.format(n=1))
    counted = generals_round(2, [1, 0], fish=False)
    assert plain(round_result_text(table, counted)).startswith("🏁 " + result.format(n=1))
    # the engine's round 3 is the second that counts: 1-1 is the third deal
    match.rounds_played = 2
    match.round.number = 3
    match.tally = dataclasses.replace(Tally.fresh(2), scores=(1, 0))
    assert board in plain(board_text(table)).splitlines()[0]
    assert on_turn(table).startswith(turn)
    assert plain(record_text(table, table.seats[0], "")).startswith(hand)
    assert standings in plain(match_text(table, lang)).splitlines()[0]
