"""The arena command: many matches between computer players, seats rotated, a line per kind."""

from __future__ import annotations

import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from engine.arena import match_seeds, seating, wilson
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(
    r"^(?P<name>\w+) +(?P<sides>\d+)  (?P<goats>\d+) [\d.]+% \[[\d.]+-[\d.]+\] +"
    r"(?P<won>\d+) [\d.]+% \[[\d.]+-[\d.]+\] +(?P<mean>[\d.]+) ± [\d.]+ +"
    r"(?P<choices>\d+) +(?P<forced>\d+)  [\d.]+ / [\d.]+ / [\d.]+$"
)


def arena(*argv: str) -> list[str]:
    out = StringIO()
    assert main(["arena", *argv], out=out) == 0
    return out.getvalue().splitlines()


def test_prints_a_row_per_kind_that_adds_up() -> None:
    lines = arena("--ai", "greedy,random,random,random", "--matches", "6", "--seed", "3")
    assert lines[0].startswith("arena: 6 matches of kozel, 4 players each for themselves, seed 3")
    rows = {m["name"]: m for m in map(ROW.match, lines[2:]) if m}
    assert set(rows) == {"greedy", "random"} and len(lines) == 4
    assert int(rows["greedy"]["sides"]) == 6 and int(rows["random"]["sides"]) == 18
    assert sum(int(r["goats"]) for r in rows.values()) >= 6  # one goat a match, or more at once
    for row in rows.values():
        assert int(row["goats"]) + int(row["won"]) <= int(row["sides"])
        assert int(row["choices"]) > 0 and int(row["forced"]) > 0


def test_pairs_count_each_side_once() -> None:
    lines = arena("--pairs", "--ai", "greedy,random,greedy,random", "--matches", "4", "--seed", "1")
    rows = {m["name"]: m for m in map(ROW.match, lines[2:]) if m}
    assert int(rows["greedy"]["sides"]) == 4 and int(rows["random"]["sides"]) == 4
    # One side of two loses each match, the other wins it.
    assert sum(int(r["goats"]) + int(r["won"]) for r in rows.values()) == 8


def test_seats_rotate_so_every_kind_plays_every_seat_and_partners_stay() -> None:
    names = ["strong", "greedy", "strong", "greedy"]
    tables = [seating(names, i) for i in range(4)]
    for seat in range(4):
        assert sorted(table[seat] for table in tables) == sorted(names)
    assert all(table[0] == table[2] and table[1] == table[3] for table in tables)
    three = [seating(["easy", "random", "greedy"], i) for i in range(3)]
    assert {table.index("easy") for table in three} == {0, 1, 2}


def test_the_same_seed_gives_the_same_results_but_for_the_timings() -> None:
    def results(seed: str) -> list[str]:
        lines = arena("--players", "2", "--ai", "greedy,random", "--matches", "3", "--seed", seed)
        return [line.rsplit("  ", 1)[0] for line in lines]

    assert results("5") == results("5")
    assert results("5") != results("6")


@pytest.mark.parametrize(
    "argv",
    [
        ["--matches", "0"],
        ["--ai", "strong,nobody,greedy,greedy"],
        ["--players", "3", "--pairs"],
        ["--set", "goat_limit=0"],
    ],
)
def test_refuses_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", *argv]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_knows_only_the_engines_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--game", "chess"])
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    assert arena("--game", "kozel", "--players", "2", "--matches", "1")[0].startswith(
        "arena: 1 matches of kozel"
    )


def test_wilson_interval_holds_the_rate() -> None:
    low, high = wilson(12, 100)
    assert low < 0.12 < high and low > 0.06 and high < 0.21
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize("command", ["selfplay", "arena"])
def test_a_closed_pipe_ends_the_output_quietly(command: str) -> None:
    """``python -m engine ... | head`` must not print a BrokenPipeError traceback."""
    argv = [sys.executable, "-m", "engine", command, "--ai", "random", "--matches", "50"]
    if command == "selfplay":
        argv = argv[:-2]
    proc = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(1)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_the_same_deals_come_again_in_every_seating() -> None:
    once = list(match_seeds(7, 3))
    assert list(match_seeds(7, 6, repeat=2)) == [
        once[0],
        once[0],
        once[1],
        once[1],
        once[2],
        once[2],
    ]
