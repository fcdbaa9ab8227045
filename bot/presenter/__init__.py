"""Showing what happened: the board in the group (``board``), each hand in its DM (``hands``),
results and other notices as messages of their own (``notices``), and the lobby message
(``lobby``).

An ordinary move costs at most three calls here (the mover's hand, the board, the next player's
hand) plus the answer to the tap: the mover's keyboard becomes a record of the hand, and the next
player gets a new message, because an edit would not notify them.

Everything shown is already committed, so nothing here may stop play: a failed show ends in
``resync``, and messages play does not depend on (notices, reminders) are dropped if refused.
The group's board and notices are queued in its outbox (``pacing``): no table waits for the
group's budget.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

from engine import Event
from engine.events import MatchEnded, RoundEnded
from engine.match import TIMEOUT

from ..i18n import Html
from ..sender import Gone, PlaceGone, Sender
from ..service import TableService
from ..table import Seat, Table
from .board import Board
from .hands import Hands, placed_lead
from .lobby import Lobby
from .news import follow
from .notices import Notices, optional

__all__ = ["Presenter", "optional"]
log = logging.getLogger(__name__)
#: What the players of a table hear in their DMs when it ended for want of a place.
_GONE_DM: dict[Gone, str] = {
    "closed": "topic.closed_dm",
    "deleted": "topic.deleted_dm",
    "removed": "group.removed_dm",
    "muted": "group.muted_dm",
}


def _ending(events: Sequence[Event]) -> RoundEnded | MatchEnded | None:
    """What the players' hands say ended: the match, else the latest round."""
    for kind in (MatchEnded, RoundEnded):
        found = [event for event in events if isinstance(event, kind)]
        if found:
            return found[-1]
    return None


class Presenter:
    def __init__(self, sender: Sender, service: TableService) -> None:
        self.service = service
        self.sender = sender
        self.notices = Notices(sender)
        self.board = Board(sender, service.messages)
        self.lobby = Lobby(sender, service.messages)
        self.hands = Hands(sender, service, self.notices)

    async def show(
        self,
        table: Table,
        events: Sequence[Event],
        *,
        starting: bool = False,
        timed_out: Seat | None = None,
    ) -> None:
        """Bring every message of the table up to date after ``events``, which are committed;
        ``timed_out`` is the seat the computer just played for, whose record must not say they
        played themselves. Never raises: if Telegram fails midway, ``resync`` puts the board
        and the hands right, so play goes on, and the results not yet announced are announced;
        unless the bot may no longer write where the table sits, and it is being ended
        instead."""
        notes = self.hands.notes(table, events, timed_out)
        follow(table, events)
        announced: list[Event] = []
        try:
            await self._show(table, events, notes, starting, announced)
        except PlaceGone:
            log.info("the table's place is gone", extra={"table": table.id})  # it is being ended
        except Exception:
            log.exception("showing a change failed; resyncing", extra={"table": table.id})
            await self.resync(table)
            self.notices.announce_missed(table, events, announced)
        if starting or any(isinstance(event, RoundEnded | MatchEnded) for event in events):
            self._mark_announced(table)  # the order of play too (``announce_unannounced``)

    async def _show(
        self,
        table: Table,
        events: Sequence[Event],
        notes: dict[int, Html],
        starting: bool,
        announced: list[Event],
    ) -> None:
        if starting:
            self.notices.teams(table)
        await self.hands.close_live(table, notes, _ending(events))
        new_round = starting
        for event in events:
            if isinstance(event, RoundEnded):
                self.board.final(table)
                self.notices.announce(table, event)
                announced.append(event)
                new_round = True
            elif isinstance(event, MatchEnded):
                assert table.match is not None
                if table.match.unfinished_round is not None:  # won by a move, or a timeout:
                    self.board.draw(table)  # its last move, and nobody on turn any more
                self.notices.announce(table, event)
                return
        self.board.draw(table, fresh=new_round)
        if new_round:
            await self.hands.deal(table, placed_lead(table, events))
        await self.hands.open_live(table)

    async def announce_unannounced(self, table: Table, before: Sequence[Event] = ()) -> None:
        """At start-up: the round results the bot committed but stopped before announcing,
        after the order of play of a match in play whose group was told nothing yet
        (``Table.announced_seq`` 0): the start queued it behind its lobby's edit, which waited
        out flood control as the bot stopped, and the group never learnt who plays when.
        ``before``: the results a ``show`` tells next (a match's last round and its goat),
        which it marks as announced once told; the others go first, in their rounds' order."""
        missed = [e for e in await self.service.store.unannounced(table) if e not in before]
        match = table.match
        untold = table.announced_seq == 0 and match is not None and not match.is_over
        if untold:
            self.notices.teams(table)
        if missed:
            self.notices.announce_missed(table, missed, [])
        if (untold or missed) and not before:
            self._mark_announced(table)

    def _mark_announced(self, table: Table) -> None:
        """Once the results queued so far have gone out; if the bot stops before, the next
        start-up announces them."""
        self.sender.after(table.chat_id, partial(self._store_announced, table, table.seq))

    async def _store_announced(self, table: Table, seq: int) -> None:
        try:
            await self.service.messages.mark_announced(table, seq)
        except Exception:  # the next start-up announces them again, which beats never
            log.exception("could not store that results were announced", extra={"table": table.id})

    async def resync(self, table: Table) -> None:
        """Bring the board and the hands up to the committed state, after a restart or a show
        that failed midway. Idempotent and cheap: messages are edited in place (an edit that
        changes nothing is "not modified", which the sender takes as done); a new message goes
        only where none is live, to whoever is on turn. Each part is tried on its own, so one
        refusal (the bot removed from the group) does not keep the next hand from its player."""
        if table.match is None or table.match.round is None:
            return
        opened = partial(self.hands.open_live, table, again=True)
        parts = (partial(self.hands.close_live, table, {}), opened)
        for part in parts:
            try:
                await part()
            except Exception:
                log.exception("resyncing a table failed", extra={"table": table.id})
        self.board.draw(table)  # queued: the outbox logs its own failure
        table.finished_round = table.finished_tally = None

    async def remind(self, table: Table, left: float) -> None:
        """The turn's time is running out (``left`` seconds): a DM that notifies, and a mention
        in the group. The keyboard is redrawn first: if the player deleted it, it comes back as
        a new message."""
        match = table.match
        if match is None or match.current_seat is None:
            return
        seat = table.seats[match.current_seat]
        if seat.user_id is None:
            return
        seconds = int(left)
        with optional("a reminder", seat.user_id):
            await self.hands.open_live(table, again=True)
            if await self.hands.remind(table, seat, seconds):
                self.notices.remind_group(table, seat, seconds)

    async def timed_out(self, table: Table, seat: Seat, events: Sequence[Event]) -> None:
        """The computer played for someone whose time ran out; the group and they are told.
        If nobody is left playing, the match ends early and its result says so on its own."""
        ended = any(isinstance(e, MatchEnded) and e.ended_by == TIMEOUT for e in events)
        if not ended:
            self.notices.timed_out(table, seat)
        await self.show(table, events, timed_out=seat)
        if seat.absent and seat.user_id is not None and not ended:
            await self.notices.away(table, seat)

    async def back(self, table: Table, seat: Seat, automatic: Sequence[Event] = ()) -> None:
        """A person who was away plays again: the group is told, what the bot did for them as
        they came back (``automatic``) is shown, and the hand comes back if it is their turn.
        A lead it placed for them is told them with the hand they now play from: the new deal
        they got while away only said that they lead, and with what."""
        self.notices.back(table, seat)
        match = table.match
        if match is None or not (automatic or match.current_seat == seat.seat):
            return
        lead = placed_lead(table, automatic)
        told = seat.live  # a live hand says it as it closes (``Hands.notes``)
        await self.show(table, automatic)
        if lead is not None and lead.seat == seat.seat and not (told or match.is_over):
            assert seat.user_id is not None
            with optional("a lead placed on coming back", seat.user_id):
                await self.hands.dealt(table, seat, lead)

    async def place_gone(self, table: Table, why: Gone) -> None:
        """The bot may no longer write where the table sits, and the table ended without a
        result: its players hear it in their DMs, the group where the bot can still write (a
        forum whose topic is gone). A closed topic still shows its board, or its lobby, to
        whoever reads it: edited where the bot may (it manages topics), the board says that
        the topic was closed where it said whose turn it was, and the lobby loses its buttons,
        even a redraw still queued; elsewhere the board is gone, or may not be touched."""
        await self.hands.ended(table, _GONE_DM[why], everyone=True)
        if why == "closed" and table.match is None:
            self.lobby.close(table)
        elif why == "closed" and table.board_message_id is not None:
            self.board.close(table, "board.topic_closed")
        if why in ("closed", "deleted"):
            await self.notices.topic_gone(table, closed=why == "closed")

    async def replaced(
        self, table: Table, gone: Seat, *, last: bool = False, by: str | None = None
    ) -> None:
        """A person left a match, or was removed ``by`` someone: the group hears who plays
        their seat now, or (``last``) that the match ends with nobody left to play it; their
        keyboard goes."""
        await self.notices.replaced(table, gone, last=last, by=by)
        await self.show(table, [])
