"""The lobby as people use it: double taps, what the rules say, who may do what, and the ways
a table ends before or during its match.

Every test drives the real bot through the fake Bot API server and asserts what people in the
chat would see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.pacing import Board
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import Harness, board_message, cancel_match, tap
from tests.bot.test_table_life_e2e import change_lobby, count, lobby_says, prepare

ANONYMOUS = "You write in the group's name: to sit at the table, write as yourself."
CHANGED = "The table has just changed: have a look at it first."
NOT_STARTER = (
    "Only the table's opener or the group's admins can start the match, "
    "or any player at the table once it is full."
)


def lobby_now(tg: FakeTelegram, lobby: FakeMessage) -> FakeMessage:
    return tg.message(lobby.chat, lobby.message_id)


async def open_lobby(harness: Harness, opener: FakeUser, group: FakeChat) -> FakeMessage:
    """``opener`` presses Start in the bot's DM and opens a table in ``group``."""
    tg = harness.tg
    await tg.send_text(opener, tg.private(opener), "/start")
    await tg.wait_for_message(opener, lambda m: m.from_bot)
    await tg.send_text(opener, group, "/new")
    lobby = await tg.wait_for_message(group, lambda m: bool(m.buttons))
    await tg.wait_idle()
    return lobby


def data_of(tg: FakeTelegram, message: FakeMessage, label: str) -> str:
    """The callback data of the button ``label`` on the message as it is now."""
    button = tg.message(message.chat, message.message_id).find_button(label)
    assert button is not None, label
    return str(button["callback_data"])


async def double_tap(
    tg: FakeTelegram, user: FakeUser, message: FakeMessage, label: str
) -> list[str]:
    """Two fast taps on the same button; the bot's two answers, in the order of the taps."""
    data = data_of(tg, message, label)
    queries = [await tg.press(user, message, data), await tg.press(user, message, data)]
    await tg.wait_for(lambda: all(q in tg.callback_answers for q in queries))
    await tg.wait_idle()
    return [str(tg.callback_answers[q].text) for q in queries]


def is_setting(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda button: name in str(button.get("text"))


# --- a double tap changes the lobby once -------------------------------------------------------


async def test_a_double_tap_in_the_lobby_changes_it_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(401, "Masha")
    group = tg.group(-801, "Yard")
    lobby = await open_lobby(harness, masha, group)

    answers = await double_tap(tg, masha, lobby, "🤖 Add computer")
    assert answers == ["A computer player took a seat.", CHANGED]
    assert "Players 2/4: 1. Masha, 2. 🤖 Galya · normal\n" in (lobby_now(tg, lobby).text or "")

    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Goat at 101 points"))
    answers = await double_tap(tg, masha, lobby, "Goat at 101 points")
    assert answers[1] == CHANGED
    assert lobby_now(tg, lobby).find_button("Goat at 301 points") is not None

    # the buttons drawn before a restart still work once, and only once
    await harness.stop()
    await harness.start()
    answers = await double_tap(tg, masha, lobby, "Goat at 301 points")
    assert answers[1] == CHANGED
    assert lobby_now(tg, lobby).find_button("Goat at 501 points") is not None
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    assert "Goat at 501 points" in (lobby_now(tg, lobby).text or "")


@pytest.mark.parametrize("restart", [False, True], ids=["", "after a restart"])
async def test_someone_joining_leaves_the_openers_rules_editor_open(
    tg: FakeTelegram, harness: Harness, restart: bool
) -> None:
    """Before, anyone who joined (or left) while the opener had ⚙️ Rules or the games open
    turned the message back into the lobby under the opener's fingers; and after a restart
    still, while what the lobby showed was the bot's memory only."""

    async def maybe_restarted() -> None:
        if restart:
            await harness.stop()
            await harness.start()

    masha, alex = tg.user(403, "Masha"), tg.user(404, "Alex")
    group = tg.group(-803, "Yard")
    lobby = await open_lobby(harness, masha, group)
    await tg.send_text(alex, tg.private(alex), "/start")
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Goat at 101 points"))
    await maybe_restarted()
    await tg.send_text(alex, group, "/join")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 2/4: 1. Masha, 2. Alex\n"))
    await tg.wait_idle()
    assert lobby_now(tg, lobby).find_button("Goat at 101 points") is not None
    await tg.press_button(masha, lobby, "Goat at 101 points")  # drawn for the lobby with Alex
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Goat at 301 points"))

    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    await tg.press_button(masha, lobby, lambda b: str(b.get("text")).startswith("🎲 "))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(lambda b: "Muggins" in str(b)))
    await maybe_restarted()
    await tg.send_text(alex, group, "/leave")
    await tg.wait_for_message(group, "You left the table.")
    await tg.wait_idle()
    assert lobby_now(tg, lobby).find_button(lambda b: "Muggins" in str(b)) is not None
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 1/4: 1. Masha\n"))


async def test_the_rules_editor_says_what_its_buttons_do(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Under the ⚙️ Rules editor's buttons the lobby still said "Tap Join to take a seat",
    with no Join button in sight, and nothing about what the buttons do; and it said only the
    first few rules in full, where a phone shows a long button's words cut short."""
    masha = tg.user(409, "Masha")
    group = tg.group(-809, "Yard")
    lobby = await open_lobby(harness, masha, group)
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Goat at 101 points"))
    text = lobby_now(tg, lobby).text or ""
    assert text.endswith(
        "⚙️ Tap a rule to change it (opener or admins); « Back returns to the table."
    )
    assert "Tap Join" not in text
    # A phone cuts a long button short: the text above says every rule in full, the last too.
    last = "Fish as soon as both ends show one number and all its tiles but the double are played"
    assert lobby_now(tg, lobby).find_button(last) is not None
    assert f"• {last}\n" in text
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    back = lobby_now(tg, lobby).text or ""
    assert back.endswith("Tap Join to take a seat.")
    assert last not in back  # the lobby itself shows the first few only


# --- the rules say only what applies ----------------------------------------------------------


async def test_with_special_bones_the_lone_00_and_66_values_are_not_shown(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(411, "Masha")
    group = tg.group(-811, "Yard")
    lobby = await open_lobby(harness, masha, group)
    lone = ("A lone 0-0 left in hand counts", "A lone 6-6 left in hand counts")
    assert all(words in (lobby_now(tg, lobby).text or "") for words in lone)

    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("No bonuses for 0-0 and 6-6"))
    await tg.press_button(masha, lobby, "No bonuses for 0-0 and 6-6")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(is_setting("Special bones")))
    # special bones set 0-0 and 6-6 themselves (RULES.md §2.7.5): no button says otherwise
    labels = [label for row in lobby_now(tg, lobby).button_texts for label in row]
    assert not any(words in label for label in labels for words in lone)
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    text = lobby_now(tg, lobby).text or ""
    assert "Special bones: a lone 6-6 counts 50 and a lone 0-0 25" in text
    assert not any(words in text for words in lone)

    await tg.send_text(masha, group, "/rules")
    rules = await tg.wait_for_message(group, "Rules of this table")
    assert "Special bones" in (rules.text or "")
    assert "Computer players: normal" in (rules.text or "")
    assert not any(words in (rules.text or "") for words in lone)


# --- the group's language ------------------------------------------------------------------------


async def test_a_group_speaks_the_language_of_whoever_opens_its_first_table(
    tg: FakeTelegram, harness: Harness
) -> None:
    oksana = tg.user(421, "Оксана", language_code="uk")
    hans, masha = tg.user(422, "Hans", language_code="de"), tg.user(423, "Masha")
    ukrainian, other = tg.group(-821, "Двір"), tg.group(-822, "Hof")

    lobby = await open_lobby(harness, oksana, ukrainian)
    assert lobby_now(tg, lobby).find_button("✋ Граю") is not None
    await tg.send_text(oksana, ukrainian, "/cancel")
    await tg.wait_for(lambda: lobby_now(tg, lobby).text == "Стіл скасовано.")
    # the choice stays: the next table is Ukrainian too, whoever opens it
    await tg.send_text(masha, ukrainian, "/new")
    await tg.wait_for_message(ukrainian, lambda m: bool(m.find_button("✋ Граю")))

    # a language the bot does not speak: the bot's default (English here)
    await tg.send_text(hans, other, "/new")
    await tg.wait_for_message(other, lambda m: bool(m.find_button("✋ Join")))


async def test_before_its_first_table_a_group_answers_each_person_in_their_language(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A group that never chose a language, nor opened a table, answered /help, /rules and the
    like in the bot's default: a Russian group's first look at the bot was in English (and in
    production, where the default is Russian, an English or Ukrainian group's in Russian)."""
    petya, oksana = (
        tg.user(441, "Петя", language_code="ru"),
        tg.user(442, "Оксана", language_code="uk"),
    )
    group = tg.group(-841, "Двор", admins=[petya])
    await tg.send_text(petya, group, "/help")
    await tg.wait_for_message(group, "/new — открыть стол в этой группе")
    await tg.send_text(oksana, group, "/standings")
    await tg.wait_for_message(group, "Тут зараз не триває матч.")
    # once the group has a language, everyone is answered in it
    await tg.send_text(petya, group, "/language")
    prompt = await tg.wait_for_message(group, "Выбери язык этой группы:")
    await tap(tg, petya, prompt, data_of(tg, prompt, "🇬🇧 English"))
    await tg.send_text(oksana, group, "/standings")
    await tg.wait_for_message(group, "No match is being played here.")


async def test_a_tap_is_answered_in_the_tappers_language_and_a_command_in_the_groups(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Only the tapper sees a tap's answer: it speaks their language, whatever the group's; a
    command's reply, which the whole group reads, speaks the group's."""
    masha, oksana = tg.user(425, "Masha"), tg.user(426, "Оксана", language_code="uk")
    petya = tg.user(427, "Петя", language_code="ru")
    group = tg.group(-825, "Yard", admins=[petya])
    lobby = await open_lobby(harness, masha, group)
    await tg.send_text(oksana, tg.private(oksana), "/start")
    await tg.wait_for_message(oksana, lambda m: m.from_bot)

    joined = await tap(tg, oksana, lobby, data_of(tg, lobby, "✋ Join"))
    assert joined.text == "Ти в грі! Камені прийдуть в особистий чат."
    await tg.wait_for(lambda: "Оксана" in (lobby_now(tg, lobby).text or ""))
    refused = await tap(tg, oksana, lobby, data_of(tg, lobby, "▶️ Start"))
    assert refused.text == (
        "Почати матч може той, хто відкрив стіл, або адміни групи, а коли стіл зібрано — "
        "будь-який гравець за ним."
    )
    # the names in a refusal are the reader's too
    await tg.press_button(petya, lobby, lambda b: str(b.get("text")).startswith("🎲 Game"))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Bulgarian Fives"))
    misfit = await tap(tg, petya, lobby, data_of(tg, lobby, "Bulgarian Fives"))
    assert misfit.text == (
        "В игру «Болгарская пятёрка» играют 2 игрока, а стол настроен на 4 игрока, каждый сам "
        "за себя: сначала поменяй это в ⚙️ Правилах."
    )
    chosen = await tap(tg, petya, lobby, data_of(tg, lobby, "Muggins"))
    assert chosen.text == "Игра: Пятёрочка"
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("🎲 Game: Muggins"))
    # the group reads a command's reply: in its language
    await tg.send_text(oksana, group, "/leave")
    await tg.wait_for_message(group, "You left the table.")
    left = await tap(tg, masha, lobby, data_of(tg, lobby, "🚪 Leave"))
    assert left.text == "You left the table."


async def test_a_tap_by_someone_whose_telegram_names_no_language_speaks_the_groups(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram may send a tap without the tapper's language: its answer then spoke the bot's
    default (English here) in a Russian group, where the tapper reads Russian all day."""
    petya, anon = tg.user(428, "Петя", language_code="ru"), tg.user(429, "Anon", language_code=None)
    group = tg.group(-828, "Двор")
    lobby = await open_lobby(harness, petya, group)
    await tg.send_text(anon, tg.private(anon), "/start")
    await tg.wait_for_message(anon, lambda m: m.from_bot)
    joined = await tap(tg, anon, lobby, data_of(tg, lobby, "✋ Играю"))
    assert joined.text == "Ты в игре! Камни придут в личный чат."


async def test_only_admins_change_the_language_and_the_table_follows_at_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, olya = tg.user(431, "Masha"), tg.user(432, "Alex"), tg.user(433, "Olya")
    group = tg.group(-831, "Yard", admins=[olya])
    await tg.send_text(alex, tg.private(alex), "/start")
    lobby = await open_lobby(harness, masha, group)
    refusal = "Only the group's admins can change its language."

    await tg.send_text(alex, group, "/language")
    await tg.wait_for_message(group, refusal)
    await tg.send_text(olya, group, "/language")
    prompt = await tg.wait_for_message(group, "Choose the language of this group:")
    answer = await tap(tg, alex, prompt, data_of(tg, prompt, "🇷🇺 Русский"))
    assert answer.text == refusal
    await tg.wait_idle()
    assert lobby_now(tg, lobby).find_button("✋ Join") is not None

    # an admin's choice redraws the open lobby in the new language
    await tg.press_button(olya, prompt, "🇷🇺 Русский")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Играю"))
    assert "Козёл" in (lobby_now(tg, lobby).text or "")
    await tg.wait_for(lambda: tg.message(group, prompt.message_id).text == "Язык группы: русский.")

    # and the live board of a match in progress
    await change_lobby(harness, group, players=2)
    await tg.press_button(alex, lobby, "✋ Играю")
    await tg.wait_for(lambda: "Alex" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(masha, lobby, "▶️ Раздать")
    await tg.wait_for_message(group, "🎲 Козёл · раунд 1")
    await tg.send_text(olya, group, "/language")
    prompt = await tg.wait_for_message(group, "Выбери язык этой группы:")
    await tg.press_button(olya, prompt, "🇬🇧 English")
    await tg.wait_for(lambda: (board_message(tg, group).text or "").startswith("🎲 Kozel · round"))


async def test_the_group_language_buttons_mark_the_groups_language(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Nothing said which language the group was in: now its button is marked, none while
    the group has none (no admin chose one, nobody opened a table)."""
    olya = tg.user(441, "Olya")
    group = tg.group(-841, "Yard", admins=[olya])
    languages = ["🇬🇧 English", "🇷🇺 Русский", "🇺🇦 Українська"]
    await tg.send_text(olya, group, "/language")
    prompt = await tg.wait_for_message(group, "Choose the language of this group:")
    assert prompt.button_texts == [languages]
    await tg.press_button(olya, prompt, "🇷🇺 Русский")
    await tg.wait_for(lambda: tg.message(group, prompt.message_id).text == "Язык группы: русский.")
    assert tg.message(group, prompt.message_id).buttons == []  # the choice made, it says so

    await tg.send_text(olya, group, "/language")
    again = await tg.wait_for_message(group, "Выбери язык этой группы:")
    assert again.button_texts == [["🇬🇧 English", "✅ 🇷🇺 Русский", "🇺🇦 Українська"]]


# --- who may start, and removing players -----------------------------------------------------


async def test_who_may_start_and_the_refusal_says_who(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex, olya = tg.user(441, "Masha"), tg.user(442, "Alex"), tg.user(443, "Olya")
    group = tg.group(-841, "Yard", admins=[olya])
    await tg.send_text(alex, tg.private(alex), "/start")
    lobby = await open_lobby(harness, masha, group)
    await change_lobby(harness, group, players=3)
    await harness.join([alex], group, lobby)

    # a player at a table that is not full yet is told who may start it
    answer = await tap(tg, alex, lobby, data_of(tg, lobby, "▶️ Start"))
    assert answer.text == NOT_STARTER
    # an admin may start, so they hear the real reason it cannot start yet
    answer = await tap(tg, olya, lobby, data_of(tg, lobby, "▶️ Start"))
    assert answer.text == (
        "Only 2 of 3 seats are taken. Wait for more players or add a computer player."
    )
    await tg.press_button(masha, lobby, "🤖 Add computer")
    await tg.wait_for(lambda: "Players 3/3" in (lobby_now(tg, lobby).text or ""))
    answer = await tap(tg, olya, lobby, data_of(tg, lobby, "▶️ Start"))
    assert answer.text == "The match has started — good luck!"
    await tg.wait_for_message(group, "Order of play: 1. Masha → 2. Alex → 3. 🤖 Petrovich")


async def test_kick_by_seat_number_or_reply(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex, petya = tg.user(451, "Masha"), tg.user(452, "Alex"), tg.user(453, "Petya")
    group = tg.group(-851, "Yard")
    await tg.send_text(alex, tg.private(alex), "/start")
    lobby = await open_lobby(harness, masha, group)
    await change_lobby(harness, group, players=3)

    # a computer added by mistake: /kick and the number the lobby shows
    await tg.send_text(masha, group, "/addbot")
    await tg.wait_for(
        lambda: "Players 2/3: 1. Masha, 2. 🤖 Galya · normal\n" in (lobby_now(tg, lobby).text or "")
    )
    await tg.send_text(masha, group, "/kick 2")
    await tg.wait_for_message(group, "🚪 Masha removed 🤖 Galya from the table.")
    assert "Players 1/3: 1. Masha\n" in (lobby_now(tg, lobby).text or "")
    await tg.send_text(masha, group, "/kick 3")
    await tg.wait_for_message(group, "There is no seat 3 at this table.")
    # someone who is not seated: the answer names them
    said = await tg.send_text(petya, group, "I only watch")
    await tg.send_text(masha, group, "/kick", reply_to=int(said["message_id"]))
    await tg.wait_for_message(group, "Petya is not at this table.")
    await tg.send_text(masha, group, "/kick")
    await tg.wait_for_message(group, "or send /kick with their seat number")
    # a digit no seat is numbered with (a superscript two) is no number either
    await tg.send_text(masha, group, "/kick ²")
    how = "or send /kick with their seat number"
    await tg.wait_for(lambda: count(harness.group_texts(group), how) == 2)

    # during a match: Alex joined by button and never spoke; his number takes him off
    await harness.join([alex], group, lobby)
    await tg.send_text(masha, group, "/addbot")
    await tg.wait_for(lambda: "Players 3/3" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play: 1. Masha → 2. Alex → 3. 🤖 Petrovich")
    await tg.send_text(masha, group, "/kick 3")
    await tg.wait_for_message(group, "The computer already plays seat 3.")
    await tg.send_text(masha, group, "/kick 2")
    await tg.wait_for_message(
        group, "🚪 Masha removed Alex from the table: a computer player took the seat."
    )
    seats = await harness.kozel.storage.get_seats(1)
    assert [s.user_id for s in seats] == [masha.id, None, None]


# --- cancelling --------------------------------------------------------------------------------


async def test_cancelling_a_match_stops_its_timers_and_closes_the_hands(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(461, "Masha"), tg.user(462, "Alex")
    group = tg.group(-861, "Yard")
    users = [masha, alex]
    await prepare(harness, users, group, turn_seconds=3, remind_before=1.5)
    on_turn, hand = await harness.next_turn(users)
    events = len(await harness.kozel.storage.load_events(1))

    def cancelled() -> int:  # the board says it; the lobby, closed at the start, is not touched
        return count(harness.group_texts(group), "The table was cancelled")

    await cancel_match(tg, masha, group)
    await tg.wait_for(lambda: not tg.message(on_turn.id, hand.message_id).buttons)
    closed = tg.message(on_turn.id, hand.message_id).text or ""
    assert closed.endswith("❌ The match in Yard was cancelled: nothing was recorded."), closed
    # the board no longer says whose turn it is, and says why
    await tg.wait_for(
        lambda: "does not go on" in (board_message(tg, group).text or ""),
        what="the board to say the match was cancelled",
    )
    board = board_message(tg, group).text or ""
    assert "▶️" not in board and "Turn:" not in board
    sent = len(tg.messages(group))
    await asyncio.sleep(3.5)  # past the reminder and the turn's deadline
    await tg.wait_idle()
    # no reminder, no move for the player, and the group was told once, by the board
    assert [m.text for m in tg.messages(group)[sent:]] == []
    assert not [m for m in tg.messages(on_turn.id) if "⏰" in (m.text or "")]
    assert cancelled() == 1
    assert len(await harness.kozel.storage.load_events(1)) == events


async def test_cancel_is_said_once_by_the_lobby(tg: FakeTelegram, harness: Harness) -> None:
    """Before, /cancel in the lobby said "The table was cancelled." twice: the lobby, edited,
    and a reply under it. The Cancel button's toast, which only the tapper sees, stays."""
    masha = tg.user(465, "Masha")
    group = tg.group(-865, "Yard")
    lobby = await open_lobby(harness, masha, group)
    await tg.send_text(masha, group, "/cancel")
    await tg.wait_for(partial(lobby_says, tg, lobby, "The table was cancelled."))
    await harness.groups_told()
    await tg.wait_idle()
    assert count(harness.group_texts(group), "The table was cancelled.") == 1
    lobby = await open_lobby(harness, masha, group)
    button = tg.message(group, lobby.message_id).find_button("✖️ Cancel")
    assert button is not None
    toast = await tap(tg, masha, lobby, str(button["callback_data"]))
    assert toast.text == "The table was cancelled."
    await tg.wait_for(partial(lobby_says, tg, lobby, "The table was cancelled."))
    await harness.groups_told()
    assert count(harness.group_texts(group), "The table was cancelled.") == 2  # one a lobby


async def test_refusals_in_the_lobby_say_what_to_do_next(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, "The table is full." and "You are not at this table." left a person with no
    next step; they stay toasts (60 characters at most), not alerts to dismiss."""
    masha, alex, olya = tg.user(466, "Masha"), tg.user(467, "Alex"), tg.user(468, "Olya")
    group = tg.group(-866, "Yard")
    for user in (alex, olya):
        await tg.send_text(user, tg.private(user), "/start")
    lobby = await open_lobby(harness, masha, group)
    leave = await tap(tg, alex, lobby, data_of(tg, lobby, "🚪 Leave"))
    assert (leave.text, leave.show_alert) == (
        "You are not at this table: tap ✋ Join to take a seat.",
        False,
    )
    await change_lobby(harness, group, players=2)
    await harness.join([alex], group, lobby)
    full = await tap(tg, olya, lobby, data_of(tg, lobby, "✋ Join"))
    assert (full.text, full.show_alert) == (
        "The table is full: wait for a free seat, or the next table.",
        False,
    )
    gone = await tap(tg, olya, lobby, data_of(tg, lobby, "🚪 Leave"))
    assert gone.text == "You are not at this table, and it is full: wait for a seat."
    added = await tap(tg, masha, lobby, data_of(tg, lobby, "🤖 Add computer"))
    assert (added.text, added.show_alert) == ("The table is full: tap ▶️ Start to deal.", False)
    await tap(tg, masha, lobby, data_of(tg, lobby, "▶️ Start"))
    await tg.send_text(olya, group, "/leave")
    await tg.wait_for_message(group, "You are not in this match: join the next one when it ends.")


async def test_computers_alone_cannot_play_a_match(tg: FakeTelegram, harness: Harness) -> None:
    ghost = tg.user(471, "Ghost")  # never pressed Start in the bot's DM, so not seated
    group = tg.group(-871, "Yard")
    await tg.send_text(ghost, group, "/new")
    lobby = await tg.wait_for_message(group, "new table")
    await tg.wait_for_message(group, "I cannot write to you yet")
    await change_lobby(harness, group, players=2)
    for seated in (1, 2):
        await tg.send_text(ghost, group, "/addbot")
        await tg.wait_for(partial(lobby_says, tg, lobby, f"Players {seated}/2"))

    answer = await tap(tg, ghost, lobby, data_of(tg, lobby, "▶️ Start"))
    assert answer.text == "A match needs at least one person at the table: join it first."
    await tg.wait_idle()
    assert lobby_now(tg, lobby).find_button("▶️ Start") is not None
    table = await harness.kozel.storage.get_table(1)
    assert table is not None and table.status == "lobby"
    assert await harness.kozel.storage.load_events(1) == []


async def test_computer_players_are_named_in_the_tables_language(
    tg: FakeTelegram, harness: Harness
) -> None:
    oksana = tg.user(481, "Оксана", language_code="uk")
    group = tg.group(-881, "Двір", creator=oksana)
    lobby = await open_lobby(harness, oksana, group)
    await tg.send_text(oksana, group, "/addbot")
    await tg.wait_for(partial(lobby_says, tg, lobby, "1. Оксана, 2. 🤖 Галя · звичайний\n"))

    await tg.send_text(oksana, group, "/language")
    prompt = await tg.wait_for_message(group, lambda m: bool(m.find_button("🇬🇧 English")))
    await tg.press_button(oksana, prompt, "🇬🇧 English")
    await tg.wait_for(partial(lobby_says, tg, lobby, "1. Оксана, 2. 🤖 Galya · normal\n"))


async def test_an_admin_who_writes_anonymously_manages_the_table_and_the_language(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An admin who writes anonymously writes in the group's name: Telegram sends his message
    from the group itself (``sender_chat``), with a stand-in ``from``, GroupAnonymousBot, that
    is nobody's admin; so /addbot, /kick, /language and /cancel were refused to him."""
    masha, alex, olya = tg.user(497, "Masha"), tg.user(498, "Alex"), tg.user(499, "Olya")
    group = tg.group(-897, "Yard", "supergroup", admins=[olya])
    await tg.send_text(alex, tg.private(alex), "/start")
    lobby = await open_lobby(harness, masha, group)
    await harness.join([alex], group, lobby)

    await tg.send_text(olya, group, "/addbot", anonymous=True)
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 3/4"))
    await tg.send_text(olya, group, "/kick 2", anonymous=True)
    await tg.wait_for_message(group, "🚪 An admin removed Alex from the table.")
    # Alex hears it in his DM, where he was told he had joined
    await tg.wait_for_message(alex, "You were removed from the table in Yard.")
    await tg.send_text(olya, group, "/language", anonymous=True)
    await tg.wait_for_message(group, "Choose the language of this group:")
    await tg.send_text(olya, group, "/cancel", anonymous=True)
    await tg.wait_for_message(group, "The table was cancelled.")
    assert not any(
        "Only" in (m.text or "") for m in tg.messages(group) if m.from_bot
    )  # no refusal on the way


async def test_an_admin_who_writes_anonymously_is_asked_to_sit_down_as_himself(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A seat is a person's: /new and /join sent in the group's name (an anonymous admin) would
    seat the stand-in GroupAnonymousBot, a player called "Group" whose hand nobody can get."""
    olya, masha = tg.user(481, "Olya"), tg.user(482, "Masha")
    group = tg.group(-881, "Yard", "supergroup", admins=[olya])
    await tg.send_text(olya, tg.private(olya), "/start")
    await tg.send_text(olya, group, "/new", anonymous=True)
    refusal = await tg.wait_for_message(group, lambda m: m.from_bot)
    assert refusal.text == ANONYMOUS
    assert not any(m.buttons for m in tg.messages(group))  # no lobby was opened

    lobby = await open_lobby(harness, masha, group)
    await tg.send_text(olya, group, "/join", anonymous=True)
    await tg.wait_for_message(group, ANONYMOUS)
    await tg.wait_idle()
    assert "Players 1/4" in (lobby_now(tg, lobby).text or "")


async def test_someone_who_writes_as_a_channel_is_asked_to_sit_down_as_himself(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Someone who writes as one of his channels (a public group's "Send as") was told that
    he wrote "in the group's name"."""
    masha, petya = tg.user(483, "Masha"), tg.user(484, "Petya")
    group = tg.group(-883, "Yard", "supergroup")
    news = FakeChat(-1_000_000_000_883, "channel", title="Petya's <news>")
    lobby = await open_lobby(harness, masha, group)
    for command in ("/new", "/join"):
        await tg.send_text(petya, group, command, as_channel=news)
    asked = "You write as Petya's <news>: to sit at the table, write as yourself."
    await tg.wait_for(lambda: count(harness.group_texts(group), asked) == 2)
    assert "Players 1/4" in (lobby_now(tg, lobby).text or "")


async def test_stats_asked_in_a_groups_or_a_channels_name_says_whose_it_cannot_tell(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/stats sent in the group's name (an anonymous admin) or as a channel answered for the
    stand-in ``from``: "Group, you have not finished a match yet.", "Channel, ..."."""
    olya, petya = tg.user(485, "Olya"), tg.user(486, "Petya")
    group = tg.group(-885, "Yard", "supergroup", admins=[olya])
    news = FakeChat(-1_000_000_000_885, "channel", title="Petya's <news>")
    await tg.send_text(olya, group, "/stats", anonymous=True)
    await tg.wait_for_message(
        group,
        "You write in the group's name, so I cannot tell whose record to show: "
        "ask as yourself, or in a private chat with me.",
    )
    await tg.send_text(petya, group, "/stats", as_channel=news)
    await tg.wait_for_message(
        group,
        "You write as Petya's <news>, so I cannot tell whose record to show: "
        "ask as yourself, or in a private chat with me.",
    )
    assert not any("you have not finished" in text for text in harness.group_texts(group))


# --- help, menus and old links -----------------------------------------------------------------


async def test_stats_is_in_the_group_menu_and_an_old_join_link_says_the_table_closed(
    tg: FakeTelegram, harness: Harness
) -> None:
    for lang in ("", "en", "ru", "uk"):
        assert "stats" in tg.command_names("all_group_chats", lang)

    masha, alex = tg.user(491, "Masha"), tg.user(492, "Alex")
    group = tg.group(-891, "Yard")
    await open_lobby(harness, masha, group)
    await tg.send_text(masha, group, "/cancel")
    await tg.wait_for_message(group, "The table was cancelled.")
    # Alex follows the join link of that table in his DM after all
    await tg.send_text(alex, tg.private(alex), "/start join-1")
    closed = await tg.wait_for_message(alex, lambda m: m.from_bot)
    assert closed.text == (
        "That table is no longer open to join. When the group opens a new one, join it there."
    )


async def test_someone_sent_to_start_the_bot_is_told_to_tap_join_again(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Nikita taps Join before he ever started the bot, is sent to its chat, and presses Start
    there (not by the link, which would seat him): the welcome told him only to add the bot
    to a group and send /new, not that Join, under the table that waits for him, now works."""
    masha, nikita = tg.user(497, "Masha"), tg.user(498, "Nikita")
    group = tg.group(-897, "Yard")
    lobby = await open_lobby(harness, masha, group)
    sent = await tap(tg, nikita, lobby, data_of(tg, lobby, "✋ Join"))
    assert sent.url is not None and "start=join-1" in sent.url
    await tg.send_text(nikita, tg.private(nikita), "/start")
    welcome = await tg.wait_for_message(nikita, "Hi, Nikita!")
    assert "tap Join under a table opened in your group" in (welcome.text or "")
    joined = await tap(tg, nikita, lobby, data_of(tg, lobby, "✋ Join"))
    assert joined.text == "You are in! Your tiles will come in a private chat."


async def test_the_private_menu_says_rules_takes_a_games_name(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The private chat's menu offered /rules as "the rules of this table", where there is no
    table: it shows any game's rules, named after the command."""
    names = {"en": "its name", "ru": "её название", "uk": "її назва"}
    for lang, name in names.items():
        menu = {c["command"]: c["description"] for c in tg.commands[("all_private_chats", lang)]}
        assert name in menu["rules"], menu["rules"]
    masha = tg.user(499, "Masha")
    await tg.send_text(masha, tg.private(masha), "/rules muggins")
    await tg.wait_for_message(masha, "📜 Muggins: the usual rules")


async def test_the_menu_says_that_leave_during_a_match_hands_the_seat_to_a_computer(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/leave works during a match too: a computer plays the seat on. The command menu said
    "leave the table before the deal", in every language."""
    masha, alex = tg.user(495, "Masha"), tg.user(496, "Alex")
    group = tg.group(-895, "Yard")
    await prepare(harness, [masha, alex], group, computers=1)
    await tg.send_text(alex, group, "/leave")
    await tg.wait_for_message(group, "🚪 Alex left the table: a computer player took the seat.")
    menus = {lang: tg.commands[("all_group_chats", lang)] for lang in ("en", "ru", "uk")}
    leave = {
        lang: next(c["description"] for c in menu if c["command"] == "leave")
        for lang, menu in menus.items()
    }
    for lang, computer in {"en": "computer", "ru": "компьютер", "uk": "комп’ютер"}.items():
        assert computer in leave[lang], leave[lang]


async def test_flood_control_on_the_menus_at_start_up_is_waited_out(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Telegram answered a menu's registration at start-up with 429, and the bot did not start:
    the menus went to Telegram past the ``Sender``, which waits as long as Telegram asks."""
    tg.inject_flood(method="setMyCommands", chat_id=None, retry_after=1, times=2)
    harness = Harness(tg, tmp_path / "kozel.sqlite3")
    await harness.start()
    try:
        for lang in ("", "en", "ru", "uk"):
            assert "stats" in tg.command_names("all_group_chats", lang)
            assert "language" in tg.command_names("all_private_chats", lang)
    finally:
        await harness.stop()
    assert [call.method for call in tg.calls if call.status == 429] == ["setMyCommands"] * 2


async def test_a_lobby_under_flood_control_ends_up_as_it_is_once_the_flood_passes(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram refused the lobby's edits a while (429): the bot gave up after three tries and
    the lobby stayed as it was before the change, its buttons out of date. Now it waits as long
    as Telegram asks, each time, and then shows the lobby as it is. The tap is answered at
    once all the same: its answer waited for the lobby, the whole flood (400 s here), while the
    tapper's button spun, and Telegram refuses an answer that comes so late."""
    masha = tg.user(483, "Masha")
    group = tg.group(-883, "Yard")
    lobby = await open_lobby(harness, masha, group)
    # four refusals, more than the three tries the bot once gave up after; each of Telegram's
    # waits is 1 s here, which the answer must come well within
    tg.inject_flood(method="editMessageText", chat_id=group.id, retry_after=100, times=4)
    answer = await tap(tg, masha, lobby, data_of(tg, lobby, "🤖 Add computer"))
    assert answer.text == "A computer player took a seat."
    await harness.groups_told()
    assert lobby_says(tg, lobby, "2. 🤖 Galya")
    edits = [c for c in tg.calls_to("editMessageText") if c.params.get("chat_id") == group.id]
    assert [c.status for c in edits] == [429] * 4 + [200]
    waits = [later.time - sooner.time for sooner, later in pairwise(edits)]
    assert min(waits) >= 100, waits  # never sooner than Telegram asked
    (answered,) = tg.calls_to("answerCallbackQuery")
    assert answered.time < edits[1].time  # within the first of Telegram's waits
    assert lobby_now(tg, lobby).find_button("▶️ Start") is not None


async def test_a_lobby_redraw_the_bot_stopped_before_is_made_after_the_restart(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Alex joined while Telegram held the group's edits back, and the bot restarted before
    the lobby was redrawn: it went on without him for good. Tapping Join again said he was at
    the table, and Masha's buttons, drawn for the lobby without him, said the table had just
    changed, each time, while the lobby never changed."""
    masha, alex = tg.user(484, "Masha"), tg.user(485, "Alex")
    group = tg.group(-884, "Yard")
    await tg.send_text(alex, tg.private(alex), "/start")
    await tg.wait_for_message(alex, lambda m: m.from_bot)
    lobby = await open_lobby(harness, masha, group)
    tg.inject_flood(method="editMessageText", chat_id=group.id, retry_after=3000, times=1)
    assert (await tap(tg, alex, lobby, data_of(tg, lobby, "✋ Join"))).text == (
        "You are in! Your tiles will come in a private chat."
    )
    await harness.stop()
    assert not lobby_says(tg, lobby, "2. Alex")

    await harness.start()
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 2/4: 1. Masha, 2. Alex\n"))
    answer = await tap(tg, masha, lobby, data_of(tg, lobby, "🤖 Add computer"))
    assert answer.text == "A computer player took a seat."


async def test_join_on_a_lobby_that_kept_its_buttons_points_to_the_table_open_now(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot dies before the cancelled table's lobby loses its buttons: the table is
    cancelled all the same, and says so. A new table opens below it; the old lobby's buttons,
    kept by a client (the restart closed the lobby), say where the open table is, or that its
    match is on, not that there is none."""
    masha, alex = tg.user(481, "Masha"), tg.user(482, "Alex")
    group = tg.group(-881, "Yard")
    await tg.send_text(alex, tg.private(alex), "/start")
    await tg.wait_for_message(alex, lambda m: m.from_bot)
    old = await open_lobby(harness, masha, group)

    def killed(board: Board) -> None:
        """The lobby is not redrawn."""

    join, add = data_of(tg, old, "✋ Join"), data_of(tg, old, "🤖 Add computer")
    harness.kozel.sender.board = killed  # type: ignore[method-assign]
    await tg.send_text(masha, group, "/cancel")
    await tg.wait_idle()  # fetched, and then handled
    await harness.groups_told()
    assert (await harness.kozel.storage.get_table(1)).status == "cancelled"  # type: ignore[union-attr]
    await harness.stop()
    await harness.start()
    await tg.wait_for(partial(lobby_says, tg, old, "The table was cancelled."))
    await tg.send_text(masha, group, "/new")
    new = await tg.wait_for_message(
        group, lambda m: m.message_id > old.message_id and bool(m.buttons)
    )
    await tg.wait_idle()

    gone = (
        "This table is closed. The one open here now has its own message further down: "
        "use its buttons there."
    )
    assert (await tap(tg, alex, old, join)).text == gone
    assert (await tap(tg, masha, old, add)).text == gone
    assert "Alex" not in (lobby_now(tg, new).text or "")
    await tg.press_button(alex, new, "✋ Join")
    await tg.wait_for(partial(lobby_says, tg, new, "2. Alex"))

    await change_lobby(harness, group, players=2)
    started = await tap(tg, masha, new, data_of(tg, new, "▶️ Start"))
    assert started.text == "The match has started — good luck!"
    answer = await tap(tg, alex, old, join)
    assert answer.text == "This table is closed, and a match is being played here now."
