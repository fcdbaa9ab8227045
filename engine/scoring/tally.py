"""Each side's standing in a match, which every game's scoring reads and writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .sea_goat import SeaState

if TYPE_CHECKING:
    from ..events import RoundEnded


@dataclass(slots=True)
class Tally:
    """Each side's score, with Kozel's memory, opening and eggs pot (RULES.md §2.7.4, §2.8),
    which a game without them leaves as they start, and what Sea Goat carries between rounds
    (``sea``, §3.2; None in the other games).

    A value: nothing changes a tally, its methods return new ones. It is not a frozen dataclass
    only because those set each field through ``object.__setattr__``, which made a new tally
    cost four times as much, and every round makes several."""

    scores: tuple[int, ...]
    memory: tuple[int, ...]
    opened: tuple[bool, ...]
    pot: int = 0
    sea: SeaState | None = None

    @classmethod
    def fresh(cls, sides: int) -> Tally:
        return cls((0,) * sides, (0,) * sides, (False,) * sides, 0)

    @classmethod
    def left_by(cls, ended: RoundEnded) -> Tally:
        """The standing as the round that ``ended`` left it, from its event alone: what the game
        does not write there stands as a match starts (``after``)."""
        return cls.fresh(len(ended.scores)).after(ended)

    def after(self, ended: RoundEnded) -> Tally:
        """The standing the round that ``ended`` leaves: its scores, and what the game carries
        from round to round (Kozel's memory, opening and eggs, Sea Goat's ``sea``) where it
        writes them; a game without them leaves them as they were."""
        return Tally(
            tuple(ended.scores),
            self.memory if ended.memory is None else tuple(ended.memory),
            self.opened if ended.opened is None else tuple(ended.opened),
            self.pot if ended.pot is None else ended.pot,
            self.sea if ended.sea is None else SeaState.from_dict(ended.sea),
        )

    @property
    def eggs(self) -> int:
        """The eggs' pot that waits for a round's winner, wherever the game keeps it: Kozel in
        ``pot`` (RULES.md §2.7.4), Sea Goat with the rest of its state (``sea``, §3.2.5)."""
        return self.pot if self.sea is None else self.sea.pot

    def credit(self, side: int, points: int) -> Tally:
        """``side`` scores ``points`` during play (the fives games, RULES.md §1.8)."""
        scores = list(self.scores)
        scores[side] += points
        return Tally(tuple(scores), self.memory, self.opened, self.pot, self.sea)
