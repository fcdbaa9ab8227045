"""The lobby message: one message in the group with the table's ✋ Join and ▶️ Start, redrawn
as the lobby changes, and closed (its buttons gone) once its table started, was cancelled or
expired."""

from __future__ import annotations

from functools import partial

from telegram import InlineKeyboardMarkup

from .. import pacing
from ..i18n import t
from ..sender import Sender
from ..service.messages import MessageIds
from ..table import Table


def closed_as(table: Table) -> str:
    """What the lobby of a table past it says, as stored: it started, nobody started it in
    time, or it was cancelled."""
    if table.status != "cancelled":
        return "lobby.started"
    return "lobby.expired" if table.expired else "lobby.cancelled"


class Lobby:
    def __init__(self, sender: Sender, messages: MessageIds) -> None:
        self.sender = sender
        self.messages = messages

    def draw(self, table: Table, text: str, keyboard: InlineKeyboardMarkup | None) -> None:
        """The open lobby redrawn in the group's turn (``Sender.board``), as it is by then; if
        its message was deleted, a new one shows it: the table is still open (it keeps /new
        from opening another there), and its buttons are the way in."""
        self._queue(table, text, keyboard)

    def close(self, table: Table, *, told: bool = True) -> None:
        """Take the buttons off a started, cancelled or expired table's lobby, which then says
        which (``closed_as``). Only the message people saw is edited (``pacing.Board``): a
        lobby that has not gone out yet never does, and one deleted in the group is not posted
        again only to say that, unless the group is not ``told`` otherwise: then a message of
        its own says it. The table is closed whatever Telegram says; buttons it leaves behind
        answer that the table is closed when tapped."""
        text = t(table.language, closed_as(table))
        self._queue(table, text, closing=True, instead=None if told else text)

    def _queue(
        self,
        table: Table,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        closing: bool = False,
        instead: str | None = None,
    ) -> None:
        lobby = pacing.Board(
            table.id,
            table.place,
            text,
            fresh=False,
            where=lambda: table.lobby_message_id,
            remember=partial(self.messages.remember_lobby, table),
            keyboard=keyboard,
            shows="lobby",
            closing=closing,
            instead=instead,
        )
        self.sender.board(lobby)
