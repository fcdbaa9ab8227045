"""Small pieces every handler needs: replying politely, permissions, deep links."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Chat, ChatMember, InlineKeyboardMarkup, Message, Update, User
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.helpers import create_deep_linked_url

from storage import TableRow

from ..callbacks import verb_is
from ..context import Kozel
from ..i18n import Localized, said
from ..place import Place, place_of
from ..sender import TOAST, Write, Written, read_len


async def reply(
    k: Kozel, update: Update, text: str, keyboard: InlineKeyboardMarkup | None = None
) -> None:
    """Answer a command where it was written (its chat, or its forum topic), through the
    sender: a group's replies count towards its messages a minute, and flood control is
    waited out (``Sender.reply``: in a group, by nobody)."""
    message, place = update.effective_message, place_of(update)
    if message is not None and place is not None:
        await k.sender.reply(place, text, message.message_id, keyboard)


async def inform(
    k: Kozel, update: Update, text: str, keyboard: InlineKeyboardMarkup | None = None
) -> None:
    """Answer a command that only tells (/help, /rules) where it was written: in a group,
    behind the game's own messages, and only once however often it is asked
    (``Sender.inform``)."""

    async def written() -> Written:
        return text, keyboard

    await _inform(k, update, written)


#: Writes an answer that tells how things are, in the language given.
WriteIn = Callable[[str], Awaitable[Written]]


async def inform_when_sent(k: Kozel, update: Update, write: WriteIn) -> None:
    """As ``inform``, an answer that tells how things are (/standings, /top, /stats,
    /history): ``write`` writes it when asked, and again when it goes, in the chat's language
    then, which in a busy group may be after the match it tells of has moved on, or ended, or
    after its admins chose another language."""

    async def written() -> Written:
        return await write(await k.language(update))

    message = update.effective_message
    await _inform(k, update, written, None if message is None else _asked(message.text))


async def _inform(k: Kozel, update: Update, write: Write, question: str | None = None) -> None:
    message, place, asker = update.effective_message, place_of(update), update.effective_sender
    if message is not None and place is not None and asker is not None:
        reply_to = message.message_id
        await k.sender.inform(place, write, asker=asker.id, reply_to=reply_to, question=question)


def _asked(command: str | None) -> str | None:
    """A command as what it asks: ``/Standings@KozelBot`` and ``/standings`` ask the same."""
    if not command:
        return None
    name, *args = command.split()
    return " ".join([name.split("@")[0].lower(), *args])


async def refuse(k: Kozel, update: Update, lang: str, key: str, **values: object) -> None:
    """Answer a tap or a command with a polite explanation; nothing changes."""
    await answer(k, update, lang, said(key, **values))


async def answer(k: Kozel, update: Update, lang: str, words: Localized) -> None:
    """Answer a tap with ``words`` in the tapper's language (only they see it: a toast, or an
    alert when it is long; ``lang`` if Telegram does not say theirs), or a command with a reply
    in ``lang``, the chat's, which everyone there reads."""
    query = update.callback_query
    if query is not None:
        text = words(await k.person_language(query.from_user, lang))
        await k.sender.answer(query.id, text, alert=read_len(text) > TOAST)
    else:
        await reply(k, update, words(lang))


async def shown(k: Kozel, update: Update, chat_id: int) -> None:
    """Wait until what a tap changed has gone out in its group (a lobby redrawn), so that its
    answer comes after it (``Sender.caught_up``). A command's reply waits for nothing: it is
    posted after what the command changed (``Sender.reply``), and the group's later updates
    need not wait while its budget refills."""
    if update.callback_query is not None:
        await k.sender.caught_up(chat_id)


def drawn_here(update: Update, verb: str) -> bool:
    """Whether the tapped message carries buttons of ``verb``: /top's and /language's buttons
    edit the message they are on, which one forged onto another message (the board, the
    lobby) must leave alone."""
    message = update.effective_message
    markup = None if message is None else message.reply_markup
    of_verb = verb_is(verb)
    rows = () if markup is None else markup.inline_keyboard
    return any(of_verb(button.callback_data) for row in rows for button in row)


def in_group(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)


def in_private(update: Update) -> bool:
    """Whether the update came from the person's DM with the bot."""
    chat = update.effective_chat
    return chat is not None and chat.type == Chat.PRIVATE


@dataclass(frozen=True, slots=True)
class FromGroup:
    """A command or a tap in a group, or in a topic of a forum: where, and from whom."""

    place: Place
    chat: Chat
    message: Message  # the command, or the tapped message
    user: User
    #: ``user``, or the group itself for an admin who writes anonymously (``user`` being a
    #: stand-in then, GroupAnonymousBot)
    sender: User | Chat


async def from_group(k: Kozel, update: Update, lang: str) -> FromGroup | None:
    """The group an update came from; None, once the person is told that it works only in a
    group, for one from anywhere else (a DM)."""
    chat, message = update.effective_chat, update.effective_message
    user, sender, place = update.effective_user, update.effective_sender, place_of(update)
    if (
        chat is None
        or message is None
        or user is None
        or sender is None
        or place is None
        or not in_group(update)
    ):
        await refuse(k, update, lang, "err.group_only")
        return None
    return FromGroup(place, chat, message, user, sender)


#: Why a seat is refused to a message sent in the group's name, or in a channel's.
SEAT_REFUSALS = ("err.anonymous", "err.as_channel")


async def refuse_anonymous(
    k: Kozel, update: Update, lang: str, refusals: tuple[str, str] = SEAT_REFUSALS
) -> bool:
    """Refuse a seat (or what ``refusals`` say: the group's key, then the channel's) to a
    message sent in a chat's name (an admin who writes anonymously, or someone who writes as
    one of his channels; its ``from`` is a stand-in, GroupAnonymousBot or Channel_Bot, whose
    hand nobody could get, and who has no record): a seat is a person's. Whether it refused."""
    sender, chat = update.effective_sender, update.effective_chat
    if not isinstance(sender, Chat):
        return False
    group_key, channel_key = refusals
    if chat is not None and sender.id == chat.id:
        await refuse(k, update, lang, group_key)
    else:
        await refuse(k, update, lang, channel_key, name=sender.title or "")
    return True


async def person_in_group(k: Kozel, update: Update, lang: str) -> FromGroup | None:
    """The group a person who takes a seat wrote or tapped in (``from_group``); None, once
    told why, for one who writes in a chat's name (``refuse_anonymous``)."""
    group = await from_group(k, update, lang)
    if group is None or await refuse_anonymous(k, update, lang):
        return None
    return group


class RightsUnknown(Exception):
    """Telegram did not say whether someone is an admin (flood control longer than
    ``Sender.member`` waits, a network failure): what needed the rights is refused with a
    "try again" (``errors.on_error``), not with a "you are not an admin"."""


async def is_admin(k: Kozel, chat_id: int, sender: User | Chat) -> bool:
    """Whether ``sender`` (``Update.effective_sender``) is one of the chat's admins. An admin
    who writes anonymously writes in the group's name: the sender is the group itself (the
    message's ``sender_chat``, its ``from`` a stand-in, GroupAnonymousBot), as only admins can.
    ``RightsUnknown`` when Telegram did not say."""
    if isinstance(sender, Chat):
        return sender.id == chat_id
    try:
        member = await k.sender.member(chat_id, sender.id)
    except (BadRequest, Forbidden):  # Telegram answered: nobody it knows as a member there
        return False
    except TelegramError as exc:
        raise RightsUnknown(str(exc)) from exc
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


async def may_manage(k: Kozel, table: TableRow, sender: User | Chat) -> bool:
    """The table's opener and the chat's admins may change or cancel it (a damaged one too,
    which only its row describes). ``RightsUnknown`` as ``is_admin``."""
    return sender.id == table.opener_id or await is_admin(k, table.chat_id, sender)


def join_link(k: Kozel, table_id: int) -> str:
    return create_deep_linked_url(k.sender.bot.username, f"join-{table_id}")
