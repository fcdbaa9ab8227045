"""Telegram HTML, parsed as TDLib parses it (ported from td/telegram/MessageEntity.cpp).

The bot sends HTML only, so this is the one formatting the fake server reads; a text that does
not parse is answered ``400 can't parse entities``, as Telegram does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from .objects import JSONDict

_SPACES: Final = " \t\r\n\v\0"  # TDLib's is_space(); "\0" also stands for the end of the text
SPACE: Final = frozenset(_SPACES)
END: Final = "\0"
# runs the parser moves past at once
_PLAIN_TEXT: Final = re.compile("[^&<]*")
_SPACE_RUN: Final = re.compile(f"[{_SPACES}]*")
_TAG_NAME: Final = re.compile(f"[^{_SPACES}>]*")
_ATTRIBUTE_NAME: Final = re.compile(f"[^{_SPACES}=>]*")
_NAME_TOKEN: Final = re.compile("[A-Za-z0-9.-]*")  # an unquoted attribute value


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


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


# (tag, attribute) whose value, once this prefix is cut off, is the tag's argument; a value
# without the prefix, or any other attribute, is ignored
_ARGUMENT_ATTRIBUTES: Final = {
    ("a", "href"): "",
    ("code", "class"): "language-",
    ("span", "class"): "tg-",
    ("tg-emoji", "emoji-id"): "",
}
# the Bot API field that shows an entity's argument (a plain ``code`` keeps its language hidden)
_ARGUMENT_FIELDS: Final = {"text_link": "url", "custom_emoji": "custom_emoji_id", "pre": "language"}


@dataclass
class _Entity:
    """An entity as TDLib holds it while parsing, with the argument its tag was given."""

    kind: str
    offset: int
    length: int
    argument: str = ""

    def to_bot_api(self) -> JSONDict:
        field = _ARGUMENT_FIELDS.get(self.kind)
        extra = {field: self.argument or None} if field else {}
        return entity(self.kind, self.offset, self.length, **extra)


@dataclass(frozen=True)
class _OpenTag:
    """A start tag waiting for its end tag."""

    name: str
    argument: str  # what its attributes said: a link's URL, a code block's language, ...
    offset: int  # where its entity starts, in UTF-16 units
    out_begin: int  # where its text starts in the output pieces


def parse_html(text: str, *, strict_ampersand: bool = True) -> tuple[str, list[JSONDict]]:
    """Parse Telegram HTML like TDLib does; return (plain text, Bot API entities).

    With ``strict_ampersand`` (the default) an ``&`` that does not start a character reference
    is rejected.  Real Telegram keeps such an ``&`` literally, but a bot that relies on this has
    forgotten to escape user input (``&lt;`` in a name would be shown as ``<``), so the fake
    server flags it.  Raises :class:`EntityParseError` with TDLib's wording otherwise.
    """
    return _HtmlParser(text, strict_ampersand=strict_ampersand).parse()


class _HtmlParser:
    """One pass over a text, a method per construct, reading it as TDLib does.

    Past the end of the text the parser sees :data:`END`, which counts as a space, as the
    terminating NUL does in TDLib.
    """

    def __init__(self, text: str, *, strict_ampersand: bool) -> None:
        self.text = text
        self.strict_ampersand = strict_ampersand
        self.pos = 0
        self.out: list[str] = []  # the plain text, piece by piece
        self.u16 = 0  # the length of ``out`` in UTF-16 units: where an entity opened now starts
        self.open_tags: list[_OpenTag] = []
        self.entities: list[_Entity] = []

    def parse(self) -> tuple[str, list[JSONDict]]:
        while self.pos < len(self.text):
            if self.text.startswith("&", self.pos):
                self._character_reference()
            elif self.text.startswith("</", self.pos):
                self._end_tag()
            elif self.text.startswith("<", self.pos):
                self._start_tag()
            else:
                self._plain_text()
        if self.open_tags:
            raise EntityParseError(
                f'Can\'t find end tag corresponding to start tag "{self.open_tags[-1].name}"'
            )
        return "".join(self.out), sorted_entities(e.to_bot_api() for e in self.entities)

    # reading

    def _char(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else END

    def _scan(self, run: re.Pattern[str]) -> str:
        """Move past the run of characters that ``run`` (a ``[...]*``) matches here; return it."""
        found = run.match(self.text, self.pos)
        assert found is not None  # a pattern of the form [...]* always matches
        self.pos = found.end()
        return found.group()

    def _skip_spaces(self) -> None:
        self._scan(_SPACE_RUN)

    def _decoded_reference(self) -> str | None:
        """The character the reference at ``&`` stands for, moving past it; None if none."""
        decoded = _decode_html_entity(self.text, self.pos)
        if decoded is None:
            return None
        code, self.pos = decoded
        return chr(code)

    def _byte_offset(self, index: int) -> int:
        return _byte_offset(self.text, index)

    # writing

    def _emit(self, text: str) -> None:
        self.out.append(text)
        self.u16 += utf16_len(text)

    # the constructs

    def _plain_text(self) -> None:
        """Keep the text up to the next character reference or tag as it is."""
        self._emit(self._scan(_PLAIN_TEXT))

    def _character_reference(self) -> None:
        begin = self.pos
        char = self._decoded_reference()
        if char is None and self.strict_ampersand:
            raise EntityParseError(
                f"Character '&' at byte offset {self._byte_offset(begin)} does not start an "
                "HTML entity; use &amp; (the fake server is stricter than Telegram here: it "
                "catches unescaped user input)"
            )
        if char is None:  # Telegram keeps the '&'
            self._emit("&")
            self.pos += 1
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise EntityParseError(
                "Text contains invalid Unicode characters after decoding HTML entities, "
                "check for unmatched surrogate code units"
            )
        else:
            self._emit(char)

    def _start_tag(self) -> None:
        begin = self.pos
        self.pos += 1  # the '<'
        tag = self._scan(_TAG_NAME).lower()
        if self.pos >= len(self.text):
            raise EntityParseError(f"Unclosed start tag at byte offset {self._byte_offset(begin)}")
        if tag not in _HTML_TAGS:
            raise EntityParseError(
                f'Unsupported start tag "{tag}" at byte offset {self._byte_offset(begin)}'
            )
        argument = self._attributes(tag, begin)
        if tag == "span" and argument != "spoiler":
            raise EntityParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self._byte_offset(begin)}'
            )
        self.open_tags.append(_OpenTag(tag, argument, self.u16, len(self.out)))
        self.pos += 1  # the '>'

    def _attributes(self, tag: str, begin: int) -> str:
        """Read the attributes of the tag at ``begin`` up to its '>'; return its argument."""
        argument = ""
        while True:
            self._skip_spaces()
            if self._char() == ">":
                return argument
            attribute = self._scan(_ATTRIBUTE_NAME)
            if not attribute:
                raise EntityParseError(
                    f'Empty attribute name in the tag "{tag}" at byte offset '
                    f"{self._byte_offset(begin)}"
                )
            self._skip_spaces()
            if self._char() != "=":
                if tag == "blockquote" and attribute == "expandable":  # the one without a value
                    argument = "expandable"
                    continue
                raise EntityParseError(
                    "Expected equal sign in declaration of an attribute of the tag "
                    f'"{tag}" at byte offset {self._byte_offset(begin)}'
                )
            self.pos += 1  # the '='
            value = self._attribute_value(tag, begin)
            prefix = _ARGUMENT_ATTRIBUTES.get((tag, attribute))
            if prefix is not None and value.startswith(prefix):
                argument = value[len(prefix) :]

    def _attribute_value(self, tag: str, begin: int) -> str:
        self._skip_spaces()
        if self.pos >= len(self.text):
            raise EntityParseError(
                f'Unclosed start tag "{tag}" at byte offset {self._byte_offset(begin)}'
            )
        value = self._quoted_value() if self._char() in "'\"" else self._name_token()
        if self.pos >= len(self.text):
            raise EntityParseError(f"Unclosed start tag at byte offset {self._byte_offset(begin)}")
        return value

    def _name_token(self) -> str:
        """An unquoted value: ASCII letters, digits, '.' and '-', lower-cased."""
        begin = self.pos
        token = self._scan(_NAME_TOKEN)
        if self._char() not in SPACE and self._char() != ">":
            raise EntityParseError(
                f"Unexpected end of name token at byte offset {self._byte_offset(begin)}"
            )
        return token.lower()

    def _quoted_value(self) -> str:
        """A quoted value with its character references decoded (a stray '&' is kept)."""
        quote = self._char()
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(self.text) and self._char() != quote:
            char = self._decoded_reference() if self._char() == "&" else None
            if char is None:
                char = self._char()
                self.pos += 1
            chars.append(char)
        if self.pos < len(self.text):
            self.pos += 1  # the closing quote
        return "".join(chars)

    def _end_tag(self) -> None:
        begin = self.pos
        if not self.open_tags:
            raise EntityParseError(f"Unexpected end tag at byte offset {self._byte_offset(begin)}")
        self.pos += 2  # the '</'
        name = self._scan(_TAG_NAME).lower()
        self._skip_spaces()
        if self._char() != ">":
            raise EntityParseError(f"Unclosed end tag at byte offset {self._byte_offset(begin)}")
        opened = self.open_tags.pop()
        if name and name != opened.name:  # "</>" closes whatever is open
            raise EntityParseError(
                f"Unmatched end tag at byte offset {self._byte_offset(begin)}, "
                f'expected "</{opened.name}>", found "</{name}>"'
            )
        self.pos += 1  # the '>'
        if self.u16 > opened.offset:  # an empty entity is dropped
            self._close(opened)

    def _close(self, opened: _OpenTag) -> None:
        """Add the entity of a tag just closed."""
        tag, argument, offset = opened.name, opened.argument, opened.offset
        length = self.u16 - offset
        if tag in _HTML_SIMPLE:
            self.entities.append(_Entity(_HTML_SIMPLE[tag], offset, length))
        elif tag == "tg-emoji":
            if not (argument.isascii() and argument.isdigit()) or int(argument) == 0:
                raise EntityParseError("Invalid custom emoji identifier specified")
            self.entities.append(_Entity("custom_emoji", offset, length, argument))
        elif tag == "a":  # a link without href goes to its own text
            url = argument or "".join(self.out[opened.out_begin :])
            self.entities.append(_Entity("text_link", offset, length, url))
        elif tag == "blockquote":
            kind = "expandable_blockquote" if argument == "expandable" else "blockquote"
            self.entities.append(_Entity(kind, offset, length))
        else:
            self._close_code_block(_Entity(tag, offset, length, argument))

    def _close_code_block(self, closed: _Entity) -> None:
        """``pre`` and ``code`` around the same text make one ``pre`` with the code's language."""
        last = self.entities[-1] if self.entities else None
        if last is None or (last.offset, last.length) != (closed.offset, closed.length):
            self.entities.append(closed)
        elif closed.kind == "pre" and last.kind == "code" and last.argument:
            last.kind = "pre"
        elif closed.kind == "code" and last.kind == "pre" and closed.argument:
            last.argument = closed.argument
        else:
            self.entities.append(closed)
