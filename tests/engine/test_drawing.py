"""Drawing from the bazaar (RULES.md §1.5, §2.4)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import DRAW, KNOCK, Match, Play, RuleSet, Tile, errors

from .support import of_type, position, t, tiles

# The line shows 1 and 2; these tiles fit neither end.
DEAD = "0-0 3-3 0-3 4-4 0-5"


def match_of(players: int, **options: Any) -> Match:
    return Match(players, False, RuleSet(**options), seed=11)


def hand_of(match: Match, seat: int) -> list[Tile]:
    state = match.to_json()["round"]
    return sorted(Tile.parse(x) for x in state["hands"][seat])


def refused(match: Match, seat: int, action: Any, error: type[errors.IllegalAction]) -> None:
    before = match.to_json()
    with pytest.raises(error):
        match.act(seat, action)
    assert match.to_json() == before


def test_until_playable_draws_one_at_a_time_and_must_play_the_drawn_tile() -> None:
    match = match_of(2)
    position(match, hands=["4-6 5-6", "1-3"], chain=["1-2"], bazaar="0-0 3-3 2-6 0-3", turn=0)
    drawn: list[Tile] = []
    while match.legal_actions(0) == [DRAW]:
        refused(match, 0, KNOCK, errors.MustDraw)
        (event,) = match.act(0, DRAW)
        drawn.append(Tile.parse(event.to_dict()["tile"]))
        assert match.current_seat == 0  # still his turn
        assert drawn[-1] in hand_of(match, 0)  # drawn tiles stay in the hand
    assert drawn[-1] == t("2-6") and set(drawn[:-1]) <= set(tiles("0-0 3-3 0-3"))
    assert set(match.legal_actions(0)) == {Play(t("2-6"))}
    refused(match, 0, DRAW, errors.MustPlay)
    refused(match, 0, KNOCK, errors.MustPlay)
    match.act(0, Play(t("2-6")))
    assert hand_of(match, 0) == sorted([*tiles("4-6 5-6"), *drawn[:-1]])
    assert match.current_seat == 1


def test_until_playable_knocks_when_the_bazaar_runs_out() -> None:
    match = match_of(2)
    position(match, hands=["4-6 5-6", "1-3"], chain=["1-2"], bazaar="0-0 3-3 0-3", turn=0)
    for _ in range(3):
        assert match.legal_actions(0) == [DRAW]
        match.act(0, DRAW)
    assert match.legal_actions(0) == [KNOCK]
    refused(match, 0, DRAW, errors.CannotDraw)
    events = match.act(0, KNOCK)
    assert of_type(events, "knocked") and not of_type(events, "round_ended")
    assert len(hand_of(match, 0)) == 5 and match.current_seat == 1
    assert match.to_json()["round"]["bazaar"] == []


def test_until_playable_exhausted_and_nobody_can_move_is_a_fish() -> None:
    match = match_of(2)
    position(
        match, hands=["4-6 5-6", "3-4"], chain=["1-2"], bazaar="0-0 3-3", turn=0, last_placer=1
    )
    match.act(0, DRAW)
    match.act(0, DRAW)
    events = match.act(0, KNOCK)
    (ended,) = of_type(events, "round_ended")
    assert (ended["result"], ended["fisherman"]) == ("fish", 1)


def test_one_per_turn_draws_a_single_tile_then_passes() -> None:
    match = match_of(2, draw_mode="one_per_turn")
    position(match, hands=["4-6 5-6", "1-3"], chain=["1-2"], bazaar="0-0 3-3 0-3", turn=0)
    refused(match, 0, KNOCK, errors.MustDraw)
    match.act(0, DRAW)
    assert match.legal_actions(0) == [KNOCK]
    refused(match, 0, DRAW, errors.CannotDraw)
    match.act(0, KNOCK)
    assert match.current_seat == 1 and len(hand_of(match, 0)) == 3
    assert len(match.to_json()["round"]["bazaar"]) == 2


def test_one_per_turn_a_playable_drawn_tile_may_be_played() -> None:
    match = match_of(2, draw_mode="one_per_turn")
    position(match, hands=["4-6 5-6", "1-3"], chain=["1-2"], bazaar="2-6 1-5 2-4", turn=0)
    (event,) = match.act(0, DRAW)
    tile = Tile.parse(event.to_dict()["tile"])
    assert {a.tile for a in match.legal_actions(0) if isinstance(a, Play)} == {tile}
    refused(match, 0, KNOCK, errors.MustPlay)  # §1.5: no passing with a playable tile
    match.act(0, match.legal_actions(0)[0])
    assert match.current_seat == 1


def test_one_per_turn_may_draw_again_next_turn() -> None:
    match = match_of(2, draw_mode="one_per_turn")
    position(match, hands=["4-6 5-6", "4-4"], chain=["1-2"], bazaar="0-0 3-3 0-3 0-5", turn=0)
    match.act(0, DRAW)
    match.act(0, KNOCK)
    assert match.legal_actions(1) == [DRAW]
    match.act(1, DRAW)
    match.act(1, KNOCK)
    assert match.legal_actions(0) == [DRAW]


def test_bazaar_reserve_2_never_draws_the_last_two_tiles() -> None:
    match = match_of(2, bazaar_reserve=2)
    position(match, hands=["4-6 5-6", "1-3"], chain=["1-2"], bazaar=DEAD, turn=0)
    for _ in range(3):
        match.act(0, DRAW)
    assert match.legal_actions(0) == [KNOCK]
    refused(match, 0, DRAW, errors.CannotDraw)
    match.act(0, KNOCK)
    assert len(match.to_json()["round"]["bazaar"]) == 2 and match.current_seat == 1


def test_bazaar_reserve_2_counts_as_empty_for_the_fish() -> None:
    hands = ["4-6 5-6", "3-4"]  # nobody can play on 1 or 2
    match = match_of(2)
    position(match, hands=hands, chain=["1-2"], bazaar="0-0 3-3", turn=0, last_placer=1)
    assert match.legal_actions(0) == [DRAW]  # reserve 0: both tiles may be drawn
    match = match_of(2, bazaar_reserve=2)
    position(match, hands=hands, chain=["1-2"], bazaar="0-0 3-3", turn=0, last_placer=1)
    assert match.legal_actions(0) == [KNOCK]
    (ended,) = of_type(match.act(0, KNOCK), "round_ended")
    assert (ended["result"], ended["fisherman"]) == ("fish", 1)


@pytest.mark.parametrize(
    ("players", "sizes", "bazaar"),
    [(2, "default", 14), (3, "default", 7), (4, "default", 0), (3, "ht", 13), (4, "ht", 8)],
)
def test_bazaar_size(players: int, sizes: str, bazaar: int) -> None:
    rules = RuleSet(kozel_hand_sizes=sizes)  # type: ignore[arg-type]
    for seed in range(5):
        _, events = Match.new(players, rules=rules, seed=seed)
        started = of_type(events, "round_started")[0]
        assert len(started["bazaar"]) == bazaar
        assert {len(h) for h in started["hands"]} == {(28 - bazaar) // players}


def test_four_players_have_no_bazaar_and_knock() -> None:
    match = match_of(4)
    position(match, hands=["4-6 5-6", "1-3", "0-0", "3-3"], chain=["1-2"], turn=0)
    assert match.legal_actions(0) == [KNOCK]
    refused(match, 0, DRAW, errors.CannotDraw)
    match.act(0, KNOCK)
    assert match.current_seat == 1
    # Played out from a real deal: whenever a player cannot move, knocking is all he can do.
    match, _ = Match.new(4, seed=9)
    knocks = 0
    while not match.is_over and knocks < 5:
        seat = match.current_seat
        assert seat is not None
        legal = match.legal_actions(seat)
        assert DRAW not in legal
        if legal == [KNOCK]:
            knocks += 1
        match.act(seat, legal[0])
    assert knocks
