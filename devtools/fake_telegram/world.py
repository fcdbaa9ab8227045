"""The chats the server knows, their users and messages, and whom the bot may write to.

A private chat has its user's id; the bot may write there only after the user pressed Start
and until they block it or delete their account (403 otherwise, with Telegram's wording). A
group where the bot may not send messages any more refuses new ones with 400. A group migrated to a
supergroup answers 400 with ``migrate_to_chat_id``; a group the bot was kicked from, 403. A
forum's topics take messages sent with their ``message_thread_id``; a deleted or unknown one
answers "message thread not found", a closed one ``TOPIC_CLOSED`` unless the writer is an admin
(for a bot: an admin that may manage topics, ``topic_managers``). The bot's messages in a closed
topic refuse edits the same way (``messages``): Telegram does not document it, and a bot must
not count on editing there.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .errors import (
    ERR_BLOCKED,
    ERR_CANT_INITIATE,
    ERR_CHAT_NOT_FOUND,
    ERR_DEACTIVATED,
    ERR_MIGRATED,
    ERR_NO_RIGHTS,
    ERR_THREAD_NOT_FOUND,
    ERR_TOPIC_CLOSED,
    ApiError,
    bad_request,
)
from .objects import (
    CallbackAnswer,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeTopic,
    FakeUser,
    JSONDict,
    id_of,
)
from .params import Params, loose_int


class World:
    """Users, chats and every message in them, as they are now (edits applied in place).

    ``admins`` / ``creators`` / ``members`` (per chat id) answer getChatMember, and
    ``topic_managers`` are the admins with the can_manage_topics right; ``started`` /
    ``blocked`` / ``deactivated`` / ``kicked`` / ``muted`` hold the users who pressed Start, the
    users who blocked the bot, the users who deleted their account, the chats the bot was
    removed from and the chats where it may no longer send messages. ``pending_queries`` are
    pressed buttons not yet answered (query id -> chat id, message id); ``callback_answers``
    what the bot answered.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.admins: defaultdict[int, set[int]] = defaultdict(set)
        self.creators: dict[int, int] = {}
        self.members: defaultdict[int, set[int]] = defaultdict(set)
        self.topic_managers: defaultdict[int, set[int]] = defaultdict(set)
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.deactivated: set[int] = set()
        self.kicked: set[int] = set()
        self.muted: set[int] = set()
        self.pending_queries: dict[str, tuple[int, int]] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self._messages: defaultdict[int, dict[int, FakeMessage]] = defaultdict(dict)
        self._next_message_id: dict[int, int] = {}
        self._topics: dict[tuple[int, int], FakeTopic] = {}

    # --- users and chats

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """Register (or replace) a user; their private chat has the same id."""
        if id <= 0:
            raise ValueError("user ids are positive")
        person = FakeUser(id, first_name, username, language_code, last_name)
        self.users[id] = person
        chat = self.chats.get(id)
        if chat is not None:
            chat.user = person
        return person

    def group(
        self,
        id: int,
        title: str,
        type: str = "group",
        *,
        username: str | None = None,
        creator: FakeUser | int | None = None,
        admins: Iterable[FakeUser | int] = (),
        members: Iterable[FakeUser | int] = (),
        forum: bool = False,
    ) -> FakeChat:
        """Register a group or supergroup the bot is a member of; a ``forum`` supergroup has
        topics (``create_topic``)."""
        if type not in ("group", "supergroup"):
            raise ValueError("type must be 'group' or 'supergroup'")
        if id >= 0:
            raise ValueError("group ids are negative (supergroups look like -100...)")
        if forum and type != "supergroup":
            raise ValueError("only a supergroup can be a forum")
        chat = FakeChat(id, type, title=title, username=username, is_forum=forum)
        self.chats[id] = chat
        if creator is not None:
            self.creators[id] = id_of(creator)
            self.members[id].add(id_of(creator))
        for admin in admins:
            self.admins[id].add(id_of(admin))
            self.members[id].add(id_of(admin))
        for member in members:
            self.members[id].add(id_of(member))
        return chat

    def private(self, user: FakeUser | int) -> FakeChat:
        """The private chat between the bot and ``user``."""
        user_id = id_of(user)
        person = self.users.get(user_id)
        if person is None:
            raise KeyError(f"unknown user {user_id}; create it with server.user()")
        chat = self.chats.get(user_id)
        if chat is None:
            chat = FakeChat(user_id, "private", user=person)
            self.chats[user_id] = chat
        return chat

    def chat(self, ref: ChatRef) -> FakeChat:
        """Look up a chat by object or id (a user means their private chat)."""
        if isinstance(ref, FakeUser):
            return self.private(ref)
        chat_id = id_of(ref)
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id in self.users:
            return self.private(chat_id)
        raise KeyError(f"unknown chat {chat_id}")

    def block(self, user: FakeUser | int) -> None:
        """The user blocks the bot: sends to them fail with 403 until they write again."""
        self.blocked.add(id_of(user))

    def unblock(self, user: FakeUser | int) -> None:
        self.blocked.discard(id_of(user))

    def deactivate(self, user: FakeUser | int) -> None:
        """The user deletes their account: sends to them fail with 403 for good."""
        self.deactivated.add(id_of(user))

    def mark_started(self, user: FakeUser | int) -> None:
        """Pretend the user pressed Start, without injecting an update."""
        self.started.add(id_of(user))

    def kick_bot(self, chat: ChatRef) -> None:
        """The bot is removed from a group: everything there fails with 403."""
        self.kicked.add(self.chat(chat).id)

    def mute_bot(self, chat: ChatRef) -> None:
        """An admin takes the bot's right to send messages: new messages fail with 400 (what
        it sent before can still be edited)."""
        self.muted.add(self.chat(chat).id)

    # --- forum topics

    def add_topic(self, chat: FakeChat, thread_id: int, name: str) -> FakeTopic:
        if not chat.is_forum:
            raise ValueError(f"chat {chat.id} is not a forum")
        topic = FakeTopic(chat, thread_id, name)
        self._topics[(chat.id, thread_id)] = topic
        return topic

    def topic(self, chat: ChatRef, thread_id: int) -> FakeTopic | None:
        return self._topics.get((id_of(chat), thread_id))

    def is_admin(self, chat: FakeChat, user_id: int) -> bool:
        return user_id in self.admins[chat.id] or self.creators.get(chat.id) == user_id

    def writable_thread(
        self, chat: FakeChat, thread_id: int | None, *, may_write_closed: bool
    ) -> None:
        """Telegram's error for a message to topic ``thread_id`` of ``chat`` (None: the chat
        itself, a forum's General topic); a closed topic takes it only ``may_write_closed``."""
        if thread_id is None:
            return
        topic = self.topic(chat, thread_id)
        if topic is None or topic.deleted:
            raise ApiError(400, ERR_THREAD_NOT_FOUND)
        if topic.closed and not may_write_closed:
            raise ApiError(400, ERR_TOPIC_CLOSED)

    def topic_messages(self, topic: FakeTopic) -> list[FakeMessage]:
        """The bot's messages in ``topic``, oldest first, with their current content."""
        return [m for m in self.messages(topic.chat) if m.thread_id == topic.thread_id]

    # --- messages

    def store_message(
        self,
        chat: FakeChat,
        sender: JSONDict,
        *,
        from_bot: bool,
        text: str | None = None,
        entities: list[JSONDict] | None = None,
        reply_markup: JSONDict | None = None,
        raw_text: str | None = None,
        parse_mode: str | None = None,
        extra: JSONDict | None = None,
        options: JSONDict | None = None,
        thread_id: int | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=self._new_message_id(chat.id),
            sender=sender,
            date=int(time.time()),
            sent_at=self.clock(),
            from_bot=from_bot,
            text=text,
            entities=entities or [],
            reply_markup=reply_markup,
            raw_text=raw_text,
            parse_mode=parse_mode,
            extra=extra or {},
            options=options or {},
            thread_id=thread_id,
        )
        self._messages[chat.id][message.message_id] = message
        return message

    def _new_message_id(self, chat_id: int) -> int:
        # Ids increase per chat and start at a chat-dependent number, so mixing up chats shows.
        current = self._next_message_id.get(chat_id, 10 + (abs(chat_id) % 89) * 7)
        self._next_message_id[chat_id] = current + 1
        return current

    def find(self, chat_id: int, message_id: int | None) -> FakeMessage | None:
        return None if message_id is None else self._messages[chat_id].get(message_id)

    def current(self, message: FakeMessage | Mapping[str, Any]) -> FakeMessage:
        """The message as it is now, from a (possibly stale) copy of it."""
        if isinstance(message, FakeMessage):
            chat_id, message_id = message.chat.id, message.message_id
        else:
            chat_id, message_id = int(message["chat"]["id"]), int(message["message_id"])
        try:
            return self._messages[chat_id][message_id]
        except KeyError:
            raise AssertionError(f"no message {message_id} in chat {chat_id}") from None

    def messages(self, chat: ChatRef, *, include_deleted: bool = True) -> list[FakeMessage]:
        """The bot's messages in ``chat``, oldest first, with their current content."""
        return [
            m
            for m in self._messages[id_of(chat)].values()
            if m.from_bot and (include_deleted or not m.deleted)
        ]

    def history(self, chat: ChatRef) -> list[FakeMessage]:
        """Every message in ``chat`` (users', bot's and service messages), oldest first."""
        return list(self._messages[id_of(chat)].values())

    def last_message(self, chat: ChatRef, *, include_deleted: bool = False) -> FakeMessage:
        """The bot's most recent (not deleted) message in ``chat``; AssertionError if none."""
        found = self.messages(chat, include_deleted=include_deleted)
        if not found:
            raise AssertionError(f"the bot has no messages in chat {id_of(chat)}")
        return found[-1]

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        """A message by id (any sender); KeyError if unknown."""
        return self._messages[id_of(chat)][message_id]

    # --- what a request may address

    def resolve_chat(self, params: Params, name: str = "chat_id") -> FakeChat:
        """The chat a request names (by id or ``@username``), or Telegram's error for it."""
        value = params.get(name)
        if value is None or value == "":
            raise bad_request(f"{name} is empty")
        chat: FakeChat | None = None
        if isinstance(value, str) and value.startswith("@"):
            wanted = value[1:].lower()
            chat = next(
                (
                    c
                    for c in self.chats.values()
                    if c.type != "private" and c.username and c.username.lower() == wanted
                ),
                None,
            )
        else:
            chat_id = loose_int(value)
            if chat_id is not None:
                chat = self.chats.get(chat_id)
                if chat is None and chat_id in self.users:
                    chat = self.private(chat_id)
        if chat is None:
            raise ApiError(400, ERR_CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise ApiError(400, ERR_MIGRATED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.id in self.kicked:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        return chat

    def writable_chat(self, params: Params) -> FakeChat:
        """A chat the bot may send to: a DM needs Start and no block (403 otherwise), a group
        the right to send messages (400 otherwise)."""
        chat = self.resolve_chat(params)
        if chat.id in self.muted:
            raise ApiError(400, ERR_NO_RIGHTS)
        if chat.type == "private":
            if chat.id in self.deactivated:
                raise ApiError(403, ERR_DEACTIVATED)
            if chat.id in self.blocked:
                raise ApiError(403, ERR_BLOCKED)
            if chat.id not in self.started:
                raise ApiError(403, ERR_CANT_INITIATE)
        return chat
