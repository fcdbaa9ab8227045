"""The private chat as a player lives in it: what their hand messages say once a round or the
match is over, or the table is cancelled."""

from __future__ import annotations

import re

from devtools.fake_telegram import FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import CALLBACK, Harness, cancel_match, start_match


def hands(tg: FakeTelegram, user: FakeUser) -> list[FakeMessage]:
    return [m for m in tg.messages(user) if m.from_bot and not m.deleted]


def tappable(message: FakeMessage) -> bool:
    return any(CALLBACK.match(str(b.get("callback_data", ""))) for b in message.buttons)


def saying(tg: FakeTelegram, user: FakeUser, pattern: str) -> list[FakeMessage]:
    return [m for m in hands(tg, user) if re.search(pattern, m.text or "")]


async def test_the_hands_say_when_a_round_and_the_match_are_over(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the DM never said a round or the match had ended: the last hand message there
    looked as if the round were still on, and the match's end came to the group only."""
    masha, alex = tg.user(301, "Masha"), tg.user(302, "Alex")
    group = tg.group(-301, "Yard")
    users = [masha, alex]
    await start_match(harness, users, group)
    await harness.play_match(users, group)
    await harness.groups_told()
    await tg.wait_idle()
    for user in users:
        # the match's end, in place of what their last hand message said, with no tile to tap
        over = saying(tg, user, r"The match in Yard is over: .+ Your score: \d+\.")
        assert len(over) == 1, [m.text for m in hands(tg, user)[-2:]]
        assert over[0].history, "it was said in a message of its own, not the hand's"
        assert "your hand" in (over[0].text or "").lower()
        assert not any(tappable(m) for m in hands(tg, user))
        # and the first round's end, in the hand each held then
        went_out = r"(you went out!|Masha went out\.|Alex went out\.|fish!)"
        first = saying(tg, user, r"Round 1 is over: " + went_out)
        assert len(first) == 1 and first[0].history
    texts = [(m.text or "") for user in users for m in hands(tg, user)]
    goat = next(text for text in harness.group_texts(group) if "is the goat!" in text)
    name = re.search(r"🐐 (\w+) is the goat!", goat)
    assert name is not None
    loser = masha if name.group(1) == "Masha" else alex
    assert any("you are the goat!" in (m.text or "") for m in hands(tg, loser)), texts


async def test_a_cancelled_match_is_said_in_each_hand(tg: FakeTelegram, harness: Harness) -> None:
    """Before, /cancel turned only the live keyboard into "The table was cancelled." (of which
    table?), and the others' hands said nothing."""
    masha, alex = tg.user(311, "Masha"), tg.user(312, "Alex")
    group = tg.group(-311, "Yard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users)
    await harness.play_turn(user, hand)
    await harness.next_turn(users, harness.version_of(hand))
    await cancel_match(tg, masha, group)
    for user in users:
        said = r"The match in Yard was cancelled: nothing was recorded\."
        await tg.wait_for(lambda: saying(tg, user, said), what=f"{user.first_name} told")  # noqa: B023
        assert len(saying(tg, user, said)) == 1
        assert "your hand" in (saying(tg, user, said)[0].text or "").lower()
        assert not any(tappable(m) for m in hands(tg, user))


async def test_help_in_the_private_chat_speaks_to_it(tg: FakeTelegram, harness: Harness) -> None:
    """Before, /help in the DM was the group's: "/new — open a table in this group", and
    commands that only work in a group."""
    masha = tg.user(321, "Masha")
    group = tg.group(-321, "Yard")
    await tg.send_text(masha, masha, "/help")
    dm = (await tg.wait_for_message(masha, "To play")).text or ""
    assert "add me to a group and send /new there" in dm
    assert "/stats" in dm and "/rules" in dm
    assert "/language — the language I write to you in" in dm
    assert "in this group" not in dm and "/kick" not in dm and "/standings" not in dm
    await tg.send_text(masha, group, "/help")
    assert "/new — open a table in this group" in (
        (await tg.wait_for_message(group, "/kick")).text or ""
    )


async def test_a_message_in_the_private_chat_gets_a_hint_now_and_then(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, a message to the bot in the DM got no answer at all; a chatty person must not
    get one for each message, and a group none for its chat."""
    masha = tg.user(331, "Masha")
    group = tg.group(-331, "Yard")
    await tg.send_text(masha, masha, "/start")
    await tg.wait_for_message(masha, "Hi, ")
    await tg.send_text(masha, masha, "hello?")
    hint = await tg.wait_for_message(masha, "I only understand commands and buttons")
    assert "/help" in (hint.text or "")
    await tg.send_text(masha, masha, "how do I play?")
    await tg.send_text(masha, masha, "/nonsense")
    await tg.send_text(masha, group, f"@{tg.bot_username} hi all")
    await tg.send_text(masha, masha, "/stats")
    await tg.wait_for_message(masha, "not finished a match")  # after the messages before it
    await tg.wait_idle()
    assert len(saying(tg, masha, "I only understand commands")) == 1
    assert harness.group_texts(group) == []
