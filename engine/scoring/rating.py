"""The online rating formula (RULES.md §2.11, 000_7076521a207d37f7.txt §ONL)."""

from __future__ import annotations


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator/denominator`` rounded half away from zero, in exact integer arithmetic."""
    sign = -1 if (numerator < 0) != (denominator < 0) else 1
    n, d = abs(numerator), abs(denominator)
    return sign * ((2 * n + d) // (2 * d))


def rating_delta(score: int) -> int:
    """A match that ended normally: (100 − S)/10, rounded half away from zero (S = 25 → +8).
    S is the opened score, remembered points left out, and the goat (S > 100) is rated by the
    same formula, so loses points (§2.11, both FLAG)."""
    return round_half_up(100 - score, 10)


def timeout_rating_delta(timed_out_score: int, score: int) -> int:
    """A match ended by a player's timeout: the others get max(1, (T − S)/10); he gets nothing."""
    return max(1, round_half_up(timed_out_score - score, 10))


# The win-at-target games (§3.4-3.9): §2.11 rates Kozel only, where points are bad and everyone
# but the goat gains. Their rating is this project's decision, in §2.11's units: a side's lead
# or deficit against its rival, as tenths of the target (so a game to 72 and one to 225 weigh
# alike), rounded as §2.11 rounds; a winner always gains and a loser always loses at least 1.
# A draw moves nobody; a timeout is rated as in §2.11, against the score of whoever timed out.


def win_rating_delta(score: int, rival: int, target: int) -> int:
    """A winner of a win-at-target match: ``max(1, 10·(S − R)/target)``, where R is the best
    score among the losers (or, after a timeout, the score of the player who timed out)."""
    return max(1, round_half_up(10 * (score - rival), target))


def loss_rating_delta(score: int, winner: int, target: int) -> int:
    """A loser of a win-at-target match: ``min(−1, 10·(S − W)/target)``, W the winner's score."""
    return min(-1, round_half_up(10 * (score - winner), target))


def rounds_rating_delta(won: bool, own_lost: int, rival_lost: int, limit: int) -> int:
    """General's Goat, whose score is the rounds a team lost (§3.10): this project's decision,
    the margin in lost rounds as tenths of ``limit`` (``gg_losses``), as the scoring games rate
    theirs against the target. With the default 2: ±10 for 2-0, ±5 for 2-1, and ±1 at the least
    for a General hung on a team that had lost no more rounds."""
    if won:
        return win_rating_delta(rival_lost, own_lost, limit)
    return loss_rating_delta(rival_lost, own_lost, limit)
