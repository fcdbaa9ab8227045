"""A match a player's timeout ends (``Match.abandon``; RULES.md §2.11 rates it): his side loses,
and in every game whose own end names winners (``Game.names_winners``) the other sides win, as
they would at that end; Kozel and Donkey name only the side that timed out, as they name only
their goat or donkey."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Match, replay
from engine.ai import greedy_player
from engine.events import MatchEnded
from engine.games import GAMES
from engine.rules import PRESETS
from engine.selfplay import play_match

from .support import dicts

#: The games whose match ends by naming its winners: the scoring games and Sea Goat at their
#: target, General's Goat by lost rounds or a General (§3.10), Sport domino after its deals (§3.11).
NAME_WINNERS = frozenset(
    (
        "telephone",
        "telephone_ua",
        "muggins",
        "all_threes",
        "bulgarian_fives",
        "english_fives",
        "sea_goat",
        "traditional",
        "generals_goat",
        "sport",
    )
)
#: The games whose match ends by naming only its loser: Kozel's goat (§2.9), Donkey's donkey.
NAME_LOSERS = frozenset(("kozel", "donkey"))
SHAPES = [(2, False), (3, False), (4, False), (4, True)]


def tables(game: str) -> list[tuple[int, bool]]:
    """The shapes of table ``game`` is played at."""
    found = []
    for players, pairs in SHAPES:
        try:
            GAMES[game].check_table(players, pairs)
        except ValueError:
            continue
        found.append((players, pairs))
    return found


def under_way(game: str, players: int, pairs: bool, moves: int = 12) -> tuple[Match, list[Any]]:
    """A match of ``game`` a few greedy moves in."""
    match, events = Match.new(players, pairs, PRESETS[game](), seed=4)
    rng = random.Random(4)
    for _ in range(moves):
        seat = match.current_seat
        assert seat is not None
        events += match.act(seat, greedy_player(match, seat, rng))
    return match, events


def test_every_game_is_among_those_that_name_winners_or_only_losers() -> None:
    assert set(GAMES) == NAME_WINNERS | NAME_LOSERS and not NAME_WINNERS & NAME_LOSERS
    assert {name for name, game in GAMES.items() if game.names_winners} == NAME_WINNERS


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_timeout_names_the_other_sides_winners_where_the_games_own_end_names_winners(
    game: str,
) -> None:
    """Before, only the games won at a target named them: a Sport domino or General's Goat match
    cut short by a timeout had no winner, where one played to its end has one."""
    for players, pairs in tables(game):
        for seat in range(players):
            match, events = under_way(game, players, pairs)
            lost = match.side_of(seat)
            scores = list(match.tally.scores)
            ended = dicts(match.abandon(seat))
            expected: dict[str, Any] = {
                "type": "match_ended",
                "losers": [lost],
                "scores": scores,
                "ended_by": "timeout",
            }
            if game in NAME_WINNERS:
                expected["winners"] = [side for side in range(match.sides) if side != lost]
            # Kozel's and Donkey's event is as it always was: no winners written at all
            assert ended == [expected], (players, pairs, seat)
            assert match.losers == [lost] and match.winners == expected.get("winners", [])
            assert replay([*dicts(events), *ended]).to_json() == match.to_json()


@pytest.mark.parametrize("game", ["sport", "generals_goat"])
def test_the_pair_that_did_not_time_out_wins_even_when_it_was_behind(game: str) -> None:
    """Sport domino's fewer points, General's Goat's fewer lost rounds: the pair ahead loses the
    match once one of its players times out, as in the scoring games; the other pair wins it."""
    match, events = Match.new(4, True, PRESETS[game](), seed=2)
    rng = random.Random(2)
    while len(set(match.tally.scores)) == 1:  # until a round's end sets one pair ahead
        seat = match.current_seat
        assert seat is not None
        events += match.act(seat, greedy_player(match, seat, rng))
    assert not match.is_over
    ahead = match.tally.scores.index(min(match.tally.scores))  # fewer is better in both
    (ended,) = match.abandon(ahead)  # seat 0 or 1 is on side 0 or 1
    assert isinstance(ended, MatchEnded)
    assert (ended.losers, ended.winners) == ([ahead], [1 - ahead])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_own_end_names_winners_as_its_names_winners_says(game: str) -> None:
    """``Game.names_winners`` is what the game's own end does: its ``match_ended`` has
    ``winners`` (none after a draw) where it says so, and none at all where it does not."""
    players, pairs = tables(game)[-1]
    greedy = [greedy_player] * players
    *_, ended = play_match(players, pairs, PRESETS[game](), 1, greedy)
    assert isinstance(ended, MatchEnded) and ended.ended_by != "timeout"
    assert (ended.winners is not None) == GAMES[game].names_winners
