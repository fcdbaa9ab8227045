"""Illegal actions raise the specific error from ``engine.errors`` and change nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import (
    DRAW,
    KNOCK,
    Action,
    IllegalAction,
    Lay,
    Match,
    Placement,
    Play,
    RuleSet,
    errors,
)
from engine.ai import random_player

from .support import of_type, position, t


def match_of(players: int, **options: Any) -> Match:
    return Match(players, False, RuleSet(**options), seed=11)


def fresh_four() -> tuple[Match, int, Action]:
    match, _ = Match.new(4, seed=5)
    return match, match.current_seat or 0, KNOCK


def not_your_turn() -> tuple[Match, int, Action]:
    match, events = Match.new(4, seed=5)
    started = of_type(events, "round_started")[0]
    other = (started["leader"] + 1) % 4
    return match, other, Play(t(started["hands"][other][0]))


def tile_not_in_hand() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("2-3"))  # the opponent's tile


def tile_on_table() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("1-2"), "left")


def does_not_fit() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("5-6"))


def does_not_fit_that_end() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("1-4"), "right")  # 1-4 fits the 1 end (left) only


def wrong_first_lead() -> tuple[Match, int, Action]:
    match, events = Match.new(4, seed=5)
    started = of_type(events, "round_started")[0]
    leader = started["leader"]
    assert started["lead_tiles"] == ["1-1"]
    other = next(x for x in started["hands"][leader] if x != "1-1")
    return match, leader, Play(t(other))


def wrong_compulsory_double() -> tuple[Match, int, Action]:
    match = match_of(4, lead_tile="double_if_held")
    rnd = position(match, hands=["3-3 1-2", "4-5", "0-6", "2-6"], turn=0)
    rnd.lead_tiles = [t("3-3")]
    return match, 0, Play(t("1-2"))


def no_such_end_on_the_lead() -> tuple[Match, int, Action]:
    match, events = Match.new(4, seed=5)
    leader = of_type(events, "round_started")[0]["leader"]
    return match, leader, Play(t("1-1"), "middle")  # type: ignore[arg-type]


def no_such_end_on_the_line() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("1-4"), "middle")  # type: ignore[arg-type]


def spinner_arm_on_a_line() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("1-4"), "up")  # an end of a spinner's cross (§1.7); a line has none


def two_doubles_in_one_move() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-1 2-2 5-6", "0-4"], chain=["1-3", "3-2"], bazaar="0-0", turn=0)
    both = (Placement(t("1-1"), "left"), Placement(t("2-2"), "right"))
    return match, 0, Lay(both)  # the multi-double move of §1.6


def closed_double() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-1 5-6", "0-4"], chain=["1-3", "3-2"], bazaar="0-0", turn=0)
    return match, 0, Lay((Placement(t("1-1"), closed=True),))  # closing is Donkey's (§3.3)


def end_required() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-2 5-6", "0-4"], chain=["1-3", "3-2"], bazaar="0-0", turn=0)
    return match, 0, Play(t("1-2"))  # fits the 1 end and the 2 end


def draw_while_playable() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["1-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0 3-3", turn=0)
    return match, 0, DRAW


def knock_while_playable() -> tuple[Match, int, Action]:
    match = match_of(4)
    position(match, hands=["1-4 5-6", "2-3", "0-0", "3-3"], chain=["1-2"], turn=0)
    return match, 0, KNOCK


def knock_while_bazaar_offers() -> tuple[Match, int, Action]:
    match = match_of(2)
    position(match, hands=["4-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0 3-3", turn=0)
    return match, 0, KNOCK


def draw_when_draw_mode_none() -> tuple[Match, int, Action]:
    match = match_of(2, draw_mode="none")
    position(match, hands=["4-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0 3-3", turn=0)
    return match, 0, DRAW


def draw_from_empty_bazaar() -> tuple[Match, int, Action]:
    match = match_of(3)
    position(match, hands=["4-4 5-6", "2-3", "0-6"], chain=["1-2"], turn=0)
    return match, 0, DRAW


def draw_from_the_reserve() -> tuple[Match, int, Action]:
    match = match_of(2, bazaar_reserve=2)
    position(match, hands=["4-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0 3-3", turn=0)
    return match, 0, DRAW


def second_draw_one_per_turn() -> tuple[Match, int, Action]:
    match = match_of(2, draw_mode="one_per_turn")
    position(match, hands=["4-4 5-6", "2-3"], chain=["1-2"], bazaar="0-0 3-3 0-3", turn=0)
    match.act(0, DRAW)  # 0-0, 3-3 and 0-3 are all unplayable on 1 and 2
    return match, 0, DRAW


def after_the_match() -> tuple[Match, int, Action]:
    match, _ = Match.new(2, rules=RuleSet(goat_limit=1), seed=3)
    rng = random.Random(3)
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        match.act(seat, random_player(match, seat, rng))
    return match, 0, KNOCK


CASES: dict[str, tuple[Callable[[], tuple[Match, int, Action]], type[IllegalAction]]] = {
    "wrong seat": (not_your_turn, errors.NotYourTurn),
    "tile not in hand": (tile_not_in_hand, errors.TileNotInHand),
    "tile already on the table": (tile_on_table, errors.TileNotInHand),
    "tile does not fit": (does_not_fit, errors.TileDoesNotFit),
    "tile does not fit the named end": (does_not_fit_that_end, errors.TileDoesNotFit),
    "wrong first lead": (wrong_first_lead, errors.WrongLead),
    "compulsory double not led": (wrong_compulsory_double, errors.WrongLead),
    "end neither left nor right, on the lead": (no_such_end_on_the_lead, errors.NoSuchEnd),
    "end neither left nor right, on the line": (no_such_end_on_the_line, errors.NoSuchEnd),
    "an end a line does not have": (spinner_arm_on_a_line, errors.NoSuchEnd),
    "two doubles in one move": (two_doubles_in_one_move, errors.OneTilePerMove),
    "a closed double": (closed_double, errors.CannotClose),
    "end required": (end_required, errors.EndRequired),
    "draw holding a playable tile": (draw_while_playable, errors.MustPlay),
    "knock holding a playable tile": (knock_while_playable, errors.MustPlay),
    "knock while the bazaar offers a tile": (knock_while_bazaar_offers, errors.MustDraw),
    "draw with draw_mode none": (draw_when_draw_mode_none, errors.CannotDraw),
    "draw from an exhausted bazaar": (draw_from_empty_bazaar, errors.CannotDraw),
    "draw one of the two reserved tiles": (draw_from_the_reserve, errors.CannotDraw),
    "second draw in one_per_turn": (second_draw_one_per_turn, errors.CannotDraw),
    "act after the match is over": (after_the_match, errors.GameOver),
    "knock on the lead": (fresh_four, errors.MustPlay),
}


@pytest.mark.parametrize("case", list(CASES))
def test_illegal_action_is_refused_and_changes_nothing(case: str) -> None:
    setup, error = CASES[case]
    match, seat, action = setup()
    before = match.to_json()
    legal_before = {s: match.legal_actions(s) for s in range(match.players)}
    assert action not in legal_before[seat]
    with pytest.raises(error) as info:
        match.act(seat, action)
    assert type(info.value) is error and isinstance(info.value, IllegalAction)
    assert info.value.code == error.code and error.code != IllegalAction.code
    assert match.to_json() == before
    assert {s: match.legal_actions(s) for s in range(match.players)} == legal_before


def test_error_codes_are_distinct() -> None:
    kinds = [e for e in vars(errors).values() if isinstance(e, type)]
    codes = [e.code for e in kinds if issubclass(e, IllegalAction)]
    assert len(codes) == len(set(codes))


def test_a_lay_of_one_open_tile_is_the_play_it_spells() -> None:
    match, seat, _ = end_required()
    same, _, _ = end_required()
    assert match.act(seat, Lay((Placement(t("1-2"), "right"),))) == same.act(
        seat, Play(t("1-2"), "right")
    )


def test_refused_action_then_legal_action_still_works() -> None:
    match, seat, action = end_required()
    with pytest.raises(errors.EndRequired):
        match.act(seat, action)
    events = match.act(seat, Play(t("1-2"), "right"))
    assert [e.to_dict()["ends"] for e in events if e.to_dict()["type"] == "played"] == [[1, 1]]
    assert match.current_seat == 1
