"""The board: one message in the group that shows the round in play, edited move by move."""

from __future__ import annotations

from functools import partial

from engine import Round
from engine.scoring.tally import Tally

from .. import pacing
from ..render.board import board_text
from ..sender import Sender
from ..service.messages import MessageIds
from ..table import Table


class Board:
    def __init__(self, sender: Sender, messages: MessageIds) -> None:
        self.sender = sender
        self.messages = messages

    def draw(
        self,
        table: Table,
        *,
        fresh: bool = False,
        rnd: Round | None = None,
        found: Tally | None = None,
    ) -> None:
        """The one place the board is sent or edited, queued in the group's outbox: the group
        sees the newest board as soon as its budget allows (``pacing``). ``fresh``: a new round,
        which gets a new message (it notifies); ``rnd``: a round that has just ended, shown with
        its last move and the standing its end ``found``."""
        self._queue(table, board_text(table, rnd, found=found), fresh=fresh)

    def close(self, table: Table, ended: str) -> None:
        """The last look of a cancelled table whose place takes no new message (a closed forum
        topic: ``pacing.Board``), only edited in: it says what ``ended`` it (a locale key), as
        a /cancel's says it was cancelled."""
        self._queue(table, board_text(table, ended=ended), closing=True)

    def _queue(
        self, table: Table, text: str, *, fresh: bool = False, closing: bool = False
    ) -> None:
        board = pacing.Board(
            table.id,
            table.place,
            text,
            fresh,
            where=lambda: table.board_message_id,
            remember=partial(self.messages.remember_board, table),
            closing=closing,
        )
        self.sender.board(board)

    def final(self, table: Table) -> None:
        """The board of a round that just ended, with its last move, before the result: at the
        scores its end found, which the result then takes on to the new ones, in that order."""
        finished, table.finished_round = table.finished_round, None
        found, table.finished_tally = table.finished_tally, None
        if finished is not None:
            self.draw(table, rnd=finished, found=found)
