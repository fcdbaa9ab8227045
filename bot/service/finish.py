"""Recording a match that ended: each player's score, the goats, the winners, the rating."""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.events import MatchEndedBy
from engine.games import game_of
from engine.match import TIMEOUT
from engine.scoring.rating import (
    loss_rating_delta,
    rating_delta,
    rounds_rating_delta,
    timeout_rating_delta,
    win_rating_delta,
)
from storage import EndedBy, Outcome, PlayerResult, Storage

from ..games import SPECIAL_ENDS
from ..table import Table
from .store import TableStore

log = logging.getLogger(__name__)
#: How a match ended (``Match.ended_by``), as storage records it: a game's own ways of naming
#: its winners (Sea Goat's "на сто" and instant wins, General's Goat's General and lost rounds,
#: Sport domino's deals played) are won by the game's rule, as a target is; the exact way stays
#: in the event log.
ENDED_BY: dict[MatchEndedBy, EndedBy] = {
    "goat": "goat",
    "target": "target",
    "draw": "draw",
    TIMEOUT: "timeout",
    **dict.fromkeys(SPECIAL_ENDS, "target"),
}


class Finisher:
    def __init__(self, storage: Storage, store: TableStore) -> None:
        self.storage = storage
        self.store = store

    async def record(self, table: Table) -> None:
        """Record the result of the table's match, which is over, and close the table."""
        match = table.match
        assert match is not None and match.is_over
        ended = ENDED_BY[match.ended_by or "goat"]
        await self.storage.record_match(
            table.id, ended, match.rounds_counted, results(table), game=match.rules.game
        )
        table.written(await self.storage.get_table(table.id) or table.row)
        self.store.forget(table.id)
        log.info(
            "match ended",
            extra={
                "table": table.id,
                "chat": table.chat_id,
                "ended_by": ended,
                "rounds": match.rounds_counted,
                "scores": match.tally.scores,
                "goats": match.losers,
            },
        )

    async def record_unrecorded(self, table: Table) -> None:
        """Record the result of a match whose end was committed but not recorded, because the
        bot stopped in between (``Play`` commits, then records)."""
        assert table.status == "playing"
        await self.record(table)


#: How one seat of a match that is over did: from its seat, side and score, its outcome and
#: rating change.
Judge = Callable[[int, int, int], tuple[Outcome, int]]


def results(table: Table) -> list[PlayerResult]:
    """Each seat's result of the table's match, which is over."""
    match = table.match
    assert match is not None
    judge = target_judge(table) if game_of(match.rules).wins_at_target else kozel_judge(table)
    found = []
    for seat in table.seats:
        side = match.side_of(seat.seat)
        score = match.tally.scores[side]
        outcome, delta = judge(seat.seat, side, score)
        found.append(
            PlayerResult(
                user_id=seat.user_id,
                seat=seat.seat,
                side=side,
                score=score,
                outcome=outcome,
                rating_delta=delta,
            )
        )
    return found


def kozel_judge(table: Table) -> Judge:
    """Kozel (§2.11) and the games that count points against (Donkey, Sport domino, General's
    Goat's lost rounds): the goats lost, the lowest score or the named winners won, a draw is one;
    a rating for everyone, or after a timeout against the score of whoever timed out."""
    match = table.match
    assert match is not None
    scores = match.tally.scores
    best = min(scores)
    rated = table.dropped_out()

    def won(side: int, score: int) -> bool:
        """The sides the match names as winners (General's Goat, whose General may hang on the
        team that lost fewer rounds; Sport domino; in both the team that did not time out),
        else Kozel's lowest score."""
        return side in match.winners if match.winners else score == best

    def judge(seat: int, side: int, score: int) -> tuple[Outcome, int]:
        outcome: Outcome = "lost" if side in match.losers else "won" if won(side, score) else "none"
        if match.ended_by == "draw":
            outcome = "draw"
        if not match.game.keeps_points and match.ended_by != TIMEOUT:
            # its scores are the rounds each team lost (General's Goat), rated on them, not as
            # points, against the rounds a team may lose (``Game.limit``)
            limit = match.game.limit(match.rules)
            assert limit is not None
            return outcome, rounds_rating_delta(outcome == "won", score, scores[1 - side], limit)
        if match.ended_by != TIMEOUT:
            return outcome, rating_delta(score)
        if rated is None or seat in rated[1]:
            return outcome, 0
        return outcome, timeout_rating_delta(scores[match.side_of(rated[0])], score)

    return judge


def target_judge(table: Table) -> Judge:
    """A win-at-target match: its winners gain and its losers lose, by the margin against their
    rival in tenths of the target (``win_rating_delta``); a draw moves nobody; after a timeout
    the winners are rated against whoever timed out, who, like everyone who dropped out, gets
    nothing (as §2.11 does for Kozel)."""
    match = table.match
    assert match is not None
    scores, target = match.tally.scores, match.game.target(match.rules)
    rated = table.dropped_out() if match.ended_by == TIMEOUT else None
    dropped = set() if rated is None else rated[1]
    rival = max((scores[side] for side in match.losers), default=0)
    if rated is not None:
        rival = scores[match.side_of(rated[0])]
    best = max((scores[side] for side in match.winners), default=0)

    def judge(seat: int, side: int, score: int) -> tuple[Outcome, int]:
        if side in match.winners:
            outcome: Outcome = "won"
            delta = win_rating_delta(score, rival, target)
        elif side in match.losers:
            outcome, delta = "lost", loss_rating_delta(score, best, target)
        else:
            outcome, delta = "draw", 0
        return outcome, 0 if seat in dropped else delta

    return judge
