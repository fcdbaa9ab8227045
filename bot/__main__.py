"""``python -m bot``: run the bot with settings from the environment (see deploy/.env.example)."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

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
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its request lines carry the token
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
