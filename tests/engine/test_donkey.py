"""Donkey (RULES.md §3.3): the worked examples D-1 and D-2 of §4.4, closing doubles, reopening
them, the round that ends when no open end is left, and its transcript fields."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import Lay, Match, Placement, Play, Reopen, errors, replay
from engine.ai import PLAYERS, greedy_player
from engine.cross import Cross
from engine.layout import End
from engine.rules import PRESETS
from engine.search import StrongPlayer
from engine.selfplay import play_match

from .support import dicts, layout_position, of_type, scoring_table, snapshot, t


def lay(*placements: tuple[str, End | None, bool]) -> Lay:
    return Lay(tuple(Placement(t(tile), end, closed) for tile, end, closed in placements))


def closes(played: dict[str, Any]) -> bool:
    """Whether a ``played`` event lays a double face down."""
    closed = played["closed"]
    return closed is True or (isinstance(closed, list) and any(closed))


def d_1(rest: str = "3-4 0-1") -> Match:
    """D-1's position (§4.4): the round's lead is 2-5, no double down yet; seat 1 holds 2-2 and
    5-5 (and ``rest``)."""
    match = scoring_table("donkey", players=3)
    layout_position(
        match, hands=["0-0 6-6 1-3", f"2-2 5-5 {rest}", "4-4 0-5"], lays=[("2-5", "left")], turn=1
    )
    return match


def test_d1_closing_both_doubles_ends_the_round_as_a_fish() -> None:
    match = d_1()
    both = lay(("2-2", "left", True), ("5-5", "right", True))
    assert both in match.legal_actions(1)
    events = dicts(match.act(1, both))
    played, ended = events[0], events[1]
    assert played == {
        "type": "played",
        "round": 2,
        "seat": 1,
        "tiles": ["2-2", "5-5"],
        "ends_used": ["left", "right"],
        "ends": {},
        "closed": [True, True],
    }
    assert ended["type"] == "round_ended"
    assert (ended["result"], ended["fisherman"], ended["winner"]) == ("fish", 1, None)
    # Kozel's fish for one (§2.7.3): the largest hand, seat 0's 0-0 6-6 1-3 = 16, takes all 37.
    assert ended["hand_values"] == [16, 8, 13] and ended["amounts"] == [37, 0, 0]
    assert events[2]["type"] == "round_started" and events[2]["leader"] == 1  # the fisherman


def test_d1_with_his_last_tiles_the_closer_goes_out() -> None:
    match = d_1(rest="")
    events = dicts(match.act(1, lay(("2-2", "left", True), ("5-5", "right", True))))
    ended = events[1]
    assert (ended["result"], ended["winner"], ended["fisherman"]) == ("out", 1, None)
    assert ended["amounts"] == [16, 0, 13]


def test_d1_closing_one_of_the_two_leaves_the_other_end_open() -> None:
    match = d_1()
    [played] = dicts(match.act(1, lay(("2-2", "left", True), ("5-5", "right", False))))
    # 5-5 is the first double left open: the spinner, its arms open at once (§1.7).
    assert played["ends"] == {"right": 5, "up": 5, "down": 5}
    assert played["closed"] == [True, False]
    layout = match.round.layout if match.round else None
    assert isinstance(layout, Cross) and layout.spinner == 2


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("spinner", "none"),
        ("spinner_arms_open", "after_both_long_sides"),
        ("first_lead", "lot_lowest"),
        ("first_lead", "three_two"),
        ("first_lead", "highest_tile"),
    ],
)
def test_donkey_refuses_a_table_it_is_not_played_on(name: str, value: str) -> None:
    """§3.3 rule 1: the first double takes tiles on all 4 sides, its arms open at once; the rest
    is Kozel's, its first leads too. The game played on a line without a spinner, or on a house
    opening late, or led by the scoring games' lot, 3-2 or highest tile."""
    with pytest.raises(ValueError, match=name):
        PRESETS["donkey"]().with_options(**{name: value})
    assert PRESETS["telephone"]().with_options(**{name: value}).option(name) == value


def test_donkey_deals_seven_whoever_plays() -> None:
    """§1.4: Donkey deals "as Kozel (7)", 7 tiles to two, three or four. §HT's five tiles to three
    or four, Kozel's house rule, were accepted and dealt."""
    with pytest.raises(ValueError, match="kozel_hand_sizes"):
        PRESETS["donkey"]().with_options(kozel_hand_sizes="ht")
    assert PRESETS["kozel"]().with_options(kozel_hand_sizes="ht").hand_size(4) == 5
    assert PRESETS["donkey"]().hand_size(4) == 7


def test_d2_the_lead_1_1_is_the_spinner_and_three_doubles_go_down_together() -> None:
    match, _ = Match.new(4, rules=PRESETS["donkey"](), seed=0)
    rnd = match.round
    assert rnd is not None and rnd.lead_tiles == [t("1-1")]
    leader = rnd.leader
    [played] = dicts(match.act(leader, Play(t("1-1"))))
    assert played["ends"] == {"left": 1, "right": 1, "up": 1, "down": 1}
    assert played["closed"] is False

    # D-2 itself: 1-2, 1-3 and 1-4 go one a turn; then 2-2, 3-3 and 4-4 go down in one move.
    rnd = layout_position(
        match,
        hands=["1-2 1-3 1-4 0-0", "2-2 3-3 4-4 0-6", "5-6 5-5", "0-5 0-4"],
        lays=[("1-1", "left")],
        turn=0,
    )
    with pytest.raises(errors.OneTilePerMove):
        match.act(0, lay(("1-2", "left", False), ("1-3", "right", False)))
    sides: list[tuple[str, End]] = [("1-2", "left"), ("1-3", "right"), ("1-4", "up")]
    for tile, end in sides:
        rnd.layout.place(t(tile), end)
    rnd.hands[0], rnd.turn = [t("0-0")], 1
    assert rnd.layout.open_ends() == {"left": 2, "right": 3, "up": 4, "down": 1}
    three = lay(("2-2", "left", False), ("3-3", "right", False), ("4-4", "up", False))
    assert three in match.legal_actions(1)
    [played] = dicts(match.act(1, three))
    assert played["tiles"] == ["2-2", "3-3", "4-4"] and played["closed"] == [False] * 3
    assert played["ends"] == {"left": 2, "right": 3, "up": 4, "down": 1}


def test_a_closed_end_is_dead() -> None:
    match = d_1()
    match.act(1, lay(("2-2", "left", True)))
    assert match.round is not None and match.round.layout.open_ends() == {"right": 5}
    match.round.hands[2] = [t("2-6"), t("5-6")]
    assert match.legal_actions(2) == [Play(t("5-6"))]  # nothing goes on the closed 2-2
    with pytest.raises(errors.TileDoesNotFit):
        match.act(2, Play(t("2-6"), "left"))


def test_a_closed_double_never_becomes_the_spinner() -> None:
    match = d_1()
    [played] = dicts(match.act(1, lay(("5-5", "right", True))))
    assert played == {
        "type": "played",
        "round": 2,
        "seat": 1,
        "tile": "5-5",
        "end": "right",
        "ends": {"left": 2},
        "closed": True,
    }
    layout = match.round.layout if match.round else None
    assert isinstance(layout, Cross) and layout.spinner is None
    layout.place(t("2-2"), "left")  # the first double left open
    assert layout.spinner == 0 and layout.open_ends() == {"left": 2, "up": 2, "down": 2}


@pytest.mark.parametrize(
    ("move", "why"),
    [
        (lay(("3-4", "left", True)), "only a double"),
        (lay(("2-2", "left", False), ("3-4", "right", True)), "only a double"),
    ],
)
def test_only_doubles_close(move: Lay, why: str) -> None:
    match = d_1()
    before = snapshot(match)
    with pytest.raises(errors.CannotClose, match=why):
        match.act(1, move)
    assert snapshot(match) == before


def test_the_lead_cannot_be_closed() -> None:
    match, _ = Match.new(2, rules=PRESETS["donkey"](), seed=1)
    rnd = match.round
    assert rnd is not None and rnd.lead_tiles is not None
    with pytest.raises(errors.CannotClose, match="lead"):
        match.act(rnd.leader, lay((str(rnd.lead_tiles[0]), None, True)))
    assert not any(isinstance(a, Lay) for a in match.legal_actions(rnd.leader))


def test_other_games_do_not_close() -> None:
    match = scoring_table("muggins")
    layout_position(match, hands=["2-2 0-1", "3-3"], lays=[("2-5", "left")], turn=0)
    with pytest.raises(errors.CannotClose):
        match.act(0, lay(("2-2", "left", True)))
    assert not any(
        isinstance(a, Lay) and any(p.closed for p in a.placements) for a in match.legal_actions(0)
    )


def reopen_position() -> Match:
    """D-1's position with ``donkey_reopen``: seat 1 has closed 2-2 on the left of the lead 2-5,
    the others have moved since (6-6 is the spinner), and seat 1 has nothing to play."""
    match = d_1()
    match.rules = match.rules.with_options(donkey_reopen=True)
    match.act(1, lay(("2-2", "left", True)))
    assert match.round is not None
    match.round.hands[2] = [t("5-6"), t("0-2"), t("3-6")]
    match.act(2, Play(t("5-6")))
    match.round.hands[0] = [t("6-6"), t("0-3")]
    match.act(0, Play(t("6-6")))
    return match


def test_the_closer_may_reopen_at_the_start_of_his_turn() -> None:
    match = reopen_position()
    assert match.round is not None and match.round.turn == 1
    assert Reopen(t("2-2")) in match.legal_actions(1)
    [event] = dicts(match.act(1, Reopen(t("2-2"))))
    assert event == {"type": "reopened", "round": 2, "seat": 1, "tile": "2-2"}
    assert match.round.turn == 1  # a free action: he moves now
    assert match.round.layout.open_ends()["left"] == 2
    assert Reopen(t("2-2")) not in match.legal_actions(1)
    assert Play(t("3-4")) not in match.legal_actions(1)  # 3-4 still fits nothing
    match.round.hands[1].append(t("2-3"))
    assert Play(t("2-3")) in match.legal_actions(1)


def test_nobody_else_reopens_and_not_after_drawing_or_without_the_option() -> None:
    match = reopen_position()
    assert match.round is not None
    with pytest.raises(errors.NotYourTurn):
        match.act(0, Reopen(t("2-2")))
    match.round.drew_this_turn = True
    with pytest.raises(errors.CannotClose):
        match.act(1, Reopen(t("2-2")))
    match.round.drew_this_turn = False
    match.rules = match.rules.with_options(donkey_reopen=False)
    assert not any(isinstance(a, Reopen) for a in match.legal_actions(1))
    with pytest.raises(errors.CannotClose):
        match.act(1, Reopen(t("2-2")))


def test_a_fish_looks_at_the_open_ends_only() -> None:
    # The bazaar is empty; 2-2 is closed on the left, and nobody holds a 5 for the right end:
    # a fish, although the 2s in the hands would fit the closed end if it were reopened (FLAG).
    match = d_1()
    assert match.round is not None
    match.round.hands[2] = [t("2-3")]
    match.round.hands[0] = [t("2-4"), t("0-1")]
    match.round.hands[1] = [t("2-2"), t("2-6")]
    events = dicts(match.act(1, lay(("2-2", "left", True))))
    assert events[1]["type"] == "round_ended" and events[1]["result"] == "fish"
    assert events[1]["fisherman"] == 1


def test_greedy_closes_an_end_only_the_others_need() -> None:
    match = d_1()
    assert match.round is not None
    match.round.hands[1] = [t("2-2"), t("0-5"), t("3-4")]
    move = greedy_player(match, 1, random.Random(0))
    # 2-2 is the heaviest, and its suit is one the rest of the hand lacks: closed.
    assert move == lay(("2-2", "left", True))
    match.round.hands[1] = [t("2-2"), t("2-3"), t("4-4")]
    assert greedy_player(match, 1, random.Random(0)) == Play(t("2-2"))  # it holds a 2: open


@pytest.mark.parametrize("ai", ["random", "greedy", "easy"])
def test_computer_players_play_whole_matches_that_replay(ai: str) -> None:
    rules = PRESETS["donkey"]().with_options(donkey_reopen=True)
    kinds: set[str] = set()
    for seed in range(6):
        players = 2 + seed % 3
        match, events = Match.new(players, rules=rules, seed=seed)
        rng = random.Random(seed)
        while (seat := match.current_seat) is not None:
            events += match.act(seat, PLAYERS[ai](match, seat, rng))
        log = json.loads(json.dumps(dicts(events)))
        assert replay(log).to_json() == match.to_json()
        assert Match.from_json(json.loads(json.dumps(match.to_json()))).to_json() == (
            match.to_json()
        )
        for played in of_type(log, "played"):
            if closes(played):
                kinds.add("closed")
            if "tiles" in played:
                kinds.add("several")
        kinds |= {e["type"] for e in log if e["type"] == "reopened"}
    assert kinds == {"closed", "several", "reopened"}


def test_kozel_and_scoring_logs_write_no_closed_flag() -> None:
    for name in ("kozel", "telephone"):
        match, events = Match.new(2, rules=PRESETS[name](), seed=2)
        rng = random.Random(2)
        while (seat := match.current_seat) is not None:
            events += match.act(seat, PLAYERS["random"](match, seat, rng))
        assert not any("closed" in d for d in of_type(events, "played"))
        assert "donkey_reopen" not in dicts(events)[0]["options"]


def test_the_strong_player_plays_donkey_with_its_closing_and_reopening() -> None:
    rules = PRESETS["donkey"]().with_options(donkey_reopen=True, goat_limit=40)
    strong = StrongPlayer(playouts=8)
    log = dicts(play_match(3, False, rules, 4, [strong, PLAYERS["greedy"], strong]))
    assert log[-1]["type"] == "match_ended" and log[-1]["ended_by"] == "goat"
    by_strong = [e for e in log if e.get("seat") in (0, 2)]
    assert any(e["type"] == "played" and "tiles" in e for e in by_strong)
    assert any(e["type"] == "played" and closes(e) for e in by_strong)
    assert replay(log).is_over
