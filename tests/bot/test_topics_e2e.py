"""Forums: each topic of a supergroup with topics is a table of its own, and a topic that is
closed or deleted ends its table politely. Every test asserts what people in the chat see."""

from __future__ import annotations

import asyncio

import pytest

from bot.handlers.lobby import show_lobby
from bot.place import Place
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeTopic, FakeUser
from tests.bot.harness import BOARD_TITLE, Harness, playable, tap, texts_seen

FORUM = -1_002_000_000_001
NEW_TABLE = "new table"


# --- helpers -------------------------------------------------------------------------------


def in_place(tg: FakeTelegram, forum: FakeChat, topic: FakeTopic | None) -> list[FakeMessage]:
    """The bot's messages (not deleted) in a topic, or with None in the forum's General topic."""
    thread = None if topic is None else topic.thread_id
    return [m for m in tg.messages(forum, include_deleted=False) if m.thread_id == thread]


def newest(
    tg: FakeTelegram, forum: FakeChat, topic: FakeTopic | None, text: str
) -> FakeMessage | None:
    """The bot's newest message in the place whose text contains ``text``."""
    found = [m for m in in_place(tg, forum, topic) if text in (m.text or "")]
    return found[-1] if found else None


def board_in(tg: FakeTelegram, forum: FakeChat, topic: FakeTopic | None) -> FakeMessage | None:
    boards = [m for m in in_place(tg, forum, topic) if (m.text or "").startswith(BOARD_TITLE)]
    return boards[-1] if boards else None


def tiles_in_line(board: FakeMessage) -> int:
    """How many tiles the board's line of play shows (the line is under the title)."""
    return (board.text or "").splitlines()[1].count("|")


def place(forum: FakeChat, topic: FakeTopic | None) -> Place:
    return Place(forum.id, None if topic is None else topic.thread_id)


async def say(
    tg: FakeTelegram, user: FakeUser, forum: FakeChat, topic: FakeTopic | None, text: str
) -> FakeMessage:
    """``user`` writes ``text`` in the place; returns the bot's answer there."""
    before = len(in_place(tg, forum, topic))
    await tg.send_text(user, forum, text, topic=topic)
    await tg.wait_for(lambda: len(in_place(tg, forum, topic)) > before, what=f"an answer to {text}")
    return in_place(tg, forum, topic)[-1]


async def open_lobby(
    harness: Harness, users: list[FakeUser], forum: FakeChat, topic: FakeTopic | None
) -> FakeMessage:
    """Everyone presses Start in their DM, the first opens a table for them all in the place
    (as many seats as people, at least two) and the rest join. Returns the lobby."""
    tg = harness.tg
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    await tg.send_text(users[0], forum, "/new", topic=topic)
    lobby = await tg.wait_for(lambda: newest(tg, forum, topic, NEW_TABLE), what="the lobby")
    k = harness.kozel
    async with k.service.store.lock(forum.id):
        table = await k.service.store.active_table(place(forum, topic))
        assert table is not None
        await k.service.lobby.change_setting(table, "players", max(2, len(users)))
        await show_lobby(k, table)
    await k.sender.caught_up(forum.id)  # the lobby redrawn, with its new buttons
    await harness.join(users[1:], forum, lobby)
    return lobby


async def start_in(
    harness: Harness, users: list[FakeUser], forum: FakeChat, topic: FakeTopic | None
) -> FakeMessage:
    """A table for ``users`` in the place, dealt; returns its board."""
    lobby = await open_lobby(harness, users, forum, topic)
    await harness.tg.press_button(users[0], lobby, "▶️ Start")
    return await harness.tg.wait_for(lambda: board_in(harness.tg, forum, topic), what="a board")


def people(tg: FakeTelegram, *names: str) -> list[FakeUser]:
    return [tg.user(100 + i, name) for i, name in enumerate(names)]


def let_manage_topics(tg: FakeTelegram, forum: FakeChat) -> None:
    """The bot is an admin of ``forum`` that may manage its topics: it may still edit there once
    a topic is closed."""
    tg.admins[forum.id].add(tg.bot_id)
    tg.topic_managers[forum.id].add(tg.bot_id)


@pytest.fixture
def forum(tg: FakeTelegram) -> FakeChat:
    return tg.group(FORUM, "Yard", "supergroup", forum=True)


# --- two tables in one group ---------------------------------------------------------------


async def test_two_topics_play_at_once(harness: Harness, tg: FakeTelegram, forum: FakeChat) -> None:
    """Each topic's board and announcements stay in that topic; a move at one table leaves the
    other's board alone; both tables take moves at the same time; /standings answers for the
    topic it is asked in."""
    alice, bob, carol, dave = people(tg, "Alice", "Bob", "Carol", "Dave")
    one = await tg.create_topic(alice, forum, "Table one")
    two = await tg.create_topic(carol, forum, "Table two")
    board_one = await start_in(harness, [alice, bob], forum, one)
    # /new in a topic while the other topic has a table in play works
    board_two = await start_in(harness, [carol, dave], forum, two)
    assert (board_one.thread_id, board_two.thread_id) == (one.thread_id, two.thread_id)
    for topic in (one, two):
        assert newest(tg, forum, topic, "Order of play") is not None
    assert in_place(tg, forum, None) == []  # nothing went to the General topic

    untouched = (board_two.edited, board_two.text)
    version = 0
    for _ in range(3):
        user, hand = await harness.next_turn([alice, bob], version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
    # the group's budget may hold boards back, and a waiting board gives way to a newer one
    await tg.wait_for(
        lambda: tiles_in_line(board_one) == 3, timeout=30, what="three moves on the first board"
    )
    assert (board_two.edited, board_two.text) == untouched

    # a move at each table, tapped at the same moment
    turn_one = await harness.next_turn([alice, bob], version)
    turn_two = await harness.next_turn([carol, dave])
    await asyncio.gather(harness.play_turn(*turn_one), harness.play_turn(*turn_two))
    await tg.wait_for(
        lambda: tiles_in_line(board_two) == 1, timeout=30, what="a move on the second board"
    )
    assert board_one.thread_id == one.thread_id and board_two.thread_id == two.thread_id

    standings_one = await say(tg, alice, forum, one, "/standings")
    standings_two = await say(tg, dave, forum, two, "/standings")
    assert "Alice" in (standings_one.text or "") and "Carol" not in (standings_one.text or "")
    assert "Dave" in (standings_two.text or "") and "Bob" not in (standings_two.text or "")
    refused = await say(tg, bob, forum, one, "/new")
    assert "A match is being played here" in (refused.text or "")
    assert tg.failed_calls() == []


async def test_a_lobby_waiting_for_the_groups_room_does_not_hold_up_another_topics_moves(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """Before, a lobby held the group's lock while its message waited for the group's room:
    with a busy forum out of room, a /new in one topic kept the taps at the other topic's table
    unanswered until the lobby went out (about twelve seconds, measured)."""
    alice, bob, olya = people(tg, "Alice", "Bob", "Olya")
    one = await tg.create_topic(alice, forum, "Table one")
    two = await tg.create_topic(olya, forum, "Table two")
    await start_in(harness, [alice, bob], forum, one)
    user, hand = await harness.next_turn([alice, bob])
    await tg.send_text(olya, tg.private(olya), "/start")
    await tg.wait_for_message(olya, "Hi, ")
    pacer = harness.kozel.sender.pacer
    for _ in range(100):  # the group is out of room for a long while
        pacer.note(forum.id)
    await tg.send_text(olya, forum, "/new", topic=two)
    await asyncio.sleep(0.2)  # the bot is at the lobby
    answer = await tap(tg, user, hand, playable(hand))
    assert str(answer.text).startswith("You played")
    assert newest(tg, forum, two, NEW_TABLE) is None  # the lobby still waits for room


async def test_general_topic_is_one_more_place(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """The General topic holds a table of its own beside a topic's; commands act on the table
    of the place they are sent in, and a reply in General that carries a thread id (clients
    add one to replies) still belongs to General; the language stays the group's."""
    alice, bob, carol = people(tg, "Alice", "Bob", "Carol")
    topic = await tg.create_topic(alice, forum, "Kozel")
    in_topic = await open_lobby(harness, [alice], forum, topic)
    in_general = await open_lobby(harness, [bob], forum, None)
    assert (in_topic.thread_id, in_general.thread_id) == (topic.thread_id, None)

    await tg.send_text(carol, tg.private(carol), "/start")
    await tg.wait_for_message(carol, "Hi, ")
    # Carol answers Bob's lobby in General: her reply carries its thread id, but is no topic
    # message, as Telegram sends replies in a General topic
    reply = tg.message(forum, in_general.message_id).to_dict()
    joined = {
        "message_id": 9_001,
        "from": carol.to_dict(),
        "chat": forum.to_dict(),
        "date": 1_700_000_000,
        "text": "/join",
        "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        "message_thread_id": in_general.message_id,
        "reply_to_message": reply,
    }
    await tg.inject_update({"message": joined})
    await tg.wait_for(lambda: "Carol" in (tg.message(forum, in_general.message_id).text or ""))
    assert "Carol" not in (tg.message(forum, in_topic.message_id).text or "")

    left = await say(tg, alice, forum, topic, "/leave")
    assert left.thread_id == topic.thread_id
    await tg.wait_for(lambda: "Players 0/2" in (tg.message(forum, in_topic.message_id).text or ""))
    assert "Players 2/2: 1. Bob, 2. Carol" in (tg.message(forum, in_general.message_id).text or "")

    # the language is the group's: chosen in a topic, it redraws every place's table
    tg.creators[forum.id] = alice.id
    prompt = await say(tg, alice, forum, topic, "/language")
    await tg.press_button(alice, prompt, "🇷🇺 Русский")
    for lobby in (in_topic, in_general):
        await tg.wait_for(lambda: "новый стол" in (tg.message(forum, lobby.message_id).text or ""))  # noqa: B023


async def test_kick_in_a_topic_needs_a_reply_or_a_number(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """In a topic every message that replies to nothing replies to the topic's first message,
    written by whoever opened the topic: a bare /kick must not take that as its target."""
    alice, bob = people(tg, "Alice", "Bob")
    topic = await tg.create_topic(alice, forum, "Kozel")
    lobby = await open_lobby(harness, [alice, bob], forum, topic)
    answer = await say(tg, alice, forum, topic, "/kick")
    assert "Reply with /kick" in (answer.text or "")
    assert "Alice" in (tg.message(forum, lobby.message_id).text or "")


# --- what a player's DMs call a topic's table -----------------------------------------------


def hands_in(tg: FakeTelegram, user: FakeUser, where: str) -> bool:
    """Whether ``user`` got a hand (a new deal, or their turn) whose head names ``where``."""
    heads = (text.partition("\n")[0] for text in texts_seen(tg, user))
    return any(
        head.startswith(("🃏 New deal", "🎯 Your turn")) and head.endswith(f" · {where}")
        for head in heads
    )


async def test_a_players_hands_name_the_topic_of_their_table(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """Alice plays in two topics of one forum at once: each hand says which topic it is from,
    where both said only the group's name; a topic renamed meanwhile is called by its new
    name, here as its table ends."""
    alice, bob, carol = people(tg, "Alice", "Bob", "Carol")
    friday = await tg.create_topic(alice, forum, "Friday games")
    cup = await tg.create_topic(carol, forum, "Cup & <Co>")
    await start_in(harness, [alice, bob], forum, friday)
    await start_in(harness, [carol, alice], forum, cup)
    await tg.wait_for(lambda: hands_in(tg, alice, "Yard · Friday games"), what="Friday's hand")
    await tg.wait_for(lambda: hands_in(tg, alice, "Yard · Cup & <Co>"), what="the Cup's hand")
    assert not hands_in(tg, alice, "Yard")

    await tg.rename_topic(alice, friday, "Saturday games")
    await tg.close_topic(alice, friday)
    await tg.wait_for_message(bob, "The table in Yard · Saturday games ended")
    await tg.wait_for_message(alice, "The table in Yard · Saturday games ended")


async def test_a_topic_the_bot_never_saw_created_goes_by_the_name_it_was_created_with(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """A topic opened before the bot joined: its service message never reached the bot, but
    /new in it replies to that message, as Telegram sends a topic's messages, which carries
    the topic's name. A table in the General topic goes by the group's name alone."""
    alice, bob = people(tg, "Alice", "Bob")
    older = await tg.create_topic(alice, forum, "Old yard", bot_sees=False)
    await open_lobby(harness, [alice], forum, older)
    await tg.wait_for_message(alice, "You have joined the table in Yard · Old yard.")
    await open_lobby(harness, [bob], forum, None)
    await tg.wait_for_message(bob, "You have joined the table in Yard. ")


# --- topics that go away -------------------------------------------------------------------


@pytest.mark.parametrize("manages_topics", [False, True], ids=["member", "topic-manager"])
async def test_closing_a_topic_ends_its_table_politely(
    harness: Harness, tg: FakeTelegram, forum: FakeChat, manages_topics: bool
) -> None:
    """The table of a closed topic ends without a result: nobody is recorded as losing, the
    live keyboard becomes a note, every player is told in their DM, and the group hears it
    where the bot can still write (the topic itself only if the bot may manage topics). The
    other topic plays on, and the reopened topic hosts a new table."""
    alice, bob, carol, dave = people(tg, "Alice", "Bob", "Carol", "Dave")
    tg.creators[forum.id] = alice.id
    if manages_topics:
        let_manage_topics(tg, forum)
    topic = await tg.create_topic(alice, forum, "Kozel")
    other = await tg.create_topic(carol, forum, "Other")
    await start_in(harness, [alice, bob], forum, topic)
    other_board = await start_in(harness, [carol, dave], forum, other)
    user, hand = await harness.next_turn([alice, bob])
    waiting = bob if user is alice else alice

    await tg.close_topic(alice, topic)
    told_in = topic if manages_topics else None
    notice = await tg.wait_for(lambda: newest(tg, forum, told_in, "topic was closed"))
    assert "Alice" in (notice.text or "") and "Bob" in (notice.text or "")
    await tg.wait_for(lambda: "topic was closed" in (tg.message(user, hand.message_id).text or ""))
    assert tg.message(user, hand.message_id).buttons == []
    await tg.wait_for_message(waiting, "its topic was closed")
    k = harness.kozel
    assert await k.storage.get_active_table(forum.id, topic.thread_id) is None
    assert await k.storage.chat_standings(forum.id) == []  # no loss recorded for anyone
    assert await k.storage.get_active_table(forum.id, other.thread_id) is not None

    turn = await harness.next_turn([carol, dave])  # the other topic plays on
    await harness.play_turn(*turn)
    await tg.wait_for(lambda: other_board.edited >= 1, what="a move in the other topic")

    await tg.reopen_topic(alice, topic)
    await tg.send_text(bob, forum, "/new", topic=topic)
    reopened = await tg.wait_for(lambda: newest(tg, forum, topic, "(opened by Bob)"))
    assert reopened.thread_id == topic.thread_id
    assert [c for c in tg.failed_calls() if "TOPIC_CLOSED" not in (c.error or "")] == []


async def test_deleting_a_topic_ends_its_table_when_the_bot_next_writes_there(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """Telegram does not tell bots that a topic was deleted: the board of the next move finds
    it gone, and the table ends as politely as a closed topic's, told in the General topic."""
    alice, bob = people(tg, "Alice", "Bob")
    topic = await tg.create_topic(alice, forum, "Kozel")
    await start_in(harness, [alice, bob], forum, topic)
    user, hand = await harness.next_turn([alice, bob])
    waiting = bob if user is alice else alice

    await tg.delete_topic(topic)
    await harness.play_turn(user, hand, shown=False)
    notice = await tg.wait_for(lambda: newest(tg, forum, None, "topic was deleted"))
    assert "Alice" in (notice.text or "") and "Bob" in (notice.text or "")
    await tg.wait_for_message(waiting, "its topic was deleted")
    await tg.wait_for_message(user, "its topic was deleted")
    k = harness.kozel
    await tg.wait_idle()
    assert await k.storage.get_active_table(forum.id, topic.thread_id) is None
    assert await k.storage.chat_standings(forum.id) == []
    thread_lost = [c for c in tg.failed_calls() if "thread not found" in (c.error or "")]
    assert len(thread_lost) == 1  # found once; nothing more is sent to the deleted topic


async def test_a_topic_found_closed_ends_its_table(
    harness: Harness, tg: FakeTelegram, forum: FakeChat
) -> None:
    """A closed topic the bot was not told about (its service message never came) refuses the
    bot's next message with TOPIC_CLOSED: here the answer to an admin, who may still write
    there. The table ends as if the bot had seen the topic close, and the admin's command
    fails quietly."""
    alice, bob = people(tg, "Alice", "Bob")
    tg.creators[forum.id] = alice.id
    topic = await tg.create_topic(alice, forum, "Kozel")
    await open_lobby(harness, [alice, bob], forum, topic)
    topic.closed = True

    await tg.send_text(alice, forum, "/standings", topic=topic)
    await tg.wait_for(lambda: newest(tg, forum, None, "topic was closed"))
    await tg.wait_for_message(bob, "its topic was closed")
    assert await harness.kozel.storage.get_active_table(forum.id, topic.thread_id) is None
    refused = {c.error for c in tg.failed_calls()}
    assert refused == {"Bad Request: TOPIC_CLOSED"}
