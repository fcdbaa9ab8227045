"""A hand's question is stored as what was asked, so that a redraw asks it again from the
table's state, in the player's language then (``bot.render.asked``)."""

from __future__ import annotations

import json

import pytest

from bot.render.asked import Asked
from engine import Placement, Tile

ASKED = [
    Asked("end", (Placement(Tile(3, 5)),)),
    Asked("way", (Placement(Tile(5, 5), "left"),)),
    Asked("close", (Placement(Tile(3, 3), "right"), Placement(Tile(5, 5), "up", closed=True))),
]


@pytest.mark.parametrize("asked", ASKED, ids=[a.kind for a in ASKED])
def test_a_question_is_asked_again_at_its_turn_only(asked: Asked) -> None:
    assert Asked.loads(asked.dumps(7), 7) == asked
    assert Asked.loads(asked.dumps(7), 8) is None  # a move since: the hand is shown


def test_a_question_stored_as_its_words_shows_the_hand() -> None:
    """As stored before questions were kept this way: not asked again (the tile is tapped
    again), rather than in words that may be in a language no longer the player's."""
    old = json.dumps({"version": 7, "text": "Which end?", "keyboard": {}})
    assert Asked.loads(old, 7) is None
    assert Asked.loads(None, 7) is None
