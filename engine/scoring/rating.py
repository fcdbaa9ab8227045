"""The online rating formula (RULES.md §2.11, 000_7076521a207d37f7.txt §ONL)."""

from __future__ import annotations


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator/denominator`` rounded half away from zero, in exact integer arithmetic."""
    sign = -1 if (numerator < 0) != (denominator < 0) else 1
    n, d = abs(numerator), abs(denominator)
    return sign * ((2 * n + d) // (2 * d))


def rating_delta(score: int) -> int:
    """A match that ended normally: (100 − S)/10, rounded half away from zero (S = 25 → +8)."""
    return round_half_up(100 - score, 10)


def timeout_rating_delta(timed_out_score: int, score: int) -> int:
    """A match ended by a player's timeout: the others get max(1, (T − S)/10); he gets nothing."""
    return max(1, round_half_up(timed_out_score - score, 10))
