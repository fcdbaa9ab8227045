"""The lobby message in the group: who has joined, the rules in plain words, and its buttons."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.ai import LEVELS
from engine.rules import RuleSet, option_choices

from ..callbacks import Callback
from ..i18n import Html, t
from ..table import Seat, Table

#: The options players actually argue about, in the order the lobby shows them.
LOBBY_OPTIONS = (
    "goat_limit",
    "fish_mode",
    "lone_00",
    "lone_66",
    "special_bones",
    "memory",
    "eggs",
    "draw_mode",
    "bazaar_reserve",
    "first_lead",
    "next_lead",
    "lead_tile",
    "redeal_rule",
    "kozel_hand_sizes",
    "restart_1_1_after_unrecorded",
    "fish_closure_rule",
)
OVERRIDDEN_BY_SPECIAL_BONES = ("lone_00", "lone_66")
#: Settings of the table itself rather than of the rules.
TABLE_SETTINGS = ("players", "pairs", "turn_seconds", "computer_level")
GOAT_LIMITS = (101, 301, 501)
TURN_SECONDS = (30, 60, 120, 300)
PLAYER_COUNTS = (2, 3, 4)


def choices(name: str) -> tuple[Any, ...]:
    if name == "goat_limit":
        return GOAT_LIMITS
    if name == "players":
        return PLAYER_COUNTS
    if name == "pairs":
        return (False, True)
    if name == "turn_seconds":
        return TURN_SECONDS
    if name == "computer_level":
        return LEVELS
    found = option_choices(name)
    assert found is not None
    return found


def value_of(table: Table, name: str) -> Any:
    if name in TABLE_SETTINGS:
        return getattr(table, name)
    return getattr(table.rules, name)


def value_key(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def describe(lang: str, name: str, value: Any) -> Html:
    """One option in plain words, e.g. "Fish: whoever holds the most takes everything"."""
    key = f"rules.{name}.{value_key(value)}"
    try:
        return t(lang, key)
    except KeyError:
        return t(lang, f"rules.{name}.other", value=value)


def applies(rules: RuleSet, name: str) -> bool:
    """Special bones override the lone 0-0 and 6-6 values (RULES.md §2.7.5): those two options
    say nothing while they are on, so they are neither shown nor offered."""
    return not (rules.special_bones and name in OVERRIDDEN_BY_SPECIAL_BONES)


def rules_text(lang: str, rules: RuleSet, names: tuple[str, ...] = LOBBY_OPTIONS) -> list[Html]:
    return [Html("• " + describe(lang, n, getattr(rules, n))) for n in names if applies(rules, n)]


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
    state = {
        "players": table.players,
        "pairs": table.pairs,
        "turn_seconds": table.turn_seconds,
        "computer_level": table.computer_level,
        "rules": table.rules.to_dict(),
        "seats": [(s.user_id, s.ai) for s in table.seats],
    }
    digest = hashlib.blake2b(json.dumps(state, sort_keys=True).encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def lobby_text(table: Table, opener_name: str) -> Html:
    lang = table.language
    names = ", ".join(listed(s, lang) for s in table.seats) or "—"
    parts = [
        t(lang, "lobby.title", opener=opener_name),
        t(lang, "lobby.players", count=len(table.seats), wanted=table.players, names=names),
        "",
        Html("• " + t(lang, "lobby.mode_pairs" if table.pairs else "lobby.mode_individual")),
        Html("• " + describe(lang, "turn_seconds", table.turn_seconds)),
        Html("• " + describe(lang, "computer_level", table.computer_level)),
        *rules_text(lang, table.rules, LOBBY_OPTIONS[:7]),
        "",
        t(lang, "lobby.full" if table.is_full else "lobby.hint"),
    ]
    return Html("\n".join(parts))


def lobby_keyboard(table: Table) -> InlineKeyboardMarkup:
    lang = table.language
    revision = lobby_revision(table)

    def button(key: str, verb: str) -> InlineKeyboardButton:
        data = Callback(verb, table.id, lobby=revision).encode()
        return InlineKeyboardButton(t(lang, key), callback_data=data)

    return InlineKeyboardMarkup(
        [
            [button("lobby.join", "join"), button("lobby.leave", "leave")],
            [button("lobby.start", "start"), button("lobby.add_bot", "bot")],
            [button("lobby.settings", "opt"), button("lobby.cancel", "cancel")],
        ]
    )


def settings_keyboard(table: Table) -> InlineKeyboardMarkup:
    """Each button shows one setting and moves it to its next value."""
    lang = table.language
    revision = lobby_revision(table)
    rows = []
    for name in (*TABLE_SETTINGS, *LOBBY_OPTIONS):
        if not applies(table.rules, name):
            continue
        label = describe(lang, name, value_of(table, name))
        data = Callback("opt", table.id, lobby=revision, args=(name,)).encode()
        rows.append([InlineKeyboardButton(label, callback_data=data)])
    back = InlineKeyboardButton(
        t(lang, "lobby.back"), callback_data=Callback("lobby", table.id, lobby=revision).encode()
    )
    rows.append([back])
    return InlineKeyboardMarkup(rows)


def next_value(table: Table, name: str) -> Any:
    options = choices(name)
    current = value_of(table, name)
    index = options.index(current) if current in options else -1
    return options[(index + 1) % len(options)]
