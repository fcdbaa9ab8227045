"""Computer players. They fill empty seats and play for absent players.

A player is called with the match, its seat, a random generator and the events of the match so
far (optional: without them a player knows nothing of the others' knocks and draws). It may only
use what its seat can see: its own hand, the table, how many tiles each hand and the bazaar hold,
and what the others did in public; ``strong`` reads the match only through ``SeatView``.

Levels a table chooses from: ``easy`` (greedy that now and then misplays), ``normal`` (greedy) and
``strong`` (``engine.search``); ``random`` and ``greedy`` keep their names for self-play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Protocol

from .actions import Action, Lay, Play, Reopen
from .events import Event
from .greedy import ranked
from .match import Match
from .search import strong_player


class Player(Protocol):
    def __call__(
        self, match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
    ) -> Action: ...


def random_player(
    match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(match.legal_actions(seat))


def _greedy_order(match: Match, seat: int, rng: random.Random) -> list[Play | Lay]:
    """The legal placements, best first by greedy's measure (``greedy.measure``)."""
    moves = [a for a in match.legal_actions(seat) if isinstance(a, (Play, Lay))]
    return ranked(match, seat, moves, rng)


def greedy_player(
    match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
) -> Action:
    """Score what you can, dump weight early and keep the line open for yourself.

    In the scoring games the move that scores most comes first. Then, as in Kozel, where points
    are bad, the heaviest tile goes first; doubles are worth shedding early
    because they can only go on one value; and among equals, prefer leaving an end that this hand
    can follow next turn, so as not to be forced to draw or knock; where a round is a race to go
    out (``Game.races_out``), such an end counts more than weight. In Donkey that keeps open a
    double of a suit the hand still holds, and closes one of a suit it lacks, an end that only
    the others could use (§3.3), and reopens one of its own closed doubles once it holds that
    suit again.
    """
    reopen = _reopening(match, seat)
    if reopen is not None:
        return reopen
    ranked = _greedy_order(match, seat, rng)
    return ranked[0] if ranked else match.legal_actions(seat)[0]


def _reopening(match: Match, seat: int) -> Reopen | None:
    """A double ``seat`` closed and may reopen (Donkey, §3.3) whose suit the hand holds again:
    open, its end serves this hand too."""
    rnd = match.round
    if not match.rules.donkey_reopen or rnd is None:
        return None
    hand = rnd.hands[seat]
    for tile in rnd.reopenable(seat):
        if any(tile.a in (t.a, t.b) for t in hand):
            return Reopen(tile)
    return None


#: How often ``easy`` plays another tile than greedy's choice.
EASY_SLIP: Final = 0.3


def easy_player(
    match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
) -> Action:
    """Greedy, except that about one choice in three it plays some other fitting tile, as a
    beginner does who grabs the first tile that fits and keeps a heavy double too long."""
    reopen = _reopening(match, seat)
    if reopen is not None:
        return reopen
    ranked = _greedy_order(match, seat, rng)
    if not ranked:
        return match.legal_actions(seat)[0]
    if len(ranked) > 1 and rng.random() < EASY_SLIP:
        return rng.choice(ranked[1:])
    return ranked[0]


PLAYERS: dict[str, Player] = {
    "random": random_player,
    "greedy": greedy_player,
    "easy": easy_player,
    "normal": greedy_player,
    "strong": strong_player,
}
#: The levels a table offers, weakest first; each is a name in ``PLAYERS``.
LEVELS: Final = ("easy", "normal", "strong")
