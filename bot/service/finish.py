"""Recording a match that ended: each player's score, the goats, the winners, the rating."""

from __future__ import annotations

import logging

from engine.scoring.rating import rating_delta, timeout_rating_delta
from storage import EndedBy, PlayerResult, Storage

from ..table import Table
from .store import TableStore

log = logging.getLogger(__name__)


class Finisher:
    def __init__(self, storage: Storage, store: TableStore) -> None:
        self.storage = storage
        self.store = store

    async def record(self, table: Table) -> None:
        """Record the result of the table's match, which is over, and close the table."""
        match = table.match
        assert match is not None and match.is_over
        ended: EndedBy = "timeout" if match.ended_by == "timeout" else "goat"
        await self.storage.record_match(table.id, ended, match.rounds_played, results(table))
        table.row = await self.storage.get_table(table.id) or table.row
        self.store.forget(table.id)
        log.info(
            "match ended",
            extra={
                "table": table.id,
                "chat": table.chat_id,
                "ended_by": ended,
                "rounds": match.rounds_played,
                "scores": match.tally.scores,
                "goats": match.losers,
            },
        )

    async def record_unrecorded(self, table: Table) -> None:
        """Record the result of a match whose end was committed but not recorded, because the
        bot stopped in between (``Play`` commits, then records)."""
        assert table.status == "playing"
        await self.record(table)


def results(table: Table) -> list[PlayerResult]:
    """Each seat's result of the table's match, which is over."""
    match = table.match
    assert match is not None
    scores = match.tally.scores
    best = min(scores)
    rated = rated_against(table)
    found = []
    for seat in table.seats:
        side = match.side_of(seat.seat)
        score = scores[side]
        if match.ended_by != "timeout":
            delta = rating_delta(score)
        elif rated is None or seat.seat in rated[1]:
            delta = 0
        else:
            delta = timeout_rating_delta(scores[match.side_of(rated[0])], score)
        found.append(
            PlayerResult(
                user_id=seat.user_id,
                seat=seat.seat,
                side=side,
                score=score,
                outcome=("lost" if side in match.losers else "won" if score == best else "none"),
                rating_delta=delta,
            )
        )
    return found


def rated_against(table: Table) -> tuple[int, set[int]] | None:
    """RULES.md §2.11: everyone who dropped out by timeout gets no rating; the others are rated
    against the score of the player whose timeout ended the match (``abandon``, marked away or
    not: an idle match closed by the expiry sweep has nobody marked away). Returns that seat and
    the seats that dropped out, or None when nobody did."""
    dropped = {s.seat for s in table.seats if s.absent and s.is_human}
    last = table.timed_out_seat
    if last is None and dropped:
        last = min(dropped)
    if last is None:
        return None
    return last, dropped | {last}
