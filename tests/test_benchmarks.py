"""The benchmarks still run: each plays a tiny version of its measure and prints its figures.

Nothing here is timed; these only catch a benchmark that no longer drives the code it measures
(as when the lobby's buttons changed and the bot benchmark could no longer start a match).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_ai_games import TABLES
from benchmarks.bench_engine import SCORING_TABLES, YARD_TABLES
from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def run(module: str, *args: str) -> str:
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost"}
    done = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_every_game_has_its_tables_in_the_benchmarks() -> None:
    """Adding a game (``engine/games/__init__.py``, step 3) gives it a table in both benchmarks,
    which otherwise measure every game but it, and nothing fails. Kozel's in ``bench_engine`` are
    its own measures (``ours4``, ``ours2``)."""
    assert sorted(set(GAMES) - {"kozel", *SCORING_TABLES, *YARD_TABLES}) == []
    assert sorted(set(GAMES) - set(TABLES)) == []


def test_the_engine_benchmark_plays_matches() -> None:
    out = run("bench_engine", "--seconds", "0.3", "--slices", "1", "--only", "ours4")
    assert "kozel engine, 4 players" in out and "rounds/s" in out


def test_the_engine_benchmark_plays_the_scoring_games() -> None:
    out = run(
        "bench_engine",
        "--seconds",
        "0.6",
        "--slices",
        "1",
        "--only",
        "muggins",
        "--only",
        "bulgarian_fives",
    )
    assert "muggins, 4 players" in out and "bulgarian_fives, 2 players" in out


def test_the_storage_benchmark_commits_moves() -> None:
    out = run("bench_storage", "--tables", "3", "--seconds", "0.3", "--warmup", "0.1")
    assert out.count("\n") == 3  # the heading, then saturated and offered load for 3 tables


def test_the_bot_benchmark_plays_through_the_fake_server() -> None:
    out = run("bench_bot", "--tables", "2", "--seconds", "2", "--warmup", "0.5", "--think", "0.1")
    assert "Bot API calls per ordinary move" in out and "failed calls: 0" in out


def test_the_bot_benchmark_runs_with_the_production_rate_limiter() -> None:
    out = run(
        "bench_bot",
        *("--tables", "2", "--seconds", "2", "--warmup", "0.5", "--think", "0.1", "--rate-limit"),
    )
    assert "production rate limiter" in out and "failed calls: 0" in out
    assert "one token's 30/s is used up at" in out


def test_the_computer_player_benchmark_times_the_strong_player() -> None:
    out = run("bench_ai", "--matches", "1")
    assert "load average before" in out and out.count("\nstrong ") == 1


def test_the_games_benchmark_measures_a_game_on_the_same_deals() -> None:
    out = run(
        "bench_ai_games", "--game", "bulgarian_fives", "--matches", "2", "--versus", "greedy:random"
    )
    assert "bulgarian_fives  2          greedy v random     2 " in out and "(equal 50%)" in out
