"""How much of a list one message holds: Telegram refuses a text of more than 4096 characters
(as it counts them: ``sender.read_len``), and the sender would cut a longer one anywhere, mid-name,
dropping its formatting. A long list rather loses whole rows, and says how many."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from telegram.constants import MessageLimit

from ..sender import read_len

#: What a message holds.
LIMIT = MessageLimit.MAX_TEXT_LENGTH


def room_after(lines: Sequence[str]) -> int:
    """The room a message of ``lines`` leaves for more lines, each after a line break."""
    return LIMIT - read_len("\n".join(lines))


def whole_rows(
    rows: Sequence[str], room: int, left_out: Callable[[int], str], *, already: int = 0
) -> tuple[list[str], str | None]:
    """The first of ``rows`` that fit in ``room`` (each after a line break), and the line that
    says how many rows were left out (``left_out(count)``, which fits too; ``already``: rows
    left out before these were offered), or None when none was."""
    if not already and sum(read_len(row) + 1 for row in rows) <= room:
        return list(rows), None
    kept: list[str] = []
    used = 0
    for row in rows:
        used += read_len(row) + 1
        rest = len(rows) - len(kept) - 1 + already
        if used + (read_len(left_out(rest)) + 1 if rest else 0) > room:
            break
        kept.append(row)
    rest = len(rows) - len(kept) + already
    return kept, left_out(rest) if rest else None
