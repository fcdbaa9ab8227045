"""The layout: where tiles go on the table (RULES.md §1.6-§1.9), behind one interface.

A round never assumes how many open ends there are or what they are called: it asks its layout
which ends a tile fits, places the tile, and asks what the ends show, what they add up to and
whether the layout is closed. The line (``line.py``) is the layout of Kozel and the other line
games; the spinner's cross of the fives games (§1.7), with up to four open ends, is the next one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, Protocol

from .tiles import Tile

#: The name of an open end: ``left`` and ``right`` along the line, ``up`` and ``down`` on the arms
#: of a spinner (§1.7). Moves, events and the bot's buttons name ends this way.
End = Literal["left", "right", "up", "down"]


class Layout(Protocol):
    """What a round asks of the tiles on the table."""

    @property
    def is_empty(self) -> bool:
        """Nothing is down yet: the next tile is the lead, placed with no matching (§1.6)."""
        ...

    @property
    def ends(self) -> tuple[int, ...]:
        """The values the open ends show, in the order of ``open_ends``."""
        ...

    def end_names(self) -> tuple[End, ...]:
        """Every end this kind of layout can have; a move naming another one is refused."""
        ...

    def open_ends(self) -> dict[End, int]:
        """Each open end, by name, with the value it shows."""
        ...

    def ends_showing(self, tile: Tile) -> tuple[End, ...]:
        """The open ends ``tile`` may be attached to."""
        ...

    def fits(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` can go on that give different layouts: the choices a player has."""
        ...

    def takes_any(self, hands: Iterable[Iterable[Tile]]) -> bool:
        """Whether a tile of one of ``hands`` fits an open end (one call for the fish test)."""
        ...

    def end_for(self, tile: Tile, end: End | None) -> End:
        """The end a legal placement of ``tile`` goes on when it names ``end`` (or none)."""
        ...

    def ends_after(self, tile: Tile, end: End) -> tuple[int, ...]:
        """The values of the open ends once ``tile`` (already checked to fit) goes on ``end``."""
        ...

    def place(self, tile: Tile, end: End) -> None:
        """Put down ``tile`` (already checked to fit) on ``end``, or lead it."""
        ...

    def end_sum(self) -> int:
        """The open-end sum S of §1.8, which the fives and threes games score on."""
        ...

    def end_sum_after(self, tile: Tile, end: End) -> int:
        """S once ``tile`` (already checked to fit) goes on ``end``: what the move scores on."""
        ...

    def closed_on(self) -> int | None:
        """The suit that closes the layout (the closure test of §1.9), or None."""
        ...

    def tiles(self) -> list[Tile]:
        """The tiles on the table."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The layout as plain data, merged into its round's JSON."""
        ...
