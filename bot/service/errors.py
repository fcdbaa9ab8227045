"""How a table operation says no."""

from __future__ import annotations

from typing import Any

from storage import TableRow


class Refusal(Exception):
    """A polite no: ``key`` names the message that explains it; nothing was changed."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class DamagedTable(Exception):
    """A table whose stored game cannot be rebuilt (a damaged event log or snapshot): it cannot
    go on, but its opener or an admin may close it so that the chat can play again."""

    def __init__(self, row: TableRow) -> None:
        super().__init__(f"table {row.table_id} cannot be rebuilt from its stored events")
        self.row = row
