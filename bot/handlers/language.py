"""/language: a group's, which its admins choose there; and a person's own, which they choose
in the DM, and which whatever the bot writes to them alone speaks from then on (their hands,
reminders and notices, the answers to their taps in any group)."""

from __future__ import annotations

from typing import Final

from telegram import (
    BotCommandScopeChat,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
    User,
)

from ..callbacks import Callback
from ..context import Kozel, KozelContext
from ..i18n import LANGUAGES, Html, t
from ..menus import menu
from ..place import place_of
from ..presenter import optional
from ..table import Table
from .common import drawn_here, from_group, in_group, in_private, is_admin, refuse, reply
from .lobby import show_lobby
from .play import hands_anew

#: The DM's choice that undoes a person's own: their Telegram app's language again.
FOLLOW_APP: Final = "app"


#: Before the button of the choice in effect: as the lobby marks the table's game.
CURRENT: Final = "✅ "


def choices(lang: str, current: str | None, *, own: bool) -> InlineKeyboardMarkup:
    """The languages, each named in itself; for a person's own (``own``), also their app's.
    The choice in effect (``current``; None: none yet) is marked, as nothing else says it."""

    def button(text: str, choice: str) -> InlineKeyboardButton:
        mark = CURRENT if choice == current else ""
        data = Callback("lang", args=(choice,)).encode()
        return InlineKeyboardButton(mark + text, callback_data=data)

    rows = [[button(t(code, "language.name"), code) for code in LANGUAGES]]
    if own:
        rows.append([button(t(lang, "language.follow_app"), FOLLOW_APP)])
    return InlineKeyboardMarkup(rows)


async def language_command(update: Update, context: KozelContext) -> None:
    """/language: in the DM, the person's own language; in a group, the group's, which only
    its admins choose."""
    k = context.kozel
    lang = await k.language(update)
    if in_private(update):
        assert update.effective_user is not None  # a DM's command comes from its person
        chosen = await k.service.store.chosen_language(update.effective_user.id)
        keyboard = choices(lang, chosen or FOLLOW_APP, own=True)
        await reply(k, update, t(lang, "language.choose_own"), keyboard)
        return
    group = await from_group(k, update, lang)
    if group is None:
        return
    if not await is_admin(k, group.place.chat_id, group.sender):
        await refuse(k, update, lang, "err.admins_only")
        return
    current = await k.service.store.group_language(group.place.chat_id)
    await reply(k, update, t(lang, "language.choose"), choices(lang, current, own=False))


async def language_button(update: Update, context: KozelContext) -> None:
    k = context.kozel
    chat, user = update.effective_chat, update.effective_user
    lang = await k.language(update)
    cb = context.button
    choice = cb.args[0] if cb is not None and cb.args else ""
    known = (*LANGUAGES, FOLLOW_APP) if in_private(update) else LANGUAGES
    if choice not in known or chat is None or user is None or not drawn_here(update, "lang"):
        await refuse(k, update, lang, "err.unknown_button")
        return
    if in_private(update):
        await _choose_own(k, update, user, None if choice == FOLLOW_APP else choice)
        return
    if not in_group(update):
        await refuse(k, update, lang, "err.group_only")
        return
    if not await is_admin(k, chat.id, user):
        await refuse(k, update, lang, "err.admins_only")
        return
    await _choose_for_group(k, update, chat, choice)


async def _choose_for_group(k: Kozel, update: Update, chat: Chat, chosen: str) -> None:
    """An admin chose ``chosen`` for the group: its tables are redrawn in it at once, and the
    choice's message says so in it."""
    query = update.callback_query
    assert query is not None
    await k.service.records.remember_chat(chat)
    async with k.service.store.lock(chat.id):
        await k.service.store.set_language(chat.id, chosen)
        for table in await k.service.store.active_tables(chat.id):  # in a forum, every topic's
            with optional("a table in the new language", chat.id):  # its topic may be gone
                await _redraw(k, table)
    await k.sender.answer(query.id)  # the language is set; its message waits for the group
    message, place = query.message, place_of(update)
    if message is not None and place is not None:
        k.sender.replace(place, message.message_id, t(chosen, "language.set"))


async def _choose_own(k: Kozel, update: Update, user: User, chosen: str | None) -> None:
    """The person chose ``chosen`` (None: their app's again): the choice's message says so in
    it, and the hand they are on turn with and their DM's command menu follow at once."""
    query = update.callback_query
    assert query is not None
    await k.service.records.remember_user(user)
    await k.service.store.choose_language(user.id, chosen)
    await k.sender.answer(query.id)
    mine = await k.person_language(user)
    text = t(mine, "language.yours")
    if chosen is None:
        text = Html(f"{t(mine, 'language.app_again')} {text}")
    if query.message is not None:
        await k.sender.edit(user.id, query.message.message_id, text)
    await hands_anew(k, user.id)
    with optional("the DM's menu in its language", user.id):  # the menu is only a help
        # None: the app's menu again
        commands = None if chosen is None else menu(chosen, private=True)
        await k.sender.menu(BotCommandScopeChat(user.id), commands)


async def _redraw(k: Kozel, table: Table) -> None:
    """The table's messages in the group's new language: the open lobby, or the live board."""
    if table.status == "lobby":
        await show_lobby(k, table)
        return
    match = table.match
    if table.board_message_id is None or match is None or match.is_over:
        return
    k.presenter.board.draw(table)
