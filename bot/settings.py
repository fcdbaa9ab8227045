"""Configuration from the environment (prefix ``KOZEL_``) or a ``.env`` file."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal, Self
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "kozel.sqlite3"
#: what Telegram accepts as a webhook's secret token
_SECRET_TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


class Settings(BaseSettings):
    """Everything an operator may change; the token is a secret and never appears in logs."""

    model_config = SettingsConfigDict(env_prefix="KOZEL_", env_file=".env", extra="ignore")

    bot_token: SecretStr = Field(description="Bot API token from @BotFather")
    database: Path = Field(DEFAULT_DATABASE, description="SQLite file; created on first run")
    base_url: str = Field("https://api.telegram.org/bot", description="Bot API base URL")
    base_file_url: str = Field("https://api.telegram.org/file/bot")
    http_client: Literal["aiohttp", "httpx"] = Field(
        "aiohttp", description="transport for Bot API calls; httpx is PTB's default"
    )
    connection_pool: int = Field(64, ge=1, le=1024, description="concurrent Bot API calls")
    default_language: Literal["en", "ru", "uk"] = "ru"
    rate_limit: bool = Field(True, description="throttle sends to Telegram's limits")
    turn_seconds: int = Field(60, ge=10, le=3600, description="default turn time of a table")
    missed_turns_absent: int = Field(2, ge=1, description="missed turns before a seat is absent")
    computer_delay: float = Field(1.2, ge=0, description="pause before a computer player moves")
    computer_level: Literal["easy", "normal", "strong"] = Field(
        "strong", description="how strong a new table's computer players are (each may change it)"
    )
    computer_workers: int = Field(
        default_factory=lambda: max(1, (os.cpu_count() or 2) - 1),
        ge=0,
        description="processes the computer players think in (a core each, one left for the "
        "bot); 0 thinks in the bot's process and holds up every table meanwhile (for tests)",
    )
    lobby_expiry_minutes: int = Field(30, ge=1)
    idle_expiry_minutes: int = Field(24 * 60, ge=1)
    group_messages_per_minute: int = Field(
        18, ge=1, le=20, description="calls a minute to a group, edits included (Telegram: ~20)"
    )
    mode: Literal["polling", "webhook"] = "polling"
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = Field(8443, ge=1, le=65535)
    webhook_secret: SecretStr | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["json", "text"] = Field("json", description="one JSON object per line")
    timezone: str = Field(
        "UTC", description="the IANA time zone whose calendar dates matches (Europe/Kyiv, ...)"
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, name: str) -> str:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {name!r}: use an IANA name such as Europe/Kyiv"
            ) from None
        return name

    @property
    def zone(self) -> ZoneInfo:
        """The time zone that dates matches in /history and /stats."""
        return ZoneInfo(self.timezone)

    @model_validator(mode="after")
    def _webhook_is_complete(self) -> Self:
        """Webhook mode needs a public https URL and a secret Telegram sends back with every
        update, so nobody else can feed the bot updates."""
        if self.mode != "webhook":
            return self
        if not self.webhook_url or urlsplit(self.webhook_url).scheme != "https":
            raise ValueError("webhook mode needs KOZEL_WEBHOOK_URL, an https:// address")
        secret = self.webhook_secret.get_secret_value() if self.webhook_secret else ""
        if not _SECRET_TOKEN.match(secret):
            raise ValueError(
                "webhook mode needs KOZEL_WEBHOOK_SECRET: 1-256 characters A-Z, a-z, 0-9, _ or -"
            )
        return self
