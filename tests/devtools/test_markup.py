"""The fake server checks a reply markup as Telegram does, with Telegram's error texts."""

from __future__ import annotations

from typing import Any

import pytest

from devtools.fake_telegram.errors import ApiError
from devtools.fake_telegram.text import validate_markup


def inline(*rows: list[Any]) -> dict[str, Any]:
    return {"inline_keyboard": list(rows)}


def button(**fields: Any) -> dict[str, Any]:
    return {"text": "b", **fields}


@pytest.mark.parametrize("markup", [None, ""])
def test_no_markup(markup: Any) -> None:
    assert validate_markup(markup, inline_only=True) is None


@pytest.mark.parametrize(
    "markup",
    [
        {"keyboard": [[{"text": "a"}]]},
        {"remove_keyboard": True},
        {"force_reply": True},
        inline(
            [button(callback_data="x" * 64), button(url="https://t.me/x")], [], [button(pay=True)]
        ),
        inline(*[[button(callback_data=str(i))] for i in range(100)]),
    ],
)
def test_accepted_markups_are_kept_as_sent(markup: dict[str, Any]) -> None:
    assert validate_markup(markup, inline_only=False) is markup


@pytest.mark.parametrize(
    ("markup", "inline_only", "error"),
    [
        ([], False, "Bad Request: can't parse reply keyboard markup JSON object"),
        ({"selective": True}, False, "Bad Request: can't parse reply keyboard markup JSON object"),
        ({"remove_keyboard": True}, True, "Bad Request: inline keyboard expected"),
        (
            {"inline_keyboard": [button(url="x")]},
            True,
            'Bad Request: field "inline_keyboard" must be an Array of Arrays',
        ),
        ({"inline_keyboard": {}}, True, 'Bad Request: field "inline_keyboard" must be'),
        (inline([button(url="x")] * 9), True, "Bad Request: reply markup is too long"),
        (
            inline(*[[button(url="x")] for _ in range(101)]),
            True,
            "Bad Request: reply markup is too long",
        ),
        (
            inline(["b"]),
            True,
            'Bad Request: can\'t parse inline keyboard button: Field "text" must be of type String',
        ),
        (inline([{"url": "x"}]), True, "Bad Request: can't parse inline keyboard button: Field"),
        (inline([button(text="", url="x")]), True, "Bad Request: BUTTON_TEXT_INVALID"),
        (
            inline([button()]),
            True,
            "Bad Request: can't parse inline keyboard button: "
            "Text buttons are unallowed in the inline keyboard",
        ),
        (inline([button(callback_data="")]), True, "Bad Request: BUTTON_DATA_INVALID"),
        (inline([button(callback_data="é" * 33)]), True, "Bad Request: BUTTON_DATA_INVALID"),
        (inline([button(callback_data=7)]), True, "Bad Request: BUTTON_DATA_INVALID"),
        (inline([button(url="")]), True, "Bad Request: BUTTON_URL_INVALID"),
        (inline([button(url=None)]), True, "Bad Request: BUTTON_URL_INVALID"),
    ],
)
def test_refused_markups(markup: Any, inline_only: bool, error: str) -> None:
    with pytest.raises(ApiError) as refused:
        validate_markup(markup, inline_only=inline_only)
    assert (refused.value.status, refused.value.description[: len(error)]) == (400, error)
