"""The computer players (engine/ai.py) choose among legal moves for the reasons they give."""

from __future__ import annotations

import random

from engine import Match, Play, RuleSet
from engine.ai import greedy_player

from .support import position, t


def test_greedy_keeps_an_end_its_hand_can_follow() -> None:
    # Ends 3 and 5. Laying 5-6 on the 5 leaves 3 and 6, which only 3-4 follows; laying 3-4 on the 3
    # leaves 4 and 5, which all four other tiles follow, so that outweighs 5-6's heavier pips.
    match = Match(2, False, RuleSet(), seed=1)
    position(match, hands=["5-6 3-4 0-5 1-5 2-5", "0-0"], chain=["3-5"], turn=0)
    assert greedy_player(match, 0, random.Random(0)) == Play(t("3-4"))
