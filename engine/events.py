"""What happened at the table. Events are the source of truth: state is rebuilt by replaying them.

Each event serializes to a JSON object with a ``type`` key; tiles are written ``"a-b"``. Per-side
lists (``amounts``, ``scores``, ``memory``) are indexed by side: the seat in an individual game,
``seat % 2`` in a pair game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from . import revisions
from .deal import OLDEST_SHUFFLE, Shuffle
from .layout import End
from .tiles import Tile

#: How a blocked round's winner was found (``RoundEnded.won_by``): by the fewest pips
#: ("lightest"), both partners of his side holding them ("lightest_partners"), his pair's hands
#: weighing least together ("lightest_pair"), or in Bulgarian fives (RULES.md §3.8) by the more
#: match points ("most_points"), then fewer tiles ("fewer_tiles"), then the last tile played
#: ("last_tile").
WonBy = Literal[
    "lightest", "lightest_partners", "lightest_pair", "most_points", "fewer_tiles", "last_tile"
]

#: Fields holding tiles (possibly nested in lists); they are written as "a-b" strings.
_TILE_FIELDS = frozenset({"tile", "tiles", "hands", "bazaar", "lead_tiles"})


def _dump(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_dump(v) for v in value]
    return value


def _load_tiles(value: Any) -> Any:
    if isinstance(value, str):
        return Tile.parse(value)
    if isinstance(value, list):
        return [_load_tiles(v) for v in value]
    return value


@dataclass(slots=True)
class Event:
    """Something that happened; nothing changes an event once it is made. Events are not frozen
    dataclasses only because those set each field through ``object.__setattr__``, a cost paid on
    every move, and an event holds lists, so it could not be hashed anyway."""

    @property
    def type(self) -> str:
        """The ``type`` key of the event's JSON object, e.g. ``played``."""
        return EVENT_NAMES[self.__class__]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            data[f.name] = _dump(getattr(self, f.name))
        return data


@dataclass(slots=True)
class MatchStarted(Event):
    """``shuffle`` is how the match deals, ``rules_revision`` the revision of the rules' code it
    started under (``revisions.py``); logs written before either existed have the oldest."""

    game: str
    players: int
    pairs: bool
    seed: int
    options: dict[str, Any]
    shuffle: Shuffle = field(default=OLDEST_SHUFFLE, kw_only=True)
    rules_revision: int = field(default=revisions.FIRST, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """Revision 1 is written as no field, as it was before revisions were recorded."""
        data = Event.to_dict(self)
        if self.rules_revision == revisions.FIRST:
            del data["rules_revision"]
        return data


@dataclass(slots=True)
class Redealt(Event):
    """A deal was thrown in (§2.2); ``hands`` are the hands that triggered it."""

    round: int
    hands: list[list[Tile]]
    seat: int
    reason: Literal["doubles", "suit"]


@dataclass(slots=True)
class RoundStarted(Event):
    """``lead_tiles`` lists the tiles the leader may lead, or is None when any tile may be led."""

    round: int
    hands: list[list[Tile]]
    bazaar: list[Tile]
    leader: int
    lead_tiles: list[Tile] | None


@dataclass(slots=True)
class Played(Event):
    """A tile placed on ``end``; ``ends`` are the open ends after it. In Kozel ``ends`` is the list
    [left, right] and the move has no points. In the scoring games ``ends`` maps each open end's
    name to the value it shows, ``scored`` is what the move earned (RULES.md §1.8; 0 for none,
    always written) and ``scores`` the sides' scores after it, written when it scored.
    ``lengthwise`` (written only when true) marks a double laid along the line, which counts once
    in the open-end sum (English fives, §3.9). ``closed`` says whether the tile was laid face down
    (Donkey, §3.3); None, and then not written, in a game that cannot close."""

    round: int
    seat: int
    tile: Tile
    end: End
    ends: list[int] | dict[str, int]
    scored: int | None = None
    scores: list[int] | None = None
    lengthwise: bool = False
    closed: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        data = _without_missing_points(Event.to_dict(self))
        if not self.lengthwise:
            del data["lengthwise"]
        if self.closed is None:
            del data["closed"]
        return data


@dataclass(slots=True)
class PlayedDoubles(Event):
    """Several doubles put down in one move (``multi_double``, RULES.md §1.6), written as a
    ``played`` with ``tiles`` and ``ends_used`` (the end each went to, in the same order) in
    place of ``tile`` and ``end``; the rest as in ``Played``, after all of them are down.
    ``closed`` flags each tile laid face down (Donkey), in the same order; None elsewhere."""

    round: int
    seat: int
    tiles: list[Tile]
    ends_used: list[End]
    ends: list[int] | dict[str, int]
    scored: int | None = None
    scores: list[int] | None = None
    closed: list[bool] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = _without_missing_points(Event.to_dict(self))
        if self.closed is None:
            del data["closed"]
        return data


def _without_missing_points(data: dict[str, Any]) -> dict[str, Any]:
    """A move's JSON without the ``scored`` and ``scores`` that a game did not give it."""
    for name in ("scored", "scores"):
        if data[name] is None:
            del data[name]
    return data


@dataclass(slots=True)
class Reopened(Event):
    """``seat`` turned face up the double ``tile`` he had closed (Donkey, §3.3), before his move."""

    round: int
    seat: int
    tile: Tile


@dataclass(slots=True)
class Drew(Event):
    round: int
    seat: int
    tile: Tile


@dataclass(slots=True)
class Knocked(Event):
    round: int
    seat: int


@dataclass(slots=True, kw_only=True)  # thirteen positions would be easy to mix up
class RoundEnded(Event):
    """``amounts`` is what each side got at the round's end: Kozel's round amounts r_s of §2.7
    (None for eggs, where r is undefined), a scoring game's end bonus or write-off. ``winner`` is
    the seat that went out, and in the scoring games also the winner of a block (None on a tie).

    Kozel's memory, opening and eggs (``eggs``, ``memory``, ``opened``, ``pot``,
    ``pot_awarded_to``) are None in the other games, and then not written. Sea Goat (§3.2) writes
    ``outcome`` when the round ended specially ("writeoff", "instant_win", "na_sto_won", ...:
    ``games/sea_goat.py``) and ``sea``, what it carries to the next round (``SeaState``); both
    are None, and not written, in the other games."""

    round: int
    result: Literal["out", "fish"]
    winner: int | None
    fisherman: int | None
    eggs: bool | None = None
    hands: list[list[Tile]]
    hand_values: list[int]
    amounts: list[int] | None
    scores: list[int]
    memory: list[int] | None = None
    opened: list[bool] | None = None
    pot: int | None = None
    pot_awarded_to: int | None = None
    #: How a round ended beyond ``result``, when a game says more: General's Goat's fish is
    #: "redealt" (it does not count, §3.10).
    outcome: str | None = None
    #: Sea Goat (§3.2): what the match carries to the next round (``SeaState.to_dict``).
    sea: dict[str, Any] | None = None
    #: General's Goat (§3.10): the seat that lost the round (the next after the one who went
    #: out), and whether a General was hung on his team.
    loser: int | None = None
    general: bool | None = None
    #: A scoring game's block that someone won: how he was found (``WonBy``). None after going
    #: out, and in rounds recorded before rules revision 5, which did not write it.
    won_by: WonBy | None = None
    #: A fish the closure test called while the closed suit's double was off the table: that
    #: suit (``Round.closure_suit``). None otherwise, and before rules revision 6.
    closure_suit: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Kozel's memory and opening are written when set, its eggs and pot too (Sport domino
        has eggs without the threshold); the fields of one game only when it sets them."""
        data = Event.to_dict(self)
        if self.memory is None:
            del data["memory"], data["opened"]
        if self.eggs is None:
            del data["eggs"], data["pot"], data["pot_awarded_to"]
        for name in _SOME_GAMES_ONLY:
            if data[name] is None:
                del data[name]
        return data


_SOME_GAMES_ONLY = ("outcome", "sea", "loser", "general", "won_by", "closure_suit")

#: A game's own ways of naming a match's winners besides its target and the goat: Sea Goat's
#: "na_sto", "instant_win" and "two_doubles" (RULES.md §3.2), General's Goat's "general" and
#: "losses" (§3.10), Sport domino's "deals" (§3.11).
GameRuleEnd = Literal["na_sto", "instant_win", "two_doubles", "general", "losses", "deals"]
#: How a match ended (``MatchEnded.ended_by``): Kozel's "goat"; "target" reached in the scoring
#: games, or "draw" where the sides tied; "timeout" when a player's timeout ended it and his side
#: lost (``Match.abandon``); or by a game's own rule.
MatchEndedBy = Literal["goat", "target", "draw", "timeout", GameRuleEnd]


@dataclass(slots=True)
class MatchEnded(Event):
    """``losers`` are sides: Kozel's goat(s), or in a game that names its winners the sides that
    did not win (none after a draw), after a timeout the side that timed out. ``winners`` are the
    sides that won a game that names them (``Game.names_winners``: the win-at-target games, Sport
    domino, General's Goat; none after a draw); None in Kozel and Donkey, and then not written.
    ``ended_by`` says how (``MatchEndedBy``)."""

    losers: list[int]
    scores: list[int]
    ended_by: MatchEndedBy = "goat"
    winners: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = Event.to_dict(self)
        if self.winners is None:
            del data["winners"]
        return data


@dataclass(slots=True)
class RulesUpgraded(Event):
    """From here on the match plays under a newer ``revision`` of the rules' code, whose policy
    lets a match in play continue under it (``revisions.py``)."""

    revision: int


# The names are not class attributes: mypyc, which compiles the engine (setup.py), would turn a
# ``ClassVar`` of a dataclass into a field.
EVENT_TYPES: dict[str, type[Event]] = {
    "match_started": MatchStarted,
    "redealt": Redealt,
    "round_started": RoundStarted,
    "played": Played,
    "reopened": Reopened,
    "drew": Drew,
    "knocked": Knocked,
    "round_ended": RoundEnded,
    "match_ended": MatchEnded,
    "rules_upgraded": RulesUpgraded,
}
EVENT_NAMES: dict[type[Event], str] = {cls: name for name, cls in EVENT_TYPES.items()}
EVENT_NAMES[PlayedDoubles] = "played"


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event; unknown types and missing fields raise ValueError."""
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is Played and "tiles" in data:
        cls = PlayedDoubles
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
