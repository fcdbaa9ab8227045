"""``replay`` rebuilds a match only from a log the rules reproduce; anything else is refused."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import Match, ReplayMismatch, RuleSet, replay
from engine.ai import greedy_player
from engine.games import GAMES
from engine.rules import OPTION_NAMES, PRESETS, option_choices

from .support import EVERY_TILE, Table, checked, dicts, plays_at, run_match
from .test_properties import play, tables

CORRUPTIONS = ("wrong tile", "wrong end", "wrong score", "dropped event", "swapped order")


def corrupt(log: list[dict[str, Any]], kind: str, pick: float) -> tuple[list[dict[str, Any]], int]:
    """``log`` with one event spoilt as ``kind`` says, and the index of that event."""
    log = copy.deepcopy(log)
    leads = {i for i, d in enumerate(log) if d["type"] == "round_started"}
    if kind == "wrong tile":
        candidates = [i for i, d in enumerate(log) if d["type"] == "played"]
    elif kind == "wrong end":  # not a lead, not a double: the other end is another move
        candidates = [
            i
            for i, d in enumerate(log)
            if d["type"] == "played" and i - 1 not in leads and d["tile"][0] != d["tile"][2]
        ]
    elif kind == "wrong score":
        candidates = [i for i, d in enumerate(log) if d["type"] == "round_ended"]
    elif kind == "dropped event":
        candidates = list(range(1, len(log)))
    else:
        candidates = [i for i in range(1, len(log) - 1) if log[i] != log[i + 1]]
    assume(candidates)  # a very short match may have no event of that kind
    at = candidates[int(pick * len(candidates))]
    event = log[at]
    if kind == "wrong tile":
        others = sorted(str(x) for x in EVERY_TILE if str(x) != event["tile"])
        event["tile"] = random.Random(at).choice(others)
    elif kind == "wrong end":
        event["end"] = "right" if event["end"] == "left" else "left"
    elif kind == "wrong score":
        event["scores"][at % len(event["scores"])] += 1
    elif kind == "dropped event":
        del log[at]
    else:
        log[at], log[at + 1] = log[at + 1], log[at]
    return log, at


@checked(200)
@given(tables(), st.sampled_from(CORRUPTIONS), st.floats(0, 1, exclude_max=True))
def test_one_corrupt_event_is_found_where_it_is(table: Table, kind: str, pick: float) -> None:
    log = play(table, check_state=False).log
    spoilt, at = corrupt(log, kind, pick)
    with pytest.raises(ReplayMismatch) as info:
        replay(spoilt)
    assert info.value.index == at and str(info.value).startswith(f"event {at}: ")


def finished_log(seed: int = 3) -> list[dict[str, Any]]:
    return run_match(2, False, RuleSet(), seed, ["greedy", "random"], check_state=False).log


def test_an_altered_score_is_named_in_the_error() -> None:
    log = finished_log()
    at = next(i for i, d in enumerate(log) if d["type"] == "round_ended")
    right = log[at]["scores"]
    log[at]["scores"] = [right[0] + 5, right[1]]
    with pytest.raises(ReplayMismatch) as info:
        replay(log)
    assert str(info.value) == (
        f"event {at}: round_ended: scores is {log[at]['scores']!r} in the log, "
        f"the rules give {right!r}"
    )


def test_a_tile_that_does_not_fit_is_refused() -> None:
    log = finished_log()
    at = next(i for i, d in enumerate(log) if d["type"] == "played" and d["ends"][0] != 6)
    log[at]["tile"] = "6-6"
    with pytest.raises(ReplayMismatch, match=f"^event {at}: the rules refuse this played"):
        replay(log)


def test_nothing_may_follow_the_end_of_the_match() -> None:
    log = finished_log()
    with pytest.raises(ReplayMismatch, match=f"^event {len(log)}: knocked after the match ended"):
        replay([*log, {"type": "knocked", "round": 1, "seat": 0}])


def test_a_match_ended_by_the_rules_may_not_be_invented() -> None:
    log = finished_log()
    at = next(i for i, d in enumerate(log) if d["type"] == "played")
    goat = {"type": "match_ended", "losers": [0], "scores": [0, 0], "ended_by": "goat"}
    with pytest.raises(ReplayMismatch, match=f"^event {at}: match_ended where the rules"):
        replay([*log[:at], goat])


def timed_out(seat: int, moves: int = 30) -> tuple[Match, list[dict[str, Any]]]:
    """A four-player pair match in which ``seat`` times out after ``moves`` moves."""
    match, events = Match.new(4, True, RuleSet(), seed=8)
    rng = random.Random(8)
    for _ in range(moves):
        current = match.current_seat
        assert current is not None
        events += match.act(current, greedy_player(match, current, rng))
    events += match.abandon(seat)
    return match, dicts(events)


def test_a_match_ended_by_a_timeout_replays() -> None:
    match, log = timed_out(3)
    assert log[-1]["ended_by"] == "timeout" and log[-1]["losers"] == [1]
    again = replay(log)
    assert again.to_json() == match.to_json()
    assert again.is_over and again.ended_by == "timeout" and again.losers == [1]


@pytest.mark.parametrize(
    "change",
    [
        {"scores": [7, 0]},
        {"losers": [3]},  # a seat, not a side
        {"losers": [2]},
        {"losers": [0, 1]},
        {"ended_by": "lightning"},
    ],
)
def test_an_inconsistent_timeout_is_refused(change: dict[str, Any]) -> None:
    _, log = timed_out(1)
    log[-1].update(change)
    with pytest.raises(ReplayMismatch, match=f"^event {len(log) - 1}: "):
        replay(log)


def test_a_log_cut_inside_a_move_is_refused() -> None:
    log = finished_log()
    at = next(i for i, d in enumerate(log) if d["type"] == "round_ended")
    with pytest.raises(ReplayMismatch, match=f"^event {at}: the log ends where round_ended"):
        replay(log[:at])


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "teleported", "round": 1},
        {"type": "knocked", "round": 1},  # no seat
    ],
)
def test_unknown_or_incomplete_events_are_value_errors(bad: dict[str, Any]) -> None:
    log = finished_log()
    with pytest.raises(ValueError) as info:
        replay([*log[:5], bad])
    assert not isinstance(info.value, ReplayMismatch)


def unrecorded_settings() -> list[tuple[str, str, Any]]:
    """Each preset with each value it accepts of an option its game's log does not record
    (``match_started.options``): the game must play such a value exactly as the DEFAULT."""
    found = []
    for preset, build in sorted(PRESETS.items()):
        rules = build()
        recorded = GAMES[rules.game].options(rules)
        for name in OPTION_NAMES:
            if name in recorded:
                continue
            for value in option_choices(name, rules.game) or ():
                if value != rules.option(name):
                    found.append((preset, name, value))
    return found


@pytest.mark.parametrize(("preset", "name", "value"), unrecorded_settings())
def test_an_option_a_log_does_not_record_leaves_the_match_as_its_log_replays_it(
    preset: str, name: str, value: Any
) -> None:
    """Where an option played differently but its log did not say so, the log could not be
    replayed (Kozel's ``multi_double``, another game's ``extra_turn_after_double``)."""
    rules = PRESETS[preset]().with_options(**{name: value})
    players, pairs = next(
        shape
        for shape in ((2, False), (3, False), (4, True))
        if plays_at(GAMES[rules.game], *shape)
    )
    match, log = Match.new(players, pairs, rules, seed=len(name))
    rng = random.Random(len(name))
    while (seat := match.current_seat) is not None and len(log) < 400:
        log += match.act(seat, rng.choice(match.legal_actions(seat)))
    assert replay(dicts(log)).to_json() == match.to_json()
