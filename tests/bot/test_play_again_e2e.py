"""🔁 Play again: a match's end offers a new table set as that one was, so a group that plays
Muggins with easy computers is not sent back to Kozel's defaults by /new."""

from __future__ import annotations

import json
import sqlite3

import pytest

from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import Harness, tap
from tests.bot.test_table_life_e2e import kozel_of, prepare

AGAIN = "🔁 Play again"


@pytest.mark.fast_turns
async def test_play_again_opens_a_table_with_the_same_game_rules_and_computers(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(401, "Masha"), tg.user(402, "Alex")
    group = tg.group(-801, "Yard")
    k = kozel_of(harness)
    k.settings.computer_level = "easy"  # the level a new table gets, then carried over
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    played = await k.storage.get_table(1)
    assert played is not None

    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    assert "tap 🔁 to play again by these rules" in (ended.text or "")
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    await tg.send_text(alex, tg.private(alex), "/start")
    await tg.wait_for_message(alex, "Hi, ")
    query = await tg.press_button(alex, ended, AGAIN)
    answer = await tg.wait_for(lambda: tg.callback_answers.get(query))
    assert answer.text == "You are in! Your tiles will come in a private chat."

    lobby = await tg.wait_for_message(group, "Players 2/2")
    assert "1. Alex, 2. 🤖" in (lobby.text or "")
    again = await k.storage.get_table(2)
    assert again is not None and again.status == "lobby" and again.opener_id == alex.id
    assert (again.game, again.rules, again.players, again.pairs) == (
        played.game,
        played.rules,
        played.players,
        played.pairs,
    )
    assert (again.turn_seconds, again.computer_level) == (1, "easy")
    seats = await k.storage.get_seats(2)
    assert [(s.user_id, s.ai) for s in seats] == [(alex.id, None), (None, "easy")]

    # the button stays under the old result: another tap finds the new table open
    query = await tg.press_button(masha, ended, AGAIN)
    answer = await tg.wait_for(lambda: tg.callback_answers.get(query))
    assert answer.text == "A table is already open here. Join it, or ask its opener to /cancel it."
    assert await k.storage.get_table(3) is None


@pytest.mark.fast_turns
async def test_a_play_again_button_naming_another_groups_match_opens_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, olya = tg.user(411, "Masha"), tg.user(412, "Olya")
    yard, club = tg.group(-811, "Yard"), tg.group(-812, "Club")
    await prepare(harness, [masha], yard, computers=1, turn_seconds=1)
    await tg.wait_for_message(yard, "ended early", timeout=4.0)
    await tg.send_text(olya, tg.private(olya), "/start")
    note = await tg.send_text(olya, club, "hello")

    answer = await tap(tg, olya, note, "a:1:0")  # the Yard's match, tapped in the Club
    assert answer.text == "This button is not valid here."
    assert await kozel_of(harness).storage.get_table(2) is None
    assert not any("Players" in (m.text or "") for m in tg.messages(club))


@pytest.mark.fast_turns
async def test_play_again_by_rules_no_longer_offered_says_so_and_leaves_the_place_free(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A match played by a setting a later version of the bot no longer offers: the tap opened
    a table whose lobby failed to show ("Something went wrong"), and that unseen table kept
    /new out ("A table is already open here") until someone thought of /cancel."""
    masha = tg.user(431, "Masha")
    group = tg.group(-831, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    with sqlite3.connect(harness.database) as db:  # as a value dropped by an upgrade
        [stored] = db.execute("SELECT rules FROM tables WHERE table_id = 1").fetchone()
        rules = {**json.loads(stored), "fish_mode": "retired"}
        db.execute("UPDATE tables SET rules = ? WHERE table_id = 1", (json.dumps(rules),))

    query = await tg.press_button(masha, ended, AGAIN)
    answer = await tg.wait_for(lambda: tg.callback_answers.get(query))
    assert answer.text == "I no longer offer that match's rules: send /new to open a table."
    assert await kozel_of(harness).storage.get_table(2) is None
    await tg.send_text(masha, group, "/new")
    await tg.wait_for_message(group, "🎲 Kozel — new table (opened by Masha)")


@pytest.mark.fast_turns
async def test_play_again_tapped_twice_by_its_opener_says_she_is_at_the_table(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A quick second tap found the table the first had opened and told the opener, seated at
    it, to "Join it, or ask its opener to /cancel it"."""
    masha = tg.user(441, "Masha")
    group = tg.group(-841, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    first = await tg.press_button(masha, ended, AGAIN)
    second = await tg.press_button(masha, ended, AGAIN)
    await tg.wait_for(lambda: first in tg.callback_answers and second in tg.callback_answers)
    assert [tg.callback_answers[query].text for query in (first, second)] == [
        "You are in! Your tiles will come in a private chat.",
        "You are already at this table.",
    ]
    assert await kozel_of(harness).storage.get_table(3) is None
    await tg.wait_for_message(group, "Players 2/2: 1. Masha, 2. 🤖")


@pytest.mark.fast_turns
async def test_a_table_cancelled_before_its_lobby_went_out_shows_no_live_lobby(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The group was under flood control when Alex tapped 🔁, and Masha cancelled the new
    table before its lobby went out (a tap's answer waits three seconds at most for it): the
    lobby, once Telegram took it, showed the cancelled table with live buttons, whose taps
    said there was no table. Now it never shows them."""
    masha, alex = tg.user(431, "Masha"), tg.user(432, "Alex")
    group = tg.group(-831, "Yard")
    await prepare(harness, [masha], group, computers=1, turn_seconds=1)
    ended = await tg.wait_for_message(group, "ended early", timeout=4.0)
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    await tg.send_text(alex, tg.private(alex), "/start")
    await tg.wait_for_message(alex, "Hi, ")
    await tg.wait_idle()
    tg.inject_flood(method="sendMessage", chat_id=group.id, retry_after=500, times=1)
    query = await tg.press_button(alex, ended, AGAIN)
    await tg.wait_for(lambda: tg.callback_answers.get(query))
    await tg.send_text(alex, group, "/cancel")
    await tg.wait_for_message(group, "The table was cancelled.", timeout=15.0)
    await tg.wait_idle()
    live = [m.text for m in tg.messages(group) if m.from_bot and tg.current(m).buttons]
    assert len(live) == 1 and "ended early" in (live[0] or "")
