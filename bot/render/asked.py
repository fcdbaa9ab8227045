"""What a hand asks in place of itself, kept as what was asked rather than as its words
(``Hands.ask``): a redraw (a reminder, a restart, a /language chosen in the DM) asks it again
from the table's state, in the player's language then."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, get_args

from telegram import InlineKeyboardMarkup

from engine import Placement

from ..callbacks import lay_args, placements_of
from ..i18n import Html
from ..table import Seat, Table
from .hand import (
    close_keyboard,
    close_text,
    closings,
    end_keyboard,
    way_keyboard,
    which_end_text,
    which_way_text,
)

Kind = Literal["end", "way", "close"]


@dataclass(frozen=True, slots=True)
class Asked:
    """Which end the tile of ``placements`` goes on ("end"), which way it lies on the end it
    names ("way"), or which of ``placements`` to lay closed ("close")."""

    kind: Kind
    placements: tuple[Placement, ...]

    def dumps(self, version: int) -> str:
        """As stored, for the turn ``version`` it was asked at."""
        code = lay_args(self.placements)[0]
        return json.dumps({"version": version, "ask": self.kind, "tiles": code})

    @staticmethod
    def loads(stored: str | None, version: int) -> Asked | None:
        """The question stored, if it was asked at this turn (``version``). One stored as its
        words, before questions were kept this way, is not asked again: the hand is shown."""
        asked = json.loads(stored) if stored else None
        if asked is None or asked["version"] != version or asked.get("ask") not in get_args(Kind):
            return None
        return Asked(asked["ask"], placements_of(asked["tiles"]))


def question(table: Table, seat: Seat, asked: Asked) -> tuple[Html, InlineKeyboardMarkup]:
    """The question's words and its buttons, in the player's language."""
    placements = asked.placements
    tile, end = placements[0].tile, placements[0].end
    if asked.kind == "end":
        return which_end_text(table, seat, tile), end_keyboard(table, seat, tile)
    if asked.kind == "way":
        assert end is not None
        return which_way_text(seat, tile), way_keyboard(table, seat, tile, end)
    ways = closings(table, seat, placements)
    return close_text(seat, placements), close_keyboard(table, seat, placements, ways)
