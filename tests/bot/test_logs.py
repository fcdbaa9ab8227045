"""Operators' logs: structured, and never the token or a player's hand, even at DEBUG."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import REDACTED, HidePayloads, ScrubbingFormatter
from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import Harness, start_match, texts_seen


class Capture:
    """Everything logged, both as the bot's handler formats it and unfiltered."""

    def __init__(self, secret: str) -> None:
        self.scrubbed, self.raw = io.StringIO(), io.StringIO()
        self.handler = logging.StreamHandler(self.scrubbed)
        self.handler.setFormatter(ScrubbingFormatter("json", [secret]))
        self.handler.addFilter(HidePayloads())
        self.raw_handler = logging.StreamHandler(self.raw)

    def lines(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.scrubbed.getvalue().splitlines()]


@pytest.fixture
def capture(tg: FakeTelegram) -> Iterator[Capture]:
    found = Capture(tg.token)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(found.handler)
    root.addHandler(found.raw_handler)
    yield found
    root.removeHandler(found.handler)
    root.removeHandler(found.raw_handler)
    root.setLevel(level)


async def test_debug_logs_of_a_match_hold_no_token_and_no_hand(
    tg: FakeTelegram, tmp_path: Path, capture: Capture
) -> None:
    harness = Harness(tg, tmp_path / "kozel.sqlite3")
    await harness.start()
    try:
        masha, alex = tg.user(301, "Masha"), tg.user(302, "Alex")
        group = tg.group(-701, "Yard")
        await start_match(harness, [masha, alex], group)
        await harness.play_match([masha, alex], group)
    finally:
        await harness.stop()

    raw, scrubbed = capture.raw.getvalue(), capture.scrubbed.getvalue()
    hand_texts = [t for t in texts_seen(tg, masha) + texts_seen(tg, alex) if "hand" in t.lower()]
    assert hand_texts
    # without the bot's filter and formatter, both would leak: PTB logs its URL and what it
    # sends and receives...
    assert tg.token in raw
    assert "reply_markup" in raw
    # ...with them, neither does
    assert tg.token not in scrubbed
    for payload in ("reply_markup", "callback_data", "hands", *hand_texts):
        assert payload not in scrubbed
    lines = capture.lines()
    events = {
        line["message"]: line for line in lines if str(line["logger"]).startswith("bot.service.")
    }
    assert {"table opened", "match started", "round ended", "match ended"} <= set(events)
    ended = events["match ended"]
    assert ended["table"] == 1 and ended["ended_by"] == "goat"
    assert isinstance(ended["scores"], list) and max(ended["scores"]) >= 101


def test_text_lines_carry_fields_and_hide_the_secret() -> None:
    formatter = ScrubbingFormatter("text", ["123:SECRET"])
    record = logging.LogRecord(
        "bot", logging.WARNING, __file__, 1, "calling %s", ("https://x/bot123:SECRET/get",), None
    )
    record.table = 7
    line = formatter.format(record)
    assert "123:SECRET" not in line
    assert f"calling https://x/bot{REDACTED}/get" in line
    assert line.endswith(" table=7")
