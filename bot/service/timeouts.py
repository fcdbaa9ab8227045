"""Time: turn deadlines, a turn that ran out, players away, tables nobody plays any more."""

from __future__ import annotations

import time
from typing import Literal

from engine import Event
from storage import Storage, TableRow

from ..settings import Settings
from ..table import Seat, Table
from .play import Player
from .store import TableStore

Expiry = Literal["lobby", "idle"]


class Timeouts:
    def __init__(
        self, storage: Storage, settings: Settings, store: TableStore, player: Player
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.store = store
        self.player = player
        #: When this bot started: the time it was down does not count towards a table's idleness,
        #: so a bot back from maintenance does not close every table at its first sweep.
        self.awake_since = time.time()

    async def set_deadline(self, table: Table, deadline: float | None) -> None:
        if table.turn_deadline != deadline:
            table.written(await self.storage.update_table(table.id, turn_deadline=deadline))

    async def timeout(self, table: Table, seat: Seat) -> list[Event]:
        """The turn's time ran out: the computer plays it; too many in a row and the player is
        marked away, so the computer keeps the seat until they tap again. When every person at
        the table is away, nobody is playing any more: the match ends by timeout."""
        seat.missed_turns += 1
        seat.absent = seat.missed_turns >= self.settings.missed_turns_absent
        await self.storage.update_seat(
            table.id, seat.seat, missed_turns=seat.missed_turns, absent=seat.absent
        )
        if table.everyone_away:
            return await self.abandon(table, seat)
        return await self.player.computer_move(table, timed_out=True)

    async def computer_turn(self, table: Table) -> list[Event]:
        """The computer plays a turn nobody takes in person (a computer player's, or an away
        person's); unless nobody at the table plays in person any more, and the match ends."""
        return await self.nobody_plays(table) or await self.player.computer_move(table)

    async def nobody_plays(self, table: Table) -> list[Event]:
        """End the match by timeout when every person at it is away (``Table.everyone_away``);
        returns its events, or none while someone still plays."""
        match = table.match
        people = table.people
        if match is None or match.is_over or not people or not table.everyone_away:
            return []
        return await self.abandon(table, people[0])

    async def abandon(self, table: Table, seat: Seat) -> list[Event]:
        """End the match because ``seat`` stopped playing (RULES.md §2.11 timeout rating)."""
        match = table.match
        assert match is not None
        table.timed_out_seat = seat.seat
        events = match.abandon(seat.seat)
        await self.player.commit(table, events)
        return events

    async def expired(self, now: float) -> list[tuple[Table, Expiry]]:
        """Tables nobody started or nobody plays any more (while the bot was up), with why; not a
        damaged one (``TableStore.loadable``)."""
        rows = await self.storage.list_tables()
        due = {row.table_id: why for row in rows if (why := self.expiry(row, now)) is not None}
        tables = await self.store.loadable(row for row in rows if row.table_id in due)
        return [(table, due[table.id]) for table in tables]

    def expiry(self, row: TableRow, now: float) -> Expiry | None:
        """Why the table of ``row`` is closed at ``now``, if it is."""
        idle = now - max(row.updated_at, self.awake_since)
        if row.status == "lobby" and idle > self.settings.lobby_expiry_minutes * 60:
            return "lobby"
        if row.status == "playing" and idle > self.settings.idle_expiry_minutes * 60:
            return "idle"
        return None

    async def played_in_person(self, table: Table, seat: Seat) -> None:
        """A tap from the player: they are here, whatever the timer said before."""
        if seat.missed_turns or seat.absent:
            await self.set_absent(table, seat, False)

    async def set_absent(self, table: Table, seat: Seat, absent: bool) -> None:
        """An absent player's turns are played by the computer until they tap again."""
        seat.absent = absent
        seat.missed_turns = 0
        await self.storage.update_seat(table.id, seat.seat, absent=absent, missed_turns=0)
