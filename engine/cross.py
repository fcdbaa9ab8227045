"""The spinner's cross: the layout of the fives and threes games (RULES.md §1.6-§1.8).

The first double of the round becomes the spinner, whether it is led or played later onto an end
(then the side it is attached by is covered). Besides the two ends of the long line, the spinner
has two arms, ``up`` and ``down``, which open at once or only once both its long sides are covered
(``spinner_arms_open``), so up to four ends are open. What the ends add up to, the open-end sum S
of §1.8, is what these games score on. With ``spinner = none`` it is a line of two ends that still
counts its doubles as §1.8 says.

Where the arms open only once both long sides are covered, the spinner is the Ukrainian
Telephone's house (§3.5; 004 §TEL "Перший дубль, перекритий з обох сторін, оголошується
«будинком»"): the first double covered on both long sides, which need not be the first placed.
Until one is, every double of the line is an ordinary one (``house_when_covered``, from revision
``HOUSE_WHEN_COVERED`` of the rules' code; before it, the first double placed was the spinner,
its arms shut until it was covered so).

Donkey (§3.3) closes doubles: a closed double lies face down at the outer end of its branch, so
that end is dead (it counts 0 and takes nothing). A closed double is never the spinner: the first
double left open becomes it. Reopening one turns it face up as an ordinary double; it does not
become the spinner even if there is none yet (FLAG: it was not "left open" when placed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Final

from .layout import End, Layout
from .rules import RuleSet, Spinner, SpinnerArmsOpen, SpinnerCount
from .tiles import Tile, far_half

__all__ = ["Cross", "OpenEnd"]

LEFT: Final[End] = "left"
RIGHT: Final[End] = "right"
UP: Final[End] = "up"
DOWN: Final[End] = "down"
_LINE_NAMES: Final[tuple[End, ...]] = (LEFT, RIGHT)
_CROSS_NAMES: Final[tuple[End, ...]] = (LEFT, RIGHT, UP, DOWN)
#: The revision of the rules' code from which, where the arms open once both long sides are
#: covered, the spinner is the first double covered so (``revisions.py``).
HOUSE_WHEN_COVERED: Final = 3

#: An open end: its name, the value it shows, whether it counts twice in S (a crosswise double
#: that is not the spinner), and whether it is an uncovered side of the spinner, which S counts
#: by the spinner's own rule.
OpenEnd = tuple[End, int, bool, bool]


@dataclass(slots=True)
class Cross(Layout):
    """Tiles on the table. ``chain`` is the long line, oriented left to right like ``Line.chain``;
    ``up`` and ``down`` are the arms as (inner, outer) pairs, outward from the spinner
    ``chain[spinner]``; ``lengthwise`` are the doubles laid lengthwise (English fives, §3.9),
    which count once at an end. The options come from the ``RuleSet`` (``for_rules``) and are not
    part of the JSON: the game knows them."""

    chain: list[tuple[int, int]] = field(default_factory=list)
    spinner: int | None = None
    up: list[tuple[int, int]] = field(default_factory=list)
    down: list[tuple[int, int]] = field(default_factory=list)
    lengthwise: list[Tile] = field(default_factory=list)
    #: The closed doubles (Donkey, §3.3), each with the seat that closed it, who may reopen it.
    closed: dict[Tile, int] = field(default_factory=dict)
    _: KW_ONLY
    spinner_rule: Spinner = "first_double"
    arms_open: SpinnerArmsOpen = "immediately"
    spinner_count: SpinnerCount = "A"
    #: The spinner is the first double covered on both long sides, not the first placed (§3.5).
    house_when_covered: bool = False
    #: The open ends, kept up to date by ``place``, since every question about a move starts
    #: from them. Only ``copy`` passes them (empty: found from the tiles), sparing a search that
    #: copies the layout at every move to find them again; the list is replaced, never changed.
    _open: list[OpenEnd] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._open:
            self._open = self._find_ends()

    @classmethod
    def for_rules(cls, rules: RuleSet) -> Cross:
        """An empty layout with the options of ``rules``."""
        return cls(
            spinner_rule=rules.spinner,
            arms_open=rules.spinner_arms_open,
            spinner_count=rules.spinner_count,
            house_when_covered=(
                rules.spinner == "first_double"
                and rules.spinner_arms_open == "after_both_long_sides"
                and rules.revision >= HOUSE_WHEN_COVERED
            ),
        )

    def awaits_spinner(self) -> bool:
        """Whether the next double put down becomes the spinner: not where the house is the
        first double covered on both long sides (``house_when_covered``)."""
        return (
            self.spinner is None
            and self.spinner_rule == "first_double"
            and not self.house_when_covered
        )

    def _covers_house(self, end: End) -> bool:
        """Whether a tile put on ``end`` covers the second long side of the double that ends the
        line there, which so becomes the house (``house_when_covered``, §3.5)."""
        chain = self.chain
        if not self.house_when_covered or self.spinner is not None or len(chain) < 2:
            return False
        outer = chain[0] if end == LEFT else chain[-1] if end == RIGHT else None
        return outer is not None and outer[0] == outer[1]

    def copy(self) -> Cross:
        return Cross(
            list(self.chain),
            self.spinner,
            list(self.up),
            list(self.down),
            list(self.lengthwise),
            dict(self.closed),
            spinner_rule=self.spinner_rule,
            arms_open=self.arms_open,
            spinner_count=self.spinner_count,
            house_when_covered=self.house_when_covered,
            _open=self._open,
        )

    # --- questions ---------------------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return not self.chain

    def end_names(self) -> tuple[End, ...]:
        return _CROSS_NAMES if self.spinner_rule == "first_double" else _LINE_NAMES

    def covered_sides(self) -> int:
        """How many of the spinner's four sides have a tile attached (c of §1.8); 0 without one."""
        spinner = self.spinner
        if spinner is None:
            return 0
        long_sides = (spinner > 0) + (spinner < len(self.chain) - 1)
        return long_sides + bool(self.up) + bool(self.down)

    def arms_are_open(self) -> bool:
        """Whether tiles may go on the spinner's arms (``spinner_arms_open``, §1.7)."""
        spinner = self.spinner
        if spinner is None:
            return False
        return self.arms_open == "immediately" or 0 < spinner < len(self.chain) - 1

    def ends_in_full(self) -> list[OpenEnd]:
        """Every open end, in the order left, right, up, down, with what S needs to know of it."""
        return self._open

    def _find_ends(self) -> list[OpenEnd]:
        chain = self.chain
        if not chain:
            return []
        spinner = self.spinner
        first, last = chain[0], chain[-1]
        ends: list[OpenEnd] = [
            (LEFT, first[0], self._crosswise(first), spinner == 0),
            (RIGHT, last[1], self._crosswise(last), spinner == len(chain) - 1),
        ]
        if spinner is not None and self.arms_are_open():
            value = chain[spinner][0]
            for name, arm in ((UP, self.up), (DOWN, self.down)):
                if arm:
                    ends.append((name, arm[-1][1], self._crosswise(arm[-1]), False))
                else:
                    ends.append((name, value, True, True))
        if self.closed:
            outer = {LEFT: [first], RIGHT: [last], UP: self.up[-1:], DOWN: self.down[-1:]}
            ends = [end for end in ends if not self._is_closed(outer[end[0]])]
        return ends

    def _is_closed(self, outer: list[tuple[int, int]]) -> bool:
        """Whether the outermost tile of a branch (none on an empty arm) is a closed double."""
        return bool(outer) and Tile.of(*outer[0]) in self.closed

    def _crosswise(self, pair: tuple[int, int]) -> bool:
        """Whether the tile ``pair`` is a double laid crosswise, which counts both halves."""
        return pair[0] == pair[1] and Tile(pair[0], pair[1]) not in self.lengthwise

    def open_ends(self) -> dict[End, int]:
        return {name: value for name, value, _, _ in self.ends_in_full()}

    def ends_showing(self, tile: Tile) -> tuple[End, ...]:
        return tuple(name for name, value, _, _ in self.ends_in_full() if value in tile)

    def fits(self, tile: Tile) -> tuple[End, ...]:
        """The ends ``tile`` can go on that make different layouts. Two ends are one choice when
        they show the same value, count alike in S (both crosswise doubles or neither) and are
        both uncovered sides of the spinner or neither: the first of them is kept."""
        kinds: list[tuple[int, bool, bool]] = []
        choices: list[End] = []
        for name, value, twice, spinner_side in self.ends_in_full():
            if value in tile and (value, twice, spinner_side) not in kinds:
                kinds.append((value, twice, spinner_side))
                choices.append(name)
        return tuple(choices)

    def takes_any(self, hands: Iterable[Iterable[Tile]]) -> bool:
        values = set(self.open_ends().values())
        for hand in hands:
            for tile in hand:
                if tile.a in values or tile.b in values:
                    return True
        return False

    def end_for(self, tile: Tile, end: End | None) -> End:
        """The end it names; else the lead goes on the left, and a tile on its first choice."""
        if end is not None or self.is_empty:
            return end or LEFT
        return self.fits(tile)[0]

    def may_lie_lengthwise(self, tile: Tile) -> bool:
        """Whether ``tile`` may be laid lengthwise (English fives, §3.9): a double that is
        neither the lead nor the spinner-to-be; the spinner is always crosswise."""
        if not tile.is_double or self.is_empty:
            return False
        return not self.awaits_spinner()

    def ends_after(self, tile: Tile, end: End) -> tuple[int, ...]:
        after = self.copy()
        after.place(tile, end)
        return tuple(after.open_ends().values())

    def end_sum(self) -> int:
        """S of §1.8. An end counts the value it shows, twice for a crosswise double other than
        the spinner. The spinner counts twice its value while at most one of its sides is
        covered; after that nothing (``spinner_count = A``) or its value for each uncovered side
        (``B``). A lone lead counts its pips."""
        chain = self.chain
        if len(chain) == 1 and self.spinner is None:
            return chain[0][0] + chain[0][1]
        total = 0
        spinner_sides = 0
        for _, value, twice, spinner_side in self.ends_in_full():
            if spinner_side:
                spinner_sides += 1
            else:
                total += _end_counts(value, twice)
        return total + self._spinner_counts(spinner_sides)

    def spinner_counts(self) -> int:
        """What the spinner adds to S (§1.8), all its open sides together: not what those sides
        show, once it is covered on two sides under ``spinner_count = A`` (nothing) or while
        it is covered on at most one (twice its value, however many sides are open)."""
        return self._spinner_counts(sum(1 for end in self._open if end[3]))

    def _spinner_counts(self, open_sides: int) -> int:
        if self.spinner is None:
            return 0
        value = self.chain[self.spinner][0]
        if self.covered_sides() <= 1:
            return 2 * value
        return value * open_sides if self.spinner_count == "B" else 0

    def end_sum_after(self, tile: Tile, end: End, lengthwise: bool = False) -> int:
        """S once ``tile`` goes on ``end``. Most moves change only the end they go on, so S
        changes by what that end counts; a move that follows the lone lead, makes the spinner (the
        house too) or covers one of its sides changes more, and is worked out on a copy. (The
        scoring games' players ask this of every move they might make.)"""
        if (
            len(self.chain) >= 2
            and not (tile.is_double and self.awaits_spinner())
            and not self._covers_house(end)
        ):
            for name, value, twice, spinner_side in self._open:
                if name == end and not spinner_side:
                    crosswise = tile.is_double and not lengthwise
                    counted = _end_counts(far_half(tile, value), crosswise)
                    return self.end_sum() - _end_counts(value, twice) + counted
        after = self.copy()
        after.place(tile, end, lengthwise)
        return after.end_sum()

    def is_dead(self) -> bool:
        return bool(self.chain) and not self._open

    def closed_by(self, seat: int) -> list[Tile]:
        return [tile for tile, closer in self.closed.items() if closer == seat]

    def closed_on(self) -> int | None:
        """None: Kozel's closure test belongs to the line (§1.9); here the generic test decides."""
        return None

    def tiles(self) -> list[Tile]:
        return [Tile.of(a, b) for a, b in self.chain + self.up + self.down]

    # --- changes -----------------------------------------------------------------------------

    def place(self, tile: Tile, end: End, lengthwise: bool = False) -> None:
        """Attach ``tile`` (already checked to fit) to ``end``, or lead it; ``lengthwise`` lays a
        double so (``may_lie_lengthwise``). The first double becomes the spinner; the house, the
        first one covered on both long sides, where that is the rule (``house_when_covered``)."""
        if lengthwise and not self.may_lie_lengthwise(tile):
            raise ValueError(f"{tile} cannot be laid lengthwise here")
        spins = tile.is_double and self.awaits_spinner()
        houses = self._covers_house(end)
        chain = self.chain
        if not chain:
            chain.append((tile.a, tile.b))
        else:
            value = self.open_ends()[end]
            far = far_half(tile, value)
            if end == LEFT:
                chain.insert(0, (far, value))
                if self.spinner is not None:
                    self.spinner += 1
            elif end == RIGHT:
                chain.append((value, far))
            else:
                (self.up if end == UP else self.down).append((value, far))
        if spins:
            self.spinner = 0 if end == LEFT or len(chain) == 1 else len(chain) - 1
        elif houses:
            self.spinner = 1 if end == LEFT else len(chain) - 2
        elif lengthwise:
            self.lengthwise.append(tile)
        self._open = self._find_ends()

    def close(self, tile: Tile, seat: int) -> None:
        """Turn face down the double ``tile`` that ``seat`` has just placed (never the lead): its
        end is dead, and if it has just become the spinner it is not one after all."""
        spinner = self.spinner
        if spinner is not None and self.chain[spinner] == (tile.a, tile.b):
            self.spinner = None
        self.closed[tile] = seat
        self._open = self._find_ends()

    def reopen(self, tile: Tile) -> None:
        del self.closed[tile]
        self._open = self._find_ends()

    # --- serialization -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "chain": [list(pair) for pair in self.chain],
            "spinner": self.spinner,
            "up": [list(pair) for pair in self.up],
            "down": [list(pair) for pair in self.down],
            "lengthwise": [str(t) for t in self.lengthwise],
        }
        if self.closed:  # only Donkey closes doubles: the other games' JSON stays as it was
            data["closed"] = {str(t): seat for t, seat in self.closed.items()}
        return data

    def restored(self, data: dict[str, Any]) -> Cross:
        return Cross(
            [(a, b) for a, b in data["chain"]],
            data["spinner"],
            [(a, b) for a, b in data["up"]],
            [(a, b) for a, b in data["down"]],
            [Tile.parse(t) for t in data["lengthwise"]],
            {Tile.parse(t): seat for t, seat in data.get("closed", {}).items()},
            spinner_rule=self.spinner_rule,
            arms_open=self.arms_open,
            spinner_count=self.spinner_count,
            house_when_covered=self.house_when_covered,
        )


def _end_counts(value: int, twice: bool) -> int:
    """What an open end adds to S (§1.8): the value it shows, twice for a crosswise double."""
    return 2 * value if twice else value
