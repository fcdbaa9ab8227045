"""The computer players (engine/ai.py) choose among legal moves for the reasons they give."""

from __future__ import annotations

import random

import pytest

from engine import Match, Play, RuleSet
from engine.ai import greedy_player
from engine.rules import PRESETS

from .support import position, t


def test_greedy_keeps_an_end_its_hand_can_follow() -> None:
    # Ends 3 and 5. Laying 5-6 on the 5 leaves 3 and 6, which only 3-4 follows; laying 3-4 on the 3
    # leaves 4 and 5, which all four other tiles follow, so that outweighs 5-6's heavier pips.
    match = Match(2, False, RuleSet(), seed=1)
    position(match, hands=["5-6 3-4 0-5 1-5 2-5", "0-0"], chain=["3-5"], turn=0)
    assert greedy_player(match, 0, random.Random(0)) == Play(t("3-4"))


@pytest.mark.parametrize(("game", "best"), [("kozel", "5-6"), ("traditional", "2-3")])
def test_greedy_keeps_a_follower_above_weight_where_the_round_is_a_race_to_go_out(
    game: str, best: str
) -> None:
    # Ends 3 and 5. 5-6 on the 5 sheds 11 pips and leaves 3 and 6, which only 2-3 follows; 2-3 on
    # the 3 sheds 5 and leaves 2 and 5, which all three other tiles follow. Kozel counts the pips
    # left against their holder; Traditional's winner goes out first and collects the others'.
    match = Match(2, False, PRESETS[game](), seed=1)
    position(match, hands=["5-6 2-3 0-2 1-2", "0-0"], chain=["3-5"], turn=0)
    assert greedy_player(match, 0, random.Random(0)) == Play(t(best))
