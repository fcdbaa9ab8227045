"""What happened at the table. Events are the source of truth: state is rebuilt by replaying them.

Each event serializes to a JSON object with a ``type`` key; tiles are written ``"a-b"``. Per-side
lists (``amounts``, ``scores``, ``memory``) are indexed by side: the seat in an individual game,
``seat % 2`` in a pair game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from .deal import OLDEST_SHUFFLE, Shuffle
from .line import End
from .tiles import Tile

#: Fields holding tiles (possibly nested in lists); they are written as "a-b" strings.
_TILE_FIELDS = frozenset({"tile", "hands", "bazaar", "lead_tiles"})
_TILE_BY_NAME: dict[str, Tile] = {}


def _tile_named(name: str) -> Tile:
    tile = _TILE_BY_NAME.get(name)
    if tile is None:
        tile = _TILE_BY_NAME[name] = Tile.parse(name)
    return tile


def _dump(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_dump(v) for v in value]
    return value


def _load_tiles(value: Any) -> Any:
    if isinstance(value, str):
        return _tile_named(value)
    if isinstance(value, list):
        return [_load_tiles(v) for v in value]
    return value


# Events are written once and never changed, but they are not ``frozen`` dataclasses: a frozen
# dataclass sets each field through ``object.__setattr__``, which made building a ``Played`` cost
# more than validating the move. ``unsafe_hash`` keeps them hashable as before (those without list
# fields are). The events made on every move or round spell out their ``__init__``: mypyc compiles
# that one, while the one ``dataclass`` generates stays interpreted and took four times as long.
@dataclass(slots=True, unsafe_hash=True)
class Event:
    @property
    def type(self) -> str:
        """The ``type`` key of the event's JSON object, e.g. ``played``."""
        return EVENT_NAMES[self.__class__]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            data[f.name] = _dump(getattr(self, f.name))
        return data


@dataclass(slots=True, unsafe_hash=True, init=False)
class MatchStarted(Event):
    """``shuffle`` is how the match deals; logs written before it existed dealt the oldest way."""

    game: str
    players: int
    pairs: bool
    seed: int
    options: dict[str, Any]
    shuffle: Shuffle

    def __init__(
        self,
        game: str,
        players: int,
        pairs: bool,
        seed: int,
        options: dict[str, Any],
        *,
        shuffle: Shuffle = OLDEST_SHUFFLE,
    ) -> None:
        self.game = game
        self.players = players
        self.pairs = pairs
        self.seed = seed
        self.options = options
        self.shuffle = shuffle


@dataclass(slots=True, unsafe_hash=True)
class Redealt(Event):
    """A deal was thrown in (§2.2); ``hands`` are the hands that triggered it."""

    round: int
    hands: list[list[Tile]]
    seat: int
    reason: Literal["doubles", "suit"]


@dataclass(slots=True, unsafe_hash=True, init=False)
class RoundStarted(Event):
    """``lead_tiles`` lists the tiles the leader may lead, or is None when any tile may be led."""

    round: int
    hands: list[list[Tile]]
    bazaar: list[Tile]
    leader: int
    lead_tiles: list[Tile] | None

    def __init__(
        self,
        round: int,
        hands: list[list[Tile]],
        bazaar: list[Tile],
        leader: int,
        lead_tiles: list[Tile] | None,
    ) -> None:
        self.round = round
        self.hands = hands
        self.bazaar = bazaar
        self.leader = leader
        self.lead_tiles = lead_tiles


@dataclass(slots=True, unsafe_hash=True, init=False)
class Played(Event):
    round: int
    seat: int
    tile: Tile
    end: End
    ends: list[int]

    def __init__(self, round: int, seat: int, tile: Tile, end: End, ends: list[int]) -> None:
        self.round = round
        self.seat = seat
        self.tile = tile
        self.end = end
        self.ends = ends


@dataclass(slots=True, unsafe_hash=True, init=False)
class Drew(Event):
    round: int
    seat: int
    tile: Tile

    def __init__(self, round: int, seat: int, tile: Tile) -> None:
        self.round = round
        self.seat = seat
        self.tile = tile


@dataclass(slots=True, unsafe_hash=True, init=False)
class Knocked(Event):
    round: int
    seat: int

    def __init__(self, round: int, seat: int) -> None:
        self.round = round
        self.seat = seat


@dataclass(slots=True, unsafe_hash=True, init=False)
class RoundEnded(Event):
    """``amounts`` are the round amounts r_s of §2.7 (None for eggs, where r is undefined)."""

    round: int
    result: Literal["out", "fish"]
    winner: int | None
    fisherman: int | None
    eggs: bool
    hands: list[list[Tile]]
    hand_values: list[int]
    amounts: list[int] | None
    scores: list[int]
    memory: list[int]
    opened: list[bool]
    pot: int
    pot_awarded_to: int | None

    def __init__(  # keywords only: thirteen positions would be easy to mix up
        self,
        *,
        round: int,
        result: Literal["out", "fish"],
        winner: int | None,
        fisherman: int | None,
        eggs: bool,
        hands: list[list[Tile]],
        hand_values: list[int],
        amounts: list[int] | None,
        scores: list[int],
        memory: list[int],
        opened: list[bool],
        pot: int,
        pot_awarded_to: int | None,
    ) -> None:
        self.round = round
        self.result = result
        self.winner = winner
        self.fisherman = fisherman
        self.eggs = eggs
        self.hands = hands
        self.hand_values = hand_values
        self.amounts = amounts
        self.scores = scores
        self.memory = memory
        self.opened = opened
        self.pot = pot
        self.pot_awarded_to = pot_awarded_to


@dataclass(slots=True, unsafe_hash=True)
class MatchEnded(Event):
    """The goat(s) are ``losers`` (sides). ``ended_by`` is "goat", or "timeout" when a player's
    timeout ended the match and his side lost (``Match.abandon``)."""

    losers: list[int]
    scores: list[int]
    ended_by: str = "goat"


# The names are not class attributes: mypyc, which compiles the engine (setup.py), would turn a
# ``ClassVar`` of a dataclass into a field.
EVENT_TYPES: dict[str, type[Event]] = {
    "match_started": MatchStarted,
    "redealt": Redealt,
    "round_started": RoundStarted,
    "played": Played,
    "drew": Drew,
    "knocked": Knocked,
    "round_ended": RoundEnded,
    "match_ended": MatchEnded,
}
EVENT_NAMES: dict[type[Event], str] = {cls: name for name, cls in EVENT_TYPES.items()}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event; unknown types and missing fields raise ValueError."""
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event type: {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            value = data[f.name]
            kwargs[f.name] = _load_tiles(value) if f.name in _TILE_FIELDS else value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad {kind} event: {exc}") from None
