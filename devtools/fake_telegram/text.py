"""What Telegram checks in a text and its keyboard before it sends a message.

Texts: empty, longer than 4096 characters, or formatting that does not parse (HTML, the one
formatting the bot sends; any other ``parse_mode`` is refused rather than passed unchecked).
Keyboards: at most 100 buttons and 8 a row, ``callback_data`` of 1-64 bytes.
"""

from __future__ import annotations

import json
from typing import Any, Final

from .errors import (
    ERR_BUTTON_DATA,
    ERR_MARKUP_TOO_LONG,
    ERR_TEXT_EMPTY,
    ERR_TEXT_TOO_LONG,
    ApiError,
    bad_request,
)
from .html import EntityParseError, parse_html, sorted_entities, utf16_len
from .objects import JSONDict
from .params import loose_int

MAX_TEXT_LENGTH: Final = 4096
MAX_CALLBACK_DATA_BYTES: Final = 64
MAX_BUTTONS: Final = 100
MAX_BUTTONS_PER_ROW: Final = 8

_REPLY_MARKUPS: Final = ("keyboard", "remove_keyboard", "force_reply")
_BUTTON_ACTIONS: Final = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
    "web_app",
)


def formatted_text(
    text: str | None, parse_mode: str | None, entities: Any, *, strict_html: bool, utf16: bool
) -> tuple[str, list[JSONDict]]:
    """The text a user will see and its entities, or the ``ApiError`` Telegram answers.

    ``strict_html``: see :func:`parse_html`; ``utf16``: count the length limit in UTF-16 code
    units (see ``FakeTelegram``).
    """
    if not text:
        raise ApiError(400, ERR_TEXT_EMPTY)
    mode = (parse_mode or "").strip().lower()
    try:
        if mode == "html":
            plain, found = parse_html(text, strict_ampersand=strict_html)
        elif mode == "":
            plain, found = text, _explicit_entities(entities, text)
        else:
            raise bad_request(f"unsupported parse_mode {parse_mode!r} (the fake parses HTML only)")
    except EntityParseError as exc:
        raise bad_request(f"can't parse entities: {exc}") from None
    plain, found = _trim(plain, found)
    if not plain:
        raise ApiError(400, ERR_TEXT_EMPTY)
    if (utf16_len(plain) if utf16 else len(plain)) > MAX_TEXT_LENGTH:
        raise ApiError(400, ERR_TEXT_TOO_LONG)
    return plain, found


def _trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """TDLib's fix_formatted_text: drop trailing whitespace, and leading spaces and newlines
    that come before the first entity."""
    right = text.rstrip(" \t\r\n\v\f")
    total = utf16_len(right)
    first_entity = min((e["offset"] for e in entities), default=total)
    lead_chars = 0
    lead = 0
    while lead < first_entity and lead_chars < len(right) and right[lead_chars] in " \n":
        lead_chars += 1
        lead += 1
    result = right[lead_chars:]
    total -= lead
    trimmed: list[JSONDict] = []
    for entity in entities:
        begin = max(0, entity["offset"] - lead)
        end = min(entity["offset"] + entity["length"] - lead, total)
        if end > begin:
            trimmed.append({**entity, "offset": begin, "length": end - begin})
    return result, sorted_entities(trimmed)


def _explicit_entities(entities: Any, text: str) -> list[JSONDict]:
    if entities in (None, ""):
        return []
    if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
        raise bad_request("can't parse entities JSON object")
    total = utf16_len(text)
    result: list[JSONDict] = []
    for entity in entities:
        offset, length = loose_int(entity.get("offset")), loose_int(entity.get("length"))
        if offset is None or length is None or not isinstance(entity.get("type"), str):
            raise bad_request("can't parse MessageEntity")
        if offset < 0 or offset + length > total:
            continue
        result.append({**entity, "offset": offset, "length": length})
    return sorted_entities(result)


def validate_markup(markup: Any, *, inline_only: bool) -> JSONDict | None:
    """The reply markup as sent (None for none), or the ``ApiError`` Telegram answers.

    ``inline_only``: the call takes an inline keyboard only (editing a message does).
    """
    if markup in (None, ""):
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        _check_inline_keyboard(markup["inline_keyboard"])
    elif inline_only:
        raise bad_request("inline keyboard expected")
    elif not any(kind in markup for kind in _REPLY_MARKUPS):
        raise bad_request("can't parse reply keyboard markup JSON object")
    return markup


def _check_inline_keyboard(rows: Any) -> None:
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" must be an Array of Arrays')
    if sum(len(row) for row in rows) > MAX_BUTTONS or any(
        len(row) > MAX_BUTTONS_PER_ROW for row in rows
    ):
        raise ApiError(400, ERR_MARKUP_TOO_LONG)
    for row in rows:
        for button in row:
            _check_inline_button(button)


def _check_inline_button(button: Any) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not button["text"]:
        raise bad_request("BUTTON_TEXT_INVALID")
    if not any(action in button for action in _BUTTON_ACTIONS):
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    data = button.get("callback_data")
    if "callback_data" in button and not (
        isinstance(data, str) and 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES
    ):
        raise ApiError(400, ERR_BUTTON_DATA)
    if "url" in button and not (isinstance(button["url"], str) and button["url"]):
        raise bad_request("BUTTON_URL_INVALID")


def markup_key(markup: JSONDict | None) -> str:
    """Comparable form of a reply markup; an empty inline keyboard equals none."""
    if not markup:
        return ""
    if "inline_keyboard" in markup and not any(markup["inline_keyboard"]):
        return ""
    return json.dumps(markup, sort_keys=True)
