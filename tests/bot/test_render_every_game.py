"""Every game the engine plays is shown in every language: its board, hands, round results, match
result (its own end and a timeout), /standings, /top and /stats. The texts each game needs are
chosen by what the game says of itself (``engine.games.base.Game``), so a game added to
``GAMES`` that lacks an attribute or a text fails here, not in a group."""

from __future__ import annotations

import random
from datetime import UTC

import pytest

from bot.games import TABLE_SHAPES, fits
from bot.i18n import LANGUAGES, Html
from bot.render.board import board_text
from bot.render.hand import live_hand, record_text
from bot.render.results import match_result_text, round_result_text
from bot.render.standings import match_text, top_text
from bot.render.standings import record_text as stats_text
from bot.service.finish import results
from bot.service.store import latest_round
from bot.table import Table
from engine.ai import greedy_player
from engine.events import MatchEnded, RoundEnded, RoundStarted
from engine.games import GAMES
from engine.rules import PRESETS
from storage import GameRecord, Outcome, RecentMatch, StandingRow, UserRecord
from tests.bot.tables import table_of
from tests.bot.test_locales import html_problems

NAMES = ["Masha", "Alex", "Olya", "Serg"]
OUTCOMES: tuple[Outcome, ...] = ("won", "draw", "lost", "none")


def table_for(game: str) -> Table:
    """A new match of ``game`` at the fullest table it is played by (two pairs where it may)."""
    players, pairs = [shape for shape in TABLE_SHAPES if fits(game, *shape)][-1]
    return table_of(NAMES[:players], pairs=pairs, rules=PRESETS[game]())


def shown(table: Table) -> list[Html]:
    """What the group and the player on turn see of the round in play, in every language."""
    match = table.match
    assert match is not None and match.current_seat is not None
    seat = table.seats[match.current_seat]
    texts = []
    for lang in LANGUAGES:
        table.language = seat.language = lang
        texts += [board_text(table), match_text(table, lang), live_hand(table, seat)[0]]
        texts.append(record_text(table, seat, ""))
    return texts


def ended(table: Table, event: RoundEnded | MatchEnded) -> list[Html]:
    """A round's or the match's result, in every language."""
    texts = []
    for lang in LANGUAGES:
        table.language = lang
        if isinstance(event, RoundEnded):
            texts.append(round_result_text(table, event))
        else:
            texts.append(match_result_text(table, event))
    return texts


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_of_every_game_is_shown_in_every_language(game: str) -> None:
    """Computer players play a match to its end; each round's start, result and the match's end
    are rendered as the bot sends them, and the seats are rated."""
    table = table_for(game)
    match = table.match
    assert match is not None
    rng = random.Random(1)
    texts, rounds = shown(table), 0
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        events = match.act(seat, greedy_player(match, seat, rng))
        table.round_events = latest_round([*table.round_events, *events])  # as the store does
        for event in events:
            if isinstance(event, RoundEnded):
                table.round_ends.append(event)  # as the table store keeps them
            if isinstance(event, RoundEnded | MatchEnded):
                texts += ended(table, event)
                rounds += isinstance(event, RoundEnded)
            elif isinstance(event, RoundStarted) and not match.is_over:
                texts += shown(table)
    assert rounds > 0 and len(results(table)) == table.players
    assert [problem for text in texts for problem in html_problems(text)] == []


@pytest.mark.parametrize("game", GAMES)
def test_a_match_of_every_game_ended_by_a_timeout_is_shown(game: str) -> None:
    table = table_for(game)
    assert table.match is not None
    [abandoned] = table.match.abandon(0)
    assert isinstance(abandoned, MatchEnded)
    for text in ended(table, abandoned):
        assert html_problems(text) == []
    assert len(results(table)) == table.players


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_its_standings_and_records(lang: str, game: str) -> None:
    """/top of the game, empty and with a player, and /stats of a player who won, drew and lost
    it."""
    row = StandingRow(1, 100, "Masha", 3, 1, 1, 1, 2.5, 7)
    texts = [
        top_text(lang, game, [], page=0, total=0, size=10),
        top_text(lang, game, [row], page=0, total=1, size=10),
    ]
    record = GameRecord(game, 3, 1, 1, 1, 2.5, 7, 1)
    recent = [
        RecentMatch(i, -1, "Yard", game, 0.0, "target", 12, outcome, 0)
        for i, outcome in enumerate(OUTCOMES)
    ]
    texts.append(stats_text(lang, UserRecord(100, "Masha", 3, 1, (record,)), recent, UTC))
    assert [problem for text in texts for problem in html_problems(text)] == []
