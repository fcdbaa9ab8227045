"""Someone who floods a group with /help and /standings during a match: the group's budget of
calls goes to the game, and each answer is said once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.handlers.lobby import show_lobby
from bot.place import Place
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import (
    CANCEL_YES,
    Accelerated,
    Harness,
    ask_to_cancel,
    button_data,
    start_match,
    tap,
)
from tests.bot.test_games_e2e import lobby_now
from tests.bot.test_lobby_e2e import data_of

HELP = 'Kozel (Козёл, "Goat")'
STANDINGS = "📊 Current match"
RESULTS = ("🏁 Round", "🐟 Round", "🥚 Round")
pytestmark = pytest.mark.minute
Meanwhile = Callable[[], Awaitable[None]]


async def test_a_flood_of_commands_that_tell_does_not_hold_up_the_next_result(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Fifteen /help and fifteen /standings, asked at once in the middle of a round, took 30
    of the group's calls, about 18 a minute, and whatever the group asked next (here a /new,
    as a lobby's tap would) and the round's result waited behind them all. Now the answers
    wait behind the game and each is said once: of the group's messages from the flood to the
    round's result, no more than one answers /help and one /standings."""
    masha, alex = tg.user(981, "Masha"), tg.user(982, "Alex")
    group = tg.group(-981, "Yard")
    await start_match(harness, [masha], group, computers=3)
    await harness.next_turn([masha])
    before = len(harness.group_texts(group))
    for _ in range(15):
        await tg.send_text(alex, group, "/help")
        await tg.send_text(masha, group, "/standings")
    await tg.send_text(alex, group, "/new")
    await tg.wait_for_message(group, "A match is being played here", timeout=30.0)

    def result_told() -> bool:
        return any(text.startswith(RESULTS) for text in harness.group_texts(group)[before:])

    await harness.play_until([masha], result_told)
    await harness.groups_told()
    said = harness.group_texts(group)[before:]
    result = next(i for i, text in enumerate(said) if text.startswith(RESULTS))
    answers = [text for text in said[:result] if text.startswith((HELP, STANDINGS))]
    assert len([text for text in answers if text.startswith(HELP)]) <= 1, said
    assert len([text for text in answers if text.startswith(STANDINGS)]) <= 1, said
    assert len([text for text in said if text.startswith((HELP, STANDINGS))]) <= 2, said
    assert tg.max_messages_per_window(group, 60.0) <= 20


async def test_a_single_help_during_a_match_is_answered(tg: FakeTelegram, harness: Harness) -> None:
    """Whatever is dropped from a flood, one /help gets its answer, as a reply."""
    masha = tg.user(983, "Masha")
    group = tg.group(-983, "Yard")
    await start_match(harness, [masha], group, computers=3)
    await harness.next_turn([masha])
    asked = await tg.send_text(masha, group, "/help")
    answer = await tg.wait_for_message(group, HELP, timeout=10.0)
    assert answer.extra["reply_to_message"]["message_id"] == asked["message_id"]


async def test_standings_asked_mid_match_and_sent_after_its_end_say_it_is_over(
    tmp_path: Path,
) -> None:
    """/standings asked mid-match waits for room behind the game; the match ended meanwhile,
    and the answer, sent after "🏆 … win!", still said "📊 Current match … Turn: 🤖 …": it was
    written when asked. Now it is written when it goes, from the state then. The group is
    kept busy (its outbox held) from the question to the match's end; its minute, in which a
    waiting answer is dropped, lasts 30 s here. English fives to 15: no lead scores more
    than 10, so Masha has a turn before the end, and a round or two reach it, so what the
    game queues behind the question is short whatever the deal. (General's Goat, whose fish
    are dealt again, queued a minute's worth after two of them, and the answer, a minute old
    by the time it could go, was dropped, as it should be.)"""
    async with FakeTelegram(clock=Accelerated(2)) as tg:
        harness = Harness(tg, tmp_path / "kozel.sqlite3")
        await harness.start()
        try:
            masha = tg.user(985, "Masha")
            group = tg.group(-985, "Yard")
            await tg.send_text(masha, tg.private(masha), "/start")
            await tg.wait_for_message(masha, "Hi, ")
            lobby = await harness.open_table(masha, group)
            k = harness.kozel
            async with k.service.store.lock(group.id):
                table = await k.service.store.active_table(Place(group.id))
                assert table is not None
                await k.service.lobby.change_setting(table, "players", 2)
                await k.service.lobby.change_game(table, "english_fives")
                await k.service.lobby.change_setting(table, "target", 15)
                await k.service.lobby.add_computer(table)
                await show_lobby(k, table)
            await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
            await tg.press_button(masha, lobby, "▶️ Start")
            await tg.wait_for_message(group, "Order of play")
            match = table.match
            assert match is not None

            async def to_its_end() -> None:
                await harness.play_until([masha], lambda: match.is_over)

            answer = await late_standings(harness, masha, group, to_its_end)
            won = next(m for m in tg.messages(group) if (m.text or "").startswith("🏆"))
            assert answer.message_id > won.message_id
            over = "🏁 That match is over: its result is above. Send /new for another."
            assert answer.text == over
        finally:
            await harness.stop()


async def late_standings(
    harness: Harness, user: FakeUser, group: FakeChat, meanwhile: Meanwhile
) -> FakeMessage:
    """/standings asked mid-match while the group's outbox is held, ``meanwhile`` done before
    it lets go: the answer, as the group reads it."""
    tg, k = harness.tg, harness.kozel
    await harness.next_turn([user])
    await harness.groups_told()
    busy = asyncio.Event()

    async def held() -> None:
        await busy.wait()

    k.sender.after(group.id, held)
    asked = await tg.send_text(user, group, "/standings")
    await meanwhile()
    busy.set()
    await harness.groups_told()
    (answer,) = [
        m
        for m in tg.messages(group)
        if m.extra.get("reply_to_message", {}).get("message_id") == asked["message_id"]
    ]
    return answer


async def test_standings_asked_mid_match_and_sent_after_it_was_cancelled_say_so(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match was cancelled while the answer waited for room: it said "That match is over:
    its result is above", and no result is above, only "The table was cancelled"."""
    masha = tg.user(987, "Masha")
    group = tg.group(-987, "Yard")
    await start_match(harness, [masha], group, computers=1)
    question = await ask_to_cancel(tg, masha, group)  # asked before the group's outbox is held

    async def cancel() -> None:
        await tap(tg, masha, question, button_data(question, CANCEL_YES))
        await tg.wait_for_message(masha, "cancelled")  # her hand is told: the table is closed

    said = (await late_standings(harness, masha, group, cancel)).text
    assert said == "🏁 That match was cancelled: it has no result. Send /new for another."


async def test_standings_sent_after_the_group_changed_language_speak_the_new_one(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An admin chose Ukrainian while the answer waited for room: the board was redrawn in
    Ukrainian, and the answer, written again as it went, still spoke English."""
    masha = tg.user(988, "Masha")
    group = tg.group(-988, "Yard", admins=[masha])
    await start_match(harness, [masha], group, computers=1)
    await tg.send_text(masha, group, "/language")
    chooser = await tg.wait_for_message(group, lambda m: m.find_button("🇺🇦 Українська") is not None)

    async def ukrainian() -> None:
        await tap(tg, masha, chooser, data_of(tg, chooser, "🇺🇦 Українська"))

    said = (await late_standings(harness, masha, group, ukrainian)).text or ""
    assert said.startswith("📊 Поточний матч: Козел"), said


async def test_standings_asked_twice_while_the_first_waits_go_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/standings asked at one turn, then again at the next, while the group had no room: the
    two answers differed when asked, so both waited, and both were written as they went,
    from the same state: the group read the same standings twice in a row. The one waiting
    answers both, written as it goes."""
    masha = tg.user(989, "Masha")
    group = tg.group(-989, "Yard")
    await start_match(harness, [masha], group, computers=1)
    _, hand = await harness.next_turn([masha])
    await harness.groups_told()
    busy = asyncio.Event()

    async def held() -> None:
        await busy.wait()

    harness.kozel.sender.after(group.id, held)
    await tg.send_text(masha, group, "/standings")
    await harness.play_turn(masha, hand, shown=False)
    await harness.next_turn([masha], harness.version_of(hand))
    await tg.send_text(
        masha, group, f"/standings@{tg.bot_username}"
    )  # the same, as a menu sends it
    await asyncio.sleep(0.3)
    busy.set()
    await harness.groups_told()
    answers = [m.text for m in tg.messages(group) if "reply_to_message" in m.extra]
    assert len(answers) == 1, answers
