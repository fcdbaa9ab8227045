"""``python -m engine selfplay --game NAME``: the transcripts of the scoring games follow the
format the README documents, and the rules (checked by the property tests' referee)."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest

from engine import RuleSet, replay
from engine.cli import main
from engine.rules import PRESETS, SCORING_OPTION_NAMES

from .test_scoring_properties import SCORING_GAMES, Referee

TABLES = {"bulgarian_fives": ("2",), "telephone_ua": ("4", "--pairs")}


def transcript(*argv: str) -> list[dict[str, Any]]:
    out = StringIO()
    assert main(["selfplay", *argv], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("game", SCORING_GAMES)
def test_a_scoring_game_transcript(game: str) -> None:
    players, *pairs = TABLES.get(game, ("3",))
    argv = ("--game", game, "--players", players, *pairs, "--seed", "9", "--ai", "greedy")
    lines = transcript(*argv)
    assert transcript(*argv) == lines
    first, last = lines[0], lines[-1]
    assert first["game"] == game and list(first["options"]) == list(SCORING_OPTION_NAMES)
    rules = RuleSet.from_dict(first["options"])
    assert rules == PRESETS[game]()
    referee = Referee(int(players), bool(pairs), rules, 9)
    for line in lines:
        referee.feed(line)
        if line["type"] == "played":
            used = line["ends_used"] if "tiles" in line else [line["end"]]
            assert set(used) <= {"left", "right", "up", "down"}
            assert isinstance(line["scored"], int)
            assert ("scores" in line) == (line["scored"] > 0)
        elif line["type"] == "round_ended":
            assert {"amounts", "scores", "hand_values", "winner", "fisherman"} <= set(line)
    assert last["type"] == "match_ended" and {"winners", "scores", "losers"} <= set(last)
    assert replay(lines).is_over


def test_set_options_over_a_preset() -> None:
    lines = transcript("--game", "muggins", "--players", "2", "--seed", "3", "--set", "target=250")
    assert (
        lines[0]["options"]["target"] == 250 and lines[0]["options"]["first_lead"] == "lot_lowest"
    )
    assert max(lines[-1]["scores"]) >= 250


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "bulgarian_fives", "--players", "3"],
        ["--game", "telephone_ua", "--players", "4"],
        ["--game", "muggins", "--set", "target=120"],
    ],
)
def test_a_table_or_option_a_game_refuses(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", *argv], out=StringIO()) == 2
    assert "error" in capsys.readouterr().err
