"""The self-play command line: JSON Lines transcripts of whole matches between computer players."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from engine import RuleSet, replay
from engine.cli import main

from .support import KOZEL_OPTIONS, Oracle, kozel_options

ROOT = Path(__file__).resolve().parents[2]
TILE = re.compile(r"^([0-6])-([0-6])$")


def transcript(*argv: str) -> list[dict[str, Any]]:
    out = StringIO()
    assert main(["selfplay", *argv], out=out) == 0
    text = out.getvalue()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def is_tile(text: Any) -> bool:
    found = TILE.match(text) if isinstance(text, str) else None
    return found is not None and int(found[1]) <= int(found[2])


def check_shape(lines: list[dict[str, Any]], players: int, sides: int) -> None:
    first, last = lines[0], lines[-1]
    assert first["type"] == "match_started" and first["players"] == players
    assert list(first["options"]) == list(KOZEL_OPTIONS)
    assert last["type"] == "match_ended"
    assert isinstance(last["losers"], list) and last["losers"]
    assert len(last["scores"]) == sides
    assert sum(d["type"] == "match_ended" for d in lines) == 1
    assert lines[1]["type"] in ("round_started", "redealt")
    kinds = set()
    for d in lines[1:-1]:
        kinds.add(d["type"])
        if d["type"] == "round_started":
            assert len(d["hands"]) == players and all(is_tile(x) for h in d["hands"] for x in h)
            assert all(is_tile(x) for x in d["bazaar"])
            assert 0 <= d["leader"] < players
        elif d["type"] == "played":
            assert is_tile(d["tile"]) and d["end"] in ("left", "right")
            assert len(d["ends"]) == 2 and all(0 <= v <= 6 for v in d["ends"])
        elif d["type"] == "drew":
            assert is_tile(d["tile"]) and 0 <= d["seat"] < players
        elif d["type"] == "knocked":
            assert 0 <= d["seat"] < players
        elif d["type"] == "round_ended":
            for key in ("scores", "memory", "opened", "hand_values"):
                assert len(d[key]) == sides, key
            assert d["amounts"] is None or len(d["amounts"]) == sides
            assert isinstance(d["pot"], int) and d["result"] in ("out", "fish")
        else:
            assert d["type"] == "redealt", d
    assert {"round_started", "played", "round_ended"} <= kinds


@pytest.mark.parametrize(
    ("argv", "players", "pairs"),
    [
        (["--players", "2", "--seed", "1"], 2, False),
        (["--players", "3", "--seed", "2", "--ai", "random"], 3, False),
        (["--seed", "3", "--ai", "greedy,random,greedy,random"], 4, False),
        (["--players", "4", "--pairs", "--seed", "4"], 4, True),
    ],
)
def test_transcript_is_valid_json_lines_of_a_legal_match(
    argv: list[str], players: int, pairs: bool
) -> None:
    lines = transcript(*argv)
    check_shape(lines, players, 2 if pairs else players)
    assert lines[0]["pairs"] is pairs and lines[0]["options"] == kozel_options(RuleSet())
    oracle = Oracle(players, pairs, RuleSet())  # every event follows the rules
    for d in lines:
        oracle.feed(d)
    assert oracle.phase == "over"
    assert replay(lines).is_over


def test_same_seed_gives_the_identical_transcript() -> None:
    a = transcript("--players", "3", "--seed", "42")
    assert transcript("--players", "3", "--seed", "42") == a
    assert transcript("--players", "3", "--seed", "43") != a


def test_transcript_does_not_depend_on_the_process() -> None:
    """String hashing differs between processes; the deal and the play must not."""
    expected = StringIO()
    main(["selfplay", "--players", "2", "--seed", "7"], out=expected)
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "engine", "selfplay", "--players", "2", "--seed", "7"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout == expected.getvalue()


def test_set_options_are_reflected_and_obeyed() -> None:
    lines = transcript(
        "--players",
        "3",
        "--seed",
        "5",
        "--set",
        "fish_mode=for_everyone",
        "--set",
        "goat_limit=301",
        "--set",
        "special_bones=true",
    )
    options = lines[0]["options"]
    assert options["fish_mode"] == "for_everyone"
    assert options["goat_limit"] == 301 and options["special_bones"] is True
    rules = RuleSet.from_dict(options)
    oracle = Oracle(3, False, rules)
    for d in lines:
        oracle.feed(d)
    assert max(lines[-1]["scores"]) >= 301
    assert all(not d["eggs"] for d in lines if d["type"] == "round_ended")  # for everyone


@pytest.mark.parametrize(
    "argv",
    [
        ["--set", "nosuch=1"],
        ["--set", "fish_mode=bogus"],
        ["--set", "goat_limit=0"],
        ["--set", "goat_limit=many"],
        ["--set", "bazaar_reserve=1"],
        ["--set", "special_bones=maybe"],
        ["--set", "fish_mode"],
        ["--ai", "nobody"],
        ["--ai", "random,greedy"],
        ["--players", "3", "--pairs"],
    ],
)
def test_bad_option_exits_with_code_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    out = StringIO()
    assert main(["selfplay", *argv], out=out) == 2
    assert out.getvalue() == ""
    assert "error" in capsys.readouterr().err


def test_bad_arguments_exit_with_code_2() -> None:
    with pytest.raises(SystemExit) as info:
        main(["selfplay", "--players", "5"], out=StringIO())
    assert info.value.code == 2


@pytest.mark.parametrize("command", ["selfplay", "arena"])
@pytest.mark.parametrize(
    ("game", "option"),
    [("muggins", "fish_mode=for_one"), ("kozel", "target=250"), ("sea_goat", "game=kozel")],
)
def test_an_option_the_game_does_not_have_is_refused_with_those_it_has(
    command: str, game: str, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--set`` of another game's option (Kozel's fish for Muggins) would be silently ignored:
    refused, naming the options this game has, as its ⚙️ Rules editor offers them."""
    out = StringIO()
    assert main([command, "--game", game, "--players", "2", "--set", option], out=out) == 2
    assert out.getvalue() == ""
    err = capsys.readouterr().err
    assert err.startswith(f"error: {game} has no option {option.partition('=')[0]}; its options:")
    assert ("target, muggins_bonus" in err) == (game == "muggins")
    assert ("goat_limit, fish_mode" in err) == (game == "kozel")
