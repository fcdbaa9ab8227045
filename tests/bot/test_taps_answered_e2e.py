"""Every tap on a button gets an answer, whatever it finds, or the tapper's client goes on
spinning: a good tap, a stale one (an old message after the table moved on), someone else's,
and forged callback data. A bad tap changes nothing: neither what the chats show nor what is
stored."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from devtools.fake_telegram import CallbackAnswer, FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import Harness, start_match, tap
from tests.bot.test_table_life_e2e import prepare

NOT_VALID = "This button is not valid here."
NOT_OPENER = "Only the table's opener or the group's admins can do that."
NOT_OPENER_CANCEL = "Only Masha, who opened the table, or an admin can cancel it."
NOT_OPENER_RULES = (
    "Only the table's opener or the group's admins can change the game and its rules: "
    "/rules shows them."
)
CHANGED = "The table has just changed: have a look at it first."
STARTED = "The match has already started."
NOT_JOINED = "You are not at this table: tap ✋ Join to take a seat."
NOT_PLAYING = "You are not in this match: join the next one when it ends."
STALE = "That button is out of date — use your latest message."
NOT_YOUR_TURN = "It is not your turn yet."
NOT_YOUR_TABLE = "You are not playing at this table."
GAME_OVER = "This game is over."
NOT_IN_HAND = "That tile is not in your hand."
AGAIN = "🔁 Play again"


@dataclass(frozen=True, slots=True)
class Bad:
    """A tap that must be answered (with ``says`` in the answer) and change nothing."""

    what: str  # the button, and why the tap is bad: a failure names it
    who: FakeUser
    data: str
    says: str


Keyboard = dict[str, str]


def keyboard(message: FakeMessage) -> Keyboard:
    """The buttons ``message`` shows now, label to callback data (the message changes later)."""
    return {str(b["text"]): str(b["callback_data"]) for row in message.inline_keyboard for b in row}


def data_of(buttons: Keyboard, label: str) -> str:
    """The callback data of the button whose label holds ``label``."""
    found = next((data for text, data in buttons.items() if label in text), None)
    assert found is not None, f"no button {label!r} among {list(buttons)}"
    return found


def each(buttons: Keyboard, who: FakeUser, why: str, says: str) -> list[Bad]:
    """A bad tap by ``who`` on each of ``buttons``, answered with ``says``."""
    return [Bad(f"{label} {why}", who, data, says) for label, data in buttons.items()]


async def state(harness: Harness, chats: Iterable[FakeChat | FakeUser]) -> object:
    """What people see in ``chats`` and what is stored, once the bot has said all it queued."""
    await harness.groups_told()
    await harness.tg.wait_idle()
    seen = [
        (m.chat.id, m.message_id, m.text, str(m.reply_markup), m.deleted)
        for chat in chats
        for m in harness.tg.messages(chat)
    ]
    with sqlite3.connect(harness.database) as db:
        stored = [
            db.execute(
                "SELECT table_id, status, game, rules, players, pairs, lobby_message_id,"
                " board_message_id, last_seq, lobby_view, computer_level FROM tables"
                " ORDER BY table_id"
            ).fetchall(),
            db.execute("SELECT * FROM seats ORDER BY table_id, seat").fetchall(),
            db.execute("SELECT chat_id, language FROM chats ORDER BY chat_id").fetchall(),
        ]
    return seen, stored


async def answered(harness: Harness, who: FakeUser, message: FakeMessage, label: str) -> str:
    """Press the button labelled ``label`` (by its label: a good tap); its answer's text, once
    what the tap changed is drawn (a tap's answer waits for its lobby a few seconds at most)."""
    tg = harness.tg
    answer = await tap(tg, who, message, data_of(keyboard(tg.current(message)), label))
    await harness.groups_told()
    return answer.text or ""


async def refused(
    harness: Harness,
    message: FakeMessage | Mapping[str, Any],
    chats: list[FakeChat | FakeUser],
    taps: list[Bad],
) -> None:
    """Each tap on ``message`` is answered with its words and changes nothing."""
    tg = harness.tg
    for bad in taps:
        before = await state(harness, chats)
        answer: CallbackAnswer = await tap(tg, bad.who, message, bad.data)
        said = answer.text or ""
        assert bad.says in said and "went wrong" not in said, (bad.what, said)
        assert await state(harness, chats) == before, bad.what
    assert not tg.pending_queries


async def test_every_lobby_button_is_answered_and_a_bad_tap_changes_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, olya = tg.user(9101, "Masha"), tg.user(9102, "Alex"), tg.user(9103, "Olya")
    group, garden = tg.group(-9101, "Courtyard"), tg.group(-9102, "Garden")
    chats: list[FakeChat | FakeUser] = [group, garden, masha, alex, olya]
    for user in (masha, alex, olya):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    garden_lobby = await harness.open_table(olya, garden)  # table 1, another group's
    lobby = await harness.open_table(masha, group)

    # each button, tapped as it should be, is answered
    assert await answered(harness, masha, lobby, "⚙️ Rules") == ""
    rules = keyboard(tg.current(lobby))
    assert await answered(harness, masha, lobby, "themselves") == ""  # two pairs now
    assert await answered(harness, masha, lobby, "« Back") == ""
    assert "You are in" in await answered(harness, alex, lobby, "✋ Join")
    assert "pair" in await answered(harness, alex, lobby, "🔀 Change pair")
    assert await answered(harness, masha, lobby, "🎲 Game") == ""
    games = keyboard(tg.current(lobby))
    assert "Muggins" in await answered(harness, masha, lobby, "Muggins")
    assert await answered(harness, masha, lobby, "🎲 Game") == ""
    assert "Kozel" in await answered(harness, masha, lobby, "Kozel")
    old = keyboard(tg.current(lobby))  # the lobby before Olya came
    assert "You are in" in await answered(harness, olya, lobby, "✋ Join")
    assert "left" in await answered(harness, olya, lobby, "🚪 Leave")
    assert "computer" in await answered(harness, masha, lobby, "🤖 Add computer")
    table = keyboard(tg.current(lobby))

    def on_table(label: str, *args: str) -> str:
        return ":".join([data_of(table, label), *args])

    rev = data_of(table, "▶️ Start").split(":")[2]
    await refused(
        harness,
        lobby,
        chats,
        [
            # someone else's: only the opener (or an admin) changes the table
            Bad("⚙️ Rules by a player", alex, on_table("⚙️ Rules"), NOT_OPENER_RULES),
            Bad("an option by a player", alex, data_of(rules, "themselves"), NOT_OPENER_RULES),
            Bad("« Back by a player", alex, data_of(rules, "« Back"), NOT_OPENER),
            Bad("🎲 Game by a player", alex, on_table("🎲 Game"), NOT_OPENER_RULES),
            Bad("a game by a player", alex, data_of(games, "Telephone"), NOT_OPENER_RULES),
            Bad("🤖 by a player", alex, on_table("🤖 Add computer"), NOT_OPENER),
            Bad("✖️ by a player", alex, on_table("✖️ Cancel"), NOT_OPENER_CANCEL),
            Bad("▶️ by a player at a table not full", alex, on_table("▶️ Start"), "opener"),
            Bad("🚪 by someone not seated", olya, on_table("🚪 Leave"), NOT_JOINED),
            Bad("🔀 by someone not seated", olya, on_table("🔀 Change pair"), NOT_JOINED),
            Bad("✋ by someone seated", alex, on_table("✋ Join"), "already"),
            # stale: drawn for the lobby as it was before someone changed it
            Bad("a stale option", masha, data_of(rules, "Players"), CHANGED),
            Bad("a stale game", masha, data_of(games, "Telephone"), CHANGED),
            Bad("a stale 🔀", alex, data_of(old, "🔀 Change pair"), CHANGED),
            Bad("a stale 🤖", masha, data_of(old, "🤖 Add computer"), CHANGED),
            Bad("a stale ▶️", masha, data_of(old, "▶️ Start"), CHANGED),
            # forged: within the 64 bytes, well formed or not
            Bad("an option nobody offers", masha, f"o:2:{rev}:nonsense", NOT_VALID),
            Bad("a game nobody offers", masha, f"m:2:{rev}:chess", "no such game"),
            Bad("another group's table", olya, "c:1:0", "no table"),
            Bad("another group's ▶️", masha, f"s:1:{rev}", "no table"),
            Bad("a table that never was", masha, f"b:{'9' * 18}:{rev}", "no table"),
            Bad("a table id too long", masha, f"j:{'9' * 25}:0", NOT_VALID),
            Bad("a revision not a number", masha, "s:2:x", NOT_VALID),
            Bad("no verb", masha, "q:2:0", NOT_VALID),
            Bad("no stamp", masha, "s:2", NOT_VALID),
            Bad("64 bytes of garbage", masha, "ÿ" * 32, NOT_VALID),
        ],
    )

    # the table is full and the match starts: the lobby's buttons, kept by a client, no longer
    # act on it
    assert "computer" in await answered(harness, masha, lobby, "🤖 Add computer")
    assert "started" in await answered(harness, masha, lobby, "▶️ Start")
    await refused(
        harness,
        lobby,
        chats,
        [
            Bad(f"{label} after the start", masha, data_of(buttons, label), STARTED)
            for buttons, labels in (
                (table, ("✋ Join", "🚪 Leave", "🔀", "▶️", "🤖", "⚙️ Rules", "🎲", "✖️")),
                (rules, ("Players", "« Back")),
                (games, ("Telephone",)),
            )
            for label in labels
        ],
    )

    # ✖️ closes Olya's table in the Garden; her next one has a lobby of its own, and the old
    # lobby's buttons say so
    closed = keyboard(tg.current(garden_lobby))
    assert "cancelled" in await answered(harness, olya, garden_lobby, "✖️ Cancel")
    await harness.open_table(olya, garden)
    gone = "its own message further down"
    await refused(harness, garden_lobby, chats, each(closed, olya, "of a cancelled table", gone))


async def test_every_tap_on_a_hand_is_answered_and_a_bad_one_changes_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, olya = tg.user(9111, "Masha"), tg.user(9112, "Alex"), tg.user(9113, "Olya")
    group = tg.group(-9111, "Courtyard")
    chats: list[FakeChat | FakeUser] = [group, masha, alex, olya]
    users = [masha, alex]
    await tg.send_text(olya, tg.private(olya), "/start")
    await start_match(harness, users, group)
    first, hand = await harness.next_turn(users)
    played = keyboard(hand)  # the buttons of a hand already played
    then = harness.version_of(hand)
    await harness.play_turn(first, hand)  # a tile, and the end or the way if asked: answered
    user, hand = await harness.next_turn(users, then)
    other = alex if user is masha else masha
    now = harness.version_of(hand)
    tiles = {data.split(":")[3] for data in keyboard(hand).values() if data.startswith("p:")}
    tile = sorted(tiles)[0]
    missing = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in tiles)
    await refused(
        harness,
        hand,
        chats,
        [
            *each(played, first, "of a turn played", STALE),
            Bad("« Back of a turn played", user, f"x:1:{then}", STALE),
            Bad("a tile of a turn to come", user, f"p:1:{now + 5}:{tile}", STALE),
            Bad("a tile by the other player", other, f"p:1:{now}:{tile}", NOT_YOUR_TURN),
            Bad("a tile by a stranger", olya, f"p:1:{now}:{tile}", NOT_YOUR_TABLE),
            Bad("🙋 by a stranger", olya, "h:1:0", NOT_YOUR_TABLE),
            Bad("🙋 by someone never away", other, "h:1:0", "Welcome back"),
            Bad("a tile not in the hand", user, f"p:1:{now}:{missing}", NOT_IN_HAND),
            Bad("a tile no set has", user, f"p:1:{now}:9-9", NOT_VALID),
            Bad("an end no layout has", user, f"p:1:{now}:{tile}:middle", NOT_VALID),
            Bad("a way no double lies", user, f"p:1:{now}:{tile}:left:z", NOT_VALID),
            Bad("several doubles garbled", user, f"y:1:{now}:zz", NOT_VALID),
            Bad("a lay of a tile not in the hand", user, f"y:1:{now}:{missing}:!", NOT_IN_HAND),
            Bad("a reopen Kozel has not", user, f"r:1:{now}:{tile}", "not laid closed"),
            Bad("a knock with a tile to play", user, f"k:1:{now}", "fits"),
            Bad("a table that never was", user, f"p:9:{now}:{tile}", GAME_OVER),
            Bad("🙋 at a table that never was", user, "h:9:0", GAME_OVER),
            Bad("a table id too long", user, f"x:{'9' * 25}:0", NOT_VALID),
        ],
    )
    # the hand still plays
    await harness.play_turn(user, hand)


@pytest.mark.fast_turns
async def test_every_tap_after_a_match_is_answered_and_a_bad_one_changes_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    """🔁 Play again under the match's end, /top's pages and /language's choices, and the
    hand and 🙋 I'm back of a match that ended."""
    masha, alex, olya = tg.user(9121, "Masha"), tg.user(9122, "Alex"), tg.user(9123, "Olya")
    yard, garden = tg.group(-9121, "Yard", admins=[masha]), tg.group(-9122, "Garden")
    chats: list[FakeChat | FakeUser] = [yard, garden, masha, alex, olya]
    await prepare(harness, [masha], yard, computers=1, turn_seconds=1)
    ended = await tg.wait_for_message(yard, "ended early", timeout=4.0)
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    for user in (alex, olya):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    note = await tg.send_text(olya, garden, "hello")
    # a client that kept the buttons of Masha's DM, her hand's and 🙋 I'm back's
    bygone = [Bad("🙋 after the match", masha, "h:1:0", GAME_OVER)]
    bygone += [Bad("a tile after the match", masha, "p:1:3:0-0", GAME_OVER)]
    await refused(harness, tg.messages(masha)[-1], chats, bygone)
    again = data_of(keyboard(tg.current(ended)), AGAIN)
    await refused(
        harness,
        ended,
        chats,
        [
            Bad("🔁 of a table that never was", alex, "a:9:0", NOT_VALID),
            Bad("🔁 of a table id not a number", alex, "a:x:0", NOT_VALID),
        ],
    )
    await refused(harness, note, chats, [Bad("🔁 in another group", olya, again, NOT_VALID)])
    assert "You are in" in await answered(harness, alex, ended, AGAIN)
    await refused(
        harness,
        ended,
        chats,
        [
            Bad("🔁 again, by whoever tapped it", alex, again, "already at this table"),
            Bad("🔁 again, by another", masha, again, "already open"),
        ],
    )

    # /top of a game not played here offers the one played: anyone turns its pages
    await tg.send_text(olya, yard, "/top muggins")
    top = await tg.wait_for_message(yard, lambda m: m.find_button("Kozel") is not None)
    turns = keyboard(top)
    assert await answered(harness, olya, top, "Kozel") == ""
    await tg.wait_for(lambda: "Standings: Kozel" in (tg.current(top).text or ""))
    await refused(
        harness,
        top,
        chats,
        [
            Bad("a page no standings reach", olya, "t:0:5:kozel", NOT_VALID),
            Bad("a game nobody plays", olya, "t:0:0:chess", NOT_VALID),
            Bad("a page of a message turned since", olya, turns["Kozel"], NOT_VALID),
        ],
    )
    # /language: only the group's admins choose
    await tg.send_text(masha, yard, "/language")
    chooser = await tg.wait_for_message(yard, lambda m: m.find_button("🇺🇦 Українська") is not None)
    languages = keyboard(chooser)
    await refused(
        harness,
        chooser,
        chats,
        [
            Bad("a language by someone not an admin", alex, languages["🇺🇦 Українська"], "admins"),
            Bad("a language nobody speaks", masha, "g:0:0:xx", NOT_VALID),
            Bad("a page on the language's message", olya, turns["Kozel"], NOT_VALID),
        ],
    )
    # their buttons forged on another message would edit it away (English: the yard's, marked)
    english = languages["✅ 🇬🇧 English"]
    forged = [Bad("a language on the match's end", masha, english, NOT_VALID)]
    forged += [Bad("a page on the match's end", olya, turns["Kozel"], NOT_VALID)]
    await refused(harness, ended, chats, forged)
    assert await answered(harness, masha, chooser, "English") == ""
    await refused(harness, chooser, chats, each(languages, masha, "once chosen", NOT_VALID))


async def lobby_of(harness: Harness, group: FakeChat, *users: FakeUser) -> FakeMessage:
    """The ``users`` press Start in their DMs and the first opens a table in ``group``: its
    lobby, once the group has been told everything."""
    tg = harness.tg
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(users[0], group)
    await harness.groups_told()
    return lobby


async def out_of_room(harness: Harness, group: FakeChat) -> None:
    """Once what the group was sent has gone, its budget spent for 1,000 s of the server's
    clock (10 s here)."""
    await harness.groups_told()
    for _ in range(200):
        harness.kozel.sender.pacer.note(group.id)


async def answered_at_once(
    tg: FakeTelegram, who: FakeUser, message: FakeMessage, label: str
) -> str:
    """``who`` taps ``label`` on ``message``: the answer, which must not wait the 10 s the
    group is out of room (``ANSWER_WAIT`` is on the pacer's clock, 0.03 s here)."""
    begun = time.monotonic()
    answer = await tap(tg, who, message, data_of(keyboard(tg.current(message)), label))
    assert time.monotonic() - begun < 5.0, label
    return answer.text or ""


async def reply_to(tg: FakeTelegram, group: FakeChat, asked: Mapping[str, Any]) -> FakeMessage:
    """The bot's reply to the message ``asked`` in ``group``, once the group has room."""
    return await tg.wait_for_message(
        group,
        lambda m: m.extra.get("reply_to_message", {}).get("message_id") == asked["message_id"],
        timeout=30.0,
    )


async def test_a_tap_is_answered_at_once_while_its_group_is_out_of_room(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A group out of room (a busy forum's, or one flooded with commands) holds the lobby
    redrawn for a join, or /language's message, until its budget refills: the tap was
    answered only then, for a minute of Telegram's group limit, which Telegram refuses that
    late, and the button spun meanwhile."""
    masha, alex = tg.user(9131, "Masha"), tg.user(9132, "Alex")
    group = tg.group(-9131, "Courtyard", admins=[masha])
    lobby = await lobby_of(harness, group, masha, alex)
    await tg.send_text(masha, group, "/language")
    chooser = await tg.wait_for_message(group, lambda m: m.find_button("🇺🇦 Українська") is not None)
    await out_of_room(harness, group)
    assert "You are in" in await answered_at_once(tg, alex, lobby, "✋ Join")
    assert await answered_at_once(tg, masha, chooser, "🇺🇦 Українська") == ""
    assert "Alex" not in (tg.current(lobby).text or "")  # the lobby still waits for room
    await tg.wait_for(lambda: "2. Alex" in (tg.current(lobby).text or ""), timeout=30.0)
    assert not tg.pending_queries


@pytest.mark.parametrize(
    ("command", "says"), [("/join", STARTED), ("/addbot", NOT_OPENER), ("/leave", NOT_PLAYING)]
)
async def test_a_move_is_answered_at_once_while_a_refused_command_waits_for_room(
    tg: FakeTelegram, harness: Harness, command: str, says: str
) -> None:
    """Someone at a match's group asked for what it refuses (to join a match already dealt,
    to add a computer, to leave a table he is not at) while the group was out of room: the
    refusal waited for the group's budget holding the table's lock, and the player on turn,
    whose move needs that lock, had his tap answered only once the group had room again."""
    masha, alex = tg.user(9141, "Masha"), tg.user(9142, "Alex")
    group = tg.group(-9141, "Courtyard")
    await start_match(harness, [masha], group, computers=3)
    _, hand = await harness.next_turn([masha])
    await out_of_room(harness, group)
    asked = await tg.send_text(alex, group, command)
    await asyncio.sleep(0.5)  # the command is being answered
    tile = next(str(b["text"]) for b in hand.buttons if str(b.get("text", "")).startswith("✅"))
    answer = await answered_at_once(tg, masha, hand, tile)
    # a tile that fits both ends is answered by the question which one, in the hand itself
    assert answer.startswith("You played") or harness.choices_of(tg.current(hand)), answer
    assert (await reply_to(tg, group, asked)).text == says  # once the group has room


@pytest.mark.parametrize("command", ["/addbot", "/language"])
async def test_a_tap_is_answered_at_once_while_a_command_waits_for_room(
    tg: FakeTelegram, harness: Harness, command: str
) -> None:
    """A command in a group out of room waited for the group's budget (/addbot, for the lobby
    with the computer to go out, so that its reply came after it; /language, to post its
    choices), and every later update of the group waited behind it: a Join tapped meanwhile
    was answered only once the group had room again. What the command says is now posted
    after what it changed, which keeps the order without anyone waiting."""
    masha, alex = tg.user(9151, "Masha"), tg.user(9152, "Alex")
    group = tg.group(-9151, "Courtyard", admins=[masha])
    lobby = await lobby_of(harness, group, masha, alex)
    await out_of_room(harness, group)
    asked = await tg.send_text(masha, group, command)
    await asyncio.sleep(0.5)  # the command is being answered
    assert "You are in" in await answered_at_once(tg, alex, lobby, "✋ Join")
    said = await reply_to(tg, group, asked)
    to_group = [c for c in tg.calls if c.params.get("chat_id") == group.id]
    replied = next(i for i, c in enumerate(to_group) if "reply_parameters" in c.params)
    if command == "/addbot":  # after the lobby that shows the computer seated
        assert any("🤖" in str(c.params.get("text")) for c in to_group[:replied])
    else:
        assert said.find_button("🇺🇦 Українська") is not None
