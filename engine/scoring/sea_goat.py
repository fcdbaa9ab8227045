"""Sea Goat's arithmetic (RULES.md §3.2): the winner collects the losers' hands, only one side may
hold points, and a win by a side that does not hold them writes every score off.

``SeaState`` is what a Sea Goat match carries from one round to the next besides the scores (the
holder is derived from them): it is written in each ``round_ended`` (``sea``) so that replaying
the events rebuilds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..events import MatchEndedBy
from ..tiles import Tile

ZERO_ZERO: Final = Tile(0, 0)
SIX_SIX: Final = Tile(6, 6)
#: "Минимальное количество очков, которые можно начать записывать — 25" (§3.2.1 rule 3); also
#: the pips that make "на сто" and the fisherman module's cases (§3.2.1 rule 7, §3.2.4).
MINIMUM: Final = 25
#: Rounds a fisherman who wrote off a fish, or a pot of eggs under ``sg_eggs = ua``, is given
#: (§3.2.4, §3.2.5).
ATTEMPTS: Final = 3

_SPECIAL: Final[dict[frozenset[Tile], int]] = {
    frozenset((ZERO_ZERO,)): 25,
    frozenset((SIX_SIX,)): 50,
    frozenset((ZERO_ZERO, SIX_SIX)): 75,
}


def hand_value(hand: Sequence[Tile]) -> int:
    """§3.2.1 rule 2: a hand of exactly {0-0} is 25, {6-6} 50, {0-0, 6-6} 75; any other its pips
    (so 0-0 with other tiles counts 0, SG-1)."""
    special = _SPECIAL.get(frozenset(hand)) if len(hand) <= 2 else None
    return special if special is not None else sum(tile.pips for tile in hand)


def holder(scores: Sequence[int]) -> int | None:
    """The side that holds points (score > 0), None when nobody does; never more than one."""
    return next((side for side, score in enumerate(scores) if score > 0), None)


def record(scores: Sequence[int], winner: int, value: int) -> tuple[list[int], bool]:
    """The scores after side ``winner`` wins a round worth ``value`` (§3.2.1 rule 4), and whether
    that was a write-off. With no holder, 25 or more starts the record; the holder adds any
    amount (FLAG: the spec's reading); another side's win of 25 or more (the seed says "больше
    25"; ≥ 25 like rule 3, FLAG) writes every score off; less changes nothing."""
    after = list(scores)
    held = holder(scores)
    if held == winner:
        after[winner] += value
    elif value >= MINIMUM:
        if held is not None:
            return [0] * len(after), True
        after[winner] = value
    return after, False


@dataclass(frozen=True, slots=True)
class SeaState:
    """What a Sea Goat match carries between rounds:

    - ``pot``: the pips of eggs not yet won (§3.2.5), added to the next winner's value;
    - ``eggs_tries``: rounds without a single winner since the eggs (``sg_eggs = ua``; the third
      leaves them rotten);
    - ``na_sto``: the seat that leads the next round "на сто" (earned by finishing on 6-6 under
      ``sg_finish = ua`` or by the fisherman module, §3.2.2, §3.2.4);
    - ``fisher`` and ``fisher_tries``: the seat that wrote off a fish and the rounds it has had
      since to make it a write-off (§3.2.4);
    - ``winners``, ``losers`` and ``ended_by``: set when the round just ended decided the match by
      a special outcome (an instant win, "на сто").
    """

    pot: int = 0
    eggs_tries: int = 0
    na_sto: int | None = None
    fisher: int | None = None
    fisher_tries: int = 0
    winners: tuple[int, ...] | None = None
    losers: tuple[int, ...] = ()
    ended_by: MatchEndedBy | None = None

    def to_dict(self) -> dict[str, Any]:
        """``round_ended.sea``: the carried fields always, the match's end only when set."""
        data: dict[str, Any] = {
            "pot": self.pot,
            "eggs_tries": self.eggs_tries,
            "na_sto": self.na_sto,
            "fisher": self.fisher,
            "fisher_tries": self.fisher_tries,
        }
        if self.winners is not None:
            data["match"] = {
                "winners": list(self.winners),
                "losers": list(self.losers),
                "ended_by": self.ended_by,
            }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeaState:
        ended = data.get("match")
        return cls(
            pot=data["pot"],
            eggs_tries=data["eggs_tries"],
            na_sto=data["na_sto"],
            fisher=data["fisher"],
            fisher_tries=data["fisher_tries"],
            winners=None if ended is None else tuple(ended["winners"]),
            losers=() if ended is None else tuple(ended["losers"]),
            ended_by=None if ended is None else ended["ended_by"],
        )
