"""Taps on a hand in the DM: play a tile, choose an end, go back.

Once a move is committed nothing may stop what follows: answers to taps go through
``Sender.answer`` and ``Presenter.show`` never raise, so the timers are always re-armed.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from engine import IllegalAction, Play
from engine.errors import EndRequired

from ..callbacks import decode
from ..context import Kozel, kozel
from ..i18n import t
from ..render.hand import end_keyboard
from ..render.tiles import tile_text
from ..table import Seat, Table
from .common import refuse


async def back_here(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """ "I'm back": the computer stops playing for this player."""
    k = kozel(context)
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    lang = await k.language(update)
    cb = decode(query.data)
    table = None if cb is None else await k.service.store.table(cb.table_id)
    if table is None or table.status != "playing":
        await refuse(k, update, lang, "err.game_over")
        return
    async with k.service.store.lock(table.chat_id):
        seat = table.seat_of(user.id)
        if seat is None:
            await refuse(k, update, lang, "err.not_your_table")
            return
        was_away = seat.absent
        await k.service.timeouts.played_in_person(table, seat)
        await k.sender.answer(query.id, t(seat.language, "timer.welcome_back"))
        # an old "I'm back" button pressed again says nothing more to the group
        if was_away:
            await _back_at(k, table, seat)


async def back_everywhere(k: Kozel, user_id: int) -> None:
    """/start again (after blocking the bot, say): the computer hands back every seat it was
    keeping for this person, as the group was promised."""
    for table_id in await k.service.store.table_ids("playing"):
        table = await k.service.store.table(table_id)
        if table is None:
            continue
        async with k.service.store.lock(table.chat_id):
            seat = table.seat_of(user_id)
            if seat is not None and seat.absent and table.status == "playing":
                await k.service.timeouts.played_in_person(table, seat)
                await _back_at(k, table, seat)


async def _back_at(k: Kozel, table: Table, seat: Seat) -> None:
    """Tell the group, give the hand back if it is their turn, and re-arm the timers."""
    await k.presenter.back(table, seat)
    await k.scheduler.after_change(table)


async def hand_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    k = kozel(context)
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    lang = await k.language(update)
    cb = decode(query.data)
    if cb is None:
        await refuse(k, update, lang, "err.unknown_button")
        return
    table = await k.service.store.table(cb.table_id)
    if table is None or table.match is None or table.status != "playing":
        await refuse(k, update, lang, "err.game_over")
        return
    async with k.service.store.lock(table.chat_id):
        table = await k.service.store.table(cb.table_id)
        seat = None if table is None else table.seat_of(user.id)
        if table is None or table.match is None or table.status != "playing":
            await refuse(k, update, lang, "err.game_over")
            return
        if seat is None:
            await refuse(k, update, lang, "err.not_your_table")
            return
        lang = seat.language
        if cb.version != table.version:
            await refuse(k, update, lang, "err.stale")
            return
        if table.match.current_seat != seat.seat:
            await refuse(k, update, lang, "err.not_your_turn")
            return
        await k.service.timeouts.played_in_person(table, seat)
        if cb.verb == "back":
            await k.presenter.hands.refresh_live(table, seat)
            await k.sender.answer(query.id)
            return
        tile = cb.tile
        try:
            events = await k.service.player.act(table, seat, Play(tile, cb.end))
        except EndRequired:
            await k.sender.edit(
                user.id,
                seat.hand_message_id,
                t(lang, "hand.which_end", tile=tile_text(tile)),
                end_keyboard(table, seat, tile),
            )
            await k.sender.answer(query.id)
            return
        except IllegalAction as no:
            await refuse(k, update, lang, f"err.{no.code}")
            return
        await k.sender.answer(query.id, t(lang, "hand.played_toast", tile=tile_text(tile)))
        await k.presenter.show(table, events)
        await k.scheduler.after_change(table)
