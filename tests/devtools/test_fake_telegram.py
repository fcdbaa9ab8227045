"""The fake Bot API server behaves like Telegram where it matters, seen through real PTB 22."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import re
from collections.abc import AsyncIterator

import httpx
import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.ext import (
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from devtools.fake_telegram import EntityParseError, FakeTelegram, parse_html

GROUP = -4_000_111


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with server.make_bot() as real_bot:
        yield real_bot


def bad_request(text: str) -> pytest.RaisesExc[BadRequest]:
    """PTB strips "Bad Request: " and ``str.capitalize()``s the rest, so match case-blind."""
    return pytest.raises(BadRequest, match="(?i)" + re.escape(text))


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(f"b{i}", callback_data=d)] for i, d in enumerate(data)]
    )


async def test_get_me(server: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.username == "KozelTestBot"
    assert me.id == server.bot_id
    assert me.is_bot and me.can_join_groups and not me.can_read_all_group_messages
    assert server.calls[0].method == "getMe"


async def test_raw_http_errors(server: FakeTelegram) -> None:
    async with httpx.AsyncClient(trust_env=False) as client:
        unknown = await client.post(f"{server.base_url}{server.token}/sendTelepathy")
        assert unknown.status_code == 404
        assert unknown.json() == {
            "ok": False,
            "error_code": 404,
            "description": "Not Found: method not found",
        }
        wrong_token = await client.post(f"{server.base_url}42:nope/getMe")
        assert wrong_token.status_code == 401
        assert wrong_token.json()["description"] == "Unauthorized"
        lower = await client.get(f"{server.base_url}{server.token}/getme")
        assert lower.json()["result"]["username"] == "KozelTestBot"


async def test_private_chat_needs_start_and_block_forbids(server: FakeTelegram, bot: Bot) -> None:
    alice = server.user(101, "Alice")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(alice.id, "hello")
    await server.send_text(alice, alice, "/start")
    sent = await bot.send_message(alice.id, "hello")
    assert sent.text == "hello" and sent.chat.id == alice.id
    assert server.last_message(alice).text == "hello"

    server.block(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(alice.id, "still there?")
    await server.send_text(alice, alice, "hi again")  # writing to the bot unblocks it
    await bot.send_message(alice.id, "welcome back")

    with bad_request("chat not found"):
        await bot.send_message(999_999, "nobody")


async def test_a_deleted_account_forbids_for_good(server: FakeTelegram, bot: Bot) -> None:
    alice = server.user(102, "Alice")
    await server.send_text(alice, alice, "/start")
    server.deactivate(alice)
    with pytest.raises(Forbidden, match="user is deactivated"):
        await bot.send_message(alice.id, "hello")


async def test_removing_the_bot_from_a_group_and_adding_it_back(
    server: FakeTelegram, bot: Bot
) -> None:
    alice = server.user(103, "Alice")
    server.group(GROUP, "Table", creator=alice)
    supergroup = server.group(GROUP - 1, "Yard", "supergroup", creator=alice)
    await server.remove_bot(GROUP, alice)
    await server.remove_bot(supergroup, alice)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(GROUP, "anyone?")
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await bot.send_message(supergroup.id, "anyone?")
    await server.add_bot(GROUP, alice)
    await bot.send_message(GROUP, "back")

    updates = await bot.get_updates(timeout=0)
    changes = [u.my_chat_member for u in updates]
    assert [(c.chat.id, c.new_chat_member.status) for c in changes if c] == [
        (GROUP, "left"),
        (GROUP - 1, "kicked"),
        (GROUP, "member"),
    ]
    assert all(c and c.new_chat_member.user.id == server.bot_id for c in changes)
    assert all(c and c.from_user.id == alice.id for c in changes)


async def test_a_bot_without_the_right_to_send_can_still_edit(
    server: FakeTelegram, bot: Bot
) -> None:
    server.group(GROUP, "Table", "supergroup")
    sent = await bot.send_message(GROUP, "board")
    server.mute_bot(GROUP)
    with bad_request("not enough rights to send text messages to the chat"):
        await bot.send_message(GROUP, "result")
    await bot.edit_message_text("board, moved", GROUP, sent.message_id)


async def test_restricting_the_bot_tells_it(server: FakeTelegram, bot: Bot) -> None:
    alice = server.user(104, "Alice")
    server.group(GROUP, "Table", "supergroup", creator=alice)
    await server.restrict_bot(GROUP, alice)
    with bad_request("not enough rights to send text messages to the chat"):
        await bot.send_message(GROUP, "result")
    [update] = await bot.get_updates(timeout=0)
    assert update.my_chat_member is not None
    member = update.my_chat_member.new_chat_member
    assert isinstance(member, ChatMemberRestricted)
    assert member.is_member and not member.can_send_messages


async def test_unchanged_edit_is_rejected(server: FakeTelegram, bot: Bot) -> None:
    group = server.group(GROUP, "Table")
    sent = await bot.send_message(
        GROUP, "<b>Turn</b> 1", parse_mode=ParseMode.HTML, reply_markup=keyboard("t1")
    )
    with bad_request("not modified") as info:
        await bot.edit_message_text(
            "<b>Turn</b> 1",
            GROUP,
            sent.message_id,
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard("t1"),
        )
    assert "exactly the same" in str(info.value)
    # Same plain text, different formatting: that is a change.
    await bot.edit_message_text("Turn 1", GROUP, sent.message_id, reply_markup=keyboard("t1"))
    with bad_request("not modified"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=keyboard("t1"))
    await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=keyboard("t2"))
    # editMessageText without reply_markup drops the keyboard, like Telegram does.
    await bot.edit_message_text("Turn 2", GROUP, sent.message_id)

    current = server.last_message(group)
    assert (current.text, current.edited, current.reply_markup) == ("Turn 2", 3, None)
    assert current.history == ["Turn 1"]  # previous texts, formatting-only edits excluded
    with bad_request("message to edit not found"):
        await bot.edit_message_text("x", GROUP, 123_456)
    await bot.delete_message(GROUP, sent.message_id)
    assert server.messages(group)[0].deleted
    with bad_request("message to edit not found"):
        await bot.edit_message_text("Turn 3", GROUP, sent.message_id)
    with bad_request("message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)


async def test_injected_flood_raises_retry_after(
    server: FakeTelegram, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # RetryAfter.retry_after as a timedelta
    server.group(GROUP, "Table")
    server.inject_flood(method="sendMessage", chat_id=GROUP, retry_after=7, times=1)
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(GROUP, "first")
    assert info.value.retry_after == dt.timedelta(seconds=7)
    await bot.send_message(GROUP, "second")  # only one flood was injected
    failed = server.failed_calls()
    assert [(c.status, c.error) for c in failed] == [(429, "Too Many Requests: retry after 7")]


async def test_callback_data_and_keyboard_limits(server: FakeTelegram, bot: Bot) -> None:
    group = server.group(GROUP, "Table")
    with bad_request("BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "x", reply_markup=keyboard("a" * 65))
    with bad_request("BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "x", reply_markup=keyboard("é" * 33))  # 66 bytes
    with bad_request("BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "x", reply_markup=keyboard(""))
    await bot.send_message(GROUP, "x", reply_markup=keyboard("a" * 64))
    assert server.last_message(group).buttons[0]["callback_data"] == "a" * 64

    wide = InlineKeyboardMarkup(
        [[InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]]
    )
    with bad_request("reply markup is too long"):
        await bot.send_message(GROUP, "x", reply_markup=wide)
    text_only = InlineKeyboardMarkup([[InlineKeyboardButton("nothing")]])
    with bad_request("Text buttons are unallowed"):
        await bot.send_message(GROUP, "x", reply_markup=text_only)


async def test_text_length_and_emptiness(server: FakeTelegram, bot: Bot) -> None:
    group = server.group(GROUP, "Table")
    with bad_request("message is too long"):
        await bot.send_message(GROUP, "a" * 4097)
    await bot.send_message(GROUP, "a" * 4096)
    with bad_request("message is too long"):  # UTF-16 units: each domino tile counts twice
        await bot.send_message(GROUP, "🁣" * 2049)
    await bot.send_message(GROUP, "🁣" * 2048)
    # The limit applies after entity parsing: markup does not count.
    await bot.send_message(GROUP, "<b>" + "a" * 4096 + "</b>", parse_mode=ParseMode.HTML)
    with bad_request("message text is empty"):
        await bot.send_message(GROUP, "")
    with bad_request("message text is empty"):
        await bot.send_message(GROUP, "<b> </b>\n", parse_mode=ParseMode.HTML)
    await bot.send_message(GROUP, "\n  padded \t\n")
    assert server.last_message(group).text == "padded"
    await bot.send_message(GROUP, "\n <b>x</b> ", parse_mode=ParseMode.HTML)
    assert (server.last_message(group).text, server.last_message(group).entities) == (
        "x",
        [{"type": "bold", "offset": 0, "length": 1}],
    )


async def test_html_is_validated_and_stored_as_seen(server: FakeTelegram, bot: Bot) -> None:
    group = server.group(GROUP, "Table")
    name = "Zoë & <Co>"
    for bad in ("<b>x", name, "1 < 2", "<b>x</i>", "<p>x</p>", "a & b"):
        with bad_request("can't parse entities"):
            await bot.send_message(GROUP, bad, parse_mode=ParseMode.HTML)
    with pytest.raises(EntityParseError, match='Unsupported start tag "co" at byte offset 7'):
        parse_html(name, strict_ampersand=False)  # what real Telegram objects to

    sent = await bot.send_message(
        GROUP, f"<b>{html.escape(name)}</b> plays 🁣", parse_mode=ParseMode.HTML
    )
    assert sent.text == f"{name} plays 🁣"
    assert server.last_message(group).text == f"{name} plays 🁣"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [("bold", 0, len(name))]
    assert sent.text_html == f"<b>{html.escape(name, quote=False)}</b> plays 🁣"

    text, entities = parse_html('<a href="https://t.me/x?a=1&amp;b=2">🁣🁣</a> <i>i</i>')
    assert text == "🁣🁣 i"
    assert entities == [
        {"type": "text_link", "offset": 0, "length": 4, "url": "https://t.me/x?a=1&b=2"},
        {"type": "italic", "offset": 5, "length": 1},
    ]
    assert parse_html("a & b", strict_ampersand=False)[0] == "a & b"  # real Telegram


async def test_only_html_is_parsed(server: FakeTelegram, bot: Bot) -> None:
    """The bot formats with HTML only; Markdown is refused rather than passed unchecked."""
    server.group(GROUP, "Table")
    for mode in (ParseMode.MARKDOWN, ParseMode.MARKDOWN_V2, "nonsense"):
        with bad_request("unsupported parse_mode"):
            await bot.send_message(GROUP, "Score 1.5", parse_mode=mode)
    await bot.send_message(GROUP, "Score *1.5*")  # no parse_mode: the text as it is
    assert server.last_message(GROUP).text == "Score *1.5*"


async def test_group_migration(server: FakeTelegram, bot: Bot) -> None:
    server.group(GROUP, "Table")
    new_id = -1_001_234_567_890
    await server.migrate_group(GROUP, new_id)
    with pytest.raises(ChatMigrated) as info:
        await bot.send_message(GROUP, "hello")
    assert info.value.new_chat_id == new_id
    await bot.send_message(new_id, "hello")
    updates = await bot.get_updates()
    assert [u.message.migrate_to_chat_id for u in updates if u.message] == [new_id, None]
    assert updates[1].message is not None
    assert updates[1].message.migrate_from_chat_id == GROUP
    assert updates[1].message.chat.type == "supergroup"


async def test_an_old_groups_message_is_not_editable_in_its_supergroup(
    server: FakeTelegram, bot: Bot
) -> None:
    """The supergroup numbers its messages anew: the old group's message id finds nothing in it
    (in Telegram it may even find another message), and the old chat answers with its new id."""
    server.group(GROUP, "Table")
    old = await bot.send_message(GROUP, "board")
    new_id = -1_001_234_567_891
    await server.migrate_group(GROUP, new_id)
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("board 2", GROUP, old.message_id)
    with bad_request("message to edit not found"):
        await bot.edit_message_text("board 2", new_id, old.message_id)


async def test_forum_topics(server: FakeTelegram, bot: Bot) -> None:
    """A forum's topics: messages carry their thread; sends honour message_thread_id (or the
    replied message's topic); a deleted one is "message thread not found"; closing, reopening
    and creating are service messages the bot receives (a closed one: ``test_a_closed_topic``)."""
    alice, bob = server.user(1, "Alice"), server.user(2, "Bob")
    forum = server.group(GROUP, "Yard", "supergroup", creator=alice, members=[bob], forum=True)
    assert (await bot.get_chat(GROUP)).is_forum
    topic = await server.create_topic(alice, forum, "Table 1")
    await server.send_text(bob, forum, "/new", topic=topic)
    await server.send_text(bob, forum, "/new")  # the General topic
    created, in_topic, in_general = [u.message for u in await bot.get_updates()]
    assert created is not None and created.forum_topic_created is not None
    assert created.message_thread_id == topic.thread_id == created.message_id
    assert in_topic is not None and in_topic.is_topic_message
    assert in_topic.message_thread_id == topic.thread_id
    assert in_topic.reply_to_message is not None  # the topic's first message, as on Telegram
    assert in_topic.reply_to_message.forum_topic_created is not None
    assert in_general is not None and not in_general.is_topic_message

    board = await bot.send_message(GROUP, "board", message_thread_id=topic.thread_id)
    assert board.message_thread_id == topic.thread_id and board.is_topic_message
    reply = await bot.send_message(GROUP, "ok", reply_to_message_id=in_topic.message_id)
    assert reply.message_thread_id == topic.thread_id
    general = await bot.send_message(GROUP, "hello")
    assert general.message_thread_id is None
    assert [m.text for m in server.topic_messages(topic)] == ["board", "ok"]
    with bad_request("message thread not found"):
        await bot.send_message(GROUP, "x", message_thread_id=topic.thread_id + 100)

    await server.delete_topic(topic)
    with bad_request("message thread not found"):
        await bot.send_message(GROUP, "x", message_thread_id=topic.thread_id)
    with bad_request("message to edit not found"):
        await bot.edit_message_text("gone", GROUP, board.message_id)
    await bot.send_message(GROUP, "the General topic stays")


async def test_a_closed_topic(server: FakeTelegram, bot: Bot) -> None:
    """A closed topic refuses new messages and edits of the bot's messages there with
    TOPIC_CLOSED, unless the bot is an admin that may manage topics; people who are admins
    still write there. Closing and reopening are service messages the bot receives, and
    reopened, the topic takes messages again."""
    alice, bob = server.user(1, "Alice"), server.user(2, "Bob")
    forum = server.group(GROUP, "Yard", "supergroup", creator=alice, members=[bob], forum=True)
    topic = await server.create_topic(alice, forum, "Table 1")
    board = await bot.send_message(GROUP, "board", message_thread_id=topic.thread_id)
    general = await bot.send_message(GROUP, "hello")

    await server.close_topic(alice, topic)
    with bad_request("TOPIC_CLOSED"):
        await bot.send_message(GROUP, "x", message_thread_id=topic.thread_id)
    with bad_request("TOPIC_CLOSED"):
        await bot.edit_message_text("board, edited", GROUP, board.message_id)
    with bad_request("TOPIC_CLOSED"):
        await bot.edit_message_reply_markup(GROUP, board.message_id, reply_markup=None)
    await bot.edit_message_text("General, edited", GROUP, general.message_id)
    with pytest.raises(ValueError, match="only admins"):
        await server.send_text(bob, forum, "/new", topic=topic)
    await server.send_text(alice, forum, "admins still may", topic=topic)
    server.admins[GROUP].add(server.bot_id)
    with bad_request("TOPIC_CLOSED"):  # an admin, but not one that may manage topics
        await bot.send_message(GROUP, "x", message_thread_id=topic.thread_id)
    server.topic_managers[GROUP].add(server.bot_id)
    member = await bot.get_chat_member(GROUP, server.bot_id)
    assert member.status == "administrator" and getattr(member, "can_manage_topics", False)
    await bot.send_message(GROUP, "a bot that manages topics", message_thread_id=topic.thread_id)
    await bot.edit_message_text("board, edited", GROUP, board.message_id)

    server.topic_managers[GROUP].clear()
    await server.reopen_topic(alice, topic)
    kinds = [u.message for u in await bot.get_updates() if u.message and not u.message.text]
    closed, reopened = kinds[-2:]
    assert closed.forum_topic_closed is not None and reopened.forum_topic_reopened is not None
    assert closed.message_thread_id == reopened.message_thread_id == topic.thread_id
    await bot.send_message(GROUP, "open again", message_thread_id=topic.thread_id)
    await bot.edit_message_text("board, open again", GROUP, board.message_id)


async def test_callback_answers(server: FakeTelegram, bot: Bot) -> None:
    alice = server.user(101, "Alice")
    group = server.group(GROUP, "Table")
    await bot.send_message(GROUP, "pick", reply_markup=keyboard("p:1", "p:2"))
    query_id = await server.press_button(alice, server.last_message(group), "b1")
    update = (await bot.get_updates())[-1]
    assert update.callback_query is not None
    assert update.callback_query.data == "p:2"
    assert isinstance(update.callback_query.message, Message)
    assert update.callback_query.message.text == "pick"
    with bad_request("MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(query_id, "x" * 201)
    await bot.answer_callback_query(query_id, "Not your turn", show_alert=True)
    answer = server.callback_answers[query_id]
    assert (answer.text, answer.show_alert) == ("Not your turn", True)
    with bad_request("query is too old"):
        await bot.answer_callback_query(query_id)
    with bad_request("query is too old"):
        await bot.answer_callback_query("12345")


async def test_members_commands_and_chat(server: FakeTelegram, bot: Bot) -> None:
    alice, bob, carol = server.user(1, "Alice"), server.user(2, "Bob"), server.user(3, "Carol")
    server.group(GROUP, "Table", "supergroup", creator=alice, admins=[bob], members=[carol])
    statuses = [(await bot.get_chat_member(GROUP, u.id)).status for u in (alice, bob, carol)]
    assert statuses == ["creator", "administrator", "member"]
    assert (await bot.get_chat_member(GROUP, server.bot_id)).status == "member"
    admins = await bot.get_chat_administrators(GROUP)
    assert [m.user.id for m in admins] == [1, 2]
    chat = await bot.get_chat(GROUP)
    assert (chat.title, chat.type) == ("Table", "supergroup")
    await server.send_text(alice, alice, "/start")
    await bot.send_chat_action(alice.id, "typing")
    assert server.chat_actions == [(alice.id, "typing")]

    await bot.set_my_commands([BotCommand("new", "New game")])
    await bot.set_my_commands([BotCommand("neu", "Neues Spiel")], language_code="de")
    await bot.set_my_commands([BotCommand("join", "Join")], scope=BotCommandScopeAllGroupChats())
    assert server.command_names() == ["new"]
    assert server.command_names("default", "de") == ["neu"]
    assert server.commands[("all_group_chats", "")][0]["description"] == "Join"
    assert [c.command for c in await bot.get_my_commands(language_code="de")] == ["neu"]
    with bad_request("BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("New", "bad")])

    server.kick_bot(GROUP)
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await bot.send_message(GROUP, "anyone?")


async def test_an_admin_writes_anonymously_in_the_groups_name(
    server: FakeTelegram, bot: Bot
) -> None:
    """As Telegram sends it: from the group itself (``sender_chat``), with a stand-in ``from``;
    only an admin may."""
    alice, bob = server.user(11, "Alice"), server.user(12, "Bob")
    server.group(GROUP, "Table", "supergroup", creator=alice, members=[bob])
    await server.send_text(alice, GROUP, "/cancel", anonymous=True)
    [update] = await bot.get_updates(timeout=0)
    message = update.message
    assert message is not None and message.sender_chat is not None
    assert message.sender_chat.id == GROUP and update.effective_sender == message.sender_chat
    assert message.from_user is not None
    assert (message.from_user.id, message.from_user.username) == (1087968824, "GroupAnonymousBot")
    with pytest.raises(ValueError, match="no admin"):
        await server.send_text(bob, GROUP, "/cancel", anonymous=True)


async def test_get_updates_long_poll(server: FakeTelegram, bot: Bot) -> None:
    alice = server.user(101, "Alice")
    assert await bot.get_updates(timeout=0) == ()
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await server.wait_for(lambda: server.waiting_polls, what="a long poll")
    sent = await server.send_text(alice, alice, "/start@KozelTestBot x")
    updates = await poll
    assert loop.time() - started < 2
    assert len(updates) == 1 and updates[0].message is not None
    assert updates[0].message.text == "/start@KozelTestBot x"
    assert sent["entities"] == [{"type": "bot_command", "offset": 0, "length": 19}]
    for i in range(3):
        await server.send_text(alice, alice, f"m{i}")
    first = updates[0].update_id
    assert [
        u.message.text for u in await bot.get_updates(offset=first + 1, limit=2) if u.message
    ] == ["m0", "m1"]
    assert len(server.pending_updates) == 3  # offset confirms only what came before it
    rest = await bot.get_updates(offset=first + 3)
    assert [u.message.text for u in rest if u.message] == ["m2"]


async def test_group_limit_accounting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # else RetryAfter() itself warns
    clock = FakeClock()
    async with FakeTelegram(enforce_group_limit=True, clock=clock) as server:
        server.group(GROUP, "Table")
        async with server.make_bot() as bot:
            for i in range(20):
                await bot.send_message(GROUP, f"m{i}")
                clock.now += 1
            with pytest.raises(RetryAfter):
                await bot.send_message(GROUP, "one too many")
            assert server.failed_calls()[-1].error == "Too Many Requests: retry after 40"
            clock.now += 41  # the first message left the 60 s window
            await bot.send_message(GROUP, "m20")
        assert server.max_messages_per_window(GROUP) == 20
        assert server.max_messages_per_window(GROUP, window=5.0) == 5
        assert len(server.sent_times(GROUP)) == 21

    async with FakeTelegram() as unlimited:  # default: only accounting, no 429
        unlimited.group(GROUP, "Table")
        async with unlimited.make_bot() as bot:
            for i in range(25):
                await bot.send_message(GROUP, f"m{i}")
        assert unlimited.max_messages_per_window(GROUP) == 25


async def test_edits_count_against_the_group_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Telegram counts a group's edits with its new messages (tdlib issue 2592)."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    clock = FakeClock()
    async with FakeTelegram(enforce_group_limit=True, clock=clock) as server:
        server.group(GROUP, "Table")
        async with server.make_bot() as bot:
            board = await bot.send_message(GROUP, "move 0")
            for i in range(1, 20):
                await bot.edit_message_text(f"move {i}", GROUP, board.message_id)
                clock.now += 1
            with pytest.raises(RetryAfter):
                await bot.edit_message_text("one too many", GROUP, board.message_id)
            assert server.failed_calls()[-1].error == "Too Many Requests: retry after 41"
            clock.now += 42
            await bot.edit_message_text("move 20", GROUP, board.message_id)
        assert server.max_messages_per_window(GROUP) == 20


async def test_application_polls_and_replies(server: FakeTelegram) -> None:
    async def ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            "pong",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Again", callback_data="again")]]
            ),
        )

    async def again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("ok")
        await query.edit_message_text("pong again")

    app = server.configure(ApplicationBuilder()).build()
    app.add_handler(CommandHandler("ping", ping))
    app.add_handler(CallbackQueryHandler(again))
    alice = server.user(101, "Alice")
    group = server.group(GROUP, "Table")
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            await server.send_text(alice, alice, "/ping")
            reply = await server.wait_for_message(alice, "pong")
            query_id = await server.press_button(alice, reply, "Again")
            await server.wait_for(lambda: server.last_message(alice).text == "pong again")
            assert server.callback_answers[query_id].text == "ok"
            assert server.last_message(alice).reply_markup is None

            # Privacy mode: plain group chatter never reaches the bot, commands do.
            chatter = await server.send_text(alice, group, "anyone for dominoes?")
            await server.send_text(alice, group, "/ping@OtherBot")
            await server.send_text(alice, group, "/ping@KozelTestBot")
            answer = await server.wait_for_message(group, "pong")
            await server.wait_idle()
            assert len(server.messages(group)) == 1
            assert not server.message(group, chatter["message_id"]).delivered
            assert answer.to_dict()["reply_to_message"]["text"] == "/ping@KozelTestBot"
        finally:
            await app.updater.stop()
            await app.stop()
    assert not server.failed_calls()
    assert not server.pending_updates  # the final getUpdates confirmed everything


async def test_wait_for_times_out_with_a_summary(server: FakeTelegram, bot: Bot) -> None:
    server.group(GROUP, "Table")
    await bot.send_message(GROUP, "only this")
    with pytest.raises(AssertionError, match=r"sendMessage.*only this"):
        await server.wait_for(lambda: server.last_message(GROUP).text == "never", timeout=0.2)
