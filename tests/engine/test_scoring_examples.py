"""The worked examples of RULES.md §4.5-§4.8 about scoring, leads and the match's end, with the
spec's numbers: through the arithmetic of ``scoring/fives.py`` and, where a table makes sense,
by setting up the position in a ``Match`` of the game and playing the move."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine import Lay, Match, Play, RuleSet, Tile, replay
from engine.actions import Placement
from engine.ai import random_player
from engine.errors import OneTilePerMove, TileDoesNotFit, WrongLead
from engine.games import game_of
from engine.layout import End
from engine.leads import opening_lead
from engine.rules import KOZEL_FIRST_LEADS, PRESETS, option_choices
from engine.scoring import fives
from engine.scoring.bonus import Bonus
from engine.scoring.tally import Tally

from .support import dicts, layout_position, of_type, scoring_table, t, tiles

P0, P1, P2, P3 = 0, 1, 2, 3


def ended(events: list[Any]) -> dict[str, Any]:
    (result,) = of_type(events, "round_ended")
    return result


# A line 1 … 6 showing 6 on both ends; with no 6 left in any hand, a 6-6 on it blocks the round.
SIXES: list[tuple[str, End]] = [("1-6", "left"), ("0-1", "left"), ("0-6", "left")]


# --- the arithmetic ---------------------------------------------------------------------------


def test_m_g_round5_rounds_to_the_nearest_five() -> None:
    assert [fives.round_to(x, 5) for x in (3, 22, 23, 26, 29)] == [5, 20, 25, 25, 30]
    assert [fives.round_to(x, 3) for x in (4, 5, 26)] == [3, 6, 27]


def test_tel_2_ceil_div5() -> None:
    telephone = game_of(PRESETS["telephone"]()).bonus("out", PRESETS["telephone"]())
    assert telephone is not None
    assert [telephone.paid(x, 0) for x in (23, 20, 21)] == [5, 4, 5]


def test_a_bonus_rounds_to_the_nearest_multiple_down_or_up() -> None:
    assert [Bonus("opponents", 5).rounded(x) for x in (22, 23)] == [20, 25]
    assert [Bonus("opponents", 5, "down").rounded(x) for x in (23, 25)] == [20, 25]
    assert [Bonus("opponents", 5, "up").rounded(x) for x in (21, 25)] == [25, 25]
    assert Bonus("opponents", 3).rounded(26) == 27 and Bonus("opponents").rounded(26) == 26


def test_floor5() -> None:
    assert [fives.floor5(x) for x in (18, 23, 4, 20)] == [15, 20, 0, 20]


def test_move_points_full_divided_and_threes() -> None:
    full, divided = PRESETS["muggins"](), PRESETS["telephone"]()
    threes = PRESETS["all_threes"]()
    assert [fives.move_points(s, full) for s in (15, 20, 25, 13, 0)] == [15, 20, 25, 0, 0]
    assert [fives.move_points(s, divided) for s in (15, 20, 25, 13, 0)] == [3, 4, 5, 0, 0]
    assert [fives.move_points(s, threes) for s in (9, 12, 10, 0)] == [9, 12, 0, 0]


# --- §4.5 Telephone -------------------------------------------------------------------------


def test_tel_2_going_out_scores_the_others_pips_divided_by_5_rounded_up() -> None:
    match = scoring_table("telephone", 3)
    layout_position(match, hands=["6-2", "3-5 4-4", "1-2 2-2"], lays=[("1-6", "left")], turn=P0)
    events = match.act(P0, Play(t("6-2")))
    result = ended(events)
    assert result["result"] == "out" and result["winner"] == P0
    assert result["hand_values"] == [0, 16, 7]
    assert result["amounts"] == [5, 0, 0] and result["scores"] == [5, 0, 0]
    assert "memory" not in result and "eggs" not in result and "pot" not in result


def test_telephone_block_lowest_hand_wins_the_bonus_and_a_tie_wins_nothing() -> None:
    match = scoring_table("telephone", 3)
    layout_position(match, hands=["6-6 1-2", "0-5", "2-4 1-4"], lays=SIXES, turn=P0)
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["result"] == "fish" and result["fisherman"] == P0 and result["winner"] == P0
    assert result["amounts"] == [4, 0, 0]  # (5 + 11) / 5, rounded up

    tie = scoring_table("telephone", 3)
    layout_position(tie, hands=["6-6 1-2", "0-3", "2-4 1-4"], lays=SIXES, turn=P0)
    result = ended(tie.act(P0, Play(t("6-6"))))
    assert result["winner"] is None and result["amounts"] == [0, 0, 0]


def test_tel_3_leads_score_in_full() -> None:
    for lead, points in (("6-4", 10), ("3-2", 5)):
        match = scoring_table("telephone_ua")
        layout_position(match, hands=[f"{lead} 0-1", "1-1"], lays=[], turn=P0)
        (played, *_) = dicts(match.act(P0, Play(t(lead))))
        assert played["scored"] == points and played["scores"] == [points, 0]


def test_tel_3_write_off_floor5_and_no_debts() -> None:
    assert fives.write_off(100, 18) == 85  # 6-4 and 5-3 left: 15 written off
    assert fives.write_off(10, 18) == 0
    assert fives.write_off(0, 18) == 0
    match = scoring_table("telephone_ua")
    layout_position(
        match, hands=["3-4", "6-4 5-3"], lays=[("1-2", "left"), ("2-3", "right")], turn=P0
    )
    match.tally = Tally((40, 100), (0, 0), (False, False))
    events = dicts(match.act(P0, Play(t("3-4"))))
    assert events[0]["scored"] == 5  # ends 1 and 4
    result = ended(events)
    assert result["amounts"] == [0, -15] and result["scores"] == [45, 85]
    assert result["winner"] == P0


def test_tel_3_both_sides_past_225_at_the_end_of_a_game_is_a_draw() -> None:
    match = scoring_table("telephone_ua")
    layout_position(
        match,
        hands=["3-4", "0-4"],
        lays=[("1-2", "left"), ("2-3", "right")],
        turn=P0,
        scores=(220, 240),
    )
    events = dicts(match.act(P0, Play(t("3-4"))))
    assert [e["type"] for e in events] == ["played", "round_ended", "match_ended"]
    assert events[-1] == {
        "type": "match_ended",
        "losers": [],
        "scores": [225, 240],
        "ended_by": "draw",
        "winners": [],
    }
    assert match.is_over and match.winners == [] and match.losers == []


def test_telephone_ua_passing_225_in_play_waits_for_the_end_of_the_game() -> None:
    match = scoring_table("telephone_ua")
    layout_position(
        match,
        hands=["3-4 6-6", "0-4"],
        lays=[("1-2", "left"), ("2-3", "right")],
        turn=P0,
        scores=(220, 100),
    )
    events = dicts(match.act(P0, Play(t("3-4"))))
    assert [e["type"] for e in events] == ["played"] and events[0]["scores"] == [225, 100]
    assert not match.is_over


def test_telephone_reaching_72_in_play_wins_at_once() -> None:
    match = scoring_table("telephone", 2)
    layout_position(
        match,
        hands=["3-4 6-6", "0-4"],
        lays=[("1-2", "left"), ("2-3", "right")],
        turn=P0,
        scores=(71, 10),
    )
    events = dicts(match.act(P0, Play(t("3-4"))))
    assert events[0]["scored"] == 1  # S = 5, divided by 5
    assert events[-1]["winners"] == [0] and events[-1]["ended_by"] == "target"


def test_telephone_ua_3_2_leads_the_match_else_the_kozel_chain() -> None:
    rules = PRESETS["telephone_ua"]()
    hands = [tiles("1-1 0-4"), tiles("2-3 5-5")]
    assert opening_lead(hands, rules, seed=1) == (1, [t("2-3")], "three_two")
    no_32 = [tiles("2-2 0-4"), tiles("1-1 5-5")]
    assert opening_lead(no_32, rules, seed=1) == (1, [t("1-1")], "no_three_two")


# --- §4.6 Muggins ---------------------------------------------------------------------------


def test_m_e_block_bonus_is_round5_of_the_difference_divided_by_5() -> None:
    rules = PRESETS["muggins"]()
    assert game_of(rules).bonus("fish", rules) == Bonus("less_winner", 5, divided=True)
    assert Bonus("less_winner", 5, divided=True).paid(5 + 11 + 13, 3) == 5
    match = scoring_table("muggins", 4)
    layout_position(
        match,
        hands=["6-6 1-2", "0-5", "2-4 1-4", "3-5 2-3"],
        lays=SIXES,
        turn=P0,
        scores=(7, 0, 0, 0),
    )
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["result"] == "fish" and result["winner"] == P0
    assert result["hand_values"] == [3, 5, 11, 13]
    assert result["amounts"] == [5, 0, 0, 0] and result["scores"] == [12, 0, 0, 0]


def test_m_f_full_bonus_rounds_the_losers_pips_without_subtracting() -> None:
    rules = PRESETS["muggins"]().with_options(muggins_bonus="full")
    full = game_of(rules).bonus("fish", rules)
    assert full is not None and full.paid(29, 3) == 30
    match = scoring_table("muggins", 4, muggins_bonus="full")
    layout_position(match, hands=["6-6 1-2", "0-5", "2-4 1-4", "3-5 2-3"], lays=SIXES, turn=P0)
    assert ended(match.act(P0, Play(t("6-6"))))["amounts"] == [30, 0, 0, 0]


def test_muggins_going_out_takes_the_opponents_pips_and_ignores_the_partner() -> None:
    match = scoring_table("muggins", 4, pairs=True)
    layout_position(
        match,
        hands=["6-2", "0-5 3-5", "2-4 1-4", "3-4 2-3"],
        lays=[("1-6", "left")],
        turn=P0,
    )
    result = ended(match.act(P0, Play(t("6-2"))))
    # Opponents are seats 1 and 3: 13 + 12 = 25, round5 25, /5 = 5; partner's 11 ignored.
    assert result["amounts"] == [5, 0] and result["hand_values"] == [11, 25]


#: Muggins pair games blocked by 6-6 (``SIXES``), by each seat in turn, where both partners of
#: seats 0 and 2 are left with 3 pips, the lightest hands; the opponents hold 5 and 13.
PARTNERS_TIED: dict[int, list[str]] = {
    P0: ["6-6 1-2", "0-5", "0-3", "3-5 2-3"],
    P1: ["1-2", "6-6 0-5", "0-3", "3-5 2-3"],
    P2: ["0-3", "0-5", "6-6 1-2", "3-5 2-3"],
}


@pytest.mark.parametrize("game", ["muggins", "all_threes"])
@pytest.mark.parametrize(("blocker", "winner"), [(P0, P0), (P2, P2), (P1, P0)])
def test_partners_who_share_the_lightest_hand_win_the_block_for_their_side(
    game: str, blocker: int, winner: int
) -> None:
    """§3.6: at a block the one with the fewest pips wins; when both partners of one side hold
    them, that is no tie between sides, so their side wins (``LIGHTEST_PARTNERS_WIN``). The
    winner is the one who made the block, or if the other side made it, the side's first seat
    (FLAG)."""
    match = scoring_table(game, 4, pairs=True)
    layout_position(match, hands=PARTNERS_TIED[blocker], lays=SIXES, turn=blocker)
    result = ended(match.act(blocker, Play(t("6-6"))))
    assert result["result"] == "fish" and result["fisherman"] == blocker
    assert result["winner"] == winner and result["hand_values"] == [6, 18]
    assert result["won_by"] == "lightest_partners"
    # Muggins: round5(5 + 13 − 3) / 5 = 3; All Threes: round3(15) / 3 = 5
    assert result["amounts"] == [3 if game == "muggins" else 5, 0]


def test_a_block_where_players_of_both_sides_share_the_lightest_hand_wins_nothing() -> None:
    match = scoring_table("muggins", 4, pairs=True)
    layout_position(match, hands=["6-6 1-2", "0-3", "2-4 1-4", "3-5 2-3"], lays=SIXES, turn=P0)
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["winner"] is None and result["amounts"] == [0, 0]


def test_all_threes_bonus_counts_in_threes_unless_kept_as_fives() -> None:
    threes = PRESETS["all_threes"]()
    counted = game_of(threes).bonus("out", threes)
    assert counted is not None and counted.paid(26, 0) == 9  # round3 27 / 3
    kept = threes.with_options(threes_bonus="fives")
    as_fives = game_of(kept).bonus("out", kept)
    assert as_fives is not None and as_fives.paid(26, 0) == 5  # round5 25 / 5


def test_muggins_first_leader_is_drawn_by_lot_and_may_lead_any_tile() -> None:
    rules = PRESETS["muggins"]()
    hands = [tiles("1-1"), tiles("2-2"), tiles("3-3")]
    leaders = {opening_lead(hands, rules, seed)[0] for seed in range(30)}
    assert leaders == {0, 1, 2}  # the lot, not the hands, decides
    assert opening_lead(hands, rules, 5) == opening_lead(hands, rules, 5)
    assert opening_lead(hands, rules, 5)[1] is None
    _, events = Match.new(3, False, rules, seed=11)
    (started,) = of_type(events, "round_started")
    assert started["lead_tiles"] is None and started["leader"] == opening_lead(hands, rules, 11)[0]


def test_muggins_target_choices() -> None:
    with pytest.raises(ValueError, match=re.escape("100 | 250 | 500")):
        PRESETS["muggins"]().with_options(target=120)
    assert PRESETS["muggins"]().with_options(target=250).target == 250


# --- §4.7 Bulgarian fives -------------------------------------------------------------------


def test_bg_3_highest_double_leads_else_highest_non_double() -> None:
    rules = PRESETS["bulgarian_fives"]()
    assert opening_lead([tiles("5-6 1-2"), tiles("0-0 3-4")], rules, 0)[:2] == (1, [t("0-0")])
    assert opening_lead([tiles("6-6 1-2"), tiles("5-5 3-4")], rules, 0) == (
        0,
        [t("6-6")],
        "highest_double",
    )
    assert opening_lead([tiles("4-5 1-2"), tiles("3-6 0-1")], rules, 0) == (
        1,
        [t("3-6")],
        "highest_tile",
    )
    match, _ = Match.new(2, False, rules, seed=4)
    rnd = match.round
    assert rnd is not None and rnd.lead_tiles is not None
    (lead,) = rnd.lead_tiles
    other = next(x for x in rnd.hands[rnd.leader] if x != lead)
    with pytest.raises(WrongLead):
        match.act(rnd.leader, Play(other))


def test_bulgarian_leads_every_round_by_the_highest_tile() -> None:
    rules = PRESETS["bulgarian_fives"]()
    match, events = Match.new(2, False, rules, seed=8)
    rng = random.Random(8)
    while (seat := match.current_seat) is not None:
        events += match.act(seat, random_player(match, seat, rng))
    starts = of_type(events, "round_started")
    assert len(starts) > 1
    for start in starts:
        hands = [[Tile.parse(x) for x in h] for h in start["hands"]]
        assert (start["leader"], start["lead_tiles"]) == (
            opening_lead(hands, rules, 0)[0],
            [str(x) for x in opening_lead(hands, rules, 0)[1] or []],
        )


@pytest.mark.parametrize("seed", range(4))
def test_bulgarian_lead_is_placed_for_its_leader_and_no_other_games(seed: int) -> None:
    """§3.8: "The first tile is placed automatically and ends that player's turn": the match
    names the one lead to place, and none once it is placed; Kozel's leader, told which tile
    too, lays it himself."""
    match, _ = Match.new(2, False, PRESETS["bulgarian_fives"](), seed=seed)
    rnd = match.round
    assert rnd is not None and rnd.lead_tiles is not None
    assert match.placed_lead() == Play(rnd.lead_tiles[0])
    match.act(rnd.leader, Play(rnd.lead_tiles[0]))
    assert match.placed_lead() is None
    kozel, _ = Match.new(2, False, RuleSet(), seed=seed)
    assert kozel.round is not None and kozel.round.lead_tiles is not None
    assert kozel.placed_lead() is None


def test_bg_4_domino_scores_the_opponents_pips_floor5() -> None:
    match = scoring_table("bulgarian_fives")
    layout_position(match, hands=["6-2", "6-6 5-5 0-1"], lays=[("1-6", "left")], turn=P0)
    result = ended(match.act(P0, Play(t("6-2"))))
    assert result["amounts"] == [20, 0]


def test_bg_5_block_winner_scores_floor5_minus_own_pips_and_may_go_negative() -> None:
    match = scoring_table("bulgarian_fives")
    layout_position(match, hands=["6-6 1-2", "0-4"], lays=SIXES, turn=P0, scores=(10, 10))
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["winner"] == P0 and result["amounts"] == [-3, 0]
    assert result["scores"] == [7, 10]


@pytest.mark.parametrize(
    ("hands", "winner", "amounts", "won_by"),
    [
        (["6-6 1-2", "0-4"], P0, [-3, 0], "lightest"),  # BG-5: fewer pips
        (["6-6 0-2 1-1", "0-4"], P1, [0, -4], "fewer_tiles"),  # equal pips; floor5(4) - 4
        (["6-6 0-3", "1-2"], P0, [-3, 0], "last_tile"),  # and equal tiles
    ],
)
def test_bg_5_tie_breaks(hands: list[str], winner: int, amounts: list[int], won_by: str) -> None:
    """§3.8: the fewer pips win a block, then fewer tiles, then the last tile's player; the
    round's end records which of them decided it, for the result to say."""
    match = scoring_table("bulgarian_fives")
    layout_position(match, hands=hands, lays=SIXES, turn=P0)
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["winner"] == winner and result["amounts"] == amounts
    assert result["won_by"] == won_by


@pytest.mark.parametrize(
    ("hands", "scores", "winner", "amounts", "won_by"),
    [
        # P1 holds 14 pips to P0's 3, but has more points: floor5(3) − 14
        (["6-6 1-2", "0-4 5-5"], (10, 30), P1, [0, -14], "most_points"),
        (["6-6 1-2 0-2", "0-4"], (30, 30), P1, [0, 1], "fewer_tiles"),  # floor5(5) − 4
        (["6-6 1-2", "0-4"], (30, 30), P0, [-3, 0], "last_tile"),  # floor5(4) − 3
    ],
)
def test_bg_block_winner_literally_the_most_points(
    hands: list[str], scores: tuple[int, int], winner: int, amounts: list[int], won_by: str
) -> None:
    """§3.8 ``literal_most_points``: the player with more points in the match wins a block,
    whoever holds fewer pips; equal points go to the same tie-breaks, and the round's end
    records which decided it."""
    match = scoring_table("bulgarian_fives", bg_block_winner="literal_most_points")
    layout_position(match, hands=hands, lays=SIXES, turn=P0, scores=scores)
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["winner"] == winner and result["amounts"] == amounts
    assert result["won_by"] == won_by


@pytest.mark.parametrize(
    ("name", "value"), [("bazaar_reserve", 2), ("draw_mode", "one_per_turn"), ("draw_mode", "none")]
)
def test_bulgarian_refuses_a_stock_it_does_not_draw_from(name: str, value: Any) -> None:
    """§3.8: a player without a playable tile "draws one tile at a time until he gets a playable
    tile", and "every stock tile is drawable: no reserve"; other games may take either option."""
    with pytest.raises(ValueError, match=name):
        PRESETS["bulgarian_fives"]().with_options(**{name: value})
    assert option_choices(name, "bulgarian_fives") == (PRESETS["bulgarian_fives"]().option(name),)
    assert PRESETS["muggins"]().with_options(**{name: value}).option(name) == value


def test_bg_6_reaching_100_ends_the_game_in_the_middle_of_the_round() -> None:
    match = scoring_table("bulgarian_fives")
    layout_position(
        match,
        hands=["3-5 0-1", "2-2 4-4"],
        lays=[("1-5", "left"), ("1-3", "left")],
        turn=P0,
        scores=(95, 40),
    )
    events = dicts(match.act(P0, Play(t("3-5"), "left")))
    assert [e["type"] for e in events] == ["played", "match_ended"]
    assert events[0]["scored"] == 10 and events[0]["scores"] == [105, 40]
    assert events[1] == {
        "type": "match_ended",
        "losers": [1],
        "scores": [105, 40],
        "ended_by": "target",
        "winners": [0],
    }
    assert match.is_over and match.current_seat is None and match.legal_actions(P1) == []


# --- a match that ends in the middle of a round (§1.11) -----------------------------------


def bulgarian_at(scores: tuple[int, int], hands: list[str]) -> Match:
    """Bulgarian fives in its second round, P0 to play: 3-5 on the left scores 10 (§4.7)."""
    match = scoring_table("bulgarian_fives")
    lays: list[tuple[str, End]] = [("1-5", "left"), ("1-3", "left")]
    layout_position(match, hands=hands, lays=lays, turn=P0, scores=scores)
    return match


def test_a_move_that_wins_leaves_its_round_unfinished_and_counts_it() -> None:
    match = bulgarian_at((20, 40), ["3-5 0-1", "2-2 4-4"])
    match.act(P0, Play(t("3-5"), "left"))
    assert match.unfinished_round is None  # the match goes on
    match = bulgarian_at((95, 40), ["3-5 0-1", "2-2 4-4"])
    match.act(P0, Play(t("3-5"), "left"))
    assert match.unfinished_round is match.round and match.rounds_counted == 2


def test_a_move_that_wins_and_goes_out_leaves_its_round_unfinished_all_the_same() -> None:
    """The round is over on the table, but never scored: the match ended before its end."""
    match = bulgarian_at((95, 40), ["3-5", "2-2 4-4"])
    events = dicts(match.act(P0, Play(t("3-5"), "left")))
    assert [e["type"] for e in events] == ["played", "match_ended"]
    assert match.round is not None and match.round.ended
    assert match.unfinished_round is match.round and match.rounds_counted == 2


def test_a_timeout_leaves_its_round_unfinished_and_uncounted() -> None:
    match = bulgarian_at((20, 40), ["3-5 0-1", "2-2 4-4"])
    match.abandon(P1)
    assert match.unfinished_round is match.round and match.rounds_counted == 1


def test_a_match_a_round_end_ended_leaves_no_round_unfinished() -> None:
    match = scoring_table("telephone_ua")
    lays: list[tuple[str, End]] = [("1-2", "left"), ("2-3", "right")]
    layout_position(match, hands=["3-4", "0-4"], lays=lays, turn=P0, scores=(220, 240))
    match.act(P0, Play(t("3-4")))
    assert match.is_over and match.unfinished_round is None and match.rounds_counted == 2


# --- §4.8 English fives ---------------------------------------------------------------------


def test_e_2_going_out_scores_10() -> None:
    match = scoring_table("english_fives", 3)
    layout_position(match, hands=["6-2", "3-5 4-4", "1-2 0-0"], lays=[("1-6", "left")], turn=P0)
    assert ended(match.act(P0, Play(t("6-2"))))["amounts"] == [10, 0, 0]


def test_e_2_block_lowest_hand_scores_round5_of_the_difference() -> None:
    match = scoring_table("english_fives", 3)
    layout_position(match, hands=["6-6 1-3", "4-5", "3-4 2-3"], lays=SIXES, turn=P0)
    result = ended(match.act(P0, Play(t("6-6"))))
    assert result["hand_values"] == [4, 9, 12]
    assert result["amounts"] == [15, 0, 0]


# --- tables ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "pairs"),
    [
        ("bulgarian_fives", 3, False),
        ("bulgarian_fives", 4, True),
        ("telephone_ua", 3, False),
        ("telephone_ua", 4, False),
        ("telephone", 4, True),
        ("english_fives", 4, True),
        ("muggins", 3, True),
    ],
)
def test_tables_a_game_is_not_played_at(game: str, players: int, pairs: bool) -> None:
    with pytest.raises(ValueError):
        scoring_table(game, players, pairs)


@pytest.mark.parametrize(
    ("game", "players", "pairs", "size"),
    [
        ("telephone", 4, False, 7),
        ("telephone_ua", 4, True, 7),
        ("muggins", 4, True, 5),
        ("muggins", 3, False, 5),
        ("all_threes", 2, False, 7),
        ("english_fives", 3, False, 5),
        ("bulgarian_fives", 2, False, 7),
    ],
)
def test_hand_sizes(game: str, players: int, pairs: bool, size: int) -> None:
    match, events = Match.new(players, pairs, PRESETS[game](), seed=2)
    (started,) = of_type(events, "round_started")
    assert all(len(hand) == size for hand in started["hands"])
    assert len(started["bazaar"]) == 28 - players * size
    assert game_of(match.rules).name == game


# --- whole moves on the spinner's cross ------------------------------------------------------

# TEL-1's setup: lead 4-4 (the house), 4-6 on one long side, 4-3 on the other: ends 6 and 3,
# the house's arms empty and counting 0 (S = 9).
HOUSE: list[tuple[str, End]] = [("4-4", "left"), ("4-6", "right"), ("3-4", "left")]
TEL_1_MOVES: list[tuple[int, str, End]] = [
    (P0, "6-6", "right"),
    (P1, "4-5", "up"),
    (P0, "5-5", "up"),
]


def scored_moves(match: Match, moves: list[tuple[int, str, End]]) -> list[int]:
    scored = []
    for seat, tile, end in moves:
        (played, *_) = dicts(match.act(seat, Play(t(tile), end)))
        scored.append(played["scored"])
    return scored


@pytest.mark.parametrize(
    ("game", "points"), [("telephone", [3, 4, 5]), ("telephone_ua", [15, 20, 25])]
)
def test_tel_1_and_tel_3_the_house_in_play(game: str, points: list[int]) -> None:
    match = scoring_table(game)
    layout_position(match, hands=["6-6 5-5 0-0", "4-5 1-3"], lays=HOUSE, turn=P0)
    assert match.round is not None and match.round.layout.end_sum() == 9
    assert scored_moves(match, TEL_1_MOVES) == points
    assert list(match.tally.scores) == [points[0] + points[2], points[1]]


def test_tel_3_the_ukrainian_house_opens_its_arms_once_both_long_sides_are_covered() -> None:
    match = scoring_table("telephone_ua")
    layout_position(match, hands=["4-5 0-0", "1-1"], lays=HOUSE[:2], turn=P0)
    assert match.round is not None and set(match.round.layout.open_ends()) == {"left", "right"}


#: 3-2 led, then 2-2 on its 2 (the first double, at an end) and 3-3 on its 3, then 3-4 on the 3-3.
TWO_DOUBLES: list[tuple[str, End]] = [("2-3", "left"), ("2-2", "left"), ("3-3", "right")]


def test_the_ukrainian_house_is_the_first_double_covered_on_both_long_sides() -> None:
    """§3.5 (004 §TEL "Перший дубль, перекритий з обох сторін, оголошується «будинком»"): 2-2
    went down first but still ends the line; 3-3 is the first double covered on both long sides,
    so it is the house and tiles go on its two other sides."""
    match = scoring_table("telephone_ua")
    layout_position(match, hands=["3-4 1-1", "3-5 0-1"], lays=TWO_DOUBLES, turn=P0)
    rnd = match.round
    assert rnd is not None and set(rnd.layout.open_ends()) == {"left", "right"}
    (played,) = of_type(match.act(P0, Play(t("3-4"), "right")), "played")
    assert played["ends"] == {"left": 2, "right": 4, "up": 3, "down": 3}
    # S: 2-2 at the left end counts 4, the 4 counts 4; the house's empty arms count nothing
    assert played["scored"] == 0 and rnd.layout.end_sum() == 8
    (played,) = of_type(match.act(P1, Play(t("3-5"), "up")), "played")
    assert played["ends"] == {"left": 2, "right": 4, "up": 5, "down": 3}
    assert played["scored"] == 0  # 4 + 4 + 5 = 13


def test_a_ukrainian_telephone_started_before_revision_3_keeps_its_house_the_first_double() -> None:
    """The house as the first double placed, under which matches before revision 3 were played
    (``revisions.py``): 2-2 is it, and its arms stay shut while it ends the line."""
    match = Match(2, False, PRESETS["telephone_ua"]().under(2), seed=3)
    layout_position(match, hands=["3-4 1-1", "3-5 0-1"], lays=TWO_DOUBLES, turn=P0)
    (played,) = of_type(match.act(P0, Play(t("3-4"), "right")), "played")
    assert played["ends"] == {"left": 2, "right": 4}


MUGGINS_STEPS: list[tuple[int, str, End]] = [
    (P0, "5-5", "left"),  # a
    (P1, "0-5", "right"),  # b
    (P0, "3-5", "left"),  # c1
    (P1, "0-2", "right"),  # c2
    (P0, "4-5", "up"),  # d1
    (P1, "2-2", "right"),  # d2
    (P0, "2-5", "right"),  # d3
    (P1, "3-3", "left"),  # d4
]


@pytest.mark.parametrize(
    ("count", "points"),
    [("A", [10, 10, 0, 5, 0, 0, 0, 15]), ("B", [10, 10, 0, 15, 0, 0, 0, 20])],
)
def test_muggins_examples_a_to_d_in_both_arithmetics(count: str, points: list[int]) -> None:
    match = scoring_table("muggins", spinner_count=count)
    layout_position(match, hands=["5-5 3-5 4-5 2-5 0-4", "0-5 0-2 2-2 3-3 6-6"], lays=[], turn=P0)
    assert scored_moves(match, MUGGINS_STEPS) == points
    assert match.round is not None
    assert sorted(match.round.layout.open_ends().items()) == [
        ("down", 5),
        ("left", 3),
        ("right", 5),
        ("up", 4),
    ]


def test_bg_1_ends_2_2_and_1_score_5() -> None:
    match = scoring_table("bulgarian_fives")
    lays: list[tuple[str, End]] = [
        ("4-4", "left"),
        ("2-4", "left"),
        ("0-4", "right"),
        ("0-2", "right"),
    ]
    layout_position(match, hands=["1-4 6-6", "1-1"], lays=lays, turn=P0)
    assert scored_moves(match, [(P0, "1-4", "up")]) == [5]


def test_bg_2_an_end_6_and_the_double_2_2_score_10() -> None:
    match = scoring_table("bulgarian_fives")
    layout_position(match, hands=["2-2 6-6", "1-1"], lays=[("6-2", "left")], turn=P0)
    assert scored_moves(match, [(P0, "2-2", "left")]) == [10]  # the lead shows 2 on the left


def test_e_1_a_double_laid_crosswise_or_lengthwise() -> None:
    # The spinner 5-5 with 5-4 and 5-3 on its long sides: ends 4 and 3, the arms count 0.
    lays: list[tuple[str, End]] = [("5-5", "left"), ("4-5", "left"), ("3-5", "right")]
    crosswise, lengthwise = Play(t("3-3")), lay_lengthwise("3-3", "right")
    match = scoring_table("english_fives")
    layout_position(match, hands=["3-3 0-1", "1-4"], lays=lays, turn=P0)
    assert {crosswise, lengthwise} <= set(match.legal_actions(P0))
    (played, *_) = dicts(match.act(P0, crosswise))
    assert played["scored"] == 10  # 4 + 6
    match = scoring_table("english_fives")
    layout_position(match, hands=["3-3 0-1", "1-4"], lays=lays, turn=P0)
    (played, *_) = dicts(match.act(P0, lengthwise))
    assert played["scored"] == 0 and played["lengthwise"] is True  # 4 + 3 = 7
    assert match.round is not None and match.round.layout.end_sum() == 7


def lay_lengthwise(tile: str, end: End) -> Lay:
    return Lay((Placement(t(tile), end, lengthwise=True),))


def test_only_english_fives_lays_doubles_lengthwise() -> None:
    match = scoring_table("muggins")
    lays: list[tuple[str, End]] = [("5-5", "left"), ("4-5", "left"), ("3-5", "right")]
    layout_position(match, hands=["3-3 0-1", "1-4"], lays=lays, turn=P0)
    assert all(not isinstance(a, Lay) for a in match.legal_actions(P0))
    with pytest.raises(TileDoesNotFit):
        match.act(P0, lay_lengthwise("3-3", "right"))


def test_several_doubles_at_once_score_once_after_the_last() -> None:
    """The Telephone variant ``multi_double`` (§3.4): S is computed after all of them are down."""
    match = scoring_table("telephone", multi_double=4)
    layout_position(match, hands=["6-6 5-5 0-1", "4-5 2-3"], lays=HOUSE, turn=P1)
    match.act(P1, Play(t("4-5"), "up"))  # ends 3, 6 and 5 on the house's arm
    wanted = {(t("6-6"), "right"), (t("5-5"), "up")}
    (both,) = [
        a
        for a in match.legal_actions(P0)
        if isinstance(a, Lay) and {(p.tile, p.end) for p in a.placements} == wanted
    ]
    (played,) = of_type(match.act(P0, both), "played")
    assert played["tiles"] == [str(p.tile) for p in both.placements]
    assert played["ends_used"] == [p.end for p in both.placements]
    assert played["scored"] == 5  # 3 + 12 + 10 = 25, divided by 5
    assert match.current_seat == P1 and list(match.tally.scores) == [5, 0]


def test_one_tile_a_move_without_the_variant() -> None:
    match = scoring_table("telephone")
    layout_position(match, hands=["6-6 5-5 0-1", "4-5 1-2"], lays=HOUSE, turn=P0)
    with pytest.raises(OneTilePerMove):
        match.act(P0, Lay((Placement(t("6-6"), "right"), Placement(t("3-3"), "left"))))


def test_first_leads_a_game_may_choose() -> None:
    """Kozel keeps its three first leads (§2.3); the scoring games may take any, the lot too."""
    with pytest.raises(ValueError, match="first_lead"):
        RuleSet(first_lead="lot_lowest")
    assert PRESETS["telephone"]().with_options(first_lead="lot_lowest").first_lead == "lot_lowest"
    assert option_choices("first_lead") == KOZEL_FIRST_LEADS
    assert "three_two" in (option_choices("first_lead", "muggins") or ())
    assert option_choices("target", "muggins") == (100, 250, 500)
    assert option_choices("target", "english_fives") is None


def test_a_timeout_loses_a_scoring_match_for_its_side_and_the_others_win() -> None:
    match, events = Match.new(4, True, PRESETS["muggins"](), seed=5)
    ended = dicts(match.abandon(3))
    assert ended == [
        {
            "type": "match_ended",
            "losers": [1],
            "scores": [0, 0],
            "ended_by": "timeout",
            "winners": [0],
        }
    ]
    assert match.winners == [0] and match.losers == [1]
    assert replay([*dicts(events), *ended]).to_json() == match.to_json()
