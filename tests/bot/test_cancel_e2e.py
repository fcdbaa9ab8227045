"""/cancel during a match asks first: an hour of play should not go on a /cancel tapped from
the command menu by mistake, or meant for another table. Only whoever asked answers, within a
minute, while the match is in play; a lobby's /cancel stays immediate (nothing is lost there,
``test_lobby_e2e.test_cancel_is_said_once_by_the_lobby``), and so does a damaged table's,
which cannot go on anyway (``test_resilience_e2e``)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import (
    CANCEL_YES,
    KEEP_PLAYING,
    Harness,
    ask_to_cancel,
    board_message,
    button_data,
    start_match,
    tap,
)
from tests.bot.test_table_life_e2e import prepare

CANCELLED = "✖️ The match was cancelled: nothing was recorded."
GOES_ON = "▶️ The match goes on."
NOT_MASHA = "Only Masha, who sent /cancel, can answer."


async def status(harness: Harness) -> str:
    table = await harness.kozel.storage.get_table(1)
    assert table is not None
    return table.status


def unchanged(tg: FakeTelegram, question: FakeMessage) -> bool:
    now = tg.current(question)
    return now.edited == 0 and now.button_texts == [[CANCEL_YES, KEEP_PLAYING]]


async def two_playing(harness: Harness, base: int) -> tuple[list[FakeUser], FakeChat]:
    tg = harness.tg
    users = [tg.user(base + 1, "Masha"), tg.user(base + 2, "Alex")]
    group = tg.group(-base, "Yard", admins=[tg.user(base + 3, "Olya")])
    await start_match(harness, users, group)
    return users, group


async def test_cancel_during_a_match_asks_and_keep_playing_lets_it_go_on(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the opener's /cancel ended the match at once, without a result."""
    users, group = await two_playing(harness, 600)
    masha = users[0]
    user, hand = await harness.next_turn(users)
    events = len(await harness.kozel.storage.load_events(1))
    question = await ask_to_cancel(tg, masha, group)
    text = question.text or ""
    assert text.startswith("✖️ Cancel the match in progress? Nothing of it will be recorded.")
    assert "🎲 Kozel · round 1" in text and "\nMasha: 0\nAlex: 0\n" in text, text
    assert text.endswith("Only Masha can answer, within a minute.")
    await harness.groups_told()
    # asked, nothing more: the match and the hand on turn are as they were
    assert await status(harness) == "playing"
    assert "does not go on" not in (board_message(tg, group).text or "")
    assert tg.current(hand).buttons

    yes = button_data(question, CANCEL_YES)
    answer = await tap(tg, masha, question, button_data(question, KEEP_PLAYING))
    assert answer.text == GOES_ON
    await tg.wait_for(lambda: tg.current(question).text == GOES_ON)
    assert not tg.current(question).buttons
    # a second tap, on a keyboard the client still showed, changes nothing either
    again = await tap(tg, masha, question, yes)
    assert again.text == "This question has already been answered."
    assert await status(harness) == "playing"
    await harness.play_turn(user, hand)  # the match goes on
    assert len(await harness.kozel.storage.load_events(1)) > events


async def test_yes_cancels_the_match_and_the_question_says_so(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The tap's toast says what the question says: the match was cancelled (it said "The
    table was cancelled.", a lobby's words)."""
    users, group = await two_playing(harness, 610)
    masha = users[0]
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, masha, group)
    await harness.groups_told()
    sent = len(tg.messages(group))
    answer = await tap(tg, masha, question, button_data(question, CANCEL_YES))
    assert answer.text == CANCELLED
    await tg.wait_for(lambda: tg.current(question).text == CANCELLED)
    assert not tg.current(question).buttons
    assert await status(harness) == "cancelled"
    await tg.wait_for(lambda: "does not go on" in (board_message(tg, group).text or ""))
    await harness.groups_told()
    assert len(tg.messages(group)) == sent  # the answer edits: no message more in the group


async def test_only_the_one_who_asked_answers(tg: FakeTelegram, harness: Harness) -> None:
    """A player, or an admin who did not ask, tapping the question is told who may answer; a
    forged button naming someone else as the asker is refused. Nothing changes."""
    users, group = await two_playing(harness, 620)
    masha, alex, olya = *users, tg.user(623, "Olya")
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, masha, group)
    for someone in (alex, olya):
        for label in (CANCEL_YES, KEEP_PLAYING):
            assert (
                await tap(tg, someone, question, button_data(question, label))
            ).text == NOT_MASHA
    forged = button_data(question, CANCEL_YES).replace(str(masha.id), str(alex.id))
    assert (await tap(tg, alex, question, forged)).text == "This button is not valid here."
    await harness.groups_told()
    assert unchanged(tg, question)
    assert await status(harness) == "playing"
    # Masha still may
    answer = await tap(tg, masha, question, button_data(question, CANCEL_YES))
    assert answer.text == CANCELLED


async def test_an_admin_who_asked_in_the_groups_name_is_answered_by_any_admin(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram does not say which admin wrote in the group's name: any admin answers."""
    users, group = await two_playing(harness, 630)
    alex, olya = users[1], tg.user(633, "Olya")
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, olya, group, anonymous=True)
    assert (question.text or "").endswith("Any of the group's admins can answer, within a minute.")
    refused = await tap(tg, alex, question, button_data(question, CANCEL_YES))
    assert refused.text == "Only the group's admins can answer this."
    assert unchanged(tg, question)
    answer = await tap(tg, olya, question, button_data(question, CANCEL_YES))
    assert answer.text == CANCELLED
    assert await status(harness) == "cancelled"


async def test_a_question_left_a_minute_unanswered_cancels_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    users, group = await two_playing(harness, 640)
    masha = users[0]
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, masha, group)
    tg.current(question).date -= 61  # asked a minute ago
    answer = await tap(tg, masha, question, button_data(question, CANCEL_YES))
    assert answer.text == "This question has expired: send /cancel again."
    expired = (
        "⌛ No answer came within a minute: the match goes on. Send /cancel again to cancel it."
    )
    await tg.wait_for(lambda: tg.current(question).text == expired)
    assert not tg.current(question).buttons
    assert await status(harness) == "playing"


@pytest.mark.fast_turns
async def test_a_question_open_when_the_match_ends_says_so_and_cancels_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match ended (by timeout, Masha away) while the question waited: its result stands.
    Before, the question kept offering ✖️ Yes, cancel it under the match's result."""
    masha = tg.user(651, "Masha")
    group = tg.group(-650, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=5)
    question = await ask_to_cancel(tg, masha, group)
    yes = button_data(question, CANCEL_YES)
    await tg.wait_for_message(group, "ended early", timeout=15.0)
    await harness.groups_told()
    over = "🏁 That match is over: nothing is left to cancel."
    assert tg.current(question).text == over
    assert not tg.current(question).buttons
    # a tap on the keyboard a client still showed is told the same
    answer = await tap(tg, masha, question, yes)
    assert answer.text == "That match is over: there is nothing to cancel."
    assert await status(harness) == "finished"
    await harness.groups_told()
    assert not any("cancelled" in text for text in harness.group_texts(group))


async def test_a_second_question_goes_once_the_first_cancels_the_match(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/cancel sent twice asks twice: the Yes under one leaves the other saying the match is
    over, not offering to cancel it again; the answered one says it was cancelled."""
    users, group = await two_playing(harness, 660)
    masha = users[0]
    await harness.next_turn(users)
    first = await ask_to_cancel(tg, masha, group)
    second = await ask_to_cancel(tg, masha, group)
    await tap(tg, masha, second, button_data(second, CANCEL_YES))
    await harness.groups_told()
    assert tg.current(second).text == CANCELLED
    assert tg.current(first).text == "🏁 That match is over: nothing is left to cancel."
    assert not tg.current(first).buttons


EXPIRED_NOTE = (
    "⌛ No answer came within a minute: the match goes on. Send /cancel again to cancel it."
)


@pytest.mark.fast_turns
async def test_a_question_left_unanswered_closes_itself_when_its_minute_is_up(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, it kept its buttons and 'within a minute' until someone tapped it. The minute
    runs on the turns' clock, ten times faster here; Telegram's date of the question does not,
    so the test dates it back as a minute would."""
    users, group = await two_playing(harness, 670)
    masha = users[0]
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, masha, group)
    yes = button_data(question, CANCEL_YES)
    await tg.wait_for(lambda: tg.current(question).text == EXPIRED_NOTE, timeout=15.0)
    assert not tg.current(question).buttons
    assert await status(harness) == "playing"
    # a tap on the keyboard a client still showed is told the question expired
    tg.current(question).date -= 61
    answer = await tap(tg, masha, question, yes)
    assert answer.text == "This question has expired: send /cancel again."
    assert await status(harness) == "playing"


@pytest.mark.fast_turns
async def test_a_question_the_bot_stops_under_stays_until_tapped(
    tg: FakeTelegram, harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot stopped with a question open: nothing is left running nor logged as failed,
    and after the restart a tap on it, a minute on, closes it as expired."""
    users, group = await two_playing(harness, 680)
    masha = users[0]
    await harness.next_turn(users)
    question = await ask_to_cancel(tg, masha, group)
    await harness.stop()
    assert not [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert tg.current(question).find_button(CANCEL_YES) is not None
    tg.current(question).date -= 61
    async with harness.restarted():
        answer = await tap(tg, masha, question, button_data(question, CANCEL_YES))
        assert answer.text == "This question has expired: send /cancel again."
        await tg.wait_for(lambda: tg.current(question).text == EXPIRED_NOTE)
    assert not tg.current(question).buttons


async def test_a_players_cancel_is_told_whom_to_ask(tg: FakeTelegram, harness: Harness) -> None:
    """Before, Alex was told only that the opener or an admin could, not who opened it."""
    users, group = await two_playing(harness, 690)
    alex = users[1]
    await harness.next_turn(users)
    await tg.send_text(alex, group, "/cancel")
    await tg.wait_for_message(group, "Only Masha, who opened the table, or an admin can cancel it.")
    await harness.groups_told()
    assert not any(CANCEL_YES in str(m.button_texts) for m in tg.messages(group))
    assert await status(harness) == "playing"


RIGHTS_UNKNOWN = (
    "Telegram did not tell me just now whether you are one of the group's admins, so nothing "
    "was changed. Please try again in a moment."
)


async def test_an_admins_cancel_waits_out_flood_control_on_his_rights(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram answered whether Olya is an admin with 429, for her /cancel and for her ✖️ Yes:
    the bot waits it out. Before, it took the 429 for a no, and told her that only Masha or an
    admin could cancel the table."""
    users, group = await two_playing(harness, 700)
    olya = tg.user(703, "Olya")
    await harness.next_turn(users)
    tg.inject_flood(method="getChatMember", chat_id=group.id, retry_after=1, times=1)
    question = await ask_to_cancel(tg, olya, group)
    tg.inject_flood(method="getChatMember", chat_id=group.id, retry_after=1, times=1)
    answer = await tap(tg, olya, question, button_data(question, CANCEL_YES))
    assert answer.text == CANCELLED
    assert await status(harness) == "cancelled"
    assert [call.method for call in tg.calls if call.status == 429] == ["getChatMember"] * 2


@pytest.mark.parametrize(("retry_after", "times"), [(1, 3), (60, 1)])
async def test_an_admin_whose_rights_telegram_does_not_tell_is_asked_to_try_again(
    tg: FakeTelegram, harness: Harness, retry_after: int, times: int
) -> None:
    """Flood control on whether Olya is an admin outlasted the bot's three tries, or asked for
    a minute, which the bot does not wait (the table's moves would, for its lock): she is asked
    to try again, where she was told that only Masha or an admin could cancel. Nothing
    changes; once Telegram answers, her /cancel asks."""
    users, group = await two_playing(harness, 710)
    olya = tg.user(713, "Olya")
    await harness.next_turn(users)
    tg.inject_flood(method="getChatMember", chat_id=group.id, retry_after=retry_after, times=times)
    await tg.send_text(olya, group, "/cancel")
    await tg.wait_for_message(group, RIGHTS_UNKNOWN)
    assert len(tg.calls_to("getChatMember")) == times
    assert await status(harness) == "playing"
    await ask_to_cancel(tg, olya, group)
