"""The board a match leaves in the group once it is over, however it ended: it shows nobody on
turn and says why play stopped, rather than wait for someone in a match nobody plays any more;
and where the group is gone, nothing is sent to say so."""

from __future__ import annotations

import time

import pytest

from devtools.fake_telegram import FakeChat, FakeTelegram
from engine import replay
from engine.events import MatchEnded
from tests.bot.harness import Harness, board_message, start_match, stored_events
from tests.bot.test_resilience_e2e import append_to_log, play_until_killed_at, started_and_stopped
from tests.bot.test_table_life_e2e import prepare
from tests.bot.test_topics_e2e import board_in, let_manage_topics, people, start_in

OVER = "🏁 The match is over: its result is below."
TIMED_OUT = "⌛ The match is over: time ran out. Its result is below."
CANCELLED = "❌ The table was cancelled: this match does not go on."
TOPIC_CLOSED = "🔒 The topic was closed: this match does not go on, and nothing was recorded."
DESERTED = "🚪 Nobody is left at the table: the match is over, and nothing was recorded."


def finished(text: str | None, why: str) -> str:
    """The board's text, checked to wait for nobody and to end by saying ``why``."""
    board = text or ""
    assert "▶️" not in board and "Turn:" not in board, board
    assert board.endswith(why), board
    return board


async def last_board(harness: Harness, group: FakeChat) -> str:
    """The group's board once everything the bot queued for the group has gone out."""
    await harness.groups_told()
    return board_message(harness.tg, group).text or ""


async def test_a_match_played_to_its_end_leaves_a_board_that_says_it_is_over(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(1201, "Masha")
    group = tg.group(-1201, "Yard")
    await prepare(harness, [masha], group, computers=1)
    await harness.play_match([masha], group)
    board = finished(await last_board(harness, group), OVER)
    # the result and the goat come after it, below
    texts = harness.group_texts(group)
    assert texts.index(board) < len(texts) - 1 and "goat" in texts[-1]


@pytest.mark.fast_turns
async def test_a_match_every_person_let_time_out_leaves_a_board_that_says_so(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the board kept "▶️ Masha" and "Turn: Masha" over the result that said the match
    ended early."""
    masha = tg.user(1202, "Masha")
    group = tg.group(-1202, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    await tg.wait_for_message(group, "ended early", timeout=4.0)
    finished(await last_board(harness, group), TIMED_OUT)


async def test_a_match_closed_as_idle_leaves_a_board_that_says_so(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(1203, "Masha"), tg.user(1204, "Alex")
    group = tg.group(-1203, "Yard")
    await prepare(harness, [masha, alex], group)
    idle, _ = await harness.next_turn([masha, alex])
    await harness.groups_told()
    assert f"Turn: {idle.first_name}" in (board_message(tg, group).text or "")
    k = harness.kozel
    await k.scheduler.sweep(time.time() + k.settings.idle_expiry_minutes * 60 + 60)
    await tg.wait_for_message(group, "ended early")
    finished(await last_board(harness, group), TIMED_OUT)


@pytest.mark.parametrize("how", ["/leave", "/kick 1"])
async def test_a_match_everyone_left_leaves_a_board_that_says_so(
    tg: FakeTelegram, harness: Harness, how: str
) -> None:
    """The last person left, or was removed: the board said only "The table was cancelled",
    as if someone had cancelled it; it says nobody is left, and that nothing was recorded."""
    masha = tg.user(1211, "Masha")
    group = tg.group(-1211, "Yard")
    await prepare(harness, [masha], group, computers=1)
    await harness.groups_told()
    await tg.send_text(masha, group, how)
    await tg.wait_for_message(group, "nobody is left to play")
    finished(await last_board(harness, group), DESERTED)
    assert await harness.kozel.storage.chat_standings(group.id) == []


async def test_a_timeout_the_bot_committed_as_it_stopped_leaves_the_board_over_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match's end by timeout was committed, and the bot stopped before showing it: the
    restart records and tells it, and the board no longer waits for the player on turn."""
    group, stored = await started_and_stopped(tg, harness, 1205)
    match = replay(stored)
    assert match.current_seat is not None
    ended = match.abandon(match.current_seat)
    await append_to_log(harness.database, [e.to_dict() for e in ended], match)

    async with harness.restarted() as restarted:
        await tg.wait_for_message(group, "ended early")
        finished(await last_board(restarted, group), TIMED_OUT)


async def test_a_goat_recorded_as_the_bot_died_leaves_the_board_over_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match's last move was committed and recorded, and the bot died before showing it:
    the restart tells the goat, under a board that shows that move and nobody on turn."""
    masha, alex = tg.user(1207, "Masha"), tg.user(1208, "Alex")
    group = tg.group(-1207, "Yard")
    await start_match(harness, [masha, alex], group)
    await play_until_killed_at(harness, [masha, alex], MatchEnded)
    assert "Turn:" in (board_message(tg, group).text or "")
    last = replay(await stored_events(harness.database, 1)).round
    assert last is not None

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: restarted.match_over(group), what="the goat")
        board = finished(await last_board(restarted, group), OVER)
        assert f"Masha: {len(last.hands[0])} tile" in board
        assert f"Alex: {len(last.hands[1])} tile" in board


async def test_a_closed_topic_keeps_a_board_that_says_its_match_does_not_go_on(
    harness: Harness, tg: FakeTelegram
) -> None:
    """People still read a closed topic: its board no longer says whose turn it is, but that
    the topic was closed (it said that the table was cancelled, as a /cancel's does, as if
    someone had). It is edited rather than posted anew, which only a bot that may manage
    topics may do there (one that may not leaves the board as it was:
    ``test_topic_closed_e2e``)."""
    forum = tg.group(-1_002_000_001_209, "Yard", "supergroup", forum=True)
    alice, bob = people(tg, "Alice", "Bob")
    tg.creators[forum.id] = alice.id
    let_manage_topics(tg, forum)
    topic = await tg.create_topic(alice, forum, "Kozel")
    board = await start_in(harness, [alice, bob], forum, topic)
    await harness.next_turn([alice, bob])
    await harness.groups_told()
    boards = len([m for m in tg.messages(forum) if m.thread_id == topic.thread_id])

    await tg.close_topic(alice, topic)
    await tg.wait_for_message(alice, "its topic was closed")
    await harness.groups_told()
    shown = board_in(tg, forum, topic)
    assert shown is not None and shown.message_id == board.message_id
    finished(shown.text, TOPIC_CLOSED)
    since = [m.text or "" for m in tg.messages(forum) if m.thread_id == topic.thread_id][boards:]
    assert len(since) == 1 and "topic was closed" in since[0]  # the notice alone is new


@pytest.mark.parametrize("gone", ["deleted topic", "removed bot"])
async def test_a_group_gone_gets_no_board_for_the_end_of_its_match(
    harness: Harness, tg: FakeTelegram, gone: str
) -> None:
    """The bot may not write where the table was: nothing is tried there for its board."""
    forum = tg.group(-1_002_000_001_210, "Yard", "supergroup", forum=True)
    alice, bob = people(tg, "Alice", "Bob")
    tg.creators[forum.id] = alice.id
    topic = await tg.create_topic(alice, forum, "Kozel")
    await start_in(harness, [alice, bob], forum, topic)
    user, hand = await harness.next_turn([alice, bob])
    await harness.groups_told()
    if gone == "deleted topic":
        await tg.delete_topic(topic)
        await harness.play_turn(user, hand, shown=False)  # its board finds the topic gone
        said = "its topic was deleted"
    else:
        await tg.remove_bot(forum, alice)
        said = "the bot was removed from the group"
    await tg.wait_for_message(bob, said)
    await harness.groups_told()
    await tg.wait_idle()
    ends = [c for c in tg.calls if CANCELLED in str(c.params.get("text"))]
    assert ends == []
