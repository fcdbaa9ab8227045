"""Each side's standing in a match, which every game's scoring reads and writes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tally:
    """Each side's score, with Kozel's memory, opening and eggs pot (RULES.md §2.7.4, §2.8),
    which a game without them leaves as they start."""

    scores: tuple[int, ...]
    memory: tuple[int, ...]
    opened: tuple[bool, ...]
    pot: int = 0

    @classmethod
    def fresh(cls, sides: int) -> Tally:
        return cls((0,) * sides, (0,) * sides, (False,) * sides, 0)

    def credit(self, side: int, points: int) -> Tally:
        """``side`` scores ``points`` during play (the fives games, RULES.md §1.8)."""
        scores = list(self.scores)
        scores[side] += points
        return Tally(tuple(scores), self.memory, self.opened, self.pot)
