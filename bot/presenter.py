"""Showing what happened: the board in the group, each hand in its DM, results as messages.

An ordinary move costs at most three calls here (the mover's hand, the board, the next player's
hand) plus the answer to the tap: the mover's keyboard becomes a record of the hand, and the next
player gets a new message, because an edit would not notify them.

Everything shown is already committed, so nothing here may stop play: a failed show ends in
``resync``, and messages play does not depend on (notices, reminders) are dropped if refused.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import logging
import time
from collections.abc import Iterator, Sequence
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from engine import Event
from engine.events import Drew, Knocked, MatchEnded, Played, RoundEnded, RoundStarted

from .callbacks import Callback
from .i18n import Html, t
from .render.board import board_text, teams_text
from .render.hand import hand_keyboard, live_hand_text, played_note, record_text
from .render.results import match_result_text, round_result_text
from .sender import Blocked, Sender
from .service import TableService
from .table import RECENT, Recent, Seat, Table

log = logging.getLogger(__name__)
BOARD_RESERVE = 3  # new-message room kept for results before a new round gets a new board


@contextlib.contextmanager
def optional(what: str, chat_id: int) -> Iterator[None]:
    """For a message play does not depend on (a notice, a reminder): if Telegram refuses it,
    the board and the hands still tell the story, so it is logged and dropped."""
    try:
        yield
    except (TelegramError, Blocked) as exc:
        log.warning("%s was not delivered: %s", what, exc, extra={"chat": chat_id})


class Presenter:
    def __init__(self, sender: Sender, service: TableService) -> None:
        self.sender = sender
        self.service = service

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
        and the hands right, so play goes on, and the results not yet announced are announced."""
        notes = self._hand_notes(table, events, timed_out)
        self.follow(table, events)
        announced: list[Event] = []
        try:
            await self._show(table, events, notes, starting, announced)
        except Exception:
            log.exception("showing a change failed; resyncing", extra={"table": table.id})
            await self.resync(table)
            await self._announce_missed(table, events, announced)
        if any(isinstance(event, RoundEnded | MatchEnded) for event in events):
            await self._mark_announced(table)

    async def announce_unannounced(self, table: Table) -> None:
        """At start-up: the round results the bot committed but stopped before announcing."""
        missed = await self.service.store.unannounced(table)
        if missed:
            await self._announce_missed(table, missed, [])
            await self._mark_announced(table)

    async def _mark_announced(self, table: Table) -> None:
        try:
            await self.service.messages.mark_announced(table)
        except Exception:  # the next start-up announces them again, which beats never
            log.exception("could not store that results were announced", extra={"table": table.id})

    async def _show(
        self,
        table: Table,
        events: Sequence[Event],
        notes: dict[int, Html],
        starting: bool,
        announced: list[Event],
    ) -> None:
        if starting:
            await self.sender.send(table.chat_id, teams_text(table))
        await self._close_live_hands(table, notes)
        new_round = starting
        for event in events:
            if isinstance(event, RoundEnded):
                await self._final_board(table)
                await self._announce(table, event)
                announced.append(event)
                new_round = True
            elif isinstance(event, MatchEnded):
                await self._announce(table, event)
                return
        await self._board(table, fresh=new_round)
        if new_round:
            await self._deal_hands(table)
        await self._open_live_hand(table)

    async def resync(self, table: Table) -> None:
        """Bring the board and the hands up to the committed state, after a restart or a show
        that failed midway. Idempotent and cheap: messages are edited in place (an edit that
        changes nothing is "not modified", which the sender takes as done); a new message goes
        only where none is live, to whoever is on turn. Each part is tried on its own, so one
        refusal (the bot removed from the group) does not keep the next hand from its player."""
        if table.match is None or table.match.round is None:
            return
        parts = (
            partial(self._close_live_hands, table, {}),
            partial(self._open_live_hand, table),
            partial(self._board, table, fresh=False),
        )
        for part in parts:
            try:
                await part()
            except Exception:
                log.exception("resyncing a table failed", extra={"table": table.id})
        table.finished_round = None

    # --- the group ------------------------------------------------------------------------------

    async def _board(self, table: Table, fresh: bool) -> None:
        text = board_text(table)
        if fresh and (
            table.board_message_id is None or self.sender.pacer.room(table.chat_id) > BOARD_RESERVE
        ):
            message = await self.sender.send(table.chat_id, text)
            await self.service.messages.remember_board(table, message.message_id)
            return
        message_id = await self.sender.edit(table.chat_id, table.board_message_id, text)
        if message_id != table.board_message_id:
            await self.service.messages.remember_board(table, message_id)

    async def _final_board(self, table: Table) -> None:
        """The board of a round that just ended, with its last move, before the result."""
        finished, table.finished_round = table.finished_round, None
        if finished is not None and table.board_message_id is not None:
            text = board_text(table, finished)
            await self.sender.edit(table.chat_id, table.board_message_id, text)

    async def _announce(self, table: Table, ended: RoundEnded | MatchEnded) -> None:
        """A round's result, or the goat."""
        if isinstance(ended, RoundEnded):
            await self.sender.send(table.chat_id, round_result_text(table, ended))
        else:
            await self.sender.send(table.chat_id, match_result_text(table, ended))

    async def _announce_missed(
        self, table: Table, events: Sequence[Event], announced: list[Event]
    ) -> None:
        """After a failed show: the results it did not get to. The board only shows the round
        in play, so a round's result (who went out, the hands, the scores) is said nowhere else."""
        for event in events:
            if isinstance(event, RoundEnded | MatchEnded) and not any(
                done is event for done in announced
            ):
                with optional(f"the {event.type} announcement", table.chat_id):
                    await self._announce(table, event)

    # --- what happened ----------------------------------------------------------------------

    @staticmethod
    def follow(table: Table, events: Sequence[Event]) -> None:
        """Note what ``events`` did, for the board's list of recent moves and for each
        person's next live hand. Done before any call to Telegram, so a failed call loses none
        of it. The list keeps all of this batch, however long: one tap can set off many draws
        and knocks, and the tap itself must still show."""
        added = 0
        for event in events:
            if isinstance(event, RoundStarted):
                for seat in table.seats:
                    seat.drawn.clear()
                    seat.knocks = 0
            elif isinstance(event, Played):
                mover = table.seats[event.seat]
                mover.drawn.clear()
                mover.knocks = 0
                table.recent.append(Recent("played", event.seat, event.round, tile=event.tile))
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

    def recall(self, table: Table, events: Sequence[Event]) -> None:
        """After a restart, note again what the round's ``events`` did (see ``follow``), one by
        one, so that the board keeps the latest few moves as it did."""
        for event in events:
            self.follow(table, [event])

    # --- the hands ------------------------------------------------------------------------------

    @staticmethod
    def _hand_notes(
        table: Table, events: Sequence[Event], timed_out: Seat | None
    ) -> dict[int, Html]:
        """What each seat played in these events, for the record its live hand turns into
        (draws and knocks need no tap, so no live hand waits on them: ``follow`` keeps them
        for the player's next live hand)."""
        notes: dict[int, Html] = {}
        for event in events:
            if isinstance(event, Played):
                by_computer = timed_out is not None and timed_out.seat == event.seat
                notes[event.seat] = played_note(
                    table.seats[event.seat], event.tile, by_computer=by_computer
                )
        return notes

    async def _close_live_hands(self, table: Table, notes: dict[int, Html]) -> None:
        """Turn live keyboards of players whose turn is over into records of their hands. A
        record is never edited again: its message is forgotten, so only live ones are stored."""
        match = table.match
        assert match is not None
        for seat in table.seats:
            still_on_turn = seat.seat == match.current_seat and not match.is_over
            if seat.live and (not still_on_turn or seat.seat in notes):
                text = record_text(table, seat, notes.get(seat.seat, ""), table.finished_round)
                await self._dm_edit(table, seat, text)
                seat.live = False
                await self.service.messages.remember_hand(table, seat, None)

    async def _deal_hands(self, table: Table) -> None:
        """A new round: each person gets their new hand; the leader's comes with the keyboard."""
        match = table.match
        assert match is not None
        for seat in table.seats:
            if seat.is_human and seat.seat != match.current_seat:
                text = t(seat.language, "hand.new_round") + "\n" + record_text(table, seat, "")
                await self._dm_send(table, seat, Html(text))

    async def _open_live_hand(self, table: Table) -> None:
        """The keyboard of whoever is on turn: a new message if they have none (it notifies)."""
        match = table.match
        assert match is not None
        if match.is_over or match.current_seat is None:
            return
        seat = table.seats[match.current_seat]
        if seat.computer_plays:
            return
        text = live_hand_text(table, seat)
        keyboard = hand_keyboard(table, seat)
        if seat.live:
            await self._dm_edit(table, seat, text, keyboard)
        else:
            await self._dm_send(table, seat, text, keyboard)

    async def remind(self, table: Table) -> None:
        """The turn's time is running out: a DM that notifies, and a mention in the group."""
        match = table.match
        if match is None or match.current_seat is None:
            return
        seat = table.seats[match.current_seat]
        if seat.user_id is None:
            return
        seconds = int(max(0.0, (table.turn_deadline or 0) - time.time()))
        with optional("a reminder", seat.user_id):
            try:
                await self.sender.send(
                    seat.user_id, t(seat.language, "timer.remind_dm", seconds=seconds)
                )
            except Blocked:
                await self._unreachable(table, seat)
                return
            if self.sender.pacer.room(table.chat_id) > BOARD_RESERVE:
                name = html.escape(seat.name)
                mention = Html(f'<a href="tg://user?id={seat.user_id}">{name}</a>')
                await self.sender.send(
                    table.chat_id,
                    t(table.language, "timer.remind_group", name=mention, seconds=seconds),
                )

    async def timed_out(self, table: Table, seat: Seat, events: Sequence[Event]) -> None:
        """The computer played for someone whose time ran out; the group and they are told.
        If nobody is left playing, the match ends early and its result says so on its own."""
        ended = any(isinstance(e, MatchEnded) and e.ended_by == "timeout" for e in events)
        if not ended:
            key = "timer.absent" if seat.absent else "timer.timed_out"
            with optional("a timeout notice", table.chat_id):
                await self.sender.send(table.chat_id, t(table.language, key, name=seat.name))
        await self.show(table, events, timed_out=seat)
        if seat.absent and seat.user_id is not None and not ended:
            keyboard = InlineKeyboardMarkup(
                [
                    [
                        InlineKeyboardButton(
                            t(seat.language, "timer.back_button"),
                            callback_data=Callback("here", table.id).encode(),
                        )
                    ]
                ]
            )
            with optional("the away notice", seat.user_id):
                await self.sender.send(seat.user_id, t(seat.language, "timer.away_dm"), keyboard)

    async def back(self, table: Table, seat: Seat) -> None:
        """A person who was away plays again: the group is told, and the hand comes back if it
        is their turn."""
        with optional("a welcome back", table.chat_id):
            await self.sender.send(
                table.chat_id, t(table.language, "timer.back_group", name=seat.name)
            )
        if table.match is not None and table.match.current_seat == seat.seat:
            await self.show(table, [])

    async def replaced(self, table: Table, gone: Seat) -> None:
        """A person left a match: the group hears who plays their seat now; their keyboard goes."""
        with optional("a replacement notice", table.chat_id):
            await self.sender.send(
                table.chat_id, t(table.language, "table.replaced", name=gone.name)
            )
        if gone.user_id is not None and gone.live and gone.hand_message_id is not None:
            with optional("a left player's hand", gone.user_id):
                await self.sender.edit(
                    gone.user_id, gone.hand_message_id, t(gone.language, "table.you_left")
                )
        await self.show(table, [])

    async def lobby_expired(self, table: Table) -> None:
        text = t(table.language, "lobby.expired")
        if table.lobby_message_id is not None:
            await self.sender.edit(table.chat_id, table.lobby_message_id, text)
        else:
            await self.sender.send(table.chat_id, text)

    async def refresh_live_hand(self, table: Table, seat: Seat) -> None:
        """Redraw the keyboard of the player on turn (after "back" from choosing an end)."""
        await self._dm_edit(table, seat, live_hand_text(table, seat), hand_keyboard(table, seat))

    async def _dm_send(
        self, table: Table, seat: Seat, text: str, keyboard: InlineKeyboardMarkup | None = None
    ) -> None:
        """A new hand message; with a keyboard it is the live one the player taps, which is
        remembered (a record without one is never edited)."""
        assert seat.user_id is not None
        try:
            message = await self.sender.send(seat.user_id, text, keyboard)
        except Blocked:
            await self._unreachable(table, seat)
            return
        if keyboard is not None:
            seat.live = True
            await self.service.messages.remember_hand(table, seat, message.message_id)

    async def _dm_edit(
        self, table: Table, seat: Seat, text: str, keyboard: InlineKeyboardMarkup | None = None
    ) -> None:
        assert seat.user_id is not None
        try:
            message_id = await self.sender.edit(seat.user_id, seat.hand_message_id, text, keyboard)
        except Blocked:
            await self._unreachable(table, seat)
            return
        if message_id != seat.hand_message_id:
            await self.service.messages.remember_hand(table, seat, message_id)

    async def _unreachable(self, table: Table, seat: Seat) -> None:
        """The player blocked the bot or never started it: tell the group; the computer covers."""
        log.info("seat cannot receive DMs", extra={"table": table.id, "seat": seat.seat})
        seat.live = False
        if not seat.absent:
            await self.service.timeouts.set_absent(table, seat, True)
            with optional("an unreachable notice", table.chat_id):
                await self.sender.send(
                    table.chat_id,
                    t(
                        table.language,
                        "hand.unreachable",
                        name=seat.name,
                        bot=self.sender.bot.username,
                    ),
                )
