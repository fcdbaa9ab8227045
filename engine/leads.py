"""Who leads a round, and with what (RULES.md §2.3, §2.6).

The first round of a match follows the lead chain; later rounds are led by the player who went
out or made the fish, with any tile, unless a house rule says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .rules import RuleSet
from .seats import partner_of
from .tiles import DOUBLES, NON_DOUBLES_DESCENDING, Tile

Hand = list[Tile]

_CHAIN_1_1: Final = (*DOUBLES[1:], DOUBLES[0])  # 1-1, 2-2, ..., 6-6, then 0-0 (§ONL)
_SPECIAL_BONES: Final = (DOUBLES[0], DOUBLES[6])  # 0-0 and 6-6 (§2.7.5)


def _first_holder(hands: Sequence[Hand], order: Sequence[Tile]) -> tuple[int, Tile] | None:
    for tile in order:
        for seat, hand in enumerate(hands):
            if tile in hand:
                return seat, tile
    return None


def first_lead(hands: Sequence[Hand], rules: RuleSet) -> tuple[int, Tile]:
    """The seat that must lead the match's first round, and the tile it must lead.

    Only dealt hands are looked at, never the bazaar.
    - ``chain_1_1`` (DEFAULT, 000_7076521a207d37f7.txt §ONL): 1-1, 2-2 … 6-6, then 0-0, then the
      highest non-double (5-6, 4-6, 3-6, 4-5, …).
    - ``one_one_four_else_lowest_double`` (§KZ, §LOG, §LG, 003, 004): 1-1 when four play, otherwise
      the smallest double. We count 0-0 as the smallest double (the seeds say "smallest double";
      excluding it would make this option identical to the DEFAULT). No double: DEFAULT step 4.
    - ``lowest_incl_00`` (§HT): 0-0, 1-1 … 6-6, then the lowest non-double (0-1, 0-2, …).

    With ``special_bones`` every order passes over 6-6 and 0-0 and goes on with its next tile:
    leading them is never compulsory (§TEAM 2.3 "Данными дублями открытие игры необязательно"),
    and a forced lead would hand the losers its +50/+25 lead bonus (RULES.md §2.7.5).
    """
    if rules.first_lead == "chain_1_1":
        order: tuple[Tile, ...] = (*_CHAIN_1_1, *NON_DOUBLES_DESCENDING)
    elif rules.first_lead == "lowest_incl_00":
        order = (*DOUBLES, *reversed(NON_DOUBLES_DESCENDING))
    else:
        doubles = (DOUBLES[1], *DOUBLES) if len(hands) == 4 else DOUBLES
        order = (*doubles, *NON_DOUBLES_DESCENDING)
    if rules.special_bones:
        order = tuple(t for t in order if t not in _SPECIAL_BONES)
    found = _first_holder(hands, order)
    if found is None:  # cannot happen: at least one tile is dealt
        raise ValueError("no tiles were dealt")
    return found


def later_leader(
    players: int, pairs: bool, winner: int | None, fisherman: int | None, rules: RuleSet
) -> int:
    """The next round's leader: the player who went out, or after a fish the fisherman (§2.6).

    With ``next_lead = winner_partner`` (§TEAM) the partner of the player who went out leads; after
    a fish the player who made it still leads. In an individual game a player is his own partner.
    """
    if winner is None:
        if fisherman is None:
            raise ValueError("a round ends either by going out or by a fish")
        return fisherman
    if rules.next_lead == "winner_partner" and pairs:
        return partner_of(winner)
    return winner


def compulsory_leads(hand: Hand, rules: RuleSet) -> list[Tile] | None:
    """Tiles the leader of a later round must choose from, or None for any tile.

    With ``lead_tile = double_if_held`` he must lead a double if he holds one; leading 0-0 or 6-6 is
    never compulsory (§TEAM 2.3 "Данными дублями открытие игры необязательно"), so holding only
    those leaves him free.
    """
    if rules.lead_tile == "any":
        return None
    doubles = [t for t in hand if t.is_double]
    if not any(0 < t.a < 6 for t in doubles):
        return None
    return doubles
