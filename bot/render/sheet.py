"""The match's scoresheet: each side's score after every round, as a yard chalks it up, so that
/standings and the match's end show how the match went, not only where it stands."""

from __future__ import annotations

from engine.events import RoundEnded

from ..i18n import Html, plural, t
from ..table import Table
from .board import ended_number

#: The newest rounds the sheet shows; older ones are counted in one line, so that a long match
#: keeps its message short.
ROWS = 12


def sheet_lines(table: Table, lang: str) -> list[str]:
    """The sheet of the rounds ended so far (``Table.round_ends``), oldest first; none before the
    first round ends. A round the game does not count (General's Goat's fish, dealt again with
    the same number) gives way to the one that counted."""
    match = table.match
    assert match is not None
    counted: dict[int, RoundEnded] = {}
    for ended in table.round_ends:
        counted[ended_number(match, ended)] = ended
    if not counted:
        return []
    names = " · ".join(table.side_name(side) for side in range(match.sides))
    deals = match.game.deals(match.rules) is not None  # Sport domino counts deals
    lines: list[str] = [t(lang, "sheet.head_deals" if deals else "sheet.head", names=names)]
    rows = sorted(counted.items())
    if len(rows) > ROWS:
        lines.append(plural(lang, "sheet.earlier", len(rows) - ROWS))
    lines += [_row(lang, number, ended) for number, ended in rows[-ROWS:]]
    return lines


def _row(lang: str, number: int, ended: RoundEnded) -> Html:
    """One round: its number, the scores after it, and how it ended when not by going out."""
    scores = " · ".join(str(score) for score in ended.scores)
    mark = " 🥚" if ended.eggs else " 🐟" if ended.result == "fish" else ""
    return t(lang, "sheet.row", round=number, scores=scores, mark=mark)
