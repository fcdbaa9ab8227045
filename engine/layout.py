"""The layout: where tiles go on the table (RULES.md §1.6-§1.9), behind one interface.

A round never assumes how many open ends there are or what they are called: it asks its layout
which ends a tile fits, places the tile, and asks what the ends show, what they add up to and
whether the layout is closed. The line (``line.py``) is the layout of Kozel and the other line
games; the spinner's cross (``cross.py``) that of the fives games (§1.7), with up to four open ends.

A base class rather than a Protocol: both layouts subclass it, so the compiled engine
(``setup.py``) calls their methods through its own method table instead of looking them up by
name on every move. Its methods are abstract for mypy, but it has no ``ABCMeta``: mypyc cannot
build a compiled dataclass under that metaclass.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from .actions import Action, plays_of
from .tiles import Tile

#: The name of an open end: ``left`` and ``right`` along the line, ``up`` and ``down`` on the arms
#: of a spinner (§1.7). Moves, events and the bot's buttons name ends this way.
End = Literal["left", "right", "up", "down"]
#: Several tiles put down in one move (``multi_double``, §1.6), in order, each with its end.
Placements = tuple[tuple[Tile, End], ...]


class Layout:
    """What a round asks of the tiles on the table."""

    __slots__ = ()

    @property
    @abstractmethod
    def is_empty(self) -> bool:
        """Nothing is down yet: the next tile is the lead, placed with no matching (§1.6)."""
        ...

    @abstractmethod
    def end_names(self) -> tuple[End, ...]:
        """Every end this kind of layout can have; a move naming another one is refused."""
        ...

    @abstractmethod
    def open_ends(self) -> dict[End, int]:
        """Each open end, by name, with the value it shows."""
        ...

    @abstractmethod
    def ends_showing(self, tile: Tile) -> tuple[End, ...]:
        """The open ends ``tile`` may be attached to."""
        ...

    @abstractmethod
    def fits(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` can go on that give different layouts: the choices a player has."""
        ...

    def plays(self, hand: Sequence[Tile]) -> list[Action]:
        """Every placement of a tile of ``hand``, in hand order, one per ``fits``: the moves."""
        return [play for tile in hand for play in plays_of(tile, self.fits(tile))]

    @abstractmethod
    def takes_any(self, hands: Iterable[Iterable[Tile]]) -> bool:
        """Whether a tile of one of ``hands`` fits an open end (one call for the fish test)."""
        ...

    @abstractmethod
    def end_for(self, tile: Tile, end: End | None) -> End:
        """The end a legal placement of ``tile`` goes on when it names ``end`` (or none)."""
        ...

    @abstractmethod
    def ends_after(self, tile: Tile, end: End) -> tuple[int, ...]:
        """The values of the open ends once ``tile`` (already checked to fit) goes on ``end``."""
        ...

    @abstractmethod
    def place(self, tile: Tile, end: End) -> None:
        """Put down ``tile`` (already checked to fit) on ``end``, or lead it."""
        ...

    @abstractmethod
    def end_sum(self) -> int:
        """The open-end sum S of §1.8, which the fives and threes games score on."""
        ...

    @abstractmethod
    def end_sum_after(self, tile: Tile, end: End) -> int:
        """S once ``tile`` (already checked to fit) goes on ``end``: what the move scores on."""
        ...

    @abstractmethod
    def closed_on(self) -> int | None:
        """The suit that closes the layout (the closure test of §1.9), or None."""
        ...

    @abstractmethod
    def tiles(self) -> list[Tile]:
        """The tiles on the table."""
        ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The layout as plain data, merged into its round's JSON."""
        ...

    @abstractmethod
    def restored(self, data: dict[str, Any]) -> Layout:
        """A layout of this kind, with these options, holding the tiles ``data`` (a round's JSON)
        records: the round's JSON need not name its layout's kind, the game knows it."""
        ...

    @abstractmethod
    def copy(self) -> Layout:
        """The same layout, to try a move on without changing this one."""
        ...

    def awaits_spinner(self) -> bool:
        """Whether the next double put down becomes a spinner (§1.7); a line never has one."""
        return False

    # --- closed doubles (Donkey, §3.3; only the cross closes) --------------------------------

    def is_dead(self) -> bool:
        """Whether tiles are down but no open end is left (§1.9 item 3); a line never is."""
        return False

    def close(self, tile: Tile, seat: int) -> None:
        """Turn face down the double ``tile`` that ``seat`` has just placed: its end is dead."""
        raise ValueError("only the cross closes doubles")

    def reopen(self, tile: Tile) -> None:
        """Turn the closed double ``tile`` face up again."""
        raise ValueError("only the cross closes doubles")

    def closed_by(self, seat: int) -> list[Tile]:
        """The closed doubles that ``seat`` closed."""
        return []

    # --- several doubles in one move (``multi_double``, §1.6) --------------------------------

    def place_all(
        self, placements: Placements, closed: Sequence[bool] = (), seat: int = -1
    ) -> None:
        """Put down the tiles of one move, in order (each already checked to fit); those flagged
        in ``closed`` face down by ``seat``, each as it goes down, so that a closed double never
        becomes the spinner and a later one of the same move may."""
        for i, (tile, end) in enumerate(placements):
            self.place(tile, end)
            if closed and closed[i]:
                self.close(tile, seat)

    def end_sum_after_all(self, placements: Placements) -> int:
        """S once all of ``placements`` are down: what a multi-double move scores on (§3.4)."""
        after = self.copy()
        after.place_all(placements)
        return after.end_sum()

    def double_sets(self, doubles: Sequence[Tile], most: int) -> list[Placements]:
        """Every move that puts down 2 to ``most`` of ``doubles`` at once, each on a different open
        end matching it (§1.6), one per different layout: the doubles in the order given, except
        that while a spinner is awaited any of them may go first and become it."""
        found: list[Placements] = []

        def extend(layout: Layout, chosen: Placements, rest: Sequence[Tile]) -> None:
            if len(chosen) >= 2:
                found.append(chosen)
            if len(chosen) == most:
                return
            used = {end for _, end in chosen}
            any_first = layout.awaits_spinner()
            for i, tile in enumerate(rest):
                for end in layout.fits(tile):
                    if end in used:
                        continue
                    after = layout.copy()
                    after.place(tile, end)
                    later = [*rest[:i], *rest[i + 1 :]] if any_first else rest[i + 1 :]
                    extend(after, (*chosen, (tile, end)), later)

        if not self.is_empty:
            extend(self, (), [t for t in doubles if t.is_double])
        return found
