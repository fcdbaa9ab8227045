"""Sea Goat (RULES.md §3.2): the worked examples SG-1 … SG-5 of §4.3 with the spec's numbers, each
option, and the decisions ``games/sea_goat.py`` documents, played as positions of a match."""

from __future__ import annotations

import json
import random
from io import StringIO
from typing import Any

import pytest

from engine import Lay, Match, Play, RuleSet, replay, revisions
from engine.actions import Placement
from engine.ai import PLAYERS, greedy_player
from engine.cli import main
from engine.events import MatchEnded, PlayedDoubles, RoundEnded
from engine.layout import End
from engine.leads import first_lead
from engine.rules import KOZEL_FIRST_LEADS, PRESETS
from engine.scoring.sea_goat import SeaState, hand_value, record
from engine.scoring.tally import Tally
from engine.search import StrongPlayer, utility
from engine.selfplay import play_match

from .support import layout_position, of_type, t, tiles

P0, P1 = 0, 1
#: A line showing 0 on the left and 6 on the right.
ZERO_SIX: list[tuple[str, End]] = [("1-6", "left"), ("0-1", "left")]
#: A line 1 … 6 showing 6 on both ends (no 6 left in the hands below: a 6-6 on it blocks).
SIXES: list[tuple[str, End]] = [("1-6", "left"), ("0-1", "left"), ("0-6", "left")]


def table(
    hands: list[str],
    lays: list[tuple[str, End]],
    *,
    turn: int = P0,
    scores: tuple[int, ...] = (0, 0),
    sea: SeaState | None = None,
    pairs: bool = False,
    **options: Any,
) -> Match:
    """A Sea Goat match in the middle of its second round, with ``scores`` and carried ``sea``."""
    match = Match(len(hands), pairs, PRESETS["sea_goat"]().with_options(**options), seed=3)
    layout_position(match, hands=hands, lays=lays, turn=turn)
    sides = len(scores)
    match.tally = Tally(scores, (0,) * sides, (False,) * sides, 0, sea)
    return match


def na_sto_table(hands: list[str], lays: list[tuple[str, End]], turn: int, **kw: Any) -> Match:
    """The holder P0 (40 points) has led 6-6 this round: "на сто"."""
    match = table(hands, [("6-6", "left"), *lays], turn=turn, scores=(40, 0), **kw)
    assert match.round is not None
    match.round.leader, match.round.lead = P0, t("6-6")
    return match


def ended(events: list[Any]) -> dict[str, Any]:
    (result,) = of_type(events, "round_ended")
    return result


def match_end(events: list[Any]) -> dict[str, Any] | None:
    found = of_type(events, "match_ended")
    return found[0] if found else None


# --- SG-1, SG-2, SG-3: the arithmetic ---------------------------------------------------------


def test_sg_1_special_hand_values() -> None:
    assert [hand_value(tiles(h)) for h in ("0-0", "6-6", "0-0 6-6", "0-0 1-2")] == [25, 50, 75, 3]
    assert hand_value(tiles("6-6 1-2")) == 15 and hand_value([]) == 0


def test_sg_2_only_one_side_holds_and_a_win_of_25_by_another_writes_off() -> None:
    scores = [0, 0]
    seen = []
    for winner, value in ((P0, 30), (P1, 20), (P0, 10), (P1, 27), (P1, 26)):
        scores, wrote = record(scores, winner, value)
        seen.append((list(scores), wrote))
    assert seen == [
        ([30, 0], False),
        ([30, 0], False),
        ([40, 0], False),
        ([0, 0], True),
        ([0, 26], False),
    ]


@pytest.mark.parametrize(("meaning", "winners", "losers"), [("win", [0], [1]), ("lose", [1], [0])])
def test_sg_3_the_holder_reaching_125_wins_or_under_002_loses(
    meaning: str, winners: list[int], losers: list[int]
) -> None:
    # P0 goes out on 2-6; the opponent holds 4-5 0-6, worth 15.
    match = table(["2-6", "4-5 0-6"], ZERO_SIX, scores=(110, 0), sg_125_meaning=meaning)
    events = match.act(P0, Play(t("2-6"), "right"))
    assert ended(events)["amounts"] == [15, 0] and ended(events)["scores"] == [125, 0]
    end = match_end(events)
    assert end is not None and end["ended_by"] == "target"
    assert end["winners"] == winners and end["losers"] == losers


def test_the_minimum_to_start_and_the_winners_partner_ignored_in_pairs() -> None:
    match = table(["2-6", "4-5 0-3", "5-5 6-5", "1-2"], ZERO_SIX, scores=(0, 0), pairs=True)
    result = ended(match.act(P0, Play(t("2-6"), "right")))
    # P2's 21 pips are ignored; the opponents hold 12 + 3 = 15 < 25: nothing recorded.
    assert result["hand_values"] == [0, 15] and result["scores"] == [0, 0]
    assert "outcome" not in result and match_end([]) is None


# --- SG-4: finishing on 0-0 / 6-6 --------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "move"),
    [
        ("0-0", Play(t("0-0"), "left")),
        ("6-6", Play(t("6-6"), "right")),
        ("0-0 6-6", Lay((Placement(t("0-0"), "left"), Placement(t("6-6"), "right")))),
    ],
)
def test_sg_4_going_out_on_0_0_6_6_or_both_wins_at_once(hand: str, move: Play | Lay) -> None:
    match = table([hand, "2-3"], ZERO_SIX, scores=(0, 40))
    events = match.act(P0, move)
    assert ended(events)["outcome"] == "instant_win"
    end = match_end(events)
    assert end is not None and end["ended_by"] == "instant_win" and end["winners"] == [0]
    assert replay_of(match).is_over


#: P0 goes out on 3-3 and 5-5 at once on a line 3 … 5; P1 holds 25 pips.
THREES_FIVES: tuple[list[str], list[tuple[str, End]]] = (
    ["3-3 5-5", "4-5 0-6 2-6 0-2"],
    [("3-5", "left")],
)
BOTH_35 = Lay((Placement(t("3-3"), "left"), Placement(t("5-5"), "right")))


def test_going_out_on_two_other_doubles_at_once_is_an_ordinary_win() -> None:
    events = table(*THREES_FIVES, scores=(0, 40)).act(P0, BOTH_35)
    result = ended(events)
    # an ordinary win worth 25 against the holder's 40: every score written off
    assert result["outcome"] == "writeoff" and result["scores"] == [0, 0]
    assert match_end(events) is None


def test_any_two_going_out_on_3_3_and_5_5_at_once_wins_the_match() -> None:
    match = table(*THREES_FIVES, scores=(0, 40), sg_double_finish="any_two")
    events = match.act(P0, BOTH_35)
    result = ended(events)
    assert result["outcome"] == "two_doubles" and result["scores"] == [0, 40]
    assert result["sea"]["match"] == {"winners": [0], "losers": [1], "ended_by": "two_doubles"}
    end = match_end(events)
    assert end is not None and end["ended_by"] == "two_doubles"
    assert (end["winners"], end["losers"]) == ([0], [1])
    again = replay_of(match)
    assert again.is_over and again.winners == [0] and again.rules.sg_double_finish == "any_two"


@pytest.mark.parametrize(("double_finish", "worth"), [("zero_six", 0.5), ("any_two", 1.0)])
def test_the_strong_players_search_values_the_finish_on_two_doubles(
    double_finish: str, worth: float
) -> None:
    """Under ``any_two`` the match is won (1); else the 40 are written off, level again."""
    match = table(*THREES_FIVES, scores=(0, 40), sg_double_finish=double_finish)
    match.act(P0, BOTH_35)
    assert utility(match, None, 0) == pytest.approx(worth)


def test_the_strong_player_takes_the_match_on_two_doubles_at_once() -> None:
    """Against the holder's 40 going out on 3-3 and 5-5 only levels the scores under the
    default, a close call for the search; under ``any_two`` it wins the match, always taken."""
    for seed in range(4):
        match = table(*THREES_FIVES, scores=(0, 40), sg_double_finish="any_two")
        assert StrongPlayer(playouts=6)(match, P0, random.Random(seed)) == BOTH_35


@pytest.mark.parametrize("double_finish", ["zero_six", "any_two"])
def test_0_0_with_6_6_at_once_wins_under_either_reading(double_finish: str) -> None:
    both = Lay((Placement(t("0-0"), "left"), Placement(t("6-6"), "right")))
    events = table(["0-0 6-6", "2-3"], ZERO_SIX, sg_double_finish=double_finish).act(P0, both)
    assert ended(events)["outcome"] == "instant_win"


@pytest.mark.parametrize("finish", ["ua", "penalty_002"])
def test_any_two_reads_only_auto_win(finish: str) -> None:
    match = table(*THREES_FIVES, sg_finish=finish, sg_double_finish="any_two")
    events = match.act(P0, BOTH_35)
    assert "outcome" not in ended(events) and ended(events)["scores"] == [25, 0]
    assert match_end(events) is None


def test_any_two_a_single_double_is_no_finish() -> None:
    match = table(["5-5", "4-5 0-6 2-6 0-2"], [("3-5", "left")], sg_double_finish="any_two")
    assert "outcome" not in ended(match.act(P0, Play(t("5-5"), "right")))


def test_both_doubles_at_once_are_one_legal_move_on_the_line() -> None:
    match = table(["0-0 6-6 2-3", "2-3"], ZERO_SIX)
    both = Lay((Placement(t("0-0"), "left"), Placement(t("6-6"), "right")))
    assert both in match.legal_actions(P0)
    (played,) = of_type(match.act(P0, both), "played")
    assert played["tiles"] == ["0-0", "6-6"] and played["ends_used"] == ["left", "right"]


def test_sg_4_ua_a_6_6_finish_against_18_pips_gives_na_sto_next_round() -> None:
    match = table(["6-6", "5-6 3-4"], ZERO_SIX, sg_finish="ua")
    events = match.act(P0, Play(t("6-6"), "right"))
    result = ended(events)
    assert "outcome" not in result and result["sea"]["na_sto"] == P0
    assert match_end(events) is None
    (started,) = of_type(events, "round_started")
    assert started["leader"] == P0


def test_ua_a_6_6_finish_against_25_wins_and_0_0_always() -> None:
    match = table(["6-6", "5-6 3-4 1-6"], ZERO_SIX, sg_finish="ua")
    assert ended(match.act(P0, Play(t("6-6"), "right")))["outcome"] == "instant_win"
    match = table(["0-0", "1-2"], ZERO_SIX, sg_finish="ua")
    assert ended(match.act(P0, Play(t("0-0"), "left")))["outcome"] == "instant_win"


def test_penalty_002_a_6_6_finish_zeroes_the_finisher_and_gives_the_loser_100() -> None:
    match = table(["6-6", "1-2"], ZERO_SIX, scores=(60, 0), sg_finish="penalty_002")
    result = ended(match.act(P0, Play(t("6-6"), "right")))
    assert result["outcome"] == "penalty_66" and result["scores"] == [0, 100]


# --- SG-5: "на сто" ---------------------------------------------------------------------------


def test_sg_5_the_holder_goes_out_on_his_na_sto_round_and_wins() -> None:
    match = na_sto_table(["6-3", "1-2 2-2"], [("2-6", "left")], turn=P0)
    events = match.act(P0, Play(t("6-3"), "right"))
    assert ended(events)["outcome"] == "na_sto_won"
    end = match_end(events)
    assert end is not None and end["ended_by"] == "na_sto" and end["winners"] == [0]


def test_sg_5_the_opponent_goes_out_and_every_score_is_written_off() -> None:
    match = na_sto_table(["5-5 4-4", "2-1"], [("2-6", "left")], turn=P1)
    events = match.act(P1, Play(t("2-1"), "left"))
    result = ended(events)
    assert result["outcome"] == "na_sto_lost" and result["scores"] == [0, 0]
    assert match_end(events) is None


@pytest.mark.parametrize(("hand", "loses"), [("5-5 4-4 3-4", True), ("5-5 4-4", False)])
def test_sg_5_svoyak_left_with_25_loses_the_match_with_less_a_write_off(
    hand: str, loses: bool
) -> None:
    match = na_sto_table([hand, "2-1"], [("2-6", "left")], turn=P1, sg_na_sto="svoyak")
    events = match.act(P1, Play(t("2-1"), "left"))
    end = match_end(events)
    if loses:
        assert end is not None and end["losers"] == [0] and end["winners"] == [1]
        assert end["ended_by"] == "na_sto"
    else:
        assert end is None and ended(events)["scores"] == [0, 0]


def test_a_fish_in_the_na_sto_round_loses_it() -> None:
    # 6-6, 1-6, 0-1 show 0 and 6; P1's 0-6 leaves 6 on both ends, and nobody holds a 6.
    lays: list[tuple[str, End]] = [("1-6", "left"), ("0-1", "left")]
    match = na_sto_table(["1-2 5-5", "0-6 3-4"], lays, turn=P1)
    result = ended(match.act(P1, Play(t("0-6"), "left")))
    assert result["result"] == "fish" and result["fisherman"] == P1
    assert result["outcome"] == "na_sto_lost" and result["scores"] == [0, 0]


def test_in_pairs_the_partner_going_out_wins_the_na_sto_round() -> None:
    match = table(
        ["1-2 2-2", "5-5", "6-3", "4-4"],
        [("6-6", "left"), ("2-6", "left")],
        turn=2,
        scores=(40, 0),
        pairs=True,
    )
    assert match.round is not None
    match.round.leader, match.round.lead = P0, t("6-6")
    events = match.act(2, Play(t("6-3"), "right"))
    assert ended(events)["outcome"] == "na_sto_won"
    end = match_end(events)
    assert end is not None and end["winners"] == [0]


def test_a_6_6_lead_by_a_side_without_points_is_no_na_sto() -> None:
    match = na_sto_table(["5-5 4-4", "2-1"], [("2-6", "left")], turn=P1)
    match.tally = Tally((0, 40), (0, 0), (False, False))
    result = ended(match.act(P1, Play(t("2-1"), "left")))
    assert "outcome" not in result and result["scores"] == [0, 58]


def test_greedy_leads_6_6_na_sto_only_with_three_more_sixes() -> None:
    for hand, leads_66 in (("6-6 5-5 4-4 0-1", False), ("6-6 6-5 6-4 6-3", True)):
        match = table([hand, "1-2"], [], scores=(40, 0))
        assert match.round is not None
        match.round.lead_tiles = None
        move = greedy_player(match, P0, random.Random(1))
        assert (isinstance(move, Play) and move.tile == t("6-6")) is leads_66


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("next_lead", "winner_partner"),
        ("lead_tile", "double_if_held"),
        ("restart_1_1_after_unrecorded", True),
    ],
)
def test_sea_goat_refuses_kozel_lead_options_it_does_not_play(name: str, value: Any) -> None:
    """§3.2.3: later rounds are led "by the winner or the fisherman, with any tile", the only
    exceptions "на сто" and eggs. The game played as if these were unset, yet accepted them."""
    with pytest.raises(ValueError, match=name):
        PRESETS["sea_goat"]().with_options(**{name: value})
    with pytest.raises(ValueError, match=name):
        PRESETS["sea_goat_pairs"]().with_options(**{name: value})
    assert PRESETS["kozel"]().with_options(**{name: value}).option(name) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("first_lead", "lot_lowest"),
        ("first_lead", "three_two"),
        ("first_lead", "highest_tile"),
        ("kozel_hand_sizes", "ht"),
    ],
)
def test_sea_goat_deals_and_leads_only_as_kozel_does(name: str, value: Any) -> None:
    """§3.2: "Everything not listed here follows Kozel: dealing, 7 tiles, lead rules". The
    scoring games' lot, 3-2 and highest tile led its first round; §HT's five tiles were accepted
    and seven dealt. Kozel's own first leads stay."""
    with pytest.raises(ValueError, match=name):
        PRESETS["sea_goat"]().with_options(**{name: value})
    for lead in KOZEL_FIRST_LEADS:
        assert PRESETS["sea_goat"]().with_options(first_lead=lead).first_lead == lead


# --- fish, the fisherman module, eggs ---------------------------------------------------------


def test_a_fish_the_lowest_hand_wins_and_the_fisherman_is_the_last_non_double_placer() -> None:
    match = table(["6-6 1-2", "0-5 4-5 3-5"], SIXES, turn=P0, scores=(0, 0))
    assert match.round is not None
    match.round.last_single_placer = P1
    result = ended(match.act(P0, Play(t("6-6"), "left")))
    assert result["result"] == "fish" and result["fisherman"] == P1
    assert result["winner"] == P0 and result["hand_values"] == [3, 22]
    assert result["won_by"] == "lightest"
    assert result["scores"] == [0, 0]  # 22 < 25: nothing recorded


def fish(hands: list[str], **kw: Any) -> tuple[Match, list[Any]]:
    """P1 placed the last non-double; P0 blocks the round with 6-6."""
    match = table(hands, SIXES, turn=P0, **kw)
    assert match.round is not None
    match.round.last_single_placer = P1
    return match, match.act(P0, Play(t("6-6"), "left"))


def test_eggs_the_pot_goes_to_the_next_winner() -> None:
    match, events = fish(["6-6 1-2", "0-3"])
    result = ended(events)
    assert result["outcome"] == "eggs" and result["winner"] is None
    assert result["sea"]["pot"] == 6 and result["fisherman"] == P1
    assert match.tally.sea == SeaState(pot=6)
    (started,) = of_type(events, "round_started")
    assert started["leader"] == P1 and started["lead_tiles"] is None
    match = table(["2-6", "4-5 0-6 2-3"], ZERO_SIX, sea=SeaState(pot=6))
    result = ended(match.act(P0, Play(t("2-6"), "right")))
    assert result["scores"] == [26, 0] and result["sea"]["pot"] == 0


def test_the_eggs_pot_is_read_alike_from_the_tally_and_from_the_round_end() -> None:
    """Sea Goat keeps its pot in its state (``sea``), Kozel in ``pot``: the board reads the live
    tally, a result told late reads its round end (``Tally.left_by``), and both find it."""
    match, events = fish(["6-6 1-2", "0-3"])
    (eggs,) = (event for event in events if isinstance(event, RoundEnded))
    assert match.tally.pot == 0 and match.tally.eggs == 6
    assert Tally.left_by(eggs).eggs == 6 and Tally.left_by(eggs) == match.tally
    kozel = RoundEnded(
        round=1,
        result="fish",
        winner=None,
        fisherman=0,
        eggs=True,
        hands=[[t("1-2")], [t("0-3")]],
        hand_values=[3, 3],
        amounts=None,
        scores=[0, 0],
        memory=[0, 0],
        opened=[False, False],
        pot=6,
    )
    assert Tally.left_by(kozel).eggs == 6 and Tally.fresh(2).eggs == 0


def test_ua_eggs_replay_from_1_1_and_rot_after_three_failed_attempts() -> None:
    match, events = fish(["6-6 1-2", "0-3"], sg_eggs="ua")
    (started,) = of_type(events, "round_started")
    chain = first_lead([tiles(" ".join(h)) for h in started["hands"]], match.rules).tiles
    assert started["lead_tiles"] == [str(x) for x in chain or []]
    _, events = fish(["6-6 1-2", "0-3"], sg_eggs="ua", sea=SeaState(pot=6, eggs_tries=1))
    assert ended(events)["sea"] == {
        "pot": 12,
        "eggs_tries": 2,
        "na_sto": None,
        "fisher": None,
        "fisher_tries": 0,
    }
    _, events = fish(["6-6 1-2", "0-3"], sg_eggs="ua", sea=SeaState(pot=6, eggs_tries=2))
    result = ended(events)
    assert result["outcome"] == "eggs_rotten" and result["sea"]["pot"] == 0


def test_ua_eggs_are_played_out_from_1_1_whatever_the_first_lead() -> None:
    """§3.2.5 "Eggs are played out starting from 1-1: the next round's lead uses the first-round
    chain of §2.3", though ``first_lead`` led the match's first round from 0-0. Under revision 1
    of the rules' code the replay followed ``first_lead`` (``revisions.py``)."""
    for revision, lead in ((revisions.current(), (1, ["1-1"])), (1, (0, ["0-0"]))):
        rules = RuleSet(game="sea_goat", multi_double=2, sg_eggs="ua", revision=revision)
        match = Match(2, False, rules.with_options(first_lead="lowest_incl_00"), seed=15)
        layout_position(match, hands=["6-6 1-2", "0-3"], lays=SIXES, turn=P0)
        assert match.round is not None
        match.round.last_single_placer = P1
        events = match.act(P0, Play(t("6-6"), "left"))
        assert ended(events)["outcome"] == "eggs"
        (started,) = of_type(events, "round_started")
        assert "0-0" in started["hands"][0] and "1-1" in started["hands"][1]
        assert (started["leader"], started["lead_tiles"]) == lead, revision


def test_fisherman_under_25_against_25_wins_and_gets_na_sto() -> None:
    _, events = fish(["6-6 2-5 4-5 3-5 2-2", "0-3"], sg_fish="ua_fisherman")
    result = ended(events)
    assert result["winner"] == P1 and result["scores"] == [0, 28]
    assert result["sea"]["na_sto"] == P1


def test_fisherman_over_25_writes_the_fish_off_and_has_three_attempts() -> None:
    _, events = fish(["6-6 0-3", "2-5 4-5 3-5 2-2"], sg_fish="ua_fisherman")
    result = ended(events)
    assert result["outcome"] == "fish_written_off" and result["winner"] is None
    assert result["sea"]["fisher"] == P1 and result["scores"] == [0, 0]
    # F (P1) wins a small round while O (P0) holds 30: the fish is a write-off.
    match = table(["4-5 0-6", "2-6"], ZERO_SIX, turn=P1, scores=(30, 0), sea=SeaState(fisher=P1))
    result = ended(match.act(P1, Play(t("2-6"), "right")))
    assert result["outcome"] == "fish_writeoff" and result["scores"] == [0, 0]
    # The third attempt fails: O (P0) earns "на сто".
    match = table(["2-6", "4-5"], ZERO_SIX, sea=SeaState(fisher=P1, fisher_tries=2))
    result = ended(match.act(P0, Play(t("2-6"), "right")))
    assert result["outcome"] == "fish_lost" and result["sea"]["na_sto"] == P0


@pytest.mark.parametrize("tries", [1, 2])
def test_a_second_fish_written_off_by_the_same_fisherman_has_three_attempts_of_its_own(
    tries: int,
) -> None:
    """§3.2.4 case 3: F writes the fish off and then has "the next 3 rounds". A second fish F
    writes off while his attempts run gets its own three, as a fish written off by the other
    player does; the count went on from the first fish's, and at its third attempt the new fish
    was lost at once, O leading "на сто". Revision 1 of the rules' code kept that count."""
    hands = ["6-6 0-3", "2-5 4-5 3-5 2-2"]
    sea = SeaState(fisher=P1, fisher_tries=tries)
    for revision, expected in (
        (revisions.current(), SeaState(fisher=P1, fisher_tries=0)),
        (1, SeaState(fisher=P1, fisher_tries=tries + 1) if tries < 2 else SeaState(na_sto=P0)),
    ):
        match = table(hands, SIXES, turn=P0, sea=sea, sg_fish="ua_fisherman")
        match.rules = match.rules.under(revision)
        assert match.round is not None
        match.round.last_single_placer = P1
        result = ended(match.act(P0, Play(t("6-6"), "left")))
        assert result["winner"] is None and result["scores"] == [0, 0]
        assert SeaState.from_dict(result["sea"]) == expected, revision


# --- the match carries its state: replay, JSON, computer players ------------------------------


def replay_of(match: Match) -> Match:
    """A match rebuilt from its JSON."""
    return Match.from_json(json.loads(json.dumps(match.to_json())))


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"sg_double_finish": "any_two"},
    {"sg_finish": "ua", "sg_na_sto": "svoyak", "sg_fish": "ua_fisherman", "sg_eggs": "ua"},
    {"sg_finish": "penalty_002", "sg_125_meaning": "lose"},
]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize(("players", "pairs"), [(2, False), (3, False), (4, True)])
def test_matches_replay_and_round_trip_through_json(
    options: dict[str, Any], players: int, pairs: bool
) -> None:
    outcomes: set[str] = set()
    for seed in range(6):
        rules = PRESETS["sea_goat"]().with_options(**options)
        ai = [PLAYERS["random" if seed % 2 else "greedy"]] * players
        events = list(play_match(players, pairs, rules, seed, ai))
        logged = [e.to_dict() for e in events]
        rebuilt = replay(json.loads(json.dumps(logged)))
        assert rebuilt.is_over and rebuilt.to_json() == replay_of(rebuilt).to_json()
        for e in logged:
            if e["type"] == "round_ended":
                outcomes.add(e.get("outcome", "-"))
                held = [s for s in e["scores"] if s > 0]
                assert len(held) <= 1
        assert logged[-1]["type"] == "match_ended"
    assert len(outcomes) >= 2


@pytest.mark.parametrize("names", [("random", "greedy"), ("easy", "strong")])
def test_every_computer_player_plays_sea_goat_with_two_doubles_at_once(
    names: tuple[str, str],
) -> None:
    kinds = {**PLAYERS, "strong": StrongPlayer(playouts=6)}
    rules = PRESETS["sea_goat"]().with_options(sg_target=60)
    doubles = 0
    for seed in range(3 if "strong" in names else 12):
        ai = [kinds[name] for name in names]
        *events, last = play_match(2, False, rules, seed, ai)
        assert isinstance(last, MatchEnded) and last.winners
        doubles += sum(isinstance(e, PlayedDoubles) for e in events)
    assert doubles > 0 or "strong" in names


def selfplay_pairs(seed: int, option: str) -> list[dict[str, Any]]:
    """The lines ``selfplay`` writes for two pairs with ``--set option``."""
    argv = ["selfplay", "--game", "sea_goat", "--players", "4", "--pairs", "--seed", str(seed)]
    out = StringIO()
    assert main([*argv, "--set", option], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_selfplay_writes_a_sea_goat_transcript_that_replays() -> None:
    lines = selfplay_pairs(9, "sg_fish=ua_fisherman")
    assert lines[0]["options"]["sg_fish"] == "ua_fisherman"
    assert lines[0]["options"]["multi_double"] == 2
    for line in lines:
        if line["type"] == "round_ended":
            assert {"sea", "hand_values", "amounts", "scores"} <= set(line)
            assert "memory" not in line
    assert lines[-1]["type"] == "match_ended" and replay(lines).is_over


def test_selfplay_sets_any_two_and_its_transcript_names_the_win_and_replays() -> None:
    lines = selfplay_pairs(17, "sg_double_finish=any_two")
    assert lines[0]["options"]["sg_double_finish"] == "any_two"
    assert lines[-2]["outcome"] == "two_doubles" and lines[-1]["ended_by"] == "two_doubles"
    rebuilt = replay(lines)
    assert rebuilt.is_over and rebuilt.rules.sg_double_finish == "any_two"
    assert Match.from_json(rebuilt.to_json()).to_json() == rebuilt.to_json()


def test_pairs_play_to_202_unless_the_options_chose_a_target() -> None:
    """RULES.md §3.2 rule 5: 125, and 202 for pairs (000 §NI: "играют двое против двоих до 202
    очков"); a target the table chose stands whoever plays, as in a log stored with it."""
    sea_goat = PRESETS["sea_goat"]()

    def played_to(players: int, pairs: bool, rules: RuleSet) -> int:
        match, events = Match.new(players, pairs, rules, seed=5)
        assert events[0].to_dict()["options"]["sg_target"] == match.game.target(match.rules)
        again = replay([e.to_dict() for e in events])
        return again.game.target(again.rules)

    assert played_to(4, True, sea_goat) == 202
    assert played_to(4, False, sea_goat) == played_to(2, False, sea_goat) == 125
    assert played_to(4, True, sea_goat.with_options(sg_target=125)) == 125
    assert played_to(2, False, sea_goat.with_options(sg_target=202)) == 202
    # the holder of two pairs at 150 plays on; at 202 his side wins
    match = table(["0-1", "2-3", "4-5", "1-2"], ZERO_SIX, pairs=True, scores=(150, 0))
    assert match.game.losers(match.tally, match.rules) == []
    match.tally = Tally((202, 0), (0, 0), (False, False), 0, None)
    assert match.game.losers(match.tally, match.rules) == [1]
