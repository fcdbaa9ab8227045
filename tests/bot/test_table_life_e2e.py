"""A table's life beyond the taps: turn timers, players who wander off, restarts, expiry,
computer opponents, other languages, who may manage a table, and groups that become supergroups.

Every test asserts what people in the chat would notice. Timers are made short by changing the
table's turn time in the lobby (the buttons only offer 30 s and more), so no test waits long.
"""

from __future__ import annotations

import asyncio
import html
import re
import time
from functools import partial

import pytest
from telegram import User

import bot.scheduler
from bot.context import Kozel
from bot.handlers.lobby import show_lobby, start_match
from bot.i18n import LANGUAGES, catalog, t
from bot.place import Place
from bot.render.amounts import signed
from bot.service.timeouts import Expiry
from bot.table import Table
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from engine import Play, replay
from tests.bot.harness import BOARD_TITLE, Accelerated, Harness, board_message, tap, texts_seen

NOT_OPENER = "Only the table's opener or the group's admins can do that."
NOT_OPENER_CANCEL = "Only Masha, who opened the table, or an admin can cancel it."
NOT_OPENER_RULES = (
    "Only the table's opener or the group's admins can change the game and its rules: "
    "/rules shows them."
)
#: The group's notice that the match waits for an away person to come back.
EVERYONE_AWAY = "⏳ Every person at the table is away, so the computers wait"


# --- helpers -------------------------------------------------------------------------------


def kozel_of(harness: Harness) -> Kozel:
    assert harness.app is not None
    found = harness.app.bot_data.kozel
    assert found is not None
    return found


async def change_lobby(harness: Harness, group: FakeChat, **settings: object) -> None:
    """Change lobby settings through the service and redraw the lobby, as the ⚙️ Rules buttons
    do, including values the buttons do not offer (a turn of 1–2 seconds)."""
    k = kozel_of(harness)
    async with k.service.store.lock(group.id):
        table = await k.service.store.active_table(Place(group.id))
        assert table is not None and table.status == "lobby"
        for name, value in settings.items():
            await k.service.lobby.change_setting(table, name, value)
        await show_lobby(k, table)
    await k.sender.caught_up(group.id)  # the lobby redrawn, with its new buttons


async def prepare(
    harness: Harness,
    users: list[FakeUser],
    group: FakeChat,
    *,
    computers: int = 0,
    turn_seconds: int | None = None,
    remind_before: float | None = None,
    pairs: bool = False,
) -> FakeMessage:
    """Everyone presses Start in their DM, the first user opens a table for the users and
    ``computers`` computer players (in two pairs if asked), with a short turn if asked, and
    starts it."""
    tg = harness.tg
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(users[0], group)
    wanted: dict[str, object] = {"players": len(users) + computers}
    if turn_seconds is not None:
        wanted["turn_seconds"] = turn_seconds
    if pairs:
        wanted["pairs"] = True
    await change_lobby(harness, group, **wanted)
    await harness.join(users[1:], group, lobby)
    for n in range(computers):
        await tg.press_button(users[0], lobby, "🤖 Add computer")
        await tg.wait_for(partial(lobby_says, tg, lobby, f"Players {len(users) + n + 1}/"))
    if remind_before is not None:
        kozel_of(harness).scheduler.remind_before = remind_before
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Pairs:" if pairs else "Order of play")
    await tg.wait_for(lambda: board_message(tg, group))
    return lobby


def lobby_says(tg: FakeTelegram, lobby: FakeMessage, text: str) -> bool:
    return text in (tg.message(lobby.chat, lobby.message_id).text or "")


def lobby_has(tg: FakeTelegram, lobby: FakeMessage, label: str) -> bool:
    return tg.message(lobby.chat, lobby.message_id).find_button(label) is not None


async def all_block_the_bot(
    harness: Harness, users: list[FakeUser], group: FakeChat, turn_seconds: int
) -> FakeMessage:
    """A match of ``users`` starts and each of them blocks the bot; returns the group's notice
    that the match waits for one of them to come back."""
    await prepare(harness, users, group, turn_seconds=turn_seconds)
    for user in users:
        harness.tg.block(user)
    return await harness.tg.wait_for_message(group, EVERYONE_AWAY, timeout=6.0)


async def next_turn(
    harness: Harness, users: list[FakeUser], after: int, timeout: float = 5.0
) -> tuple[FakeUser, FakeMessage]:
    """The next live hand (a keyboard drawn after version ``after``) among ``users``."""
    return await harness.tg.wait_for(lambda: harness._turn(users, after), timeout=timeout)


def count(texts: list[str], needle: str) -> int:
    return sum(1 for text in texts if needle in text)


async def events_of(harness: Harness, table_id: int = 1) -> list[dict[str, object]]:
    return await kozel_of(harness).storage.load_events(table_id)


def moves_by(events: list[dict[str, object]], seat: int) -> int:
    return sum(1 for e in events if e["type"] == "played" and e["seat"] == seat)


def turn_of(event: dict[str, object]) -> object:
    """The seat that acted in a move event (played, drew, knocked), else None."""
    return event.get("seat") if event["type"] in ("played", "drew", "knocked") else None


def short_minute(harness: Harness) -> None:
    """Let the group's message pace (18 a minute) count over one second instead of a minute: a
    whole match posts more than 18 group messages, and the pace itself is tested elsewhere."""
    kozel_of(harness).sender.pacer.window = 1.0


async def armed_deadline(harness: Harness, table_id: int = 1) -> float:
    """The deadline of the turn in progress, once the scheduler has armed its timer."""
    service = kozel_of(harness).service
    for _ in range(250):
        table = await service.store.table(table_id)
        if table is not None and table.turn_deadline is not None:
            return table.turn_deadline
        await asyncio.sleep(0.02)
    raise AssertionError("no turn timer was armed")


async def until_moved(harness: Harness, new_id: int) -> None:
    """Wait until the bot has moved the table to a supergroup's new id."""
    storage = kozel_of(harness).storage
    for _ in range(250):
        if await storage.get_active_table(new_id) is not None:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the table did not move to {new_id}")


def board(tg: FakeTelegram, group: FakeChat) -> str:
    """The text of the group's current board."""
    return board_message(tg, group).text or ""


def plain(text: str) -> str:
    """What a person reads of a Telegram HTML text."""
    return html.unescape(re.sub(r"<[^>]*>", "", text))


# --- 1. a turn timeout ---------------------------------------------------------------------


async def test_a_player_who_runs_out_of_time_is_reminded_then_the_computer_plays(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(301, "Masha"), tg.user(302, "Alex")
    group = tg.group(-701, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=2, remind_before=1.2)
    idle, hand = await next_turn(harness, users, 0)
    version = harness.version_of(hand)
    other = alex if idle is masha else masha
    seat = users.index(idle)
    before = moves_by(await events_of(harness), seat)

    # shortly before the deadline: a DM that notifies, and a mention in the group
    await tg.wait_for_message(idle, "⏰ Your move in Yard!", timeout=3.0)
    mention = await tg.wait_for_message(group, f"⏰ {idle.first_name}, your move", timeout=3.0)
    assert any(e.get("url") == f"tg://user?id={idle.id}" for e in mention.entities)
    assert count(harness.group_texts(group), "ran out of time") == 0
    assert harness.live_hand(idle) is not None

    # then the computer plays for them, and the group is told
    told = await tg.wait_for_message(group, "ran out of time", timeout=3.0)
    assert told.text == f"⏰ {idle.first_name} ran out of time: the computer played for them."
    assert told.message_id > mention.message_id
    record = tg.message(idle.id, hand.message_id)
    await tg.wait_for(lambda: not record.buttons, what="the live keyboard to become a record")
    assert "your hand" in (record.text or "")
    # their record says who played, not "You played"
    assert "⏰ Time ran out: the computer played [" in (record.text or "")
    assert "You played" not in (record.text or "")
    await tg.wait_for(lambda: f"{idle.first_name} played [" in board(tg, group))
    assert moves_by(await events_of(harness), seat) == before + 1

    # the match goes on: the other player moves, then the idle one has a live hand again
    user, hand = await next_turn(harness, [other], version)
    version = harness.version_of(hand)
    await harness.play_turn(user, hand)
    again, _ = await next_turn(harness, [idle], version)
    assert again is idle
    row = (await kozel_of(harness).storage.get_seats(1))[seat]
    assert row.missed_turns == 1 and not row.absent
    assert not replay(await events_of(harness)).is_over


async def test_a_short_turn_is_reminded_too(tg: FakeTelegram, harness: Harness) -> None:
    """A turn shorter than the usual warning (20 s before the end) still gets its reminder, a
    third of the turn before the end: a 30 s turn at 10 s left, scaled here to 3 s at 1 s."""
    masha, alex = tg.user(311, "Masha"), tg.user(312, "Alex")
    group = tg.group(-711, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=3)
    assert kozel_of(harness).scheduler.remind_before == 20.0
    idle, _ = await next_turn(harness, users, 0)
    await tg.wait_for_message(idle, "⏰ Your move in Yard!", timeout=4.0)
    mention = await tg.wait_for_message(group, f"⏰ {idle.first_name}, your move", timeout=4.0)
    told = await tg.wait_for_message(group, "ran out of time", timeout=4.0)
    assert mention.message_id < told.message_id


async def test_a_move_made_as_the_reminder_falls_due_is_not_reminded(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, the reminder did not wait for the table's lock: falling due while a tap was
    being played, it reminded the player of a turn they had just played (and could redraw
    their keyboard after the tap had made it a record)."""
    masha, alex = tg.user(317, "Masha"), tg.user(318, "Alex")
    group = tg.group(-717, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=3)
    k = kozel_of(harness)
    due = asyncio.Event()
    find = k.service.store.table

    async def noted(table_id: int) -> Table | None:
        due.set()  # only the turn's timer looks a table up here: nobody taps
        return await find(table_id)

    monkeypatch.setattr(k.service.store, "table", noted)
    async with k.service.store.lock(group.id):  # a tap being played, as the reminder falls due
        await due.wait()
        table = await find(1)
        assert table is not None and table.match is not None
        seat = table.seats[table.match.current_seat or 0]
        action = next(a for a in table.match.legal_actions(seat.seat) if isinstance(a, Play))
        events = await k.service.player.act(table, seat, action)
        await k.presenter.show(table, events)
        await k.scheduler.after_change(table)
    mover = users[seat.seat]
    await tg.wait_idle()
    await harness.groups_told()
    assert not any("⏰ Your move" in text for text in texts_seen(tg, mover))
    assert count(harness.group_texts(group), f"⏰ {mover.first_name}, your move") == 0


# --- 2. away after missed turns; "I'm back" ------------------------------------------------


async def test_missed_turns_mark_a_player_away_until_they_tap_im_back(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(311, "Masha"), tg.user(312, "Alex")
    group = tg.group(-711, "Yard")
    users = [masha, alex]
    # 2 s a turn, so that the computer's move for her (well under it) tells from the turn time
    # even on a busy machine
    await prepare(harness, users, group, turn_seconds=2)

    def away_told() -> bool:
        return count(harness.group_texts(group), "Masha ran out of time again") > 0

    # Masha never taps; Alex always does, at once
    version = 0

    def alex_or_away() -> tuple[FakeUser, FakeMessage] | str | None:
        return "away" if away_told() else harness._turn([alex], version)

    while True:
        found: tuple[FakeUser, FakeMessage] | str = await tg.wait_for(alex_or_away, timeout=6.0)
        if isinstance(found, str):
            break
        hand = found[1]
        version = harness.version_of(hand)
        await harness.play_turn(alex, hand)

    texts = harness.group_texts(group)
    assert count(texts, "⏰ Masha ran out of time: the computer played for them.") == 1
    assert count(texts, "⏰ Masha ran out of time again and is marked away") == 1
    away_dm = await tg.wait_for_message(masha, "You missed your turns in Yard")
    assert away_dm.find_button("🙋 I'm back") is not None
    await tg.wait_for(lambda: "(away: the computer plays)" in board(tg, group))
    assert harness.live_hand(masha) is None

    # the computer plays Masha's seat without waiting for her turn time (2 s)
    for _ in range(2):
        _, hand = await next_turn(harness, [alex], version)
        version = harness.version_of(hand)
        seen = len(await events_of(harness))
        await harness.play_turn(alex, hand)
        _, hand = await next_turn(harness, [alex], version, timeout=1.8)
        since = (await events_of(harness))[seen:]
        # Masha's seat moved in between, unless Alex's move ended the round and he leads
        assert any(turn_of(e) == 0 for e in since) or any(e["type"] == "round_ended" for e in since)
        assert harness.live_hand(masha) is None
    assert count(harness.group_texts(group), "Masha ran out of time") == 2

    # "I'm back": the group is told, and her next turn brings her live hand again
    answer = await tap(tg, masha, away_dm, str(away_dm.buttons[0]["callback_data"]))
    assert answer.text == "Welcome back! Your tiles are yours again."
    await tg.wait_for_message(group, "🙋 Masha is back at the table.")
    seat_row = (await kozel_of(harness).storage.get_seats(1))[0]
    assert not seat_row.absent and seat_row.missed_turns == 0
    _, hand = await next_turn(harness, [alex], version)
    await harness.play_turn(alex, hand)
    back, mine = await next_turn(harness, [masha], harness.version_of(hand), timeout=3.0)
    assert back is masha and mine.buttons
    await harness.play_turn(masha, mine)
    await tg.wait_for(lambda: "(away" not in board(tg, group))


def new_deals(tg: FakeTelegram, user: FakeUser, after: int = 0) -> list[FakeMessage]:
    """The "🃏 New deal" hands the bot sent ``user`` after message ``after``."""
    return [
        m
        for m in tg.messages(user.id)
        if m.from_bot and m.message_id > after and (m.text or "").startswith("🃏 New deal")
    ]


def newest(tg: FakeTelegram, user: FakeUser) -> int:
    """The id of the newest message in ``user``'s DM."""
    return max(m.message_id for m in tg.messages(user.id))


async def play_until_one_goes_out(
    harness: Harness, users: list[FakeUser], user: FakeUser, hand: FakeMessage
) -> tuple[FakeUser, FakeMessage]:
    """Everyone plays on from ``user``'s live ``hand`` until someone's is one tile that fits:
    the turn that goes out with it, after which he leads (Kozel, RULES.md §2.6)."""

    def one_tile_left(hand: FakeMessage) -> bool:
        tiles = [b for b in hand.buttons if str(b.get("callback_data", "")).startswith("p:")]
        return len(tiles) == 1 and str(tiles[0].get("text", "")).startswith("✅")

    while not one_tile_left(hand):
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
        user, hand = await next_turn(harness, users, version)
    return user, hand


async def missed_a_turn(harness: Harness, group: FakeChat, seat: int) -> int:
    """``seat`` let his last turn run out (``Seat.missed_turns``): the next one he misses marks
    him away. Returns how many rounds the match has played."""
    k = kozel_of(harness)
    async with k.service.store.lock(group.id):
        table = await k.service.store.active_table(Place(group.id))
        assert table is not None and table.match is not None
        table.seats[seat].missed_turns = 1
        await k.storage.update_seat(table.id, seat, missed_turns=1)
        return table.match.rounds_played


async def test_a_leader_away_at_a_new_deal_is_told_of_it_as_the_others_are(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A person away at a new deal got his new hand in his DM, saying who leads, unless he
    led it: the leader's hand comes with his keyboard, and the computer that plays an away
    leader's turn gets none, so he saw nothing of the deal until his first turn after coming
    back. He is told as the others are, of himself as leader; a leader who is there still
    gets one message, his keyboard. Here he is away by his second missed turn in a row, the
    last tile of the round, which the computer played for him: he went out, so he leads."""
    masha, alex = tg.user(321, "Masha"), tg.user(322, "Alex")
    group = tg.group(-721, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=5)
    first, hand = await next_turn(harness, users, 0)
    # there, the first leader gets one message of the deal, his keyboard; the other his hand
    dealt = [m for m in tg.messages(first.id) if m.from_bot and "round 1" in (m.text or "").lower()]
    assert [m.message_id for m in dealt] == [hand.message_id] and hand.buttons
    assert new_deals(tg, first) == [] and len(new_deals(tg, users[users.index(first) - 1])) == 1

    leader, hand = await play_until_one_goes_out(harness, users, first, hand)
    version = harness.version_of(hand)
    other = users[users.index(leader) - 1]
    rounds = await missed_a_turn(harness, group, users.index(leader))
    last, seen = newest(tg, leader), newest(tg, other)
    away_dm = await tg.wait_for_message(leader, "You missed your turns in Yard", timeout=8.0)
    started = [e for e in await events_of(harness) if e["type"] == "round_started"]
    assert started[-1]["leader"] == users.index(leader) and len(started) == rounds + 2, started
    deals = new_deals(tg, leader, last)
    assert len(deals) == 1, "the away leader was not told of the new deal"
    lines = (deals[0].text or "").splitlines()
    assert lines[0] == "🃏 New deal · Yard", lines
    if started[-1]["lead_tiles"]:  # a double he holds (``double_if_held``): with it, and why
        assert lines[1].startswith("▶️ You lead with ["), lines
    else:
        assert lines[1] == "▶️ You lead.", lines
    assert lines[2].startswith(f"Round {len(started)} · your hand: ") and lines[2].count("[") == 7
    assert deals[0].message_id < away_dm.message_id and not deals[0].buttons
    (others,) = new_deals(tg, other, seen)  # the other's, as ever, names him
    assert (others.text or "").splitlines()[1].startswith(f"▶️ {leader.first_name} leads")

    # back before his next turn: it brings his keyboard, as before
    _, hand = await next_turn(harness, [other], version, timeout=8.0)  # the computer led
    version = harness.version_of(hand)
    answer = await tap(tg, leader, away_dm, str(away_dm.buttons[0]["callback_data"]))
    assert answer.text == "Welcome back! Your tiles are yours again."
    await tg.wait_for_message(group, f"🙋 {leader.first_name} is back at the table.")
    await harness.play_turn(other, hand)
    back, mine = await next_turn(harness, [leader], version, timeout=8.0)
    assert back is leader and mine.buttons and "🎯 Your turn" in (mine.text or "")
    assert len(new_deals(tg, leader, last)) == 1


async def test_im_back_tapped_as_the_match_ends_says_it_is_over(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, "I'm back" looked at the table before waiting for its lock: tapped as the match
    was cancelled (or ended), it welcomed the player back and told the group so, after the
    end."""
    masha, alex = tg.user(315, "Masha"), tg.user(316, "Alex")
    group = tg.group(-715, "Yard")
    await prepare(harness, [masha, alex], group)
    k = kozel_of(harness)
    async with k.service.store.lock(group.id):
        table = await k.service.store.active_table(Place(group.id))
        assert table is not None
        await k.service.timeouts.set_absent(table, table.seats[0], True)
    looked = asyncio.Event()
    find = k.service.store.table

    async def noted(table_id: int) -> Table | None:
        found = await find(table_id)
        looked.set()
        return found

    monkeypatch.setattr(k.service.store, "table", noted)
    async with k.service.store.lock(group.id):  # the opener's /cancel, say
        query = await tg.press(masha, tg.messages(masha)[-1], "h:1:0")
        await looked.wait()  # the tap found the match in play, and waits for the lock
        await k.service.lobby.cancel(table)
    answer = await tg.wait_for(lambda: tg.callback_answers.get(query))
    assert answer.text == "This game is over."
    await harness.groups_told()
    assert count(harness.group_texts(group), "is back at the table") == 0


async def test_a_player_who_blocks_the_bot_during_his_turn_stays_covered(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The reminder finds the DM blocked: the computer covers the seat. The turn's timer, armed
    before, then timed him out (his first missed turn, which marked him present again), so
    the group heard that he ran out of time, and at his next hand, all over again, that he
    cannot be written to."""
    masha, alex = tg.user(319, "Masha"), tg.user(320, "Alex")
    group = tg.group(-719, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=2)
    await harness.play_until_turn_of(masha, users)
    tg.block(masha)
    await tg.wait_for_message(group, "I cannot write to Masha", timeout=5.0)
    version = 0
    for _ in range(3):  # Alex plays on; the computer plays Masha's tiles in between
        turn = await harness.next_turn_or_over([alex], group, version, timeout=5.0)
        if turn is None:
            break
        version = harness.version_of(turn[1])
        await harness.play_turn(alex, turn[1])
    assert (await kozel_of(harness).storage.get_seats(1))[0].absent
    assert count(harness.group_texts(group), "I cannot write to Masha") == 1
    assert count(harness.group_texts(group), "Masha ran out of time") == 0


@pytest.mark.fast_turns
async def test_when_every_person_is_away_the_match_ends_by_timeout(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(316, "Masha")
    group = tg.group(-716, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)

    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    assert "The match ended early: Masha timed out." in (ended.text or "")
    await tg.wait_idle()
    texts = harness.group_texts(group)
    assert count(texts, "⏰ Masha ran out of time: the computer played for them.") == 1
    # nobody is left to come back to: no promise that the computer keeps the seat
    assert count(texts, "until they come back") == 0
    assert not any(m.find_button("🙋 I'm back") for m in tg.messages(masha))
    assert harness.live_hand(masha) is None
    rows = await kozel_of(harness).storage.chat_standings(group.id)
    assert [(r.display_name, r.matches, r.rating) for r in rows] == [("Masha", 1, 0)]


async def test_when_the_last_person_leaves_a_match_the_computers_do_not_play_it_out(
    tg: FakeTelegram, harness: Harness
) -> None:
    """As at the deal, computers alone do not play a match to nobody (they played it out, round
    after round, to a goat in the group): it ends without a result."""
    masha = tg.user(341, "Masha")
    group = tg.group(-741, "Yard")
    await prepare(harness, [masha], group, computers=1)
    hand = await tg.wait_for(lambda: harness.live_hand(masha), timeout=5.0)
    await tg.send_text(masha, group, "/leave")
    await tg.wait_for_message(
        group,
        "🚪 Masha left the table, and nobody is left to play: the match ends without a result.",
    )
    await tg.wait_for(lambda: "Nobody is left at the table" in board(tg, group))
    assert tg.message(masha.id, hand.message_id).text == (
        "You left the table; the match ended without a result."
    )
    table = await kozel_of(harness).storage.get_table(1)
    assert table is not None and table.status == "cancelled"
    moves = moves_by(await events_of(harness), 1)
    await asyncio.sleep(0.5)  # the computer would move at once (no delay in these tests)
    assert moves_by(await events_of(harness), 1) == moves
    texts = harness.group_texts(group)
    assert count(texts, "a computer player took the seat") == 0
    assert count(texts, "goat") == 0
    assert await kozel_of(harness).storage.chat_standings(group.id) == []


async def test_leaving_a_match_is_said_once(tg: FakeTelegram, harness: Harness) -> None:
    """/leave during a match was said twice in the group: "Alex left the table: a computer
    player took the seat." and, as a reply, "You left the table." (as /kick, the group hears
    who plays the seat now, once). It is said with 🚪, as every leaving is: it began with 🤖,
    the mark of a computer's name, and read as if a computer called Alex had left."""
    masha, alex = tg.user(342, "Masha"), tg.user(343, "Alex")
    group = tg.group(-742, "Yard")
    await prepare(harness, [masha, alex], group)
    await tg.send_text(alex, group, "/leave")
    await tg.wait_for_message(group, "🚪 Alex left the table: a computer player took the seat.")
    await harness.groups_told()
    texts = harness.group_texts(group)
    assert count(texts, "left the table") == 1, texts


async def alex_plays_while_masha_goes_away(
    harness: Harness, alex: FakeUser, group: FakeChat
) -> None:
    """Masha never taps, and is marked away; Alex plays his turns meanwhile."""
    version = 0

    def alex_or_away() -> tuple[FakeUser, FakeMessage] | str | None:
        away = count(harness.group_texts(group), "Masha ran out of time again")
        return "away" if away else harness._turn([alex], version)

    while True:
        found: tuple[FakeUser, FakeMessage] | str = await harness.tg.wait_for(
            alex_or_away, timeout=6.0
        )
        if isinstance(found, str):
            return
        version = harness.version_of(found[1])
        await harness.play_turn(alex, found[1])


async def test_when_the_others_are_away_and_one_leaves_the_match_waits_then_ends_by_timeout(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Alex left and Masha is away: nobody plays in person, so, as when every person blocked
    the bot, the computers stop and the match waits a turn's time for Masha to come back
    (before, it ended at once); she does not, and it ends by timeout rather than the
    computers playing it out for both."""
    masha, alex = tg.user(343, "Masha"), tg.user(344, "Alex")
    group = tg.group(-743, "Yard")
    await prepare(harness, [masha, alex], group, turn_seconds=1)
    await alex_plays_while_masha_goes_away(harness, alex, group)
    await tg.send_text(alex, group, "/leave")
    waits = await tg.wait_for_message(group, EVERYONE_AWAY, timeout=4.0)
    assert "taps 🙋 I'm back, or opens @" in (waits.text or "")
    assert "within 1 s; else it ends" in (waits.text or "")
    moves = len(await events_of(harness))
    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    assert "The match ended early: Masha timed out." in (ended.text or "")
    events = await events_of(harness)
    assert [e["type"] for e in events[moves:]] == ["match_ended"]  # the computers waited
    assert count(harness.group_texts(group), EVERYONE_AWAY) == 1
    table = await kozel_of(harness).storage.get_table(1)
    assert table is not None and table.status == "finished"


async def test_an_away_person_who_taps_im_back_while_the_match_waits_plays_on(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Masha is away and Alex is kicked: the match waits for her, she taps 🙋 I'm back in
    time, and it goes on with her tiles back in her hands, with no early end."""
    masha, alex, olya = tg.user(363, "Masha"), tg.user(364, "Alex"), tg.user(365, "Olya")
    group = tg.group(-763, "Yard", admins=[olya])
    await prepare(harness, [masha, alex], group, turn_seconds=2)
    await alex_plays_while_masha_goes_away(harness, alex, group)
    away_dm = await tg.wait_for_message(masha, "You missed your turns in Yard")
    await tg.send_text(olya, group, "/kick 2")
    await tg.wait_for_message(group, EVERYONE_AWAY, timeout=4.0)
    version = (await kozel_of(harness).service.store.table(1) or pytest.fail()).version
    answer = await tap(tg, masha, away_dm, str(away_dm.buttons[0]["callback_data"]))
    assert answer.text == "Welcome back! Your tiles are yours again."
    await masha_plays_on(harness, masha, group, version)


async def masha_plays_on(harness: Harness, masha: FakeUser, group: FakeChat, after: int) -> None:
    """Masha, back while the match waited for her, is told so in the group, gets a live hand
    (drawn after version ``after``) and plays it; the match goes on, with no early end."""
    await harness.tg.wait_for_message(group, "🙋 Masha is back at the table.")
    _, hand = await next_turn(harness, [masha], after, timeout=6.0)
    await harness.play_turn(masha, hand)
    await harness.tg.wait_idle()
    assert count(harness.group_texts(group), "ended early") == 0
    table = await kozel_of(harness).storage.get_table(1)
    assert table is not None and table.status == "playing"


async def test_when_every_person_blocked_the_bot_the_match_ends_by_timeout(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Masha and Alex both block the bot: it can give neither the tiles back, and nobody else
    plays in person, so the computers stop and wait a turn's time for one of them to come
    back; nobody does, and the match ends as when everyone is away, rather than the computer
    playing it out in the group to a goat."""
    masha, alex = tg.user(347, "Masha"), tg.user(348, "Alex")
    group = tg.group(-747, "Yard")
    waits = await all_block_the_bot(harness, [masha, alex], group, turn_seconds=2)
    assert "presses Start, within 2 s; else it ends" in (waits.text or "")
    moves = len(await events_of(harness))
    ended = await tg.wait_for_message(group, "ended early", timeout=6.0)
    assert (ended.text or "").startswith("The match ended early: ")
    await tg.wait_idle()
    events = await events_of(harness)
    assert [e["type"] for e in events[moves:]] == ["match_ended"]  # the computers waited
    texts = harness.group_texts(group)
    assert count(texts, "I cannot write to Masha") == 1
    assert count(texts, "I cannot write to Alex") == 1
    assert count(texts, EVERYONE_AWAY) == 1
    assert count(texts, "goat") == 0
    table = await kozel_of(harness).storage.get_table(1)
    assert table is not None and table.status == "finished"
    rows = await kozel_of(harness).storage.chat_standings(group.id)
    assert sorted((r.display_name, r.matches, r.rating) for r in rows) == [
        ("Alex", 1, 0),
        ("Masha", 1, 0),
    ]


async def test_a_blocked_person_who_presses_start_while_the_match_waits_plays_on(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Masha and Alex both block the bot, and the match waits for them; Masha unblocks it
    with Start in time: she gets her tiles back and the match goes on, with no early end."""
    masha, alex = tg.user(349, "Masha"), tg.user(350, "Alex")
    group = tg.group(-749, "Yard")
    await all_block_the_bot(harness, [masha, alex], group, turn_seconds=3)
    blocked_hand = harness.live_hand(masha)  # its keyboard stayed: the bot could not edit it
    stale = 0 if blocked_hand is None else harness.version_of(blocked_hand)
    await tg.send_text(masha, tg.private(masha), "/start")
    # the computer plays Alex's seat again, and Masha gets her live hand and plays it
    await masha_plays_on(harness, masha, group, stale)


@pytest.mark.fast_turns
async def test_everyone_who_timed_out_gets_no_rating(tg: FakeTelegram, harness: Harness) -> None:
    """RULES.md §2.11: not only the last person to walk away; the first one too gets nothing."""
    anna, boris = tg.user(317, "Anna"), tg.user(318, "Boris")
    group = tg.group(-717, "Yard")
    await prepare(harness, [anna, boris], group, computers=1, turn_seconds=1)

    await tg.wait_for_message(group, "ended early", timeout=8.0)
    await tg.wait_idle()
    rows = await kozel_of(harness).storage.chat_standings(group.id)
    assert sorted((r.display_name, r.matches, r.rating) for r in rows) == [
        ("Anna", 1, 0),
        ("Boris", 1, 0),
    ]


@pytest.mark.fast_turns
async def test_a_pair_match_that_ends_by_timeout_names_only_who_timed_out(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Masha plays in a pair with a computer and stops tapping: the group was told that the
    pair timed out ("Masha & 🤖 ... timed out"), naming a partner who never missed a turn."""
    masha = tg.user(345, "Masha")
    group = tg.group(-745, "Yard")
    await prepare(harness, [masha], group, computers=3, turn_seconds=1, pairs=True)
    ended = await tg.wait_for_message(group, "ended early", timeout=8.0)
    assert (ended.text or "").startswith("The match ended early: Masha timed out.\n")


# --- 3. timers across a restart; stale timers ----------------------------------------------


async def test_a_turn_timer_survives_a_restart(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    masha = tg.user(321, "Masha")
    group = tg.group(-721, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=2)
    _, hand = await next_turn(harness, [masha], 0)
    version = harness.version_of(hand)
    k = kozel_of(harness)
    deadline = await armed_deadline(harness)
    stored = await k.storage.get_table(1)
    assert stored is not None and stored.turn_deadline == deadline  # the deadline is stored
    before = moves_by(await events_of(harness), 0)

    await harness.stop()
    assert count(harness.group_texts(group), "ran out of time") == 0
    # the bot is down when the deadline passes
    await asyncio.sleep(max(0.0, deadline - time.time()) + 0.05)

    # a restart gives at least a short grace (15 s in production; 0.2 s here), no new full turn
    monkeypatch.setattr(bot.scheduler, "RESTART_GRACE", 0.2)
    async with harness.restarted() as restarted:
        told = await tg.wait_for_message(group, "ran out of time", timeout=1.5)
        assert told.text == "⏰ Masha ran out of time: the computer played for them."
        # the keyboard sent before the restart became a record
        await tg.wait_for(lambda: not tg.message(masha.id, hand.message_id).buttons)
        events = await events_of(restarted)
        assert moves_by(events, 0) == before + 1
        # and the match goes on: Masha gets her next live hand
        user, _ = await next_turn(restarted, [masha], version)
        assert user is masha


async def test_the_wait_for_blocked_people_survives_a_restart(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The match waits for Masha and Alex, who blocked the bot, when it restarts: the computers
    still wait out the same deadline, and the group is not told of the wait twice."""
    masha, alex = tg.user(351, "Masha"), tg.user(352, "Alex")
    group = tg.group(-751, "Yard")
    await all_block_the_bot(harness, [masha, alex], group, turn_seconds=3)
    deadline = await armed_deadline(harness)
    moves = len(await events_of(harness))
    await harness.stop()

    monkeypatch.setattr(bot.scheduler, "RESTART_GRACE", 0.2)  # 15 s in production
    async with harness.restarted() as restarted:
        await tg.wait_idle()
        assert len(await events_of(restarted)) == moves  # no computer moved
        await tg.wait_for_message(group, "ended early", timeout=5.0)
        assert time.time() >= deadline
        assert len(await events_of(restarted)) == moves + 1  # the match's end alone
        assert count(harness.group_texts(group), EVERYONE_AWAY) == 1


async def test_a_move_just_before_the_deadline_leaves_the_timer_stale(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(331, "Masha")
    group = tg.group(-731, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=2)
    _, hand = await next_turn(harness, [masha], 0)
    k = kozel_of(harness)
    deadline = await armed_deadline(harness)
    table = await k.service.store.table(1)
    assert table is not None
    old_version = table.version
    before = moves_by(await events_of(harness), 0)

    await asyncio.sleep(max(0.0, deadline - 0.3 - time.time()))
    await harness.play_turn(masha, hand)
    await asyncio.sleep(max(0.0, deadline + 0.4 - time.time()))
    await tg.wait_idle()
    assert count(harness.group_texts(group), "ran out of time") == 0
    assert moves_by(await events_of(harness), 0) == before + 1
    assert (await k.storage.get_seats(1))[0].missed_turns == 0

    # a timer armed for an older version of the table does nothing at all
    events = len(await events_of(harness))
    group_messages, calls = len(tg.messages(group)), len(tg.calls)
    await k.scheduler._turn_timer(1, old_version, time.time() - 1, warning=1.0)
    await tg.wait_idle()
    assert len(await events_of(harness)) == events
    assert len(tg.messages(group)) == group_messages
    assert all(c.method == "getUpdates" for c in tg.calls[calls:])


# --- 4. expiry -----------------------------------------------------------------------------


async def test_an_expired_lobby_closes_and_a_new_table_can_be_opened(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(341, "Masha")
    group = tg.group(-741, "Yard")
    await tg.send_text(masha, tg.private(masha), "/start")
    lobby = await harness.open_table(masha, group)
    k = kozel_of(harness)

    await k.scheduler.sweep(time.time() + 29 * 60)
    assert (await k.storage.get_table(1)).status == "lobby"  # type: ignore[union-attr]

    await k.scheduler.sweep(time.time() + 31 * 60)
    await k.sender.caught_up(group.id)  # the lobby's note goes in the group's turn
    closed = tg.message(group, lobby.message_id)
    assert closed.text == (
        "⌛ The table closed: nobody started the match in time. Send /new to open another."
    )
    assert not closed.buttons
    assert (await k.storage.get_table(1)).status == "cancelled"  # type: ignore[union-attr]

    await tg.send_text(masha, group, "/new")
    fresh = await tg.wait_for_message(group, "new table")
    assert fresh.message_id != lobby.message_id
    assert fresh.find_button("✋ Join") is not None


async def test_an_expired_lobby_whose_message_was_deleted_posts_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Someone deleted the lobby message, and nobody started the table: the bot posted a new
    message only to say that a table the group no longer saw had closed."""
    masha = tg.user(343, "Masha")
    group = tg.group(-743, "Yard")
    await tg.send_text(masha, tg.private(masha), "/start")
    lobby = await harness.open_table(masha, group)
    await tg.wait_idle()
    lobby.deleted = True
    k = kozel_of(harness)
    await k.scheduler.sweep(time.time() + 31 * 60)
    await harness.groups_told()
    await tg.wait_idle()
    assert (await k.storage.get_table(1)).status == "cancelled"  # type: ignore[union-attr]
    assert not any("⌛" in (m.text or "") for m in tg.messages(group))


async def test_a_lobby_started_while_the_sweep_waited_for_it_plays_on(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, the sweep closed a lobby it had found expired though it was started while the
    sweep waited for the group's lock (held by the Start, which asks Telegram whether its
    presser is an admin): the match just dealt was cancelled in its players' hands."""
    masha, alex = tg.user(345, "Masha"), tg.user(346, "Alex")
    group = tg.group(-745, "Yard")
    users = [masha, alex]
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
    lobby = await harness.open_table(masha, group)
    await change_lobby(harness, group, players=2)
    await harness.join([alex], group, lobby)
    k = kozel_of(harness)
    looked = asyncio.Event()
    expired = k.service.timeouts.expired

    async def noted(now: float) -> list[tuple[Table, Expiry]]:
        due = await expired(now)
        looked.set()
        return due

    monkeypatch.setattr(k.service.timeouts, "expired", noted)
    async with k.service.store.lock(group.id):  # Masha's Start, as the half hour runs out
        sweeping = asyncio.create_task(k.scheduler.sweep(time.time() + 31 * 60))
        await looked.wait()  # the sweep found the lobby expired, and waits for the lock
        table = await k.service.store.active_table(Place(group.id))
        assert table is not None
        await start_match(k, table, User(masha.id, "Masha", is_bot=False), None)
    await sweeping
    assert (await k.storage.get_table(1)).status == "playing"  # type: ignore[union-attr]
    await next_turn(harness, users, 0)
    assert "nobody started the match" not in (tg.message(group, lobby.message_id).text or "")


async def test_an_idle_match_ends_by_timeout_with_the_timeout_rating(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(351, "Masha"), tg.user(352, "Alex")
    group = tg.group(-751, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group)
    idle, hand = await next_turn(harness, users, 0)
    other = alex if idle is masha else masha
    k = kozel_of(harness)

    await k.scheduler.sweep(time.time() + (k.settings.idle_expiry_minutes - 1) * 60)
    assert (await k.storage.get_table(1)).status == "playing"  # type: ignore[union-attr]

    await k.scheduler.sweep(time.time() + k.settings.idle_expiry_minutes * 60 + 60)
    ended = await tg.wait_for_message(group, "ended early")
    assert f"The match ended early: {idle.first_name} timed out." in (ended.text or "")
    assert not tg.message(idle.id, hand.message_id).buttons
    assert (await k.storage.get_table(1)).status == "finished"  # type: ignore[union-attr]

    # RULES.md §2.11: whoever timed out gets nothing, the others at least +1
    rows = {r.display_name: r for r in await k.storage.chat_standings(group.id)}
    assert rows[idle.first_name].rating == 0
    assert rows[other.first_name].rating == 1  # max(1, (0 - 0) / 10); a normal end gives +10
    assert all(r.matches == 1 for r in rows.values())

    await tg.send_text(other, group, "/top")
    top = await tg.wait_for_message(group, "Standings")
    line = next(x for x in (top.text or "").splitlines() if other.first_name in x)
    assert f"rating {signed(rows[other.first_name].rating)}" in line
    # the table is gone: a new one can be opened
    await tg.send_text(other, group, "/new")
    await tg.wait_for_message(group, "new table")


# --- 5. against the computer ---------------------------------------------------------------


async def test_one_person_plays_a_whole_match_against_a_computer(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(361, "Masha")
    group = tg.group(-761, "Yard")
    short_minute(harness)
    await tg.send_text(masha, tg.private(masha), "/start")
    lobby = await harness.open_table(masha, group)

    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("Players: 4"))
    await tg.press_button(masha, lobby, "Players: 4")
    await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("Players: 2"))
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("✋ Join"))

    await tg.send_text(masha, group, "/addbot")
    await tg.wait_for_message(group, "A computer player took a seat.")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 2/2: 1. Masha, 2. 🤖 Galya"))
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play: 1. Masha → 2. 🤖 Galya")

    # a budget the moves never exhaust, and a player who follows the board: no board is
    # skipped (see test_rate_limit_e2e)
    harness.pace_by(Accelerated(2000))
    taps = await harness.play_match([masha], group, watching=True)
    assert taps > 5
    events = await events_of(harness)
    match = replay(events)
    assert match.is_over and match.ended_by == "goat"
    assert any("is the goat!" in text for text in harness.group_texts(group))

    # every computer move reached the board
    boards = [text for text in texts_seen(tg, group) if text.startswith(BOARD_TITLE)]
    computer_moves = [e for e in events if e["type"] == "played" and e["seat"] == 1]
    assert computer_moves
    for event in computer_moves:
        a, b = str(event["tile"]).split("-")
        needle = f"🤖 Galya played [{a}|{b}]"
        assert any(f"round {event['round']} " in text and needle in text for text in boards)
    # the computer never got a DM: only the person did
    assert {c.params["chat_id"] for c in tg.calls_to("sendMessage")} <= {masha.id, group.id}

    await tg.send_text(masha, group, "/top")
    top = await tg.wait_for_message(group, "Standings")
    assert "Masha" in (top.text or "") and "matches 1" in (top.text or "")


# --- 6. Russian and Ukrainian --------------------------------------------------------------


LATIN_WORD = re.compile(r"[A-Za-z]+")
#: Latin text in every language: commands, @usernames and links.
NOT_WORDS = re.compile(r"(?<![\w/])/[a-z_]+|@\w+|https?://\S+")


def english_words(text: str, allowed: set[str]) -> set[str]:
    """The Latin words of ``text`` (so untranslated English, wherever it came from), leaving
    out commands, usernames, links and the ``allowed`` words (names)."""
    return {w for w in LATIN_WORD.findall(NOT_WORDS.sub(" ", text)) if w not in allowed}


def bot_wrote(tg: FakeTelegram) -> list[str]:
    """Every text the bot showed anyone: messages and edits, their buttons, toasts."""
    shown: list[str] = []
    for call in tg.calls:
        if not call.ok:
            continue
        if call.method in ("sendMessage", "editMessageText"):
            shown.append(plain(str(call.params.get("text", ""))))
            markup = call.params.get("reply_markup") or {}
            for row in markup.get("inline_keyboard", []) if isinstance(markup, dict) else []:
                shown += [str(button.get("text", "")) for button in row]
        elif call.method == "answerCallbackQuery" and call.params.get("text"):
            shown.append(str(call.params["text"]))
    return shown


def head(lang: str, key: str) -> str:
    """The literal start of a message, before its first placeholder."""
    return plain(catalog(lang)[key].split("{")[0]).strip()


async def lobby_for_three(
    tg: FakeTelegram, group: FakeChat, users: list[FakeUser], lang: str
) -> FakeMessage:
    """A table for three: two people and a computer player, set up with the group's buttons;
    the group speaks the language of whoever opened its first table."""
    first, second = users
    await tg.send_text(first, group, "/new")
    lobby = await tg.wait_for_message(group, lambda m: bool(m.find_button(t(lang, "lobby.join"))))
    # and keeps it when its admin chooses it with /language, whose buttons mark it already
    await tg.send_text(first, group, "/language")
    prompt = await tg.wait_for_message(group, t(lang, "language.choose"))
    await tg.press_button(first, prompt, "✅ " + t(lang, "language.name"))
    await tg.wait_for(lambda: tg.message(group, prompt.message_id).text == t(lang, "language.set"))
    await tg.press_button(first, lobby, t(lang, "lobby.settings"))
    for now, then in ((4, 2), (2, 3)):
        await tg.wait_for(partial(lobby_has, tg, lobby, t(lang, f"rules.players.{now}")))
        await tg.press_button(first, lobby, t(lang, f"rules.players.{now}"))
        await tg.wait_for(partial(lobby_has, tg, lobby, t(lang, f"rules.players.{then}")))
    await tg.press_button(first, lobby, t(lang, "lobby.back"))
    await tg.wait_for(partial(lobby_has, tg, lobby, t(lang, "lobby.join")))
    await tg.press_button(second, lobby, t(lang, "lobby.join"))
    name = second.first_name
    await tg.wait_for(lambda: name in (tg.message(group, lobby.message_id).text or ""))
    await tg.send_text(first, group, "/addbot")
    await tg.wait_for_message(group, t(lang, "lobby.bot_added"))
    return lobby


@pytest.mark.parametrize(
    ("lang", "names"),
    [("ru", ["Маша", "Лёша"]), ("uk", ["Оксана", "Тарас"])],
)
async def test_a_whole_match_in_another_language_shows_no_english(
    tg: FakeTelegram, harness: Harness, lang: str, names: list[str]
) -> None:
    first, second = (tg.user(371 + i, n, language_code=lang) for i, n in enumerate(names))
    users = [first, second]
    group = tg.group(-771, "Двір", creator=first)
    short_minute(harness)
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, head(lang, "dm.welcome"))

    lobby = await lobby_for_three(tg, group, users, lang)
    await change_lobby(harness, group, turn_seconds=2)  # one turn will run out (below)
    kozel_of(harness).scheduler.remind_before = 1.2
    await tg.send_text(second, group, "/addbot")  # not the opener: refused
    await tg.wait_for_message(group, t(lang, "err.not_opener"))
    await tg.send_text(first, group, "/rules")
    await tg.wait_for_message(group, head(lang, "rules.head_table"))
    await tg.press_button(second, lobby, t(lang, "lobby.start"))  # the table is full: anyone
    await tg.wait_for_message(group, head(lang, "start.order"))
    await tg.send_text(second, group, "/standings")
    await tg.wait_for_message(group, head(lang, "standings.head"))
    # the first turn runs out: the reminder, the mention and the timeout in the language too
    idle, _ = await next_turn(harness, users, 0)
    reminder = catalog(lang)["timer.remind_dm"].split("{seconds}")[0].format(chat="Двір")
    await tg.wait_for_message(idle, plain(reminder).strip(), timeout=3.0)
    mention = catalog(lang)["timer.remind_group"].split("{seconds}")[0]
    await tg.wait_for_message(group, mention.format(name=idle.first_name), timeout=3.0)
    timed_out = plain(t(lang, "timer.timed_out", name=idle.first_name))
    await tg.wait_for_message(group, timed_out, timeout=3.0)

    again = plain(t(lang, "match.again"))
    taps = await harness.play_until(
        users, lambda: any(again in text for text in harness.group_texts(group))
    )
    assert taps > 3
    assert replay(await events_of(harness)).is_over
    await tg.send_text(first, group, "/top")
    await tg.wait_for_message(group, head(lang, "top.head"))
    await tg.send_text(second, tg.private(second), "/stats")
    await tg.wait_for_message(second, "📈")
    await tg.send_text(second, tg.private(second), "/help")
    await tg.wait_for_message(second, "/help —")
    await tg.wait_idle()

    # no English word anywhere: only the players' names and the languages' own names (the
    # /language buttons) may be in Latin letters
    allowed = {
        word
        for text in (*names, *(t(code, "language.name") for code in LANGUAGES))
        for word in LATIN_WORD.findall(text)
    }
    assert english_words(f"⏰ {names[0]}: the computer played [3|4]", allowed) == {
        "the",
        "computer",
        "played",
    }
    shown = bot_wrote(tg)
    assert len(shown) > 50
    leaks = [(words, text) for text in shown if (words := english_words(text, allowed))]
    assert not leaks, leaks[:5]

    # the command menu is registered in every language, and in this one in its own words
    own, en = catalog(lang), catalog("en")
    for scope, names_ in (("all_group_chats", "new"), ("all_private_chats", "stats")):
        menu = {c["command"]: c["description"] for c in tg.commands[(scope, lang)]}
        assert menu[names_] == own[f"commands.{names_}"] != en[f"commands.{names_}"]
        english = {c["command"]: c["description"] for c in tg.commands[(scope, "en")]}
        assert set(menu) == set(english)
        assert all(menu[name] != english[name] for name in menu)
        assert all(english_words(words, allowed) == set() for words in menu.values())


# --- 7. who may manage a table ---------------------------------------------------------------


async def test_only_the_opener_or_an_admin_may_manage_the_table(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, olya = tg.user(381, "Masha"), tg.user(382, "Alex"), tg.user(383, "Olya")
    group = tg.group(-781, "Yard", admins=[olya])
    for user in (masha, alex):
        await tg.send_text(user, tg.private(user), "/start")
    lobby = await harness.open_table(masha, group)
    await harness.join([alex], group, lobby)
    said = await tg.send_text(masha, group, "Let's play!")
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("Players: 4"))
    await tg.wait_idle()
    shown = tg.message(group, lobby.message_id)
    snapshot = (shown.text, shown.button_texts, shown.edited)

    # Alex is neither the opener nor an admin: buttons (the settings, ⚙️ Rules, ✖️ Cancel,
    # 🤖 Add computer, 🎲 Game, and « Back, which closed the editor Masha was using) and
    # commands are refused politely
    def refused(times: int) -> bool:  # /cancel's refusal names whom to ask
        return (
            sum(count(harness.group_texts(group), no) for no in (NOT_OPENER, NOT_OPENER_CANCEL))
            == times
        )

    # (the game and its rules: who may change them, and where everyone can read them)
    taps = {"c:1:0": NOT_OPENER_CANCEL} | dict.fromkeys(("b:1:0", "v:1:0"), NOT_OPENER)
    taps |= dict.fromkeys(("o:1:0:players", "o:1:0:goat_limit", "o:1:0", "m:1:0"), NOT_OPENER_RULES)
    assert {data: (await tap(tg, alex, lobby, data)).text for data in taps} == taps
    for n, command in enumerate(("/cancel", "/addbot", "/kick"), start=1):
        await tg.send_text(alex, group, command, reply_to=int(said["message_id"]))
        await tg.wait_for(partial(refused, n))
    await tg.wait_idle()
    shown = tg.message(group, lobby.message_id)
    assert (shown.text, shown.button_texts, shown.edited) == snapshot
    table = await kozel_of(harness).storage.get_table(1)
    assert table is not None and table.status == "lobby" and table.players == 4
    assert len(await kozel_of(harness).storage.get_seats(1)) == 2

    # an admin of the group may cancel, though not seated
    answer = await tap(tg, olya, lobby, "c:1:0")
    assert answer.text == "The table was cancelled."
    assert tg.message(group, lobby.message_id).text == "The table was cancelled."

    # during a match, an admin's /kick in reply to a player hands the seat to the computer
    lobby = await harness.open_table(masha, group)
    await change_lobby(harness, group, players=2)
    await harness.join([alex], group, lobby)
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play")
    await tg.send_text(alex, group, "/kick", reply_to=int(said["message_id"]))
    await tg.wait_for(partial(refused, 4))
    user, hand = await next_turn(harness, [masha, alex], 0)
    if user is masha:  # let it be Alex's turn when he is removed
        await harness.play_turn(masha, hand)
        user, hand = await next_turn(harness, [alex], harness.version_of(hand))
    version = harness.version_of(hand)
    old_button = str(hand.buttons[0]["callback_data"])
    alex_said = await tg.send_text(alex, group, "brb")
    await tg.send_text(olya, group, "/kick", reply_to=int(alex_said["message_id"]))
    await tg.wait_for_message(
        group, "🚪 Olya removed Alex from the table: a computer player took the seat."
    )
    await tg.wait_for(
        lambda: (
            tg.message(alex.id, hand.message_id).text
            == "You were removed from the table in Yard; a computer player plays your tiles now."
        )
    )
    # the computer takes Alex's turn at once (the turn time here is 10 minutes)
    await tg.wait_for(lambda: "🤖 Galya played [" in board(tg, group))
    user, _ = await next_turn(harness, [masha], version)
    assert user is masha
    stale = await tap(tg, alex, hand, old_button)
    assert stale.text == "You are not playing at this table."
    seats = await kozel_of(harness).storage.get_seats(2)
    assert seats[1].user_id is None and seats[1].ai


async def test_a_kick_during_a_match_says_who_removed_whom_and_tells_the_player(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The opener's /kick during a match was announced as "Alex left the table", as if he had
    left by himself, and Alex, not on turn, heard nothing: his hand in the DM looked as if
    the match went on with him. Now the group hears who removed him, and he gets a DM naming
    the group; Zoe, who blocked the bot, is removed all the same, and the match goes on."""
    masha, alex, zoe = tg.user(371, "Masha"), tg.user(372, "Alex"), tg.user(373, "Zoe")
    group = tg.group(-771, "Yard")
    users = [masha, alex, zoe]
    await prepare(harness, users, group)
    _, version = await harness.play_until_turn_of(masha, users)
    await tg.send_text(masha, group, "/kick 2")
    await tg.wait_for_message(
        group, "🚪 Masha removed Alex from the table: a computer player took the seat."
    )
    told = await tg.wait_for_message(alex, "removed")
    assert told.text == (
        "You were removed from the table in Yard; a computer player plays your tiles now."
    )
    assert harness.live_hand(alex) is None
    tg.block(zoe)
    await tg.send_text(masha, group, "/kick 3")
    await tg.wait_for_message(
        group, "🚪 Masha removed Zoe from the table: a computer player took the seat."
    )
    hand = tg.message(masha.id, (await tg.wait_for(lambda: harness.live_hand(masha))).message_id)
    await harness.play_turn(masha, hand)
    user, _ = await next_turn(harness, [masha], version)
    assert user is masha
    texts = harness.group_texts(group)
    assert count(texts, "left the table") == 0
    seats = await kozel_of(harness).storage.get_seats(1)
    assert [seat.user_id for seat in seats] == [masha.id, None, None]


async def test_a_player_on_turn_removed_by_an_anonymous_admin_has_his_hand_closed(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An admin who writes in the group's name is not named: the group hears that an admin
    removed the player, whose live keyboard becomes the note (not a second message)."""
    masha, alex, olya = tg.user(374, "Masha"), tg.user(375, "Alex"), tg.user(376, "Olya")
    group = tg.group(-774, "Yard", "supergroup", admins=[olya])
    users = [masha, alex]
    await prepare(harness, users, group, computers=1)
    hand, _ = await harness.play_until_turn_of(alex, users)
    await tg.send_text(olya, group, "/kick 2", anonymous=True)
    await tg.wait_for_message(
        group, "🚪 An admin removed Alex from the table: a computer player took the seat."
    )
    note = "You were removed from the table in Yard; a computer player plays your tiles now."
    await tg.wait_for(lambda: tg.message(alex.id, hand.message_id).text == note)
    assert not tg.message(alex.id, hand.message_id).buttons
    await tg.wait_idle()
    assert count(texts_seen(tg, alex), "You were removed") == 1


async def test_an_opener_who_kicks_her_own_seat_leaves_it(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/kick of one's own seat is /leave: the group hears that Masha left, not that Masha
    removed Masha, and no DM tells her she was removed."""
    masha, alex = tg.user(377, "Masha"), tg.user(378, "Alex")
    group = tg.group(-777, "Yard")
    await prepare(harness, [masha, alex], group, computers=1)
    await tg.send_text(masha, group, "/kick 1")
    await tg.wait_for_message(group, "🚪 Masha left the table: a computer player took the seat.")
    await tg.wait_idle()
    assert count(texts_seen(tg, masha), "removed") == 0
    assert count(harness.group_texts(group), "removed") == 0


# --- 8. a group becomes a supergroup ---------------------------------------------------------


def sent_to(tg: FakeTelegram, chat_id: int, since: int) -> list[str]:
    return [
        c.method
        for c in tg.calls[since:]
        if c.ok
        and c.method in ("sendMessage", "editMessageText")
        and str(c.params.get("chat_id")) == str(chat_id)
    ]


def refused_in(tg: FakeTelegram, chat_id: int, since: int) -> list[str]:
    """The calls to ``chat_id`` that Telegram refused, as "method: why"."""
    return [
        f"{c.method}: {c.error}"
        for c in tg.calls[since:]
        if not c.ok and str(c.params.get("chat_id")) == str(chat_id)
    ]


async def test_a_match_follows_its_group_into_a_supergroup(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The board moves too: posted afresh in the supergroup, where the old group's message
    cannot be edited (the bot tried, and was refused, before it posted one)."""
    masha, alex = tg.user(391, "Masha"), tg.user(392, "Alex")
    group = tg.group(-791, "Yard", creator=masha)
    short_minute(harness)
    users = [masha, alex]
    await prepare(harness, users, group)
    version = 0
    for _ in range(3):
        user, hand = await next_turn(harness, users, version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
    await tg.wait_idle()

    since = len(tg.calls)
    supergroup = await tg.migrate_group(group, -1001000000791)
    await until_moved(harness, supergroup.id)
    taps = await harness.play_match(users, supergroup)
    assert taps > 0
    assert replay(await events_of(harness)).is_over

    # everything after the move went to the supergroup: a board, the results, the goat
    assert not sent_to(tg, group.id, since)
    assert sent_to(tg, supergroup.id, since)
    assert board(tg, supergroup).startswith("🎲 Kozel")
    assert any("goat" in text for text in harness.group_texts(supergroup))
    assert refused_in(tg, supergroup.id, since) == []

    await tg.send_text(alex, supergroup, "/top")
    top = await tg.wait_for_message(supergroup, "Standings")
    for name in ("Masha", "Alex"):
        assert any(name in line and "matches 1" in line for line in (top.text or "").splitlines())


async def test_a_timer_that_meets_a_migrated_group_follows_telegrams_hint(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(393, "Masha")
    group = tg.group(-793, "Yard", creator=masha)
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    _, hand = await next_turn(harness, [masha], 0)
    version = harness.version_of(hand)

    # the group migrates while the bot is not fetching updates: the turn timer is the first to
    # write to the group, gets "group chat was upgraded", and moves the table itself
    app = harness.app
    assert app is not None and app.updater is not None
    await app.updater.stop()
    since = len(tg.calls)
    supergroup = await tg.migrate_group(group, -1001000000793)
    try:
        told = await tg.wait_for_message(supergroup, "ran out of time", timeout=3.0)
        assert told.text == "⏰ Masha ran out of time: the computer played for them."
        await tg.wait_for(lambda: board(tg, supergroup).startswith("🎲 Kozel"))
        assert any(not c.ok and c.params.get("chat_id") == group.id for c in tg.calls[since:])
        assert not sent_to(tg, group.id, since)
        assert refused_in(tg, supergroup.id, since) == []
        assert await kozel_of(harness).storage.get_active_table(supergroup.id) is not None
    finally:
        await app.updater.start_polling(poll_interval=0, timeout=1)
    # the migration notices arrive late and change nothing; the match goes on in the supergroup
    user, hand = await next_turn(harness, [masha], version)
    await harness.play_turn(user, hand)
    await tg.wait_for(lambda: "Masha played [" in board(tg, supergroup))
    await tg.send_text(masha, supergroup, "/standings")
    await tg.wait_for_message(supergroup, "Current match")
    assert not sent_to(tg, group.id, since)


async def test_a_lobby_follows_its_group_into_a_supergroup(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(395, "Masha"), tg.user(396, "Alex")
    group = tg.group(-795, "Yard", creator=masha)
    for user in (masha, alex):
        await tg.send_text(user, tg.private(user), "/start")
    await harness.open_table(masha, group)
    await change_lobby(harness, group, players=2)

    since = len(tg.calls)
    supergroup = await tg.migrate_group(group, -1001000000795)
    await until_moved(harness, supergroup.id)
    await tg.send_text(alex, supergroup, "/join")
    lobby = await tg.wait_for_message(supergroup, "Players 2/2: 1. Masha, 2. Alex")
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(supergroup, "Order of play")
    await tg.wait_for(lambda: board_message(tg, supergroup))
    assert tg.message(supergroup, lobby.message_id).text == "The match has started — good luck!"
    assert not sent_to(tg, group.id, since)
    assert refused_in(tg, supergroup.id, since) == []  # the lobby was posted afresh
    user, hand = await next_turn(harness, [masha, alex], 0)
    await harness.play_turn(user, hand)
    await tg.wait_for(lambda: f"{user.first_name} played [" in board(tg, supergroup))


async def test_leaving_a_match_leaves_the_hand_on_turn_untouched(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/leave by whoever is not on turn changes nothing in the live hand of whoever is: it was
    edited to the same text and keyboard anyway, which Telegram refused as "not modified", a
    call spent against the budget for nothing."""
    masha, alex = tg.user(344, "Masha"), tg.user(345, "Alex")
    group = tg.group(-744, "Yard")
    await prepare(harness, [masha, alex], group)
    on_turn, hand = await next_turn(harness, [masha, alex], -1, timeout=6.0)
    leaver = alex if on_turn is masha else masha
    since = len(tg.calls)
    await tg.send_text(leaver, group, "/leave")
    await tg.wait_for_message(group, f"🚪 {leaver.first_name} left the table")
    await harness.groups_told()
    await tg.wait_idle()
    assert refused_in(tg, on_turn.id, since) == []
    assert tg.message(on_turn.id, hand.message_id).buttons == hand.buttons
