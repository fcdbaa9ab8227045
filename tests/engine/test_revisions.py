"""A change to the rules' code never damages a match in play: the match finishes under the rules
it started with, or goes on under the new ones from a point its log records (``revisions.py``)."""

from __future__ import annotations

import random

import pytest

from engine import Event, Match, Play, ReplayMismatch, RuleSet, replay, revisions
from engine.ai import PLAYERS
from engine.events import MatchEnded, MatchStarted, RoundStarted, RulesUpgraded
from engine.revisions import Revision
from engine.rules import PRESETS
from tests.engine.rule_change import NEXT, SIX, deploy_six_tile_hands
from tests.engine.support import layout_position, position, t
from tests.engine.test_kozel_examples import K6_CHAIN
from tests.engine.test_scoring_examples import P0, PARTNERS_TIED, SIXES, ended

#: The revision the code plays under now, before the deliberate change.
CURRENT = revisions.current()


def play(match: Match, log: list[Event], moves: int, seed: int = 3) -> None:
    """Greedy computer moves until ``moves`` are made or the match is over."""
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            return
        seat = match.current_seat
        assert seat is not None
        log += match.act(seat, PLAYERS["greedy"](match, seat, rng))


def started_mid_round() -> tuple[Match, list[Event]]:
    """A 4-player match under the rules as they are, stopped in its second round."""
    match, log = Match.new(4, seed=11)
    while match.rounds_played < 1:
        play(match, log, 1)
    play(match, log, 5)
    assert not match.is_over and match.round is not None and not match.round.layout.is_empty
    return match, log


def hand_sizes(log: list[Event]) -> list[int]:
    """Tiles dealt to the first seat in each round, in order."""
    return [len(e.hands[0]) for e in log if isinstance(e, RoundStarted)]


def test_a_match_under_a_finish_revision_ends_under_the_rules_it_started_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, log = started_mid_round()
    deploy_six_tile_hands(monkeypatch, "finish")

    match = replay(log)
    assert match.upgrade() == []
    play(match, log, 5000)
    assert match.is_over and match.rules.revision == CURRENT
    assert set(hand_sizes(log)) == {7}
    assert replay(log).to_json() == match.to_json()
    # a new match starts under the new rules, and says so in its log
    _, events = Match.new(4, seed=11)
    started = events[0]
    assert isinstance(started, MatchStarted) and started.rules_revision == NEXT
    assert started.to_dict()["rules_revision"] == NEXT
    assert hand_sizes(events) == [SIX]


def test_a_match_under_a_continue_revision_goes_on_under_the_new_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before, log = started_mid_round()
    deploy_six_tile_hands(monkeypatch, "continue")

    match = replay(log)
    upgraded = match.upgrade()
    assert upgraded == [RulesUpgraded(NEXT)] and match.rules.revision == NEXT
    assert match.round == before.round  # the round in play keeps its hands and its line
    log += upgraded
    rounds_before = match.rounds_played
    play(match, log, 5000)
    assert match.is_over
    sizes = hand_sizes(log)
    assert set(sizes[: rounds_before + 1]) == {7} and set(sizes[rounds_before + 1 :]) == {SIX}
    # a later load follows the same path, and finds nothing more to upgrade
    again = replay(log)
    assert again.to_json() == match.to_json() and again.upgrade() == []


def test_the_rules_revision_survives_a_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = Match.new(4, rules=RuleSet(revision=revisions.FIRST), seed=11)
    assert "rules_revision" not in first.to_json()  # revision 1 reads as before revisions
    assert Match.from_json(first.to_json()).rules.revision == revisions.FIRST
    match, _ = started_mid_round()
    assert match.to_json()["rules_revision"] == CURRENT
    assert Match.from_json(match.to_json()).rules.revision == CURRENT
    deploy_six_tile_hands(monkeypatch, "continue")
    assert Match.from_json(match.to_json()).rules.revision == CURRENT
    match.upgrade()
    assert match.to_json()["rules_revision"] == NEXT
    assert Match.from_json(match.to_json()).rules.revision == NEXT


def test_a_log_that_upgrades_against_the_policy_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, log = started_mid_round()
    deploy_six_tile_hands(monkeypatch, "finish")
    with pytest.raises(ReplayMismatch, match=f"no upgrade to revision {NEXT}"):
        replay([*log, RulesUpgraded(NEXT)])


def test_a_log_from_an_unknown_revision_is_refused() -> None:
    _, log = Match.new(2, seed=1)
    started = log[0].to_dict() | {"rules_revision": 9}
    with pytest.raises(ValueError, match="unknown rules revision 9"):
        replay([started, *(e.to_dict() for e in log[1:])])


def test_a_match_climbs_consecutive_continue_revisions_and_stops_below_a_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        revisions,
        "REVISIONS",
        [
            Revision(1, "first", "finish"),
            Revision(2, "a fix everyone wants at once", "continue"),
            Revision(3, "a change to plan around", "finish"),
            Revision(4, "another fix", "continue"),
        ],
    )
    assert [revisions.reachable(n) for n in (1, 2, 3, 4)] == [2, 2, 4, 4]
    assert revisions.current() == 4


def test_a_muggins_pair_match_from_revision_3_wins_a_block_for_partners_once_upgraded() -> None:
    """Revision 4 ("continue"): at a Muggins block where both partners of a side hold the lightest
    hand, a match started under revision 3 gave nobody the bonus until it is upgraded; then that
    side wins it, from the round in play on."""
    rules = PRESETS["muggins"]().under(3)
    for upgrade, winner, amounts in ((False, None, [0, 0]), (True, P0, [3, 0])):
        match = Match(4, True, rules, seed=3)
        if upgrade:
            # on through the "continue" revisions after 4
            assert match.upgrade() == [RulesUpgraded(CURRENT)] and match.rules.revision == CURRENT
        layout_position(match, hands=PARTNERS_TIED[P0], lays=SIXES, turn=P0)
        result = ended(match.act(P0, Play(t("6-6"))))
        assert result["winner"] == winner and result["amounts"] == amounts


def test_a_match_from_revision_4_records_how_a_block_was_won_once_upgraded() -> None:
    """Revision 5 ("continue"): a block's end records how its winner won it (``won_by``), for
    the result to say; a match started under revision 4 wrote nothing of it, and its log
    replays so until it is upgraded."""
    for upgrade, won_by in ((False, None), (True, "lightest_partners")):
        match = Match(4, True, PRESETS["muggins"]().under(4), seed=3)
        if upgrade:  # on through the "continue" revisions after 5
            assert match.upgrade() == [RulesUpgraded(CURRENT)]
        layout_position(match, hands=PARTNERS_TIED[P0], lays=SIXES, turn=P0)
        result = ended(match.act(P0, Play(t("6-6"))))
        assert result["winner"] == P0 and result.get("won_by") == won_by


def test_a_match_from_revision_5_records_the_suit_a_closure_fish_closed_once_upgraded() -> None:
    """Revision 6 ("continue"): a fish the closure test called while the suit's double was in a
    hand records the suit (``closure_suit``), for the result to say why that double was never
    played; a match started under revision 5 wrote nothing of it until upgraded."""
    for upgrade, suit in ((False, None), (True, 2)):
        match = Match(4, False, RuleSet().under(5), seed=7)
        if upgrade:  # on through the "continue" revisions after 6
            assert match.upgrade() == [RulesUpgraded(CURRENT)]
        hands = ["2-2 1-1", "3-3", "2-5 6-6", "4-4"]
        position(match, hands=hands, chain=K6_CHAIN[:-1], turn=2)
        result = ended(match.act(2, Play(t("5-2"), "right")))
        assert result["result"] == "fish" and result.get("closure_suit") == suit


@pytest.mark.parametrize("game", ["sport", "generals_goat"])
def test_a_timeout_in_a_sport_or_generals_match_from_revision_6_names_winners_once_upgraded(
    game: str,
) -> None:
    """Revision 7 ("continue"): a timeout names the team that did not time out the winner of a
    Sport domino or General's Goat match, as their own ends name one; a match started under
    revision 6 named none until it is upgraded, and its stored log, without ``winners``,
    replays as it was written."""
    for upgrade, winners in ((False, None), (True, [0])):
        match, log = Match.new(4, True, PRESETS[game]().under(6), seed=5)
        if upgrade:
            log += match.upgrade()
            assert log[-1] == RulesUpgraded(CURRENT)
        log += match.abandon(1)
        ended = log[-1]
        assert isinstance(ended, MatchEnded) and (ended.losers, ended.winners) == ([1], winners)
        again = replay([event.to_dict() for event in log])
        assert again.to_json() == match.to_json() and again.winners == (winners or [])


@pytest.mark.parametrize("game", ["kozel", "donkey"])
def test_a_timeout_in_kozel_or_donkey_is_written_as_before_revision_7(game: str) -> None:
    """Kozel and Donkey name only the side that timed out, under every revision: the event of
    a timeout is the same before and after revision 7, with no ``winners`` at all."""
    written = []
    for revision in (6, CURRENT):
        match, _ = Match.new(4, True, PRESETS[game]().under(revision), seed=5)
        written.append([event.to_dict() for event in match.abandon(3)])
    timed_out = {"type": "match_ended", "losers": [1], "scores": [0, 0], "ended_by": "timeout"}
    assert written == [[timed_out], [timed_out]]
