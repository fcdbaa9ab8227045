"""Each side's standing in a match, which every game's scoring reads and writes."""

from __future__ import annotations

from dataclasses import dataclass

from .sea_goat import SeaState


@dataclass(frozen=True, slots=True)
class Tally:
    """Each side's score, with Kozel's memory, opening and eggs pot (RULES.md §2.7.4, §2.8),
    which a game without them leaves as they start, and what Sea Goat carries between rounds
    (``sea``, §3.2; None in the other games)."""

    scores: tuple[int, ...]
    memory: tuple[int, ...]
    opened: tuple[bool, ...]
    pot: int = 0
    sea: SeaState | None = None

    @classmethod
    def fresh(cls, sides: int) -> Tally:
        return cls((0,) * sides, (0,) * sides, (False,) * sides, 0)

    def credit(self, side: int, points: int) -> Tally:
        """``side`` scores ``points`` during play (the fives games, RULES.md §1.8)."""
        scores = list(self.scores)
        scores[side] += points
        return Tally(tuple(scores), self.memory, self.opened, self.pot, self.sea)
