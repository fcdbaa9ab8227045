"""The players' hands, each in its DM: the live keyboard of whoever is on turn, and the record
a keyboard turns into once the turn is over (a record is edited again only to say that its
round, its match or its table ended)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import InlineKeyboardMarkup

from engine import Event
from engine.events import MatchEnded, Played, PlayedDoubles, RoundEnded

from ..i18n import Html, t
from ..render.asked import Asked, question
from ..render.ending import ending_line
from ..render.hand import leads_text, live_hand, placed_text, played_note, record_text
from ..render.place import place_name
from ..sender import Blocked, Sender
from ..service import TableService
from ..table import Seat, Table
from .notices import Notices, optional

log = logging.getLogger(__name__)


def placed_lead(table: Table, events: Sequence[Event]) -> Played | None:
    """The round's lead, if ``events`` hold it and the bot placed it, the rules leaving its
    leader no choice (``Game.places_lead``, §3.8); else None."""
    match = table.match
    if match is None or not match.game.places_lead:
        return None
    moves = table.round_moves
    lead = moves[0] if moves else None
    return lead if isinstance(lead, Played) and lead in events else None


class Hands:
    def __init__(self, sender: Sender, service: TableService, notices: Notices) -> None:
        self.sender = sender
        self.service = service
        self.notices = notices

    @staticmethod
    def notes(table: Table, events: Sequence[Event], timed_out: Seat | None) -> dict[int, Html]:
        """What each seat played in these events, for the record its live hand turns into
        (draws and knocks need no tap, so no live hand waits on them: ``follow`` keeps them
        for the player's next live hand). A lead the bot placed says so, unless the seat's
        live hand closing is of the round before, which it ended."""
        notes: dict[int, Html] = {}
        placed = placed_lead(table, events)
        for event in events:
            if not isinstance(event, Played | PlayedDoubles):
                continue
            seat = table.seats[event.seat]
            if event == placed:
                notes.setdefault(event.seat, played_note(seat, event, "hand.led_for_you"))
                continue
            by_computer = timed_out is not None and timed_out.seat == event.seat
            key = "hand.computer_played" if by_computer else "hand.you_played"
            notes[event.seat] = played_note(seat, event, key)
        return notes

    async def close_live(
        self, table: Table, notes: dict[int, Html], ended: RoundEnded | MatchEnded | None = None
    ) -> None:
        """Turn live keyboards of players whose turn is over into records of their hands,
        whose messages storage forgets: only live ones are stored. When the round or the match
        ``ended``, each person's last hand message says so, in place (the live one as it
        closes), with the hand as the round left it; it is known in memory only (``Seat``)."""
        match = table.match
        assert match is not None
        for seat in table.seats:
            still_on_turn = seat.seat == match.current_seat and not match.is_over
            closing = seat.live and (not still_on_turn or seat.seat in notes)
            if closing:
                seat.last_note = notes.get(seat.seat, "")
            elif ended is None or seat.last_hand is None:
                continue
            text = record_text(table, seat, seat.last_note, table.finished_round)
            if ended is not None:
                text = Html(text + "\n\n" + ending_line(table, seat, ended))
            if closing:
                await self._edit(table, seat, text)
                seat.live = False
                await self.service.messages.remember_hand(table, seat, None)
            else:
                await self._amend(seat, text)

    async def deal(self, table: Table, placed: Played | None = None) -> None:
        """A new round: each person gets their new hand; the leader's comes with the keyboard,
        the others' say who leads (the board does, but they look at their hand). A lead the
        bot ``placed`` is told everyone instead, its leader too, whose turn it ended, with who
        plays next: whoever does hears of the deal before his keyboard. A leader who is away
        gets no keyboard (the computer plays for him), so he is told as the others are: else
        he saw nothing of the deal until his first turn after coming back."""
        match = table.match
        assert match is not None
        for seat in table.seats:
            keyboard = seat.seat == match.current_seat and not seat.computer_plays
            if seat.is_human and (placed is not None or not keyboard):
                await self.dealt(table, seat, placed)

    async def dealt(self, table: Table, seat: Seat, placed: Played | None = None) -> None:
        """The round's hand of one person, as dealt: who leads (he, if he is the leader away),
        or the lead the bot ``placed`` (for him or another) and who plays next."""
        lang = seat.language
        news = t(lang, "hand.new_round", chat=place_name(lang, table))
        told = (
            leads_text(table, lang, seat.seat)
            if placed is None
            else placed_text(table, seat, placed)
        )
        news = Html(news + "\n" + told)
        await self._send(table, seat, record_text(table, seat, news), note=news)

    async def open_live(self, table: Table, *, again: bool = False) -> None:
        """The keyboard of whoever is on turn: a new message if they have none (it notifies).
        ``again``: edited even if nothing changed, so that a keyboard the player deleted comes
        back as a new message."""
        match = table.match
        assert match is not None
        if match.is_over or match.current_seat is None:
            return
        seat = table.seats[match.current_seat]
        if seat.computer_plays:
            return
        if seat.live:
            shown = self._question(table, seat) or live_hand(table, seat)
            await self._edit(table, seat, *shown, again=again)
        else:
            await self._send(table, seat, *live_hand(table, seat))

    async def ask(self, table: Table, seat: Seat, asked: Asked) -> None:
        """Ask the player on turn about the tile tapped, in place of the hand: a redraw of the
        hand (the turn's reminder, a restart, another /language) asks it again, until a move
        or "« Back"."""
        await self.service.messages.remember_question(table, seat, asked.dumps(table.version))
        await self._edit(table, seat, *question(table, seat, asked))

    @staticmethod
    def _question(table: Table, seat: Seat) -> tuple[Html, InlineKeyboardMarkup] | None:
        """The question the live hand shows, if it was asked at this turn."""
        asked = Asked.loads(seat.question, table.version)
        return None if asked is None else question(table, seat, asked)

    async def refresh_live(self, table: Table, seat: Seat) -> None:
        """Redraw the keyboard of the player on turn (after "back" from choosing an end)."""
        await self.service.messages.remember_question(table, seat, None)
        await self._edit(table, seat, *live_hand(table, seat))

    async def remind(self, table: Table, seat: Seat, seconds: int) -> bool:
        """The turn's time is running out: a DM that notifies. False if it cannot reach them."""
        assert seat.user_id is not None
        try:
            where = place_name(seat.language, table)
            text = t(seat.language, "timer.remind_dm", chat=where, seconds=seconds)
            await self.sender.send(seat.user_id, text)
        except Blocked as refused:
            await self.unreachable(table, seat, refused)
            return False
        return True

    async def _send(
        self,
        table: Table,
        seat: Seat,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        note: str = "",
    ) -> None:
        """A new hand message; with a keyboard it is the live one the player taps, which is
        remembered (a record without one is never edited but to say the round ended: its
        ``note`` is kept for that)."""
        assert seat.user_id is not None
        try:
            message = await self.sender.send(seat.user_id, text, keyboard)
        except Blocked as refused:
            await self.unreachable(table, seat, refused)
            return
        seat.last_hand, seat.last_note = message.message_id, note
        if keyboard is not None:
            seat.live, seat.shown = True, (message.message_id, text, keyboard)
            await self.service.messages.remember_hand(table, seat, message.message_id)

    async def _edit(
        self,
        table: Table,
        seat: Seat,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        again: bool = False,
    ) -> None:
        """Edit the live hand, unless it shows this already (``Seat.shown``) and is not drawn
        ``again``."""
        assert seat.user_id is not None
        if not again and seat.live and seat.shown == (seat.hand_message_id, text, keyboard):
            return
        try:
            message_id = await self.sender.edit(seat.user_id, seat.hand_message_id, text, keyboard)
        except Blocked as refused:
            await self.unreachable(table, seat, refused)
            return
        seat.last_hand, seat.shown = message_id, (message_id, text, keyboard)
        if message_id != seat.hand_message_id:
            await self.service.messages.remember_hand(table, seat, message_id)

    async def _amend(self, seat: Seat, text: str) -> None:
        """Say in the player's last hand message what happened since: a round or the match
        that ended. Nothing depends on it, and nothing is sent if that message is gone."""
        assert seat.user_id is not None and seat.last_hand is not None
        with optional("the end of a round in a hand", seat.user_id):
            if not await self.sender.amend(seat.user_id, seat.last_hand, text):
                seat.last_hand = None

    async def ended(self, table: Table, key: str, *, everyone: bool = False) -> None:
        """A table that ended without a result: each person's last hand message gains the note
        ``key`` (which may name the table's place, ``chat``), its live keyboard gone, so nobody
        taps at a table that is gone; with ``everyone``, every other person gets the note as a
        message of its own, which notifies them (the group cannot tell them)."""
        shown = table.match is not None and table.match.round is not None  # a hand to show
        for seat in table.seats:
            if seat.user_id is None:
                continue
            note = t(seat.language, key, chat=place_name(seat.language, table))
            text = record_text(table, seat, seat.last_note) + "\n\n" + note if shown else note
            with optional("the end of a table", seat.user_id):
                if seat.live and seat.hand_message_id is not None:
                    seat.live = False
                    await self.sender.edit(seat.user_id, seat.hand_message_id, text)
                elif everyone:
                    await self.sender.send(seat.user_id, note)
                elif seat.last_hand is not None:
                    await self._amend(seat, text)

    async def unreachable(self, table: Table, seat: Seat, refused: Blocked) -> None:
        """The player blocked the bot, never started it or deleted their account: tell the
        group; the computer covers."""
        log.info("seat cannot receive DMs", extra={"table": table.id, "seat": seat.seat})
        seat.live = False
        if not seat.absent:
            await self.service.timeouts.set_absent(table, seat, True)
            self.notices.unreachable(table, seat, deleted=refused.account_deleted)
