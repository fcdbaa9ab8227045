"""Deterministic dealing and the redeal rule (RULES.md §1.4, §2.1, §2.2)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Match, RuleSet, Tile
from engine.deal import deal, redeal_reason, shuffled

from .support import EVERY_TILE, dicts, of_type, run_match, triggers_redeal


def first_deal(players: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    _, events = Match.new(players, rules=RuleSet(**options), seed=seed)
    return dicts(events)


def test_same_seed_same_deal() -> None:
    for players in (2, 3, 4):
        for seed in range(10):
            assert first_deal(players, seed) == first_deal(players, seed)


def test_different_seeds_deal_differently() -> None:
    deals = {str(of_type(first_deal(2, seed), "round_started")[0]["hands"]) for seed in range(30)}
    assert len(deals) == 30


def test_same_seed_same_deals_in_every_round() -> None:
    a = run_match(3, False, RuleSet(), 99, ["greedy", "random", "greedy"], check_state=False)
    b = run_match(3, False, RuleSet(), 99, ["greedy", "random", "greedy"], check_state=False)
    assert a.log == b.log
    rounds = of_type(a.events, "round_started")
    assert len(rounds) > 1
    assert len({str(r["hands"]) for r in rounds}) == len(rounds)  # every round is a new deal


def test_shuffle_is_a_deterministic_permutation() -> None:
    tiles = shuffled(5, 1, 0)
    assert sorted(tiles) == sorted(EVERY_TILE)
    assert shuffled(5, 1, 0) == tiles
    assert shuffled(5, 1, 1) != tiles and shuffled(5, 2, 0) != tiles and shuffled(6, 1, 0) != tiles
    hands, bazaar = deal(tiles, 3, 7)
    assert [len(h) for h in hands] == [7, 7, 7] and len(bazaar) == 7
    assert sorted([x for h in hands for x in h] + bazaar) == sorted(EVERY_TILE)


def test_deals_are_those_of_random_shuffle() -> None:
    """Deals stay what ``random.Random(...).shuffle`` gives, so a seed deals the same across
    engine versions (the dealing code was rewritten for speed on that promise)."""
    for seed in range(200):
        expected = sorted(EVERY_TILE)
        random.Random(f"kozel/{seed}/{seed % 3 + 1}/{seed % 2}").shuffle(expected)
        assert shuffled(seed, seed % 3 + 1, seed % 2) == expected


def test_redeals_happen_and_are_reported() -> None:
    reasons: set[str] = set()
    for seed in range(5000):  # about 0.4% of hands have 5 doubles, 0.09% six of a suit
        for d in of_type(first_deal(4, seed), "redealt"):
            reasons.add(d["reason"])
        if reasons == {"doubles", "suit"}:
            break
    assert reasons == {"doubles", "suit"}


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(
    st.sampled_from((2, 3, 4)),
    st.integers(0, 2**32 - 1),
    st.sampled_from(("doubles_or_suit", "doubles_only")),
    st.sampled_from(("default", "ht")),
)
def test_a_deal_never_leaves_a_hand_that_triggers_a_redeal(
    players: int, seed: int, redeal_rule: str, sizes: str
) -> None:
    rules = RuleSet(redeal_rule=redeal_rule, kozel_hand_sizes=sizes)  # type: ignore[arg-type]
    events = first_deal(players, seed, redeal_rule=redeal_rule, kozel_hand_sizes=sizes)
    assert events == first_deal(players, seed, redeal_rule=redeal_rule, kozel_hand_sizes=sizes)
    for d in of_type(events, "redealt"):
        hands = [[Tile.parse(x) for x in h] for h in d["hands"]]
        assert redeal_reason(hands[d["seat"]], rules) == d["reason"]
        assert triggers_redeal(hands[d["seat"]], rules) == d["reason"]
        if redeal_rule == "doubles_only":
            assert d["reason"] == "doubles"
    (started,) = of_type(events, "round_started")
    hands = [[Tile.parse(x) for x in h] for h in started["hands"]]
    bazaar = [Tile.parse(x) for x in started["bazaar"]]
    for hand in hands:
        assert redeal_reason(hand, rules) is None
        assert triggers_redeal(hand, rules) is None
    assert sorted([x for h in hands for x in h] + bazaar) == sorted(EVERY_TILE)
