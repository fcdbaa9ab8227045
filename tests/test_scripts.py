"""The shell scripts an operator runs: ``scripts/install`` builds the environment a service runs
the bot from (deploy/kozel-bot.service) without starting the bot, so no database appears in the
checkout; ``scripts/run-bot`` installs the same way, then starts it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: stands in for .venv's python: notes how it was called instead of installing or running anything
RECORDING_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/calls"
"""


def checkout(tmp_path: Path) -> Path:
    """A copy of the scripts whose .venv exists already, with a python that records its calls."""
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(RECORDING_PYTHON, encoding="utf-8")
    python.chmod(0o755)
    return tmp_path


def run(root: Path, script: str, *args: str) -> list[str]:
    """Run ``script`` with a token set, as on a server, and return the python calls it made."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("KOZEL_")}
    env |= {"KOZEL_BOT_TOKEN": "123456:token", "KOZEL_DATABASE": str(root / "kozel.sqlite3")}
    subprocess.run([root / "scripts" / script, *args], env=env, check=True, timeout=60)
    return (root / ".venv" / "bin" / "calls").read_text(encoding="utf-8").splitlines()


def test_install_builds_the_environment_and_starts_nothing(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    calls = run(root, "install")
    assert calls == ["-m pip install -q --disable-pip-version-check -e .[webhooks]"]
    assert not list(root.glob("*.sqlite3*"))


def test_run_bot_installs_the_same_way_then_starts_the_bot(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    calls = run(root, "run-bot")
    assert calls == ["-m pip install -q --disable-pip-version-check -e .[webhooks]", "-m bot"]
