"""What an operator sees when the bot cannot start because Telegram turns it away or cannot be
reached, or its database cannot be used: one clear line, the token never printed, nothing left
open, and a failing exit code so that systemd restarts it (deploy/kozel-bot.service)."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

TOKEN = "123456:very-secret-token"


def start_bot(tmp_path: Path, base_url: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot`` with ``settings`` (``KOZEL_DATABASE="..."``) over the test's."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("KOZEL_")} | {
        "KOZEL_BOT_TOKEN": TOKEN,
        "KOZEL_BASE_URL": base_url,
        "KOZEL_DATABASE": str(tmp_path / "kozel.sqlite3"),
        "KOZEL_LOG_FORMAT": "text",
        **settings,
    }
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Unauthorized(BaseHTTPRequestHandler):
    """The Bot API's answer to a revoked or mistyped token."""

    def do_POST(self) -> None:
        body = json.dumps({"ok": False, "error_code": 401, "description": "Unauthorized"})
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads the bot's output, not the server's."""


class Welcoming(BaseHTTPRequestHandler):
    """A Bot API that knows the token: the bot gets as far as opening its database."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        bot = {"id": 123456, "is_bot": True, "first_name": "Kozel", "username": "kozel_bot"}
        result = bot if self.path.endswith("/getMe") else True
        body = json.dumps({"ok": True, "result": result})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads the bot's output, not the server's."""


def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    server.shutdown()
    server.server_close()


@pytest.fixture
def refusing_server() -> Iterator[str]:
    yield from serve(Unauthorized)


@pytest.fixture
def welcoming_server() -> Iterator[str]:
    yield from serve(Welcoming)


def assert_ends_with(stderr: str, line: str) -> None:
    """The bot's last word is ``line``: no traceback after it, no session left open, no token."""
    assert line in stderr.strip().splitlines()[-1]
    assert "Unclosed" not in stderr
    assert TOKEN not in stderr


def assert_alone(stderr: str) -> None:
    """The bot's line is all there is: PTB's own report of the start it gave up on (a
    traceback) would say nothing more."""
    assert len(stderr.strip().splitlines()) == 1


def test_an_unreachable_bot_api_is_named_in_one_line_and_the_bot_exits_failing(
    tmp_path: Path,
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/bot"
    run = start_bot(tmp_path, url)
    assert run.returncode == 1
    assert_ends_with(run.stderr, f"cannot reach the Bot API at {url}")
    assert_alone(run.stderr)


def test_a_refused_token_says_so_without_printing_it(tmp_path: Path, refusing_server: str) -> None:
    run = start_bot(tmp_path, refusing_server)
    assert run.returncode == 2  # a configuration error: systemd does not restart it
    assert_ends_with(run.stderr, "the Bot API refused KOZEL_BOT_TOKEN")
    assert_alone(run.stderr)


def newer_schema(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 9999")


def not_a_database(path: Path) -> None:
    path.write_text("a note someone saved under the database's name\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "prepare", "reason"),
    [
        ("missing/folder/kozel.sqlite3", None, "unable to open database file"),
        ("notes.txt", not_a_database, "file is not a database"),
        ("kozel.sqlite3", newer_schema, "schema version 9999 is newer than this bot supports"),
    ],
)
def test_a_database_the_bot_cannot_use_is_named_in_one_line_and_the_bot_exits_failing(
    tmp_path: Path,
    welcoming_server: str,
    name: str,
    prepare: Callable[[Path], None] | None,
    reason: str,
) -> None:
    database = tmp_path / name
    if prepare is not None:
        prepare(database)
    run = start_bot(tmp_path, welcoming_server, KOZEL_DATABASE=str(database))
    assert run.returncode == 1
    assert_ends_with(run.stderr, f"cannot use the database {database} (KOZEL_DATABASE): ")
    assert reason in run.stderr.strip().splitlines()[-1]
    assert "Traceback" not in run.stderr


def test_a_webhook_port_in_use_is_named_in_one_line_and_the_bot_exits_failing(
    tmp_path: Path, welcoming_server: str
) -> None:
    taken = str(urlsplit(welcoming_server).port)  # another program listens there
    run = start_bot(
        tmp_path,
        welcoming_server,
        KOZEL_MODE="webhook",
        KOZEL_WEBHOOK_URL="https://bot.example.org/telegram",
        KOZEL_WEBHOOK_SECRET="a-long-random-string",
        KOZEL_WEBHOOK_LISTEN="127.0.0.1",
        KOZEL_WEBHOOK_PORT=taken,
    )
    assert run.returncode == 1
    assert_ends_with(run.stderr, f"cannot listen for webhooks on 127.0.0.1:{taken} ")
    assert "Traceback" not in run.stderr
