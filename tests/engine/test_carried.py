"""The standing a match carries into a round, asked of the round ends before it
(``Match.carried_into``, which the bot asks of the ends it keeps): at every deal of every game
it is the match's own, which ``Match`` folds round end by round end (Kozel's memory, opening
and eggs, Sea Goat's state, the scores)."""

from __future__ import annotations

import random

import pytest

from engine import Match
from engine.ai import random_player
from engine.events import RoundEnded, RoundStarted
from engine.games import GAMES
from engine.rules import PRESETS


def shape(game: str) -> tuple[int, bool]:
    """A table ``game`` is played at: four in pairs where it may be, else the fewest players."""
    for players, pairs in ((4, True), (2, False), (3, False), (4, False)):
        try:
            GAMES[game].check_table(players, pairs)
        except ValueError:
            continue
        return players, pairs
    raise AssertionError(f"{game} is played at no table")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_standing_carried_into_each_round_is_the_match_s_at_its_deal(game: str) -> None:
    for seed in range(3):
        players, pairs = shape(game)
        match, _ = Match.new(players, pairs, PRESETS[game](), seed=seed)
        rng, ends = random.Random(seed), list[RoundEnded]()
        assert match.carried_into(1, ends) == match.tally
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            for event in match.act(seat, random_player(match, seat, rng)):
                if isinstance(event, RoundEnded):
                    ends.append(event)
                elif isinstance(event, RoundStarted):
                    assert match.carried_into(event.round, ends) == match.tally
        assert len(ends) >= 2  # a deal after a round's end was checked


def test_no_standing_is_carried_where_the_rounds_before_are_missing() -> None:
    match, _ = Match.new(2)
    assert match.carried_into(3, []) is None
