"""The match's scoresheet: each side's score after every round, as a yard chalks it up, so that
/standings and the match's end show how the match went, not only where it stands."""

from __future__ import annotations

from functools import partial

from engine.events import MatchEnded, RoundEnded

from ..i18n import Html, plural, t
from ..sender import read_len
from ..table import Table
from .board import block_name, ended_number
from .room import LIMIT, whole_rows

#: The newest rounds the sheet shows; older ones are counted in one line, so that a long match
#: keeps its message short (but for a single older one: its own line is no longer).
ROWS = 12


def sheet_lines(
    table: Table, lang: str, final: MatchEnded | None = None, room: int = LIMIT
) -> list[str]:
    """The sheet of the rounds ended so far (``Table.round_ends``), oldest first; none before the
    first round ends. A round the game does not count (General's Goat's fish, dealt again with
    the same number) has no row: the round dealt again takes its number once it ends. At the
    match's end (``final``), a match won during play (a move that reached the target, or a
    timeout, in a round that never ended) has the final scores as its last row, in the round it
    ended in. The newest rounds come, at most ``ROWS`` and as many as fit in ``room`` (that the
    message leaves: long names take it), after a line that counts the earlier ones."""
    match = table.match
    assert match is not None
    counted: dict[int, list[int]] = {}
    marks: dict[int, str] = {}
    for ended in table.round_ends:
        if ended.outcome == "redealt":
            continue  # it is being dealt again, and counts once it ends
        number = ended_number(match, ended)
        counted[number], marks[number] = ended.scores, _mark(ended, block_name(match))
    if not counted:
        return []
    rows = sorted(counted.items())
    if final is not None and final.scores != rows[-1][1]:
        rows.append((rows[-1][0] + 1, final.scores))
    names = " · ".join(table.side_name(side, lang) for side in range(match.sides))
    deals = match.game.deals(match.rules) is not None  # Sport domino counts deals
    # General's Goat keeps no points: its scores are the rounds each team lost
    head = "head_deals" if deals else "head" if match.game.keeps_points else "head_losses"
    lines: list[str] = [t(lang, f"sheet.{head}", names=names)]
    newest = [_row(lang, number, scores, marks.get(number, "")) for number, scores in rows[::-1]]
    earlier = partial(plural, lang, "sheet.earlier_deals" if deals else "sheet.earlier")
    room -= read_len(lines[0]) + 1
    # one round more than ROWS is shown: the line counting it would take the room it takes
    shown = len(newest) if len(newest) == ROWS + 1 else ROWS
    kept, left_out = whole_rows(newest[:shown], room, earlier, already=len(newest[shown:]))
    return [*lines, *([left_out] if left_out else []), *kept[::-1]]


#: A round nobody could move in, on the sheet, by what its game calls it (``block_name``).
BLOCK_MARKS = {"fish": " 🐟", "blocked": " 🧱"}


def _mark(ended: RoundEnded, block: str) -> str:
    """How a round ended when not by going out: eggs, or a block, marked as its game calls it
    (``block``), as its result does."""
    if ended.eggs:
        return " 🥚"
    return BLOCK_MARKS[block] if ended.result == "fish" else ""


def _row(lang: str, number: int, scores: list[int], mark: str) -> Html:
    """One round: its number, the scores after it, and how it ended (``_mark``)."""
    return t(lang, "sheet.row", round=number, scores=" · ".join(map(str, scores)), mark=mark)
