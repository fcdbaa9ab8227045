"""Taps on a hand in the DM: play a tile, choose an end, go back.

Once a move is committed nothing may stop what follows: answers to taps go through
``Sender.answer`` and ``Presenter.show`` never raise, so the timers are always re-armed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from telegram import CallbackQuery, Update

from engine import DRAW, KNOCK, Action, IllegalAction, Lay, Placement, Play, Reopen, Tile
from engine.errors import EndRequired
from engine.events import Event, Played, PlayedDoubles
from engine.layout import End

from ..callbacks import Callback
from ..context import Kozel, KozelContext
from ..i18n import Localized, said
from ..render.asked import Asked
from ..render.hand import closings, lengthwise_ends
from ..render.tiles import played_toast, tile_text
from ..table import Seat, Table
from .common import answer, refuse


async def back_here(update: Update, context: KozelContext) -> None:
    """ "I'm back": the computer stops playing for this player."""
    k, cb = context.kozel, context.button
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    chat_id = await _chat_of(update, context)
    if chat_id is None or cb is None:
        return
    async with k.service.store.lock(chat_id):
        # asked again under the lock: the match may have ended while the tap waited for it
        table = await k.service.store.table(cb.table_id)
        seat = None if table is None else table.seat_of(user.id)
        if table is None or table.status != "playing":
            await refuse(k, update, await k.language(update), "err.game_over")
            return
        if seat is None:
            await refuse(k, update, await k.language(update), "err.not_your_table")
            return
        was_away = seat.absent
        await k.service.timeouts.played_in_person(table, seat)
        await answer(k, update, seat.language, said("timer.welcome_back"))
        # an old "I'm back" button pressed again says nothing more to the group
        if was_away:
            await _back_at(k, table, seat)


async def back_everywhere(k: Kozel, user_id: int) -> None:
    """/start again (after blocking the bot, say): the computer hands back every seat it was
    keeping for this person, as the group was promised; a person on turn whose keyboard was
    deleted gets it back."""
    async for table, seat in _seats_in_play(k, user_id):
        if seat.absent:
            await k.service.timeouts.played_in_person(table, seat)
            await _back_at(k, table, seat)
        elif seat.live:
            await k.presenter.hands.open_live(table, again=True)


async def hands_anew(k: Kozel, user_id: int) -> None:
    """The person chose another language: the hand they are on turn with says it at once
    (every later message of theirs does anyway)."""
    async for table, seat in _seats_in_play(k, user_id):
        match = table.match
        if seat.live and match is not None and match.current_seat == seat.seat:
            await k.presenter.hands.open_live(table)


async def _seats_in_play(k: Kozel, user_id: int) -> AsyncIterator[tuple[Table, Seat]]:
    """The person's seats at the tables in play, each with its table's lock held."""
    for table in await k.service.store.tables("playing"):
        async with k.service.store.lock(table.chat_id):
            seat = table.seat_of(user_id)
            if seat is not None and table.status == "playing":
                yield table, seat


async def _back_at(k: Kozel, table: Table, seat: Seat) -> None:
    """Do what needs no choice of theirs, as for anyone present (the lead the rules place,
    which waited for the computer while they were away), tell the group, give the hand back if
    it is their turn, and re-arm the timers."""
    automatic = await k.service.player.automatic(table)
    await k.presenter.back(table, seat, automatic)
    await k.scheduler.after_change(table)


@dataclass(frozen=True, slots=True)
class Turn:
    """A tap on a hand, checked: the player's table, in play, at the hand they saw, their turn."""

    table: Table
    seat: Seat
    button: Callback
    update: Update

    @property
    def query(self) -> CallbackQuery:
        query = self.update.callback_query
        assert query is not None
        return query


async def _turn(update: Update, context: KozelContext) -> Turn | None:
    """The turn a hand's button was tapped for; None when it was refused (the table is over,
    the button is stale, it is someone else's turn). Called with the table's lock held."""
    k = context.kozel
    query, user, cb = update.callback_query, update.effective_user, context.button
    assert query is not None and user is not None
    lang = await k.language(update)
    if cb is None:
        await refuse(k, update, lang, "err.unknown_button")
        return None
    table = await k.service.store.table(cb.table_id)
    seat = None if table is None else table.seat_of(user.id)
    if table is None or table.match is None or table.status != "playing":
        await refuse(k, update, lang, "err.game_over")
        return None
    if seat is None:
        await refuse(k, update, lang, "err.not_your_table")
        return None
    if cb.events != table.version:
        await refuse(k, update, seat.language, "err.stale")
        return None
    if table.match.current_seat != seat.seat:
        await refuse(k, update, seat.language, "err.not_your_turn")
        return None
    await k.service.timeouts.played_in_person(table, seat)
    return Turn(table, seat, cb, update)


async def _chat_of(update: Update, context: KozelContext) -> int | None:
    """The group whose table a hand's button belongs to; refuses a tap on none in play."""
    k, cb = context.kozel, context.button
    table = None if cb is None else await k.service.store.table(cb.table_id)
    if table is not None and table.match is not None and table.status == "playing":
        return table.chat_id
    await refuse(
        k, update, await k.language(update), "err.game_over" if cb else "err.unknown_button"
    )
    return None


async def _on_turn(
    update: Update, context: KozelContext, then: Callable[[Kozel, Turn], Awaitable[None]]
) -> None:
    """Check a tap on a hand under its table's lock, then carry it out (``then``)."""
    k, chat_id = context.kozel, await _chat_of(update, context)
    if chat_id is None:
        return
    async with k.service.store.lock(chat_id):
        turn = await _turn(update, context)
        if turn is not None:
            await then(k, turn)


async def back_button(update: Update, context: KozelContext) -> None:
    """Back from choosing an end: the whole hand again."""
    await _on_turn(update, context, _back)


async def _back(k: Kozel, turn: Turn) -> None:
    hand = k.presenter.hands.refresh_live(turn.table, turn.seat)
    await k.sender.answer_after(turn.query.id, hand)


async def play_button(update: Update, context: KozelContext) -> None:
    """A tile tapped: played, or if it fits both ends, the ends to choose from."""
    await _on_turn(update, context, _play)


async def _play(k: Kozel, turn: Turn) -> None:
    table, seat, tile, end = turn.table, turn.seat, turn.button.tile, turn.button.end
    ask = _way_to_ask(table, seat, tile, end) if turn.button.lengthwise is None else None
    if ask is not None:
        question = k.presenter.hands.ask(table, seat, Asked("way", (Placement(tile, ask),)))
        await k.sender.answer_after(turn.query.id, question)
        return
    if tile.is_double and await _ask_to_close(k, turn, (Placement(tile, end),)):
        return
    lengthwise = Lay((Placement(tile, end, lengthwise=True),))
    action = lengthwise if turn.button.lengthwise else Play(tile, end)
    await _act(k, turn, action, _played(Placement(tile)))


async def lay_button(update: Update, context: KozelContext) -> None:
    """Several doubles at once, or a double to lay open or closed: asked which to close where
    the game closes doubles, then laid."""
    await _on_turn(update, context, _lay)


async def _lay(k: Kozel, turn: Turn) -> None:
    placements = turn.button.placements
    if not turn.button.settled and await _ask_to_close(k, turn, placements):
        return
    await _act(k, turn, Lay(placements), _played(*placements))


async def reopen_button(update: Update, context: KozelContext) -> None:
    """A closed double of this player's turned face up (Donkey's ``donkey_reopen``); then he
    moves as usual."""
    await _on_turn(update, context, _reopen)


async def _reopen(k: Kozel, turn: Turn) -> None:
    reopened = said("hand.reopened", tile=tile_text(turn.button.tile))
    await _act(k, turn, Reopen(turn.button.tile), lambda _: reopened)


async def pass_button(update: Update, context: KozelContext) -> None:
    """Nothing fits, and the player chose not to reopen a double first: he draws, or knocks."""
    await _on_turn(update, context, _pass)


async def _pass(k: Kozel, turn: Turn) -> None:
    assert turn.table.match is not None
    actions = turn.table.match.legal_actions(turn.seat.seat)
    await _act(k, turn, DRAW if DRAW in actions else KNOCK, None)


async def _ask_to_close(k: Kozel, turn: Turn, placements: tuple[Placement, ...]) -> bool:
    """Ask "open or closed?" when the game lets some of ``placements`` be closed (Donkey):
    a second tap, so that no double is ever closed by surprise. Whether it asked."""
    table, seat = turn.table, turn.seat
    if not closings(table, seat, placements):
        return False
    question = k.presenter.hands.ask(table, seat, Asked("close", placements))
    await k.sender.answer_after(turn.query.id, question)
    return True


#: What a tap's pop-up says once its move is made, given the points the move scored.
Toast = Callable[[int], Localized]


def _played(*placements: Placement) -> Toast:
    """ "You played [5|6]", and in the scoring games what it scored ("· +5"), as the player's
    record below says it: the pop-up left the points out."""
    return lambda points: Localized(lambda lang: played_toast(lang, placements, points))


def _scored(events: Sequence[Event], seat: Seat) -> int:
    """What the tapper's move among ``events`` scored (0 for none, or in a game without points)."""
    for event in events:
        if isinstance(event, Played | PlayedDoubles) and event.seat == seat.seat:
            return event.scored or 0
    return 0


async def _act(k: Kozel, turn: Turn, action: Action, toast: Toast | None) -> None:
    """Make the move, then say so (``toast``, if anything); a tile that fits several ends first
    asks which."""
    table, seat, lang = turn.table, turn.seat, turn.seat.language
    try:
        events = await k.service.player.act(table, seat, action)
    except EndRequired:
        assert isinstance(action, Play | Lay)  # only a tile needs an end
        tile = action.placements[0].tile if isinstance(action, Lay) else action.tile
        question = k.presenter.hands.ask(table, seat, Asked("end", (Placement(tile),)))
        await k.sender.answer_after(turn.query.id, question)
        return
    except IllegalAction as no:
        await refuse(k, turn.update, lang, f"err.{no.code}")
        return
    if toast is None:
        await k.sender.answer(turn.query.id)
    else:
        await answer(k, turn.update, lang, toast(_scored(events, seat)))
    await k.presenter.show(table, events)
    await k.scheduler.after_change(table)


def _way_to_ask(table: Table, seat: Seat, tile: Tile, end: End | None) -> End | None:
    """The end to ask "across or along?" about: where the double goes, once that is known (the
    only end it fits, or the one chosen), if it may lie lengthwise there (English fives). Not
    for 0-0, which counts 0 either way: it goes across."""
    along = lengthwise_ends(table, seat, tile)
    if not along or tile.pips == 0:
        return None
    assert table.match is not None and table.match.round is not None
    choices = table.match.round.layout.fits(tile)
    if end is None and len(choices) == 1:
        end = choices[0]
    return end if end in along else None
