"""``python -m bot``: run the bot with settings from the environment (see deploy/.env.example)."""

from __future__ import annotations

import os
import sys

from pydantic import ValidationError

from . import logs
from .app import build
from .settings import Settings


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as exc:
        print(
            f"configuration error:\n{exc}\nSet KOZEL_BOT_TOKEN (see deploy/.env.example).",
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
    if settings.mode == "webhook":
        if not settings.webhook_url:
            print("KOZEL_WEBHOOK_URL is required in webhook mode", file=sys.stderr)
            return 2
        app.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path="telegram",
            webhook_url=settings.webhook_url,
            secret_token=settings.webhook_secret.get_secret_value()
            if settings.webhook_secret
            else None,
        )
    else:
        app.run_polling(allowed_updates=["message", "callback_query", "my_chat_member"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
