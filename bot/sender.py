"""Sending to Telegram without tripping over it: 403s, 429s, unchanged edits, long texts, forum
topics that were closed or deleted, groups that removed the bot or took its right to write, and
the groups' budgets (``pacing``).

Every call to Telegram in the bot goes through here, so each failure mode is handled once.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import html
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Literal, NoReturn, TypeVar

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    ChatMember,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)
from telegram.constants import MessageLimit, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from .pacing import Board, GroupPacer, Outbox
from .place import Place

log = logging.getLogger(__name__)
_TAG = re.compile(r"<[^>]*>")
RETRIES = 3
#: Seconds a tap's answer waits at most for what the tap changed to go out (in its group,
#: ``Sender.caught_up``; in a DM, ``Sender.answer_after``): Telegram takes an answer only
#: within seconds of the tap.
ANSWER_WAIT = 3.0
#: The longest answer to a tap that Telegram shows as a toast, which goes by itself; a longer
#: one the bot shows as an alert box, which the tapper must dismiss (``handlers.common.answer``).
TOAST = 60
#: The longest flood control (seconds, each time) the bot waits out to learn what someone is
#: in a group (``Sender.member``): the person waits for the answer, and the handler that
#: asks holds the table's lock, which every move there needs.
MEMBER_WAIT = 5.0
T = TypeVar("T")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _visible(text: str) -> str:
    """What a person reads of the HTML ``text``: tags gone, ``&amp;`` one character."""
    return html.unescape(_TAG.sub("", text))


def read_len(text: str) -> int:
    """How long Telegram counts the HTML ``text``: what a person reads, in UTF-16 units."""
    return utf16_len(_visible(text))


def fit(text: str) -> str:
    """Telegram refuses texts over 4096 characters: those a person reads (tags gone, ``&amp;``
    one character), counted in UTF-16 units. A longer one is cut and says so; a cut could
    split a tag or leave one unclosed, so a cut text loses its formatting."""
    limit = MessageLimit.MAX_TEXT_LENGTH
    read = _visible(text)
    if utf16_len(read) <= limit:
        return text
    cut = read[: limit - 2]
    while utf16_len(cut) > limit - 2:
        cut = cut[: len(cut) - (utf16_len(cut) - (limit - 2) + 1) // 2 - 1]
    return html.escape(cut.rstrip(), quote=False) + "\n…"


class MessageGone(Exception):
    """The message to edit is gone: never sent, deleted, too old to edit, or left behind in a
    group that became a supergroup. A new one would go to ``place``."""

    def __init__(self, place: Place) -> None:
        super().__init__(f"no message to edit in {place}")
        self.place = place


class Blocked(Exception):
    """The user never pressed Start, blocked the bot, or deleted their account: a DM cannot
    reach them."""

    @property
    def account_deleted(self) -> bool:
        """The account is gone for good ("user is deactivated"): Start cannot bring it back."""
        return "deactivated" in str(self).lower()


#: Why the bot may not write to a place any more: its forum topic was ``closed`` (which takes
#: messages from admins only, and from a bot only if it may manage topics) or ``deleted`` (which
#: Telegram does not announce: the next message to it fails); the bot was ``removed`` from the
#: group, or ``muted`` there (an admin took its right to send messages). The last two are the
#: whole chat's, all its topics.
Gone = Literal["closed", "deleted", "removed", "muted"]
CHAT_WIDE: tuple[Gone, ...] = ("removed", "muted")


class PlaceGone(TelegramError):
    """The bot may not write to ``place`` any more, for the reason ``why``."""

    def __init__(self, place: Place, why: Gone, reason: str) -> None:
        super().__init__(reason)
        self.place = place
        self.why = why


def _refusal(exc: TelegramError, place: Place) -> Gone | None:
    """Why Telegram refused to let the bot write to a place for good; None if it did not."""
    if isinstance(exc, Forbidden):
        return "removed" if place.chat_id < 0 else None  # a DM's is the person's: ``Blocked``
    reason = str(exc).lower()
    if "topic_closed" in reason:
        return "closed"
    if "message thread not found" in reason or "topic_deleted" in reason:
        return "deleted"
    if "rights to send" in reason:
        return "muted"
    return None


def _seconds(exc: RetryAfter) -> float:
    """How long Telegram asked to wait."""
    delay = exc.retry_after
    return delay.total_seconds() if isinstance(delay, dt.timedelta) else float(delay)


def _dropped(gone: PlaceGone) -> None:
    """A call nobody waits for, refused by a place gone: only a debugging matter."""
    log.debug("not sent: the place is %s", gone.why, extra={"chat": gone.place.chat_id})


def _place(to: int | Place) -> Place:
    return to if isinstance(to, Place) else Place(to)


Migrate = Callable[[int, int], Awaitable[None]]
#: An answer to a command that only tells, written from the state when called: its text, and
#: its buttons if any (``Sender.inform``).
Written = tuple[str, InlineKeyboardMarkup | None]
Write = Callable[[], Awaitable[Written]]
#: Told of a place the bot may no longer write to, and why.
LostPlace = Callable[[Place, Gone], None]


class Sender:
    """Direct messages go at once. Calls to a group go through its ``Outbox``, in order and
    within its budget: ``send`` and ``edit`` wait for theirs, ``post``, ``replace`` and
    ``board`` do not."""

    def __init__(self, bot: Bot, pacer: GroupPacer, migrate: Migrate | None = None) -> None:
        self.bot = bot
        self.pacer = pacer
        self.migrate = migrate
        #: Set once the bot is wired up: ends the tables of a place that refused a message.
        self.place_gone: LostPlace | None = None
        self._outboxes: dict[int, Outbox] = {}

    def _outbox(self, chat_id: int) -> Outbox:
        """A group's one queue: its budget is the chat's, whichever topic a call goes to."""
        outbox = self._outboxes.get(chat_id)
        if outbox is None:
            outbox = self._outboxes[chat_id] = Outbox(chat_id, self.pacer, self._show_board)
        return outbox

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
        ``PlaceGone`` when the bot may no longer write to the place. Flood control is waited
        out however long it lasts, as ``edit`` does (the hand of a player on turn given up
        after three 429s came only with the turn's reminder, and their turn ran out
        meanwhile)."""
        place = _place(to)
        send = partial(self._send, place, text, keyboard, reply_to)
        return await self._in_turn(place, partial(self._patiently, send))

    def post(
        self,
        to: int | Place,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        reply_to: int | None = None,
        sent: Callable[[Message], None] | None = None,
    ) -> None:
        """A new group message nobody waits for (a round's result, a notice): it goes in its
        turn, after everything posted to the group before it; ``sent`` is told of it then
        (to edit it later)."""
        place = _place(to)

        async def send() -> None:
            message = await self._send(place, text, keyboard, reply_to)
            if sent is not None:
                sent(message)

        self._outbox(place.chat_id).post(self._unheeded(send))

    async def reply(
        self,
        to: int | Place,
        text: str,
        reply_to: int,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> None:
        """A reply to a command (a refusal, what it did, a choice to make): in a DM at once; in
        a group posted, as nobody need wait for it while the group's budget refills, least of
        all a handler that holds its table's lock, which the players' moves need."""
        if _place(to).chat_id > 0:
            await self.send(to, text, keyboard, reply_to=reply_to)
        else:
            self.post(to, text, keyboard, reply_to=reply_to)

    async def inform(
        self,
        to: int | Place,
        write: Write,
        *,
        asker: int,
        reply_to: int | None = None,
        question: str | None = None,
    ) -> None:
        """An answer to ``asker``'s command that only tells (/help, /standings...), which
        ``write`` writes: in a DM it goes at once; in a group nobody waits for it, and it goes
        when the game leaves room for it, or not at all (``Outbox.answer``). It is written again
        as it goes, from the state then: asked mid-match and sent after the match's result, it
        must not show the match as it was (whose turn, the score before the last round). The
        same ``question`` asked while its answer waits is answered by that one."""
        place = _place(to)
        text, keyboard = await write()
        if place.chat_id > 0:
            await self._send(place, text, keyboard, reply_to)
            return

        async def send() -> Message:
            text, keyboard = await write()
            return await self._send(place, text, keyboard, reply_to)

        self._outbox(place.chat_id).answer(
            place, text, asker, self._unheeded(send, patient=False), question
        )

    def after(self, chat_id: int, then: Callable[[], Awaitable[None]]) -> None:
        """Run ``then`` once every call queued for the group so far is done."""
        self._outbox(chat_id).post(then, paced=False)

    def board(self, board: Board) -> None:
        """Show a table's newest board (or lobby) when the group's budget allows, skipping any
        older one still waiting, and however long flood control lasts: the caller goes on at
        once, holding no table's lock while the group's budget refills (the moves of its
        other tables, a forum's topics, go on meanwhile)."""
        self._outbox(board.place.chat_id).board(board)

    async def edit(
        self,
        to: int | Place,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> int:
        """Edit in place; if the message is gone, send a new one to the chat or place ``to``.
        Returns the message id. Flood control is waited out however long it lasts (a player's
        hand given up after three 429s kept its old keyboard, whose taps were refused as
        stale, until the turn's reminder drew it again): in a DM the table waits for it, as its
        next move depends on it; a group's edit nobody need wait for goes by ``replace``."""
        place = _place(to)
        edit = partial(self._edit, place, message_id, text, keyboard)
        return await self._in_turn(place, partial(self._patiently, edit))

    async def amend(self, to: int, message_id: int, text: str) -> bool:
        """Edit a DM's message in place, its buttons gone, to add what happened since (a hand's
        record told that the round is over): if it is gone, nothing goes in its place, as a new
        message each round would flood the chat. False then."""
        place = _place(to)
        edit = partial(self._edit_in_place, place, message_id, text)
        try:
            await self._in_turn(place, partial(self._patiently, edit))
        except MessageGone:
            return False
        return True

    def replace(
        self,
        to: int | Place,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> None:
        """Edit a group's message in its turn, nobody waiting (a tap is answered meanwhile),
        however long flood control lasts; if the message is gone, a new one says it."""
        place = _place(to)
        edit = partial(self._edit, place, message_id, text, keyboard)
        self._outbox(place.chat_id).post(self._unheeded(edit))

    async def menu(
        self,
        scope: BotCommandScope,
        commands: Sequence[BotCommand] | None,
        language: str | None = None,
    ) -> None:
        """Set the "/" menu of ``commands`` that ``scope`` shows to people whose app speaks
        ``language`` (None: any other), or (``commands`` None) take it away, so that the wider
        scope's shows again. Flood control is waited out as ``_call`` does: a 429 at start-up,
        which registers every menu, stopped the bot."""
        if commands is None:
            request = partial(self.bot.delete_my_commands, scope=scope, language_code=language)
        else:
            request = partial(
                self.bot.set_my_commands, commands, scope=scope, language_code=language
            )
        await self._call(None, request)

    async def member(self, chat_id: int, user_id: int) -> ChatMember:
        """What ``user_id`` is in the group (an admin, a member...). Flood control is waited
        out as ``_call`` does, but only while it asks for ``MEMBER_WAIT`` seconds at most: an
        admin's /cancel under a 429 was refused as if he were none. Not in the group's outbox,
        as it sends nothing: a busy group's queue would hold the command that asks. Raises
        ``RetryAfter`` (or another ``TelegramError``) when Telegram did not say."""
        request = partial(self.bot.get_chat_member, chat_id, user_id)
        return await self._call(None, request, longest=MEMBER_WAIT)

    async def caught_up(self, chat_id: int) -> None:
        """Wait until what was queued for the group so far has gone (a lobby redrawn), holding
        no table's lock, so that a tap's answer comes after what the tap changed; but
        ``ANSWER_WAIT`` seconds at most (on the pacer's clock): a group out of room or under
        flood control may hold its lobby for a minute, and Telegram refuses an answer that
        late, leaving the button spinning meanwhile. What it changed still goes."""
        if chat_id > 0:
            return

        async def nothing() -> None:
            """Only marks the place in the queue."""

        mark = self._outbox(chat_id).call(nothing, paced=False)
        await self.pacer.within(ANSWER_WAIT, asyncio.shield(mark))

    async def _in_turn(self, place: Place, request: Callable[[], Awaitable[T]]) -> T:
        """A DM goes at once; a group's call waits for its turn in the group's outbox."""
        if place.chat_id > 0:
            return await request()
        result: T = await self._outbox(place.chat_id).call(request)
        return result

    @property
    def idle(self) -> bool:
        """Nothing queued for any group."""
        return all(outbox.idle for outbox in self._outboxes.values())

    async def close(self, grace: float = 5.0) -> None:
        """On stop: what the groups' budgets let through within ``grace`` seconds goes out."""
        await asyncio.gather(*(outbox.close(grace) for outbox in self._outboxes.values()))

    def _unheeded(
        self, request: Callable[[], Awaitable[object]], *, patient: bool = True
    ) -> Callable[[], Awaitable[None]]:
        """A group's call nobody waits for, through flood control if ``patient``. One the
        place refuses for good is no failure to log: the refusal ends the place's tables,
        which logs it once (``place_gone``), and whatever else was queued there is refused
        the same way, once each, not retried."""

        async def call() -> None:
            try:
                await (self._patiently(request) if patient else request())
            except PlaceGone as gone:
                _dropped(gone)

        return call

    async def _show_board(self, chat_id: int, board: Board) -> None:
        where = board.where()
        try:
            moved = await self._patiently(partial(self._draw, board, where))
        except PlaceGone as gone:  # as for ``_unheeded``: the table is being ended
            _dropped(gone)
            return
        if moved != where:
            await board.remember(moved)

    async def _draw(self, board: Board, where: int | None) -> int | None:
        """One try at showing ``board`` as it is now (closed while it waited out flood
        control, ``Outbox.board``): where it is, or nowhere for a closing lobby or board, which
        no message shows open any more. A closing lobby only takes the buttons off the message
        people saw: one never shown, or deleted in the group, is not posted anew just to say
        that the match started, or that the table was cancelled or expired (a message says it
        ``instead`` where one must: a /cancel); nor is one the bot may no longer edit there
        (the place is gone) tried again. A board, or a lobby still open, whose message was
        deleted comes back as a new message: the table is still there, and its buttons are the
        way in."""
        place, text, keyboard = board.place, board.text, board.keyboard
        if board.closing:
            with contextlib.suppress(PlaceGone):
                try:
                    await self._edit_in_place(place, where, text, keyboard)
                except MessageGone:
                    if board.instead is not None:
                        await self._send(place, board.instead)
            return None
        if where is None or board.fresh:
            return (await self._send(place, text, keyboard)).message_id
        return await self._edit(place, where, text, keyboard)

    async def _send(
        self,
        place: Place,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> Message:
        replying = (
            None
            if reply_to is None
            else ReplyParameters(reply_to, allow_sending_without_reply=True)
        )
        request = partial(
            self.bot.send_message,
            place.chat_id,
            fit(text),
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard,
            reply_parameters=replying,
            message_thread_id=place.thread_id,
        )
        try:
            return await self._call(place.chat_id, request)
        except ChatMigrated as exc:
            moved = Place(await self._moved(exc, place.chat_id), place.thread_id)
            return await self._send(moved, text, keyboard, reply_to)
        except (Forbidden, BadRequest) as exc:
            self._refused(place, exc)

    async def _edit(
        self,
        place: Place,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> int:
        """Edit in place, or if the message is gone, send a new one that says it."""
        try:
            return await self._edit_in_place(place, message_id, text, keyboard)
        except MessageGone as gone:
            return (await self._send(gone.place, text, keyboard)).message_id

    async def _edit_in_place(
        self,
        place: Place,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> int:
        """Edit the message in place (unchanged is done too); ``MessageGone`` if there is none
        to edit, ``PlaceGone`` if the bot may no longer touch it there (a closed topic's, unless
        the bot may manage topics)."""
        if message_id is None:
            raise MessageGone(place)
        request = partial(
            self.bot.edit_message_text,
            fit(text),
            chat_id=place.chat_id,
            message_id=message_id,
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard,
        )
        try:
            await self._call(place.chat_id, request)
        except Forbidden as exc:
            self._refused(place, exc)
        except ChatMigrated as exc:
            # an old group's messages cannot be edited in the supergroup: a new one goes there
            moved = Place(await self._moved(exc, place.chat_id), place.thread_id)
            raise MessageGone(moved) from exc
        except BadRequest as exc:
            reason = str(exc).lower()
            if "not modified" in reason:
                return message_id
            if _refusal(exc, place) is not None:
                self._refused(place, exc)
            if "not found" in reason or "can't be edited" in reason:
                raise MessageGone(place) from exc
            raise
        return message_id

    def _refused(self, place: Place, exc: Forbidden | BadRequest) -> NoReturn:
        """Raise for a refusal: ``Blocked`` for a DM that cannot be delivered, ``PlaceGone``
        (once the place's tables are told to end) for a place the bot may no longer write to,
        else the refusal itself."""
        why = _refusal(exc, place)
        if why is None:
            if isinstance(exc, Forbidden):
                raise Blocked(str(exc)) from exc
            raise exc
        gone = place.chat if why in CHAT_WIDE else place
        if self.place_gone is not None:
            self.place_gone(gone, why)
        raise PlaceGone(gone, why, str(exc)) from exc

    async def _call(
        self,
        chat_id: int | None,
        request: Callable[[], Awaitable[T]],
        *,
        longest: float | None = None,
    ) -> T:
        """The bot's one flood-control policy (PTB's rate limiter does not retry: it would
        pause every chat): after a 429, wait as long as Telegram asks (on the pacer's clock,
        which tests run fast), up to ``RETRIES`` attempts, unless it asks for more than
        ``longest`` seconds: the 429 is raised at once then. A group's call counts against its
        budget (``chat_id`` None: a call no chat's, a menu). In a group this runs in its
        outbox, so no table waits; a DM's retry (rare: a chat gets about one call a second)
        holds its table, whose next hand play depends on."""
        for attempt in range(RETRIES):
            try:
                return await request()
            except RetryAfter as exc:
                await self._wait(exc, attempt, longest)
            finally:
                if chat_id is not None and chat_id < 0:
                    self.pacer.note(chat_id)
        raise TelegramError("flood control did not clear")

    async def _patiently(self, request: Callable[[], Awaitable[T]]) -> T:
        """A call goes through however long flood control lasts. A group's holds no table,
        only its group's outbox, whose later calls must come after it anyway (a result given
        up would be said nowhere else); a DM's holds its table, whose next move waits for the
        hand it brings (``send``, ``edit``). Only the answers to commands that only tell
        (``inform``) and to taps (``answer``) may be given up."""
        while True:
            try:
                return await request()
            except RetryAfter as exc:  # ``_call`` gave up: wait once more, then try again
                await self.pacer.sleep(_seconds(exc))

    async def _moved(self, exc: ChatMigrated, chat_id: int) -> int:
        """The group became a supergroup: move our records along and use its new id."""
        new_id = exc.new_chat_id
        if self.migrate is not None:
            await self.migrate(chat_id, new_id)
        return new_id

    async def _wait(self, exc: RetryAfter, attempt: int, longest: float | None = None) -> None:
        """Sleep as long as Telegram asks, unless this was the last attempt, or it asks for
        more than ``longest`` seconds: then give up at once rather than sleep for nothing."""
        seconds = _seconds(exc)
        if attempt == RETRIES - 1 or (longest is not None and seconds > longest):
            raise exc
        log.warning("flood control: waiting %.1f s", seconds, extra={"attempt": attempt + 1})
        await self.pacer.sleep(seconds)

    async def answer_after(self, query_id: str, shown: Awaitable[object]) -> None:
        """Answer a tap once what it shows (a hand's question, edited in) is on screen, so that
        the spinner stops on it; but after ``ANSWER_WAIT`` seconds at most, as Telegram refuses
        a later answer and a chat under flood control may hold the edit for minutes. The edit
        still goes. Real seconds, as Telegram counts them: a DM's edit takes milliseconds
        unless Telegram holds it."""
        showing = asyncio.ensure_future(shown)
        await asyncio.wait([showing], timeout=ANSWER_WAIT)
        await self.answer(query_id)
        await showing

    async def answer(
        self, query_id: str, text: str = "", alert: bool = False, url: str | None = None
    ) -> None:
        """Answer a tap with the HTML ``text`` as a person reads it (an answer is plain text:
        a name that asked to change pair read "Tom &amp; Jerry"), or (``url``) with a link to
        open, the bot's DM. Never raises, nor waits out flood control: the answer only stops
        the button's spinner, and a move already made must go on whatever Telegram says (an old
        query, 429, a timeout), without holding its table meanwhile."""
        try:
            await self.bot.answer_callback_query(
                query_id, text=_visible(text)[:200], show_alert=alert, url=url
            )
        except TelegramError as exc:
            log.info("could not answer a callback query: %s", exc)
