"""The Kozel rules engine: pure, synchronous and deterministic given a seed."""

from . import revisions
from .actions import DRAW, KNOCK, Action, Draw, Knock, Play
from .errors import IllegalAction, ReplayMismatch
from .events import Event, event_from_dict
from .line import End, Line
from .match import Match, replay
from .round import Round
from .rules import RuleSet
from .tiles import ALL_TILES, Tile

__all__ = [
    "ALL_TILES",
    "DRAW",
    "KNOCK",
    "Action",
    "Draw",
    "End",
    "Event",
    "IllegalAction",
    "Knock",
    "Line",
    "Match",
    "Play",
    "ReplayMismatch",
    "Round",
    "RuleSet",
    "Tile",
    "event_from_dict",
    "replay",
    "revisions",
]
