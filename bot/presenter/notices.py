"""What the group and the players are told in messages of their own: results, reminders,
timeouts, comings and goings. Play never depends on them: the group's are queued in its outbox
(``pacing``), in order after the boards before them, and dropped if refused."""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import Callable, Iterator, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import TelegramError

from engine import Event
from engine.events import MatchEnded, RoundEnded

from ..callbacks import Callback
from ..i18n import Html, t
from ..pacing import RESERVE
from ..place import Place
from ..render.board import teams_text
from ..render.cancel_question import ANSWER_SECONDS, question_keyboard, question_text
from ..render.place import place_name
from ..render.results import (
    again_keyboard,
    closing_round,
    match_result_text,
    round_result_text,
)
from ..sender import Blocked, PlaceGone, Sender
from ..table import Seat, Table

log = logging.getLogger(__name__)


@contextlib.contextmanager
def optional(what: str, chat_id: int) -> Iterator[None]:
    """For a message play does not depend on (a notice, a reminder): if Telegram refuses it,
    the board and the hands still tell the story, so it is logged and dropped."""
    try:
        yield
    except (TelegramError, Blocked) as exc:
        log.warning("%s was not delivered: %s", what, exc, extra={"chat": chat_id})


#: What the group and the person hear when a person's seat goes to a computer, by whether
#: someone removed them (/kick) and whether nobody is left to play: the group's, and theirs.
_GONE_KEYS: dict[tuple[bool, bool], tuple[str, str]] = {
    (False, False): ("table.replaced", "table.you_left"),
    (False, True): ("table.nobody_left", "table.you_left_ended"),
    (True, False): ("table.removed", "table.you_removed"),
    (True, True): ("table.removed_last", "table.you_removed_ended"),
}


class Notices:
    def __init__(self, sender: Sender) -> None:
        self.sender = sender
        #: The /cancel questions sent and not yet answered, by table: their ids and places.
        self._questions: dict[int, dict[int, Place]] = {}
        #: Set once the bot is wired up: calls ``expire`` on a question (its table, its id)
        #: once the seconds given are up (``Scheduler.time_question``).
        self.time_question: Callable[[Table, int, float], None] | None = None

    def _tell_group(self, table: Table, key: str, **values: object) -> None:
        self.sender.post(table.place, t(table.language, key, **values))

    def teams(self, table: Table) -> None:
        """The order of play, as a match starts."""
        self.sender.post(table.place, teams_text(table))

    def announce(self, table: Table, ended: RoundEnded | MatchEnded) -> None:
        """A round's result, or the goat: queued after the boards before it, never skipped. The
        round that ended the match is told in the match's end (``closing_round``): one message,
        one call against the group's budget, and the final scores said once."""
        if isinstance(ended, RoundEnded):
            if ended != closing_round(table):
                self.sender.post(table.place, round_result_text(table, ended))
        else:
            self.sender.post(table.place, match_result_text(table, ended), again_keyboard(table))

    def announce_missed(
        self, table: Table, events: Sequence[Event], announced: list[Event]
    ) -> None:
        """After a failed show: the results it did not get to. The board only shows the round
        in play, so a round's result (who went out, the hands, the scores) is said nowhere else."""
        for event in events:
            if isinstance(event, RoundEnded | MatchEnded) and not any(
                done is event for done in announced
            ):
                self.announce(table, event)

    def ask_to_cancel(self, table: Table, asker: int, name: str | None) -> None:
        """/cancel during a match: the question whether to cancel it, for ``asker`` (``name``),
        or for any admin (0, None) where an admin wrote in the group's name."""
        keyboard = question_keyboard(table, asker)
        asked = self._questions.setdefault(table.id, {})  # its id comes once it is sent

        def sent(message: Message) -> None:
            asked[message.message_id] = Place(message.chat_id, table.place.thread_id)
            if self.time_question is not None:
                self.time_question(table, message.message_id, ANSWER_SECONDS)

        self.sender.post(table.place, question_text(table, name), keyboard, sent=sent)

    def answered(self, table_id: int, message_id: int) -> None:
        """A /cancel question was answered: its answer, not the match's end, is what it says."""
        self._questions.get(table_id, {}).pop(message_id, None)

    def expire(self, table: Table, message_id: int) -> None:
        """A /cancel question's minute is up, unanswered: it loses its buttons and says so,
        rather than go on saying "within a minute" until someone taps it."""
        place = self._questions.get(table.id, {}).pop(message_id, None)
        if place is not None:
            self.sender.replace(place, message_id, t(table.language, "cancel.expired_note"))

    def close_questions(self, table: Table) -> None:
        """The match is over (or cancelled): the /cancel questions still open about it lose
        their buttons and say so, rather than offer to cancel a match that no longer runs:
        once what was queued for the group has gone, one that was still waiting to go out too."""
        if table.id not in self._questions:
            return

        async def close() -> None:
            note = t(table.language, "cancel.over_note")
            for message_id, place in self._questions.pop(table.id, {}).items():
                self.sender.replace(place, message_id, note)

        self.sender.after(table.chat_id, close)

    def remind_group(self, table: Table, seat: Seat, seconds: int) -> None:
        """A mention of the player on turn, if the group's budget has room for it."""
        if self.sender.pacer.room(table.chat_id) <= RESERVE:
            return
        name = html.escape(seat.name)
        mention = Html(f'<a href="tg://user?id={seat.user_id}">{name}</a>')
        self._tell_group(table, "timer.remind_group", name=mention, seconds=seconds)

    def timed_out(self, table: Table, seat: Seat) -> None:
        """The computer played for ``seat``, whose time ran out (and who may now be away)."""
        key = "timer.absent" if seat.absent else "timer.timed_out"
        self._tell_group(table, key, name=seat.name)

    def everyone_away(self, table: Table, seconds: int) -> None:
        """Every person is away: the group hears how long the match waits for one to return,
        and how (the bot does not keep why each went away: blocked, or missed turns)."""
        bot = self.sender.bot.username
        self._tell_group(table, "timer.everyone_away", seconds=seconds, bot=bot)

    async def away(self, table: Table, seat: Seat) -> None:
        """The player is told the computer plays for them, with a button to come back."""
        assert seat.user_id is not None
        button = InlineKeyboardButton(
            t(seat.language, "timer.back_button"),
            callback_data=Callback("here", table.id).encode(),
        )
        with optional("the away notice", seat.user_id):
            await self.sender.send(
                seat.user_id,
                t(seat.language, "timer.away_dm", chat=place_name(seat.language, table)),
                InlineKeyboardMarkup([[button]]),
            )

    def back(self, table: Table, seat: Seat) -> None:
        self._tell_group(table, "timer.back_group", name=seat.name)

    async def replaced(
        self, table: Table, gone: Seat, *, last: bool = False, by: str | None = None
    ) -> None:
        """The group hears who plays the seat of a person who left, or was removed ``by``
        someone (/kick), or (``last``) that nobody is left to play and the match ends; their
        keyboard goes. Someone removed hears it in a DM, if they hold no keyboard to say it."""
        removed = by is not None
        key, note = _GONE_KEYS[removed, last]
        self._tell_group(table, key, name=gone.name, by=by)
        await self._tell_gone(table, gone, note, send=removed)

    async def removed_from_lobby(self, table: Table, gone: Seat) -> None:
        """A person /kick removed from a lobby hears it where they were told they joined."""
        await self._tell_gone(table, gone, "dm.removed", send=True)

    async def _tell_gone(self, table: Table, gone: Seat, key: str, *, send: bool) -> None:
        """The note ``key`` (which may name the table's place, ``chat``) to a person no longer
        at the table: their live keyboard becomes it, else, if ``send``, a DM of its own."""
        if gone.user_id is None:
            return
        note = t(gone.language, key, chat=place_name(gone.language, table))
        with optional("a note to a player gone from the table", gone.user_id):
            if gone.live and gone.hand_message_id is not None:
                await self.sender.edit(gone.user_id, gone.hand_message_id, note)
            elif send:
                await self.sender.send(gone.user_id, note)

    def unreachable(self, table: Table, seat: Seat, *, deleted: bool) -> None:
        """The player cannot get their hand in a DM: the group is told how to fix it, or, if
        their account was ``deleted``, that the computer plays their seat."""
        if deleted:
            self._tell_group(table, "hand.account_deleted", name=seat.name)
        else:
            bot = self.sender.bot.username
            self._tell_group(table, "hand.unreachable", name=seat.name, bot=bot)

    async def topic_gone(self, table: Table, closed: bool) -> None:
        """The group hears that the table of a closed or deleted topic ended, where the bot
        can still write: in a closed topic if it may manage topics, else in the chat itself
        (a forum's General topic)."""
        players = ", ".join(seat.name for seat in table.seats) or "—"
        text = t(table.language, "topic.closed" if closed else "topic.deleted", players=players)
        places = [table.place, table.place.chat] if closed else [table.place.chat]
        for place in dict.fromkeys(places):
            try:
                await self.sender.send(place, text)
                return
            except PlaceGone:
                continue
            except (TelegramError, Blocked) as exc:
                log.warning("the end of a topic's table was not told: %s", exc)
                return
