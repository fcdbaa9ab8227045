"""Every Kozel worked example of RULES.md §4.1 (K-1 … K-11), with the spec's numbers.

Each example is checked through the scoring/lead functions and, where a whole round makes sense,
by setting up the position in a ``Match`` and playing the last tile (Masha=0, Alex=1, Olya=2,
Serg=3 in the individual examples).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import KNOCK, Line, Match, Play, RuleSet, revisions
from engine.deal import redeal_reason
from engine.errors import EndRequired, GameOver, WrongLead
from engine.leads import compulsory_leads, first_lead, later_leader
from engine.rules import FishMode
from engine.scoring.kozel import (
    Tally,
    fish_amounts,
    fish_taker,
    hand_value,
    record,
    score_round,
    side_values,
)
from engine.scoring.rating import rating_delta, round_half_up, timeout_rating_delta

from .support import dicts, of_type, position, t, tiles

MASHA, ALEX, OLYA, SERG = 0, 1, 2, 3
DEFAULT = RuleSet()


def unopened(*memory: int) -> Tally:
    return Tally((0,) * len(memory), tuple(memory), (False,) * len(memory), 0)


def new_match(players: int = 4, pairs: bool = False, **options: Any) -> Match:
    return Match(players, pairs, RuleSet(**options), seed=7)


def ended(events: list[Any]) -> dict[str, Any]:
    (result,) = of_type(events, "round_ended")
    return result


def next_round(events: list[Any]) -> dict[str, Any]:
    (started,) = of_type(events, "round_started")
    return started


# --- K-1 -------------------------------------------------------------------------------------


def test_k1_out_with_memorized_points() -> None:
    before = unopened(19, 0, 7, 4)
    after = record(before, [0, 3, 13, 5], DEFAULT)
    assert after.memory == (0, 3, 0, 9)
    assert after.scores == (0, 0, 20, 0)
    assert after.opened == (False, False, True, False)

    scored = score_round(before, [0, 3, 13, 5], DEFAULT, result="out", winner=MASHA)
    assert not scored.eggs and scored.goats == []
    assert scored.amounts == [0, 3, 13, 5]
    assert scored.tally == after


def test_k1_whole_round_masha_goes_out() -> None:
    match = new_match()
    position(
        match,
        hands=["6-6", "0-1 0-2", "5-5 0-3", "1-4"],
        chain=["3-4", "4-6"],
        turn=MASHA,
        tally=unopened(19, 0, 7, 4),
    )
    events = match.act(MASHA, Play(t("6-6")))
    result = ended(events)
    assert (result["result"], result["winner"], result["fisherman"]) == ("out", MASHA, None)
    assert result["hand_values"] == [0, 3, 13, 5]
    assert result["amounts"] == [0, 3, 13, 5]
    assert result["memory"] == [0, 3, 0, 9]
    assert result["scores"] == [0, 0, 20, 0]
    assert result["opened"] == [False, False, True, False]
    # §2.6: the player who went out leads the next round, with any tile.
    started = next_round(events)
    assert (started["leader"], started["lead_tiles"]) == (MASHA, None)
    assert match.current_seat == MASHA


# --- K-2 -------------------------------------------------------------------------------------

# A line whose ends are 6 and 5 with five 6-tiles down; 5-6 on the 5 end closes it on 6 (§1.9).
CLOSING_ON_6 = ["6-0", "0-1", "1-6", "6-2", "2-3", "3-6", "6-4", "4-5"]


def test_k2_fish_for_one() -> None:
    values = [2, 3, 13, 5]
    assert sum(values) == 23
    assert fish_amounts(values, DEFAULT) == [0, 0, 23, 0]
    scored = score_round(unopened(19, 0, 7, 4), values, DEFAULT, result="fish", winner=None)
    assert scored.amounts == [0, 0, 23, 0]
    assert scored.tally.scores == (0, 0, 30, 0)
    assert scored.tally.opened == (False, False, True, False)
    assert scored.tally.memory == (0, 0, 0, 0)  # the others' memorized points reset
    # Opened scores of the other players are unchanged.
    alex_opened = Tally((0, 40, 0, 0), (19, 0, 7, 4), (False, True, False, False), 0)
    scored = score_round(alex_opened, values, DEFAULT, result="fish", winner=None)
    assert scored.tally.scores == (0, 40, 30, 0)
    assert scored.tally.memory == (0, 0, 0, 0)


def test_k2_whole_round_serg_makes_the_fish() -> None:
    match = new_match()
    rnd = position(
        match,
        hands=["0-2", "1-2", "1-4 3-5", "0-5 5-6"],
        chain=CLOSING_ON_6,
        turn=SERG,
        last_placer=OLYA,
        tally=unopened(19, 0, 7, 4),
    )
    before = match.to_json()
    with pytest.raises(EndRequired):  # 5-6 fits both the 6 end and the 5 end
        match.act(SERG, Play(t("5-6")))
    assert match.to_json() == before
    events = match.act(SERG, Play(t("5-6"), "right"))
    assert rnd.outcome == "fish"
    result = ended(events)
    assert (result["result"], result["winner"], result["fisherman"]) == ("fish", None, SERG)
    assert result["hand_values"] == [2, 3, 13, 5]
    assert result["amounts"] == [0, 0, 23, 0]
    assert result["scores"] == [0, 0, 30, 0]
    assert result["memory"] == [0, 0, 0, 0]
    assert result["opened"] == [False, False, True, False]
    assert result["eggs"] is False and result["pot"] == 0
    # §2.6: the fisherman leads the next round.
    assert next_round(events)["leader"] == SERG


# --- K-3 / K-3b ------------------------------------------------------------------------------


def test_k3_eggs_tie_in_fish_for_one() -> None:
    values = [3, 14, 14, 4]
    assert fish_amounts(values, DEFAULT) is None
    scored = score_round(unopened(0, 0, 0, 0), values, DEFAULT, result="fish", winner=None)
    assert scored.eggs and scored.amounts is None
    assert scored.tally == Tally((0, 0, 0, 0), (0, 0, 0, 0), (False,) * 4, 35)
    # Memorized points survive an eggs round (FLAG in §2.7.4: the spec keeps them).
    scored = score_round(unopened(5, 0, 7, 0), values, DEFAULT, result="fish", winner=None)
    assert scored.tally == Tally((0, 0, 0, 0), (5, 0, 7, 0), (False,) * 4, 35)
    # Another fish with a shared maximum adds its total to the pot, which carries on.
    again = score_round(scored.tally, [3, 5, 5, 4], DEFAULT, result="fish", winner=None)
    assert again.eggs and again.tally.pot == 35 + 17
    assert again.tally.memory == (5, 0, 7, 0)


def test_k3b_pot_goes_to_the_largest_amount_next_round() -> None:
    pot = Tally((0, 0, 0, 0), (0, 0, 0, 0), (False,) * 4, 35)
    scored = score_round(pot, [0, 5, 9, 2], DEFAULT, result="out", winner=MASHA)
    assert scored.amounts == [0, 5, 44, 2]
    assert scored.pot_awarded_to == OLYA
    assert scored.tally == Tally((0, 0, 44, 0), (0, 5, 0, 2), (False, False, True, False), 0)


def test_k3b_pot_carries_on_when_the_largest_amount_is_shared() -> None:
    """§2.7.4 FLAG: an "out" round with a tie for the largest amount carries the pot again."""
    pot = Tally((0, 0, 0, 0), (0, 0, 0, 0), (False,) * 4, 35)
    scored = score_round(pot, [0, 5, 5, 2], DEFAULT, result="out", winner=MASHA)
    assert scored.amounts == [0, 5, 5, 2] and scored.pot_awarded_to is None
    assert scored.tally == Tally((0, 0, 0, 0), (0, 5, 5, 2), (False,) * 4, 35)


def test_k3b_pot_to_next_winner_option() -> None:
    """``eggs = pot_to_next_winner`` (§NI, literal): the side that wins the next round takes it."""
    rules = RuleSet(eggs="pot_to_next_winner")
    pot = Tally((0, 0, 0, 0), (0, 0, 0, 0), (False,) * 4, 35)
    scored = score_round(pot, [0, 5, 9, 2], rules, result="out", winner=MASHA)
    assert scored.amounts == [35, 5, 9, 2] and scored.pot_awarded_to == MASHA
    assert scored.tally == Tally((35, 0, 0, 0), (0, 5, 9, 2), (True, False, False, False), 0)


def test_k3b_pot_to_next_winner_after_a_fish_with_a_shared_lowest_hand() -> None:
    """After a fish the "winner" is the side with the lowest hand; when that is shared nobody won,
    so the pot carries on to the next round's winner (§2.7.4 FLAG, engine decision)."""
    match = new_match(eggs="pot_to_next_winner")
    pot = Tally((0, 0, 0, 0), (0, 0, 0, 0), (False,) * 4, 35)
    hands = ["1-2", "0-3", "1-4 3-5", "0-5 5-6"]
    position(match, hands=hands, chain=CLOSING_ON_6, turn=SERG, tally=pot)
    result = ended(match.act(SERG, Play(t("5-6"), "right")))
    assert result["hand_values"] == [3, 3, 13, 5]  # Masha and Alex share the lowest hand
    assert result["amounts"] == [0, 0, 24, 0] and result["eggs"] is False
    assert result["pot_awarded_to"] is None and result["pot"] == 35
    assert result["scores"] == [0, 0, 24, 0]

    # Alex goes out next round: his 0 plus the pot opens his score.
    position(
        match,
        number=match.rounds_played + 1,
        hands=["0-5", "3-3", "4-5", "0-2"],
        chain=["2-3"],
        turn=ALEX,
    )
    result = ended(match.act(ALEX, Play(t("3-3"))))
    assert result["amounts"] == [5, 35, 9, 2]
    assert result["pot_awarded_to"] == ALEX and result["pot"] == 0
    assert result["scores"] == [0, 35, 33, 0]  # Olya had opened: her 9 count

    # A lowest hand of its own wins the fish, and the pot with it.
    rules = RuleSet(eggs="pot_to_next_winner")
    scored = score_round(pot, [2, 3, 13, 5], rules, result="fish", winner=None)
    assert scored.pot_awarded_to == MASHA and scored.amounts == [35, 0, 23, 0]


def test_k3_and_k3b_whole_rounds() -> None:
    match = new_match()
    position(
        match,
        hands=["0-3", "5-5 0-4", "3-4 2-5", "1-3 5-6"],
        chain=CLOSING_ON_6,
        turn=SERG,
        tally=unopened(0, 0, 0, 0),
    )
    events = match.act(SERG, Play(t("5-6"), "right"))
    result = ended(events)
    assert result["result"] == "fish" and result["fisherman"] == SERG
    assert result["hand_values"] == [3, 14, 14, 4]
    assert result["eggs"] is True and result["amounts"] is None
    assert result["pot"] == 35
    assert result["scores"] == [0, 0, 0, 0] and result["memory"] == [0, 0, 0, 0]
    assert result["opened"] == [False] * 4
    assert next_round(events)["leader"] == SERG  # after eggs the fisherman leads (§2.6)

    # K-3b: the next round Masha goes out; Alex 5, Olya 9, Serg 2.
    position(
        match,
        number=match.rounds_played + 1,
        hands=["3-3", "0-5", "4-5", "0-2"],
        chain=["2-3"],
        turn=MASHA,
    )
    result = ended(match.act(MASHA, Play(t("3-3"))))
    assert result["amounts"] == [0, 5, 44, 2]
    assert result["pot_awarded_to"] == OLYA and result["pot"] == 0
    assert result["scores"] == [0, 0, 44, 0]
    assert result["opened"] == [False, False, True, False]
    assert result["memory"] == [0, 5, 0, 2]


def test_k3_second_eggs_round_grows_the_pot() -> None:
    match = new_match()
    position(
        match,
        hands=["0-3", "5-5 0-4", "3-4 2-5", "1-3 5-6"],
        chain=CLOSING_ON_6,
        turn=SERG,
        tally=unopened(0, 0, 0, 0),
    )
    match.act(SERG, Play(t("5-6"), "right"))
    position(
        match,
        number=match.rounds_played + 1,
        hands=["0-3", "1-4", "0-5", "1-3 5-6"],
        chain=CLOSING_ON_6,
        turn=SERG,
    )
    result = ended(match.act(SERG, Play(t("5-6"), "right")))
    assert result["hand_values"] == [3, 5, 5, 4]
    assert result["eggs"] is True and result["pot"] == 35 + 17


# --- K-4 -------------------------------------------------------------------------------------


def test_k4_fish_for_everyone() -> None:
    rules = RuleSet(fish_mode="for_everyone")
    assert fish_amounts([2, 3, 13, 5], rules) == [2, 3, 13, 5]
    scored = score_round(unopened(0, 0, 7, 0), [2, 3, 13, 5], rules, result="fish", winner=None)
    assert not scored.eggs
    assert scored.tally == Tally((0, 0, 20, 0), (2, 3, 0, 5), (False, False, True, False), 0)
    # Eggs cannot occur in a fish for everyone.
    assert fish_amounts([3, 14, 14, 4], rules) == [3, 14, 14, 4]


@pytest.mark.parametrize(
    ("mode", "values", "taker"),
    [
        ("for_one", [2, 3, 13, 5], 2),
        ("for_one", [3, 14, 14, 4], None),  # eggs
        ("for_everyone", [2, 3, 13, 5], None),
        ("lowest_wins", [2, 3, 13, 5], None),
    ],
)
def test_the_side_that_takes_a_fish_for_one_is_the_one_its_amounts_charge(
    mode: FishMode, values: list[int], taker: int | None
) -> None:
    """The result message names who takes every hand's points (``fish_taker``): the side whose
    amount the scoring makes the total, and nobody at eggs or under the other modes."""
    rules = RuleSet(fish_mode=mode)
    assert fish_taker(values, rules) == taker
    amounts = fish_amounts(values, rules)
    if taker is not None:
        assert amounts == [sum(values) if s == taker else 0 for s in range(len(values))]


def test_k4_whole_round_fish_for_everyone() -> None:
    match = new_match(fish_mode="for_everyone")
    position(
        match,
        hands=["0-2", "1-2", "1-4 3-5", "0-5 5-6"],
        chain=CLOSING_ON_6,
        turn=SERG,
        tally=unopened(0, 0, 7, 0),
    )
    result = ended(match.act(SERG, Play(t("5-6"), "right")))
    assert result["result"] == "fish" and result["fisherman"] == SERG
    assert result["amounts"] == [2, 3, 13, 5]
    assert result["memory"] == [2, 3, 0, 5]
    assert result["scores"] == [0, 0, 20, 0]
    assert result["opened"] == [False, False, True, False]


# --- K-5 -------------------------------------------------------------------------------------


def test_k5_rating() -> None:
    assert rating_delta(25) == 8  # (100 − 25)/10 = 7.5 → +8
    assert timeout_rating_delta(32, 30) == 1  # 0.2 → 0, at least 1
    assert timeout_rating_delta(32, 13) == 2  # 1.9 → 2
    # Half away from zero (§0.2): 7.5 → 8, −0.5 → −1; the formula applies as written above 100.
    assert round_half_up(75, 10) == 8 and round_half_up(-5, 10) == -1
    assert rating_delta(105) == -1 and rating_delta(100) == 0 and rating_delta(0) == 10
    assert timeout_rating_delta(10, 90) == 1


# --- K-6 -------------------------------------------------------------------------------------

# 2-4 … 5-2 with 1-2, 2-6, 0-2, 2-3 inside: every non-double of suit 2 is down.
K6_CHAIN = ["2-4", "4-1", "1-2", "2-6", "6-0", "0-2", "2-3", "3-5", "5-2"]


def test_k6_fish_by_closure_line() -> None:
    line = Line.from_chain([(int(x[0]), int(x[2])) for x in K6_CHAIN])
    assert line.ends == (2, 2)
    assert {str(x) for x in line.tiles()} >= {"1-2", "2-6", "0-2", "2-3", "2-4", "2-5"}
    assert line.closed_on() == 2

    # Built tile by tile, the line closes only with the last tile.
    built = Line()
    built.place(t("2-4"), "left")
    for text in K6_CHAIN[1:-1]:
        built.place(t(text), "right")
        assert built.closed_on() is None
    assert built.ends == (2, 5)
    assert built.fits(t("2-5")) == ("left", "right")
    built.place(t("2-5"), "right")
    assert built.ends == (2, 2) and built.closed_on() == 2

    # Ends equal but a suit tile still out: not closed.
    open_line = Line.from_chain([(2, 4), (4, 1), (1, 2)])
    assert open_line.ends == (2, 2) and open_line.closed_on() is None
    # With both ends equal a tile has one distinct placement.
    assert open_line.fits(t("2-5")) == ("left",) and open_line.fits(t("3-5")) == ()


@pytest.mark.parametrize("where", ["bazaar", "hand", "table"])
def test_k6_fish_by_closure_wherever_2_2_is(where: str) -> None:
    chain = K6_CHAIN[:-1]
    if where == "table":
        chain = ["2-4", "4-1", "1-2", "2-2", "2-6", "6-0", "0-2", "2-3", "3-5"]
    if where == "bazaar":  # 2 players with a bazaar still holding 2-2
        match = new_match(players=2)
        position(match, hands=["2-5 0-0", "1-1 6-6"], chain=chain, bazaar="2-2 3-3", turn=0)
        placer = 0
    else:
        match = new_match(players=4)
        hands = ["2-2 1-1" if where == "hand" else "1-1", "3-3", "2-5 6-6", "4-4"]
        position(match, hands=hands, chain=chain, turn=2)
        placer = 2
    events = match.act(placer, Play(t("5-2"), "right"))
    result = ended(events)
    assert (result["result"], result["fisherman"], result["winner"]) == ("fish", placer, None)
    assert next_round(events)["leader"] == placer
    # the closed suit, for the result to say why 2-2 off the table was never played
    assert result.get("closure_suit") == (None if where == "table" else 2)


def test_k6_no_closure_when_the_rule_is_off() -> None:
    match = new_match(players=4, fish_closure_rule=False)
    rnd = position(match, hands=["2-2 1-1", "3-3", "2-5 6-6", "4-4"], chain=K6_CHAIN[:-1], turn=2)
    events = match.act(2, Play(t("5-2"), "right"))
    assert of_type(events, "round_ended") == []
    assert rnd.outcome is None and match.current_seat == 3
    # Seat 0 can still play 2-2; once nobody can move it is a fish (generic test).
    assert match.legal_actions(3) == [KNOCK]
    match.act(3, KNOCK)
    result = ended(match.act(0, Play(t("2-2"))))
    assert result["result"] == "fish" and result["fisherman"] == 0


# --- K-7 -------------------------------------------------------------------------------------


def test_k7_first_lead_chain() -> None:
    # (a) 1-1 in the bazaar; P0 holds 2-2, P1 holds 4-4: P0 must lead 2-2.
    assert first_lead([tiles("2-2 0-1 3-5"), tiles("4-4 0-2")], DEFAULT) == (
        0,
        [t("2-2")],
        "next_double",
    )
    # (b) nobody holds 1-1 … 6-6; P1 holds 0-0.
    assert first_lead([tiles("0-1 3-5"), tiles("0-0 2-4")], DEFAULT) == (
        1,
        [t("0-0")],
        "zero_zero_last",
    )
    # (c) no doubles dealt, 5-6 in the bazaar: P0's 4-6 outranks P1's 3-6 and 4-5.
    assert first_lead([tiles("4-6 0-1"), tiles("3-6 4-5")], DEFAULT) == (
        0,
        [t("4-6")],
        "highest_tile",
    )
    # The chain prefers 2-2 to 0-0 …
    assert first_lead([tiles("2-2 0-1"), tiles("0-0 1-2")], DEFAULT)[:2] == (0, [t("2-2")])


def test_k7_four_players_lead_1_1() -> None:
    for seed in range(20):
        match, events = Match.new(4, seed=seed)
        started = of_type(events, "round_started")[0]
        holder = next(s for s, h in enumerate(started["hands"]) if "1-1" in h)
        assert (started["leader"], started["lead_tiles"]) == (holder, ["1-1"])
        hands = [tiles(" ".join(h)) for h in started["hands"]]
        assert first_lead(hands, DEFAULT) == (holder, [t("1-1")], "one_one")
        other = Play(next(x for x in hands[holder] if x != t("1-1")))
        before = match.to_json()
        with pytest.raises(WrongLead):
            match.act(holder, other)
        assert match.to_json() == before
        assert match.legal_actions(holder) == [Play(t("1-1"))]


def test_k7_lowest_incl_00() -> None:
    rules = RuleSet(first_lead="lowest_incl_00")
    assert first_lead([tiles("0-1 3-5"), tiles("0-0 2-4")], rules) == (
        1,
        [t("0-0")],
        "lowest_double",
    )
    assert first_lead([tiles("2-2 0-1"), tiles("0-0 1-2")], rules)[:2] == (1, [t("0-0")])
    # No doubles at all: the lowest non-double (0-1 < 0-2 < 1-2 < 0-3 …).
    assert first_lead([tiles("1-2 4-6"), tiles("0-2 5-6")], rules) == (1, [t("0-2")], "lowest_tile")


@pytest.mark.parametrize("first", ["lowest_incl_00", "one_one_four_else_lowest_double"])
def test_after_an_unrecorded_round_1_1_leads_whatever_the_first_lead(first: str) -> None:
    """§2.6 ``restart_1_1_after_unrecorded``: "the next round is again led by the holder of 1-1,
    as in §2.3", though ``first_lead`` led the match's first round from 0-0. Under revision 1 of
    the rules' code the restart followed ``first_lead`` (``revisions.py``)."""
    for revision, lead in ((revisions.current(), (1, ["1-1"])), (1, (0, ["0-0"]))):
        rules = RuleSet(restart_1_1_after_unrecorded=True, revision=revision)
        rules = rules.with_options(first_lead=first)
        match = Match(2, False, rules, seed=15)
        position(match, hands=["2-4", "0-1 0-3"], chain=["1-2"], turn=0)
        events = match.act(0, Play(t("2-4")))
        assert (ended(events)["amounts"], ended(events)["opened"]) == ([0, 4], [False, False])
        started = next_round(events)
        assert "0-0" in started["hands"][0] and "1-1" in started["hands"][1]
        assert (started["leader"], started["lead_tiles"]) == lead, revision


# --- K-8 -------------------------------------------------------------------------------------

K8_FIVE_DOUBLES = tiles("0-0 1-1 2-2 3-3 4-4 0-1 0-2")
K8_SIX_OF_SUIT_3 = tiles("0-3 1-3 2-3 3-3 3-4 3-5 6-6")
K8_NO_REDEAL = tiles("1-1 0-1 1-2 1-3 1-4 2-5 6-6")


@pytest.mark.parametrize("rule", ["doubles_or_suit", "doubles_only"])
def test_k8_redeal(rule: str) -> None:
    rules = RuleSet(redeal_rule=rule)  # type: ignore[arg-type]
    assert redeal_reason(K8_FIVE_DOUBLES, rules) == "doubles"
    assert redeal_reason(K8_SIX_OF_SUIT_3, rules) == ("suit" if rule == "doubles_or_suit" else None)
    assert redeal_reason(K8_NO_REDEAL, rules) is None


# --- K-9 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lone_00", "value"), [(10, 10), (25, 25)])
def test_k9_lone_00(lone_00: int, value: int) -> None:
    rules = RuleSet(lone_00=lone_00)
    assert hand_value([t("0-0")], rules) == value
    assert hand_value(tiles("0-0 1-2"), rules) == 3
    after = record(unopened(0, 0), [0, value], rules)
    if lone_00 == 10:
        assert after == Tally((0, 0), (0, 10), (False, False), 0)
    else:
        assert after == Tally((0, 25), (0, 0), (False, True), 0)


@pytest.mark.parametrize("lone_00", [10, 25])
def test_k9_whole_round_loser_left_with_0_0(lone_00: int) -> None:
    match = new_match(players=2, lone_00=lone_00)
    position(match, hands=["2-4", "0-0"], chain=["1-2"], turn=0)
    result = ended(match.act(0, Play(t("2-4"))))
    assert result["hand_values"] == [0, lone_00]
    if lone_00 == 10:
        assert (result["memory"], result["scores"], result["opened"]) == (
            [0, 10],
            [0, 0],
            [False, False],
        )
    else:
        assert (result["memory"], result["scores"], result["opened"]) == (
            [0, 0],
            [0, 25],
            [False, True],
        )
    match = new_match(players=2, lone_00=lone_00)
    position(match, hands=["2-4", "0-0 1-2"], chain=["1-2"], turn=0)
    assert ended(match.act(0, Play(t("2-4"))))["hand_values"] == [0, 3]


# --- K-10 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("next_lead", "leader"), [("winner", 0), ("winner_partner", 2)])
def test_k10_special_bones_pair_kozel(next_lead: str, leader: int) -> None:
    rules = RuleSet(special_bones=True, next_lead=next_lead)  # type: ignore[arg-type]
    match = Match(4, True, rules, seed=3)
    position(match, hands=["0-0", "6-6 4-5", "0-6 5-5", "2-6 3-4"], turn=1)
    match.act(1, Play(t("6-6")))  # seat 1 went out last round, so any tile may lead
    match.act(2, Play(t("0-6")))
    match.act(3, Play(t("2-6")))
    events = match.act(0, Play(t("0-0")))  # seat 0 goes out on 0-0
    result = ended(events)
    assert (result["result"], result["winner"]) == ("out", 0)
    assert result["hand_values"] == [0, 16]  # seat 2's 5-5 is ignored; B: 4-5 + 3-4
    assert result["amounts"] == [0, 16 + 50 + 25]
    assert result["scores"] == [0, 91] and result["opened"] == [False, True]
    assert next_round(events)["leader"] == leader
    assert later_leader(4, True, 0, None, rules) == leader
    # The functions agree: partner ignored, lead 6-6 and finish 0-0 bonuses.
    left = [[], tiles("4-5"), tiles("5-5"), tiles("3-4")]
    values = side_values(left, True, rules, ignore_seat=2)
    assert values == [0, 16]
    scored = score_round(
        unopened(0, 0), values, rules, result="out", winner=0, lead=t("6-6"), last=t("0-0")
    )
    assert scored.amounts == [0, 91]


def test_k10_special_bones_lone_tiles_and_compulsory_double() -> None:
    rules = RuleSet(special_bones=True, lone_00=10, lone_66=12)
    assert hand_value([t("6-6")], rules) == 50 and hand_value([t("0-0")], rules) == 25
    team = RuleSet(lead_tile="double_if_held")
    assert compulsory_leads(tiles("3-3 0-0 1-2"), team) == tiles("3-3 0-0")
    assert compulsory_leads(tiles("6-6 0-0 1-2"), team) is None  # 0-0 / 6-6 never compulsory
    assert compulsory_leads(tiles("1-2 4-5"), team) is None


@pytest.mark.parametrize(
    ("first", "lead"),
    [("chain_1_1", "3-4"), ("one_one_four_else_lowest_double", "3-4"), ("lowest_incl_00", "0-1")],
)
def test_k10_special_bones_never_force_a_6_6_or_0_0_lead(first: str, lead: str) -> None:
    """§2.7.5 "Данными дублями открытие игры необязательно": the first-lead order skips them and
    goes on to the non-doubles."""
    hands = [tiles("0-0 6-6 1-2"), tiles("0-1 3-4")]
    plain = RuleSet(first_lead=first)  # type: ignore[arg-type]
    assert first_lead(hands, plain)[0] == 0
    assert first_lead(hands, plain.with_options(special_bones=True)) == (
        1,
        [t(lead)],
        "special_bones",
    )


def test_k10_special_bones_first_round_led_past_6_6() -> None:
    # Seed 4033 deals seat 0 both 0-0 and 6-6 and nobody 1-1 … 5-5: without special bones seat 0
    # must lead 6-6; with them the order goes on to the highest non-double, seat 1's 5-6.
    (plain,) = of_type(Match.new(2, rules=DEFAULT, seed=4033)[1], "round_started")
    assert (plain["leader"], plain["lead_tiles"]) == (0, ["6-6"])
    match, events = Match.new(2, rules=RuleSet(special_bones=True), seed=4033)
    (started,) = of_type(events, "round_started")
    assert started["hands"] == plain["hands"]
    assert (started["leader"], started["lead_tiles"]) == (1, ["5-6"])
    assert match.current_seat == 1 and match.legal_actions(1) == [Play(t("5-6"))]


# --- K-11 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("serg_score", "serg_hand", "losers", "scores"),
    [(0, "0-2", [ALEX], [0, 101, 0, 0]), (99, "1-3", [ALEX, SERG], [0, 101, 0, 103])],
)
def test_k11_goat(serg_score: int, serg_hand: str, losers: list[int], scores: list[int]) -> None:
    serg_open = serg_score > 0
    tally = Tally((0, 95, 0, serg_score), (0, 0, 0, 0), (False, True, False, serg_open), 0)
    values = [0, 6, 1, hand_value(tiles(serg_hand), DEFAULT)]
    scored = score_round(tally, values, DEFAULT, result="out", winner=MASHA)
    assert scored.goats == losers

    match = new_match()
    position(match, hands=["3-3", "1-5", "0-1", serg_hand], chain=["2-3"], turn=MASHA, tally=tally)
    events = match.act(MASHA, Play(t("3-3")))
    assert [d["type"] for d in dicts(events)] == ["played", "round_ended", "match_ended"]
    assert ended(events)["scores"] == scores
    (over,) = of_type(events, "match_ended")
    assert over["losers"] == losers and over["scores"] == scores
    assert match.is_over and match.losers == losers and match.current_seat is None
    assert all(match.legal_actions(s) == [] for s in range(4))
    before = match.to_json()
    with pytest.raises(GameOver):
        match.act(ALEX, Play(t("1-5")))
    assert match.to_json() == before
