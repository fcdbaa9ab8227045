"""Request parameters as Telegram reads them: JSON or form fields, with typed accessors."""

from __future__ import annotations

import json
from typing import Any, Final

from aiohttp import web

from .errors import bad_request
from .objects import JSONDict

# Form fields that PTB sends as raw strings (everything else is JSON-encoded).
STRING_FIELDS: Final = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "caption_parse_mode",
        "callback_query_id",
        "inline_message_id",
        "language_code",
        "url",
        "secret_token",
        "ip_address",
        "action",
        "title",
        "description",
        "short_description",
        "name",
        "custom_title",
        "emoji",
        "message_effect_id",
        "business_connection_id",
        "photo",
        "document",
        "sticker",
        "query",
        "payload",
    }
)


def decode_value(name: str, value: Any) -> Any:
    if isinstance(value, web.FileField):
        return {"file": value.filename, "content_type": value.content_type}
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str) and name not in STRING_FIELDS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class Params:
    """Decoded request parameters with typed accessors that fail like Telegram does."""

    def __init__(self, data: JSONDict) -> None:
        self.data = data

    def has(self, name: str) -> bool:
        return self.data.get(name) not in (None, "")

    def get(self, name: str) -> Any:
        return self.data.get(name)

    def opt_str(self, name: str) -> str | None:
        value = self.data.get(name)
        if value is None:
            return None
        return value if isinstance(value, str) else str(value)

    def opt_int(self, name: str) -> int | None:
        value = self.data.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise bad_request(f'field "{name}" must be of type Integer')
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise bad_request(f'field "{name}" must be of type Integer')

    def req_int(self, name: str) -> int:
        value = self.opt_int(name)
        if value is None:
            raise bad_request(f"{name} is empty")
        return value

    def opt_float(self, name: str) -> float | None:
        value = self.data.get(name)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f'field "{name}" must be of type Number') from None

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)


def loose_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


async def read_params(request: web.Request) -> JSONDict:
    """Query string, JSON body or form fields (uploads as ``{"file", "content_type"}``)."""
    raw: dict[str, Any] = dict(request.query)
    if request.method == "POST" and request.can_read_body:
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                raw.update(body)
        else:
            form = await request.post()
            raw.update(form)
    return {name: decode_value(name, value) for name, value in raw.items()}
