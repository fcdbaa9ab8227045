"""The board: one message in the group that shows the round in play, edited move by move."""

from __future__ import annotations

from engine import Round

from ..render.board import board_text
from ..sender import Sender
from ..service.messages import MessageIds
from ..table import Table
from .notices import BOARD_RESERVE


class Board:
    def __init__(self, sender: Sender, messages: MessageIds) -> None:
        self.sender = sender
        self.messages = messages

    async def draw(self, table: Table, *, fresh: bool = False, rnd: Round | None = None) -> None:
        """The one place the board is sent or edited. ``fresh``: a new round, which gets a new
        message (it notifies) while the group's message budget has room; ``rnd``: a round that
        has just ended, shown with its last move."""
        text = board_text(table, rnd)
        if fresh and (
            table.board_message_id is None or self.sender.pacer.room(table.chat_id) > BOARD_RESERVE
        ):
            message = await self.sender.send(table.place, text)
            await self.messages.remember_board(table, message.message_id)
            return
        message_id = await self.sender.edit(table.place, table.board_message_id, text)
        if message_id != table.board_message_id:
            await self.messages.remember_board(table, message_id)

    async def final(self, table: Table) -> None:
        """The board of a round that just ended, with its last move, before the result."""
        finished, table.finished_round = table.finished_round, None
        if finished is not None and table.board_message_id is not None:
            await self.draw(table, rnd=finished)
