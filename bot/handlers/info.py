"""Commands that tell: /start, /help, /rules, /standings, /top, /stats."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from engine.games import GAMES
from engine.rules import PRESETS

from ..callbacks import Callback, plain_number
from ..context import Kozel, KozelContext
from ..games import HOUSE_PRESETS, chooser, chosen, game_of_choice
from ..i18n import Html, t
from ..place import place_of
from ..render.game_names import game_called, game_name
from ..render.history import history_text
from ..render.lobby import game_line, mode_line, rules_text, table_lines
from ..render.standings import match_text, record_text, top_text
from ..render.summary import summary
from ..sender import Written
from ..service.store import computer_name
from .common import (
    drawn_here,
    from_group,
    in_group,
    in_private,
    inform,
    inform_when_sent,
    refuse,
    refuse_anonymous,
    reply,
)
from .lobby import seat_and_show
from .play import back_everywhere

PAGE = 10
#: /stats sent in the group's name, or in a channel's: whose record it asks for is unknown.
STATS_REFUSALS = ("err.anonymous_stats", "err.as_channel_stats")
#: /top's buttons to the group's other games, this many a row.
GAMES_A_ROW = 3


def help_text(lang: str, *, private: bool = False) -> Html:
    """/help, with the games the lobby offers besides Kozel: in a group its commands; in the
    DM (``private``) how to start a table, and the few commands that work there."""
    others = (game_name(lang, game) for game in chooser() if game != "kozel")
    return t(lang, "help.private" if private else "help.text", games=Html(", ".join(others)))


async def start(update: Update, context: KozelContext) -> None:
    """/start in the DM; ``/start join-<table>`` completes a join begun in the group."""
    k = context.kozel
    user = update.effective_user
    lang = await k.language(update)
    if user is None or in_group(update):
        await inform(k, update, help_text(lang))
        return
    await k.service.records.remember_user(user)
    payload = context.args[0] if context.args else ""
    table_id = plain_number(payload.removeprefix("join-")) if payload.startswith("join-") else None
    if table_id is None:
        await reply(k, update, t(lang, "dm.welcome", name=user.first_name))
        await back_everywhere(k, user.id)
        return
    table = await k.service.store.table(table_id)
    if table is None or table.status != "lobby":
        await refuse(k, update, lang, "err.table_closed")
        return
    async with k.service.store.lock(table.chat_id):
        await seat_and_show(k, update, lang, table, user)


async def help_command(update: Update, context: KozelContext) -> None:
    k = context.kozel
    lang = await k.language(update)
    await inform(k, update, help_text(lang, private=in_private(update)))


async def rules_command(update: Update, context: KozelContext) -> None:
    """/rules: the game of this table, with its options (its summary leaves out the usual rules
    the table changed); or the game named (/rules muggins, /rules Пятёрочка) by its usual rules;
    without either, Kozel's, and the other games. The turn time and computer players come first,
    as in the lobby: the table's (after whether it plays in pairs), or a new table's. A name it
    does not know is answered as /top answers it, with the games it knows."""
    k = context.kozel
    lang = await k.language(update)
    place = place_of(update)
    words = " ".join(context.args or [])
    asked = game_called(words, chooser())
    if words and asked is None:  # as /top answers a game it does not know
        await _unknown_game(k, update, lang, words, chooser())
        return
    table = (
        await k.service.store.active_table(place)
        if place is not None and in_group(update) and asked is None
        else None
    )
    rules = table.rules_played if table is not None else PRESETS[asked or "kozel"]()
    game = chosen(rules)
    head = "rules.head_table" if table is not None else "rules.head_default"
    # no table open: what a new table would get (the bot's settings), and the game's usual
    # words (``players`` None), but for what no table of it plays (Sport domino's bazaar)
    seconds = table.turn_seconds if table is not None else k.settings.turn_seconds
    level = table.computer_level if table is not None else k.settings.computer_level
    players = table.players if table is not None else None
    # a table's, as its lobby says first: whether it plays in two pairs
    mode = [] if table is None else [mode_line(lang, pairs=table.pairs)]
    lines = [
        t(lang, head, game=game_name(lang, game)),
        *summary(lang, game, rules, players),
        "",
        *mode,
        *table_lines(lang, seconds, level),
        *rules_text(lang, rules, players=players),
    ]
    if table is None and asked is None:
        lines += ["", t(lang, "rules.other_games")]
        lines += [Html("• " + game_line(lang, other)) for other in chooser() if other != game]
    await inform(k, update, Html("\n".join(lines)))


async def _unknown_game(
    k: Kozel, update: Update, lang: str, words: str, known: Iterable[str]
) -> None:
    """Answer a game name nobody knows (/rules, /top) with the games ``known``."""
    names = Html(", ".join(game_name(lang, name) for name in known))
    await inform(k, update, t(lang, "top.unknown_game", name=words, games=names))


async def standings(update: Update, context: KozelContext) -> None:
    """/standings: the match in progress here (in this group, or in this topic of a forum)."""
    k = context.kozel
    lang = await k.language(update)
    group = await from_group(k, update, lang)
    if group is None:
        return
    place = group.place
    table = await k.service.store.active_table(place)
    if table is None or table.match is None:  # a lobby's match is yet to start
        await inform(k, update, t(lang, "err.no_match" if table is None else "err.not_started"))
        return
    asked = table.id

    async def written(lang: str) -> Written:
        """The match as it is when the answer goes; one that ended meanwhile (its result went
        first) is over, not still on someone's turn, and one cancelled meanwhile has no
        result to point to."""
        now = await k.service.store.active_table(place)
        match = now.match if now is not None and now.id == asked else None
        if now is not None and match is not None and not match.is_over:
            return match_text(now, lang), None
        row = await k.storage.get_table(asked)
        cancelled = row is not None and row.status == "cancelled"
        return t(lang, "standings.cancelled" if cancelled else "standings.over"), None

    await inform_when_sent(k, update, written)


async def top(update: Update, context: KozelContext) -> None:
    """/top [game]: the group's standings of all time (all of its topics) in one game, a page
    at a time: the game named (a house preset's name names its game), else the one at the
    table here, else the one played last."""
    k = context.kozel
    lang = await k.language(update)
    group = await from_group(k, update, lang)
    if group is None:
        return
    place = group.place
    played = await k.service.records.games_played(place.chat_id)
    words = " ".join(context.args or ())
    if words:
        known = [*played, *(name for name in GAMES if name not in played)]
        named = game_called(words, [*known, *HOUSE_PRESETS])
        if named is None:
            await _unknown_game(k, update, lang, words, known)
            return
        game = game_of_choice(named)  # a house preset counts in its game's standings
    else:
        table = await k.service.store.active_table(place)
        game = table.rules.game if table is not None else played[0] if played else "kozel"

    async def written(lang: str) -> Written:
        """The standings as they are when the answer goes (a match may end meanwhile)."""
        played = await k.service.records.games_played(place.chat_id)
        return await _top_page(k, place.chat_id, lang, game, 0, played=played)

    await inform_when_sent(k, update, written)


async def _top_page(
    k: Kozel, chat_id: int, lang: str, game: str, page: int, *, played: list[str]
) -> tuple[Html, InlineKeyboardMarkup | None]:
    """A page of ``game``'s standings, with buttons to turn pages and to the other games the
    group has played (``played``)."""
    if not played:
        return t(lang, "top.empty"), None
    rows, total = await k.service.records.standings(chat_id, game, offset=page * PAGE, limit=PAGE)
    text = top_text(lang, game, rows, page=page, total=total, size=PAGE)
    turns = []
    if page > 0:
        data = Callback("top", page=page - 1, args=(game,)).encode()
        turns.append(InlineKeyboardButton(t(lang, "top.prev"), callback_data=data))
    if (page + 1) * PAGE < total:
        data = Callback("top", page=page + 1, args=(game,)).encode()
        turns.append(InlineKeyboardButton(t(lang, "top.next"), callback_data=data))
    others = [
        InlineKeyboardButton(
            game_name(lang, name), callback_data=Callback("top", args=(name,)).encode()
        )
        for name in played
        if name != game
    ]
    keyboard = [turns] if turns else []
    keyboard += [others[i : i + GAMES_A_ROW] for i in range(0, len(others), GAMES_A_ROW)]
    return text, InlineKeyboardMarkup(keyboard) if keyboard else None


async def top_button(update: Update, context: KozelContext) -> None:
    k = context.kozel
    query, place = update.callback_query, place_of(update)
    assert query is not None
    lang = await k.language(update)
    cb = context.button
    if cb is None or place is None or not in_group(update) or not drawn_here(update, "top"):
        await refuse(k, update, lang, "err.unknown_button")
        return
    played = await k.service.records.games_played(place.chat_id)
    # A page button from before the standings were per game turned Kozel's pages.
    game = cb.args[0] if cb.args else "kozel"
    # a page no standings reach (forged): it would say the game was never played here
    past_last = cb.page and cb.page * PAGE >= await k.service.records.players(place.chat_id, game)
    if (game not in played and game not in GAMES) or past_last:
        await refuse(k, update, lang, "err.unknown_button")
        return
    text, keyboard = await _top_page(k, place.chat_id, lang, game, cb.page, played=played)
    await k.sender.answer(query.id)  # at once: the page waits for the group's turn
    message = query.message
    if message is not None:
        k.sender.replace(place, message.message_id, text, keyboard)


async def history(update: Update, context: KozelContext) -> None:
    """/history: the group's latest matches (all its topics), newest first."""
    k = context.kozel
    lang = await k.language(update)
    group = await from_group(k, update, lang)
    if group is None:
        return
    chat_id = group.place.chat_id

    async def written(lang: str) -> Written:
        """The matches as they are when the answer goes (one may end meanwhile)."""
        matches = await k.service.records.history(chat_id)
        return history_text(lang, matches, partial(computer_name, lang), k.settings.zone), None

    await inform_when_sent(k, update, written)


async def stats(update: Update, context: KozelContext) -> None:
    """/stats: your own record in every group, and your latest matches."""
    k = context.kozel
    user = update.effective_user
    lang = await k.language(update)
    if user is None or await refuse_anonymous(k, update, lang, STATS_REFUSALS):
        return
    await k.service.records.remember_user(user)

    async def written(lang: str) -> Written:
        """The record as it is when the answer goes (a match may end meanwhile)."""
        record, recent = await k.service.records.player(user.id, recent=5)
        return record_text(lang, record, recent, k.settings.zone), None

    await inform_when_sent(k, update, written)
