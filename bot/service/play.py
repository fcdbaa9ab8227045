"""Play: the deal, a person's move, the computer's move, and what follows with no choice.

Events are committed (appended to the table's log) before anyone is told about them.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

from engine import DRAW, KNOCK, Action, Event, Match, Play, Reopen
from engine.ai import PLAYERS
from engine.events import RoundEnded
from engine.seats import opposite, side_of
from storage import Storage

from ..table import Seat, Table
from .errors import Refusal
from .finish import Finisher
from .store import TableStore
from .thinking import Thinker

log = logging.getLogger(__name__)


class Player:
    def __init__(
        self,
        storage: Storage,
        store: TableStore,
        finisher: Finisher,
        rng: random.Random,
        thinker: Thinker,
    ) -> None:
        self.storage = storage
        self.store = store
        self.finisher = finisher
        self.rng = rng  # deals; the computer players' decisions are seeded by the match
        self.thinker = thinker

    async def start(self, table: Table) -> list[Event]:
        """Deal. Someone must be there to play: computers alone would play to the goat in
        the group, and be recorded, with nobody watching."""
        if table.status != "lobby":
            raise Refusal("err.already_started")
        if not any(seat.is_human for seat in table.seats):
            raise Refusal("err.nobody_seated")
        if len(table.seats) < table.players:
            raise Refusal("err.not_enough_players", count=len(table.seats), wanted=table.players)
        if table.pairs:
            await self._sit_opposite(table)
        match, events = Match.new(
            table.players, table.pairs, table.rules, self.rng.randrange(2**31)
        )
        table.match = match
        table.written(await self.storage.update_table(table.id, status="playing"))
        events += self._automatic(table)
        await self.commit(table, events)
        log.info(
            "match started",
            extra={"table": table.id, "chat": table.chat_id, "players": table.players},
        )
        return events

    async def _sit_opposite(self, table: Table) -> None:
        """The pairs chosen in the lobby sit down as the engine seats them, partners opposite
        (``engine.seats``), each pair in the order it sat down: the board, the hands, /kick's
        numbers and the results then name the pairs people chose."""
        pairs = [table.pair(side) for side in (0, 1)]
        order = [(seat.seat, side_of(n, pairs=True)) for n, seat in enumerate(opposite(pairs))]
        await self.store.arrange_seats(table, order)

    async def act(self, table: Table, seat: Seat, action: Action) -> list[Event]:
        """A person's action, then whatever follows with no choice (drawing, knocking)."""
        events = self._act(table, seat.seat, action)
        await self.commit(table, events)
        return events

    async def computer_move(self, table: Table, *, timed_out: bool = False) -> list[Event]:
        """The computer plays the current seat: a computer player at its own level, or at the
        table's, a person who is away or (``timed_out``) whose time ran out. It knows what the
        seat saw of the round: the others' knocks and draws. A turn that ran out it plays to its
        end: reopening a double (Donkey, §3.3) does not end a turn, and the person was told the
        computer played for him."""
        match = table.match
        if match is None or match.is_over:
            return []
        seat = table.seats[match.current_seat or 0]
        if not (seat.computer_plays or timed_out):
            return []
        level = seat.ai if seat.ai in PLAYERS else table.computer_level
        events: list[Event] = []
        while True:
            action = await self.thinker.choose(level, match, seat.seat, table.round_events)
            step = self._act(table, seat.seat, action)
            await self.commit(table, step)
            events += step
            if not (timed_out and isinstance(action, Reopen) and match.current_seat == seat.seat):
                return events

    def _act(self, table: Table, seat: int, action: Action) -> list[Event]:
        """Act, then follow with what needs no choice; keeps a round that ended for its board."""
        match = table.match
        assert match is not None
        before, tally = match.round, match.tally
        events = match.act(seat, action)
        events += self._automatic(table)
        if before is not None and before.outcome is not None:
            table.round_finished(before, tally, events)
        return events

    async def automatic(self, table: Table) -> list[Event]:
        """What needs no choice, committed: a lead the bot stopped before placing, once the
        round was dealt (a table in play as it restarts)."""
        events = self._automatic(table)
        if events:
            await self.commit(table, events)
        return events

    def _automatic(self, table: Table) -> list[Event]:
        """Lead, draw and knock for a person when the rules leave no choice (the lead a game
        places, ``Match.placed_lead``, §3.8; §1.5, §2.4): not while he may reopen a double he
        closed (Donkey's ``donkey_reopen``, §3.3), which comes first."""
        match = table.match
        assert match is not None
        events: list[Event] = []
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            if table.seats[seat].computer_plays:
                break
            lead = match.placed_lead()
            if lead is not None:
                events += match.act(seat, lead)
                continue
            actions = match.legal_actions(seat)
            if any(isinstance(a, Play | Reopen) for a in actions):
                break
            events += match.act(seat, DRAW if DRAW in actions else KNOCK)
        return events

    async def commit(self, table: Table, events: Sequence[Event]) -> None:
        """Append ``events`` to the table's log; a match they end is recorded."""
        await self.store.append(table, events)
        for event in events:
            if isinstance(event, RoundEnded):
                log.info(
                    "round ended",
                    extra={
                        "table": table.id,
                        "round": event.round,
                        "result": event.result,
                        "scores": event.scores,
                    },
                )
        if table.match is not None and table.match.is_over:
            await self.finisher.record(table)
