"""Deterministic dealing and the redeal rule (RULES.md §1.4, §2.1, §2.2)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Match, RuleSet, Tile, replay
from engine.deal import deal, redeal_reason, shuffled
from engine.events import RoundStarted
from engine.games import game_of
from engine.rules import PRESETS

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


def test_every_deal_is_equally_likely() -> None:
    """Where each tile lands over 28,000 shuffles: a chi-square over the 28x28 table of (position,
    tile) counts. A biased Fisher-Yates (a partner drawn from too few positions, a digit read modulo
    the wrong number) lands far above the bound; a fair one is below it except once in ~10**4."""
    shuffles = 28_000
    counts = [[0] * 28 for _ in range(28)]
    index = {tile: k for k, tile in enumerate(sorted(EVERY_TILE))}
    for n in range(shuffles):
        for position, tile in enumerate(shuffled(n % 1000, n // 1000 + 1, 0)):
            counts[position][index[tile]] += 1
    expected = shuffles / 28
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert chi2 < 860  # 27 x 27 = 729 degrees of freedom: mean 729, sd 38


def test_a_match_deals_the_way_its_log_says() -> None:
    """A log from before ``shuffle`` was recorded dealt with ``random.Random(...).shuffle``; it
    replays into those same deals, so a match in play survives the upgrade."""
    for seed in range(200):
        expected = sorted(EVERY_TILE)
        random.Random(f"kozel/{seed}/{seed % 3 + 1}/{seed % 2}").shuffle(expected)
        assert shuffled(seed, seed % 3 + 1, seed % 2, "random") == expected
    old = run_match(4, True, RuleSet(), 5, ["random"] * 4, check_state=False, shuffle="random")
    assert old.log[0].pop("shuffle") == "random"  # as such a log was written
    rebuilt = replay(old.log)
    assert rebuilt.to_json() == old.match.to_json()
    first_deal = of_type(old.log, "round_started")[0]["hands"]
    tiles = sorted(EVERY_TILE)
    random.Random("kozel/5/1/0").shuffle(tiles)
    assert first_deal == [sorted(str(t) for t in tiles[7 * s : 7 * s + 7]) for s in range(4)]
    new = run_match(4, True, RuleSet(), 5, ["random"] * 4, check_state=False)
    assert new.log[0]["shuffle"] == "blake2b"
    assert of_type(new.log, "round_started")[0]["hands"] != first_deal


def test_an_unknown_shuffle_is_refused() -> None:
    with pytest.raises(ValueError, match="shuffle"):
        Match.new(2, shuffle="mersenne")  # type: ignore[arg-type]


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


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_game_says_how_many_tiles_its_deal_leaves_in_the_bazaar(name: str) -> None:
    """``Game.bazaar_size``, which /rules and the Rules editor ask whether a table draws at all,
    is the bazaar the match deals, at every table the game is played by: none for four at seven
    each (Kozel, Sport domino, General's Goat), all 28 tiles in hands."""
    rules = PRESETS[name]()
    game = game_of(rules)
    for players, pairs in ((2, False), (3, False), (4, False), (4, True)):
        try:
            game.check_table(players, pairs)
        except ValueError:
            continue
        _, events = Match.new(players, pairs, rules, seed=players)
        started = next(e for e in events if isinstance(e, RoundStarted))
        assert game.bazaar_size(rules, players) == len(started.bazaar), (players, pairs)
