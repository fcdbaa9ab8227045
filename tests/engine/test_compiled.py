"""The compiled engine (mypyc, ``setup.py``) plays exactly like its plain-Python sources.

Both builds come from the same ``.py`` files, but mypyc checks types at run time and trusts mypy's
narrowing, so a difference would show up as an error or a different match. Each build plays the
same matches in its own interpreter: the installed tree, and a copy of the sources alone.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import build

ROOT = Path(__file__).resolve().parents[2]

# Matches across the option space, with both computer players; each line is an event, then the
# match's JSON state and the state rebuilt from the log, so replay and serialization are compared.
PLAY = """
import json
from engine import replay
from engine.build import compiled
from engine.games import game_of
from engine.rules import PRESETS, RuleSet
from engine.ai import PLAYERS
from engine.selfplay import play_match

print(json.dumps({"compiled": compiled()}))
tables = [(2, False), (3, False), (4, False), (4, True)]
options = [
    {},
    {"draw_mode": "one_per_turn", "bazaar_reserve": 2, "fish_mode": "for_everyone"},
    {"first_lead": "lowest_incl_00", "fish_mode": "lowest_wins", "memory": "discard",
     "eggs": "pot_to_next_winner", "kozel_hand_sizes": "ht", "goat_limit": 61},
    {"first_lead": "one_one_four_else_lowest_double", "draw_mode": "none",
     "restart_1_1_after_unrecorded": True, "fish_closure_rule": False},
]
for n, (players, pairs) in enumerate(tables):
    for k, extra in enumerate(options):
        for preset in PRESETS.values():
            try:  # a game refuses options it does not play; the Bulgarian game is for two; ...
                rules = preset().with_options(**extra)
                game_of(rules).check_table(players, pairs)
            except ValueError:
                continue
            for ai in ("random", "greedy"):
                seed = 97 * n + 13 * k + len(ai)
                events = list(play_match(players, pairs, rules, seed, [PLAYERS[ai]] * players))
                for event in events:
                    print(json.dumps(event.to_dict()))
                print(json.dumps(replay(events).to_json()))
"""


def play(cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=cwd, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


@pytest.mark.skipif(not build.compiled(), reason="the engine was installed without a C compiler")
def test_compiled_and_plain_engines_play_identical_matches(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.so"))
    compiled, plain = play(ROOT), play(tmp_path)
    assert json.loads(compiled[0]) == {"compiled": True}
    assert json.loads(plain[0]) == {"compiled": False}
    assert len(compiled) > 1000  # 64 whole matches of Kozel, and the scoring games
    assert compiled[1:] == plain[1:]


def test_no_source_changed_since_it_was_compiled() -> None:
    assert build.stale_modules() == [], build.describe()
