"""/standings during play: the score under its head, the sheet, then the board, which said the
score a second time below."""

from __future__ import annotations

import pytest

from bot.render.board import score_lines
from bot.render.standings import match_text
from engine import RuleSet
from engine.events import RoundEnded
from engine.rules import PRESETS
from tests.bot.tables import table_of


@pytest.mark.parametrize("game", ["kozel", "muggins"])
def test_standings_say_the_score_once(game: str) -> None:
    table = table_of(["Masha", "Alex"], rules=PRESETS[game]() if game != "kozel" else RuleSet())
    match = table.match
    assert match is not None
    while match.rounds_played < 1:  # a round played, so that the sheet has a row
        seat = match.current_seat
        assert seat is not None
        events = match.act(seat, match.legal_actions(seat)[0])
        table.round_ends += [e for e in events if isinstance(e, RoundEnded)]
    lines = match_text(table, "en").splitlines()
    score = score_lines(table, "en")
    assert lines[1 : 1 + len(score)] == score  # under the head
    assert [lines.count(line) for line in score] == [1] * len(score)
    assert "Turn: <b>" in lines[-1]  # and the board is there
