"""RULES.md §4.2 (Traditional) with the spec's numbers, and the decisions taken where §3.1, §3.10
and §3.11 are silent or marked FLAG: Traditional's leads, values and options, General's Goat's
loser, Generals, redealt fish and match end, Sport domino's rotating lead, deals and draw."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest

from engine import Lay, Match, Play, RuleSet, replay
from engine.actions import Placement
from engine.cli import main
from engine.events import MatchEnded, RoundEnded, RoundStarted
from engine.leads import traditional_lead
from engine.rules import PRESETS, parse_option
from engine.scoring.tally import Tally
from engine.scoring.traditional import fish, hand_value

from .support import position, t, tiles

TRADITIONAL = PRESETS["traditional"]()


def transcript(*argv: str) -> list[dict[str, Any]]:
    out = StringIO()
    assert main(["selfplay", *argv], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def table(game: str, players: int = 4, pairs: bool = False, **options: Any) -> Match:
    return Match(players, pairs, PRESETS[game]().with_options(**options), seed=5)


def ended(events: list[Any]) -> RoundEnded:
    (end,) = [e for e in events if isinstance(e, RoundEnded)]
    return end


def match_end(events: list[Any]) -> MatchEnded | None:
    found = [e for e in events if isinstance(e, MatchEnded)]
    return found[0] if found else None


def tally(*scores: int) -> Tally:
    return Tally(scores, (0,) * len(scores), (False,) * len(scores))


# --- Traditional (§3.1, §4.2) --------------------------------------------------------------


def test_tr1_the_winner_collects_the_losers_hands() -> None:
    # TR-1: the losers hold 4-1 (5), 3-6 (9) and 2-5 (7): the winner scores 21.
    match = table("traditional")
    position(match, hands=["3-3", "1-4", "3-6", "2-5"], chain=["3-0"], turn=0)
    end = ended(match.act(0, Play(t("3-3"))))
    assert (end.result, end.winner, end.amounts, end.scores) == (
        "out",
        0,
        [21, 0, 0, 0],
        [21, 0, 0, 0],
    )


def test_tr2_a_fish_pays_the_lowest_hand_the_difference() -> None:
    # TR-2: a fish between two, P0 holding 7 and P1 12: P0 scores 5.
    match = table("traditional", players=2)
    position(match, hands=["2-6 3-4", "5-5 1-1"], chain=["6-2"], turn=0)
    end = ended(match.act(0, Play(t("2-6"), "right")))
    assert end.result == "fish" and end.hand_values == [7, 12]
    assert (end.winner, end.amounts, end.won_by) == (0, [5, 0], "lightest")


def test_tr3_a_lone_0_0_is_worth_25_and_nothing_beside_other_tiles() -> None:
    # TR-3: {0-0} is worth 25; {0-0, 1-2} is worth 3.
    assert hand_value(tiles("0-0"), TRADITIONAL) == 25
    assert hand_value(tiles("0-0 1-2"), TRADITIONAL) == 3
    match = table("traditional", players=2)
    position(match, hands=["3-3", "0-0"], chain=["3-1"], turn=0)
    assert ended(match.act(0, Play(t("3-3")))).amounts == [25, 0]


def test_tr4_the_highest_dealt_double_leads_and_nobody_draws_for_one() -> None:
    # TR-4: 6-6 is in the bazaar and a player holds 5-5: he leads it.
    hands = [tiles("0-1 2-3 1-4"), tiles("5-5 0-2 3-4")]
    assert traditional_lead(hands, TRADITIONAL, 0) == (1, [t("5-5")], "highest_double")
    # No double dealt: the holder of 5-6 leads it.
    hands = [tiles("0-1 2-3 1-4"), tiles("0-2 5-6 3-4")]
    assert traditional_lead(hands, TRADITIONAL, 0) == (1, [t("5-6")], "highest_tile")


@pytest.mark.parametrize(
    ("lead", "want"),
    [
        ("zero_first", (1, "0-0", "zero_zero_first")),  # 0-0 before a dealt 6-6 (FLAG)
        ("highest_double", (0, "6-6", "highest_double")),
        ("lowest_double_no_00", (0, "2-2", "lowest_double_no_00")),  # 0-0 may not lead
        ("lowest_incl_00", (1, "0-0", "lowest_double")),
    ],
)
def test_each_traditional_lead(lead: str, want: tuple[int, str, str]) -> None:
    hands = [tiles("6-6 2-2 1-3"), tiles("0-0 4-5 1-2")]
    rules = TRADITIONAL.with_options(trad_lead=lead)
    assert traditional_lead(hands, rules, 0) == (want[0], [t(want[1])], want[2])


def test_zero_first_without_0_0_falls_back_to_the_highest_double() -> None:
    rules = TRADITIONAL.with_options(trad_lead="zero_first")
    assert traditional_lead([tiles("2-2 1-3"), tiles("4-4 1-2")], rules, 0)[:2] == (1, [t("4-4")])


def test_lowest_double_no_00_with_only_0_0_dealt_leads_the_lowest_non_double() -> None:
    rules = TRADITIONAL.with_options(trad_lead="lowest_double_no_00")
    assert traditional_lead([tiles("0-0 1-3"), tiles("0-2 1-2")], rules, 0)[:2] == (1, [t("0-2")])


def test_the_lot_is_the_seeds_and_leads_only_the_first_round() -> None:
    rules = TRADITIONAL.with_options(trad_lead="lot_heaviest")
    for seed in range(6):
        first, again = (Match.new(3, False, rules, seed)[1][-1] for _ in range(2))
        assert isinstance(first, RoundStarted) and first.lead_tiles is None
        assert first == again  # the same seed, the same lot
    # Later rounds: the winner of the last one leads, any tile.
    match = Match(2, False, rules, seed=1)
    position(match, hands=["3-3 4-4", "1-2"], chain=["3-1"], turn=1)
    events = match.act(1, Play(t("1-2")))
    (started,) = [e for e in events if isinstance(e, RoundStarted)]
    assert (started.leader, started.lead_tiles) == (1, None)


def test_later_rounds_are_led_by_the_lead_rule_again() -> None:
    match = table("traditional", players=2)
    position(match, hands=["3-3 4-4", "1-2"], chain=["3-1"], turn=1)
    events = match.act(1, Play(t("1-2")))
    (started,) = [e for e in events if isinstance(e, RoundStarted)]
    assert (started.leader, started.lead_tiles) == traditional_lead(started.hands, TRADITIONAL, 5)[
        :2
    ]


def test_a_fish_split_between_the_fewest_pips_scores_nothing() -> None:
    assert fish([5, 5, 9], TRADITIONAL) == (None, 0)


def test_fish_difference_and_per_player() -> None:
    # Hands 3, 7 and 10: the others' pips minus the winner's, or each one's minus the winner's.
    assert fish([3, 7, 10], TRADITIONAL) == (0, 14)
    assert fish([3, 7, 10], TRADITIONAL.with_options(trad_fish="per_player")) == (0, 11)


def test_the_always_options_keep_their_spelling() -> None:
    rules = RuleSet.from_dict({"game": "traditional", "00_always_25": True, "66_always_50": True})
    assert hand_value(tiles("0-0 1-2"), rules) == 28
    assert hand_value(tiles("6-6 1-2"), rules) == 53
    assert hand_value(tiles("6-6"), TRADITIONAL) == 12
    assert rules.to_dict()["00_always_25"] is True and "zero_zero_always_25" not in rules.to_dict()
    assert parse_option("66_always_50", "on", "traditional") is True
    assert TRADITIONAL.with_options(**{"00_always_25": True}).zero_zero_always_25


def test_the_ht_preset() -> None:
    ht = PRESETS["traditional_ht"]()
    assert (ht.target, ht.trad_lead, ht.option("00_always_25"), ht.option("66_always_50")) == (
        300,
        "lowest_incl_00",
        True,
        True,
    )
    assert traditional_lead([tiles("6-6 1-1"), tiles("0-0 2-3")], ht, 0)[:2] == (1, [t("0-0")])


def test_pairs_sum_partners_and_ignore_the_winners_partner() -> None:
    match = table("traditional", pairs=True)
    position(match, hands=["3-3", "1-4", "6-6", "2-5"], chain=["3-0"], turn=0)
    end = ended(match.act(0, Play(t("3-3"))))
    assert (end.amounts, end.hand_values) == ([12, 0], [12, 12])


def test_reaching_the_target_wins() -> None:
    match = table("traditional", players=2)
    position(match, hands=["3-3", "6-6 5-5"], chain=["3-1"], turn=0, tally=tally(90, 99))
    end = match_end(match.act(0, Play(t("3-3"))))
    assert end is not None and (end.winners, end.losers, end.ended_by) == ([0], [1], "target")


def test_extra_turn_after_double() -> None:
    for extra, after in ((True, 0), (False, 1)):
        match = table("traditional", players=2, extra_turn_after_double=extra)
        position(match, hands=["3-3 4-5", "1-2 6-6"], chain=["3-1"], turn=0, bazaar="0-0")
        match.act(0, Play(t("3-3")))
        assert match.current_seat == after


@pytest.mark.parametrize("game", sorted(set(PRESETS) - {"traditional", "traditional_ht"}))
def test_extra_turn_after_double_is_traditional_only(game: str) -> None:
    """§1.6: the extra turn after a double is Traditional's house rule. Another game would play it
    without its log saying so (``match_started.options``), so the log could not be replayed."""
    rules = PRESETS[game]()
    with pytest.raises(ValueError, match="extra_turn_after_double"):
        rules.with_options(extra_turn_after_double=True)
    with pytest.raises(ValueError, match="extra_turn_after_double"):
        parse_option("extra_turn_after_double", "true", rules.game)
    assert parse_option("extra_turn_after_double", "true", "traditional") is True


# --- General's Goat (§3.10) ----------------------------------------------------------------


def generals(**options: Any) -> Match:
    return table("generals_goat", pairs=True, **options)


def test_a_general_is_0_0_and_6_6_at_once() -> None:
    match = generals()
    position(match, hands=["0-0 6-6", "1-2", "3-4", "2-5"], chain=["0-1", "1-6"], turn=0)
    both = Lay((Placement(t("0-0"), "left"), Placement(t("6-6"), "right")))
    assert both in match.legal_actions(0)
    events = match.act(0, both)
    end = ended(events)
    assert (end.winner, end.loser, end.general, end.scores) == (0, 1, True, [0, 1])
    over = match_end(events)
    assert over is not None and (over.losers, over.winners, over.ended_by) == ([1], [0], "general")
    data = end.to_dict()
    assert (data["loser"], data["general"]) == (1, True) and "outcome" not in data


def test_one_of_the_two_is_a_general_only_with_either() -> None:
    for title, general in (("both_at_once", False), ("either", True)):
        match = generals(general_title=title)
        position(match, hands=["6-6", "1-2", "3-4", "2-5"], chain=["0-0", "0-6"], turn=0)
        events = match.act(0, Play(t("6-6")))
        assert ended(events).general is general
        assert (match_end(events) is not None) is general


def test_the_loser_is_the_next_player_and_two_lost_rounds_lose_the_match() -> None:
    for lost, over in ((0, False), (1, True)):
        match = generals()
        hands = ["2-2", "1-3", "3-4", "2-5"]
        position(match, hands=hands, chain=["2-1"], turn=0, tally=tally(0, lost))
        events = match.act(0, Play(t("2-2")))
        end = ended(events)
        assert (end.winner, end.loser, end.general, end.scores) == (0, 1, False, [0, lost + 1])
        assert end.amounts == [0, 1]
        ending = match_end(events)
        assert (ending is not None) is over
        if ending is not None:
            assert (ending.losers, ending.winners, ending.ended_by) == ([1], [0], "losses")


def test_a_fish_is_redealt_and_counts_for_nobody() -> None:
    match = generals()
    hands = ["5-6 3-4", "4-4", "3-3", "2-2"]
    position(match, hands=hands, chain=["1-0", "0-6"], turn=0, number=3, tally=tally(1, 0))
    events = match.act(0, Play(t("5-6")))
    end = ended(events)
    assert (end.result, end.outcome, end.loser, end.general) == ("fish", "redealt", None, None)
    assert (end.amounts, end.scores) == ([0, 0], [1, 0]) and match_end(events) is None
    (started,) = [e for e in events if isinstance(e, RoundStarted)]
    holder = next(seat for seat, hand in enumerate(started.hands) if t("1-1") in hand)
    assert (started.round, started.leader, started.lead_tiles) == (4, holder, [t("1-1")])


@pytest.mark.parametrize("first_lead", ["lowest_incl_00", "highest_tile", "lot_lowest"])
def test_1_1_leads_every_round_whatever_first_lead_says(first_lead: str) -> None:
    """§3.10 "Lead: always 1-1, every round", as Sport domino's rotating lead ignores the option
    too."""
    _, events = Match.new(4, True, generals().rules.with_options(first_lead=first_lead), 7)
    (started,) = [e for e in events if isinstance(e, RoundStarted)]
    holder = next(seat for seat, hand in enumerate(started.hands) if t("1-1") in hand)
    assert (started.leader, started.lead_tiles) == (holder, [t("1-1")])


# --- Sport domino (§3.11) ------------------------------------------------------------------


def test_sport_deals_rotate_the_lead_and_end_the_match() -> None:
    rules = PRESETS["sport"]().with_options(sport_deals=4)
    lines = transcript("--game", "sport", "--pairs", "--seed", "4", "--set", "sport_deals=4")
    started = [e for e in lines if e["type"] == "round_started"]
    assert [(e["round"], e["leader"], e["lead_tiles"]) for e in started] == [
        (k, (k - 1) % 4, None) for k in range(1, 5)
    ]
    assert (
        lines[0]["options"]["sport_deals"] == 4 and RuleSet.from_dict(lines[0]["options"]) == rules
    )
    last = lines[-1]
    best = last["scores"].index(min(last["scores"]))
    assert (last["ended_by"], last["winners"], last["losers"]) == ("deals", [best], [1 - best])
    assert replay(lines).is_over


def test_sport_writes_every_amount_and_an_even_score_is_a_draw() -> None:
    match = table("sport", pairs=True)
    # The last deal: seat 0 goes out; the other pair holds 5, which Kozel would only remember.
    hands = ["3-3", "1-4", "6-6", "0-0"]
    position(match, hands=hands, chain=["3-0"], turn=0, number=8, tally=tally(0, 0))
    events = match.act(0, Play(t("3-3")))
    end = ended(events)
    assert (end.amounts, end.scores, end.memory, end.opened) == ([0, 15], [0, 15], None, None)
    over = match_end(events)
    assert over is not None and (over.winners, over.losers, over.ended_by) == ([0], [1], "deals")
    match = table("sport", pairs=True)
    position(match, hands=hands, chain=["3-0"], turn=0, number=8, tally=tally(15, 0))
    over = match_end(match.act(0, Play(t("3-3"))))
    assert over is not None and (over.winners, over.losers, over.ended_by) == ([], [], "draw")


def test_sport_eggs_carry_a_pot() -> None:
    match = table("sport", pairs=True)
    # A fish where both pairs hold 12: eggs, the 24 go into the pot for a later deal.
    hands = ["5-6 2-4", "4-4", "3-3", "0-4"]
    position(match, hands=hands, chain=["1-0", "0-6"], turn=0, number=2)
    end = ended(match.act(0, Play(t("5-6"))))
    assert (end.result, end.eggs, end.pot, end.amounts) == ("fish", True, 24, None)


def test_sport_deals_must_be_a_multiple_of_four() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        PRESETS["sport"]().with_options(sport_deals=6)
    with pytest.raises(ValueError, match="pairs"):
        Match(4, False, PRESETS["sport"](), seed=1)
    with pytest.raises(ValueError, match="pairs"):
        Match(2, False, PRESETS["generals_goat"](), seed=1)
