"""A move once committed always reaches the table: Telegram failing in the middle of showing
it, the bot dying between the commit and the messages, a table whose log is damaged."""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import Callback
from bot.service.store import round_ends
from bot.table import Table
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser, RecordedCall
from engine import Event, Match, replay
from engine.events import MatchEnded, RoundEnded
from storage import Storage
from tests.bot.harness import (
    Harness,
    board_message,
    playable,
    start_match,
    stored_events,
    tap,
)
from tests.bot.test_games_e2e import data_of
from tests.bot.test_table_life_e2e import change_lobby
from tests.bot.test_topics_e2e import FORUM, open_lobby, people, say, start_in

SOMETHING_WRONG = "Something went wrong, so nothing was changed. Please try again."
DAMAGED = (
    "This table's saved game is damaged and cannot go on. "
    "Its opener or an admin can close it with /cancel."
)


def played_line(user: FakeUser, data: str) -> str:
    """What the board says of a tap on the button with ``data`` (``p:<table>:<v>:a-b``)."""
    a, b = data.split(":")[3].split("-")
    return f"{user.first_name} played [{a}|{b}]"


async def shorten_turn(harness: Harness, seconds: int, table_id: int = 1) -> None:
    """From the next turn on, the table's turn lasts ``seconds`` (the lobby offers 30 and
    more, too long for a test). Once the bot has handled every update: a move (or the Start)
    still being handled may yet arm the turn it made, which would be this short too."""
    await harness.groups_told()
    table = await harness.kozel.service.store.table(table_id)
    assert table is not None
    table.row = await harness.kozel.storage.update_table(table_id, turn_seconds=seconds)


async def append_to_log(database: Path, events: list[dict[str, object]], match: Match) -> None:
    """Commit ``events`` to table 1's log behind the stopped bot's back."""
    async with await Storage.open(database) as storage:
        row = await storage.get_table(1)
        assert row is not None
        await storage.append_events(1, row.last_seq, events, match.to_json())


async def test_a_refused_answer_to_a_tap_does_not_stop_the_move(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram answers the tap's answer with 429 (or "query is too old", or nothing): the
    move was made, so the board, the next hand and the turn timer follow all the same."""
    masha, alex = tg.user(701, "Masha"), tg.user(702, "Alex")
    group = tg.group(-1701, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    other = alex if user is masha else masha
    await shorten_turn(harness, 2)  # once the Start is handled: its button's answer is out
    tg.inject_flood(method="answerCallbackQuery", retry_after=5, times=1)
    data = playable(hand)
    await tg.press(user, hand, data)
    await harness.next_turn([other], harness.version_of(hand))
    await harness.groups_told()  # the board goes out in the group's turn, after the DMs
    assert played_line(user, data) in (board_message(tg, group).text or "")
    # the next turn's timer runs: the computer plays for the idle player
    await tg.wait_for_message(group, f"⏰ {other.first_name} ran out of time", timeout=5.0)


async def test_a_refused_answer_to_a_join_or_a_page_does_not_say_it_failed(
    tg: FakeTelegram, harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Joining (or turning /top's page, or choosing the language) is done before the tap is
    answered, and the answer waits behind the lobby's edit in the group's turn. When Telegram
    refused it (429, "query is too old"), the update failed with a traceback and the person
    was told that nothing was changed, though they were seated."""
    masha, alex = tg.user(705, "Masha"), tg.user(706, "Alex")
    group = tg.group(-1705, "Courtyard", admins=[masha])
    for user in (masha, alex):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(masha, group)
    await tg.wait_idle()
    caplog.set_level(logging.ERROR)
    tg.inject_flood(method="answerCallbackQuery", retry_after=5, times=1)
    await tg.press_button(alex, lobby, "✋ Join")
    await tg.wait_for(lambda: "2. Alex" in (tg.message(group, lobby.message_id).text or ""))
    await tg.send_text(masha, group, "/language")
    chooser = await tg.wait_for_message(group, lambda m: m.find_button("🇺🇦 Українська") is not None)
    tg.inject_flood(method="answerCallbackQuery", retry_after=5, times=1)
    await tg.press_button(masha, chooser, "🇺🇦 Українська")
    await tg.wait_for(lambda: "Гравці 2/4" in (tg.message(group, lobby.message_id).text or ""))
    await tg.wait_idle()
    assert [a.text for a in tg.callback_answers.values() if a.text] == []
    assert [r.getMessage() for r in caplog.records] == []


async def test_a_language_chosen_under_flood_control_is_answered_at_once_and_said(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram refused the group's edits a while (429, four times): the tap on a language
    waited for the edit of its message, which gave up after three tries, and the message still
    asked to choose, as if nothing were chosen. Now the tap is answered at once, and the message
    says the language is set once the flood passes."""
    masha = tg.user(707, "Masha")
    group = tg.group(-1707, "Courtyard", admins=[masha])
    await tg.send_text(masha, group, "/language")
    chooser = await tg.wait_for_message(group, lambda m: m.find_button("🇺🇦 Українська") is not None)
    await tg.wait_idle()
    # each of Telegram's waits is 1 s here, which the answer must come well within
    tg.inject_flood(method="editMessageText", chat_id=group.id, retry_after=100, times=4)
    button = chooser.find_button("🇺🇦 Українська")
    assert button is not None
    await tap(tg, masha, chooser, str(button["callback_data"]))
    await harness.groups_told()
    assert tg.message(group, chooser.message_id).text == "Мова групи: українська."
    edits = [c for c in tg.calls_to("editMessageText") if c.params.get("chat_id") == group.id]
    assert [c.status for c in edits] == [429] * 4 + [200]
    (answered,) = [c for c in tg.calls_to("answerCallbackQuery") if c.time > chooser.sent_at]
    assert answered.time < edits[1].time


async def test_a_show_that_fails_midway_is_put_right(tg: FakeTelegram, harness: Harness) -> None:
    """The next player's hand cannot be sent (flood control does not clear): the table is
    brought back in sync, and the hand arrives once Telegram lets it through."""
    masha, alex = tg.user(711, "Masha"), tg.user(712, "Alex")
    group = tg.group(-1711, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    other = alex if user is masha else masha
    await tg.wait_idle()
    tg.inject_flood(method="sendMessage", chat_id=other, retry_after=1, times=3)
    data = playable(hand)
    answer = await tap(tg, user, hand, data)
    assert str(answer.text).startswith("You played")
    await harness.next_turn([other], harness.version_of(hand), timeout=10.0)
    await harness.groups_told()
    assert played_line(user, data) in (board_message(tg, group).text or "")
    # Telegram refused the hand three times, and nothing else: the resync may redraw a board
    # that had already gone out, which Telegram answers "not modified" and the bot takes as done
    refused = [c.method for c in tg.failed_calls() if "not modified" not in (c.error or "")]
    assert refused == ["sendMessage"] * 3


async def test_a_refused_timeout_notice_does_not_stop_the_computer_move(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The group refuses the "ran out of time" notice: the computer's move for the idle
    player is still shown, and the other player gets their turn; the notice comes once
    Telegram lets the group's messages through again."""
    masha, alex = tg.user(721, "Masha"), tg.user(722, "Alex")
    group = tg.group(-1721, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    other = alex if user is masha else masha
    await shorten_turn(harness, 1)
    await harness.play_turn(user, hand)
    _, idle_hand = await harness.next_turn([other], harness.version_of(hand))
    # the group refuses its next messages, a minute each time: the reminder's mention, then
    # the notice
    tg.inject_flood(method="sendMessage", chat_id=group, retry_after=60, times=6)
    await harness.next_turn([user], harness.version_of(idle_hand), timeout=10.0)
    record = tg.message(other.id, idle_hand.message_id)
    assert not record.buttons and "the computer played" in (record.text or "")
    assert not any(f"{other.first_name} ran out" in x for x in harness.group_texts(group))
    await tg.wait_for_message(group, f"{other.first_name} ran out", timeout=10.0)


async def test_a_move_committed_as_the_bot_died_reaches_everyone_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot is killed after a move is committed and before any message about it: after
    the restart the board shows it, the mover's keyboard is gone and the next player gets
    their hand as a new message, which notifies. A second restart changes nothing."""
    masha, alex = tg.user(731, "Masha"), tg.user(732, "Alex")
    group = tg.group(-1731, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    other = alex if user is masha else masha
    await tg.wait_idle()
    before = len(await stored_events(harness.database, 1))
    their_messages = {m.message_id for m in tg.messages(other)}

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed between the commit and the messages")

    harness.kozel.presenter.show = killed  # type: ignore[method-assign]
    data = playable(hand)
    await tg.press(user, hand, data)
    await tg.wait_idle()
    assert len(await stored_events(harness.database, 1)) > before
    await harness.stop()

    async with harness.restarted() as restarted:
        _, new_hand = await restarted.next_turn([other], harness.version_of(hand))
        assert new_hand.message_id not in their_messages
        assert not tg.message(user.id, hand.message_id).buttons

        def board_shows_the_move() -> bool:  # the board goes in the group's turn, after the DMs
            board = board_message(tg, group).text or ""
            return played_line(user, data) in board and f"Turn: {other.first_name}" in board

        await tg.wait_for(board_shows_the_move)
        await tg.wait_idle()
        await restarted.stop()
        sent, calls = len(tg.calls_to("sendMessage")), len(tg.calls)
        await restarted.start()
        await tg.wait_idle()
        edits = [c for c in tg.calls[calls:] if c.method == "editMessageText"]
        assert len(tg.calls_to("sendMessage")) == sent
        assert edits and all("not modified" in (c.error or "") for c in edits)
        await restarted.play_turn(other, new_hand)


async def test_a_match_whose_end_was_committed_as_the_bot_died_is_finished_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The final move was committed, then the bot died before recording the result: after the
    restart the group gets the round's result and the goat, and the table is free again."""
    masha, alex = tg.user(741, "Masha"), tg.user(742, "Alex")
    group = tg.group(-1741, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    await harness.play_turn(user, hand)
    await tg.wait_idle()
    await harness.stop()
    match = replay(await stored_events(harness.database, 1))
    rng, rest = random.Random(2), []
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        rest += match.act(seat, rng.choice(match.legal_actions(seat)))
    await append_to_log(harness.database, [e.to_dict() for e in rest], match)

    async with harness.restarted() as restarted:
        await tg.wait_for_message(group, "is the goat")
        assert any(f"Round {match.rounds_played}: " in x for x in restarted.group_texts(group))
        assert all(restarted.live_hand(u) is None for u in users)
        await tg.send_text(masha, group, "/new")
        await tg.wait_for_message(group, "new table")


async def test_a_damaged_table_is_skipped_and_answered_politely(
    tg: FakeTelegram, harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """One table's log cannot be replayed: the bot still starts and every other table plays
    on; the damaged one is logged, and whoever touches it gets a polite answer."""
    masha, alex = tg.user(751, "Masha"), tg.user(752, "Alex")
    olya, ivan = tg.user(753, "Olya"), tg.user(754, "Ivan")
    damaged, healthy = tg.group(-1751, "Courtyard"), tg.group(-1752, "Garden")
    lobby = await start_match(harness, [masha, alex], damaged)
    await start_match(harness, [olya, ivan], healthy)
    user, hand = await harness.next_turn([masha, alex], 0)
    other, other_hand = await harness.next_turn([olya, ivan], 0)
    await tg.wait_idle()
    await harness.stop()
    match = replay(await stored_events(harness.database, 1))
    await append_to_log(harness.database, [{"type": "nonsense"}], match)

    caplog.set_level(logging.ERROR, logger="bot.service")
    async with harness.restarted() as restarted:
        assert any(
            r.levelno == logging.ERROR and "table 1 " in r.getMessage() for r in caplog.records
        )
        await restarted.play_turn(other, other_hand)
        answer = await tap(tg, user, hand, playable(hand))
        assert answer.text == DAMAGED
        await tg.send_text(user, damaged, "/leave")
        await tg.wait_for_message(damaged, DAMAGED)
        # only its opener (or an admin) can close it, and then the group can play again
        await tg.send_text(alex, damaged, "/cancel")
        await tg.wait_for(
            lambda: sum(m.text == DAMAGED for m in tg.messages(damaged)) == 2,
            what="the second refusal",
        )
        # its ✖️ (the lobby's, as a client that kept it sends it): the tap is answered too,
        # where it went on spinning in Masha's client
        cancelled = await tap(tg, masha, lobby, Callback("cancel", 1).encode())
        assert cancelled.text == "The table was cancelled."
        await tg.wait_for_message(damaged, "The table was cancelled.")
        await tg.send_text(alex, damaged, "/new")
        await tg.wait_for_message(damaged, "new table")


async def test_start_again_brings_a_player_back_though_another_table_is_damaged(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/start hands back every seat the computer keeps for the person; a damaged table in
    another group stopped it there, and the person, who never sat at it, was told it was
    damaged."""
    masha, alex = tg.user(761, "Masha"), tg.user(762, "Alex")
    olya, ivan = tg.user(763, "Olya"), tg.user(764, "Ivan")
    damaged, healthy = tg.group(-1761, "Courtyard"), tg.group(-1762, "Garden")
    await start_match(harness, [masha, alex], damaged)
    await start_match(harness, [olya, ivan], healthy)
    await tg.wait_idle()
    await harness.stop()
    match = replay(await stored_events(harness.database, 1))
    await append_to_log(harness.database, [{"type": "nonsense"}], match)
    async with await Storage.open(harness.database) as storage:
        await storage.update_seat(2, 0, absent=True, missed_turns=2)  # Olya went away
    async with harness.restarted():
        await tg.send_text(olya, tg.private(olya), "/start")
        await tg.wait_for_message(healthy, "🙋 Olya is back at the table.")
        await tg.wait_idle()
        assert not any(m.text == DAMAGED for m in tg.messages(olya))


async def test_a_damaged_table_does_not_stop_the_other_tables_from_expiring(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Nobody plays a damaged table, so it is soon idle past the expiry; loading it for the
    sweep failed, and so every sweep did, every minute: no lobby anywhere closed any more."""
    masha, alex, olya = tg.user(771, "Masha"), tg.user(772, "Alex"), tg.user(773, "Olya")
    damaged, other = tg.group(-1771, "Courtyard"), tg.group(-1772, "Garden")
    await start_match(harness, [masha, alex], damaged)
    await tg.wait_idle()
    await harness.stop()
    match = replay(await stored_events(harness.database, 1))
    await append_to_log(harness.database, [{"type": "nonsense"}], match)
    async with harness.restarted() as restarted:
        await tg.send_text(olya, tg.private(olya), "/start")
        lobby = await restarted.open_table(olya, other)
        await restarted.kozel.scheduler.sweep(time.time() + 25 * 3600)
        await tg.wait_for(lambda: "⌛" in (tg.message(other, lobby.message_id).text or ""))


async def test_an_unexpected_failure_is_answered_and_changes_nothing(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug or a database error in a command: the person hears that nothing happened, rather
    than waiting for an answer that never comes; the next command works again."""
    masha = tg.user(781, "Masha")
    group = tg.group(-1781, "Courtyard")

    async def broken(chat_id: int) -> None:
        raise RuntimeError("the disk is on fire")

    with monkeypatch.context() as patch:
        patch.setattr(harness.kozel.service.store, "active_table", broken)
        await tg.send_text(masha, group, "/standings")
        await tg.wait_for_message(group, SOMETHING_WRONG)
    await tg.send_text(masha, group, "/standings")
    await tg.wait_for_message(group, "No match is being played here.")


async def test_a_refused_lobby_edit_does_not_stop_the_match_from_starting(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The lobby cannot be turned into "the match has started" (flood control does not
    clear), nor the tap answered: the match did start, so the board and the first hand
    follow all the same, and nobody is told that nothing changed."""
    users = [tg.user(770 + n, name) for n, name in enumerate(["Masha", "Alex", "Olya", "Ivan"])]
    group = tg.group(-1771, "Courtyard")
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(users[0], group)
    await harness.join(users[1:], group, lobby)
    await tg.wait_idle()
    tg.inject_flood(method="editMessageText", chat_id=group, retry_after=1, times=3)
    tg.inject_flood(method="answerCallbackQuery", retry_after=1, times=1)
    query = await tg.press_button(users[0], lobby, "▶️ Start")
    await harness.next_turn(users, 0, timeout=10.0)
    await harness.groups_told()
    assert (board_message(tg, group).text or "").startswith("🎲 Kozel · round 1")
    await tg.wait_idle()
    assert query not in tg.callback_answers  # flood control took the answer; none came after


def round_results(harness: Harness, group: FakeChat) -> list[str]:
    return [x for x in harness.group_texts(group) if x.startswith(("🏁 Round", "🐟 Round", "🥚"))]


def is_round_1(result: str) -> bool:
    return result.startswith(("🏁 Round 1:", "🐟 Round 1:", "🥚 Round 1:"))


async def test_a_round_result_is_announced_even_when_showing_the_round_end_fails(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram fails on the final board of a round, before the round's result: the board and
    the hands are resynced, and the result is still announced, once; play goes on."""
    masha, alex = tg.user(751, "Masha"), tg.user(752, "Alex")
    group = tg.group(-1751, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    presenter = harness.kozel.presenter
    final_board = presenter.board.final
    failures: list[int] = []

    def refused(table: object) -> None:
        failures.append(1)
        presenter.board.final = final_board  # type: ignore[method-assign]
        raise RuntimeError("Telegram refused the final board")

    presenter.board.final = refused  # type: ignore[method-assign]

    def results() -> list[str]:
        return round_results(harness, group)

    await harness.play_until(users, lambda: bool(failures))
    await tg.wait_for(results, timeout=30.0)  # results wait their turn in the group's budget
    await tg.wait_idle()
    assert failures == [1]
    assert len(results()) == 1 and is_round_1(results()[0])
    # the next round is dealt and playable
    taps = await harness.play_until(users, lambda: len(results()) == 2 or harness.match_over(group))
    assert taps > 0


async def play_until_killed_at(harness: Harness, users: list[FakeUser], kind: type) -> None:
    """Play until a move makes an event of ``kind``, and kill the bot as it is committed:
    nobody is told anything about that move."""
    presenter = harness.kozel.presenter
    show = presenter.show
    killed: list[int] = []

    async def killed_at(table: Table, events: Sequence[Event], **kw: Any) -> None:
        if any(isinstance(e, kind) for e in events):
            killed.append(1)
            raise RuntimeError("killed between the commit and the messages")
        await show(table, events, **kw)

    presenter.show = killed_at  # type: ignore[method-assign]
    version = 0
    while not killed:
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand, shown=False)
        # the move was shown once the next hand is out, unless the bot died showing it
        await harness.tg.wait_for(lambda: killed or harness._turn(users, version))  # noqa: B023
    await harness.tg.wait_idle()
    await harness.stop()


async def test_a_round_end_committed_as_the_bot_died_is_announced_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot dies after committing the move that ends a round, before telling anyone: after
    the restart the group gets that round's result, once, and the next round goes on. A second
    restart announces nothing again."""
    masha, alex = tg.user(761, "Masha"), tg.user(762, "Alex")
    group = tg.group(-1761, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    await play_until_killed_at(harness, users, RoundEnded)
    assert round_results(harness, group) == []
    assert any(e["type"] == "round_ended" for e in await stored_events(harness.database, 1))

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: round_results(restarted, group), what="the round's result")
        await restarted.next_turn(users, 0)
        await tg.wait_idle()
        assert len(round_results(restarted, group)) == 1
        assert is_round_1(round_results(restarted, group)[0])
        await restarted.stop()
        await restarted.start()
        await tg.wait_idle()
        assert len(round_results(restarted, group)) == 1


async def test_a_goat_recorded_as_the_bot_died_is_announced_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot dies after committing and recording the match's last move, before telling
    anyone: the table is finished, and after the restart the group still learns the last
    round's result and who the goat is, once, in the goat's message."""
    masha, alex = tg.user(771, "Masha"), tg.user(772, "Alex")
    group = tg.group(-1771, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    await play_until_killed_at(harness, users, MatchEnded)
    results = len(round_results(harness, group))
    assert not harness.match_over(group)
    async with await Storage.open(harness.database) as storage:
        row = await storage.get_table(1)
    assert row is not None and row.status == "finished"

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: restarted.match_over(group), what="the goat")
        await tg.wait_idle()
        assert len(round_results(restarted, group)) == results
        goats = [x for x in restarted.group_texts(group) if "goat" in x]
        assert len(goats) == 1
        assert f"Round {results + 1}:" in goats[0].splitlines()[1]
        await restarted.stop()
        await restarted.start()
        await tg.wait_idle()
        assert len(round_results(restarted, group)) == results
        assert [x for x in restarted.group_texts(group) if "goat" in x] == goats


async def test_the_language_redraws_every_healthy_table_though_one_is_damaged(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/language in a forum where one topic's table is damaged: the language was set, but the
    other topics' tables stayed in the old one, and the admin was told the table was damaged,
    as if nothing had changed."""
    alice, bob, carol = people(tg, "Alice", "Bob", "Carol")
    forum = tg.group(FORUM, "Yard", "supergroup", forum=True)
    tg.creators[forum.id] = alice.id
    one = await tg.create_topic(alice, forum, "One")
    two = await tg.create_topic(carol, forum, "Two")
    await start_in(harness, [alice, bob], forum, one)  # table 1, damaged below
    lobby = await open_lobby(harness, [carol], forum, two)
    await tg.wait_idle()
    await harness.stop()
    match = replay(await stored_events(harness.database, 1))
    await append_to_log(harness.database, [{"type": "nonsense"}], match)
    async with harness.restarted():
        prompt = await say(tg, alice, forum, two, "/language")
        answer = await tap(tg, alice, prompt, data_of(prompt, "🇷🇺 Русский"))
        assert answer.text is None  # not "This table's saved game is damaged..."
        await tg.wait_for(lambda: "новый стол" in (tg.message(forum, lobby.message_id).text or ""))
        await tg.wait_for(
            lambda: tg.message(forum, prompt.message_id).text == "Язык группы: русский."
        )


async def test_a_start_whose_deal_was_never_committed_can_be_pressed_again_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot died (or the disk was full) after the table was marked as playing and before the
    deal was committed: nothing was dealt or shown, so after the restart the lobby is as it was
    and ▶️ Start deals, instead of "already started" with no match and no way to play."""
    masha, alex = tg.user(761, "Masha"), tg.user(762, "Alex")
    group = tg.group(-1761, "Courtyard")
    for user in (masha, alex):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(masha, group)
    await harness.join([alex], group, lobby)
    for seated in (3, 4):
        await tg.press_button(masha, lobby, "🤖 Add computer")
        await tg.wait_for(
            lambda: f"Players {seated}/" in (tg.message(group, lobby.message_id).text or "")  # noqa: B023
        )

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed between marking the table playing and committing the deal")

    harness.kozel.service.store.append = killed  # type: ignore[method-assign]
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_idle()
    assert await stored_events(harness.database, 1) == []
    await harness.stop()

    async with harness.restarted() as restarted:
        shown = tg.message(group, lobby.message_id)
        start = shown.find_button("▶️ Start")
        assert start is not None
        answer = await tap(tg, masha, shown, str(start["callback_data"]))
        assert answer.text != "The match has already started."
        await tg.wait_for_message(group, "Order of play")
        await restarted.next_turn([masha, alex], 0)


async def started_and_stopped(
    tg: FakeTelegram, harness: Harness, user_id: int
) -> tuple[FakeChat, list[dict[str, Any]]]:
    """Masha and Alex (``user_id`` and the next) start a match in a group, and the bot stops:
    the group, and the table's log so far."""
    masha, alex = tg.user(user_id, "Masha"), tg.user(user_id + 1, "Alex")
    group = tg.group(-1000 - user_id, "Courtyard")
    await start_match(harness, [masha, alex], group)
    await tg.wait_idle()
    await harness.stop()
    return group, await stored_events(harness.database, 1)


def opening_with_memory(match: Match, rng: random.Random) -> tuple[list[Event], int, int]:
    """Random moves until a round opens a side's score with points it remembered (RULES.md
    §2.8); the events, the points remembered and the round's amount for that side. About one
    match in three has one: ``LookupError`` if this one ends first."""
    made: list[Event] = []
    while not match.is_over:
        kept = match.tally
        seat = match.current_seat
        assert seat is not None
        events = match.act(seat, rng.choice(match.legal_actions(seat)))
        made += events
        for ended in (e for e in events if isinstance(e, RoundEnded) and e.amounts):
            assert ended.opened is not None and ended.amounts is not None
            for side, opened in enumerate(ended.opened):
                if opened and not kept.opened[side] and kept.memory[side]:
                    return made, kept.memory[side], ended.amounts[side]
    raise LookupError("no score opened with remembered points")


async def test_a_result_told_after_a_restart_still_says_the_remembered_points(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The round that opened a score was committed, then the bot died before telling it: the
    result told after the restart says the points remembered before, as it would have (the
    rounds before it are read back from the log)."""
    group, stored = await started_and_stopped(tg, harness, 761)
    found = []
    for attempt in range(40):  # each deal is the test run's (KOZEL_TEST_DEALS): play on till one
        match = replay(stored)
        with contextlib.suppress(LookupError):
            found.append((*opening_with_memory(match, random.Random(attempt)), match))
    if not found:
        pytest.fail("none of 40 matches opened a score with remembered points")
    # the fewest rounds: each is told after the restart, in the group's budget of messages
    made, remembered, amount, match = min(found, key=lambda run: len(round_ends(run[0])))
    await append_to_log(harness.database, [e.to_dict() for e in made], match)

    async with harness.restarted():
        said = f", and {remembered} remembered: +{amount + remembered}"
        await tg.wait_for_message(group, said, timeout=30.0)


def score_block(result: str) -> list[str]:
    """The lines under a result's "Score:"."""
    return result.split("Score:\n", 1)[1].splitlines()


def kozel_score_lines(names: list[str], ended: RoundEnded) -> list[str]:
    """What a Kozel result's "Score:" says after the round that ``ended``: each score, with
    the points remembered, and the eggs' pot."""
    memory = ended.memory or [0] * len(names)
    lines = [
        f"{name}: {score} (remembered {kept})" if kept else f"{name}: {score}"
        for name, score, kept in zip(names, ended.scores, memory, strict=True)
    ]
    return lines + ([f"🥚 Eggs in the pot: {ended.pot}"] if ended.pot else [])


def random_moves(match: Match, rng: random.Random, rounds: int | None = None) -> list[Event]:
    """Random moves until ``rounds`` rounds have ended (None: none counted), or the match; the
    events."""
    made: list[Event] = []
    while not match.is_over and (rounds is None or len(round_ends(made)) < rounds):
        seat = match.current_seat
        assert seat is not None
        made += match.act(seat, rng.choice(match.legal_actions(seat)))
    return made


async def test_results_told_after_a_restart_show_the_scores_after_their_own_round(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Two rounds were committed, then the bot died before telling them: after the restart
    each result shows the score as its own round left it. Round 1's said the match's score
    after round 2."""
    group, stored = await started_and_stopped(tg, harness, 781)
    for attempt in range(20):  # each deal is the test run's (KOZEL_TEST_DEALS): play on till
        match = replay(stored)  # round 2 changed the score and the match goes on
        made = random_moves(match, random.Random(attempt), rounds=2)
        ends = [kozel_score_lines(["A", "B"], ended) for ended in round_ends(made)]
        if len(ends) == 2 and ends[0] != ends[1] and not match.is_over:
            break
    else:
        pytest.fail("none of 20 second rounds changed the score and left the match going")
    await append_to_log(harness.database, [e.to_dict() for e in made], match)

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: len(round_results(restarted, group)) == 2, timeout=30.0)
        told = round_results(restarted, group)
        table = await restarted.kozel.service.store.table(1)
    assert table is not None
    names = [seat.name for seat in table.seats]
    expected = [kozel_score_lines(names, ended) for ended in round_ends(made)]
    assert [score_block(result) for result in told] == expected


async def test_a_match_ended_behind_a_stop_tells_its_results_in_order_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Every round of a match, and its end, were committed, then the bot died before telling
    any: after the restart the group heard the last round and the goat first, the earlier
    rounds after them, and the last round and the goat again. Now each result is told once, in
    the order of the rounds, and the goat last, with the last round's."""
    group, stored = await started_and_stopped(tg, harness, 785)
    runs = []
    for attempt in range(10):  # each deal is the test run's: the shortest of ten matches
        match = replay(stored)
        runs.append((random_moves(match, random.Random(attempt)), match))
    made, match = min(runs, key=lambda run: len(round_ends(run[0])))
    await append_to_log(harness.database, [e.to_dict() for e in made], match)

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: restarted.match_over(group), timeout=60.0)
        await restarted.groups_told(timeout=60.0)
        await tg.wait_idle()
        results = round_results(restarted, group)
        told = [t for t in restarted.group_texts(group) if t in results or t.startswith("🐐")]
    # "🏁 Round 1", ..., "🐐 Alex is the goat!" over the last round's "🏁 Round 5"
    heads = [text.splitlines()[0].split(":", 1)[0] for text in told]
    heads.append(told[-1].splitlines()[1].split(":", 1)[0])
    rounds = range(1, len(round_ends(made)) + 1)
    assert [head.split(" ", 1)[1] for head in heads[:-2] + heads[-1:]] == [
        f"Round {n}" for n in rounds
    ]
    assert heads[-2].startswith("🐐") and heads[-2].endswith("is the goat!")


STARTED = "The match has started — good luck!"


async def started_under_flood(
    tg: FakeTelegram, harness: Harness, user_id: int, *, retry_after: int = 3000
) -> FakeMessage:
    """Masha and Alex (``user_id`` and the next) start a match of two in a group whose edits
    Telegram holds back (a 429 of ``retry_after``, by default longer than the bot stays up):
    the match is dealt and the hands are out, but the lobby still shows its buttons. The lobby
    message."""
    masha, alex = tg.user(user_id, "Masha"), tg.user(user_id + 1, "Alex")
    group = tg.group(-1000 - user_id, "Courtyard")
    for user in (masha, alex):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(masha, group)
    await change_lobby(harness, group, players=2)
    await harness.join([alex], group, lobby)
    await tg.wait_idle()
    tg.inject_flood(method="editMessageText", chat_id=group, retry_after=retry_after, times=1)
    await tg.press_button(masha, lobby, "▶️ Start")
    await harness.next_turn([masha, alex], 0)
    assert tg.message(group, lobby.message_id).find_button("✋ Join") is not None
    return lobby


async def test_a_lobby_left_open_by_a_start_is_closed_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot stopped after the match started and before the lobby said so (its edit waited
    out flood control): after the restart the lobby still offered ✋ Join and ▶️ Start for a
    match being played. Now the restart closes it as the start does; a lobby already closed is
    left alone (an edit would only be refused as "not modified")."""
    lobby = await started_under_flood(tg, harness, 791)
    group = lobby.chat
    await harness.stop()

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: tg.message(group, lobby.message_id).text == STARTED)
        assert not tg.message(group, lobby.message_id).buttons
        assert await edits_at_the_next_start(tg, restarted, lobby) == []


async def test_the_order_of_play_a_stop_held_back_is_told_after_the_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The match started and the bot stopped while the lobby's edit waited out flood control:
    the order of play, queued behind it, was lost with it, and the group never learnt who
    plays when. Now the restart tells it, before the board, once (not again at the next
    start); and the match goes on."""
    lobby = await started_under_flood(tg, harness, 797)
    group = lobby.chat
    users = [tg.user(797, "Masha"), tg.user(798, "Alex")]
    await harness.stop()

    def orders() -> list[FakeMessage]:
        return [m for m in tg.messages(group) if "Order of play" in (m.text or "")]

    assert orders() == []
    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: orders() and board_message(tg, group), what="order, board")
        [order] = orders()
        assert order.text == "🔄 Order of play: 1. Masha → 2. Alex."
        assert order.message_id < board_message(tg, group).message_id
        await edits_at_the_next_start(tg, restarted, lobby)
        assert orders() == [order]
        user, hand = await restarted.next_turn(users)
        await restarted.play_turn(user, hand)
        await restarted.next_turn(users, restarted.version_of(hand))


async def edits_at_the_next_start(
    tg: FakeTelegram, harness: Harness, *messages: FakeMessage
) -> list[RecordedCall]:
    """Once the groups are told, the bot is restarted: the edits of ``messages`` its start made
    (none, for lobbies already closed)."""
    await harness.groups_told()
    await tg.wait_idle()
    await harness.stop()
    calls = len(tg.calls)
    await harness.start()
    await harness.groups_told()
    await tg.wait_idle()
    where = {(message.chat.id, message.message_id) for message in messages}
    return [
        c
        for c in tg.calls[calls:]
        if c.method == "editMessageText"
        and (c.params.get("chat_id"), c.params.get("message_id")) in where
    ]


async def test_a_lobby_left_open_by_a_cancel_or_an_expiry_is_closed_after_a_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/cancel at one table, nobody starting another in time, and the bot stopped before
    either lobby lost its buttons (their edits waited out flood control): after the restart
    the lobbies offered ✋ Join and ▶️ Start for tables gone, for good. Now the restart closes
    each, once, saying what /cancel or the expiry would have (before, the expired one said it
    was cancelled, though nobody had cancelled it); their buttons, kept by a client, are
    answered politely and change nothing."""
    masha, alex, ivan, petro, olya = people(tg, "Masha", "Alex", "Ivan", "Petro", "Olya")
    cancelled_in, expired_in = tg.group(-1795, "Courtyard"), tg.group(-1796, "Yard")
    cancelled = await open_lobby(harness, [masha, alex], cancelled_in, None)
    expired = await open_lobby(harness, [ivan, petro], expired_in, None)
    join = data_of(tg.message(expired_in, expired.message_id), "✋ Join")
    for group in (cancelled_in, expired_in):
        tg.inject_flood(method="editMessageText", chat_id=group, retry_after=3000, times=1)
    await tg.send_text(masha, cancelled_in, "/cancel")
    await tg.wait_for(lambda: any(c.status == 429 for c in tg.calls), what="the closing edit")
    await harness.kozel.scheduler.sweep(time.time() + 31 * 60)  # only Ivan's is still open
    await tg.wait_for(lambda: sum(c.status == 429 for c in tg.calls) == 2, what="the expiry's")
    await harness.stop()
    lobbies = [tg.message(lobby.chat, lobby.message_id) for lobby in (cancelled, expired)]
    assert all(lobby.find_button("✋ Join") is not None for lobby in lobbies)

    closed = [
        "The table was cancelled.",
        "⌛ The table closed: nobody started the match in time. Send /new to open another.",
    ]

    def shown() -> list[str | None]:
        return [tg.message(lobby.chat, lobby.message_id).text for lobby in lobbies]

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: shown() == closed, what="the lobbies closed")
        assert not any(tg.message(lobby.chat, lobby.message_id).buttons for lobby in lobbies)
        assert await edits_at_the_next_start(tg, restarted, *lobbies) == []
        sent = len(tg.messages(expired_in))
        answer = await tap(tg, olya, expired, join)
        assert answer.text == "There is no open table to join here. Send /new to open one."
        await restarted.groups_told()
        await tg.wait_idle()
        assert len(tg.messages(expired_in)) == sent
        assert shown() == closed
        for group in (cancelled_in, expired_in):
            assert await restarted.kozel.storage.get_active_table(group.id, None) is None


async def test_a_lobby_deleted_while_the_bot_was_down_is_not_posted_again(
    tg: FakeTelegram, harness: Harness
) -> None:
    """As above, and someone deleted the lobby message meanwhile: the restart has nothing to
    close, and posts no new message only to say that the match has started."""
    lobby = await started_under_flood(tg, harness, 793)
    group = lobby.chat
    await harness.stop()
    lobby.deleted = True

    async with harness.restarted() as restarted:
        await tg.wait_for(lambda: board_message(tg, group))
        await restarted.groups_told()
        await tg.wait_idle()
    live = [m.text or "" for m in tg.messages(group, include_deleted=False)]
    assert not any(STARTED in text for text in live)
