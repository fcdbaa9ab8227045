"""The lobby message in the group: who has joined, the rules in plain words, and its buttons."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.ai import LEVELS
from engine.games import game_of
from engine.games.sea_goat import reads_double_finish
from engine.rules import PRESETS, RuleSet, offered_choices
from engine.seats import PAIR, side_of

from ..callbacks import Callback
from ..games import (
    COUNTS,
    SEA_GOAT_TARGETS,
    TARGETS,
    chooser,
    chosen,
    deals_a_bazaar,
    fits,
    seating,
    who_plays,
)
from ..i18n import Html, spoken_list, t
from ..table import Seat, Table
from .game_names import game_name
from .summary import about, played, value_key

OVERRIDDEN_BY_SPECIAL_BONES = ("lone_00", "lone_66")
#: How a player draws from the bazaar, and the tiles of it never drawn (RULES.md §1.5, §2.4).
BAZAAR_OPTIONS = ("draw_mode", "bazaar_reserve")
#: How many of the game's options the lobby itself shows (the editor shows them all).
LOBBY_FEW = 7
#: Settings of the table itself rather than of the rules.
TABLE_SETTINGS = ("players", "pairs", "turn_seconds", "computer_level")
GOAT_LIMITS = (101, 301, 501)
TURN_SECONDS = (30, 60, 120, 300)
PLAYER_COUNTS = (2, 3, 4)


def options_of(rules: RuleSet, players: int | None = None) -> tuple[str, ...]:
    """The options of the game that the editor of a table of ``rules`` and ``players`` offers,
    in its order (``Game.settable``)."""
    return tuple(name for name in game_of(rules).settable if applies(rules, name, players))


def choices(name: str, game: str = "kozel") -> tuple[Any, ...]:
    if name == "target":
        return TARGETS[game]
    if name == "goat_limit":
        return GOAT_LIMITS
    if name == "sg_target":
        return SEA_GOAT_TARGETS
    if name in COUNTS:
        return COUNTS[name]
    if name == "players":
        return PLAYER_COUNTS
    if name == "pairs":
        return (False, True)
    if name == "turn_seconds":
        return TURN_SECONDS
    if name == "computer_level":
        return LEVELS
    found = offered_choices(name, game)
    assert found is not None
    return found


def value_of(table: Table, name: str) -> Any:
    if name in TABLE_SETTINGS:
        return getattr(table, name)
    return table.rules_played.option(name)


def describe(lang: str, name: str, value: Any, game: str = "kozel") -> Html:
    """One option in plain words, e.g. "Fish: whoever holds the most takes everything"; in the
    words of ``game`` where it has its own (``rules.goat_limit.donkey``: its limit makes the
    donkey, as its match end says)."""
    for words in (f"rules.{name}.{game}", f"rules.{name}"):
        for key in (f"{words}.{value_key(value)}", f"{words}.other"):
            try:
                return t(lang, key, value=value)
            except KeyError:
                continue
    raise KeyError(f"no words for the option {name!r}")


def applies(rules: RuleSet, name: str, players: int | None = None) -> bool:
    """Whether option ``name`` can change anything at a table of ``rules`` and ``players``
    (None: no table, as every table of its game would). Special bones override the lone 0-0 and
    6-6 values (RULES.md §2.7.5); Sea Goat's reading of two doubles at once matters only when
    going out on them can win (§3.2.2); the bazaar's options only where one is dealt
    (``deals_a_bazaar``: not to four at seven each, so never at Sport domino), and its reserve
    only where a player draws. Such options say nothing meanwhile, so they are neither shown
    nor offered; a table that set one keeps it, and it counts again once it can."""
    if name == "sg_double_finish":
        return reads_double_finish(rules)
    if name in BAZAAR_OPTIONS:
        draws = name == "draw_mode" or rules.draw_mode != "none"
        return draws and deals_a_bazaar(rules, players)
    return not (rules.special_bones and name in OVERRIDDEN_BY_SPECIAL_BONES)


def rules_text(
    lang: str, rules: RuleSet, limit: int | None = None, *, players: int | None = None
) -> list[Html]:
    """The game's options at a table of ``rules`` and ``players`` in plain words, one a line;
    ``limit``: only the first few."""
    names = game_of(rules).settable[:limit]
    return [
        Html("• " + describe(lang, n, played(rules, n, players), rules.game))
        for n in names
        if applies(rules, n, players)
    ]


def mode_line(lang: str, *, pairs: bool) -> Html:
    """Whether a table plays in two pairs or everyone for themselves, as the lobby and the
    table's /rules both say it first."""
    return Html("• " + t(lang, "lobby.mode_pairs" if pairs else "lobby.mode_individual"))


def table_lines(lang: str, turn_seconds: int, computer_level: str) -> list[Html]:
    """The table's own settings that the lobby and /rules both show ahead of the game's options,
    so the two read in the same order."""
    return [
        Html("• " + describe(lang, "turn_seconds", turn_seconds)),
        Html("• " + describe(lang, "computer_level", computer_level)),
    ]


def game_line(lang: str, game: str) -> Html:
    """The game as the chooser and /rules list it: its name, its line as usually played (its
    preset's target), and who plays it."""
    said, players = about(lang, game, PRESETS[game]()), t(lang, f"players.{who_plays(game)}")
    return Html(f"<b>{game_name(lang, game)}</b> — {said} <i>({players})</i>")


def numbered(seat: Seat) -> str:
    """A seat's name with the number that ``/kick <number>`` takes (plain text, escaped later)."""
    return f"{seat.seat + 1}. {seat.name}"


def listed(seat: Seat, lang: str) -> str:
    """A seat as the lobby lists it: numbered, and a computer player with its level
    ("2. 🤖 Galya · strong"), so that people know whom they sit down against."""
    if seat.user_id is None and seat.ai in LEVELS:
        return f"{numbered(seat)} · {t(lang, f'level.{seat.ai}')}"
    return numbered(seat)


def lobby_revision(table: Table) -> int:
    """A short digest of everything the lobby shows (seats and settings), carried by its buttons:
    a tap drawn for another state of the lobby (a double tap, a change by someone else) is
    stale. Derived from stored state, so it survives a restart."""
    # The pairs chosen count as seats on the side their number would give them do not, so a
    # lobby nobody rearranged keeps the revision its buttons had before pairs could be chosen.
    moved = [s.seat for s in table.seats if s.side != side_of(s.seat, table.pairs)]
    asking = [s.seat for s in table.seats if s.asks_swap]
    state = {
        "players": table.players,
        "pairs": table.pairs,
        "turn_seconds": table.turn_seconds,
        "computer_level": table.computer_level,
        "rules": table.rules.to_dict(),
        "seats": [(s.user_id, s.ai) for s in table.seats],
        **({"moved": moved} if moved else {}),
        **({"asking": asking} if asking else {}),
    }
    digest = hashlib.blake2b(json.dumps(state, sort_keys=True).encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def seated(table: Table) -> list[Html]:
    """Who sits at the table, numbered as /kick takes them: in a row, or at a pair game pair by
    pair ("Pair 1: 1. Masha & 3. Olya"), a free place in a pair shown as "—", and who asks to
    change places with one of the other pair."""
    lang, count, wanted = table.language, len(table.seats), table.players
    if not table.pairs:
        names = ", ".join(listed(s, lang) for s in table.seats) or "—"
        return [t(lang, "lobby.players", count=count, wanted=wanted, names=names)]
    lines = [t(lang, "lobby.players_pairs", count=count, wanted=wanted)]
    for side in (0, 1):
        pair = [listed(s, lang) for s in table.pair(side)]
        pair += ["—"] * (PAIR - len(pair))
        lines.append(t(lang, "lobby.pair", number=side + 1, names=spoken_list(lang, pair)))
    for seat in table.seats:
        if seat.asks_swap:
            lines.append(t(lang, "lobby.asks_swap", name=seat.name, number=(1 - seat.side) + 1))
    return lines


def lobby_text(table: Table, opener_name: str, *, editing: bool = False) -> Html:
    """The table: who sits, the game and its main rules, and what to do next; ``editing``,
    above the ⚙️ Rules editor's buttons, every rule in full (a phone cuts a long button's words
    short) and what the buttons do."""
    lang = table.language
    game = chosen(table.rules)
    hint = "full" if table.is_full else "hint_pairs" if table.pairs else "hint"
    if editing:
        hint = "settings_hint"
    parts = [
        t(lang, "lobby.title", game=game_name(lang, game), opener=opener_name),
        Html(f"<i>{about(lang, game, table.rules_played)}</i>"),
        *seated(table),
        "",
        mode_line(lang, pairs=table.pairs),
        *table_lines(lang, table.turn_seconds, table.computer_level),
        *rules_text(
            lang, table.rules_played, None if editing else LOBBY_FEW, players=table.players
        ),
        "",
        t(lang, f"lobby.{hint}"),
    ]
    return Html("\n".join(parts))


def lobby_keyboard(table: Table) -> InlineKeyboardMarkup:
    lang = table.language
    revision = lobby_revision(table)

    def button(key: str, verb: str) -> InlineKeyboardButton:
        data = Callback(verb, table.id, lobby=revision).encode()
        return InlineKeyboardButton(t(lang, key), callback_data=data)

    game = InlineKeyboardButton(
        t(lang, "lobby.game", game=game_name(lang, chosen(table.rules))),
        callback_data=Callback("game", table.id, lobby=revision).encode(),
    )
    pairs = [[button("lobby.change_pair", "pair")]] if table.pairs else []
    return InlineKeyboardMarkup(
        [
            [button("lobby.join", "join"), button("lobby.leave", "leave")],
            *pairs,
            [game],
            [button("lobby.start", "start"), button("lobby.add_bot", "bot")],
            [button("lobby.settings", "opt"), button("lobby.cancel", "cancel")],
        ]
    )


def settings_keyboard(table: Table) -> InlineKeyboardMarkup:
    """Each button shows one setting and moves it to its next value."""
    lang = table.language
    revision = lobby_revision(table)
    rows, rules, players = [], table.rules_played, table.players
    for name in (*TABLE_SETTINGS, *options_of(table.rules, players)):
        value = value_of(table, name) if name in TABLE_SETTINGS else played(rules, name, players)
        label = describe(lang, name, value, table.rules.game)
        data = Callback("opt", table.id, lobby=revision, args=(name,)).encode()
        rows.append([InlineKeyboardButton(label, callback_data=data)])
    back = InlineKeyboardButton(
        t(lang, "lobby.back"), callback_data=Callback("lobby", table.id, lobby=revision).encode()
    )
    rows.append([back])
    return InlineKeyboardMarkup(rows)


def games_text(table: Table) -> Html:
    """The game chooser: every game, and house preset, with its one line."""
    lang = table.language
    lines = [t(lang, "lobby.choose_game"), ""]
    lines += [Html("• " + game_line(lang, game)) for game in chooser()]
    return Html("\n".join(lines))


def games_keyboard(table: Table) -> InlineKeyboardMarkup:
    """A button per game, the table's marked; tapping one chooses it."""
    lang = table.language
    revision = lobby_revision(table)

    def button(game: str) -> InlineKeyboardButton:
        mark = "✅ " if game == chosen(table.rules) else ""
        data = Callback("game", table.id, lobby=revision, args=(game,)).encode()
        return InlineKeyboardButton(mark + game_name(lang, game), callback_data=data)

    games = [button(game) for game in chooser()]
    rows = [games[i : i + 2] for i in range(0, len(games), 2)]
    back = Callback("lobby", table.id, lobby=revision).encode()
    rows.append([InlineKeyboardButton(t(lang, "lobby.back"), callback_data=back)])
    return InlineKeyboardMarkup(rows)


def next_value(table: Table, name: str) -> Any:
    """The setting's next value; for the players and pairs, the next the game is played by (the
    next one, refused with the reason, when no other is)."""
    options = choices(name, table.rules.game)
    current = value_of(table, name)
    index = options.index(current) if current in options else -1
    following = [options[(index + step) % len(options)] for step in range(1, len(options) + 1)]
    if name in ("players", "pairs"):
        game, players, pairs = table.rules.game, table.players, table.pairs
        fitting = [v for v in following if fits(game, *seating(players, pairs, name, v))]
        if fitting and fitting[0] != current:
            return fitting[0]
    return following[0]
