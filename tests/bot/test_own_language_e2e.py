"""A person's own language, chosen with /language in the DM: before, whatever the bot wrote to
a person alone spoke their Telegram app's language, and a Ukrainian whose phone is set to
English could not choose. What the groups read stays in each group's language."""

from __future__ import annotations

import re

from devtools.fake_telegram import CallbackAnswer, FakeChat, FakeTelegram, FakeUser
from tests.bot.harness import Harness, board_message, tap, texts_seen
from tests.bot.test_lobby_e2e import data_of, lobby_now, open_lobby
from tests.bot.test_table_life_e2e import change_lobby

CHOOSE = "Choose the language I write to you in"
UKRAINIAN = "🇺🇦 Українська"
CHOSEN_UK = "Писатиму тобі українською."
#: What the hand of a player on turn says, in Ukrainian and in English.
HAND_UK, HAND_EN = "🎯 Твій хід", "🎯 Your turn"


async def choose(tg: FakeTelegram, user: FakeUser, prompt: str, button: str, said: str) -> None:
    """``user`` sends /language in the DM and taps ``button`` under the bot's ``prompt``,
    which then says ``said``."""
    await tg.send_text(user, tg.private(user), "/language")
    asked = await tg.wait_for_message(user, prompt)
    await tg.press_button(user, asked, button)
    await tg.wait_for(lambda: tg.message(user, asked.message_id).text == said)


def dm_menu(tg: FakeTelegram, user: FakeUser) -> dict[str, str]:
    """The command menu set for the user's DM alone (none: the one for every DM, in their
    app's language), each command with its description."""
    commands = tg.commands.get((f"chat:{user.id}", ""), [])
    return {str(c["command"]): str(c["description"]) for c in commands}


async def seat_and_start(
    harness: Harness, opener: FakeUser, joiner: FakeUser, group: FakeChat
) -> CallbackAnswer:
    """``opener`` opens a table for two, ``joiner`` taps Join, the match starts; the answer to
    the joiner's tap is returned (a pop-up in the group, which only they see)."""
    tg = harness.tg
    lobby = await open_lobby(harness, opener, group)
    await change_lobby(harness, group, players=2)
    joined = await tap(tg, joiner, lobby, data_of(tg, lobby, "✋ Join"))
    await tg.wait_for(lambda: joiner.first_name in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(opener, lobby, "▶️ Start")
    await tg.wait_for(lambda: board_message(tg, group))
    return joined


async def test_a_person_who_chose_ukrainian_is_written_to_in_it_and_the_group_stays_english(
    tg: FakeTelegram, harness: Harness
) -> None:
    oksana, masha = tg.user(1201, "Оксана"), tg.user(1202, "Masha")  # both phones in English
    group = tg.group(-1201, "Yard")
    users = [masha, oksana]
    await tg.send_text(oksana, tg.private(oksana), "/start")
    await tg.wait_for_message(oksana, "Hi, ")
    await tg.send_text(oksana, tg.private(oksana), "/language")
    prompt = await tg.wait_for_message(oksana, CHOOSE)
    offered = [str(b["text"]) for b in prompt.buttons]
    assert offered == ["🇬🇧 English", "🇷🇺 Русский", UKRAINIAN, "✅ 📱 As in my Telegram"]
    await tg.press_button(oksana, prompt, UKRAINIAN)
    await tg.wait_for(lambda: tg.message(oksana, prompt.message_id).text == CHOSEN_UK)
    # the "/" menu of her DM describes the commands in Ukrainian
    await tg.wait_for(
        lambda: dm_menu(tg, oksana).get("language") == "обрати мову, якою я пишу тобі"
    )

    joined = await seat_and_start(harness, masha, oksana, group)
    # her tap's pop-up in the English group, which only she sees, speaks Ukrainian
    assert joined.text == "Ти в грі! Камені прийдуть в особистий чат."
    assert (board_message(tg, group).text or "").startswith("🎲 Kozel · round 1")
    hand, _ = await harness.play_until_turn_of(oksana, users)
    assert HAND_UK in (hand.text or "")
    # Masha's own DM stays English
    assert any(re.search("Your turn|your hand", text) for text in texts_seen(tg, masha))
    assert not any(re.search("Твій хід|твої камені", text) for text in texts_seen(tg, masha))
    await tg.send_text(oksana, tg.private(oksana), "/help")
    helped = await tg.wait_for_message(oksana, "Тут")
    assert "/language — мова, якою я пишу тобі" in (helped.text or "")

    # following her Telegram again: back to English, the hand she is on turn with at once
    back = "Back to your Telegram's language. I'll write to you in English."
    await choose(tg, oksana, "Обери мову, якою я пишу тобі", "📱 Як у моєму Телеграмі", back)
    await tg.wait_for(lambda: HAND_EN in (tg.message(oksana, hand.message_id).text or ""))
    await tg.wait_for(lambda: dm_menu(tg, oksana) == {})  # the app's menu again
    await harness.groups_told()
    assert all("Твій" not in text for text in texts_seen(tg, group))


async def test_flood_control_on_the_dm_s_menu_is_waited_out(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram answered the DM's menu in the language chosen with 429, and the menu stayed in
    the app's language: it went to Telegram past the ``Sender``, which waits as it asks."""
    oksana = tg.user(1241, "Оксана")
    await tg.send_text(oksana, tg.private(oksana), "/start")
    await tg.wait_for_message(oksana, "Hi, ")
    tg.inject_flood(method="setMyCommands", chat_id=None, retry_after=1, times=1)
    await choose(tg, oksana, CHOOSE, UKRAINIAN, CHOSEN_UK)
    await tg.wait_for(
        lambda: dm_menu(tg, oksana).get("language") == "обрати мову, якою я пишу тобі"
    )
    assert [call.method for call in tg.calls if call.status == 429] == ["setMyCommands"]


async def test_the_dm_language_buttons_mark_the_choice_in_effect(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Nothing said which of the DM's languages was in effect: now its button is marked, the
    Telegram app's while the person chose none."""
    oksana = tg.user(1231, "Оксана")
    await tg.send_text(oksana, tg.private(oksana), "/start")
    await tg.wait_for_message(oksana, "Hi, ")
    await tg.send_text(oksana, tg.private(oksana), "/language")
    prompt = await tg.wait_for_message(oksana, CHOOSE)
    languages = ["🇬🇧 English", "🇷🇺 Русский", UKRAINIAN]
    assert prompt.button_texts == [languages, ["✅ 📱 As in my Telegram"]]
    await tg.press_button(oksana, prompt, UKRAINIAN)
    await tg.wait_for(lambda: tg.message(oksana, prompt.message_id).text == CHOSEN_UK)
    assert tg.message(oksana, prompt.message_id).buttons == []  # the choice made, it says so

    await tg.send_text(oksana, tg.private(oksana), "/language")
    again = await tg.wait_for_message(oksana, "Обери мову, якою я пишу тобі")
    marked = ["🇬🇧 English", "🇷🇺 Русский", "✅ " + UKRAINIAN]
    assert again.button_texts == [marked, ["📱 Як у моєму Телеграмі"]]


async def test_the_chosen_language_survives_a_restart(tg: FakeTelegram, harness: Harness) -> None:
    """The choice is kept with the person, not in the bot's memory: after a restart their
    DM and the hands of the match in progress still speak it."""
    oksana, masha = tg.user(1211, "Оксана"), tg.user(1212, "Masha")
    group = tg.group(-1211, "Yard")
    users = [masha, oksana]
    await tg.send_text(oksana, tg.private(oksana), "/start")
    await tg.wait_for_message(oksana, "Hi, ")
    await choose(tg, oksana, CHOOSE, UKRAINIAN, CHOSEN_UK)
    await seat_and_start(harness, masha, oksana, group)
    await harness.groups_told()
    await harness.stop()

    async with harness.restarted() as restarted:
        before = max(m.message_id for m in tg.messages(oksana))
        hand, _ = await restarted.play_until_turn_of(oksana, users)
        await restarted.play_turn(oksana, hand)
        hand, _ = await restarted.play_until_turn_of(oksana, users)
        assert hand.message_id > before, "a hand sent after the restart"
        assert HAND_UK in (hand.text or "")
        await tg.send_text(oksana, tg.private(oksana), "/stats")
        await tg.wait_for_message(oksana, "у тебе ще немає жодного завершеного матчу")


async def test_following_the_telegram_app_is_offered_in_the_dm_only(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A group's language is its admins' choice and no app's: the DM's "follow my Telegram",
    forged onto the group's /language buttons, changes nothing."""
    olya = tg.user(1221, "Olya", language_code="ru")
    group = tg.group(-1221, "Двор", admins=[olya])
    await tg.send_text(olya, group, "/language")
    prompt = await tg.wait_for_message(group, "Выбери язык этой группы:")
    assert "📱" not in " ".join(str(b["text"]) for b in prompt.buttons)
    forged = data_of(tg, prompt, "🇬🇧 English").rsplit(":", 1)[0] + ":app"
    refused = await tap(tg, olya, prompt, forged)
    assert refused.text == "Эта кнопка здесь не работает."
    await tg.wait_idle()
    assert tg.message(group, prompt.message_id).text == "Выбери язык этой группы:"
