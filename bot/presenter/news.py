"""What happened lately, noted from the events for the board's list of recent moves and for
each person's next live hand."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine import Event, Placement
from engine.events import Drew, Knocked, Played, PlayedDoubles, Reopened, RoundStarted

from ..render.tiles import laid
from ..table import RECENT, Recent, Table


def follow(table: Table, events: Sequence[Event]) -> None:
    """Note what ``events`` did. Done before any call to Telegram, so a failed call loses none
    of it. The list keeps all of this batch, however long: one tap can set off many draws and
    knocks, and the tap itself must still show."""
    added = 0
    for event in events:
        if isinstance(event, RoundStarted):
            for seat in table.seats:
                seat.drawn.clear()
                seat.knocks = 0
        elif isinstance(event, Played | PlayedDoubles):
            mover = table.seats[event.seat]
            mover.drawn.clear()
            mover.knocks = 0
            points = event.scored or 0
            played = Recent("played", event.seat, event.round, laid=laid(event), points=points)
            table.recent.append(played)
            added += 1
        elif isinstance(event, Reopened):
            table.recent.append(
                Recent("reopened", event.seat, event.round, laid=(Placement(event.tile),))
            )
            added += 1
        elif isinstance(event, Knocked):
            table.seats[event.seat].knocks += 1
            table.recent.append(Recent("knocked", event.seat, event.round))
            added += 1
        elif isinstance(event, Drew):
            table.seats[event.seat].drawn.append(event.tile)
            drew = Recent("drew", event.seat, event.round, count=1)
            last = table.recent[-1] if table.recent else None
            if last is not None and last == dataclasses.replace(drew, count=last.count):
                table.recent[-1] = dataclasses.replace(last, count=last.count + 1)
            else:
                table.recent.append(drew)
                added += 1
    del table.recent[: -max(RECENT, added)]


def recall(table: Table, events: Sequence[Event]) -> None:
    """After a restart, note again what the round's ``events`` did, one by one, so that the
    board keeps the latest few moves as it did."""
    for event in events:
        follow(table, [event])
