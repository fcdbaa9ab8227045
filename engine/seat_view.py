"""What one seat knows of a match, and worlds (whole matches) that agree with it.

A seat sees its own hand, the line, how many tiles each hand and the bazaar hold, the scores, and
what the others did in public. A player who draws or knocks holds no tile that fits the open ends
at that moment; tiles he draws afterwards are unknown again. So every hidden tile a hand holds is
tracked as a *slot*, with the end values its tile cannot show, and a world deals the unseen tiles
into the slots at random, respecting those values.

``SeatView.of`` copies only public facts out of the match and the events (never another hand, the
bazaar, a drawn tile's face, or the seed, from which the deals follow), so a player that reads the
match through a view cannot cheat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .events import Drew, Event, Knocked, Played, PlayedDoubles, RoundStarted
from .match import Match
from .tiles import ALL_TILES, Tile

#: Tries at dealing the unseen tiles under every constraint before a world ignores them.
_DEAL_TRIES: Final = 20
_NAMES: Final = {t: str(t) for t in ALL_TILES}


def _values(tile: Tile) -> int:
    return 1 << tile.a | 1 << tile.b


def _slots(match: Match, seat: int, events: Sequence[Event]) -> list[list[int]]:
    """Per seat, one mask per hidden tile of its hand, oldest first: bit v set means the tile does
    not show v. Without this round's events every mask is 0 (nothing known)."""
    rnd = match.round
    assert rnd is not None
    start = None
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if isinstance(event, RoundStarted):
            start = i if event.round == rnd.number else None
            break
    sizes = [len(hand) for hand in rnd.hands]
    blank = [[0] * n if s != seat else [] for s, n in enumerate(sizes)]
    if start is None:
        return blank
    dealt = match.game.hand_size(match.rules, match.players)
    slots: list[list[int]] = [[0] * dealt for _ in range(match.players)]
    ends = 0  # mask of the open ends' values
    drew_last = [False] * match.players  # did this seat's previous event draw a tile?
    for event in events[start + 1 :]:
        if isinstance(event, (Played, PlayedDoubles)):
            tiles = event.tiles if isinstance(event, PlayedDoubles) else [event.tile]
            for tile in tiles:  # only the first can be the tile just drawn
                slots[event.seat] = _after_play(slots[event.seat], tile, drew_last[event.seat])
                drew_last[event.seat] = False
            ends = 0
            for value in event.ends.values() if isinstance(event.ends, dict) else event.ends:
                ends |= 1 << value
        elif isinstance(event, (Drew, Knocked)):
            held = slots[event.seat]
            slots[event.seat] = [mask | ends for mask in held]
            if isinstance(event, Drew):
                slots[event.seat].append(0)
            drew_last[event.seat] = isinstance(event, Drew)
    if [len(s) for s in slots] != sizes:
        return blank  # events that are not this round's: know nothing rather than wrong things
    slots[seat] = []
    return slots


def _after_play(held: list[int], tile: Tile, drew_last: bool) -> list[int]:
    """The slots left once ``tile`` is played from them. Right after a draw it is the drawn tile
    (nothing older fitted). Otherwise it came from a slot that allows it; masks only grow with a
    slot's age, so those are the newest, and dropping the oldest of them keeps the rest as loose
    as any other choice, so the true hand still fits the slots."""
    if drew_last:
        return held[:-1]
    values = _values(tile)
    for i, mask in enumerate(held):
        if not mask & values:
            return held[:i] + held[i + 1 :]
    return held[1:]  # not reached with a consistent log


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    hand: tuple[Tile, ...]
    #: Tiles this seat cannot see, in a fixed order (not the order they lie in).
    unseen: tuple[Tile, ...]
    #: Per seat, the masks of its hidden tiles (see ``_slots``); empty for this seat.
    slots: tuple[tuple[int, ...], ...]
    #: ``Match.to_json`` with the hidden parts blanked: hands but this seat's, bazaar, seed.
    public: dict[str, Any]

    @classmethod
    def of(cls, match: Match, seat: int, events: Sequence[Event] = ()) -> SeatView:
        rnd = match.round
        if rnd is None:
            raise ValueError("the match has no round in play")
        state = match.to_json()
        state["seed"] = 0
        public_round = dict(state["round"])
        public_round["hands"] = [
            h if s == seat else [] for s, h in enumerate(public_round["hands"])
        ]
        public_round["bazaar"] = []
        state["round"] = public_round
        hand = tuple(rnd.hands[seat])
        on_table = set(rnd.layout.tiles())
        unseen = tuple(t for t in ALL_TILES if t not in on_table and t not in hand)
        slots = _slots(match, seat, events)
        return cls(seat, hand, unseen, tuple(map(tuple, slots)), state)

    def world(self, rng: random.Random) -> dict[str, Any]:
        """A whole match (as ``Match.to_json``) that agrees with everything this seat knows, the
        unseen tiles dealt at random into the other hands and the bazaar."""
        hands = self._deal(rng)
        state = dict(self.public)
        rnd = dict(state["round"])
        rnd["hands"] = [
            rnd["hands"][s] if s == self.seat else [_NAMES[t] for t in hand]
            for s, hand in enumerate(hands[:-1])
        ]
        rnd["bazaar"] = [_NAMES[t] for t in hands[-1]]
        state["round"] = rnd
        return state

    def _deal(self, rng: random.Random) -> list[list[Tile]]:
        """Hidden tiles per seat, then the bazaar. The most constrained slots are filled first;
        should the draw paint itself into a corner (rare), it starts again, and after
        ``_DEAL_TRIES`` it drops the constraints."""
        order = sorted(
            ((mask, s) for s, masks in enumerate(self.slots) for mask in masks),
            key=lambda slot: -slot[0].bit_count(),
        )
        for _ in range(_DEAL_TRIES):
            pool = list(self.unseen)
            hands: list[list[Tile]] = [[] for _ in range(len(self.slots) + 1)]
            for mask, s in order:
                fitting = [i for i, t in enumerate(pool) if not _values(t) & mask]
                if not fitting:
                    break
                hands[s].append(pool.pop(rng.choice(fitting)))
            else:
                rng.shuffle(pool)
                hands[-1] = pool
                return hands
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands = [[] for _ in range(len(self.slots) + 1)]
        for _, s in order:
            hands[s].append(pool.pop())
        hands[-1] = pool
        return hands
