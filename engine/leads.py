"""Who leads a round, and with what, and why he must (RULES.md §2.3, §2.6).

The first round of a match follows the lead chain; later rounds are led by the player who went
out or made the fish, with any tile, unless a house rule says otherwise. A lead order is a list
of steps, each the tiles it searches for and the rule it stands for (``LeadWhy``), so the lead
says which rule chose it: the players are told why, in the rule's words, not a game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from .deal import shuffled
from .rules import RuleSet
from .seats import partner_of
from .tiles import DOUBLES, NON_DOUBLES_DESCENDING, Tile, rank

Hand = list[Tile]

#: The rule that made a round's lead compulsory, the step of a lead order that found it:
#: - ``one_one``: the first round starts with 1-1 (§2.3 step 1);
#:   ``one_one_again``: as after a round Kozel could not record (§2.6);
#:   ``one_one_eggs``: as Sea Goat's eggs are played out (§3.2.5);
#:   ``one_one_every_round``: as General's Goat leads every round (§3.10);
#: - ``next_double``: no one holds 1-1, so 2-2 … 6-6 (§2.3 step 2);
#: - ``zero_zero_last``: no one holds 1-1 … 6-6, so 0-0 (§2.3 step 3);
#: - ``highest_tile`` / ``lowest_tile``: no one holds a double, so the highest (§2.3 step 4, §3.1,
#:   §3.8) or the lowest (§HT) non-double; ``lowest_tile_no_00``: no double but 0-0, which may
#:   not lead (§3.1 ``lowest_double_no_00``);
#: - ``highest_double``, ``lowest_double`` (0-0 the lowest), ``lowest_double_no_00`` (1-1 the
#:   lowest), ``zero_zero_first`` (§3.1 ``zero_first``): whoever holds it leads it;
#: - ``three_two``: 3-2 leads the first round; ``no_three_two``: no one holds it, so the 1-1
#:   chain decides (§3.5);
#: - ``double_if_held``: a later round's leader must lead a double he holds (§2.6);
#: - ``special_bones``: 0-0 or 6-6 would have led, but leading them is never compulsory (§2.7.5).
LeadWhy = Literal[
    "one_one",
    "one_one_again",
    "one_one_eggs",
    "one_one_every_round",
    "next_double",
    "zero_zero_last",
    "highest_tile",
    "lowest_tile",
    "lowest_tile_no_00",
    "highest_double",
    "lowest_double",
    "lowest_double_no_00",
    "zero_zero_first",
    "three_two",
    "no_three_two",
    "double_if_held",
    "special_bones",
]
#: One step of a lead order: the rule, and the tiles it searches the hands for, best first.
Step = tuple[LeadWhy, tuple[Tile, ...]]


class Lead(NamedTuple):
    """Who leads a round, the tiles he must choose from (None: any), and the rule that makes him
    (None where he may lead any tile)."""

    seat: int
    tiles: list[Tile] | None
    why: LeadWhy | None = None


_SPECIAL_BONES: Final = (DOUBLES[0], DOUBLES[6])  # 0-0 and 6-6 (§2.7.5)
_THREE_TWO: Final = Tile.of(2, 3)
_ASCENDING: Final = tuple(reversed(NON_DOUBLES_DESCENDING))
_ONE_ONE: Final[Step] = ("one_one", (DOUBLES[1],))
_HIGHEST_TILE: Final[Step] = ("highest_tile", NON_DOUBLES_DESCENDING)
_LOWEST_DOUBLE: Final[Step] = ("lowest_double", DOUBLES)
_LOWEST_TILE: Final[Step] = ("lowest_tile", _ASCENDING)
#: 1-1, 2-2, ..., 6-6, then 0-0 (§ONL), then the highest non-double.
_CHAIN_1_1: Final[tuple[Step, ...]] = (
    _ONE_ONE,
    ("next_double", DOUBLES[2:]),
    ("zero_zero_last", (DOUBLES[0],)),
    _HIGHEST_TILE,
)
#: §1.2, best first.
_HIGHEST_FIRST: Final[tuple[Step, ...]] = (
    ("highest_double", tuple(reversed(DOUBLES))),
    _HIGHEST_TILE,
)
#: Whose tile wins a lot for the first lead: Muggins' lowest (§3.6), or Traditional's heaviest
#: (§3.1 ``lot_heaviest``).
LotWinner = Literal["lowest", "heaviest"]


def _first_holder(hands: Sequence[Hand], order: Sequence[Step]) -> tuple[int, Tile, LeadWhy] | None:
    for why, tiles in order:
        for tile in tiles:
            for seat, hand in enumerate(hands):
                if tile in hand:
                    return seat, tile, why
    return None


def _lead_by(hands: Sequence[Hand], order: Sequence[Step], special_bones: bool = False) -> Lead:
    """The holder of the first tile of ``order`` dealt, and the step that found it. With
    ``special_bones`` the order passes over 0-0 and 6-6, and where that changed the lead, the
    special bones are why."""
    found = _first_holder(hands, order)
    if special_bones:
        kept = [(why, tuple(t for t in tiles if t not in _SPECIAL_BONES)) for why, tiles in order]
        unskipped = found
        found = _first_holder(hands, kept)
        if found is not None and unskipped is not None and found[1] != unskipped[1]:
            found = (found[0], found[1], "special_bones")
    if found is None:  # cannot happen: at least one tile is dealt
        raise ValueError("no tiles were dealt")
    return Lead(found[0], [found[1]], found[2])


def first_lead(hands: Sequence[Hand], rules: RuleSet) -> Lead:
    """The seat that must lead the match's first round, the tile it must lead, and why.

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
        order: tuple[Step, ...] = _CHAIN_1_1
    elif rules.first_lead == "lowest_incl_00":
        order = (_LOWEST_DOUBLE, _LOWEST_TILE)
    else:
        head = (_ONE_ONE,) if len(hands) == 4 else ()
        order = (*head, _LOWEST_DOUBLE, _HIGHEST_TILE)
    return _lead_by(hands, order, rules.special_bones)


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


def opening_lead(hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
    """Who leads a match's first round (a game may lead every round so), the tiles he must
    choose from (None: any tile), and why: ``first_lead`` above, or one of the scoring games'.

    - ``lot_lowest`` (Muggins §3.6): every player draws a tile by lot (``lot``) and the lowest
      (§1.2) leads, any tile.
    - ``three_two`` (Ukrainian Telephone §3.5): the holder of 3-2 leads it. When 3-2 is in the
      bazaar (two players), the Kozel chain ``chain_1_1`` decides instead (FLAG).
    - ``highest_tile`` (Bulgarian §3.8): the highest double, else the highest-ranked non-double.
    """
    wins = opening_lot(rules)
    if wins is not None:
        return Lead(lot_winner(lot(seed, len(hands)), wins), None)
    if rules.first_lead == "highest_tile":
        return _lead_by(hands, _HIGHEST_FIRST)
    if rules.first_lead == "three_two":
        if any(_THREE_TWO in hand for hand in hands):
            return _lead_by(hands, (("three_two", (_THREE_TWO,)),))
        chain = first_lead(hands, rules.with_options(first_lead="chain_1_1"))
        return Lead(chain.seat, chain.tiles, "no_three_two")
    return first_lead(hands, rules)


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


def restarted(lead: Lead, why: LeadWhy) -> Lead:
    """``lead``, a restarted round's (``restart_rules``), its 1-1 said to lead for ``why``: the
    restart's rule, where "the first round starts with 1-1" would be untrue."""
    return Lead(lead.seat, lead.tiles, why) if lead.why == "one_one" else lead


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


_TRADITIONAL_ORDERS: Final[dict[str, tuple[Step, ...]]] = {
    # §3.1, each the order in which the dealt hands are searched; no one draws for a double.
    "highest_double": _HIGHEST_FIRST,
    "zero_first": (
        ("zero_zero_first", (DOUBLES[0],)),
        ("highest_double", tuple(reversed(DOUBLES[1:]))),
        _HIGHEST_TILE,
    ),
    "lowest_double_no_00": (
        ("lowest_double_no_00", DOUBLES[1:]),
        ("lowest_tile_no_00", _ASCENDING),
    ),
    "lowest_incl_00": (_LOWEST_DOUBLE, _LOWEST_TILE),
}


def traditional_lot(rules: RuleSet) -> LotWinner | None:
    """Whose tile wins the lot ``traditional_lead`` draws (``lot``), None where ``trad_lead``
    draws none: the heaviest for ``lot_heaviest``."""
    return "heaviest" if rules.trad_lead == "lot_heaviest" else None


def traditional_lead(hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
    """Who leads a round of Traditional, with what and why (``trad_lead``, §3.1), from the dealt
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
        return Lead(lot_winner(lot(seed, len(hands)), wins), None)
    return _lead_by(hands, _TRADITIONAL_ORDERS[rules.trad_lead])
