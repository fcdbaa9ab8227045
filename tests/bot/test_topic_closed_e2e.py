"""A forum topic closed by an admin, where the bot may not manage topics: Telegram refuses
whatever the bot sends or edits there (TOPIC_CLOSED). The table there ends, its players hear it
in their DMs, and what was still on its way to the topic is dropped quietly, once each, while
the forum's other topics play on. Reopened, the topic hosts a new table."""

from __future__ import annotations

import asyncio
import logging

import pytest

from devtools.fake_telegram import FakeChat, FakeTelegram, FakeTopic, FakeUser
from tests.bot.harness import Harness
from tests.bot.test_topics_e2e import (
    board_in,
    let_manage_topics,
    newest,
    open_lobby,
    people,
    say,
    start_in,
    tiles_in_line,
)

CLOSED_DM = "its topic was closed"
ENDED = "the bot may no longer write to the table's place"


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="bot")
    return caplog


def complaints(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the bot logged as a warning or an error, with any traceback."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def held(harness: Harness, forum: FakeChat) -> asyncio.Event:
    """Hold the group's outbox until the event is set: what the bot queues for the group
    meanwhile waits, as it would for the group's room."""
    gate = asyncio.Event()

    async def opened() -> None:
        await gate.wait()

    harness.kozel.sender.after(forum.id, opened)
    return gate


async def close(
    harness: Harness,
    admin: FakeUser,
    topic: FakeTopic,
    players: list[FakeUser],
    gate: asyncio.Event,
) -> None:
    """``admin`` closes the topic; once its players are told in their DMs, what the bot queued
    for the group meanwhile goes."""
    tg = harness.tg
    await tg.close_topic(admin, topic)
    for player in players:
        await tg.wait_for_message(player, CLOSED_DM)
    gate.set()
    await harness.groups_told()


def refused(tg: FakeTelegram) -> list[str]:
    """The calls Telegram refused, each by its method and text: TOPIC_CLOSED alone."""
    failed = tg.failed_calls()
    assert {c.error for c in failed} <= {"Bad Request: TOPIC_CLOSED"}, tg.describe()
    return [f"{c.method} {c.params.get('text')}" for c in failed]


async def reopened_hosts_a_table(
    tg: FakeTelegram, admin: FakeUser, opener: FakeUser, forum: FakeChat, topic: FakeTopic
) -> None:
    await tg.reopen_topic(admin, topic)
    lobby = await say(tg, opener, forum, topic, "/new")
    assert f"(opened by {opener.first_name})" in (lobby.text or "")


async def test_a_match_in_a_topic_closed_ends_quietly_and_the_other_topic_plays_on(
    harness: Harness, tg: FakeTelegram, logged: pytest.LogCaptureFixture
) -> None:
    """Before, the board's last edit in the closed topic, refused, was logged as an error with
    its traceback, and each message still on its way there as a warning."""
    forum = tg.group(-1_002_000_001_301, "Yard", "supergroup", forum=True)
    alice, bob, carol, dave = people(tg, "Alice", "Bob", "Carol", "Dave")
    tg.creators[forum.id] = alice.id
    topic = await tg.create_topic(alice, forum, "Kozel")
    other = await tg.create_topic(carol, forum, "Other")
    await start_in(harness, [alice, bob], forum, topic)
    other_board = await start_in(harness, [carol, dave], forum, other)
    await harness.groups_told()
    board = board_in(tg, forum, topic)
    assert board is not None
    before = board.text

    gate = held(harness, forum)
    await harness.play_turn(*await harness.next_turn([carol, dave]))  # its board waits
    await tg.send_text(bob, forum, "/new", topic=topic)  # its refusal waits
    await close(harness, alice, topic, [alice, bob], gate)

    await tg.wait_for(lambda: tiles_in_line(other_board) == 1, what="the other topic's move")
    assert newest(tg, forum, None, "topic was closed") is not None  # told in General
    assert board_in(tg, forum, topic) is board and board.text == before  # untouchable
    tried = refused(tg)
    assert len(tried) == len(set(tried)) == 3, tried  # the refusal, the board, the notice
    assert complaints(logged) == []
    assert [r.getMessage() for r in logged.records].count(ENDED) == 1

    turn = await harness.next_turn([carol, dave])  # and the other table still plays
    await harness.play_turn(*turn)
    await tg.wait_for(lambda: tiles_in_line(other_board) == 2, what="the next move")
    await reopened_hosts_a_table(tg, alice, bob, forum, topic)


async def test_a_lobby_in_a_topic_closed_ends_quietly(
    harness: Harness, tg: FakeTelegram, logged: pytest.LogCaptureFixture
) -> None:
    """A table not yet started: someone joined as the topic closed, and the lobby redrawn for
    them, refused, was logged as an error with its traceback."""
    forum = tg.group(-1_002_000_001_302, "Yard", "supergroup", forum=True)
    alice, bob = people(tg, "Alice", "Bob")
    tg.creators[forum.id] = alice.id
    topic = await tg.create_topic(alice, forum, "Kozel")
    lobby = await open_lobby(harness, [alice], forum, topic)
    await tg.send_text(bob, tg.private(bob), "/start")
    await tg.wait_for_message(bob, "Hi, ")
    await harness.groups_told()
    before = tg.message(forum, lobby.message_id).text
    assert "Alice" in (before or "") and "Bob" not in (before or "")

    gate = held(harness, forum)
    query = await tg.press_button(bob, lobby, "✋ Join")  # the lobby redrawn with him waits
    await tg.wait_for(lambda: query in tg.callback_answers, what="Bob's join answered")
    await close(harness, alice, topic, [alice, bob], gate)

    assert newest(tg, forum, None, "topic was closed") is not None
    assert tg.message(forum, lobby.message_id).text == before
    tried = refused(tg)
    assert len(tried) == len(set(tried)) >= 2, tried  # the lobby and the notice, once each
    assert complaints(logged) == []
    assert [r.getMessage() for r in logged.records].count(ENDED) == 1
    await reopened_hosts_a_table(tg, alice, bob, forum, topic)


async def test_a_bot_that_manages_topics_takes_the_buttons_off_a_closed_topics_lobby(
    harness: Harness, tg: FakeTelegram, logged: pytest.LogCaptureFixture
) -> None:
    """It may still edit there: the lobby says the table was cancelled, rather than offer
    buttons to a table that is gone; before, it kept them, and the redraw still queued for the
    last one to join went out live."""
    forum = tg.group(-1_002_000_001_303, "Yard", "supergroup", forum=True)
    alice, bob = people(tg, "Alice", "Bob")
    tg.creators[forum.id] = alice.id
    let_manage_topics(tg, forum)
    topic = await tg.create_topic(alice, forum, "Kozel")
    lobby = await open_lobby(harness, [alice], forum, topic)
    await tg.send_text(bob, tg.private(bob), "/start")
    await tg.wait_for_message(bob, "Hi, ")
    await harness.groups_told()

    gate = held(harness, forum)
    query = await tg.press_button(bob, lobby, "✋ Join")
    await tg.wait_for(lambda: query in tg.callback_answers, what="Bob's join answered")
    await close(harness, alice, topic, [alice, bob], gate)

    shown = tg.message(forum, lobby.message_id)
    assert shown.text == "The table was cancelled." and shown.buttons == []
    assert newest(tg, forum, topic, "topic was closed") is not None
    assert tg.failed_calls() == [] and complaints(logged) == []
