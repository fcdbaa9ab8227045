"""The fake server reads Telegram HTML as TDLib does: every entity kind and every error text."""

from __future__ import annotations

import re

import pytest

from devtools.fake_telegram import EntityParseError, parse_html
from devtools.fake_telegram.objects import JSONDict


def found(kind: str, offset: int, length: int, **extra: str) -> JSONDict:
    """An entity as the Bot API shows it."""
    return {"type": kind, "offset": offset, "length": length, **extra}


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("&lt;&gt;&amp;&quot;", '<>&"'),
        ("&lt&gt", "<>"),  # the semicolon is optional
        ("&#60;&#x3C;&#x3c", "<<<"),
        ("&#x1F063;", "🁣"),
    ],
)
def test_character_references_are_decoded(markup: str, text: str) -> None:
    assert parse_html(markup) == (text, [])


@pytest.mark.parametrize(
    "markup", ["&nbsp;", "&LT;", "&#0;", "&#x110000;", "&#000000065;", "& b", "&"]
)
def test_an_ampersand_that_starts_no_reference_is_kept_by_telegram(markup: str) -> None:
    assert parse_html(markup, strict_ampersand=False) == (markup, [])


def test_the_fake_server_rejects_an_unescaped_ampersand_by_its_byte_offset() -> None:
    with pytest.raises(
        EntityParseError,
        match=re.escape("Character '&' at byte offset 3 does not start an HTML entity; use &amp;"),
    ):
        parse_html("é &nbsp;")


def test_a_reference_to_a_surrogate_is_refused() -> None:
    with pytest.raises(EntityParseError, match="check for unmatched surrogate code units"):
        parse_html("&#xD800;", strict_ampersand=False)


@pytest.mark.parametrize(
    ("tag", "kind"),
    [
        ("b", "bold"),
        ("strong", "bold"),
        ("i", "italic"),
        ("em", "italic"),
        ("s", "strikethrough"),
        ("strike", "strikethrough"),
        ("del", "strikethrough"),
        ("u", "underline"),
        ("ins", "underline"),
        ("tg-spoiler", "spoiler"),
        ("pre", "pre"),
        ("code", "code"),
        ("blockquote", "blockquote"),
    ],
)
def test_simple_tags(tag: str, kind: str) -> None:
    assert parse_html(f"a<{tag.upper()}>🁣x</{tag}>") == (
        "a🁣x",
        [{"type": kind, "offset": 1, "length": 3}],
    )


@pytest.mark.parametrize(
    ("markup", "text", "entities"),
    [
        ('<span class="tg-spoiler">x</span>', "x", [found("spoiler", 0, 1)]),
        ("<blockquote expandable>x</blockquote>", "x", [found("expandable_blockquote", 0, 1)]),
        (
            '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
            "👍",
            [found("custom_emoji", 0, 2, custom_emoji_id="5368324170671202286")],
        ),
        (
            "<a>https://t.me/x</a>",
            "https://t.me/x",
            [found("text_link", 0, 14, url="https://t.me/x")],
        ),
        # a bare value is a name token, lower-cased; spaces may surround the '='
        ("<a href = T.Me-1 >x</a>", "x", [found("text_link", 0, 1, url="t.me-1")]),
        # a quoted value decodes references and keeps a stray '&'
        ("<a href='x&lt;y&z'>x</a>", "x", [found("text_link", 0, 1, url="x<y&z")]),
        ('<b class="x" id=y>x</b>', "x", [found("bold", 0, 1)]),  # other attributes are ignored
        ("<b>x</>", "x", [found("bold", 0, 1)]),  # an empty end tag closes the innermost one
        ("<b>x</b \n>", "x", [found("bold", 0, 1)]),
        ("<b></b>x<a></a>", "x", []),  # empty entities vanish
        ("<b><i>x</i>y</b>", "xy", [found("bold", 0, 2), found("italic", 0, 1)]),
    ],
)
def test_attributes_nesting_and_end_tags(markup: str, text: str, entities: list[JSONDict]) -> None:
    assert parse_html(markup) == (text, entities)


@pytest.mark.parametrize(
    ("markup", "entities"),
    [
        ('<pre><code class="language-py">x</code></pre>', [found("pre", 0, 1, language="py")]),
        ('<code class="language-py"><pre>x</pre></code>', [found("pre", 0, 1, language="py")]),
        ('<code class="language-py">x</code>', [found("code", 0, 1)]),
        ("<pre><code>x</code></pre>", [found("code", 0, 1), found("pre", 0, 1)]),
        (
            '<pre><code class="language-py">x</code>y</pre>',
            [found("pre", 0, 2), found("code", 0, 1)],
        ),
    ],
)
def test_code_in_pre_becomes_a_pre_with_its_language(markup: str, entities: list[JSONDict]) -> None:
    assert parse_html(markup)[1] == entities


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        ("é<b", "Unclosed start tag at byte offset 2"),
        ("<p>x</p>", 'Unsupported start tag "p" at byte offset 0'),
        ("<a =x>", 'Empty attribute name in the tag "a" at byte offset 0'),
        (
            "<a href>",
            'Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0',
        ),
        (
            "<i expandable>",
            'Expected equal sign in declaration of an attribute of the tag "i" at byte offset 0',
        ),
        ("<a href= ", 'Unclosed start tag "a" at byte offset 0'),
        ("<a href=x!y>", "Unexpected end of name token at byte offset 8"),
        ("<a href=x", "Unclosed start tag at byte offset 0"),
        ('<a href="x', "Unclosed start tag at byte offset 0"),
        ('<a href="x"', "Unclosed start tag at byte offset 0"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ('<span class="x">y</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ('<tg-emoji emoji-id="x1">y</tg-emoji>', "Invalid custom emoji identifier specified"),
        ('<tg-emoji emoji-id="0">y</tg-emoji>', "Invalid custom emoji identifier specified"),
        ("<tg-emoji>y</tg-emoji>", "Invalid custom emoji identifier specified"),
        # a digit int() cannot read (superscript two) is refused like any other bad id
        ('<tg-emoji emoji-id="\u00b2">y</tg-emoji>', "Invalid custom emoji identifier specified"),
        ("é</b>", "Unexpected end tag at byte offset 2"),
        ("<b>x</b y>", "Unclosed end tag at byte offset 4"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("<b>é</i>", 'Unmatched end tag at byte offset 5, expected "</b>", found "</i>"'),
        ("<b><i>x</i>", 'Can\'t find end tag corresponding to start tag "b"'),
    ],
)
def test_errors_say_what_telegram_says(markup: str, error: str) -> None:
    with pytest.raises(EntityParseError, match=f"^{re.escape(error)}$"):
        parse_html(markup)
