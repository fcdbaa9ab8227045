"""``python -m bot``: run the bot with settings from the environment (see deploy/.env.example)."""

from __future__ import annotations

import os
import sys

from pydantic import ValidationError

from . import logs
from .app import ALLOWED_UPDATES, build, webhook_options
from .settings import Settings


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as exc:
        # pydantic's own message quotes the input, token included: say only what is wrong
        problems = [
            f"  {'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}"
            for e in exc.errors(include_url=False, include_input=False)
        ]
        print(
            "configuration error:",
            *problems,
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
    if settings.mode == "webhook":
        app.run_webhook(**webhook_options(settings))
    else:
        app.run_polling(allowed_updates=ALLOWED_UPDATES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
