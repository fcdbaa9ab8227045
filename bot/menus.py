"""The command menus Telegram shows under "/": a group's, and the DM's, in each language."""

from __future__ import annotations

from telegram import BotCommand

from .i18n import t

GROUP_COMMANDS = (
    "new",
    "join",
    "leave",
    "addbot",
    "standings",
    "top",
    "history",
    "stats",
    "rules",
    "language",
    "cancel",
    "kick",
    "help",
)
PRIVATE_COMMANDS = ("start", "stats", "rules", "language", "help")
#: The DM menu's commands that do something else there: a person's own language, not a group's.
PRIVATE_WORDS = {"language": "commands.language_own"}


def menu(lang: str, *, private: bool) -> list[BotCommand]:
    """The DM's commands (``private``) or a group's, described in ``lang``."""
    names, words = (PRIVATE_COMMANDS, PRIVATE_WORDS) if private else (GROUP_COMMANDS, {})
    return [BotCommand(name, t(lang, words.get(name, f"commands.{name}"))) for name in names]
