"""The spinner's cross (``engine/cross.py``): the layout geometry of RULES.md §1.7 and the
open-end sum S of §1.8, with every S of the worked examples §4.5-§4.8 placed tile by tile."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RuleSet, Tile
from engine.cross import Cross
from engine.layout import End
from engine.tiles import ALL_TILES

from .support import checked, t


def cross(**options: str) -> Cross:
    return Cross.for_rules(RuleSet(spinner="first_double").with_options(**options))


def laid(layout: Cross, *moves: tuple[str, End]) -> Cross:
    for tile, end in moves:
        assert end in layout.ends_showing(t(tile)) or layout.is_empty, (tile, end)
        layout.place(t(tile), end)
    return layout


# --- §4.6 Muggins: every S of the table, in both arithmetics -----------------------------------

MUGGINS_STEPS: list[tuple[str, str, End, int, int]] = [
    # step, tile, end, S in version A, S in version B
    ("a", "5-5", "left", 10, 10),  # lead: the spinner, c = 0
    ("b", "5-0", "right", 10, 10),  # a long side, c = 1
    ("c1", "3-5", "left", 3, 13),  # the other long side, c = 2
    ("c2", "0-2", "right", 5, 15),
    ("d1", "5-4", "up", 9, 14),  # the top arm, c = 3
    ("d2", "2-2", "right", 11, 16),
    ("d3", "2-5", "right", 12, 17),
    ("d4", "3-3", "left", 15, 20),
]


@pytest.mark.parametrize("count", ["A", "B"])
def test_muggins_examples_a_to_d(count: str) -> None:
    layout = cross(spinner_count=count)
    for step, tile, end, sum_a, sum_b in MUGGINS_STEPS:
        expected = sum_a if count == "A" else sum_b
        before = layout.end_sum_after(t(tile), end) if not layout.is_empty else None
        laid(layout, (tile, end))
        assert layout.end_sum() == expected, step
        assert before in (None, expected), step
    # "After step d there are 4 open ends: the bottom arm of the cross, the 3-3 double, 4 and 5."
    assert layout.open_ends() == {"left": 3, "right": 5, "up": 4, "down": 5}
    assert layout.covered_sides() == 3


# --- §4.5 Telephone ------------------------------------------------------------------------------


@pytest.mark.parametrize("arms", ["immediately", "after_both_long_sides"])
def test_tel_1_setup_and_moves(arms: str) -> None:
    """The house 4-4 led, 4-6 and 4-3 on its long sides (S 8, 14, 9), then 6-6, 4-5 on an arm and
    5-5 on that 5 (S 15, 20, 25)."""
    layout = cross(spinner_arms_open=arms)
    setup: list[tuple[str, End]] = [("4-4", "left"), ("4-6", "right"), ("4-3", "left")]
    sums = []
    for move in setup:
        sums.append(laid(layout, move).end_sum())
    assert sums == [8, 14, 9]
    assert layout.open_ends() == {"left": 3, "right": 6, "up": 4, "down": 4}
    moves: list[tuple[str, End]] = [("6-6", "right"), ("4-5", "up"), ("5-5", "up")]
    sums = []
    for move in moves:
        sums.append(laid(layout, move).end_sum())
    assert sums == [15, 20, 25]


def test_arms_open_after_both_long_sides() -> None:
    """The Ukrainian house (§3.5): its arms take tiles only once both long sides are covered."""
    layout = laid(cross(spinner_arms_open="after_both_long_sides"), ("4-4", "left"))
    assert layout.open_ends() == {"left": 4, "right": 4}
    assert layout.fits(t("4-1")) == ("left",)
    laid(layout, ("4-1", "left"))
    assert layout.open_ends() == {"left": 1, "right": 4}
    assert not layout.arms_are_open() and layout.end_sum() == 1 + 8
    laid(layout, ("4-2", "right"))
    assert layout.open_ends() == {"left": 1, "right": 2, "up": 4, "down": 4}
    assert layout.fits(t("4-6")) == ("up",)


def test_arms_open_immediately() -> None:
    layout = laid(cross(), ("4-4", "left"))
    assert layout.open_ends() == {"left": 4, "right": 4, "up": 4, "down": 4}
    assert layout.fits(t("4-1")) == ("left",)  # all four are uncovered sides of the spinner
    laid(layout, ("4-1", "up"))
    assert layout.covered_sides() == 1 and layout.end_sum() == 8 + 1


# --- §4.7 Bulgarian fives, §4.8 English fives ----------------------------------------------


def test_bg_1_ends_2_2_and_1() -> None:
    layout = laid(cross(), ("6-6", "left"), ("6-2", "left"), ("6-1", "right"), ("6-5", "up"))
    laid(layout, ("5-2", "up"))
    assert sorted(layout.open_ends().values()) == [1, 2, 2, 6]  # the empty arm counts 0 (A)
    assert layout.end_sum() == 5


def test_bg_2_six_and_the_double_2_2() -> None:
    layout = laid(cross(), ("1-1", "left"), ("1-6", "left"), ("1-2", "right"), ("2-2", "right"))
    assert layout.end_sum() == 10
    line = laid(cross(spinner="none"), ("6-4", "left"), ("4-2", "left"), ("2-2", "left"))
    assert line.end_sum() == 10 and line.end_names() == ("left", "right")


def test_e_1_a_double_crosswise_or_lengthwise() -> None:
    """Ends 4 and a non-first 3-3: crosswise S = 10, lengthwise S = 7."""
    layout = laid(cross(), ("1-1", "left"), ("1-4", "left"), ("1-3", "right"))
    assert layout.may_lie_lengthwise(t("3-3"))
    assert layout.end_sum_after(t("3-3"), "right") == 10
    assert layout.end_sum_after(t("3-3"), "right", lengthwise=True) == 7
    layout.place(t("3-3"), "right", lengthwise=True)
    assert layout.end_sum() == 7 and layout.lengthwise == [t("3-3")]
    assert Cross.for_rules(RuleSet()).restored(layout.to_json()).end_sum() == 7


def test_the_spinner_is_always_crosswise() -> None:
    layout = laid(cross(), ("3-4", "left"))
    assert not layout.may_lie_lengthwise(t("3-3"))
    with pytest.raises(ValueError, match="lengthwise"):
        layout.place(t("3-3"), "left", lengthwise=True)


# --- the spinner played later --------------------------------------------------------------


def test_a_spinner_played_onto_an_end_has_that_side_covered() -> None:
    layout = laid(cross(), ("3-5", "left"), ("5-2", "right"))
    assert layout.spinner is None and layout.end_sum() == 3 + 2
    laid(layout, ("3-3", "left"))
    assert layout.spinner == 0 and layout.covered_sides() == 1
    assert layout.open_ends() == {"left": 3, "right": 2, "up": 3, "down": 3}
    assert layout.end_sum() == 6 + 2  # c = 1: the spinner counts 2v
    laid(layout, ("3-1", "up"))
    assert layout.end_sum() == 2 + 1  # c = 2, version A
    laid(layout, ("2-2", "right"))
    assert layout.spinner == 0 and layout.end_sum() == 4 + 1  # a later double is ordinary
    assert layout.fits(t("2-4")) == ("right",)


def test_a_spinner_played_on_the_right_and_the_chain_growing_left() -> None:
    layout = laid(cross(), ("1-2", "left"), ("2-2", "right"), ("1-4", "left"))
    assert layout.spinner == 2 and layout.chain[layout.spinner] == (2, 2)
    laid(layout, ("2-6", "right"))
    assert layout.covered_sides() == 2 and layout.end_sum() == 4 + 6


def test_without_a_spinner_a_lead_double_is_counted_once() -> None:
    layout = laid(cross(spinner="none"), ("5-5", "left"))
    assert layout.end_sum() == 10 and layout.spinner is None
    assert layout.open_ends() == {"left": 5, "right": 5} and layout.fits(t("5-1")) == ("left",)
    laid(layout, ("5-1", "right"), ("1-1", "right"))
    assert layout.end_sum() == 10 + 2 and layout.spinner is None


# --- choices: fits() -------------------------------------------------------------------------


def test_fits_keeps_ends_that_count_differently() -> None:
    """A 2 shown by a plain tile and a 2 shown by a crosswise double are different choices; two
    plain 2s are one."""
    layout = laid(cross(spinner="none"), ("2-5", "left"), ("5-2", "right"))
    assert layout.fits(t("2-6")) == ("left",)
    laid(layout, ("2-2", "right"))
    assert layout.open_ends() == {"left": 2, "right": 2}
    assert layout.fits(t("2-6")) == ("left", "right")
    assert layout.ends_showing(t("2-6")) == ("left", "right")


def test_fits_keeps_a_spinner_side_apart_from_a_plain_end() -> None:
    layout = laid(cross(), ("4-4", "left"), ("4-1", "left"), ("1-4", "left"))
    assert layout.open_ends() == {"left": 4, "right": 4, "up": 4, "down": 4}
    assert layout.fits(t("4-6")) == ("left", "right")  # right, up, down: uncovered sides
    assert layout.fits(t("6-6")) == ()


def test_a_lengthwise_double_counts_as_a_plain_end() -> None:
    layout = laid(cross(), ("1-1", "left"), ("1-3", "left"), ("1-2", "right"), ("2-3", "right"))
    layout.place(t("3-3"), "right", lengthwise=True)
    assert layout.open_ends() == {"left": 3, "right": 3, "up": 1, "down": 1}
    assert layout.fits(t("3-6")) == ("left",)


# --- several doubles in one move (multi_double) ---------------------------------------------------


def test_double_sets_put_each_double_on_an_end_that_matches_it() -> None:
    layout = laid(cross(), ("4-4", "left"), ("4-6", "right"), ("4-3", "left"))
    sets = layout.double_sets([t("6-6"), t("1-2"), t("3-3"), t("5-5")], most=4)
    assert sets == [((t("6-6"), "right"), (t("3-3"), "left"))]
    assert layout.end_sum_after_all(sets[0]) == 12 + 6
    after = layout.copy()
    after.place_all(sets[0])
    assert after.end_sum() == 18 and layout.end_sum() == 9


def test_double_sets_let_any_double_become_the_spinner() -> None:
    layout = laid(cross(), ("3-5", "left"))
    sets = layout.double_sets([t("3-3"), t("5-5")], most=2)
    assert sets == [
        ((t("3-3"), "left"), (t("5-5"), "right")),
        ((t("5-5"), "right"), (t("3-3"), "left")),
    ]
    first, second = (layout.copy(), layout.copy())
    first.place_all(sets[0])
    second.place_all(sets[1])
    assert first.chain[first.spinner or 0] == (3, 3) and second.chain[second.spinner or 0] == (5, 5)
    assert first.end_sum() == 6 + 10 and second.end_sum() == 6 + 10
    assert layout.double_sets([t("3-3"), t("5-5")], most=0) == []


def test_double_sets_respect_the_limit() -> None:
    layout = laid(cross(), ("0-0", "left"), ("0-1", "left"), ("0-2", "right"), ("0-3", "up"))
    laid(layout, ("0-4", "down"))
    doubles = [t("1-1"), t("2-2"), t("3-3"), t("4-4")]
    sizes = sorted(len(s) for s in layout.double_sets(doubles, most=3))
    assert sizes == [2] * 6 + [3] * 4
    assert len(layout.double_sets(doubles, most=4)) == 11


# --- properties ----------------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {
        "spinner": st.sampled_from(["none", "first_double"]),
        "spinner_arms_open": st.sampled_from(["immediately", "after_both_long_sides"]),
        "spinner_count": st.sampled_from(["A", "B"]),
    }
)


def random_layout(options: dict[str, str], seed: int) -> tuple[Cross, list[list[Tile]], list[Tile]]:
    """Tiles dealt to 4 hands, then placed by random legal choices (some doubles lengthwise)
    until nobody can place, each move making the S ``end_sum_after`` foretold; returns the
    layout, the hands left and the tiles in the order played."""
    rng = random.Random(seed)
    layout = Cross.for_rules(RuleSet().with_options(**options))
    deck = list(ALL_TILES)
    rng.shuffle(deck)
    hands = [deck[i * 7 : i * 7 + 7] for i in range(4)]
    played = [hands[0].pop()]
    layout.place(played[0], "left")
    while True:
        choices = [(h, tile, end) for h in hands for tile in h for end in layout.fits(tile)]
        assert bool(choices) == layout.takes_any(hands)
        assert len(layout.open_ends()) <= 4
        if not choices:
            break
        hand, tile, end = rng.choice(choices)
        hand.remove(tile)
        lengthwise = layout.may_lie_lengthwise(tile) and rng.random() < 0.3
        expected = layout.end_sum_after(tile, end, lengthwise)
        layout.place(tile, end, lengthwise)
        assert layout.end_sum() == expected, (tile, end, lengthwise)
        played.append(tile)
    return layout, hands, played


@checked(200)
@given(OPTIONS, st.integers(0, 2**32))
def test_random_layouts_keep_their_tiles_and_ends(options: dict[str, str], seed: int) -> None:
    layout, hands, played = random_layout(options, seed)
    on_table = layout.tiles()
    assert sorted(on_table) == sorted(played)
    assert sorted(on_table + [x for h in hands for x in h]) == sorted(ALL_TILES)
    doubles = [x for x in played if x.is_double]
    if options["spinner"] == "none" or not doubles:
        assert layout.spinner is None and not layout.up and not layout.down
    elif options["spinner_arms_open"] == "after_both_long_sides":
        # the house (§3.5): none until a double of the line is covered on both long sides
        inner = [Tile.of(a, b) for a, b in layout.chain[1:-1] if a == b]
        assert (layout.spinner is None) == (not inner)
        assert layout.spinner is None or Tile.of(*layout.chain[layout.spinner]) in inner
    else:
        assert layout.spinner is not None
        assert Tile.of(*layout.chain[layout.spinner]) == doubles[0]


@checked(200)
@given(OPTIONS, st.integers(0, 2**32), st.integers(1, 27))
def test_json_rebuilds_the_same_layout(options: dict[str, str], seed: int, cut: int) -> None:
    layout, _, _ = random_layout(options, seed)
    data = json.loads(json.dumps(layout.to_json()))
    empty = Cross.for_rules(RuleSet().with_options(**options))
    rebuilt = empty.restored(data)
    assert rebuilt == layout
    assert rebuilt.end_sum() == layout.end_sum() and rebuilt.open_ends() == layout.open_ends()
    assert rebuilt.fits(ALL_TILES[cut]) == layout.fits(ALL_TILES[cut])


@checked(300)
@given(OPTIONS, st.integers(0, 2**32), st.sampled_from(ALL_TILES))
def test_fits_are_distinct_and_agree_with_takes_any(
    options: dict[str, str], seed: int, tile: Tile
) -> None:
    """The choices are the ends the tile fits, one per kind of end (value, counted twice or not,
    side of the spinner or not), the first of each kind; each other end gives the S of its
    kind's choice."""
    layout, _, _ = random_layout(options, seed)
    fits = layout.fits(tile)
    assert bool(fits) == layout.takes_any([[tile]])
    kinds = {name: (value, twice, side) for name, value, twice, side in layout.ends_in_full()}
    showing = layout.ends_showing(tile)
    assert [e for e in showing if e in fits] == list(fits)
    assert len({kinds[e] for e in fits}) == len(fits) == len({kinds[e] for e in showing})
    for end in showing:
        choice = next(e for e in fits if kinds[e] == kinds[end])
        assert showing.index(choice) <= showing.index(end)
        assert layout.end_sum_after(tile, end) == layout.end_sum_after(tile, choice)
