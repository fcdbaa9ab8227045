"""Which messages show a table, stored so that a restart edits them rather than posting anew,
and how far the group has been told the results."""

from __future__ import annotations

import dataclasses

from storage import LobbyView, Storage

from ..table import Seat, Table


class MessageIds:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def remember_board(self, table: Table, message_id: int | None) -> None:
        """Called from the group's outbox, outside the table's lock (``pacing``): only this
        field changes in memory, so a move committed meanwhile is not undone there, and a change
        written under the lock meanwhile keeps it (``Table.written``)."""
        await self.storage.update_table(table.id, board_message_id=message_id)
        table.row = dataclasses.replace(table.row, board_message_id=message_id)

    async def remember_lobby(self, table: Table, message_id: int | None) -> None:
        """Called from the group's outbox, as ``remember_board``; None once the lobby was closed
        (``pacing.Board``), which no later start-up then closes again."""
        await self.storage.update_table(table.id, lobby_message_id=message_id)
        table.row = dataclasses.replace(table.row, lobby_message_id=message_id)

    async def remember_view(self, table: Table, view: LobbyView) -> None:
        """What the lobby message shows (``Table.lobby_view``), under the table's lock."""
        if table.lobby_view != view:
            table.written(await self.storage.update_table(table.id, lobby_view=view))

    async def remember_hand(self, table: Table, seat: Seat, message_id: int | None) -> None:
        """The player's live hand message; None once it became a record, which asks nothing."""
        seat.hand_message_id = message_id
        if message_id is None:
            seat.question = None
            await self.storage.update_seat(
                table.id, seat.seat, hand_message_id=None, hand_question=None
            )
        else:
            await self.storage.update_seat(table.id, seat.seat, hand_message_id=message_id)

    async def remember_question(self, table: Table, seat: Seat, question: str | None) -> None:
        """The question the live hand shows in place of the hand, None once it shows the hand."""
        seat.question = question
        await self.storage.update_seat(table.id, seat.seat, hand_question=question)

    async def mark_announced(self, table: Table, seq: int) -> None:
        """Every result up to event ``seq`` has been announced. Called from the group's
        outbox, as ``remember_board``."""
        if table.announced_seq < seq:
            await self.storage.update_table(table.id, announced_seq=seq)
            table.row = dataclasses.replace(table.row, announced_seq=seq)
