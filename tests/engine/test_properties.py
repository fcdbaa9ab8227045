"""Property tests over many seeded matches and every combination of rule options.

Every match is played by the engine's computer players and followed, event by event, by the
independent ``Oracle`` of ``support.py``: turn order, legality of each accepted action, the fish
(brute force after every placement and knock), the round end, the next leader and every
``round_ended`` number are re-derived there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import Match, RuleSet, Tile, event_from_dict, replay
from engine.ai import PLAYERS
from engine.rules import option_choices

from .support import EVERY_TILE, KOZEL_OPTIONS, Table, check_rebuilt, checked, run_match

# Hypothesis leans towards the first value; 101 is the DEFAULT, 1 and 13 end matches quickly.
GOAT_LIMITS = (101, 40, 301, 501, 13, 1)


def option_values(name: str) -> tuple[Any, ...]:
    if name == "game":
        return ("kozel",)
    choices = option_choices(name)
    return GOAT_LIMITS if choices is None else choices


rulesets = st.fixed_dictionaries(
    {name: st.sampled_from(option_values(name)) for name in KOZEL_OPTIONS}
).map(lambda options: RuleSet(**options))


#: Players whose whole matches take milliseconds; ``strong`` searches (see test_strong.py).
QUICK_PLAYERS = tuple(name for name in sorted(PLAYERS) if name != "strong")


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = draw(st.sampled_from((4, 3, 2)))
    pairs = players == 4 and draw(st.booleans())
    ai = draw(st.lists(st.sampled_from(QUICK_PLAYERS), min_size=players, max_size=players))
    return Table(players, pairs, draw(rulesets), draw(st.integers(0, 2**32 - 1)), tuple(ai))


def play(table: Table, **kwargs: Any) -> Any:
    return run_match(table.players, table.pairs, table.rules, table.seed, table.ai, **kwargs)


def test_option_strategy_covers_every_option() -> None:
    assert set(KOZEL_OPTIONS) == set(RuleSet().to_dict()) & set(KOZEL_OPTIONS)
    for name in KOZEL_OPTIONS:
        assert len(option_values(name)) >= (1 if name == "game" else 2), name


@checked(100)
@given(tables())
def test_every_tile_is_accounted_for_after_every_event(table: Table) -> None:
    run = play(table)  # compares the engine's state with the oracle after every action
    # And after every single event, replayed one at a time.
    match = Match(table.players, table.pairs, table.rules, table.seed)
    for data in run.log:
        match.apply(event_from_dict(data))
        state = match.to_json()["round"]
        if state is None:
            continue
        on_table = [Tile.of(a, b) for a, b in state["chain"]]
        held = [Tile.parse(x) for hand in state["hands"] for x in hand]
        every = held + [Tile.parse(x) for x in state["bazaar"]] + on_table
        assert len(every) == 28 and set(every) == EVERY_TILE, data


@checked(80)
@given(tables())
def test_only_legal_actions_are_accepted(table: Table) -> None:
    # Before every move: legal_actions equals the oracle's, other seats have none, and sampled
    # actions outside the legal set raise the expected IllegalAction and change nothing.
    play(table, probe_illegal=4)


@checked(100)
@given(tables())
def test_every_round_and_every_match_ends(table: Table) -> None:
    run = play(table, check_state=False, max_actions=100_000)
    oracle = run.oracle
    # Each round: at most 28 placements and 14 draws, and at most players-1 knocks in a row.
    assert oracle.max_round_actions <= (28 + 14) * table.players
    assert oracle.rounds <= 2_000
    assert run.match.is_over and run.match.current_seat is None


@checked(150)
@given(tables())
def test_fish_is_declared_exactly_when_the_rules_say(table: Table) -> None:
    # The oracle re-derives the block after every placement and knock (closure test of §1.9 when
    # fish_closure_rule is on, else/and the generic test) and requires round_ended to follow
    # exactly then, with the right fisherman; after a draw that leaves the table blocked the only
    # legal action is the knock that ends the round.
    run = play(table, check_state=False)
    fish = [d for d in run.log if d["type"] == "round_ended" and d["result"] == "fish"]
    assert len(fish) == run.oracle.fish_rounds


@checked(60)
@given(tables(), st.floats(0, 1))
def test_replay_and_json_reproduce_the_match(table: Table, cut: float) -> None:
    run = play(table, check_state=False)
    assert replay(run.events).to_json() == run.match.to_json()
    for event, data in zip(run.events, run.log, strict=True):
        assert event_from_dict(data) == event
        assert event_from_dict(data).to_dict() == data
    check_rebuilt(table, run, cut)


@checked(150)
@given(tables())
def test_scores_follow_the_rules(table: Table) -> None:
    # Every round_ended's hand values, amounts, scores, memory, opened, pot and pot receiver are
    # re-derived by the oracle from the hands in the event and the previous standings (§2.7-§2.9).
    run = play(table, check_state=False)
    match, rules = run.match, table.rules
    ends = [d for d in run.log if d["type"] == "round_ended"]
    for d in ends[:-1]:
        assert max(d["scores"]) < rules.goat_limit
    last = ends[-1]
    goats = [s for s, score in enumerate(last["scores"]) if score >= rules.goat_limit]
    assert goats and match.losers == goats
    assert run.log[-1] == {
        "type": "match_ended",
        "losers": goats,
        "scores": last["scores"],
        "ended_by": "goat",
    }
    assert match.to_json()["scores"] == last["scores"]


def test_properties_exercise_every_kind_of_round_end() -> None:
    """The random matches above do reach the interesting cases (a guard against vacuous tests)."""
    seen: Counter[str] = Counter()
    rng = random.Random(2024)
    for seed in range(60):
        players = 2 + seed % 3
        options = {
            name: rng.choice(option_values(name)) for name in KOZEL_OPTIONS if name != "goat_limit"
        }
        rules = RuleSet(**options, goat_limit=101)
        run = run_match(players, False, rules, seed, ["random"] * players, check_state=False)
        seen["closure fish"] += run.oracle.closure_fish
        seen["redeal"] += run.oracle.redeals
        for d in run.log:
            if d["type"] == "round_ended":
                seen[d["result"]] += 1
                seen["eggs"] += d["eggs"]
                seen["pot awarded"] += d["pot_awarded_to"] is not None
                seen["opened"] += any(d["opened"])
            seen[d["type"]] += 1
        losers = run.log[-1]["losers"]
        seen["several goats"] += len(losers) > 1
    for kind in (
        "out",
        "fish",
        "closure fish",
        "eggs",
        "pot awarded",
        "drew",
        "knocked",
        "redealt",
        "several goats",
    ):
        assert seen[kind] > 0, (kind, seen)
