"""The strong computer player: determinized Monte Carlo search over what its seat knows.

For each of many worlds that agree with the seat's view (``SeatView.world``), every legal move is
tried and the round is played out to its end by greedy players that now and then play any move
(``_quick_move``), through the engine itself (``Match.from_json``, ``legal_actions``, ``act``),
so the search plays whatever game and house rules the engine plays. Each playout is scored by the
engine's own round scoring, then by the game's utility of the resulting match standing
(``Game.utility``): in Kozel how likely this seat's side is to end up the goat, so that the 13
threshold, remembered points, the goat limit, fish and eggs all count as they do in the match; in
the scoring games how likely it is to win. All moves are tried in the same worlds with the same
playout randomness, so they are compared fairly.

The work per move is a fixed number of playouts, not a time limit, so a given seed always gives
the same move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .actions import Action, Lay, Play
from .events import Event, MatchEnded, RoundEnded
from .greedy import WEIGHTS, measure, shedding
from .match import Match
from .seat_view import SeatView
from .tiles import ALL_TILES

#: Playouts per decision, shared among the legal moves.
PLAYOUTS: Final = 400
#: How often a playout plays a random move instead of greedy's.
EXPLORE: Final = 0.15
#: What the playouts count a tile worth outside the races: what greedy counts shedding it.
_WEIGHT: Final = {t: shedding(t, WEIGHTS[0]) for t in ALL_TILES}


@dataclass(frozen=True, slots=True)
class StrongPlayer:
    """Searches among the legal moves with ``playouts`` playouts; a forced move is played at
    once. It reads the match only through a ``SeatView``."""

    playouts: int = PLAYOUTS

    def __call__(
        self, match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
    ) -> Action:
        actions = match.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        return best_action(SeatView.of(match, seat, events), actions, rng, self.playouts)


strong_player: Final = StrongPlayer()


def best_action(
    view: SeatView, actions: Sequence[Action], rng: random.Random, playouts: int = PLAYOUTS
) -> Action:
    """The move with the best mean utility over ``playouts`` playouts in worlds from ``view``."""
    worlds = -(-playouts // len(actions))
    totals = [0.0] * len(actions)
    rules = Match.from_json(view.public).rules
    for _ in range(worlds):
        state = view.world(rng)
        seed = rng.getrandbits(32)
        for i, action in enumerate(actions):
            world = Match.from_json(state, rules)
            events = world.act(view.seat, action, deal_next=False)
            totals[i] += _play_out(world, events, random.Random(seed), view.seat)
    return actions[max(range(len(actions)), key=totals.__getitem__)]


def _play_out(world: Match, events: list[Event], rng: random.Random, seat: int) -> float:
    """Play the round to its end (or the match's, which a scoring move may end mid-round); its
    utility for ``seat``."""
    while True:
        for event in events:
            if isinstance(event, RoundEnded):
                return utility(world, event, world.side_of(seat))
            if isinstance(event, MatchEnded):
                return utility(world, None, world.side_of(seat))
        rnd, mover = world.round, world.current_seat
        assert rnd is not None and mover is not None
        move = _quick_move(world, rnd.legal_actions(mover, world.rules), rng)
        events = world.act(mover, move, deal_next=False)


def _quick_move(world: Match, actions: list[Action], rng: random.Random) -> Action:
    """The playouts' player: greedy (``greedy.measure``) where the round is a race to go out,
    keeping an end it can follow before shedding weight; elsewhere greedy short of counting
    followers, which at every move of every playout cost a quarter to a half more time in the
    games with a cross and won nothing measurable (see the README): in the scoring games the
    move that scores most, then the heaviest tile or doubles. Now and then any move. It
    chooses among the round's own moves (plays, several doubles at once; a draw or a knock is
    forced), not the game's other ways of laying a tile (``Game.lays``: Donkey's closed doubles,
    English fives' lengthwise ones) or reopening one: finding every one of those at every move
    of every playout would cost most of the search's time, and only the searching seat's own
    move needs them."""
    if len(actions) == 1:
        return actions[0]
    if rng.random() < EXPLORE:
        return rng.choice(actions)
    if world.game.races_out:
        mover = world.current_seat
        assert mover is not None
        placements = [action for action in actions if isinstance(action, (Play, Lay))]
        return max(placements, key=measure(world, mover, rng))
    if world.game.wins_at_target:
        return max(actions, key=lambda action: (_points(world, action), _weight(action)))
    return max(actions, key=_weight)


def _points(world: Match, action: Action) -> int:
    rnd = world.round
    if rnd is None or not isinstance(action, Play):
        return 0
    end = rnd.end_for(action)
    return world.game.move_points(rnd.layout, action.tile, end, world.rules) or 0


def _weight(action: Action) -> int:
    if isinstance(action, Play):
        return _WEIGHT[action.tile]
    if isinstance(action, Lay):
        return sum(_WEIGHT[p.tile] for p in action.placements)
    return 0


def utility(match: Match, ended: RoundEnded | None, side: int) -> float:
    """What the playout that ended with ``ended`` (None: the match ended in the middle of a
    round) is worth to ``side``: the game's own measure (``Game.utility``)."""
    return match.game.utility(match, ended, side)
