"""The strong computer player (engine/search.py) and what a seat may know (engine/seat_view.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import KNOCK, Event, Lay, Match, Play, RuleSet, Tile
from engine.actions import Placement
from engine.ai import greedy_player
from engine.events import Drew, Knocked, Played, RoundEnded, RoundStarted
from engine.games.donkey import Donkey
from engine.round import Round
from engine.rules import PRESETS
from engine.search import StrongPlayer, _quick_move, utility
from engine.seat_view import SeatView
from engine.selfplay import current_round

from .support import checked, position, t

QUICK = StrongPlayer(playouts=24)  # enough to have preferences, cheap enough for many positions
OPTIONS = [{}, {"draw_mode": "one_per_turn"}, {"bazaar_reserve": 2}, {"fish_mode": "lowest_wins"}]


@dataclass
class Position:
    match: Match
    events: list[Event]  # the round's events so far

    @property
    def seat(self) -> int:
        seat = self.match.current_seat
        assert seat is not None
        return seat


def position_after(
    players: int, pairs: bool, options: dict[str, Any], seed: int, moves: int
) -> Position | None:
    """Greedy play for ``moves`` actions, then on to the first choice (two or more legal
    actions); None if the match ends first."""
    match, events = Match.new(players, pairs, RuleSet(**options), seed)
    rng = random.Random(seed)
    events = current_round(events)
    done = 0
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        if done >= moves and len(match.legal_actions(seat)) > 1:
            return Position(match, events)
        events = current_round(events + match.act(seat, greedy_player(match, seat, rng)))
        done += 1
    return None


positions = st.builds(
    position_after,
    players=st.sampled_from((2, 3, 4)),
    pairs=st.just(False),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 60),
).filter(lambda p: p is not None)


def hidden_moved(pos: Position, rng: random.Random) -> Position:
    """The same position for the seat to move, with the tiles it cannot see dealt anew among the
    other hands and the bazaar (as many in each as before), and the events' hidden faces (the
    deal, others' drawn tiles) made up."""
    seat = pos.seat
    state = pos.match.to_json()
    rnd = state["round"]
    hidden = [x for s, h in enumerate(rnd["hands"]) if s != seat for x in h] + rnd["bazaar"]
    rng.shuffle(hidden)
    for s, hand in enumerate(rnd["hands"]):
        if s != seat:
            rnd["hands"][s] = [hidden.pop() for _ in hand]
    rnd["bazaar"] = hidden
    faces = [Tile.parse(x) for x in hidden] or [t("0-0")]
    events: list[Event] = []
    for event in pos.events:
        made_up = event
        if isinstance(event, RoundStarted):
            hands = [h if s == seat else rng.sample(faces, 1) for s, h in enumerate(event.hands)]
            made_up = RoundStarted(event.round, hands, faces, event.leader, event.lead_tiles)
        elif isinstance(event, Drew) and event.seat != seat:
            made_up = Drew(event.round, event.seat, rng.choice(faces))
        events.append(made_up)
    return Position(Match.from_json(state), events)


def honest_on(player: StrongPlayer, pos: Position, shuffle_seed: int) -> bool:
    seat = pos.seat
    choice = player(pos.match, seat, random.Random(5), pos.events)
    moved = hidden_moved(pos, random.Random(shuffle_seed))
    return player(moved.match, seat, random.Random(5), moved.events) == choice


@checked(25)
@given(positions, st.integers(0, 1000))
def test_moving_the_hidden_tiles_does_not_change_the_choice(pos: Position, shuffle: int) -> None:
    assert honest_on(QUICK, pos, shuffle)


def test_the_honesty_check_catches_a_player_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same check fails for a search whose worlds are the real match, not samples."""
    peeked: dict[str, Any] = {}
    monkeypatch.setattr(SeatView, "world", lambda self, rng: peeked["state"])
    caught = 0
    for seed in range(12):
        pos = position_after(4, False, {}, seed, moves=6)
        assert pos is not None
        peeked["state"] = pos.match.to_json()
        choice = QUICK(pos.match, pos.seat, random.Random(5), pos.events)
        moved = hidden_moved(pos, random.Random(seed))
        peeked["state"] = moved.match.to_json()
        caught += QUICK(moved.match, pos.seat, random.Random(5), moved.events) != choice
    assert caught > 0


@checked(40)
@given(positions, st.integers(0, 1000))
def test_strong_plays_a_legal_action(pos: Position, seed: int) -> None:
    action = QUICK(pos.match, pos.seat, random.Random(seed), pos.events)
    assert action in pos.match.legal_actions(pos.seat)


def fits(tiles: list[Tile], masks: tuple[int, ...]) -> bool:
    """Can the tiles go one into each slot, none showing a value its slot rules out? Masks are
    nested, so filling the strictest slot first with any tile it allows decides it."""
    left = list(tiles)
    for mask in sorted(masks, key=lambda m: -m.bit_count()):
        allowed = [x for x in left if not (1 << x.a | 1 << x.b) & mask]
        if not allowed:
            return False
        left.remove(allowed[0])
    return not left


@checked(60)
@given(positions, st.integers(0, 1000))
def test_worlds_agree_with_the_seat_and_the_truth_agrees_with_the_view(
    pos: Position, seed: int
) -> None:
    seat, rnd = pos.seat, pos.match.round
    assert rnd is not None
    view = SeatView.of(pos.match, seat, pos.events)
    # What knocks and draws revealed is true of the real hands.
    for s, hand in enumerate(rnd.hands):
        if s != seat:
            assert fits(hand, view.slots[s]), (s, hand, view.slots[s])
    world = Match.from_json(view.world(random.Random(seed)))
    sampled = world.round
    assert sampled is not None
    assert sampled.hands[seat] == rnd.hands[seat]
    assert [len(h) for h in sampled.hands] == [len(h) for h in rnd.hands]
    assert len(sampled.bazaar) == len(rnd.bazaar)
    assert sampled.layout == rnd.layout
    hidden = [x for s, h in enumerate(sampled.hands) if s != seat for x in h] + sampled.bazaar
    assert sorted(hidden) == sorted(view.unseen)
    for s, hand in enumerate(sampled.hands):
        if s != seat:
            assert fits(hand, view.slots[s])
    assert world.legal_actions(seat) == pos.match.legal_actions(seat)


def first_knock(seed: int) -> tuple[Position, int, tuple[int, int]]:
    """Greedy play of a four-player match (no bazaar) until someone knocks: the position after
    the knock, the knocker, and the ends he knocked on."""
    match, events = Match.new(4, False, RuleSet(), seed)
    rng = random.Random(seed)
    ends = (0, 0)
    while True:
        seat = match.current_seat
        assert seat is not None
        made = match.act(seat, greedy_player(match, seat, rng))
        events = current_round(events + made)
        if isinstance(made[0], Knocked) and len(made) == 1:
            return Position(match, events), seat, ends
        if isinstance(made[0], Played):
            assert isinstance(made[0].ends, list)  # Kozel's: [left, right]
            ends = (made[0].ends[0], made[0].ends[1])


def test_a_knock_reveals_that_the_hand_holds_neither_end() -> None:
    for seed in range(8):
        pos, knocker, (left, right) = first_knock(seed)
        view = SeatView.of(pos.match, pos.seat, pos.events)
        blind = SeatView.of(pos.match, pos.seat)  # without the events nothing is known
        rnd = pos.match.round
        assert rnd is not None
        showing = 0
        for world_seed in range(20):
            world = Match.from_json(view.world(random.Random(world_seed))).round
            assert world is not None
            assert not any(x.has(left) or x.has(right) for x in world.hands[knocker])
            guess = Match.from_json(blind.world(random.Random(world_seed))).round
            assert guess is not None
            showing += any(x.has(left) or x.has(right) for x in guess.hands[knocker])
        assert showing > 0


def test_a_forced_move_is_played_without_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_search(*args: Any) -> SeatView:
        raise AssertionError("searched a forced move")

    monkeypatch.setattr(SeatView, "of", no_search)
    match = Match(4, False, RuleSet(), seed=1)
    position(match, hands=["0-0 1-1", "2-3", "4-4 6-6", "5-5"], chain=["3-5"], turn=0)
    assert QUICK(match, 0, random.Random(0)) == KNOCK
    position(match, hands=["0-3 1-1", "2-3", "4-4 6-6", "5-5"], chain=["3-5"], turn=0)
    assert QUICK(match, 0, random.Random(0)) == Play(t("0-3"))


def round_ended(scores: list[int]) -> RoundEnded:
    sides = len(scores)
    return RoundEnded(
        round=3,
        result="out",
        winner=0,
        fisherman=None,
        eggs=False,
        hands=[[] for _ in scores],
        hand_values=[0] * sides,
        amounts=[0] * sides,
        scores=scores,
        memory=[0] * sides,
        opened=[True] * sides,
        pot=0,
        pot_awarded_to=None,
    )


def test_utility_fears_the_goat_limit() -> None:
    """Ten points more cost more at 95 than at 20; a lost match is the worst, a won one the best."""
    match = Match(2, False, RuleSet(), seed=1)

    def value(scores: list[int]) -> float:
        return utility(match, round_ended(scores), 0)

    near = value([95, 90]) - value([85, 90])
    far = value([30, 40]) - value([20, 40])
    assert near < far < 0
    match.over, match.losers = True, [0]
    assert value([101, 90]) == -1.0
    match.losers = [1]
    assert value([90, 101]) == 0.0


class NoExploring(random.Random):
    """A generator under which the playouts' player never plays a random move."""

    def random(self) -> float:
        return 0.99


def test_the_playouts_put_two_doubles_down_rather_than_one() -> None:
    """In Sea Goat two doubles may go down in one move (§1.6): the others in the playouts shed
    both, as greedy does, where they used to keep one of them for later."""
    match = Match(4, False, PRESETS["sea_goat"](), seed=1)
    position(match, hands=["2-2 4-4 0-1", "3-5 1-3", "5-6 0-3", "1-5 0-5"], chain=["2-4"], turn=0)
    rnd = match.round
    assert rnd is not None
    both = Lay((Placement(t("2-2"), "left"), Placement(t("4-4"), "right")))
    assert greedy_player(match, 0, random.Random(0)) == both
    assert _quick_move(match, rnd.legal_actions(0, match.rules), NoExploring()) == both


@pytest.mark.parametrize(("game", "best"), [("kozel", "5-6"), ("traditional", "2-3")])
def test_the_playouts_keep_a_follower_where_the_round_is_a_race(game: str, best: str) -> None:
    """The others in the playouts play as greedy does: in Traditional, a race to go out, they
    keep an end their hand can follow (2-3 leaves 2 and 5, which both other tiles follow) where
    they used to shed the heaviest tile whatever the game (5-6 leaves 3 and 6: none follows)."""
    match = Match(2, False, PRESETS[game](), seed=1)
    position(match, hands=["5-6 2-3 0-2 1-2", "0-0"], chain=["3-5"], turn=0)
    rnd = match.round
    assert rnd is not None
    assert greedy_player(match, 0, random.Random(0)) == Play(t(best))
    assert _quick_move(match, rnd.legal_actions(0, match.rules), NoExploring()) == Play(t(best))


def test_only_the_searching_seat_asks_the_game_for_its_other_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Donkey's ways of closing doubles are many (``Donkey.lays``): the strong player weighs them
    for its own move, while the playouts, which lay tiles the plain way, no longer list them at
    every move (that was most of the search's time in Donkey)."""
    asked: list[int] = []
    lays = Donkey.lays

    def counted(game: Donkey, rnd: Round, seat: int, rules: RuleSet) -> list[Lay]:
        asked.append(seat)
        return lays(game, rnd, seat, rules)

    monkeypatch.setattr(Donkey, "lays", counted)
    match, events = Match.new(4, False, PRESETS["donkey"](), seed=2)
    rng = random.Random(2)
    events = current_round(events)
    while True:
        seat = match.current_seat
        assert seat is not None
        if any(isinstance(action, Lay) for action in match.legal_actions(seat)):
            break
        events = current_round(events + match.act(seat, greedy_player(match, seat, rng)))
    asked.clear()
    choice = QUICK(match, seat, rng, events)
    assert choice in match.legal_actions(seat)
    assert asked == [seat, seat]  # the search's list of moves, and the check above


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_playout_scores_its_round_and_deals_no_next(seed: int) -> None:
    """The playouts stop at the round's end (``deal_next=False``): the move that ends it gives
    the round's end as the match would, and no next deal."""
    match, _ = Match.new(4, seed=seed)
    rng = random.Random(seed)
    while True:
        seat = match.current_seat
        assert seat is not None
        action = rng.choice(match.legal_actions(seat))
        playout = Match.from_json(match.to_json())
        events = match.act(seat, action)
        if any(isinstance(event, RoundEnded) for event in events):
            break
    dealt = [e for e in events if isinstance(e, RoundStarted)]
    assert dealt  # the seeds give rounds that do not end the match
    assert playout.act(seat, action, deal_next=False) == events[: events.index(dealt[0])]
    assert playout.round is not None and playout.round.ended
