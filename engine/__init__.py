"""The rules engine of Kozel and its family: pure, synchronous and deterministic given a seed."""

from . import revisions
from .actions import DRAW, KNOCK, Action, Draw, Knock, Lay, Placement, Play, Reopen
from .errors import IllegalAction, ReplayMismatch
from .events import Event, event_from_dict
from .layout import End, Layout
from .line import Line
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
    "Lay",
    "Layout",
    "Line",
    "Match",
    "Placement",
    "Play",
    "Reopen",
    "ReplayMismatch",
    "Round",
    "RuleSet",
    "Tile",
    "event_from_dict",
    "replay",
    "revisions",
]
