"""The board is one message a round: sent at a new round, however busy the group, edited in
between, and its id stored so that a restart edits it too."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from telegram import Bot, Message
from telegram.error import BadRequest

from bot.pacing import GroupPacer
from bot.presenter.board import Board
from bot.sender import Sender
from bot.service import TableService
from storage import Storage
from tests.bot.service.conftest import playing


class Group:
    """Stands in for Telegram's bot methods: numbers the messages it sends, edits in place
    unless told the message is gone."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edited: list[int] = []
        self.gone = False

    async def send_message(self, chat_id: int, text: str, **options: Any) -> Message:
        self.sent.append(text)
        return cast(Message, type("Sent", (), {"message_id": 100 + len(self.sent)})())

    async def edit_message_text(self, text: str, *, message_id: int, **options: Any) -> None:
        self.edited.append(message_id)
        if self.gone:
            raise BadRequest("Message to edit not found")


async def shown(sender: Sender) -> None:
    """Let the group's outbox work through what was queued (storing a moved board included)."""
    for _ in range(300):
        if sender.idle:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not finish")


async def test_the_board_is_sent_at_a_new_round_and_edited_between(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    group = Group()
    pacer = GroupPacer(18, clock=lambda: 0.0)
    sender = Sender(cast(Bot, group), pacer)
    board = Board(sender, service.messages)
    board.draw(table, fresh=True)
    await shown(sender)
    assert table.board_message_id == 101 and len(group.sent) == 1
    board.draw(table)
    await shown(sender)
    assert group.edited == [101] and len(group.sent) == 1
    while pacer.room(table.chat_id) > 1:  # a busy group: room for one more call
        pacer.note(table.chat_id)
    board.draw(table, fresh=True)  # a new message costs what editing the old board would
    await shown(sender)
    assert group.edited == [101] and len(group.sent) == 2 and table.board_message_id == 102
    group.gone = True  # deleted in the group: a new board, remembered
    pacer.clock = lambda: 60.0
    board.draw(table)
    await shown(sender)
    assert table.board_message_id == 103
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.board_message_id == 103
