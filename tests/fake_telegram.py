"""A fake Telegram Bot API server for end-to-end tests.

The real python-telegram-bot ``Application`` (polling mode) talks to this server over HTTP on
127.0.0.1, exactly as it would talk to ``api.telegram.org``.  The server keeps the state a
user would see (the bot's messages with their current text and keyboard, callback answers,
registered commands) and models the Telegram behaviours that break bots in production:

* 403 for users who never pressed Start or who blocked the bot;
* 400 for unchanged edits, unknown chats/messages, invalid ``callback_data``, too long or
  empty texts, HTML / MarkdownV2 that Telegram cannot parse (ported from TDLib's parsers);
* 429 flood control, injected by the test or enforced for groups (20 messages a minute);
* group to supergroup migration;
* privacy mode: in groups the bot only sees commands, mentions and replies to itself;
* webhooks: once ``setWebhook`` is called, getUpdates is refused and each update is POSTed to
  the bot with the ``X-Telegram-Bot-Api-Secret-Token`` header, as Telegram does (to the
  address given by ``deliver_webhooks_to``: the registered https URL is not on this machine).

Typical use::

    async with FakeTelegram() as server:
        app = server.configure(ApplicationBuilder()).build()
        app.add_handler(CommandHandler("ping", ping))
        alice = server.user(1, "Alice")
        async with app:
            await app.start()
            await app.updater.start_polling(poll_interval=0, timeout=1)
            await server.send_text(alice, alice, "/ping")
            await server.wait_for(lambda: server.messages(alice))
            await app.updater.stop()
            await app.stop()

Everything runs on the test's event loop; no threads.  Waiting helpers (``wait_for``,
``wait_for_message``, ``wait_idle``) wake up whenever the server handles a request or an
update is injected, so tests never need fixed sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import re
import socket
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import aiohttp
from aiohttp import web
from telegram import Bot
from telegram.ext import ApplicationBuilder
from telegram.request import HTTPXRequest

__all__ = [
    "DEFAULT_TOKEN",
    "CallbackAnswer",
    "EntityParseError",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "RecordedCall",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
    "utf16_len",
]

JSONDict = dict[str, Any]
T = TypeVar("T")
BuilderT = TypeVar("BuilderT", bound=ApplicationBuilder[Any, Any, Any, Any, Any, Any])

DEFAULT_TOKEN: Final = "123456789:AAFakeTokenForTestsOnly-0123456789abc"

MAX_TEXT_LENGTH: Final = 4096
MAX_CALLBACK_DATA_BYTES: Final = 64
MAX_CALLBACK_ANSWER_LENGTH: Final = 200
MAX_BUTTONS: Final = 100
MAX_BUTTONS_PER_ROW: Final = 8
MAX_COMMANDS: Final = 100

# Telegram error descriptions, verbatim.
ERR_NOT_MODIFIED: Final = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
ERR_CANT_INITIATE: Final = "Forbidden: bot can't initiate conversation with a user"
ERR_BLOCKED: Final = "Forbidden: bot was blocked by the user"
ERR_CHAT_NOT_FOUND: Final = "Bad Request: chat not found"
ERR_EDIT_NOT_FOUND: Final = "Bad Request: message to edit not found"
ERR_DELETE_NOT_FOUND: Final = "Bad Request: message to delete not found"
ERR_TEXT_EMPTY: Final = "Bad Request: message text is empty"
ERR_TEXT_TOO_LONG: Final = "Bad Request: message is too long"
ERR_BUTTON_DATA: Final = "Bad Request: BUTTON_DATA_INVALID"
ERR_MARKUP_TOO_LONG: Final = "Bad Request: reply markup is too long"
ERR_QUERY_INVALID: Final = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
ERR_MIGRATED: Final = "Bad Request: group chat was upgraded to a supergroup chat"
ERR_POLL_CONFLICT: Final = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
ERR_WEBHOOK_ACTIVE: Final = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)

_SPACE: Final = frozenset(" \t\r\n\v\0")  # TDLib's is_space(), "\0" standing for end of text
_END: Final = "\0"

# Form fields that PTB sends as raw strings (everything else is JSON-encoded).
_STRING_FIELDS: Final = frozenset(
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

_CHAT_ACTIONS: Final = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)

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

_COMMAND_RE: Final = re.compile(r"^/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?")
_BOT_COMMAND_NAME_RE: Final = re.compile(r"^[a-z0-9_]{1,32}$")
_SCOPE_TYPES: Final = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)
_DEFAULT_UPDATE_TYPES_EXCLUDED: Final = frozenset(
    {"chat_member", "message_reaction", "message_reaction_count"}
)
_ANONYMOUS_GROUP_ADMIN: Final[JSONDict] = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}


# --------------------------------------------------------------------------------------------
# Text helpers and entity parsers (ported from TDLib's td/telegram/MessageEntity.cpp)
# --------------------------------------------------------------------------------------------


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _u16(ch: str) -> int:
    return 2 if ord(ch) > 0xFFFF else 1


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", "surrogatepass"))


class EntityParseError(ValueError):
    """Telegram could not parse the formatting of a text (``can't parse entities: ...``)."""


def _entity(kind: str, offset: int, length: int, **extra: Any) -> JSONDict:
    result: JSONDict = {"type": kind, "offset": offset, "length": length}
    result.update({key: value for key, value in extra.items() if value is not None})
    return result


def _sorted_entities(entities: Iterable[JSONDict]) -> list[JSONDict]:
    kept = [e for e in entities if e["length"] > 0]
    return sorted(kept, key=lambda e: (e["offset"], -e["length"], e["type"]))


def _decode_html_entity(text: str, pos: int) -> tuple[int, int] | None:
    """Decode the character reference at ``text[pos] == '&'``: (code point, next index)."""
    n = len(text)
    end = pos + 1
    code = 0
    if end < n and text[end] == "#":
        end += 1
        if end < n and text[end] == "x":
            end += 1
            while end < n and text[end] in "0123456789abcdefABCDEF":
                code = code * 16 + int(text[end], 16)
                end += 1
        else:
            while end < n and text[end] in "0123456789":
                code = code * 10 + int(text[end])
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return None
    else:
        while end < n and text[end].isascii() and text[end].isalpha():
            end += 1
        named = {"lt": 0x3C, "gt": 0x3E, "amp": 0x26, "quot": 0x22}.get(text[pos + 1 : end])
        if named is None:
            return None
        code = named
    if end < n and text[end] == ";":
        end += 1
    return code, end


_HTML_TAGS: Final = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_HTML_SIMPLE: Final = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "u": "underline",
    "ins": "underline",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}


def parse_html(text: str, *, strict_ampersand: bool = True) -> tuple[str, list[JSONDict]]:
    """Parse Telegram HTML like TDLib does; return (plain text, Bot API entities).

    With ``strict_ampersand`` (the default) an ``&`` that does not start a character reference
    is rejected.  Real Telegram keeps such an ``&`` literally, but a bot that relies on this has
    forgotten to escape user input (``&lt;`` in a name would be shown as ``<``), so the fake
    server flags it.  Raises :class:`EntityParseError` with TDLib's wording otherwise.
    """
    n = len(text)

    def at(j: int) -> str:
        return text[j] if j < n else _END

    def offset(j: int) -> int:
        return _byte_offset(text, j)

    out: list[str] = []
    u16 = 0
    entities: list[JSONDict] = []
    # (tag name, argument, entity offset in UTF-16 units, start index in ``out``)
    stack: list[tuple[str, str, int, int]] = []
    i = 0
    while i < n:
        c = text[i]
        if c == "&":
            decoded = _decode_html_entity(text, i)
            if decoded is not None:
                code, i = decoded
                if 0xD800 <= code <= 0xDFFF:
                    raise EntityParseError(
                        "Text contains invalid Unicode characters after decoding HTML entities, "
                        "check for unmatched surrogate code units"
                    )
                ch = chr(code)
                out.append(ch)
                u16 += _u16(ch)
                continue
            if strict_ampersand:
                raise EntityParseError(
                    f"Character '&' at byte offset {offset(i)} does not start an HTML entity; "
                    "use &amp; (the fake server is stricter than Telegram here: it catches "
                    "unescaped user input)"
                )
        if c != "<":
            out.append(c)
            u16 += _u16(c)
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != "/":
            while at(i) not in _SPACE and at(i) != ">":
                i += 1
            if i >= n:
                raise EntityParseError(f"Unclosed start tag at byte offset {offset(begin)}")
            tag = text[begin + 1 : i].lower()
            if tag not in _HTML_TAGS:
                raise EntityParseError(
                    f'Unsupported start tag "{tag}" at byte offset {offset(begin)}'
                )
            argument = ""
            while at(i) != ">":
                while i < n and at(i) in _SPACE:
                    i += 1
                if at(i) == ">":
                    break
                attribute_begin = i
                while at(i) not in _SPACE and at(i) not in "=>":
                    i += 1
                attribute = text[attribute_begin:i]
                if not attribute:
                    raise EntityParseError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {offset(begin)}'
                    )
                while i < n and at(i) in _SPACE:
                    i += 1
                if at(i) != "=":
                    if tag == "blockquote" and attribute == "expandable":
                        argument = "expandable"
                        continue
                    raise EntityParseError(
                        "Expected equal sign in declaration of an attribute of the tag "
                        f'"{tag}" at byte offset {offset(begin)}'
                    )
                i += 1
                while i < n and at(i) in _SPACE:
                    i += 1
                if i >= n:
                    raise EntityParseError(
                        f'Unclosed start tag "{tag}" at byte offset {offset(begin)}'
                    )
                if at(i) not in "'\"":
                    token_begin = i
                    while at(i).isascii() and (at(i).isalnum() or at(i) in ".-"):
                        i += 1
                    value = text[token_begin:i].lower()
                    if at(i) not in _SPACE and at(i) != ">":
                        raise EntityParseError(
                            f"Unexpected end of name token at byte offset {offset(token_begin)}"
                        )
                else:
                    quote = text[i]
                    i += 1
                    chars: list[str] = []
                    while i < n and text[i] != quote:
                        if text[i] == "&":
                            decoded = _decode_html_entity(text, i)
                            if decoded is not None:
                                chars.append(chr(decoded[0]))
                                i = decoded[1]
                                continue
                        chars.append(text[i])
                        i += 1
                    if i < n:
                        i += 1
                    value = "".join(chars)
                if i >= n:
                    raise EntityParseError(f"Unclosed start tag at byte offset {offset(begin)}")
                if tag == "a" and attribute == "href":
                    argument = value
                elif tag == "code" and attribute == "class" and value.startswith("language-"):
                    argument = value[len("language-") :]
                elif tag == "span" and attribute == "class" and value.startswith("tg-"):
                    argument = value[len("tg-") :]
                elif tag == "tg-emoji" and attribute == "emoji-id":
                    argument = value
            if tag == "span" and argument != "spoiler":
                raise EntityParseError(
                    f'Tag "span" must have class "tg-spoiler" at byte offset {offset(begin)}'
                )
            stack.append((tag, argument, u16, len(out)))
            i += 1  # the '>'
            continue

        # an end tag
        if not stack:
            raise EntityParseError(f"Unexpected end tag at byte offset {offset(begin)}")
        while at(i) not in _SPACE and at(i) != ">":
            i += 1
        end_tag = text[begin + 2 : i].lower()
        while i < n and at(i) in _SPACE:
            i += 1
        if at(i) != ">":
            raise EntityParseError(f"Unclosed end tag at byte offset {offset(begin)}")
        tag, argument, start, out_begin = stack[-1]
        if end_tag and end_tag != tag:
            raise EntityParseError(
                f'Unmatched end tag at byte offset {offset(begin)}, expected "</{tag}>", '
                f'found "</{end_tag}>"'
            )
        length = u16 - start
        if length > 0:
            last = entities[-1] if entities else None
            same_span = last is not None and last["offset"] == start and last["length"] == length
            if tag in _HTML_SIMPLE:
                entities.append(_entity(_HTML_SIMPLE[tag], start, length))
            elif tag == "tg-emoji":
                if not argument.isdigit() or int(argument) == 0:
                    raise EntityParseError("Invalid custom emoji identifier specified")
                entities.append(_entity("custom_emoji", start, length, custom_emoji_id=argument))
            elif tag == "a":
                url = argument or "".join(out[out_begin:])
                if url:
                    entities.append(_entity("text_link", start, length, url=url))
            elif tag == "pre":
                if last is not None and same_span and last["type"] == "code" and last.get("_lang"):
                    last["type"] = "pre"
                    last["language"] = last.pop("_lang")
                else:
                    entities.append(_entity("pre", start, length))
            elif tag == "code":
                if last is not None and same_span and last["type"] == "pre" and argument:
                    last["language"] = argument
                else:
                    entities.append(_entity("code", start, length, _lang=argument or None))
            else:  # blockquote
                kind = "expandable_blockquote" if argument == "expandable" else "blockquote"
                entities.append(_entity(kind, start, length))
        stack.pop()
        i += 1  # the '>'

    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    for entity in entities:
        entity.pop("_lang", None)
    return "".join(out), _sorted_entities(entities)


_MD2_API_TYPES: Final = {
    "Bold": "bold",
    "Italic": "italic",
    "Underline": "underline",
    "Strikethrough": "strikethrough",
    "Spoiler": "spoiler",
    "Code": "code",
    "Pre": "pre",
    "PreCode": "pre",
    "TextUrl": "text_link",
    "CustomEmoji": "custom_emoji",
    "BlockQuote": "blockquote",
}


@dataclass
class _MdOpen:
    kind: str  # TDLib type name, used in error messages
    argument: str
    offset: int  # UTF-16
    index: int  # index in the source text (for byte offsets in errors)
    out_begin: int  # index in the output list


def _md2_entity(kind: str, offset: int, length: int, argument: str) -> JSONDict:
    api = _MD2_API_TYPES[kind]
    if kind == "PreCode":
        return _entity(api, offset, length, language=argument)
    if kind == "TextUrl":
        return _entity(api, offset, length, url=argument)
    if kind == "CustomEmoji":
        return _entity(api, offset, length, custom_emoji_id=argument)
    return _entity(api, offset, length)


def parse_markdown_v2(text: str) -> tuple[str, list[JSONDict]]:
    """Parse MarkdownV2 like TDLib does; return (plain text, Bot API entities)."""
    n = len(text)

    def at(j: int) -> str:
        return text[j] if j < n else _END

    def escapable(j: int) -> bool:
        return j < n and 0 < ord(text[j]) <= 126

    def reserved_error(ch: str) -> EntityParseError:
        return EntityParseError(
            f"Character '{ch}' is reserved and must be escaped with the preceding '\\'"
        )

    def read_url(j: int) -> tuple[str, int]:
        chars: list[str] = []
        while j < n and text[j] != ")":
            if text[j] == "\\" and escapable(j + 1):
                chars.append(text[j + 1])
                j += 2
                continue
            chars.append(text[j])
            j += 1
        return "".join(chars), j

    out: list[str] = []
    u16 = 0
    entities: list[JSONDict] = []
    stack: list[_MdOpen] = []
    have_blockquote = False
    i = 0
    while i < n:
        c = text[i]
        if c == "\\" and escapable(i + 1):
            out.append(text[i + 1])
            u16 += 1
            i += 2
            continue
        reserved = "_*[]()~`>#+-=|{}.!\n"
        if stack and stack[-1].kind in ("Code", "Pre", "PreCode"):
            reserved = "`"
        if c not in reserved:
            out.append(c)
            u16 += _u16(c)
            i += 1
            continue

        is_end = False
        if stack:
            top_kind = stack[-1].kind
            if have_blockquote and c == "\n" and (i + 1 == n or at(i + 1) != ">"):
                is_end = True
            elif top_kind == "Bold":
                is_end = c == "*"
            elif top_kind == "Italic":
                is_end = c == "_" and at(i + 1) != "_"
            elif top_kind == "Code":
                is_end = c == "`"
            elif top_kind in ("Pre", "PreCode"):
                is_end = c == "`" and at(i + 1) == "`" and at(i + 2) == "`"
            elif top_kind in ("TextUrl", "CustomEmoji"):
                is_end = c == "]"
            elif top_kind == "Underline":
                is_end = c == "_" and at(i + 1) == "_"
            elif top_kind == "Strikethrough":
                is_end = c == "~"
            elif top_kind == "Spoiler":
                is_end = c == "|" and at(i + 1) == "|"

        if not is_end:
            start_index = i
            argument = ""
            kind: str | None
            if c == "_":
                if at(i + 1) == "_":
                    kind = "Underline"
                    i += 1
                else:
                    kind = "Italic"
            elif c == "*":
                kind = "Bold"
            elif c == "~":
                kind = "Strikethrough"
            elif c == "|":
                if at(i + 1) != "|":
                    raise reserved_error(c)
                i += 1
                kind = "Spoiler"
            elif c == "[":
                kind = "TextUrl"
            elif c == "`":
                if at(i + 1) == "`" and at(i + 2) == "`":
                    i += 3
                    kind = "Pre"
                    language_end = i
                    while at(language_end) not in _SPACE and at(language_end) != "`":
                        language_end += 1
                    if i != language_end and language_end < n and at(language_end) != "`":
                        kind = "PreCode"
                        argument = text[i:language_end]
                        i = language_end
                    if at(i) in "\n\r":
                        if at(i + 1) in "\n\r" and at(i) != at(i + 1):
                            i += 2
                        else:
                            i += 1
                    i -= 1
                else:
                    kind = "Code"
            elif c == "!":
                if at(i + 1) != "[":
                    raise reserved_error(c)
                i += 1
                kind = "CustomEmoji"
            elif c == "\n":
                u16 += 1
                out.append("\n")
                kind = None
                if i + 1 < n and at(i + 1) == ">":
                    i += 1
                    if not have_blockquote:
                        kind = "BlockQuote"
                        have_blockquote = True
            elif c == ">":
                if i != 0:
                    raise reserved_error(c)
                kind = "BlockQuote"
                have_blockquote = True
            else:
                raise reserved_error(c)
            if kind is not None:
                stack.append(_MdOpen(kind, argument, u16, start_index, len(out)))
            i += 1
            continue

        top = stack[-1]
        if c == "\n" and top.kind != "BlockQuote":
            where = _byte_offset(text, top.index)
            raise EntityParseError(f"Can't find end of {top.kind} entity at byte offset {where}")
        argument = top.argument
        skip = u16 == top.offset
        if top.kind in ("Underline", "Spoiler"):
            i += 1
        elif top.kind in ("Pre", "PreCode"):
            i += 2
        elif top.kind == "TextUrl":
            if at(i + 1) != "(":
                url = "".join(out[top.out_begin :])
            else:
                url_begin = i + 2
                url, i = read_url(url_begin)
                if at(i) != ")":
                    raise EntityParseError(
                        f"Can't find end of a URL at byte offset {_byte_offset(text, url_begin)}"
                    )
            if url:
                argument = url
            else:
                skip = True
        elif top.kind == "CustomEmoji":
            if at(i + 1) != "(":
                raise EntityParseError("Custom emoji entity must contain a tg://emoji URL")
            url_begin = i + 2
            url, i = read_url(url_begin)
            if at(i) != ")":
                raise EntityParseError(
                    "Can't find end of a custom emoji URL at byte offset "
                    f"{_byte_offset(text, url_begin)}"
                )
            match = re.fullmatch(r"tg://emoji\?id=(\d+)", url)
            if match is None:
                raise EntityParseError("Custom emoji URL must have an emoji identifier")
            argument = match.group(1)
        elif top.kind == "BlockQuote":
            have_blockquote = False
            out.append(c)
            u16 += 1
        if not skip:
            entities.append(_md2_entity(top.kind, top.offset, u16 - top.offset, argument))
        stack.pop()
        i += 1

    if have_blockquote and stack and stack[-1].kind == "BlockQuote":
        top = stack.pop()
        if u16 != top.offset:
            entities.append(_md2_entity("BlockQuote", top.offset, u16 - top.offset, ""))
    if stack:
        top = stack[-1]
        raise EntityParseError(
            f"Can't find end of {top.kind} entity at byte offset {_byte_offset(text, top.index)}"
        )
    return "".join(out), _sorted_entities(entities)


def parse_markdown(text: str) -> tuple[str, list[JSONDict]]:
    """Parse legacy ``Markdown`` like TDLib does; return (plain text, Bot API entities)."""
    n = len(text)

    def at(j: int) -> str:
        return text[j] if j < n else _END

    out: list[str] = []
    u16 = 0
    entities: list[JSONDict] = []
    i = 0
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in "_*`[":
            out.append(text[i + 1])
            u16 += 1
            i += 2
            continue
        if c not in "_*`[":
            out.append(c)
            u16 += _u16(c)
            i += 1
            continue
        begin = i
        end_char = "]" if c == "[" else c
        is_pre = False
        language = ""
        i += 1
        if c == "`" and at(i) == "`" and at(i + 1) == "`":
            i += 2
            is_pre = True
            language_end = i
            while at(language_end) not in _SPACE and at(language_end) != "`":
                language_end += 1
            if i != language_end and language_end < n and at(language_end) != "`":
                language = text[i:language_end]
                i = language_end
            if at(i) in "\n\r":
                if at(i + 1) in "\n\r" and at(i) != at(i + 1):
                    i += 2
                else:
                    i += 1
        start = u16
        while i < n and (
            text[i] != end_char or (is_pre and not (at(i + 1) == "`" and at(i + 2) == "`"))
        ):
            out.append(text[i])
            u16 += _u16(text[i])
            i += 1
        if i >= n:
            raise EntityParseError(
                f"Can't find end of the entity starting at byte offset {_byte_offset(text, begin)}"
            )
        length = u16 - start
        if c == "[":
            if at(i + 1) == "(":
                close = text.find(")", i + 2)
                close = n if close < 0 else close
                url = text[i + 2 : close]
                i = close
            else:
                url = text[begin + 1 : i]
            if length and url:
                entities.append(_entity("text_link", start, length, url=url))
        elif length:
            if c == "_":
                entities.append(_entity("italic", start, length))
            elif c == "*":
                entities.append(_entity("bold", start, length))
            elif is_pre:
                entities.append(_entity("pre", start, length, language=language or None))
            else:
                entities.append(_entity("code", start, length))
        if is_pre:
            i += 2
        i += 1
    return "".join(out), _sorted_entities(entities)


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
    return result, _sorted_entities(trimmed)


# --------------------------------------------------------------------------------------------
# Data the tests see
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user as the test knows it (create with :meth:`FakeTelegram.user`)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    last_name: str | None = None
    is_bot: bool = False

    def to_dict(self) -> JSONDict:
        """The Bot API ``User`` object."""
        result: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            result["last_name"] = self.last_name
        if self.username:
            result["username"] = self.username
        if self.language_code:
            result["language_code"] = self.language_code
        return result


@dataclass
class FakeChat:
    """A chat known to the server: private (id = user id), group or supergroup."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    migrated_to: int | None = None
    migrated_from: int | None = None

    def to_dict(self) -> JSONDict:
        """The Bot API ``Chat`` object."""
        result: JSONDict = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            result["first_name"] = self.user.first_name
            if self.user.last_name:
                result["last_name"] = self.user.last_name
            if self.user.username:
                result["username"] = self.user.username
        else:
            if self.title is not None:
                result["title"] = self.title
            if self.username:
                result["username"] = self.username
        return result


ButtonMatcher = str | Callable[[JSONDict], bool]


@dataclass
class FakeMessage:
    """A message in a chat, as it currently is: edits are applied in place.

    ``text`` is what the user sees (markup removed, HTML entities decoded); ``raw_text`` and
    ``parse_mode`` are what the bot sent last.  ``edited`` counts successful edits of text or
    keyboard; ``history`` keeps the previous texts.  ``sent_at`` uses the server clock
    (``time.monotonic`` unless the test passed its own), ``date`` is a unix timestamp.
    """

    chat: FakeChat
    message_id: int
    sender: JSONDict
    date: int
    sent_at: float
    from_bot: bool
    text: str | None = None
    entities: list[JSONDict] = field(default_factory=list)
    reply_markup: JSONDict | None = None
    raw_text: str | None = None
    parse_mode: str | None = None
    edited: int = 0
    edit_date: int | None = None
    deleted: bool = False
    delivered: bool = True
    history: list[str] = field(default_factory=list)
    extra: JSONDict = field(default_factory=dict)
    options: JSONDict = field(default_factory=dict)

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def inline_keyboard(self) -> list[list[JSONDict]]:
        """Rows of inline buttons (empty when there is no inline keyboard)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or []
        return [list(row) for row in rows]

    @property
    def buttons(self) -> list[JSONDict]:
        """All inline buttons, row by row."""
        return [button for row in self.inline_keyboard for button in row]

    @property
    def button_texts(self) -> list[list[str]]:
        """The inline keyboard as rows of button labels."""
        return [[str(button.get("text", "")) for button in row] for row in self.inline_keyboard]

    def find_button(self, match: ButtonMatcher) -> JSONDict | None:
        """The first inline button whose text equals ``match`` (or for which it returns True)."""
        for button in self.buttons:
            if match(button) if callable(match) else button.get("text") == match:
                return button
        return None

    def to_dict(self) -> JSONDict:
        """The Bot API ``Message`` object, as Telegram would send it now."""
        result: JSONDict = {
            "message_id": self.message_id,
            "from": dict(self.sender),
            "chat": self.chat.to_dict(),
            "date": self.date,
        }
        if self.text is not None:
            result["text"] = self.text
            if self.entities:
                result["entities"] = [dict(e) for e in self.entities]
        if self.reply_markup and self.inline_keyboard:
            result["reply_markup"] = json.loads(json.dumps(self.reply_markup))
        if self.edit_date is not None:
            result["edit_date"] = self.edit_date
        result.update(self.extra)
        return result

    def __repr__(self) -> str:
        flags = "".join(
            [f" edited={self.edited}" if self.edited else "", " deleted" if self.deleted else ""]
        )
        keyboard = f" buttons={self.button_texts}" if self.inline_keyboard else ""
        return (
            f"<FakeMessage chat={self.chat.id} id={self.message_id} "
            f"{'bot' if self.from_bot else 'user'}{flags} text={self.text!r}{keyboard}>"
        )


@dataclass
class RecordedCall:
    """One Bot API request the server handled.

    ``FakeTelegram.calls`` lists them in the order the responses were sent (a long poll is
    recorded when it returns); ``time`` is when the request arrived, on the server clock.
    ``params`` are decoded: JSON-encoded fields (``chat_id``, ``reply_markup``...) are
    parsed, text fields kept as strings.
    """

    method: str
    params: JSONDict
    time: float
    status: int = 200
    error: str | None = None
    result: Any = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    def __str__(self) -> str:
        shown = {k: v for k, v in self.params.items() if k != "reply_markup"}
        if "reply_markup" in self.params:
            shown["reply_markup"] = "..."
        outcome = "ok" if self.ok else f"{self.status} {self.error}"
        return f"{self.method}({json.dumps(shown, ensure_ascii=False)[:300]}) -> {outcome}"


@dataclass
class CallbackAnswer:
    """What the bot answered to a callback query."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None = None
    cache_time: int | None = None


@dataclass
class _FloodRule:
    method: str | None
    chat_id: int | None
    retry_after: int
    remaining: int


@dataclass
class _QueuedUpdate:
    update: JSONDict
    delivered: bool = False

    @property
    def update_id(self) -> int:
        return int(self.update["update_id"])

    @property
    def kind(self) -> str:
        return next(key for key in self.update if key != "update_id")


class ApiError(Exception):
    """Raised by a method handler: becomes a Bot API error response."""

    def __init__(self, status: int, description: str, parameters: JSONDict | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def _bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


def _decode_value(name: str, value: Any) -> Any:
    if isinstance(value, web.FileField):
        return {"file": value.filename, "content_type": value.content_type}
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str) and name not in _STRING_FIELDS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class _Params:
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
            raise _bad_request(f'field "{name}" must be of type Integer')
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise _bad_request(f'field "{name}" must be of type Integer')

    def req_int(self, name: str) -> int:
        value = self.opt_int(name)
        if value is None:
            raise _bad_request(f"{name} is empty")
        return value

    def opt_float(self, name: str) -> float | None:
        value = self.data.get(name)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise _bad_request(f'field "{name}" must be of type Number') from None

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------

ChatRef = FakeChat | FakeUser | int
_Handler = Callable[[_Params], Any]


class FakeTelegram:
    """A fake Bot API server; see the module docstring for an example.

    Args:
        bot_username: the bot's username (getMe, ``/cmd@bot`` routing, mentions).
        enforce_group_limit: answer 429 when a group gets more than ``group_limit`` new
            messages within ``group_window`` seconds (counted on ``clock``).
        token: the token the bot must use; other tokens get 401 Unauthorized.
        privacy_mode: like BotFather's default: in groups the bot receives only commands,
            mentions of itself, replies to its messages and service messages (unless it is an
            admin there).  Plain group chatter injected with :meth:`send_text` is then stored
            with ``delivered=False`` and never reaches the bot.
        strict_html: reject ``&`` that does not start an HTML entity (see :func:`parse_html`).
        text_limit_utf16: count the 4096 limit in UTF-16 code units (astral characters such as
            domino tiles U+1F030.. count twice) rather than in code points.  Telegram does
            not document the unit; UTF-16 is the stricter choice, so a text that passes here
            passes on Telegram either way.
        clock: time source for ``sent_at``, call times and the group limit.

    Attributes tests read or set directly:
        calls: every handled request (:class:`RecordedCall`), getUpdates included.
        callback_answers: query id -> :class:`CallbackAnswer`.
        commands: ``(scope key, language_code) -> [{"command", "description"}]`` from
            setMyCommands; the scope key is the scope type (``"default"``,
            ``"all_group_chats"``...) with ``:<chat_id>`` / ``:<user_id>`` appended for chat
            scopes; language ``""`` means all languages.
        admins / creators / members: per chat id, for getChatMember and
            getChatAdministrators (anyone else known is ``"left"``).
        started / blocked / kicked: user ids that pressed Start, user ids that blocked the
            bot, chat ids the bot was removed from.
        chat_actions: ``(chat_id, action)`` from sendChatAction.
        injected_updates: every update injected, confirmed or not.
    """

    def __init__(
        self,
        bot_username: str = "KozelTestBot",
        enforce_group_limit: bool = False,
        *,
        token: str = DEFAULT_TOKEN,
        bot_first_name: str = "Kozel Test Bot",
        privacy_mode: bool = True,
        strict_html: bool = True,
        text_limit_utf16: bool = True,
        group_limit: int = 20,
        group_window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.enforce_group_limit = enforce_group_limit
        self.privacy_mode = privacy_mode
        self.strict_html = strict_html
        self.text_limit_utf16 = text_limit_utf16
        self.group_limit = group_limit
        self.group_window = group_window
        self.clock = clock
        self.host = host

        # Test-visible state
        self.calls: list[RecordedCall] = []
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}
        self.chat_actions: list[tuple[int, str]] = []
        self.injected_updates: list[JSONDict] = []
        self.admins: defaultdict[int, set[int]] = defaultdict(set)
        self.creators: dict[int, int] = {}
        self.members: defaultdict[int, set[int]] = defaultdict(set)
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.kicked: set[int] = set()
        self.webhook: JSONDict | None = None

        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, FakeChat] = {}
        self._messages: defaultdict[int, dict[int, FakeMessage]] = defaultdict(dict)
        self._next_message_id: dict[int, int] = {}
        self._send_times: defaultdict[int, list[float]] = defaultdict(list)
        self._floods: list[_FloodRule] = []
        self._pending_queries: dict[str, tuple[int, int]] = {}
        self._query_ids = itertools.count(4_000_000_000_000_000_001)
        self._update_ids = itertools.count(500_000_001)
        self._queue: list[_QueuedUpdate] = []
        self._allowed_updates: set[str] | None = None
        self._poll_generation = 0
        self._pollers = 0
        self._polled = False
        self._inflight = 0
        self._last_activity = 0.0
        self._changed = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._webhook_target: str | None = None
        self._delivery: asyncio.Task[None] | None = None
        #: (update_id, HTTP status the bot answered) for every webhook delivery
        self.webhook_deliveries: list[tuple[int, int]] = []

        handlers: dict[str, _Handler] = {
            "getMe": self._get_me,
            "getUpdates": self._get_updates,
            "deleteWebhook": self._delete_webhook,
            "setWebhook": self._set_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setMyName": self._set_bot_text("name"),
            "getMyName": self._get_bot_text("name"),
            "setMyDescription": self._set_bot_text("description"),
            "getMyDescription": self._get_bot_text("description"),
            "setMyShortDescription": self._set_bot_text("short_description"),
            "getMyShortDescription": self._get_bot_text("short_description"),
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "answerCallbackQuery": self._answer_callback_query,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChat": self._get_chat,
            "sendChatAction": self._send_chat_action,
            "close": self._true,
            "logOut": self._true,
        }
        self._methods: dict[str, tuple[str, _Handler]] = {
            name.lower(): (name, handler) for name, handler in handlers.items()
        }

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Listen on a free port of ``host``."""
        if self._runner is not None:
            raise RuntimeError("FakeTelegram is already running")
        self._closing = False
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("*", "/{tail:.*}", self._handle_other)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        site = web.SockSite(runner, sock)
        await site.start()
        self._runner = runner
        self._port = int(sock.getsockname()[1])
        self._last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        """Release waiting long polls and shut the HTTP server down."""
        self._closing = True
        self._wake()
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return self._port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What to pass to ``ApplicationBuilder.base_url`` / ``Bot(base_url=...)``."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    @property
    def bot_user(self) -> JSONDict:
        """The bot's ``User`` object."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ------------------------------------------------------------- PTB wiring

    def make_request(self, **kwargs: Any) -> HTTPXRequest:
        """An ``HTTPXRequest`` that ignores proxy variables (``trust_env=False``)."""
        kwargs.setdefault("connect_timeout", 2.0)
        kwargs.setdefault("read_timeout", 5.0)
        return HTTPXRequest(httpx_kwargs={"trust_env": False}, **kwargs)

    def configure(self, builder: BuilderT) -> BuilderT:
        """Point an ``ApplicationBuilder`` at this server (token, URLs, proxy-free requests).

        No rate limiter is set; add one yourself if the test wants it.
        """
        return (
            builder.token(self.token)
            .base_url(self.base_url)
            .base_file_url(self.base_file_url)
            .request(self.make_request())
            .get_updates_request(self.make_request())
        )

    def make_bot(self) -> Bot:
        """A plain ``telegram.Bot`` talking to this server (use ``async with bot:``)."""
        return Bot(
            self.token,
            base_url=self.base_url,
            base_file_url=self.base_file_url,
            request=self.make_request(),
            get_updates_request=self.make_request(),
        )

    # ------------------------------------------------------------ users, chats

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """Register (or replace) a user; their private chat has the same id."""
        if id <= 0:
            raise ValueError("user ids are positive")
        person = FakeUser(id, first_name, username, language_code, last_name)
        self._users[id] = person
        chat = self._chats.get(id)
        if chat is not None:
            chat.user = person
        return person

    def group(
        self,
        id: int,
        title: str,
        type: str = "group",
        *,
        username: str | None = None,
        creator: FakeUser | int | None = None,
        admins: Iterable[FakeUser | int] = (),
        members: Iterable[FakeUser | int] = (),
    ) -> FakeChat:
        """Register a group or supergroup the bot is a member of."""
        if type not in ("group", "supergroup"):
            raise ValueError("type must be 'group' or 'supergroup'")
        if id >= 0:
            raise ValueError("group ids are negative (supergroups look like -100...)")
        chat = FakeChat(id, type, title=title, username=username)
        self._chats[id] = chat
        if creator is not None:
            self.creators[id] = _id_of(creator)
            self.members[id].add(_id_of(creator))
        for admin in admins:
            self.admins[id].add(_id_of(admin))
            self.members[id].add(_id_of(admin))
        for member in members:
            self.members[id].add(_id_of(member))
        return chat

    def private(self, user: FakeUser | int) -> FakeChat:
        """The private chat between the bot and ``user``."""
        user_id = _id_of(user)
        person = self._users.get(user_id)
        if person is None:
            raise KeyError(f"unknown user {user_id}; create it with server.user()")
        chat = self._chats.get(user_id)
        if chat is None:
            chat = FakeChat(user_id, "private", user=person)
            self._chats[user_id] = chat
        return chat

    def chat(self, ref: ChatRef) -> FakeChat:
        """Look up a chat by object or id (a user means their private chat)."""
        if isinstance(ref, FakeUser):
            return self.private(ref)
        chat_id = _id_of(ref)
        if chat_id in self._chats:
            return self._chats[chat_id]
        if chat_id in self._users:
            return self.private(chat_id)
        raise KeyError(f"unknown chat {chat_id}")

    def block(self, user: FakeUser | int) -> None:
        """The user blocks the bot: sends to them fail with 403 until they write again."""
        self.blocked.add(_id_of(user))

    def unblock(self, user: FakeUser | int) -> None:
        self.blocked.discard(_id_of(user))

    def mark_started(self, user: FakeUser | int) -> None:
        """Pretend the user pressed Start, without injecting an update."""
        self.started.add(_id_of(user))

    def kick_bot(self, chat: ChatRef) -> None:
        """The bot is removed from a group: everything there fails with 403."""
        self.kicked.add(self.chat(chat).id)

    # ------------------------------------------------------ faults injection

    def inject_flood(
        self,
        method: str | None = "sendMessage",
        chat_id: ChatRef | None = None,
        retry_after: int = 1,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` matching requests with 429 ``retry after N``.

        ``method=None`` matches any method except getUpdates; ``chat_id=None`` any chat.
        """
        self._floods.append(
            _FloodRule(
                method.lower() if method else None,
                None if chat_id is None else _id_of(chat_id),
                retry_after,
                times,
            )
        )

    # ------------------------------------------------------- update injection

    async def send_text(
        self,
        user: FakeUser,
        chat: ChatRef,
        text: str,
        *,
        reply_to: FakeMessage | int | None = None,
        entities: Sequence[JSONDict] | None = None,
    ) -> JSONDict:
        """``user`` writes ``text`` in ``chat``: injects a ``message`` update.

        A leading ``/command`` (optionally ``@bot``) gets its ``bot_command`` entity.  A message
        in a private chat marks the user as having started the bot (and unblocks it).  Returns
        the Message dict (also when privacy mode keeps it from the bot).
        """
        self._users.setdefault(user.id, user)
        target = self.chat(chat)
        if target.type == "private" and target.id != user.id:
            raise ValueError("in a private chat only its user can write")
        if target.migrated_to is not None:
            raise ValueError(f"chat {target.id} was migrated to {target.migrated_to}")
        if target.type == "private":
            self.started.add(user.id)
            self.blocked.discard(user.id)
        else:
            self.members[target.id].add(user.id)
        message_entities = [dict(e) for e in entities] if entities is not None else []
        command = _COMMAND_RE.match(text)
        if entities is None and command is not None:
            message_entities.append(_entity("bot_command", 0, utf16_len(command.group(0))))
        extra: JSONDict = {}
        replied: FakeMessage | None = None
        if reply_to is not None:
            reply_id = reply_to.message_id if isinstance(reply_to, FakeMessage) else reply_to
            replied = self._messages[target.id].get(reply_id)
            if replied is None:
                raise KeyError(f"no message {reply_id} in chat {target.id}")
            extra["reply_to_message"] = replied.to_dict()
        message = self._store_message(
            target,
            user.to_dict(),
            from_bot=False,
            text=text,
            entities=message_entities,
            extra=extra,
        )
        message.delivered = self._bot_sees(target, text, command, replied)
        payload = message.to_dict()
        if message.delivered:
            self._enqueue({"message": payload})
        self._wake()
        return payload

    async def press(
        self, user: FakeUser, message: FakeMessage | Mapping[str, Any], callback_data: str
    ) -> str:
        """``user`` presses a button with ``callback_data`` under ``message``.

        Injects a ``callback_query`` update carrying the message as it is *now* (edits applied)
        and returns the new query id.  The data is not checked against the keyboard, so tests
        can simulate stale or forged presses; see :meth:`press_button` for the checked way.
        """
        self._users.setdefault(user.id, user)
        current = self._current(message)
        if current.deleted:
            raise AssertionError(f"message {current.message_id} was deleted; nothing to press")
        query_id = str(next(self._query_ids))
        self._pending_queries[query_id] = (current.chat.id, current.message_id)
        self._enqueue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "message": current.to_dict(),
                    "chat_instance": str(abs(current.chat.id) * 7919 + self.bot_id),
                    "data": callback_data,
                }
            }
        )
        self._wake()
        return query_id

    async def press_button(
        self, user: FakeUser, message: FakeMessage | Mapping[str, Any], match: ButtonMatcher
    ) -> str:
        """Press the inline button labelled ``match`` (or matching a predicate on the button
        dict) on the message's *current* keyboard; returns the query id."""
        current = self._current(message)
        button = current.find_button(match)
        if button is None:
            raise AssertionError(
                f"no button {match!r} on message {current.message_id} in chat "
                f"{current.chat.id}; keyboard is {current.button_texts}"
            )
        if "callback_data" not in button:
            raise AssertionError(f"button {button!r} has no callback_data")
        return await self.press(user, current, str(button["callback_data"]))

    async def migrate_group(
        self, old_id: ChatRef, new_id: int, *, by: FakeUser | None = None
    ) -> FakeChat:
        """Upgrade a group to a supergroup with id ``new_id``.

        Later requests for the old id fail with ``migrate_to_chat_id``; the service messages
        (``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new one) are
        injected as updates.  Returns the new supergroup.
        """
        old = self.chat(old_id)
        if old.type != "group":
            raise ValueError("only basic groups can be migrated")
        new = FakeChat(new_id, "supergroup", title=old.title, migrated_from=old.id)
        self._chats[new_id] = new
        self.admins[new_id] |= self.admins[old.id]
        self.members[new_id] |= self.members[old.id]
        if old.id in self.creators:
            self.creators[new_id] = self.creators[old.id]
        sender: JSONDict
        if by is not None:
            sender = by.to_dict()
        elif old.id in self.creators and self.creators[old.id] in self._users:
            sender = self._users[self.creators[old.id]].to_dict()
        else:
            sender = dict(_ANONYMOUS_GROUP_ADMIN)
        old_notice = self._store_message(
            old, sender, from_bot=False, extra={"migrate_to_chat_id": new_id}
        )
        new_notice = self._store_message(
            new, sender, from_bot=False, extra={"migrate_from_chat_id": old.id}
        )
        old.migrated_to = new_id
        self._enqueue({"message": old_notice.to_dict()})
        self._enqueue({"message": new_notice.to_dict()})
        self._wake()
        return new

    async def inject_update(self, update: JSONDict) -> int:
        """Inject any raw update (``update_id`` is added); returns its id."""
        update_id = self._enqueue(dict(update))
        self._wake()
        return update_id

    # ----------------------------------------------------------- introspection

    def messages(self, chat: ChatRef, *, include_deleted: bool = True) -> list[FakeMessage]:
        """The bot's messages in ``chat``, oldest first, with their current content."""
        return [
            m
            for m in self._messages[_chat_id_of(chat)].values()
            if m.from_bot and (include_deleted or not m.deleted)
        ]

    def history(self, chat: ChatRef) -> list[FakeMessage]:
        """Every message in ``chat`` (users', bot's and service messages), oldest first."""
        return list(self._messages[_chat_id_of(chat)].values())

    def last_message(self, chat: ChatRef, *, include_deleted: bool = False) -> FakeMessage:
        """The bot's most recent (not deleted) message in ``chat``; AssertionError if none."""
        found = self.messages(chat, include_deleted=include_deleted)
        if not found:
            raise AssertionError(f"the bot has no messages in chat {_chat_id_of(chat)}")
        return found[-1]

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        """A message by id (any sender); KeyError if unknown."""
        return self._messages[_chat_id_of(chat)][message_id]

    def calls_to(self, method: str) -> list[RecordedCall]:
        """Recorded calls of one method (case-insensitive name)."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def failed_calls(self, *, include_polls: bool = False) -> list[RecordedCall]:
        """Calls answered with an error (getUpdates conflicts excluded by default)."""
        return [c for c in self.calls if not c.ok and (include_polls or c.method != "getUpdates")]

    def sent_times(self, chat: ChatRef) -> list[float]:
        """Clock times of the bot's successful new messages in ``chat``."""
        return list(self._send_times[_chat_id_of(chat)])

    def max_messages_per_window(self, chat: ChatRef, window: float = 60.0) -> int:
        """Most new messages ``chat`` got within any ``window`` seconds."""
        times = sorted(self._send_times[_chat_id_of(chat)])
        best = 0
        first = 0
        for last, moment in enumerate(times):
            while moment - times[first] >= window:
                first += 1
            best = max(best, last - first + 1)
        return best

    def command_names(self, scope: str = "default", language_code: str = "") -> list[str]:
        """Commands registered for a scope key and language (see :attr:`commands`)."""
        return [c["command"] for c in self.commands.get((scope, language_code), [])]

    @property
    def waiting_polls(self) -> int:
        """How many getUpdates long polls are waiting right now."""
        return self._pollers

    @property
    def pending_updates(self) -> list[JSONDict]:
        """Updates injected but not yet confirmed by the bot (getUpdates offset)."""
        return [queued.update for queued in self._queue]

    def describe(self, last: int = 15) -> str:
        """A readable summary of recent calls, for assertion messages."""
        calls = [c for c in self.calls if c.method != "getUpdates" or not c.ok]
        lines = [f"  {c}" for c in calls[-last:]] or ["  (no calls besides getUpdates)"]
        undelivered = sum(1 for q in self._queue if not q.delivered)
        lines.append(f"  pending updates: {len(self._queue)} ({undelivered} not yet fetched)")
        return "\n".join(lines)

    # ------------------------------------------------------------------ waiting

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, *, what: str | None = None
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        It is re-evaluated whenever the server handles a request or an update is injected
        (and every 0.1 s as a fallback).  Exceptions raised by the predicate count as "not
        yet" (``lambda: server.last_message(chat).text == "x"`` works before any message).
        On timeout raises AssertionError with the last calls.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last_error: Exception | None = None
        while True:
            event = self._changed
            try:
                value = predicate()
            except Exception as exc:
                last_error = exc
            else:
                last_error = None
                if value:
                    return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                detail = f"; predicate raised {last_error!r}" if last_error else ""
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what or 'condition'}{detail}\n"
                    f"recent calls:\n{self.describe()}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.1))

    async def wait_for_message(
        self,
        chat: ChatRef,
        match: str | Callable[[FakeMessage], bool] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a (not deleted) bot message in ``chat`` whose text contains ``match`` (or
        that satisfies a predicate); returns the most recent one."""

        def find() -> FakeMessage | None:
            for message in reversed(self.messages(chat, include_deleted=False)):
                if match is None:
                    return message
                if callable(match):
                    if match(message):
                        return message
                elif message.text is not None and match in message.text:
                    return message
            return None

        return await self.wait_for(find, timeout, what=f"a message {match!r} in {chat!r}")

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Return once no request (other than an idle long poll) arrived for ``quiet`` seconds,
        none is in progress and every injected update was fetched by the bot.

        A heuristic: a handler busy with something other than Telegram for longer than
        ``quiet`` looks idle.  Prefer :meth:`wait_for` on the effect you expect.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        step = max(quiet / 4, 0.005)
        while True:
            now = loop.time()
            unfetched = self._polled and any(not q.delivered for q in self._queue)
            busy = self._inflight > 0 or unfetched
            if not busy and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise AssertionError(
                    f"server not idle after {timeout}s\nrecent calls:\n{self.describe()}"
                )
            await asyncio.sleep(step)

    # --------------------------------------------------------------- internals

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _touch(self) -> None:
        try:
            self._last_activity = asyncio.get_running_loop().time()
        except RuntimeError:
            self._last_activity = time.monotonic()

    def _enqueue(self, body: JSONDict) -> int:
        update_id = next(self._update_ids)
        update = {"update_id": update_id, **body}
        self._queue.append(_QueuedUpdate(update))
        self.injected_updates.append(update)
        self._touch()
        self._deliver_webhooks()
        return update_id

    # ------------------------------------------------------------------ webhooks

    def deliver_webhooks_to(self, url: str) -> None:
        """Where the bot's webhook server really listens (e.g. ``http://127.0.0.1:PORT/path``);
        updates go there while a webhook is set."""
        self._webhook_target = url
        self._deliver_webhooks()

    def _deliver_webhooks(self) -> None:
        idle = self._delivery is None or self._delivery.done()
        if self.webhook is not None and self._webhook_target is not None and idle:
            self._delivery = asyncio.get_running_loop().create_task(self._post_updates())

    async def _post_updates(self) -> None:
        """POST queued updates one at a time, in order, like Telegram (one connection)."""
        async with aiohttp.ClientSession(trust_env=False) as session:
            while self._queue and self.webhook is not None and self._webhook_target:
                update = self._queue.pop(0).update
                headers: dict[str, str] = {}
                if self.webhook.get("secret_token"):
                    headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
                try:
                    async with session.post(
                        self._webhook_target, json=update, headers=headers
                    ) as reply:
                        status = reply.status
                except aiohttp.ClientError:
                    status = 0
                self.webhook_deliveries.append((update["update_id"], status))
                self._touch()
                self._wake()

    def _new_message_id(self, chat_id: int) -> int:
        # Ids increase per chat and start at a chat-dependent number, so mixing up chats shows.
        current = self._next_message_id.get(chat_id, 10 + (abs(chat_id) % 89) * 7)
        self._next_message_id[chat_id] = current + 1
        return current

    def _store_message(
        self,
        chat: FakeChat,
        sender: JSONDict,
        *,
        from_bot: bool,
        text: str | None = None,
        entities: list[JSONDict] | None = None,
        reply_markup: JSONDict | None = None,
        raw_text: str | None = None,
        parse_mode: str | None = None,
        extra: JSONDict | None = None,
        options: JSONDict | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=self._new_message_id(chat.id),
            sender=sender,
            date=int(time.time()),
            sent_at=self.clock(),
            from_bot=from_bot,
            text=text,
            entities=entities or [],
            reply_markup=reply_markup,
            raw_text=raw_text,
            parse_mode=parse_mode,
            extra=extra or {},
            options=options or {},
        )
        self._messages[chat.id][message.message_id] = message
        return message

    def _current(self, message: FakeMessage | Mapping[str, Any]) -> FakeMessage:
        if isinstance(message, FakeMessage):
            chat_id, message_id = message.chat.id, message.message_id
        else:
            chat_id, message_id = int(message["chat"]["id"]), int(message["message_id"])
        try:
            return self._messages[chat_id][message_id]
        except KeyError:
            raise AssertionError(f"no message {message_id} in chat {chat_id}") from None

    def _bot_sees(
        self,
        chat: FakeChat,
        text: str,
        command: re.Match[str] | None,
        replied: FakeMessage | None,
    ) -> bool:
        if chat.type == "private" or not self.privacy_mode:
            return True
        if self.bot_id in self.admins[chat.id] or self.creators.get(chat.id) == self.bot_id:
            return True
        if replied is not None and replied.from_bot:
            return True
        if f"@{self.bot_username.lower()}" in text.lower():
            return True
        if command is not None:
            _, _, addressee = command.group(0).partition("@")
            return not addressee or addressee.lower() == self.bot_username.lower()
        return False

    # HTTP ------------------------------------------------------------------

    async def _handle_other(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )

    async def _read_params(self, request: web.Request) -> JSONDict:
        raw: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    raw.update(body)
            else:
                form = await request.post()
                raw.update(form)
        return {name: _decode_value(name, value) for name, value in raw.items()}

    async def _handle_api(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        method_name = request.match_info["method"]
        try:
            params = await self._read_params(request)
        except (ValueError, UnicodeDecodeError):
            params = {}
        known = self._methods.get(method_name.lower())
        canonical = known[0] if known else method_name
        is_poll = canonical == "getUpdates"
        recorded = RecordedCall(canonical, params, self.clock())
        if not is_poll:
            self._inflight += 1
            self._touch()
            self._wake()
        try:
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if known is None:
                raise ApiError(404, "Not Found: method not found")
            self._check_flood(canonical, params)
            result = await known[1](_Params(params))
            recorded.result = result
            payload: JSONDict = {"ok": True, "result": result}
        except ApiError as exc:
            recorded.status = exc.status
            recorded.error = exc.description
            payload = {"ok": False, "error_code": exc.status, "description": exc.description}
            if exc.parameters:
                payload["parameters"] = exc.parameters
        except Exception as exc:  # a bug in the fake: make it visible, not a hang
            recorded.status = 500
            recorded.error = f"Internal Server Error: fake server failed: {exc!r}"
            payload = {"ok": False, "error_code": 500, "description": recorded.error}
        finally:
            if not is_poll:
                self._inflight -= 1
        self.calls.append(recorded)
        if not is_poll or recorded.result:
            self._touch()
        self._wake()
        return web.json_response(payload, status=recorded.status, dumps=_dumps)

    def _check_flood(self, method: str, params: JSONDict) -> None:
        for rule in self._floods:
            if rule.remaining <= 0:
                continue
            if rule.method is None and method == "getUpdates":
                continue
            if rule.method is not None and rule.method != method.lower():
                continue
            if rule.chat_id is not None and _loose_int(params.get("chat_id")) != rule.chat_id:
                continue
            rule.remaining -= 1
            raise _flood(rule.retry_after)

    # Chat resolution -----------------------------------------------------------

    def _resolve_chat(self, params: _Params, name: str = "chat_id") -> FakeChat:
        value = params.get(name)
        if value is None or value == "":
            raise _bad_request(f"{name} is empty")
        chat: FakeChat | None = None
        if isinstance(value, str) and value.startswith("@"):
            wanted = value[1:].lower()
            chat = next(
                (
                    c
                    for c in self._chats.values()
                    if c.type != "private" and c.username and c.username.lower() == wanted
                ),
                None,
            )
        else:
            chat_id = _loose_int(value)
            if chat_id is not None:
                chat = self._chats.get(chat_id)
                if chat is None and chat_id in self._users:
                    chat = self.private(chat_id)
        if chat is None:
            raise ApiError(400, ERR_CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise ApiError(400, ERR_MIGRATED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.id in self.kicked:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        return chat

    def _writable_chat(self, params: _Params) -> FakeChat:
        chat = self._resolve_chat(params)
        if chat.type == "private":
            if chat.id in self.blocked:
                raise ApiError(403, ERR_BLOCKED)
            if chat.id not in self.started:
                raise ApiError(403, ERR_CANT_INITIATE)
        return chat

    # Text and markup -------------------------------------------------------------

    def _render(
        self, text: str | None, parse_mode: str | None, entities: Any
    ) -> tuple[str, list[JSONDict]]:
        if not text:
            raise ApiError(400, ERR_TEXT_EMPTY)
        mode = (parse_mode or "").strip().lower()
        try:
            if mode == "html":
                plain, found = parse_html(text, strict_ampersand=self.strict_html)
            elif mode == "markdownv2":
                plain, found = parse_markdown_v2(text)
            elif mode == "markdown":
                plain, found = parse_markdown(text)
            elif mode == "":
                plain, found = text, _explicit_entities(entities, text)
            else:
                raise _bad_request("unsupported parse_mode")
        except EntityParseError as exc:
            raise _bad_request(f"can't parse entities: {exc}") from None
        plain, found = _trim(plain, found)
        if not plain:
            raise ApiError(400, ERR_TEXT_EMPTY)
        length = utf16_len(plain) if self.text_limit_utf16 else len(plain)
        if length > MAX_TEXT_LENGTH:
            raise ApiError(400, ERR_TEXT_TOO_LONG)
        return plain, found

    def _check_group_limit(self, chat: FakeChat) -> None:
        if not self.enforce_group_limit or chat.type not in ("group", "supergroup"):
            return
        now = self.clock()
        recent = [t for t in self._send_times[chat.id] if now - t < self.group_window]
        if len(recent) >= self.group_limit:
            retry_after = max(1, math.ceil(min(recent) + self.group_window - now))
            raise _flood(retry_after)

    # Method handlers ---------------------------------------------------------------

    async def _true(self, params: _Params) -> bool:
        return True

    async def _get_me(self, params: _Params) -> JSONDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _get_updates(self, params: _Params) -> list[JSONDict]:
        if self.webhook is not None:
            raise ApiError(409, ERR_WEBHOOK_ACTIVE)
        offset = params.opt_int("offset")
        limit = min(max(params.opt_int("limit") or 100, 1), 100)
        timeout = max(params.opt_float("timeout") or 0.0, 0.0)
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = {str(kind) for kind in allowed} or None
        if offset is not None and offset > 0:
            self._queue = [q for q in self._queue if q.update_id >= offset]
        elif offset is not None and offset < 0:
            self._queue = self._queue[offset:]
        self._polled = True
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake()  # an older long poll of the same bot must end with 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._pollers += 1
        try:
            while True:
                batch = self._take_updates(limit)
                if batch or self._closing:
                    return batch
                if generation != self._poll_generation:
                    raise ApiError(409, ERR_POLL_CONFLICT)
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return []
                event = self._changed
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), remaining)
        finally:
            self._pollers -= 1

    def _take_updates(self, limit: int) -> list[JSONDict]:
        if self._allowed_updates is None:
            self._queue = [q for q in self._queue if q.kind not in _DEFAULT_UPDATE_TYPES_EXCLUDED]
        else:
            self._queue = [q for q in self._queue if q.kind in self._allowed_updates]
        batch = self._queue[:limit]
        for queued in batch:
            queued.delivered = True
        return [queued.update for queued in batch]

    async def _delete_webhook(self, params: _Params) -> bool:
        self.webhook = None
        if params.flag("drop_pending_updates"):
            self._queue.clear()
        return True

    async def _set_webhook(self, params: _Params) -> bool:
        url = params.opt_str("url") or ""
        if not url:
            self.webhook = None
            return True
        match = re.match(r"^(\w+)://[^/:]+(?::(\d+))?", url)
        if match is None or match.group(1).lower() != "https":
            raise _bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if match.group(2) and int(match.group(2)) not in (80, 88, 443, 8443):
            raise _bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        self.webhook = {
            "url": url,
            "secret_token": params.opt_str("secret_token"),
            "allowed_updates": params.get("allowed_updates"),
            "max_connections": params.opt_int("max_connections"),
        }
        if params.flag("drop_pending_updates"):
            self._queue.clear()
        self._deliver_webhooks()
        return True

    async def _get_webhook_info(self, params: _Params) -> JSONDict:
        info: JSONDict = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._queue),
        }
        if self.webhook and self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    def _command_key(self, params: _Params) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in _SCOPE_TYPES:
            raise _bad_request("BOT_COMMAND_SCOPE_INVALID")
        key = str(scope["type"])
        if "chat_id" in scope:
            key += f":{scope['chat_id']}"
        if "user_id" in scope:
            key += f":{scope['user_id']}"
        language = params.opt_str("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise _bad_request("LANG_CODE_INVALID")
        return key, language

    async def _set_my_commands(self, params: _Params) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad_request("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise _bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            name = command.get("command") if isinstance(command, dict) else None
            description = command.get("description") if isinstance(command, dict) else None
            if not isinstance(name, str) or not _BOT_COMMAND_NAME_RE.match(name):
                raise _bad_request("BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description) <= 256:
                raise _bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._command_key(params)
        if commands:
            self.commands[key] = [
                {"command": c["command"], "description": c["description"]} for c in commands
            ]
        else:
            self.commands.pop(key, None)
        return True

    async def _get_my_commands(self, params: _Params) -> list[JSONDict]:
        return [dict(c) for c in self.commands.get(self._command_key(params), [])]

    async def _delete_my_commands(self, params: _Params) -> bool:
        self.commands.pop(self._command_key(params), None)
        return True

    def _set_bot_text(self, kind: str) -> _Handler:
        async def handler(params: _Params) -> bool:
            value = params.opt_str(kind) or ""
            limit = {"name": 64, "description": 512, "short_description": 120}[kind]
            if len(value) > limit:
                raise _bad_request(f"{kind.upper()}_INVALID")
            language = params.opt_str("language_code") or ""
            if value:
                self.bot_texts[(kind, language)] = value
            else:
                self.bot_texts.pop((kind, language), None)
            return True

        return handler

    def _get_bot_text(self, kind: str) -> _Handler:
        async def handler(params: _Params) -> JSONDict:
            language = params.opt_str("language_code") or ""
            value = self.bot_texts.get((kind, language), "")
            if kind == "name" and not value:
                value = self.bot_first_name
            return {kind: value}

        return handler

    async def _send_message(self, params: _Params) -> JSONDict:
        chat = self._writable_chat(params)
        text, entities = self._render(
            params.opt_str("text"), params.opt_str("parse_mode"), params.get("entities")
        )
        markup = _validate_markup(params.get("reply_markup"), inline_only=False)
        extra: JSONDict = {}
        reply = params.get("reply_parameters")
        reply_id = params.opt_int("reply_to_message_id")
        allow_without = params.flag("allow_sending_without_reply")
        if isinstance(reply, dict):
            reply_id = _loose_int(reply.get("message_id"))
            allow_without = bool(reply.get("allow_sending_without_reply"))
        if reply_id is not None:
            replied = self._messages[chat.id].get(reply_id)
            if replied is not None and not replied.deleted:
                extra["reply_to_message"] = replied.to_dict()
            elif not allow_without:
                raise _bad_request("message to be replied not found")
        self._check_group_limit(chat)
        options = {
            k: v
            for k, v in params.data.items()
            if k not in ("chat_id", "text", "parse_mode", "entities", "reply_markup")
        }
        message = self._store_message(
            chat,
            self.bot_user,
            from_bot=True,
            text=text,
            entities=entities,
            reply_markup=markup,
            raw_text=params.opt_str("text"),
            parse_mode=params.opt_str("parse_mode"),
            extra=extra,
            options=options,
        )
        self._send_times[chat.id].append(message.sent_at)
        return message.to_dict()

    def _editable(self, params: _Params) -> FakeMessage:
        if params.has("inline_message_id"):
            raise _bad_request("inline messages are not supported by the fake server")
        chat = self._resolve_chat(params)
        if chat.type == "private" and chat.id in self.blocked:
            raise ApiError(403, ERR_BLOCKED)
        message_id = params.opt_int("message_id")
        if message_id is None:
            raise _bad_request("message identifier is not specified")
        message = self._messages[chat.id].get(message_id)
        if message is None or message.deleted:
            raise ApiError(400, ERR_EDIT_NOT_FOUND)
        if not message.from_bot:
            raise _bad_request("message can't be edited")
        return message

    def _apply_edit(
        self,
        message: FakeMessage,
        *,
        text: str | None,
        entities: list[JSONDict],
        markup: JSONDict | None,
        raw_text: str | None,
        parse_mode: str | None,
    ) -> JSONDict:
        unchanged = (
            text == message.text
            and entities == message.entities
            and _markup_key(markup) == _markup_key(message.reply_markup)
        )
        if unchanged:
            raise ApiError(400, ERR_NOT_MODIFIED)
        if text != message.text and message.text is not None:
            message.history.append(message.text)
        message.text = text
        message.entities = entities
        message.reply_markup = markup
        message.raw_text = raw_text
        message.parse_mode = parse_mode
        message.edited += 1
        message.edit_date = int(time.time())
        return message.to_dict()

    async def _edit_message_text(self, params: _Params) -> JSONDict:
        message = self._editable(params)
        if message.text is None:
            raise _bad_request("there is no text in the message to edit")
        text, entities = self._render(
            params.opt_str("text"), params.opt_str("parse_mode"), params.get("entities")
        )
        markup = _validate_markup(params.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            message,
            text=text,
            entities=entities,
            markup=markup,
            raw_text=params.opt_str("text"),
            parse_mode=params.opt_str("parse_mode"),
        )

    async def _edit_message_reply_markup(self, params: _Params) -> JSONDict:
        message = self._editable(params)
        markup = _validate_markup(params.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            message,
            text=message.text,
            entities=message.entities,
            markup=markup,
            raw_text=message.raw_text,
            parse_mode=message.parse_mode,
        )

    async def _delete_message(self, params: _Params) -> bool:
        chat = self._resolve_chat(params)
        message_id = params.opt_int("message_id")
        message = self._messages[chat.id].get(message_id) if message_id is not None else None
        if message is None or message.deleted:
            raise ApiError(400, ERR_DELETE_NOT_FOUND)
        if not message.from_bot and chat.type != "private":
            is_admin = self.bot_id in self.admins[chat.id]
            if not is_admin:
                raise _bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def _answer_callback_query(self, params: _Params) -> bool:
        text = params.opt_str("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise _bad_request("MESSAGE_TOO_LONG")
        query_id = params.opt_str("callback_query_id") or ""
        if query_id not in self._pending_queries:
            raise ApiError(400, ERR_QUERY_INVALID)
        del self._pending_queries[query_id]
        self.callback_answers[query_id] = CallbackAnswer(
            query_id=query_id,
            text=text or None,
            show_alert=params.flag("show_alert"),
            url=params.opt_str("url"),
            cache_time=params.opt_int("cache_time"),
        )
        return True

    def _member(self, chat: FakeChat, user_id: int) -> JSONDict:
        if user_id == self.bot_id:
            user = self.bot_user
        elif user_id in self._users:
            user = self._users[user_id].to_dict()
        else:
            raise _bad_request("user not found")
        if chat.type == "private":
            if user_id not in (chat.id, self.bot_id):
                raise _bad_request("user not found")
            return {"status": "member", "user": user}
        if self.creators.get(chat.id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.admins[chat.id]:
            return {"status": "administrator", "user": user, **_ADMIN_RIGHTS}
        if user_id == self.bot_id or user_id in self.members[chat.id]:
            return {"status": "member", "user": user}
        return {"status": "left", "user": user}

    async def _get_chat_member(self, params: _Params) -> JSONDict:
        chat = self._resolve_chat(params)
        return self._member(chat, params.req_int("user_id"))

    async def _get_chat_administrators(self, params: _Params) -> list[JSONDict]:
        chat = self._resolve_chat(params)
        if chat.type == "private":
            raise _bad_request("there are no administrators in the private chat")
        ids: list[int] = []
        if chat.id in self.creators:
            ids.append(self.creators[chat.id])
        ids.extend(sorted(self.admins[chat.id] - set(ids)))
        known = [i for i in ids if i in self._users or i == self.bot_id]
        return [self._member(chat, user_id) for user_id in known]

    async def _get_chat(self, params: _Params) -> JSONDict:
        chat = self._resolve_chat(params)
        info = chat.to_dict()
        info.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        if chat.migrated_from is not None:
            info["migrated_from_chat_id"] = chat.migrated_from
        return info

    async def _send_chat_action(self, params: _Params) -> bool:
        chat = self._writable_chat(params)
        action = params.opt_str("action") or ""
        if action not in _CHAT_ACTIONS:
            raise _bad_request("wrong parameter action in request")
        self.chat_actions.append((chat.id, action))
        return True


_ADMIN_RIGHTS: Final[JSONDict] = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}


def _flood(retry_after: int) -> ApiError:
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _id_of(ref: FakeUser | FakeChat | int) -> int:
    return ref if isinstance(ref, int) else ref.id


def _chat_id_of(ref: ChatRef) -> int:
    return _id_of(ref)


def _loose_int(value: Any) -> int | None:
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


def _explicit_entities(entities: Any, text: str) -> list[JSONDict]:
    if entities in (None, ""):
        return []
    if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
        raise _bad_request("can't parse entities JSON object")
    total = utf16_len(text)
    result: list[JSONDict] = []
    for entity in entities:
        offset, length = _loose_int(entity.get("offset")), _loose_int(entity.get("length"))
        if offset is None or length is None or not isinstance(entity.get("type"), str):
            raise _bad_request("can't parse MessageEntity")
        if offset < 0 or offset + length > total:
            continue
        result.append({**entity, "offset": offset, "length": length})
    return _sorted_entities(result)


def _validate_markup(markup: Any, *, inline_only: bool) -> JSONDict | None:
    if markup in (None, ""):
        return None
    if not isinstance(markup, dict):
        raise _bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only:
            raise _bad_request("inline keyboard expected")
        if not any(k in markup for k in ("keyboard", "remove_keyboard", "force_reply")):
            raise _bad_request("can't parse reply keyboard markup JSON object")
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad_request('field "inline_keyboard" must be an Array of Arrays')
    if sum(len(row) for row in rows) > MAX_BUTTONS or any(
        len(row) > MAX_BUTTONS_PER_ROW for row in rows
    ):
        raise ApiError(400, ERR_MARKUP_TOO_LONG)
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise _bad_request(
                    'can\'t parse inline keyboard button: Field "text" must be of type String'
                )
            if not button["text"]:
                raise _bad_request("BUTTON_TEXT_INVALID")
            if not any(action in button for action in _BUTTON_ACTIONS):
                raise _bad_request(
                    "can't parse inline keyboard button: "
                    "Text buttons are unallowed in the inline keyboard"
                )
            if "callback_data" in button:
                data = button["callback_data"]
                if (
                    not isinstance(data, str)
                    or not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES
                ):
                    raise ApiError(400, ERR_BUTTON_DATA)
            if "url" in button and not (isinstance(button["url"], str) and button["url"]):
                raise _bad_request("BUTTON_URL_INVALID")
    return markup


def _markup_key(markup: JSONDict | None) -> str:
    """Comparable form of a reply markup; an empty inline keyboard equals none."""
    if not markup:
        return ""
    if "inline_keyboard" in markup and not any(markup["inline_keyboard"]):
        return ""
    return json.dumps(markup, sort_keys=True)
