"""Several doubles in one move (``multi_double``, RULES.md §1.6; the Telephone variant of §3.4):
each on a different open end matching it, S counted once all are down, one ``played`` event with
``tiles`` and ``ends_used``; games without the option keep refusing it."""

from __future__ import annotations

import json
import random

import pytest

from engine import Lay, Match, Placement, Play, RuleSet, errors, replay
from engine.ai import random_player
from engine.cli import rules_from
from engine.events import PlayedDoubles, event_from_dict
from engine.games import game_of
from engine.layout import End
from engine.rules import PRESETS, parse_option

from .support import dicts, layout_position, scoring_table, t


def tel_1(multi_double: int = 4) -> Match:
    """TEL-1's position (§4.5): the house 4-4 with 4-6 and 4-3 on its long sides; seat 0 holds
    6-6 and 3-3, which fit the 6 and the 3."""
    match = scoring_table("telephone", multi_double=multi_double)
    layout_position(
        match,
        hands=["6-6 3-3 1-2", "0-1 0-2 0-3"],
        lays=[("4-4", "left"), ("4-6", "right"), ("4-3", "left")],
        turn=0,
    )
    return match


def lay(*placements: tuple[str, End | None]) -> Lay:
    return Lay(tuple(Placement(t(tile), end) for tile, end in placements))


def test_the_doubles_go_down_together_and_score_on_the_sum_after_both() -> None:
    match = tel_1()
    both = lay(("6-6", "right"), ("3-3", "left"))
    assert both in match.legal_actions(0)
    assert Play(t("6-6")) in match.legal_actions(0)  # one at a time stays legal
    [played] = dicts(match.act(0, both))
    # S = 12 + 6 = 18: no multiple of 5, no points (one at a time, 6-6 alone makes 15)
    assert played == {
        "type": "played",
        "round": 2,
        "seat": 0,
        "tiles": ["6-6", "3-3"],
        "ends_used": ["right", "left"],
        "ends": {"left": 3, "right": 6, "up": 4, "down": 4},
        "scored": 0,
    }
    rnd = match.round
    assert rnd is not None and rnd.hands[0] == [t("1-2")] and rnd.turn == 1


def test_the_points_of_a_multi_double_move() -> None:
    match = tel_1()
    assert match.round is not None
    match.round.layout.place(t("4-5"), "up")  # ends 3, 6 and the arm's 5; the other arm is 0
    match.round.hands[0] = [t("6-6"), t("5-5"), t("0-1")]
    [played] = match.act(0, lay(("6-6", "right"), ("5-5", "up")))
    assert isinstance(played, PlayedDoubles)
    assert played.scored == 5 and played.scores == [5, 0]  # S = 3 + 12 + 10 = 25, divided by 5
    assert match.tally.scores == (5, 0)


@pytest.mark.parametrize(
    ("move", "error"),
    [
        (lay(("6-6", "right"), ("1-2", "left")), errors.OneTilePerMove),  # not a double
        (lay(("6-6", "right"), ("5-5", "left")), errors.TileNotInHand),
        (lay(("6-6", "right"), ("3-3", "right")), errors.TileDoesNotFit),
        (lay(("6-6", "right"), ("3-3", "up")), errors.TileDoesNotFit),
        (lay(("6-6", "north"), ("3-3", "left")), errors.NoSuchEnd),  # type: ignore[arg-type]
        (lay(("6-6", "right"), ("6-6", "right")), errors.TileNotInHand),
        (Lay(()), errors.OneTilePerMove),
    ],
)
def test_an_illegal_multi_double_move_changes_nothing(move: Lay, error: type[Exception]) -> None:
    match = tel_1()
    before = json.dumps(match.to_json())
    with pytest.raises(error):
        match.act(0, move)
    assert json.dumps(match.to_json()) == before


def test_the_limit_is_the_option() -> None:
    match = tel_1(multi_double=2)
    assert match.round is not None
    match.round.layout.place(t("4-1"), "up")
    match.round.hands[0] = [t("6-6"), t("3-3"), t("1-1")]
    three = lay(("6-6", "right"), ("3-3", "left"), ("1-1", "up"))
    assert three not in match.legal_actions(0)
    with pytest.raises(errors.OneTilePerMove, match="at most 2"):
        match.act(0, three)
    assert sum(isinstance(a, Lay) for a in match.legal_actions(0)) == 3


def test_without_the_option_a_move_is_one_tile() -> None:
    match = tel_1(multi_double=0)
    assert not any(isinstance(a, Lay) for a in match.legal_actions(0))
    with pytest.raises(errors.OneTilePerMove):
        match.act(0, lay(("6-6", "right"), ("3-3", "left")))
    [played] = dicts(match.act(0, lay(("6-6", None))))  # one open tile is a play
    assert played["tile"] == "6-6" and played["end"] == "right" and played["scored"] == 3


def test_kozel_offers_no_multi_double_move() -> None:
    match, _ = Match.new(4, seed=5)
    rng = random.Random(5)
    while (seat := match.current_seat) is not None:
        actions = match.legal_actions(seat)
        assert not any(isinstance(a, Lay) for a in actions)
        match.act(seat, rng.choice(actions))


def test_kozel_refuses_several_doubles_a_move() -> None:
    """§1.6 "Kozel itself: not allowed": a Kozel log does not record ``multi_double``, so a Kozel
    match that put down several doubles at once could not be replayed."""
    with pytest.raises(ValueError, match="multi_double"):
        RuleSet(multi_double=2)
    with pytest.raises(ValueError, match="multi_double"):
        parse_option("multi_double", "2", "kozel")
    assert parse_option("multi_double", "2", "sea_goat") == 2


def test_random_matches_with_multi_double_moves_replay() -> None:
    """Random players, who take multi-double moves when offered: every tile stays accounted
    for, the events round-trip through JSON and each log replays to the same match."""
    rules = PRESETS["telephone"]().with_options(multi_double=4, spinner_count="B")
    laid = 0
    for seed in range(12):
        match, events = Match.new(2 + seed % 3, rules=rules, seed=seed)
        rng = random.Random(seed)
        while (seat := match.current_seat) is not None:
            events += match.act(seat, random_player(match, seat, rng))
            rnd = match.round
            assert rnd is not None
            held = [tile for hand in rnd.hands for tile in hand]
            assert len(rnd.layout.tiles()) + len(held) + len(rnd.bazaar) == 28
        for event in events:
            if isinstance(event, PlayedDoubles):
                laid += 1
                assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
        assert replay(dicts(events)).to_json() == match.to_json()
    assert laid > 0


def test_the_ukrainian_telephone_may_put_down_four_doubles_at_once() -> None:
    """§3.5 "Variant: up to four doubles at once": a table of the Ukrainian Telephone may set it
    (the editor offers what ``--set`` takes), and then TEL-3's 6-6 and 3-3 go down together."""
    rules = rules_from("telephone_ua", ["multi_double=4"])
    assert rules.multi_double == 4
    match = Match(2, False, rules, seed=3)
    layout_position(
        match,
        hands=["6-6 3-3 1-2", "0-1 0-2 0-3"],
        lays=[("4-4", "left"), ("4-6", "right"), ("4-3", "left")],
        turn=0,
    )
    assert lay(("6-6", "right"), ("3-3", "left")) in match.legal_actions(0)


@pytest.mark.parametrize("game", ["sea_goat", "generals_goat"])
def test_a_line_match_set_to_three_or_four_doubles_still_loads_and_plays_as_two(game: str) -> None:
    """Sea Goat and General's Goat play on a line of two open ends (§1.7), so their editor now
    offers 0 or 2 doubles a move; a table or match that set 3 or 4 before still loads from what
    it stored, and plays exactly as 2: the same moves, the same events, and its log replays."""
    laid = 0
    for seed, most in enumerate((3, 4) * 6):
        stored = {**PRESETS[game]().to_dict(), "multi_double": most}
        rules = RuleSet.from_dict(json.loads(json.dumps(stored)))
        logs = []
        for value in (most, 2):
            match, events = Match.new(4, True, rules.with_options(multi_double=value), seed=seed)
            rng = random.Random(seed)
            while (seat := match.current_seat) is not None:
                events += match.act(seat, random_player(match, seat, rng))
            assert replay(dicts(events)).to_json() == match.to_json()
            logs.append([e.to_dict() for e in events[1:]])  # match_started records the value
        assert logs[0] == logs[1]
        laid += sum(isinstance(event_from_dict(e), PlayedDoubles) for e in logs[0])
    assert laid > 0


@pytest.mark.parametrize("game", ["sea_goat", "generals_goat", "donkey", "telephone_ua"])
def test_a_game_says_how_many_doubles_a_move_can_put_down(game: str) -> None:
    """``Game.doubles_a_move``, the number /rules and the Rules editor say: the table's
    ``multi_double`` where its layout has that many ends, else one double per end (§1.6): a
    line's two (Sea Goat, General's Goat), a spinner's four (Donkey, the Ukrainian Telephone)."""
    rules = PRESETS[game]()
    ends = 2 if rules.spinner == "none" else 4
    for most in (0, 2, 3, 4):
        assert game_of(rules).doubles_a_move(rules.with_options(multi_double=most)) == min(
            most, ends
        )
