"""The answer to the question /cancel asks during a match: ✖️ Yes, cancel it, or ▶️ Keep
playing. Only whoever asked answers it, within a minute, while its match is in play; the answer
edits the question, so the group reads what became of it without another message."""

from __future__ import annotations

import time

from telegram import Message, Update

from ..callbacks import YES, Callback
from ..context import Kozel, KozelContext
from ..i18n import said, t
from ..render.cancel_question import ANSWER_SECONDS
from ..service import Refusal
from ..table import Table
from .common import FromGroup, answer, from_group, in_group, is_admin, refuse, shown
from .lobby import cancel


async def answer_button(update: Update, context: KozelContext) -> None:
    k = context.kozel
    lang = await k.language(update)
    cb, message = context.button, update.effective_message
    if cb is None or not in_group(update) or not isinstance(message, Message):
        await refuse(k, update, lang, "err.unknown_button")
        return
    closed = message.reply_markup is None  # a second tap, after the first took the buttons off
    if not closed and not _asked_in(message, update):
        await refuse(k, update, lang, "err.unknown_button")
        return
    group = await from_group(k, update, lang)
    if group is None:
        return
    async with k.service.store.lock(group.place.chat_id):
        table = await k.service.store.active_table(group.place)
        stale = _stale(table, cb, message)
        if closed:  # or the match's end did, or its minute (``Scheduler.time_question``)
            await refuse(k, update, lang, stale or "cancel.answered")
            return
        if stale is not None:  # the question's buttons go: they would only be refused again
            k.presenter.notices.answered(cb.table_id, message.message_id)
            k.sender.replace(group.place, message.message_id, t(lang, f"{stale}_note"))
            await refuse(k, update, lang, stale)
            return
        assert table is not None
        if not await _may_answer(k, group, cb):
            await _not_theirs(k, update, lang, cb)
            return
        yes = cb.args == (YES,)
        k.presenter.notices.answered(table.id, message.message_id)  # its answer says the end
        try:  # ✖️ Yes cancels as a lobby's /cancel does, its opener's or an admin's still
            toast = await cancel(k, table, group.user, cb) if yes else said("cancel.kept")
        except Refusal as no:  # no longer the opener nor an admin
            await refuse(k, update, lang, no.key, **no.values)
            return
        done = "cancel.done" if yes else "cancel.kept"
        k.sender.replace(group.place, message.message_id, t(lang, done))
    await shown(k, update, group.place.chat_id)
    await answer(k, update, lang, toast or said(done))


def _asked_in(message: Message, update: Update) -> bool:
    """Whether the tapped message carries this very button: Telegram's own copy of it, so a
    forged one (another table, another asker, or onto another message) is not taken for it."""
    query, markup = update.callback_query, message.reply_markup
    if query is None or markup is None:
        return False
    rows = markup.inline_keyboard
    return any(button.callback_data == query.data for row in rows for button in row)


def _stale(table: Table | None, cb: Callback, message: Message) -> str | None:
    """Why the question can no longer be answered: its match is over (or cancelled), or the
    minute went by (Telegram dates the question, in Unix time); None while it can."""
    if table is None or table.id != cb.table_id or table.status != "playing":
        return "cancel.over"
    if time.time() - message.date.timestamp() > ANSWER_SECONDS:
        return "cancel.expired"
    return None


async def _may_answer(k: Kozel, group: FromGroup, cb: Callback) -> bool:
    """Only whoever asked answers; an admin who asked in the group's name, any admin."""
    if cb.asker:
        return group.user.id == cb.asker
    return await is_admin(k, group.place.chat_id, group.user)


async def _not_theirs(k: Kozel, update: Update, lang: str, cb: Callback) -> None:
    if not cb.asker:
        await refuse(k, update, lang, "cancel.admins_only")
        return
    name = await k.service.records.user_name(cb.asker)
    await refuse(k, update, lang, "cancel.not_yours", name=name or "?")
