"""What happens to a group itself: it becomes a supergroup."""

from __future__ import annotations

from telegram import Update

from ..context import KozelContext


async def chat_migrated(update: Update, context: KozelContext) -> None:
    """A group became a supergroup: its tables and standings follow it to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    k = context.kozel
    async with k.service.store.lock(message.chat.id):
        await k.service.store.migrate_chat(message.chat.id, message.migrate_to_chat_id)
