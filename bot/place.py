"""Where a table sits: a group chat, and in a forum, one of its topics."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Message, Update


@dataclass(frozen=True, slots=True)
class Place:
    """A chat itself (``thread_id`` None: a plain group, a forum's General topic, a DM), or one
    topic of a forum. Each place holds at most one table; the chat's standings span them all."""

    chat_id: int
    thread_id: int | None = None

    @property
    def chat(self) -> Place:
        """The chat itself, which in a forum is its General topic."""
        return Place(self.chat_id)


def place_of(update: Update) -> Place | None:
    """Where an update happened: where its message was written (for a tap, the tapped message).

    Only a topic message belongs to a topic: a reply in a plain group or in a forum's General
    topic may carry the replied message's thread id as well (Bot API: ``is_topic_message``)."""
    message = update.effective_message
    if message is None:
        return None
    in_topic = isinstance(message, Message) and bool(message.is_topic_message)
    return Place(message.chat.id, message.message_thread_id if in_topic else None)
