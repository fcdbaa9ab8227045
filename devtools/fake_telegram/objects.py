"""What the tests see: users, chats and messages as Telegram holds them, and the calls made."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user as the test knows it (create with :meth:`FakeTelegram.user`)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    last_name: str | None = None
    is_bot: bool = False

    def to_dict(self) -> JSONDict:
        """The Bot API ``User`` object."""
        result: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            result["last_name"] = self.last_name
        if self.username:
            result["username"] = self.username
        if self.language_code:
            result["language_code"] = self.language_code
        return result


@dataclass
class FakeChat:
    """A chat known to the server: private (id = user id), group or supergroup (a forum, with
    topics, if ``is_forum``)."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    migrated_to: int | None = None
    migrated_from: int | None = None
    is_forum: bool = False

    def to_dict(self) -> JSONDict:
        """The Bot API ``Chat`` object."""
        result: JSONDict = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            result["first_name"] = self.user.first_name
            if self.user.last_name:
                result["last_name"] = self.user.last_name
            if self.user.username:
                result["username"] = self.user.username
        else:
            if self.title is not None:
                result["title"] = self.title
            if self.username:
                result["username"] = self.username
            if self.is_forum:
                result["is_forum"] = True
        return result


@dataclass
class FakeTopic:
    """A topic of a forum supergroup. Its ``thread_id`` is the id of the service message that
    created it, as on Telegram; every message in it carries that id as ``message_thread_id``.
    A closed topic takes messages only from admins (and from a bot only if it may manage
    topics), and only such a bot may edit its messages there; a deleted one is gone with its
    messages. ``close_topic`` and ``reopen_topic`` set ``closed`` and tell the bot."""

    chat: FakeChat
    thread_id: int
    name: str
    closed: bool = False
    deleted: bool = False


@dataclass
class BotAccount:
    """The bot the server stands in for: its token, names and BotFather's privacy mode."""

    token: str
    username: str
    first_name: str
    privacy_mode: bool

    @property
    def id(self) -> int:
        return int(self.token.split(":", 1)[0])

    @property
    def user(self) -> JSONDict:
        """The bot's ``User`` object."""
        return {
            "id": self.id,
            "is_bot": True,
            "first_name": self.first_name,
            "username": self.username,
        }


ButtonMatcher = str | Callable[[JSONDict], bool]


@dataclass
class FakeMessage:
    """A message in a chat, as it currently is: edits are applied in place.

    ``text`` is what the user sees (markup removed, HTML entities decoded); ``raw_text`` and
    ``parse_mode`` are what the bot sent last.  ``edited`` counts successful edits of text or
    keyboard; ``history`` keeps the previous texts.  ``sent_at`` uses the server clock
    (``time.monotonic`` unless the test passed its own), ``date`` is a unix timestamp.
    """

    chat: FakeChat
    message_id: int
    sender: JSONDict
    date: int
    sent_at: float
    from_bot: bool
    text: str | None = None
    entities: list[JSONDict] = field(default_factory=list)
    reply_markup: JSONDict | None = None
    raw_text: str | None = None
    parse_mode: str | None = None
    edited: int = 0
    edit_date: int | None = None
    deleted: bool = False
    delivered: bool = True
    history: list[str] = field(default_factory=list)
    extra: JSONDict = field(default_factory=dict)
    options: JSONDict = field(default_factory=dict)
    #: The forum topic the message is in; None in the chat itself (a forum's General topic).
    thread_id: int | None = None

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def inline_keyboard(self) -> list[list[JSONDict]]:
        """Rows of inline buttons (empty when there is no inline keyboard)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or []
        return [list(row) for row in rows]

    @property
    def buttons(self) -> list[JSONDict]:
        """All inline buttons, row by row."""
        return [button for row in self.inline_keyboard for button in row]

    @property
    def button_texts(self) -> list[list[str]]:
        """The inline keyboard as rows of button labels."""
        return [[str(button.get("text", "")) for button in row] for row in self.inline_keyboard]

    def find_button(self, match: ButtonMatcher) -> JSONDict | None:
        """The first inline button whose text equals ``match`` (or for which it returns True)."""
        for button in self.buttons:
            if match(button) if callable(match) else button.get("text") == match:
                return button
        return None

    def to_dict(self) -> JSONDict:
        """The Bot API ``Message`` object, as Telegram would send it now."""
        result: JSONDict = {
            "message_id": self.message_id,
            "from": dict(self.sender),
            "chat": self.chat.to_dict(),
            "date": self.date,
        }
        if self.thread_id is not None:
            result["message_thread_id"] = self.thread_id
            result["is_topic_message"] = True
        if self.text is not None:
            result["text"] = self.text
            if self.entities:
                result["entities"] = [dict(e) for e in self.entities]
        if self.reply_markup and self.inline_keyboard:
            result["reply_markup"] = json.loads(json.dumps(self.reply_markup))
        if self.edit_date is not None:
            result["edit_date"] = self.edit_date
        result.update(self.extra)
        return result

    def __repr__(self) -> str:
        flags = "".join(
            [f" edited={self.edited}" if self.edited else "", " deleted" if self.deleted else ""]
        )
        keyboard = f" buttons={self.button_texts}" if self.inline_keyboard else ""
        return (
            f"<FakeMessage chat={self.chat.id} id={self.message_id} "
            f"{'bot' if self.from_bot else 'user'}{flags} text={self.text!r}{keyboard}>"
        )


@dataclass
class RecordedCall:
    """One Bot API request the server handled.

    ``FakeTelegram.calls`` lists them in the order the responses were sent (a long poll is
    recorded when it returns); ``time`` is when the request arrived, on the server clock.
    ``params`` are decoded: JSON-encoded fields (``chat_id``, ``reply_markup``...) are
    parsed, text fields kept as strings.
    """

    method: str
    params: JSONDict
    time: float
    status: int = 200
    error: str | None = None
    result: Any = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    def __str__(self) -> str:
        shown = {k: v for k, v in self.params.items() if k != "reply_markup"}
        if "reply_markup" in self.params:
            shown["reply_markup"] = "..."
        outcome = "ok" if self.ok else f"{self.status} {self.error}"
        return f"{self.method}({json.dumps(shown, ensure_ascii=False)[:300]}) -> {outcome}"


@dataclass
class CallbackAnswer:
    """What the bot answered to a callback query."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None = None
    cache_time: int | None = None


ChatRef = FakeChat | FakeUser | int


def id_of(ref: ChatRef) -> int:
    """The id of a user, a chat, or an id already."""
    return ref if isinstance(ref, int) else ref.id
