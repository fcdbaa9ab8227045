"""What a person sees when the bot cannot start because of its settings."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import Settings


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No KOZEL_ variable and no .env file: the settings a fresh clone starts with."""
    for name in list(os.environ):
        if name.startswith("KOZEL_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("clean_environment")
def test_a_missing_token_names_the_variable_and_where_to_get_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main() == 2
    err = capsys.readouterr().err
    assert "KOZEL_BOT_TOKEN is not set" in err
    assert "@BotFather" in err
    assert "bot_token" not in err
    assert "Field required" not in err


@pytest.mark.usefixtures("clean_environment")
def test_a_bad_value_names_its_variable_and_never_prints_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KOZEL_BOT_TOKEN", "123456:very-secret-token")
    monkeypatch.setenv("KOZEL_TURN_SECONDS", "5")
    assert main() == 2
    err = capsys.readouterr().err
    assert "KOZEL_TURN_SECONDS" in err
    assert "very-secret-token" not in err
    assert "KOZEL_BOT_TOKEN" not in err


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize("port", ["0", "70000"])
def test_a_webhook_port_no_socket_can_have_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    monkeypatch.setenv("KOZEL_BOT_TOKEN", "123456:very-secret-token")
    monkeypatch.setenv("KOZEL_BASE_URL", "http://127.0.0.1:9/bot")  # were it to start: fail fast
    monkeypatch.setenv("KOZEL_MODE", "webhook")
    monkeypatch.setenv("KOZEL_WEBHOOK_URL", "https://bot.example.org/telegram")
    monkeypatch.setenv("KOZEL_WEBHOOK_SECRET", "a-long-random-string")
    monkeypatch.setenv("KOZEL_WEBHOOK_PORT", port)
    assert main() == 2
    assert "KOZEL_WEBHOOK_PORT" in capsys.readouterr().err


def test_every_setting_is_named_where_an_operator_looks_for_it() -> None:
    """deploy/.env.example (which the configuration errors point to) and the README's
    Configuration name each variable the bot reads, and no other."""
    root = Path(__file__).resolve().parents[2]
    prefix = Settings.model_config.get("env_prefix", "")
    settings = {f"{prefix}{name}".upper() for name in Settings.model_fields}
    readme = (root / "README.md").read_text(encoding="utf-8")
    configuration = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    for text in ((root / "deploy" / ".env.example").read_text(encoding="utf-8"), configuration):
        named = set(re.findall(r"\bKOZEL_[A-Z_]*[A-Z]", text))
        assert named == settings


@pytest.mark.usefixtures("clean_environment")
def test_an_unknown_time_zone_names_its_variable_and_how_to_write_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KOZEL_BOT_TOKEN", "123456:very-secret-token")
    monkeypatch.setenv("KOZEL_TIMEZONE", "Europe/Kiev-ish")
    assert main() == 2
    err = capsys.readouterr().err
    assert "KOZEL_TIMEZONE" in err
    assert "Europe/Kyiv" in err  # what a time zone's name looks like
