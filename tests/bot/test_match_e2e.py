"""Whole matches played through Telegram the way people would: commands and button taps."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from devtools.fake_telegram import FakeTelegram
from engine import replay
from tests.bot.harness import Accelerated, Harness, start_match, stored_events
from tests.bot.test_games_e2e import plain


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A clock so fast that the group's budget never runs short, so that, with players who
    follow the board, no board is skipped (a short budget skips the boards between, see
    test_rate_limit_e2e)."""
    async with FakeTelegram(clock=Accelerated(2000)) as server:
        yield server


async def test_four_players_in_pairs_play_to_the_goat(tg: FakeTelegram, harness: Harness) -> None:
    users = [tg.user(100 + i, name) for i, name in enumerate(["Masha", "Alex", "Olya", "Serg"])]
    group = tg.group(-500, "Yard")
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
    lobby = await harness.open_table(users[0], group)
    await harness.join(users[1:], group, lobby)
    await tg.press_button(users[0], lobby, "⚙️ Rules")
    await tg.wait_for(
        lambda: (
            "In pairs" in str(tg.message(group, lobby.message_id).button_texts)
            or "themselves" in str(tg.message(group, lobby.message_id).button_texts)
        )
    )
    await tg.press_button(users[0], lobby, lambda b: "themselves" in str(b.get("text")))
    await tg.wait_for(lambda: "Two pairs" in (tg.message(group, lobby.message_id).text or ""))
    await tg.press_button(users[0], lobby, "« Back")
    await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("▶️ Start"))
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Pairs")

    taps = await harness.play_match(users, group, watching=True)
    assert taps > 10

    texts = harness.group_texts(group)
    # no hand ever reached the group: hands go to DMs only
    for message in tg.messages(group):
        assert "your hand" not in (message.text or "").lower()
        for button in message.buttons:
            assert not str(button.get("callback_data", "")).startswith("p:")
    events = await stored_events(harness.database, 1)
    match = replay(events)
    assert match.is_over
    # every move reached the board
    board_texts = [
        str(call.params.get("text", ""))
        for call in tg.calls
        if call.method in ("sendMessage", "editMessageText")
        and str(call.params.get("chat_id")) == str(group.id)
    ]
    names = {u.id: u.first_name for u in users}
    seat_names = [names[100 + i] for i in range(4)]
    for event in events:
        if event["type"] == "played":
            a, b = event["tile"].split("-")
            needle = f"{seat_names[event['seat']]} played [{a}|{b}]"
            assert any(f"round {event['round']} " in t and needle in t for t in board_texts), (
                needle,
                event,
                [t for t in board_texts if needle in t][:2],
                events[events.index(event) - 2 : events.index(event) + 3],
            )
    # the goat announcement carries the engine's final scores; a losing pair is two goats
    final = texts[-1]
    assert any("are the goats!" in t for t in texts[-3:])
    # every round is over: no board still points at someone whose turn it is
    # (one board, when a fish of 101 or more ends the match in its first round)
    boards = [m.text or "" for m in tg.messages(group) if (m.text or "").startswith("🎲 Kozel ·")]
    assert boards
    assert not any("▶️" in board for board in boards)
    for score in match.tally.scores:
        assert f": {score}" in "\n".join(texts[-3:])
    # Telegram's group limit was respected
    assert tg.max_messages_per_window(group, 60.0) <= 20
    assert final


async def test_the_last_round_is_told_with_the_goat_and_the_final_scores_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match's last round got a result of its own, its "Score:" block, and then the goat
    with the same scores again just below: now the goat's message tells that round (its hands
    and what it wrote), then the final scores, once, in one message and one call."""
    users = [tg.user(991, "Masha"), tg.user(992, "Alex")]
    group = tg.group(-1991, "Yard")
    await start_match(harness, users, group)
    await harness.play_match(users, group)
    await harness.groups_told()

    events = await stored_events(harness.database, 1)
    rounds = [e for e in events if e["type"] == "round_ended"]
    ended = events[-1]
    assert ended["type"] == "match_ended" and ended["scores"] == rounds[-1]["scores"]
    texts = [plain(text) for text in harness.group_texts(group)]
    # the goat's message is the only one to tell the last round, below the goat
    last = f"Round {rounds[-1]['round']}:"
    told = [text for text in texts if any(last in line for line in text.splitlines()[:2])]
    assert told == [texts[-1]] and "is the goat!" in told[0].splitlines()[0]
    # the final scores, once: no result of the last round says them before the goat
    assert sum("Score:" in text for text in texts) == len(rounds) - 1
    finals = [line for line in texts[-1].splitlines() if re.fullmatch(r"(Masha|Alex): \d+", line)]
    assert sorted(int(line.split(": ")[1]) for line in finals) == sorted(ended["scores"])
