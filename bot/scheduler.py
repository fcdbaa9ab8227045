"""Moves nobody taps for: computer players, paced so people can follow them."""

from __future__ import annotations

import asyncio
import logging

from .presenter import Presenter
from .service import TableService
from .table import Table

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, service: TableService, presenter: Presenter, delay: float) -> None:
        self.service = service
        self.presenter = presenter
        self.delay = delay
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def after_change(self, table: Table) -> None:
        """Call with the table's lock held, after every change: arms the next computer move."""
        match = table.match
        if match is None or match.is_over or table.status != "playing":
            return
        seat = match.current_seat
        if seat is None or not table.seats[seat].computer_plays:
            return
        if table.id in self._tasks and not self._tasks[table.id].done():
            return
        self._tasks[table.id] = asyncio.create_task(self._computer_turn(table.id, table.version))

    async def _computer_turn(self, table_id: int, version: int) -> None:
        await asyncio.sleep(self.delay)
        table = await self.service.table(table_id)
        if table is None:
            return
        async with self.service.lock(table.chat_id):
            table = await self.service.table(table_id)
            if table is None or table.version != version:
                return  # someone moved meanwhile: this turn is no longer the computer's
            try:
                events = await self.service.computer_move(table)
                if events:
                    await self.presenter.show(table, events)
            except Exception:
                log.exception("table %s: computer move failed", table_id)
                return
            finally:
                self._tasks.pop(table_id, None)
            self.after_change(table)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
