"""Sending to Telegram without tripping over it: 403s, 429s, unchanged edits, long texts,
forum topics that were closed or deleted.

Every send and edit in the bot goes through here, so each Telegram failure mode is handled once.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import MessageLimit, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from .place import Place

log = logging.getLogger(__name__)
_TAG = re.compile(r"<[^>]*>")
_PARTIAL_ENTITY = re.compile(r"&[#a-zA-Z0-9]*$")
RETRIES = 3


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit(text: str) -> str:
    """Telegram refuses texts over 4096 characters (counted in UTF-16 units): cut and say so.
    A cut could split a tag or leave one unclosed, so a cut text loses its formatting."""
    limit = MessageLimit.MAX_TEXT_LENGTH
    if utf16_len(text) <= limit:
        return text
    cut = _TAG.sub("", text)[: limit - 2]
    while utf16_len(cut) > limit - 2:
        cut = cut[: len(cut) - (utf16_len(cut) - (limit - 2) + 1) // 2 - 1]
    cut = _PARTIAL_ENTITY.sub("", cut)
    return cut.rstrip() + "\n…"


class Blocked(Exception):
    """The user never pressed Start, or blocked the bot: a DM cannot reach them."""


class TopicGone(TelegramError):
    """The bot may not write to the place any more: its forum topic was ``closed`` (which
    takes messages from admins only, and from a bot only if it may manage topics) or deleted
    (which Telegram does not announce: the next message to it fails)."""

    def __init__(self, place: Place, closed: bool, reason: str) -> None:
        super().__init__(reason)
        self.place = place
        self.closed = closed


def _topic_refusal(exc: BadRequest) -> bool | None:
    """Whether a refusal says the topic was closed (True) or deleted (False); None if neither."""
    reason = str(exc).lower()
    if "topic_closed" in reason:
        return True
    if "message thread not found" in reason or "topic_deleted" in reason:
        return False
    return None


class GroupPacer:
    """Counts new messages per group so the bot stays under Telegram's ~20 a minute: optional
    messages check ``room``; every message waits (``wait_for_room``) once the minute is full."""

    def __init__(
        self, per_minute: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_minute = per_minute
        self.window = window
        self.clock = clock
        self._sent: dict[int, deque[float]] = {}

    def _window(self, chat_id: int) -> deque[float]:
        window = self._sent.setdefault(chat_id, deque())
        now = self.clock()
        while window and now - window[0] > self.window:
            window.popleft()
        return window

    def room(self, chat_id: int) -> int:
        return self.per_minute - len(self._window(chat_id))

    def note(self, chat_id: int) -> None:
        self._window(chat_id).append(self.clock())

    async def wait_for_room(self, chat_id: int) -> None:
        """Hold a new message until the group's last minute has room for it (fast rounds
        against computer players would otherwise post results faster than Telegram allows)."""
        while self.room(chat_id) <= 0:
            oldest = self._window(chat_id)[0]
            await asyncio.sleep(min(1.0, max(0.01, oldest + self.window - self.clock())))


Migrate = Callable[[int, int], Awaitable[None]]
#: Told of a place the bot may no longer write to (closed: True; deleted: False).
LostPlace = Callable[[Place, bool], None]


class Sender:
    def __init__(self, bot: Bot, pacer: GroupPacer, migrate: Migrate | None = None) -> None:
        self.bot = bot
        self.pacer = pacer
        self.migrate = migrate
        #: Set once the bot is wired up: ends the table of a topic that refused a message.
        self.topic_gone: LostPlace | None = None

    async def _moved(self, exc: ChatMigrated, chat_id: int) -> int:
        """The group became a supergroup: move our records along and use its new id."""
        new_id = exc.new_chat_id
        if self.migrate is not None:
            await self.migrate(chat_id, new_id)
        return new_id

    async def send(
        self,
        to: int | Place,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        reply_to: int | None = None,
    ) -> Message:
        """Send HTML text to a chat (by id) or a place, as a reply to message ``reply_to`` if
        given (and if it still exists); raises ``Blocked`` when a DM cannot be delivered and
        ``TopicGone`` when the place's forum topic was closed or deleted."""
        place = to if isinstance(to, Place) else Place(to)
        chat_id = place.chat_id
        if chat_id < 0:
            await self.pacer.wait_for_room(chat_id)
        replying = (
            None
            if reply_to is None
            else ReplyParameters(reply_to, allow_sending_without_reply=True)
        )
        for attempt in range(RETRIES):
            try:
                message = await self.bot.send_message(
                    chat_id,
                    fit(text),
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                    reply_parameters=replying,
                    message_thread_id=place.thread_id,
                )
            except RetryAfter as exc:
                await self._wait(exc, attempt)
                continue
            except Forbidden as exc:
                raise Blocked(str(exc)) from exc
            except ChatMigrated as exc:
                chat_id = await self._moved(exc, chat_id)
                place = Place(chat_id, place.thread_id)
                continue
            except BadRequest as exc:
                closed = _topic_refusal(exc)
                if closed is None:
                    raise
                if self.topic_gone is not None:
                    self.topic_gone(place, closed)
                raise TopicGone(place, closed, str(exc)) from exc
            if chat_id < 0:
                self.pacer.note(chat_id)
            return message
        raise TelegramError("flood control did not clear")

    async def edit(
        self,
        to: int | Place,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> int:
        """Edit in place; if the message is gone, send a new one to the chat or place ``to``.
        Returns the message id."""
        if message_id is None:
            return (await self.send(to, text, keyboard)).message_id
        chat_id = to.chat_id if isinstance(to, Place) else to
        for attempt in range(RETRIES):
            try:
                await self.bot.edit_message_text(
                    fit(text),
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                )
                return message_id
            except RetryAfter as exc:
                await self._wait(exc, attempt)
            except Forbidden as exc:
                raise Blocked(str(exc)) from exc
            except ChatMigrated as exc:
                # an old group's messages cannot be edited in the supergroup: post anew there
                new_id = await self._moved(exc, chat_id)
                return (await self.send(new_id, text, keyboard)).message_id
            except BadRequest as exc:
                reason = str(exc).lower()
                if "not modified" in reason:
                    return message_id
                if "not found" in reason or "can't be edited" in reason:
                    return (await self.send(to, text, keyboard)).message_id
                raise
        raise TelegramError("flood control did not clear")

    async def _wait(self, exc: RetryAfter, attempt: int) -> None:
        """Sleep as long as Telegram asks, unless this was the last attempt: then give up at
        once rather than sleep for nothing."""
        if attempt == RETRIES - 1:
            raise exc
        delay = exc.retry_after
        seconds = delay.total_seconds() if isinstance(delay, dt.timedelta) else float(delay)
        log.warning("flood control: waiting %.1f s", seconds, extra={"attempt": attempt + 1})
        await asyncio.sleep(seconds)

    async def answer(self, query_id: str, text: str = "", alert: bool = False) -> None:
        """Answer a tap. Never raises: the answer only stops the button's spinner, and a move
        already made must go on whatever Telegram says (an old query, 429, a timeout)."""
        try:
            await self.bot.answer_callback_query(query_id, text=text[:200], show_alert=alert)
        except TelegramError as exc:
            log.info("could not answer a callback query: %s", exc)
