"""Logging for operators: one JSON object per line (or plain text), never a secret or a hand.

The token hides in places we do not control (PTB logs its base URL, which ends in the token, and
an HTTP error may quote a request URL), so every formatted line is scrubbed of it. PTB's debug
lines that quote what goes to and from Telegram would show players' hands: they are dropped.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Literal

#: attributes every ``LogRecord`` has; anything else on a record came in through ``extra=``
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}
#: PTB debug lines that quote what was sent to or received from Telegram (hand texts, keyboards)
_PAYLOAD_LINES = (
    "Calling Bot API endpoint",
    "Call to Bot API endpoint",
    "Passing request through",
    "Processing update",
)
#: how PTB's retry loop names its start-up steps (initialize, set or delete the webhook)
_BOOTSTRAP = "Network Retry Loop (Bootstrap"
REDACTED = "[redacted]"


class HidePayloads(logging.Filter):
    """Drop log lines that would carry message texts and keyboards, i.e. players' hands."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith(_PAYLOAD_LINES))


class HideBootstrapAborts(logging.Filter):
    """Drop PTB's report, traceback and all, of a start it gave up on (Telegram unreachable, the
    token refused): the error it raises reaches ``python -m bot``, which names it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message.startswith(_BOOTSTRAP) and "Aborting" in message)


class ScrubbingFormatter(logging.Formatter):
    """Formats a record as JSON or text, then removes every secret from the result."""

    def __init__(self, style: Literal["json", "text"], secrets: Iterable[str]) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.style_name = style
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        line = self._json(record) if self.style_name == "json" else self._text(record)
        for secret in self.secrets:
            line = line.replace(secret, REDACTED)
        return line

    def _text(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = _extras(record)
        if fields:
            line += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        return line

    def _json(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_extras(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def _extras(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


def configure(level: str, style: Literal["json", "text"], secrets: Iterable[str]) -> None:
    """Send every logger's lines to stderr through the scrubbing formatter."""
    handler = logging.StreamHandler()
    handler.setFormatter(ScrubbingFormatter(style, secrets))
    handler.addFilter(HidePayloads())
    handler.addFilter(HideBootstrapAborts())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx (the optional transport) logs every request line at INFO, URL and token included
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # with max_retries=0 (the sender owns retries) PTB's limiter logs every 429 as an error
    logging.getLogger("telegram.ext.AIORateLimiter").setLevel(logging.CRITICAL)
