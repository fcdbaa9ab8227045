"""``python -m bot``: run the bot with settings from the environment (see deploy/.env.example)."""

from __future__ import annotations

import logging
import os
import sys

from pydantic import ValidationError
from telegram.error import InvalidToken, NetworkError

from storage import StorageError

from . import logs
from .app import ALLOWED_UPDATES, build, webhook_options
from .settings import Settings

log = logging.getLogger("bot")


def configuration_problems(exc: ValidationError) -> list[str]:
    """Name each problem by the variable a person sets (``KOZEL_BOT_TOKEN``), never pydantic's
    field name, and never quote the input: pydantic's own message would print the token."""
    prefix = Settings.model_config.get("env_prefix", "")
    problems = []
    for error in exc.errors(include_url=False, include_input=False):
        field = ".".join(map(str, error["loc"]))
        name = f"{prefix}{field}".upper() if field else "settings"
        if error["type"] == "missing":
            problems.append(f"  {name} is not set.")
        else:
            problems.append(f"  {name}: {error['msg']}")
        if field == "bot_token":
            problems.append(
                "  Get a token from @BotFather in Telegram (send it /newbot), then run\n"
                "  KOZEL_BOT_TOKEN=123456:your-token ./scripts/run-bot, or put the line\n"
                "  KOZEL_BOT_TOKEN=123456:your-token in a .env file in the folder it starts in\n"
                "  (the repository, for run-bot)."
            )
    return problems


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as exc:
        print(
            "configuration error:",
            *configuration_problems(exc),
            "Every setting is described in deploy/.env.example.",
            sep="\n",
            file=sys.stderr,
        )
        return 2
    logs.configure(
        settings.log_level,
        settings.log_format,
        secrets=[settings.bot_token.get_secret_value()]
        + ([settings.webhook_secret.get_secret_value()] if settings.webhook_secret else []),
    )
    # PTB 22 hands out flood-control delays as timedeltas when asked to (sender.py takes both);
    # asking for them now silences its deprecation warning on every 429
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    app = build(settings)
    try:
        if settings.mode == "webhook":
            app.run_webhook(**webhook_options(settings))
        else:
            app.run_polling(allowed_updates=ALLOWED_UPDATES)
    except InvalidToken:
        # PTB's message quotes the token, and an uncaught one would print it unscrubbed
        # a setting that stays wrong until it is changed: exit 2, which systemd does not restart
        log.error("the Bot API refused KOZEL_BOT_TOKEN: check it with @BotFather (/mybots)")
        return 2
    except NetworkError as exc:
        # systemd restarts the bot (deploy/kozel-bot.service), so one clear line is enough
        log.error("cannot reach the Bot API at %s: %s", settings.base_url, exc)
        return 1
    except OSError as exc:
        if settings.mode != "webhook":
            raise
        # the port is another program's, or below 1024 without the privilege
        log.error(
            "cannot listen for webhooks on %s:%s (KOZEL_WEBHOOK_LISTEN, KOZEL_WEBHOOK_PORT): %s",
            settings.webhook_listen,
            settings.webhook_port,
            exc,
        )
        return 1
    except StorageError as exc:
        # a missing folder, a stray file or a newer bot's database: a traceback would say no more
        log.error("cannot use the database %s (KOZEL_DATABASE): %s", settings.database, exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
