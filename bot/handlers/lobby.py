"""Opening a table, joining with one tap, settings, computer players, starting and cancelling."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Chat, Message, Update, User

from engine.ai import LEVELS
from storage import LobbyView

from ..callbacks import Callback, plain_number
from ..context import Handler, Kozel, KozelContext
from ..i18n import LANGUAGES, Localized, said, t
from ..place import Place
from ..render.game_names import game_name
from ..render.lobby import (
    TABLE_SETTINGS,
    games_keyboard,
    games_text,
    lobby_keyboard,
    lobby_revision,
    lobby_text,
    next_value,
    options_of,
    settings_keyboard,
)
from ..render.place import place_name
from ..sender import Blocked
from ..service import DamagedTable, Refusal
from ..table import Seat, Table
from .common import (
    answer,
    from_group,
    in_group,
    join_link,
    may_manage,
    person_in_group,
    refuse,
    reply,
    shown,
)


async def show_lobby(k: Kozel, table: Table, view: LobbyView | None = None) -> None:
    """The lobby message: the table (``lobby``), its ⚙️ Rules editor, or the game chooser;
    without a ``view``, the one it shows now."""
    if view is not None:
        await k.service.messages.remember_view(table, view)
    view = table.lobby_view
    if view == "games":
        text, keyboard = games_text(table), games_keyboard(table)
    else:
        opener = await k.service.records.user_name(table.opener_id)
        text = lobby_text(table, opener or "?", editing=view == "settings")
        keyboard = settings_keyboard(table) if view == "settings" else lobby_keyboard(table)
    k.presenter.lobby.draw(table, text, keyboard)


async def _gone(
    k: Kozel, place: Place, table: Table | None, tapped: int | None, none_key: str
) -> str:
    """Why a tap finds not the table ``tapped``: none here (``none_key``), or a newer one, open
    or playing, in the place of the tapped lobby, whose buttons outlived its table. A button
    naming another place's table (forged) finds none here."""
    if table is None or tapped is None:
        return none_key
    row = await k.storage.get_table(tapped)
    if row is None or Place(row.chat_id, row.thread_id) != place:
        return none_key
    return "err.lobby_gone" if table.status == "lobby" else "err.lobby_gone_playing"


async def seat_person(k: Kozel, table: Table, user: User, side: int | None = None) -> bool:
    """Seat ``user`` (at a pair game in the pair ``side`` if it has room) if a DM reaches them
    (their hand goes there); False when it does not."""
    await k.service.records.remember_user(user)
    seat = await k.service.lobby.join(table, user.id, side)
    try:
        where = place_name(seat.language, table)
        await k.sender.send(user.id, t(seat.language, "dm.joined", chat=where))
    except Blocked:
        await k.service.lobby.leave(table, user.id)
        return False
    return True


async def seat_and_show(
    k: Kozel, update: Update, lang: str, table: Table, user: User
) -> bool | None:
    """Seat ``user`` and show the lobby with them: True when seated, False when a DM does not
    reach them yet, None when the lobby refused them (and they were told why)."""
    try:
        seated = await seat_person(k, table, user)
    except Refusal as no:
        await refuse(k, update, lang, no.key, **no.values)
        return None
    if seated:
        await show_lobby(k, table)
    return seated


async def new_table(update: Update, context: KozelContext) -> None:
    """/new in a group, or in a topic of a forum, opens a lobby there; the opener takes the
    first seat."""
    k = context.kozel
    lang = await k.language(update)
    group = await person_in_group(k, update, lang)
    if group is None:
        return
    chat, user, place = group.chat, group.user, group.place
    await k.service.records.remember_chat(chat)
    await k.service.records.remember_user(user)
    await k.service.records.guess_topic(place, group.message)
    async with k.service.store.lock(chat.id):
        try:
            mine = await k.person_language(user)
            table = await k.service.lobby.open_table(place, user.id, mine)
        except Refusal as no:
            await refuse(k, update, lang, no.key, **no.values)
            return
        seated = await seat_person(k, table, user)
        await show_lobby(k, table)
    await _tell_seated(k, update, lang, table, user, seated=seated)


async def again_button(update: Update, context: KozelContext) -> None:
    """🔁 Play again, under a match's end: a new lobby in its place set as that table was (its
    game, rules and computers), the one who tapped seated first; the others join as usual. At a
    pair game the one who tapped and the computers sit in the pairs they played in. A computer
    that took over the seat of someone who left is not seated again (``Lobby.replay``)."""
    cb = await _lobby_button(update, context)
    if cb is None:
        return
    k = context.kozel
    lang = await k.language(update)
    group = await person_in_group(k, update, lang)
    if group is None:
        return
    user, place = group.user, group.place
    await k.service.records.remember_user(user)
    async with k.service.store.lock(place.chat_id):
        try:
            played = await k.service.lobby.played_here(place, cb.table_id)
            mine = await k.person_language(user)
            table = await k.service.lobby.open_table(place, user.id, mine, played)
        except Refusal as no:
            if no.key == "err.table_exists" and await _seated_here(k, place, user):
                no = Refusal("err.already_joined")  # a second tap of their own 🔁
            await refuse(k, update, lang, no.key, **no.values)
            return
        replay = await k.service.lobby.replay(played, user.id)
        seated = await seat_person(k, table, user, replay.side)
        await k.service.lobby.seat_computers(table, replay.computers)
        await show_lobby(k, table)
    await _tell_seated(k, update, lang, table, user, seated=seated)


async def _seated_here(k: Kozel, place: Place, user: User) -> bool:
    """Whether ``user`` sits at the table open at ``place``."""
    table = await k.service.store.active_table(place)
    return table is not None and table.seat_of(user.id) is not None


async def join_command(update: Update, context: KozelContext) -> None:
    await _join(update, context, None)


async def join_button(update: Update, context: KozelContext) -> None:
    cb = await _lobby_button(update, context)
    if cb is not None:
        await _join(update, context, cb.table_id)


async def _join(update: Update, context: KozelContext, table_id: int | None) -> None:
    k = context.kozel
    lang = await k.language(update)
    group = await person_in_group(k, update, lang)
    if group is None:
        return
    user, place = group.user, group.place
    async with k.service.store.lock(place.chat_id):
        table = await k.service.store.active_table(place)
        if table is None or (table_id is not None and table.id != table_id):
            await refuse(k, update, lang, await _gone(k, place, table, table_id, "err.no_lobby"))
            return
        seated = await seat_and_show(k, update, lang, table, user)
    if seated is not None:
        await _tell_seated(k, update, lang, table, user, seated=seated)


async def _tell_seated(
    k: Kozel, update: Update, lang: str, table: Table, user: User, *, seated: bool
) -> None:
    """Once the lobby with them is out, answer whoever took a seat (a tap: "you are in"), or,
    if a DM does not reach them yet (not ``seated``), show them the way to the bot's chat: the
    tap opens it, a command's reply links it. A tap is answered whatever Telegram says: the
    seat is taken."""
    await shown(k, update, table.chat_id)
    query = update.callback_query
    if seated:
        if query is not None:
            await answer(k, update, lang, said("lobby.joined_toast"))
        return
    link = join_link(k, table.id)
    if query is not None:
        await k.sender.answer(query.id, url=link)
    else:
        text = t(table.language, "lobby.press_start", name=user.full_name, link=link)
        await reply(k, update, text)


#: A lobby action, by whoever sent the command or tapped (``Update.effective_sender``): a
#: person, or the group itself for an admin who writes anonymously, in its name. It says what
#: it did, if anything, in the words of the tap's answer or of the command's reply.
Action = Callable[[Kozel, Table, User | Chat, Callback | None], Awaitable[Localized | None]]


async def _lobby_button(update: Update, context: KozelContext) -> Callback | None:
    """The lobby button tapped, or None after refusing a malformed one or one outside a group."""
    if context.button is None or not in_group(update):
        k = context.kozel
        await refuse(k, update, await k.language(update), "err.unknown_button")
        return None
    return context.button


async def _lobby_action(
    update: Update, context: KozelContext, action: Action, cb: Callback | None = None
) -> None:
    """Carry out one lobby action, from a button (``cb``, which carries the lobby's revision)
    or a command, and confirm it to the person."""
    k = context.kozel
    lang = await k.language(update)
    group = await from_group(k, update, lang)
    if group is None:
        return
    sender, place = group.sender, group.place
    async with k.service.store.lock(place.chat_id):
        try:
            table = await k.service.store.active_table(place)
        except DamagedTable as damaged:
            if action is not cancel or not await may_manage(k, damaged.row, sender):
                raise  # answered by the error handler: only /cancel can help
            await k.service.lobby.close_damaged(damaged.row)
            if update.callback_query is not None:  # the tap's, in the tapper's, at once
                await answer(k, update, lang, said("lobby.cancelled"))
            await reply(k, update, t(lang, "lobby.cancelled"))  # and the group's, in its own
            return
        if table is None or (cb is not None and table.id != cb.table_id):
            why = await _gone(k, place, table, None if cb is None else cb.table_id, "err.no_table")
            await refuse(k, update, lang, why)
            return
        if cb is not None and table.status != "lobby":
            # the lobby's buttons, kept by a client after the deal: its match is /leave's and
            # /cancel's, not theirs
            await refuse(k, update, lang, "err.already_started")
            return
        try:
            toast = await action(k, table, sender, cb)
        except Refusal as no:
            await refuse(k, update, lang, no.key, **no.values)
            return
    await shown(k, update, place.chat_id)  # the lobby as changed, before the answer
    query = update.callback_query
    if toast is not None:
        await answer(k, update, lang, toast)  # the action is done, whatever Telegram says
    elif query is not None:
        await k.sender.answer(query.id)  # silently: the action says nothing (a view changed)


async def _manager_only(
    k: Kozel, table: Table, sender: User | Chat, refusal: str = "err.not_opener"
) -> None:
    if not await may_manage(k, table.row, sender):
        raise Refusal(refusal)


def _asshown(table: Table, cb: Callback | None) -> None:
    """For buttons whose effect depends on the lobby they were drawn for: tapped twice, or
    after someone else changed the lobby, they would act on a lobby the person has not seen."""
    if cb is not None and cb.lobby != lobby_revision(table):
        raise Refusal("err.lobby_changed")


async def leave(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """Leave the lobby, or a match (a computer plays on: the group hears it from
    ``remove_player``, once, as after /kick)."""
    in_lobby = table.status == "lobby"
    await remove_player(k, table, await k.service.lobby.leave(table, sender.id))
    return said("lobby.left_toast") if in_lobby else None


async def change_pair(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """🔀 Change pair: whoever taps it moves to the other pair, in place of one there who asked
    to, or of a computer if it is full; with two people there, asks to, or no longer asks."""
    _asshown(table, cb)
    change = await k.service.lobby.change_pair(table, sender.id)
    await show_lobby(k, table)
    side = change.seat.side
    if change.asked:
        return said("lobby.pair_asked", number=(1 - side) + 1)  # the pair asked for
    if change.asked is False:
        return said("lobby.pair_stayed", number=side + 1)
    if change.swapped is None:
        return said("lobby.pair_changed", number=side + 1)
    # the computer by the name the lobby gives it
    return said("lobby.pair_swapped", name=change.swapped.name, number=side + 1)


async def show(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """Back from the settings (or the games) to the lobby: only whoever may open them, or
    anyone could close the editor under its user's fingers."""
    await _manager_only(k, table, sender)
    await show_lobby(k, table, "lobby")
    return None


async def add_computer(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None, level: str | None = None
) -> Localized | None:
    """A computer player of ``level``, or of the table's level (the lobby shows which)."""
    await _manager_only(k, table, sender)
    _asshown(table, cb)
    await k.service.lobby.add_computer(table, level)
    await show_lobby(k, table)
    return said("lobby.bot_added")


async def add_computer_command(update: Update, context: KozelContext) -> None:
    """/addbot, or /addbot and a level in any of the bot's languages (/addbot strong,
    /addbot сильный)."""
    word = " ".join(context.args or [])

    async def add(
        k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
    ) -> Localized | None:
        level = level_named(word) if word else None
        if word and level is None:
            raise Refusal("err.unknown_level", **{n: said(f"level.{n}") for n in LEVELS})
        return await add_computer(k, table, sender, cb, level)

    await _lobby_action(update, context, add)


def level_named(word: str) -> str | None:
    """The level ``word`` names in any language the bot speaks ("сильный", "Strong", "легкий"
    for "лёгкий"), or None."""

    def plain(text: str) -> str:
        return text.strip().casefold().replace("ё", "е")

    for level in LEVELS:
        names = {level} | {t(lang, f"level.{level}") for lang in LANGUAGES}
        if plain(word) in {plain(name) for name in names}:
            return level
    return None


async def change_setting(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """The settings, and with a setting's name, that setting moved to its next value."""
    await _manager_only(k, table, sender, "err.not_opener_rules")
    if cb is not None and cb.args:
        _asshown(table, cb)
        name = cb.args[0]
        if name not in (*TABLE_SETTINGS, *options_of(table.rules, table.players)):
            raise Refusal("err.unknown_button")
        await k.service.lobby.change_setting(table, name, next_value(table, name))
    await show_lobby(k, table, "settings")
    return None


async def choose_game(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """The games to choose from, and with a game's name, that game chosen: the lobby again."""
    await _manager_only(k, table, sender, "err.not_opener_rules")
    _asshown(table, cb)
    if cb is None or not cb.args:
        await show_lobby(k, table, "games")
        return None
    game = cb.args[0]
    await k.service.lobby.change_game(table, game)
    await show_lobby(k, table, "lobby")
    return said("lobby.game_toast", game=Localized(lambda lang: game_name(lang, game)))


async def start_match(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    _asshown(table, cb)
    return await _start(k, table, sender)


async def cancel(
    k: Kozel, table: Table, sender: User | Chat, cb: Callback | None
) -> Localized | None:
    """A lobby closes at once: nothing is lost. A match in play is only asked about, as an
    hour of play should not go on a /cancel sent by mistake: it is cancelled by the answer,
    ✖️ Yes (``cb``, a ``cancel_answer`` button: ``handlers.cancel_question``). The group is
    told once: by the board, or the lobby, that says the table was cancelled, or by a message
    of its own where the lobby never went out or is gone. A tap's toast is the tapper's alone,
    and says what went: a match in play, or a table still in its lobby."""
    if not await may_manage(k, table.row, sender):  # who may, then: someone to ask
        name = await k.service.records.user_name(table.opener_id)
        raise Refusal("cancel.not_opener", name=name) if name else Refusal("err.not_opener")
    if table.status == "playing" and cb is None:
        await _ask_to_cancel(k, table, sender)
        return None
    await k.service.lobby.cancel(table)
    await k.scheduler.after_change(table)  # a table no longer playing has no timers
    match = table.match is not None
    board = match and table.board_message_id is not None
    k.presenter.lobby.close(table, told=board or cb is not None)
    if board:
        k.presenter.board.draw(table)
    await k.presenter.hands.ended(table, "hand.over.cancelled")
    if cb is None:
        return None
    return said("cancel.done" if match else "lobby.cancelled")


async def _ask_to_cancel(k: Kozel, table: Table, sender: User | Chat) -> None:
    """The question that only ``sender`` answers (any admin, for one who wrote in the group's
    name), whose refusal to anyone else names them."""
    if isinstance(sender, Chat):
        k.presenter.notices.ask_to_cancel(table, 0, None)
        return
    await k.service.records.remember_user(sender)
    k.presenter.notices.ask_to_cancel(table, sender.id, sender.full_name)


def command(action: Action) -> Handler:
    """The handler of a command that carries out ``action`` (/leave, /addbot, /cancel)."""

    async def carry_out(update: Update, context: KozelContext) -> None:
        await _lobby_action(update, context, action)

    return carry_out


def button(action: Action) -> Handler:
    """The handler of a lobby button that carries out ``action``."""

    async def carry_out(update: Update, context: KozelContext) -> None:
        cb = await _lobby_button(update, context)
        if cb is not None:
            await _lobby_action(update, context, action, cb)

    return carry_out


async def remove_player(k: Kozel, table: Table, gone: Seat, by: str | None = None) -> None:
    """Show that ``gone`` has left, or was removed ``by`` someone (who then tells them in a
    DM): the lobby without the seat, or the computer player that now plays it. Computers do
    not play a match out for nobody (as at the deal): with no person left the match ends
    without a result, and with only people who are away the computers stop and the match
    waits a turn's time for one of them to come back (``Scheduler.after_change``), then ends
    by timeout."""
    if table.status == "lobby":
        await show_lobby(k, table)
        if by is not None:
            await k.presenter.notices.removed_from_lobby(table, gone)
        return
    if not table.people:
        await k.service.lobby.cancel(table)
        await k.presenter.replaced(table, gone, last=True, by=by)
    else:
        await k.presenter.replaced(table, gone, by=by)
    await k.scheduler.after_change(table)


async def kick_command(update: Update, context: KozelContext) -> None:
    """/kick in reply to a player's message, or ``/kick <seat number>`` (as the lobby and the
    order of play number them, for a player who never spoke or a computer player): the
    opener or an admin removes them."""
    k = context.kozel
    lang = await k.language(update)
    group = await from_group(k, update, lang)
    if group is None:
        return
    sender, message, place = group.sender, group.message, group.place
    async with k.service.store.lock(place.chat_id):
        table = await k.service.store.active_table(place)
        if table is None:
            await refuse(k, update, lang, "err.no_table")
            return
        if not await may_manage(k, table.row, sender):
            await refuse(k, update, lang, "err.not_opener")
            return
        try:
            seat = _kick_target(table, message, context.args or [])
            gone = await k.service.lobby.unseat(table, seat)
            by = removed_by(table, gone.user_id, sender)
            await remove_player(k, table, gone, by)
        except Refusal as no:
            await refuse(k, update, lang, no.key, **no.values)
            return
    if table.status != "lobby":  # during a match the group is told who plays the seat now
        return
    if by is None:
        await reply(k, update, t(lang, "lobby.left_toast"))
    else:
        await reply(k, update, t(lang, "lobby.kicked", name=gone.name, by=by))


def removed_by(table: Table, gone: int | None, sender: User | Chat) -> str | None:
    """Who the group hears removed the player ``gone`` (/kick, or from the group): the opener's
    or an admin's name, or "an admin" for one who writes in the group's name (Telegram does not
    say who); None when they went by themselves."""
    if isinstance(sender, Chat):
        return t(table.language, "table.an_admin")
    return None if sender.id == gone else sender.full_name


def _kick_target(table: Table, message: Message, args: list[str]) -> Seat:
    """The seat /kick means: the number given, else that of the replied message's author."""
    number = plain_number(args[0]) if args else None
    if number is not None:
        if not 1 <= number <= len(table.seats):
            raise Refusal("err.no_such_seat", number=number)
        return table.seats[number - 1]
    replied = message.reply_to_message
    if replied is not None and replied.forum_topic_created is not None:
        replied = None  # in a forum topic, a message that replies to nothing replies to its start
    target = replied.from_user if replied is not None else None
    if target is None or target.is_bot:
        raise Refusal("err.kick_how")
    seat = table.seat_of(target.id)
    if seat is None:
        raise Refusal("err.kick_not_seated", name=target.full_name)
    return seat


async def _start(k: Kozel, table: Table, sender: User | Chat) -> Localized:
    """The opener or an admin starts; once the table is full, any seated player may too."""
    seated = table.seat_of(sender.id) is not None
    if not ((seated and table.is_full) or await may_manage(k, table.row, sender)):
        raise Refusal("err.not_starter")
    events = await k.service.player.start(table)
    k.presenter.lobby.close(table)
    await k.presenter.show(table, events, starting=True)
    await k.scheduler.after_change(table)
    return said("lobby.started")
