"""Who leads a round, and with what (RULES.md §2.3, §2.6).

The first round of a match follows the lead chain; later rounds are led by the player who went
out or made the fish, with any tile, unless a house rule says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from .deal import shuffled
from .rules import RuleSet
from .seats import partner_of
from .tiles import DOUBLES, NON_DOUBLES_DESCENDING, Tile, rank

Hand = list[Tile]

_CHAIN_1_1: Final = (*DOUBLES[1:], DOUBLES[0])  # 1-1, 2-2, ..., 6-6, then 0-0 (§ONL)
_SPECIAL_BONES: Final = (DOUBLES[0], DOUBLES[6])  # 0-0 and 6-6 (§2.7.5)
_THREE_TWO: Final = Tile.of(2, 3)
_HIGHEST_FIRST: Final = (*reversed(DOUBLES), *NON_DOUBLES_DESCENDING)  # §1.2, best first
#: Whose tile wins a lot for the first lead: Muggins' lowest (§3.6), or Traditional's heaviest
#: (§3.1 ``lot_heaviest``).
LotWinner = Literal["lowest", "heaviest"]


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


def lot(seed: int, players: int) -> list[Tile]:
    """The tiles the players draw by lot for the match's first lead, seat by seat: the first of
    the shuffle of round 0 of the match's seed (the deals use rounds 1 and up), so the lot is
    deterministic and independent of the hands; its tiles go back before the deal."""
    return shuffled(seed, 0, 0)[:players]


def lot_winner(drawn: Sequence[Tile], wins: LotWinner) -> int:
    """The seat whose tile of the lot ``drawn`` wins it: the lowest or the heaviest (§1.2)."""
    pick = min if wins == "lowest" else max
    return pick(range(len(drawn)), key=lambda seat: rank(drawn[seat]))


def opening_lot(rules: RuleSet) -> LotWinner | None:
    """Whose tile wins the lot ``opening_lead`` draws (``lot``), None where ``first_lead``
    draws none: the lowest for ``lot_lowest`` (Muggins §3.6)."""
    return "lowest" if rules.first_lead == "lot_lowest" else None


def opening_lead(hands: Sequence[Hand], rules: RuleSet, seed: int) -> tuple[int, list[Tile] | None]:
    """Who leads a match's first round (a game may lead every round so) and the tiles he must
    choose from, None for any tile: ``first_lead`` above, or one of the scoring games' leads.

    - ``lot_lowest`` (Muggins §3.6): every player draws a tile by lot (``lot``) and the lowest
      (§1.2) leads, any tile.
    - ``three_two`` (Ukrainian Telephone §3.5): the holder of 3-2 leads it. When 3-2 is in the
      bazaar (two players), the Kozel chain ``chain_1_1`` decides instead (FLAG).
    - ``highest_tile`` (Bulgarian §3.8): the highest double, else the highest-ranked non-double.
    """
    wins = opening_lot(rules)
    if wins is not None:
        return lot_winner(lot(seed, len(hands)), wins), None
    if rules.first_lead == "highest_tile":
        found = _first_holder(hands, _HIGHEST_FIRST)
    elif rules.first_lead == "three_two":
        found = _first_holder(hands, (_THREE_TWO,)) or first_lead(
            hands, rules.with_options(first_lead="chain_1_1")
        )
    else:
        found = first_lead(hands, rules)
    if found is None:  # cannot happen: at least one tile is dealt
        raise ValueError("no tiles were dealt")
    return found[0], [found[1]]


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


#: The revision of the rules' code from which a round restarted from 1-1 follows the §2.3 chain
#: whatever ``first_lead`` says (``revisions.py``).
RESTART_FROM_1_1: Final = 2


def restart_rules(rules: RuleSet) -> RuleSet:
    """The rules a round restarted from 1-1 is led by (Kozel's ``restart_1_1_after_unrecorded``,
    §2.6 "led by the holder of 1-1, as in §2.3"; Sea Goat's eggs under ``sg_eggs = ua``, §3.2.5):
    the §2.3 chain, whatever ``first_lead`` led the match's first round with. Before revision
    ``RESTART_FROM_1_1`` such a round was led as ``first_lead`` says."""
    if rules.revision < RESTART_FROM_1_1:
        return rules
    return rules.with_options(first_lead="chain_1_1")


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


_TRADITIONAL_ORDERS: Final = {
    # §3.1, each the order in which the dealt hands are searched; no one draws for a double.
    "highest_double": _HIGHEST_FIRST,
    "zero_first": (DOUBLES[0], *reversed(DOUBLES[1:]), *NON_DOUBLES_DESCENDING),
    "lowest_double_no_00": (*DOUBLES[1:], *reversed(NON_DOUBLES_DESCENDING)),
    "lowest_incl_00": (*DOUBLES, *reversed(NON_DOUBLES_DESCENDING)),
}


def traditional_lot(rules: RuleSet) -> LotWinner | None:
    """Whose tile wins the lot ``traditional_lead`` draws (``lot``), None where ``trad_lead``
    draws none: the heaviest for ``lot_heaviest``."""
    return "heaviest" if rules.trad_lead == "lot_heaviest" else None


def traditional_lead(
    hands: Sequence[Hand], rules: RuleSet, seed: int
) -> tuple[int, list[Tile] | None]:
    """Who leads a round of Traditional and with what (``trad_lead``, §3.1), from the dealt
    hands only: the bazaar is never searched for a double.

    - ``highest_double`` (DEFAULT): 6-6, 5-5 … 0-0, else the highest tile (5-6, 4-6, …, §1.2).
    - ``zero_first``: 0-0, else as ``highest_double`` (FLAG); 0-0 wins over a dealt 6-6 (FLAG).
    - ``lowest_double_no_00``: 1-1 … 6-6, never 0-0, else the lowest non-double (0-1, 0-2, …);
      a deal whose only double is 0-0 goes to the lowest non-double (FLAG).
    - ``lowest_incl_00`` (the §HT preset): 0-0, 1-1 … 6-6, else the lowest non-double.
    - ``lot_heaviest``: every player draws a tile by lot (``lot``, as Muggins' players do) and
      the heaviest (§1.2) leads, any tile.
    """
    wins = traditional_lot(rules)
    if wins is not None:
        return lot_winner(lot(seed, len(hands)), wins), None
    found = _first_holder(hands, _TRADITIONAL_ORDERS[rules.trad_lead])
    if found is None:  # cannot happen: at least one tile is dealt
        raise ValueError("no tiles were dealt")
    return found[0], [found[1]]
