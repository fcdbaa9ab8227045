"""Which messages show a table, stored so that a restart edits them rather than posting anew,
and how far the group has been told the results."""

from __future__ import annotations

from storage import Storage

from ..table import Seat, Table


class MessageIds:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def remember_board(self, table: Table, message_id: int) -> None:
        table.row = await self.storage.update_table(table.id, board_message_id=message_id)

    async def remember_lobby(self, table: Table, message_id: int) -> None:
        table.row = await self.storage.update_table(table.id, lobby_message_id=message_id)

    async def remember_hand(self, table: Table, seat: Seat, message_id: int | None) -> None:
        seat.hand_message_id = message_id
        await self.storage.update_seat(table.id, seat.seat, hand_message_id=message_id)

    async def mark_announced(self, table: Table) -> None:
        """Every result up to the last committed event has been announced."""
        if table.announced_seq != table.seq:
            table.row = await self.storage.update_table(table.id, announced_seq=table.seq)
