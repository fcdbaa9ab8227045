"""What users do in Telegram (write, press a button, upgrade or rename a group, leave it, remove the
bot from a group or add it back, open, rename, close and delete forum topics), as updates for the
bot.

Privacy mode, as BotFather sets it by default: in groups the bot receives only commands,
mentions of itself, replies to its messages and service messages (unless it is an admin there);
other group chatter is stored with ``delivered=False`` and never reaches the bot.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .calls import CallLog
from .html import entity, utf16_len
from .objects import (
    BotAccount,
    ButtonMatcher,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeTopic,
    FakeUser,
    JSONDict,
)
from .updates import UpdateQueue
from .world import World

_COMMAND_RE: Final = re.compile(r"^/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?")
_ANONYMOUS_GROUP_ADMIN: Final[JSONDict] = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
#: The stand-in ``from`` of a message someone sends as one of their channels.
_CHANNEL_BOT: Final[JSONDict] = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}


#: What a restricted member may or may not do (``ChatMemberRestricted``).
_MEMBER_RIGHTS: Final = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
    "can_react_to_messages",
)


def _sender(
    chat: FakeChat, user: FakeUser, *, anonymous: bool, as_channel: FakeChat | None
) -> tuple[JSONDict, JSONDict]:
    """A message's ``from``, and its ``sender_chat`` when written in a chat's name."""
    if as_channel is not None:
        return dict(_CHANNEL_BOT), {"sender_chat": as_channel.to_dict()}
    if anonymous:
        return dict(_ANONYMOUS_GROUP_ADMIN), {"sender_chat": chat.to_dict()}
    return user.to_dict(), {}


class UserActions(World):
    """A world whose users act: each action is stored as Telegram would and queued as an update."""

    def __init__(
        self, clock: Callable[[], float], bot: BotAccount, updates: UpdateQueue, log: CallLog
    ) -> None:
        super().__init__(clock)
        self.bot = bot
        self.updates = updates
        self.log = log
        self._query_ids = itertools.count(4_000_000_000_000_000_001)

    async def send_text(
        self,
        user: FakeUser,
        chat: ChatRef,
        text: str,
        *,
        reply_to: FakeMessage | int | None = None,
        entities: Sequence[JSONDict] | None = None,
        topic: FakeTopic | None = None,
        anonymous: bool = False,
        as_channel: FakeChat | None = None,
    ) -> JSONDict:
        """``user`` writes ``text`` in ``chat`` (in a forum, in ``topic``, else in its General
        topic): injects a ``message`` update. With ``anonymous``, ``user`` is an admin who
        writes in the group's name, as Telegram sends it: from the group itself
        (``sender_chat``), with the stand-in ``from`` GroupAnonymousBot. With ``as_channel``,
        ``user`` writes as that channel of theirs (a group's "Send as"): ``sender_chat`` is the
        channel, ``from`` the stand-in Channel_Bot.

        A leading ``/command`` (optionally ``@bot``) gets its ``bot_command`` entity.  A message
        in a private chat marks the user as having started the bot (and unblocks it).  As on
        Telegram, a message in a topic that replies to nothing else replies to the topic's
        first message (the one that created it).  Returns the Message dict (also when privacy
        mode keeps it from the bot).
        """
        self.users.setdefault(user.id, user)
        target = self.chat(chat)
        if topic is not None:
            self._check_topic(user, target, topic)
        if target.type == "private" and target.id != user.id:
            raise ValueError("in a private chat only its user can write")
        if target.migrated_to is not None:
            raise ValueError(f"chat {target.id} was migrated to {target.migrated_to}")
        if anonymous and (target.type == "private" or not self.is_admin(target, user.id)):
            raise ValueError(f"{user.id} is no admin of chat {target.id}: cannot write in its name")
        if target.type == "private":
            self.started.add(user.id)
            self.blocked.discard(user.id)
        else:
            self.members[target.id].add(user.id)
        message_entities = [dict(e) for e in entities] if entities is not None else []
        command = _COMMAND_RE.match(text)
        if entities is None and command is not None:
            message_entities.append(entity("bot_command", 0, utf16_len(command.group(0))))
        sender, extra = _sender(target, user, anonymous=anonymous, as_channel=as_channel)
        replied: FakeMessage | None = None
        if reply_to is not None:
            reply_id = reply_to.message_id if isinstance(reply_to, FakeMessage) else reply_to
            replied = self.find(target.id, reply_id)
            if replied is None:
                raise KeyError(f"no message {reply_id} in chat {target.id}")
            extra["reply_to_message"] = replied.to_dict()
        elif topic is not None:
            extra["reply_to_message"] = self.message(target, topic.thread_id).to_dict()
        message = self.store_message(
            target,
            sender,
            from_bot=False,
            text=text,
            entities=message_entities,
            extra=extra,
            thread_id=None if topic is None else topic.thread_id,
        )
        message.delivered = self._bot_sees(target, text, command, replied)
        payload = message.to_dict()
        if message.delivered:
            self.updates.enqueue({"message": payload})
        else:
            self.log.wake()
        return payload

    async def press(
        self, user: FakeUser, message: FakeMessage | Mapping[str, Any], callback_data: str
    ) -> str:
        """``user`` presses a button with ``callback_data`` under ``message``.

        Injects a ``callback_query`` update carrying the message as it is *now* (edits applied)
        and returns the new query id.  The data is not checked against the keyboard, so tests
        can simulate stale or forged presses; see :meth:`press_button` for the checked way.
        """
        self.users.setdefault(user.id, user)
        current = self.current(message)
        if current.deleted:
            raise AssertionError(f"message {current.message_id} was deleted; nothing to press")
        query_id = str(next(self._query_ids))
        self.pending_queries[query_id] = (current.chat.id, current.message_id)
        self.updates.enqueue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "message": current.to_dict(),
                    "chat_instance": str(abs(current.chat.id) * 7919 + self.bot.id),
                    "data": callback_data,
                }
            }
        )
        return query_id

    async def press_button(
        self, user: FakeUser, message: FakeMessage | Mapping[str, Any], match: ButtonMatcher
    ) -> str:
        """Press the inline button labelled ``match`` (or matching a predicate on the button
        dict) on the message's *current* keyboard; returns the query id."""
        current = self.current(message)
        button = current.find_button(match)
        if button is None:
            raise AssertionError(
                f"no button {match!r} on message {current.message_id} in chat "
                f"{current.chat.id}; keyboard is {current.button_texts}"
            )
        if "callback_data" not in button:
            raise AssertionError(f"button {button!r} has no callback_data")
        return await self.press(user, current, str(button["callback_data"]))

    async def migrate_group(
        self, old_id: ChatRef, new_id: int, *, by: FakeUser | None = None
    ) -> FakeChat:
        """Upgrade a group to a supergroup with id ``new_id``.

        Later requests for the old id fail with ``migrate_to_chat_id``; the service messages
        (``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new one) are
        injected as updates.  Returns the new supergroup.
        """
        old = self.chat(old_id)
        if old.type != "group":
            raise ValueError("only basic groups can be migrated")
        new = FakeChat(new_id, "supergroup", title=old.title, migrated_from=old.id)
        self.chats[new_id] = new
        self.admins[new_id] |= self.admins[old.id]
        self.members[new_id] |= self.members[old.id]
        if old.id in self.creators:
            self.creators[new_id] = self.creators[old.id]
        sender: JSONDict
        if by is not None:
            sender = by.to_dict()
        elif old.id in self.creators and self.creators[old.id] in self.users:
            sender = self.users[self.creators[old.id]].to_dict()
        else:
            sender = dict(_ANONYMOUS_GROUP_ADMIN)
        old_notice = self.store_message(
            old, sender, from_bot=False, extra={"migrate_to_chat_id": new_id}
        )
        new_notice = self.store_message(
            new, sender, from_bot=False, extra={"migrate_from_chat_id": old.id}
        )
        old.migrated_to = new_id
        self.updates.enqueue({"message": old_notice.to_dict()})
        self.updates.enqueue({"message": new_notice.to_dict()})
        return new

    async def rename_group(self, chat: ChatRef, title: str, *, by: FakeUser) -> None:
        """``by`` renames a group: later updates carry the new title, and the bot gets the
        ``new_chat_title`` service message (service messages pass privacy mode)."""
        target = self.chat(chat)
        target.title = title
        notice = self.store_message(
            target, by.to_dict(), from_bot=False, extra={"new_chat_title": title}
        )
        self.updates.enqueue({"message": notice.to_dict()})

    async def leave_group(
        self, user: FakeUser, chat: ChatRef, *, by: FakeUser | None = None, anonymous: bool = False
    ) -> None:
        """``user`` leaves a group, or an admin (``by``) removes them: they are no member any
        more, and the bot gets the ``left_chat_member`` service message, from whoever did it
        (service messages pass privacy mode); with ``anonymous``, from the group itself, as
        ``send_text`` writes an admin's message in the group's name."""
        target = self.chat(chat)
        if target.type == "private":
            raise ValueError("nobody leaves a private chat")
        if anonymous and (by is None or not self.is_admin(target, by.id)):
            raise ValueError("only an admin removes someone in the group's name")
        self.members[target.id].discard(user.id)
        self.admins[target.id].discard(user.id)
        sender, extra = _sender(target, by or user, anonymous=anonymous, as_channel=None)
        notice = self.store_message(
            target, sender, from_bot=False, extra={"left_chat_member": user.to_dict(), **extra}
        )
        self.updates.enqueue({"message": notice.to_dict()})

    async def remove_bot(self, chat: ChatRef, by: FakeUser) -> None:
        """``by`` removes the bot from a group: everything sent there fails with 403, and the
        bot gets a ``my_chat_member`` update (``left`` in a basic group, ``kicked`` in a
        supergroup, as Telegram reports them)."""
        target = self.chat(chat)
        self.kick_bot(target)
        bot = self.bot.user
        new: JSONDict = {"status": "left", "user": bot}
        if target.type == "supergroup":
            new = {"status": "kicked", "user": bot, "until_date": 0}
        self._bot_member_changed(target, by, {"status": "member", "user": bot}, new)

    async def add_bot(self, chat: ChatRef, by: FakeUser) -> None:
        """``by`` adds the bot back to a group it was removed from (``my_chat_member``)."""
        target = self.chat(chat)
        self.kicked.discard(target.id)
        bot = self.bot.user
        self._bot_member_changed(
            target, by, {"status": "left", "user": bot}, {"status": "member", "user": bot}
        )

    async def restrict_bot(self, chat: ChatRef, by: FakeUser) -> None:
        """An admin of a supergroup takes the bot's right to send messages (``mute_bot``); the
        bot gets a ``my_chat_member`` update with its ``restricted`` status."""
        target = self.chat(chat)
        if target.type != "supergroup":
            raise ValueError("members are restricted in supergroups only")
        self.mute_bot(target)
        bot = self.bot.user
        rights = dict.fromkeys(_MEMBER_RIGHTS, False)
        restricted = {"status": "restricted", "user": bot, "is_member": True, **rights}
        restricted["until_date"] = 0
        self._bot_member_changed(target, by, {"status": "member", "user": bot}, restricted)

    def _bot_member_changed(
        self, chat: FakeChat, by: FakeUser, old: JSONDict, new: JSONDict
    ) -> None:
        changed = {
            "chat": chat.to_dict(),
            "from": by.to_dict(),
            "date": int(time.time()),
            "old_chat_member": old,
            "new_chat_member": new,
        }
        self.updates.enqueue({"my_chat_member": changed})

    def _check_topic(self, user: FakeUser, chat: FakeChat, topic: FakeTopic) -> None:
        if topic.chat.id != chat.id:
            raise ValueError(f"topic {topic.thread_id} is not in chat {chat.id}")
        if topic.deleted:
            raise ValueError(f"topic {topic.thread_id} was deleted")
        if topic.closed and not self.is_admin(chat, user.id):
            raise ValueError(f"topic {topic.thread_id} is closed: only admins can write there")

    async def create_topic(
        self, user: FakeUser, chat: ChatRef, name: str, *, bot_sees: bool = True
    ) -> FakeTopic:
        """``user`` opens a topic in a forum; its ``forum_topic_created`` service message (the
        topic's first message, whose id is the topic's thread id) is injected as an update;
        with ``bot_sees=False`` it is only stored, as for a topic opened before the bot joined
        (messages in the topic still reply to it)."""
        target = self.chat(chat)
        if not target.is_forum:
            raise ValueError(f"chat {target.id} is not a forum")
        created = {"name": name, "icon_color": 7322096}
        notice = self.store_message(
            target, user.to_dict(), from_bot=False, extra={"forum_topic_created": created}
        )
        notice.thread_id = notice.message_id
        topic = self.add_topic(target, notice.message_id, name)
        if bot_sees:
            self.updates.enqueue({"message": notice.to_dict()})
        return topic

    async def rename_topic(self, user: FakeUser, topic: FakeTopic, name: str) -> None:
        """``user`` renames the topic (``forum_topic_edited``, with its new name)."""
        topic.name = name
        self._topic_notice(user, topic, "forum_topic_edited", {"name": name})

    async def close_topic(self, user: FakeUser, topic: FakeTopic) -> None:
        """An admin closes the topic: only admins may write there until it is reopened; the
        ``forum_topic_closed`` service message is injected as an update."""
        topic.closed = True
        self._topic_notice(user, topic, "forum_topic_closed")

    async def reopen_topic(self, user: FakeUser, topic: FakeTopic) -> None:
        """An admin reopens a closed topic (``forum_topic_reopened``)."""
        topic.closed = False
        self._topic_notice(user, topic, "forum_topic_reopened")

    def _topic_notice(
        self, user: FakeUser, topic: FakeTopic, kind: str, content: JSONDict | None = None
    ) -> None:
        notice = self.store_message(
            topic.chat,
            user.to_dict(),
            from_bot=False,
            extra={kind: content or {}},
            thread_id=topic.thread_id,
        )
        self.updates.enqueue({"message": notice.to_dict()})

    async def delete_topic(self, topic: FakeTopic) -> None:
        """An admin deletes the topic with its messages. Telegram tells bots nothing: the next
        message to it fails with "message thread not found", an edit with "message to edit not
        found"."""
        topic.deleted = True
        for message in self.history(topic.chat):
            if message.thread_id == topic.thread_id:
                message.deleted = True
        self.log.wake()

    async def inject_update(self, update: JSONDict) -> int:
        """Inject any raw update (``update_id`` is added); returns its id."""
        return self.updates.enqueue(dict(update))

    def _bot_sees(
        self,
        chat: FakeChat,
        text: str,
        command: re.Match[str] | None,
        replied: FakeMessage | None,
    ) -> bool:
        if chat.type == "private" or not self.bot.privacy_mode:
            return True
        admin = self.bot.id in self.admins[chat.id]
        if admin or self.creators.get(chat.id) == self.bot.id:
            return True
        if replied is not None and replied.from_bot:
            return True
        if f"@{self.bot.username.lower()}" in text.lower():
            return True
        if command is not None:
            _, _, addressee = command.group(0).partition("@")
            return not addressee or addressee.lower() == self.bot.username.lower()
        return False

    # HTTP ------------------------------------------------------------------
