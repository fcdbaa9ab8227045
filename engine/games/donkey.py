"""Donkey (Осёл, RULES.md §3.3): Kozel on the spinner's cross, where doubles may be closed.

Everything but the layout is Kozel's (``kozel.py``: the deal and redeal, the 1-1 chain and later
leads, drawing, and the scoring to 101 with the threshold 13 and memory), so this game only
changes the table:

- the first double left open is the spinner, its arms open at once (with the 1-1 lead, the lead);
- up to ``multi_double`` doubles go down in one move, one per open end, each matching it;
- a double may be closed (laid face down) as it is placed, each of several on its own; its end is
  dead. The lead cannot be closed (FLAG: it would leave an empty layout), and only a double can;
- with ``donkey_reopen`` the closer may turn it face up again, a free action at the start of any
  later turn of his, before he draws (FLAG: "at any time convenient to him");
- when no open end is left, the round ends at once, bazaar or not (§1.9 item 3): an "out" if the
  closer has no tiles left, otherwise a fish under Kozel's ``fish_mode`` with the closer as
  fisherman (FLAG: "обычный подсчет"). A fish is found on the open ends only: a double its closer
  could reopen does not keep the round going (FLAG).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from ..actions import Lay, Placement
from ..cross import Cross
from ..layout import Layout, Placements
from ..round import Round
from ..rules import KOZEL_OPTION_NAMES, RuleSet
from .kozel import Kozel

#: The options Donkey records besides Kozel's: its layout's.
DONKEY_OPTION_NAMES = ("spinner", "spinner_arms_open", "multi_double", "donkey_reopen")


class Donkey(Kozel):
    """Lose-at-limit like Kozel (§1.11); the goat is the donkey."""

    name = "donkey"
    #: Kozel's lone 0-0 and 6-6 too: their values are Donkey's (10, 12), and a result's
    #: "[0|0] → 10 in hand" was said by none of its rules.
    settable = (
        "goat_limit",
        "multi_double",
        "donkey_reopen",
        "fish_mode",
        "lone_00",
        "lone_66",
        "eggs",
        "draw_mode",
        "memory",
    )
    closes_doubles = True
    offers_lays = True
    loser_title = "donkey"

    def options(self, rules: RuleSet) -> dict[str, Any]:
        return {name: getattr(rules, name) for name in KOZEL_OPTION_NAMES + DONKEY_OPTION_NAMES}

    def layout(self, rules: RuleSet) -> Layout:
        return Cross.for_rules(rules)

    def move_all(
        self, layout: Layout, placements: Placements, rules: RuleSet, closed: Sequence[bool] = ()
    ) -> tuple[list[int] | dict[str, int], int | None]:
        """The open ends by name after the move (a closed end is not one), and no points."""
        after = layout.copy()
        after.place_all(placements, closed)
        return {name: value for name, value in after.open_ends().items()}, None

    def lays(self, rnd: Round, seat: int, rules: RuleSet) -> list[Lay]:
        """Every move that closes at least one double: a double alone, or each way of closing
        some of the doubles of a multi-double move, one per different layout."""
        layout = rnd.layout
        if layout.is_empty:
            return []
        hand = rnd.hands[seat]
        moves: list[Placements] = [((t, e),) for t in hand if t.is_double for e in layout.fits(t)]
        if rules.multi_double:
            moves += layout.double_sets(hand, rules.multi_double)
        found: dict[str, Lay] = {}
        for placements in moves:
            for closed in product((False, True), repeat=len(placements)):
                if any(closed):
                    after = layout.copy()
                    after.place_all(placements, closed, seat)
                    laid = zip(placements, closed, strict=True)
                    found.setdefault(
                        repr(after.to_json()), Lay(tuple(Placement(t, e, c) for (t, e), c in laid))
                    )
        return list(found.values())
