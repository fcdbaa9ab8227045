"""Telegram HTML, parsed as TDLib parses it (ported from td/telegram/MessageEntity.cpp).

The bot sends HTML only, so this is the one formatting the fake server reads; a text that does
not parse is answered ``400 can't parse entities``, as Telegram does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .objects import JSONDict

SPACE: Final = frozenset(" \t\r\n\v\0")  # TDLib's is_space(), "\0" standing for end of text
END: Final = "\0"


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _u16(ch: str) -> int:
    return 2 if ord(ch) > 0xFFFF else 1


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", "surrogatepass"))


class EntityParseError(ValueError):
    """Telegram could not parse the formatting of a text (``can't parse entities: ...``)."""


def entity(kind: str, offset: int, length: int, **extra: Any) -> JSONDict:
    result: JSONDict = {"type": kind, "offset": offset, "length": length}
    result.update({key: value for key, value in extra.items() if value is not None})
    return result


def sorted_entities(entities: Iterable[JSONDict]) -> list[JSONDict]:
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
        return text[j] if j < n else END

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
            while at(i) not in SPACE and at(i) != ">":
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
                while i < n and at(i) in SPACE:
                    i += 1
                if at(i) == ">":
                    break
                attribute_begin = i
                while at(i) not in SPACE and at(i) not in "=>":
                    i += 1
                attribute = text[attribute_begin:i]
                if not attribute:
                    raise EntityParseError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {offset(begin)}'
                    )
                while i < n and at(i) in SPACE:
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
                while i < n and at(i) in SPACE:
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
                    if at(i) not in SPACE and at(i) != ">":
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
        while at(i) not in SPACE and at(i) != ">":
            i += 1
        end_tag = text[begin + 2 : i].lower()
        while i < n and at(i) in SPACE:
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
                entities.append(entity(_HTML_SIMPLE[tag], start, length))
            elif tag == "tg-emoji":
                if not argument.isdigit() or int(argument) == 0:
                    raise EntityParseError("Invalid custom emoji identifier specified")
                entities.append(entity("custom_emoji", start, length, custom_emoji_id=argument))
            elif tag == "a":
                url = argument or "".join(out[out_begin:])
                if url:
                    entities.append(entity("text_link", start, length, url=url))
            elif tag == "pre":
                if last is not None and same_span and last["type"] == "code" and last.get("_lang"):
                    last["type"] = "pre"
                    last["language"] = last.pop("_lang")
                else:
                    entities.append(entity("pre", start, length))
            elif tag == "code":
                if last is not None and same_span and last["type"] == "pre" and argument:
                    last["language"] = argument
                else:
                    entities.append(entity("code", start, length, _lang=argument or None))
            else:  # blockquote
                kind = "expandable_blockquote" if argument == "expandable" else "blockquote"
                entities.append(entity(kind, start, length))
        stack.pop()
        i += 1  # the '>'

    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    for found in entities:
        found.pop("_lang", None)
    return "".join(out), sorted_entities(entities)
