"""The computer players play every scoring game (RULES.md §3.4-§3.9), and greedy takes the points
a move scores into account."""

from __future__ import annotations

import random

import pytest

from engine import Lay, Match, Play
from engine.ai import PLAYERS, greedy_player
from engine.events import Knocked, MatchEnded, PlayedDoubles, RoundStarted
from engine.games import GAMES
from engine.games.target import TargetGame
from engine.layout import End
from engine.rules import PRESETS
from engine.search import StrongPlayer
from engine.seat_view import SeatView
from engine.selfplay import current_round, play_match

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


def test_greedy_puts_several_doubles_down_when_that_scores_most() -> None:
    # The TEL-1 house (ends 3 and 6, 5 on an arm): 6-6 alone makes S = 20 (4 points), with the
    # 5-5 on the arm's 5 as well S = 25 (5 points).
    match = scoring_table("telephone", multi_double=4)
    house: list[tuple[str, End]] = [("4-4", "left"), ("4-6", "right"), ("3-4", "left")]
    layout_position(match, hands=["6-6 5-5 0-1", "4-5 2-3"], lays=house, turn=1)
    match.act(1, Play(t("4-5"), "up"))
    choice = greedy_player(match, 0, random.Random(0))
    assert isinstance(choice, Lay)
    assert {(p.tile, p.end) for p in choice.placements} == {(t("6-6"), "right"), (t("5-5"), "up")}


def test_a_seat_still_reads_the_knocks_after_several_doubles_went_down() -> None:
    """``SeatView`` follows a move of several doubles: a later knock still tells what the
    knocker lacks (before, such a move made the view forget the whole round)."""
    rules = PRESETS["telephone"]().with_options(multi_double=4)
    for seed in range(200):
        match, events = Match.new(2, False, rules, seed)
        rng = random.Random(seed)
        doubles = False
        while (seat := match.current_seat) is not None:
            made = match.act(seat, PLAYERS["random"](match, seat, rng))
            events = current_round(events + made)
            doubles = doubles or any(isinstance(e, PlayedDoubles) for e in made)
            if doubles and isinstance(made[0], Knocked) and len(made) == 1:
                view = SeatView.of(match, 1 - made[0].seat, events)
                assert any(view.slots[made[0].seat]), view.slots
                return
            if any(isinstance(e, RoundStarted) for e in made):
                doubles = False
    pytest.fail("no knock after several doubles in 200 matches")
