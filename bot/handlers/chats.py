"""What happens to a group itself: it becomes a supergroup, a topic of its forum is closed."""

from __future__ import annotations

from telegram import Update

from ..context import KozelContext
from ..place import place_of


async def chat_migrated(update: Update, context: KozelContext) -> None:
    """A group became a supergroup: its tables and standings follow it to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    k = context.kozel
    async with k.service.store.lock(message.chat.id):
        await k.service.store.migrate_chat(message.chat.id, message.migrate_to_chat_id)


async def topic_closed(update: Update, context: KozelContext) -> None:
    """A forum topic was closed: its members can no longer write there, so its table ends,
    politely. Reopened, the topic can host a new table."""
    place = place_of(update)
    if place is not None:
        await context.kozel.scheduler.end_in_topic(place, closed=True)
