"""The board is one message: sent at a new round while the group's budget has room, edited in
between, and its id stored so that a restart edits it too."""

from __future__ import annotations

from typing import cast

from telegram import Message

from bot.presenter.board import Board
from bot.presenter.notices import BOARD_RESERVE
from bot.sender import Sender
from bot.service import TableService
from storage import Storage
from tests.bot.service.conftest import playing


class Pacer:
    def __init__(self) -> None:
        self.left = 18

    def room(self, chat_id: int) -> int:
        return self.left


class Group:
    """Stands in for the sender: numbers the messages it sends, edits in place unless told
    the message is gone."""

    def __init__(self) -> None:
        self.pacer = Pacer()
        self.sent: list[str] = []
        self.edited: list[int | None] = []
        self.gone = False

    async def send(self, chat_id: int, text: str) -> Message:
        self.sent.append(text)
        return cast(Message, type("Sent", (), {"message_id": 100 + len(self.sent)})())

    async def edit(self, chat_id: int, message_id: int | None, text: str) -> int:
        self.edited.append(message_id)
        if self.gone or message_id is None:
            return (await self.send(chat_id, text)).message_id
        return message_id


async def test_the_board_is_sent_at_a_new_round_and_edited_between(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    group = Group()
    board = Board(cast(Sender, group), service.messages)
    await board.draw(table, fresh=True)
    assert table.board_message_id == 101 and len(group.sent) == 1
    await board.draw(table)
    assert group.edited == [101] and len(group.sent) == 1
    group.pacer.left = BOARD_RESERVE  # the budget is kept for results: the old board is edited
    await board.draw(table, fresh=True)
    assert group.edited == [101, 101] and len(group.sent) == 1
    group.gone = True  # deleted in the group: a new board, remembered
    await board.draw(table)
    assert table.board_message_id == 102
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.board_message_id == 102
