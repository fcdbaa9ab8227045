"""The computer players play every scoring game (RULES.md §3.4-§3.9), and greedy takes the points
a move scores into account."""

from __future__ import annotations

import random

import pytest

from engine import Match, Play
from engine.ai import PLAYERS, greedy_player
from engine.events import MatchEnded
from engine.games import GAMES
from engine.games.target import TargetGame
from engine.rules import PRESETS
from engine.search import StrongPlayer
from engine.selfplay import play_match

from .support import layout_position, scoring_table, t

SCORING_GAMES = [name for name, game in GAMES.items() if isinstance(game, TargetGame)]


def test_greedy_takes_the_move_that_scores_most() -> None:
    # Ends 1 and 6. 5-6 on the 6 is the heavier tile but leaves 1 + 5 = 6; 1-4 on the 1 leaves
    # 4 + 6 = 10, which scores. In Kozel greedy sheds the 5-6 from the same hand.
    match = scoring_table("muggins")
    layout_position(match, hands=["5-6 1-4", "0-0"], lays=[("1-6", "left")], turn=0)
    assert greedy_player(match, 0, random.Random(0)) == Play(t("1-4"))
    kozel = Match(2, False, PRESETS["kozel"](), seed=1)
    layout_position(kozel, hands=["5-6 1-4", "0-0"], lays=[("1-6", "left")], turn=0)
    assert greedy_player(kozel, 0, random.Random(0)) == Play(t("5-6"))


@pytest.mark.parametrize("game", SCORING_GAMES)
def test_every_computer_player_plays_every_scoring_game(game: str) -> None:
    players = 2
    rules = PRESETS[game]().with_options(target=40 if game != "muggins" else 100)
    kinds = {**PLAYERS, "strong": StrongPlayer(playouts=6)}
    for names in (("random", "greedy"), ("easy", "strong")):
        ai = [kinds[name] for name in names]
        *_, ended = play_match(players, False, rules, 5, ai)
        assert isinstance(ended, MatchEnded) and ended.winners is not None
        assert ended.ended_by == ("target" if ended.winners else "draw")
