"""/history: a group's latest matches, with every side's score and how it came out."""

from __future__ import annotations

import html

import pytest

from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import Harness
from tests.bot.test_table_life_e2e import prepare


@pytest.mark.fast_turns
async def test_history_lists_the_groups_matches_and_a_new_group_has_none(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, olya = tg.user(421, "Zoë & <Co>"), tg.user(422, "Olya")
    yard, club = tg.group(-821, "Yard"), tg.group(-822, "Club")
    await prepare(harness, [masha], yard, computers=1, turn_seconds=1)
    await tg.wait_for_message(yard, "ended early", timeout=4.0)

    await tg.send_text(olya, yard, "/history")
    told = await tg.wait_for_message(yard, "📜")
    lines = html.unescape(told.text or "").splitlines()
    assert lines[0] == "📜 Latest matches in this group"
    [match] = lines[1:]
    assert "· Kozel: Zoë & <Co> 0 ⏰ · 🤖 Galya " in match
    assert match.endswith(" 🏆 (ended early: a timeout)")

    await tg.send_text(olya, club, "/history")
    assert await tg.wait_for_message(club, "No finished matches in this group yet.")
