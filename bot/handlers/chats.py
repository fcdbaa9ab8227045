"""What happens to a group itself: it becomes a supergroup or is renamed, a topic of its forum is
created, renamed or closed, someone leaves it, the bot is removed from it or loses the right to
write there."""

from __future__ import annotations

from telegram import ChatMember, ChatMemberRestricted, Update

from ..context import KozelContext
from ..place import Place, place_of
from .lobby import remove_player, removed_by


async def chat_migrated(update: Update, context: KozelContext) -> None:
    """A group became a supergroup: its tables and standings follow it to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    k = context.kozel
    async with k.service.store.lock(message.chat.id):
        await k.service.store.migrate_chat(message.chat.id, message.migrate_to_chat_id)


async def chat_renamed(update: Update, context: KozelContext) -> None:
    """A group's new name: what its players' DMs and /stats call it from now on."""
    chat, k = update.effective_chat, context.kozel
    if chat is not None:
        await k.service.records.remember_chat(chat)
        k.service.store.retitle(chat.id, chat.title or "")


async def topic_named(update: Update, context: KozelContext) -> None:
    """A forum topic was created or renamed: its table's players' DMs call it so from now on.
    (A topic's edit that changed only its icon carries no name.)"""
    message, place, k = update.effective_message, place_of(update), context.kozel
    if message is None or place is None or place.thread_id is None:
        return
    named = message.forum_topic_created or message.forum_topic_edited
    if named is not None and named.name:
        await k.service.records.name_topic(place, named.name)
        k.service.store.retopic(place, named.name)


async def topic_closed(update: Update, context: KozelContext) -> None:
    """A forum topic was closed: its members can no longer write there, so its table ends,
    politely. Reopened, the topic can host a new table."""
    place = place_of(update)
    if place is not None:
        await context.kozel.scheduler.end_at(place, "closed")


async def member_left(update: Update, context: KozelContext) -> None:
    """Someone left the group, or an admin removed them: they leave its tables (every topic's),
    as with /leave, rather than keep a seat in a group they can no longer see, whose match
    would wait out their turns. Removed by an admin, they are told so, as after a /kick."""
    message, remover, k = update.effective_message, update.effective_sender, context.kozel
    gone = None if message is None else message.left_chat_member
    if message is None or gone is None or gone.is_bot:
        return
    async with k.service.store.lock(message.chat.id):
        for table in await k.service.store.active_tables(message.chat.id):
            if table.seat_of(gone.id) is not None:
                by = None if remover is None else removed_by(table, gone.id, remover)
                await remove_player(k, table, await k.service.lobby.leave(table, gone.id), by)


async def bot_member_changed(update: Update, context: KozelContext) -> None:
    """The bot was removed from a group, or an admin took its right to send messages: nothing
    more can be shown there, so the group's tables end, and their players hear it in their
    DMs. Added back, or allowed again, the group can open a new table."""
    changed = update.my_chat_member
    if changed is None:
        return
    member = changed.new_chat_member
    place = Place(changed.chat.id)
    if member.status in (ChatMember.LEFT, ChatMember.BANNED):
        await context.kozel.scheduler.end_at(place, "removed")
    elif isinstance(member, ChatMemberRestricted) and not member.can_send_messages:
        await context.kozel.scheduler.end_at(place, "muted")
