"""The rate limiter (on by default) keeps to Telegram's limits without holding moves back."""

from __future__ import annotations

from pathlib import Path

from devtools.fake_telegram import FakeChat, FakeTelegram, RecordedCall
from tests.bot.harness import Harness, playable, start_match, tap


def group_calls(tg: FakeTelegram, group: FakeChat) -> list[RecordedCall]:
    return [c for c in tg.calls if c.params.get("chat_id") == group.id]


async def test_the_rate_limiter_does_not_hold_moves_back(tmp_path: Path) -> None:
    """With rate limiting on (the default), PTB's limiter counted every request to a group,
    each move's board edit too, against 20 a minute (a burst of 20, then one every 3 s), and
    held the table's moves meanwhile. Now a quick run of moves makes more group requests
    than that limit allows in the time they took. 429s are still retried: a flooded answer
    to a tap arrives. (A server on the real clock: the limiter counts real seconds.)"""
    async with FakeTelegram() as tg:
        harness = Harness(tg, tmp_path / "kozel.sqlite3", {"rate_limit": True})
        await harness.start()
        try:
            masha, alex = tg.user(761, "Masha"), tg.user(762, "Alex")
            group = tg.group(-1761, "Courtyard")
            users = [masha, alex]
            await start_match(harness, users, group)
            user, hand = await harness.next_turn(users, 0)
            await tg.wait_idle()
            tg.inject_flood(method="answerCallbackQuery", retry_after=1, times=1)
            answer = await tap(tg, user, hand, playable(hand))
            assert str(answer.text).startswith("You played")
            await harness.next_turn(users, harness.version_of(hand))
            await harness.play_until(users, lambda: len(group_calls(tg, group)) > 30)
            calls = group_calls(tg, group)
            span = calls[-1].time - calls[0].time
            assert len(calls) > 20 + span / 3, f"{len(calls)} group requests in {span:.1f} s"
        finally:
            await harness.stop()
