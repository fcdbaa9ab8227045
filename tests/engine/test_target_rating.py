"""The rating of the win-at-target games (``engine/scoring/rating.py``): a margin in tenths of
the target, a winner always up and a loser always down."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.scoring.rating import loss_rating_delta, win_rating_delta


def test_margins_in_tenths_of_the_target() -> None:
    assert (win_rating_delta(100, 60, 100), loss_rating_delta(60, 100, 100)) == (4, -4)
    assert win_rating_delta(74, 50, 72) == 3  # 240/72 = 3.33
    assert loss_rating_delta(10, 74, 72) == -9  # -640/72 = -8.9
    assert win_rating_delta(235, 100, 225) == 6  # 1350/225
    assert win_rating_delta(105, 40, 100) == 7  # 6.5 rounds half away from zero


def test_a_narrow_result_still_counts() -> None:
    assert (win_rating_delta(100, 99, 100), loss_rating_delta(99, 100, 100)) == (1, -1)
    assert win_rating_delta(5, 30, 100) == 1  # rated against a timed-out leader: at least 1


@given(st.integers(0, 400), st.integers(0, 400), st.sampled_from([72, 100, 200, 225, 250, 500]))
def test_winners_gain_and_losers_lose(score: int, other: int, target: int) -> None:
    assert win_rating_delta(score, other, target) >= 1
    assert loss_rating_delta(score, other, target) <= -1
    assert win_rating_delta(score, other, target) >= win_rating_delta(score, other + 1, target)
