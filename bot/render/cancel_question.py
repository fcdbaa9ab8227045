"""The question /cancel asks during a match: what would be lost, and who answers it."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ..callbacks import KEEP, YES, Callback
from ..i18n import Html, t
from ..table import Table
from .board import board_title, score_lines

#: How long the question may be answered: a "Yes" tapped much later was not meant for the
#: match as it is by then. Its words say "a minute".
ANSWER_SECONDS = 60


def question_text(table: Table, asker: str | None) -> Html:
    """Cancel the match? With its round and scores, which nothing will record, and who may
    answer: ``asker`` by name, or (None) any admin, for one who wrote in the group's name."""
    lang, match = table.language, table.match
    assert match is not None and match.round is not None
    title = board_title(lang, match, match.round)
    who = t(lang, "cancel.who_admins") if asker is None else t(lang, "cancel.who", name=asker)
    lines = [t(lang, "cancel.ask"), "", title, *score_lines(table, lang), "", who]
    return Html("\n".join(lines))


def question_keyboard(table: Table, asker: int) -> InlineKeyboardMarkup:
    """✖️ Yes, cancel it and ▶️ Keep playing, for ``asker`` (0: the group's admins)."""

    def button(key: str, answer: str) -> InlineKeyboardButton:
        data = Callback("cancel_answer", table.id, asker=asker, args=(answer,)).encode()
        return InlineKeyboardButton(t(table.language, key), callback_data=data)

    return InlineKeyboardMarkup([[button("cancel.yes", YES), button("cancel.keep", KEEP)]])
