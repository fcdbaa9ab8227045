"""What real Telegram does to a group mid-match: the bot removed or muted, messages deleted by
people, accounts deleted, flood control at the worst moments, names as long as Telegram allows.
"""

from __future__ import annotations

import pytest
from telegram.constants import MessageLimit

from bot.sender import RETRIES
from devtools.fake_telegram import FakeChat, FakeTelegram, FakeUser, utf16_len
from tests.bot.harness import Harness, board_message, start_match
from tests.bot.test_resilience_e2e import round_results, started_under_flood
from tests.bot.test_table_life_e2e import change_lobby, lobby_says, prepare

REMOVED = "🚪 The table in <b>Yard</b> ended: the bot was removed from the group."
MUTED = "🔇 The table in <b>Yard</b> ended: the bot may no longer write in the group."


def told(tg: FakeTelegram, user: FakeUser, text: str) -> bool:
    return any(text in (m.raw_text or "") for m in tg.messages(user))


async def match_of_two(
    harness: Harness, n: int, *, supergroup: bool = False
) -> tuple[FakeUser, FakeUser, FakeChat]:
    """Masha (the group's creator) and Alex at a match in the group "Yard"."""
    tg = harness.tg
    masha, alex = tg.user(n, "Masha"), tg.user(n + 1, "Alex")
    if supergroup:
        group = tg.group(-1_000_000_000_000 - n, "Yard", "supergroup", creator=masha)
    else:
        group = tg.group(-n, "Yard", creator=masha)
    await start_match(harness, [masha, alex], group)
    return masha, alex, group


async def ended_for_everyone(
    harness: Harness, group: FakeChat, users: list[FakeUser], text: str
) -> None:
    """Every player heard why in a DM, no keyboard is left to tap, the table is gone with
    nothing recorded, and no timer plays on."""
    tg = harness.tg
    for user in users:
        await tg.wait_for(lambda: told(tg, user, text), what=f"{user.first_name} told")  # noqa: B023
    await tg.wait_idle()
    k = harness.kozel
    assert await k.storage.get_active_table(group.id) is None
    assert await k.storage.chat_standings(group.id) == []
    assert all(harness.live_hand(user) is None for user in users)
    assert not k.scheduler._tasks


async def test_a_group_that_removes_the_bot_mid_match_ends_its_table(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the match went on in the DMs for nobody in the group: every board and result
    was refused, and the turn timers kept the computers playing."""
    masha, alex = tg.user(901, "Masha"), tg.user(902, "Alex")
    group = tg.group(-901, "Yard", creator=masha)
    await start_match(harness, [masha, alex], group, computers=1)
    await harness.next_turn([masha, alex])

    await tg.remove_bot(group, masha)
    await ended_for_everyone(harness, group, [masha, alex], REMOVED)

    # added back, the group opens a new table as if nothing happened
    await tg.add_bot(group, masha)
    lobby = await harness.open_table(alex, group)
    assert "(opened by Alex)" in (lobby.text or "")


async def test_a_removal_the_bot_was_not_told_of_ends_the_table_at_its_next_message(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The ``my_chat_member`` update may be lost (the bot was down): the next board refused
    with "bot was kicked from the group chat" ends the table the same way, and nothing more
    is sent there."""
    masha, alex, group = await match_of_two(harness, 903)
    user, hand = await harness.next_turn([masha, alex])

    tg.kick_bot(group)
    await harness.play_turn(user, hand, shown=False)
    await ended_for_everyone(harness, group, [masha, alex], REMOVED)
    kicked = [c for c in tg.failed_calls() if "kicked" in (c.error or "")]
    assert len(kicked) == 1


async def test_a_group_that_takes_the_bots_right_to_write_ends_its_table(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Edits still go through, so the board moved on, but a round's result could never be
    posted: the first new message refused ("not enough rights to send text messages") ends
    the table and tells the players why."""
    masha, alex, group = await match_of_two(harness, 905)

    tg.mute_bot(group)
    await tg.send_text(alex, group, "/standings")  # its answer is the first new message
    await ended_for_everyone(harness, group, [masha, alex], MUTED)
    assert board_message(tg, group)  # what was shown stays


async def test_a_supergroup_that_restricts_the_bot_ends_its_table_at_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Told by ``my_chat_member`` (restricted, may not send messages), the table ends before
    anyone plays on for results that could never be posted."""
    masha, alex, group = await match_of_two(harness, 933, supergroup=True)
    await tg.restrict_bot(group, masha)
    await ended_for_everyone(harness, group, [masha, alex], MUTED)
    assert tg.failed_calls() == []


async def test_a_renamed_group_is_called_by_its_new_name(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the bot noted a group's name at /new only: whoever joined after a rename was
    told of a table "in" the old name, and /stats listed its matches under it for good."""
    masha, alex = tg.user(971, "Masha"), tg.user(972, "Alex")
    group = tg.group(-971, "Yard", creator=masha)
    for user in (masha, alex):
        await tg.send_text(user, user, "/start")
    lobby = await harness.open_table(masha, group)
    await tg.rename_group(group, "Yard & <Garages>", by=masha)
    await harness.join([alex], group, lobby)
    joined = "You have joined the table in <b>Yard &amp; &lt;Garages&gt;</b>."
    await tg.wait_for(lambda: told(tg, alex, joined), what="Alex told the group's new name")
    # and the hands, which say which group they are for, go by it
    await change_lobby(harness, group, players=2)
    await tg.press_button(masha, lobby, "▶️ Start")
    _, hand = await harness.next_turn([masha, alex])
    assert (hand.text or "").splitlines()[0].endswith(" · Yard & <Garages>")


async def test_a_board_an_admin_deleted_comes_back_as_a_new_message(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, group = await match_of_two(harness, 907)
    await tg.wait_idle()
    old = board_message(tg, group)
    old.deleted = True
    user, hand = await harness.next_turn([masha, alex])
    await harness.play_turn(user, hand)
    played = f"{user.first_name} played ["
    await tg.wait_for(lambda: played in (board_message(tg, group).text or ""))
    new = board_message(tg, group)
    assert new.message_id != old.message_id
    # and the next move edits the new board in place
    user, hand = await harness.next_turn([masha, alex], harness.version_of(hand))
    await harness.play_turn(user, hand)
    await tg.wait_for(lambda: tg.message(group, new.message_id).edited >= 1)
    assert board_message(tg, group).message_id == new.message_id


CANCELLED = "The table was cancelled."


def live_texts(tg: FakeTelegram, group: FakeChat) -> list[str]:
    """The bot's messages the group can still read."""
    return [m.text or "" for m in tg.messages(group, include_deleted=False)]


async def test_cancelling_a_table_whose_lobby_was_deleted_says_so_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Someone deleted the lobby message, then the opener sent /cancel: the group read "The
    table was cancelled." twice, the reply and the lobby posted anew only to say it."""
    masha = tg.user(915, "Masha")
    group = tg.group(-915, "Yard", creator=masha)
    lobby = await harness.open_table(masha, group)
    await tg.wait_idle()
    lobby.deleted = True
    await tg.send_text(masha, group, "/cancel")
    await tg.wait_for_message(group, CANCELLED)
    await harness.groups_told()
    await tg.wait_idle()
    assert live_texts(tg, group).count(CANCELLED) == 1


async def test_a_match_started_as_its_lobby_was_deleted_posts_no_lobby_again(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The lobby message was deleted while the start's edit of it waited out flood control:
    the bot posted a new message only to say that the match had started, under the board's
    way."""
    lobby = await started_under_flood(tg, harness, 917, retry_after=200)
    group = lobby.chat
    lobby.deleted = True  # before Telegram lets the edit through
    await tg.wait_for(lambda: board_message(tg, group), timeout=10.0)
    await harness.groups_told()
    await tg.wait_idle()
    assert not any("The match has started" in text for text in live_texts(tg, group))


async def test_an_open_lobby_that_was_deleted_comes_back_when_someone_joins(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An open table blocks /new where it is, and its buttons are the way in: a lobby whose
    message was deleted comes back as a new message when it changes, with whoever joined."""
    masha, alex = tg.user(919, "Masha"), tg.user(920, "Alex")
    group = tg.group(-919, "Yard", creator=masha)
    for user in (masha, alex):
        await tg.send_text(user, user, "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(masha, group)
    await tg.wait_idle()
    lobby.deleted = True
    await tg.send_text(alex, group, "/join")
    again = await tg.wait_for_message(group, "2. Alex")
    assert again.message_id != lobby.message_id and again.find_button("✋ Join") is not None


async def test_a_player_who_deleted_their_live_hand_gets_it_back(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex, _ = await match_of_two(harness, 909)
    user, hand = await harness.next_turn([masha, alex])
    hand.deleted = True
    await tg.send_text(user, tg.private(user), "/start")
    await tg.wait_idle()
    again = harness.live_hand(user)
    assert again is not None and again.message_id != hand.message_id
    await harness.play_turn(user, again)


async def test_a_player_whose_live_hand_was_deleted_gets_it_back_with_the_reminder(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(911, "Masha"), tg.user(912, "Alex")
    group = tg.group(-911, "Yard", creator=masha)
    await prepare(harness, [masha, alex], group, turn_seconds=3)
    user, hand = await harness.next_turn([masha, alex])
    hand.deleted = True
    await tg.wait_for_message(user, "⏰ Your move in Yard!", timeout=4.0)
    again = harness.live_hand(user)
    assert again is not None and again.message_id != hand.message_id
    assert again.message_id < tg.last_message(user).message_id  # the reminder comes last


async def test_flood_control_on_every_result_never_skips_one(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram answers each round's result, and the goat, with 429 as many times as the bot
    retries a call: before, the result was given up, said nowhere else, and marked as told;
    now every result and the goat come, in order."""
    masha, alex = tg.user(913, "Masha"), tg.user(914, "Alex")
    group = tg.group(-913, "Yard", creator=masha)
    users = [masha, alex]
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
    lobby = await harness.open_table(masha, group)
    await change_lobby(harness, group, players=2, goat_limit=30)
    await harness.join([alex], group, lobby)
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for(lambda: board_message(tg, group))
    flooded = 0

    def flood_the_next_result() -> bool:
        """Once the group saw everything so far, the next new message is a result."""
        nonlocal flooded
        if harness.match_over(group):
            return True
        told = len(round_results(harness, group))
        if told >= flooded and harness.kozel.sender.idle:
            flooded = told + 1
            # the result's tries, and as many for what follows it: the goat, or the next board
            tg.inject_flood("sendMessage", group, retry_after=1, times=2 * RETRIES)
        return False

    await harness.play_until(users, flood_the_next_result)
    await harness.groups_told()
    results = round_results(harness, group)
    assert [r.split(":")[0].split()[-1] for r in results] == [
        str(n) for n in range(1, len(results) + 1)
    ]
    assert harness.group_texts(group)[-1].startswith("🐐")
    refused = {str(c.params.get("text")) for c in tg.failed_calls() if c.status == 429}
    refused_results = {r for r in refused if r.startswith(("🏁", "🐟", "🥚", "🐐"))}
    assert refused_results  # the floods hit results, and each came all the same
    assert refused_results <= {m.raw_text for m in tg.messages(group)}


@pytest.mark.parametrize(
    ("first", "last"),
    [
        ("Александра-Елизавета" * 4, "Константинопольская" * 4),
        # what Telegram counts is the text read, not its HTML: "&" is one character, not five
        ("&<>" * 22, "<&>" * 22),
    ],
    ids=["cyrillic", "escaped"],
)
async def test_names_as_long_as_telegram_allows_fit_every_message_uncut(
    tg: FakeTelegram, harness: Harness, first: str, last: str
) -> None:
    """Four players, two pairs, each named with Telegram's 64 characters of first name and 64
    of last name, in Russian (longer words than English), or of characters that HTML escapes:
    the board, a round's result and /standings in the first round all fit in one message of
    4096 characters, none cut short."""
    users = [tg.user(921 + n, first[:63] + str(n), last_name=last[:64]) for n in range(4)]
    group = tg.group(-921, "Двор", creator=users[0])
    await prepare(harness, users, group, pairs=True)
    await tg.send_text(users[0], group, "/language")
    prompt = await tg.wait_for_message(group, "Choose the language of this group:")
    await tg.press_button(users[0], prompt, "🇷🇺 Русский")
    await tg.wait_for_message(group, "🎲 Козёл · раунд 1")
    # asked at once: a fish of 101 or more can end the match with its first round
    await tg.send_text(users[1], group, "/standings")
    await tg.wait_for_message(group, "Текущий матч")

    def results() -> list[str]:
        return [t for t in harness.group_texts(group) if t.startswith(("🏁", "🐟", "🥚"))]

    await harness.play_until(users, lambda: bool(results()))
    await harness.groups_told()
    shown = [t for m in tg.messages(group) for t in [*m.history, m.text or ""]]
    assert not any(t.endswith("\n…") for t in shown)  # nothing was cut...
    longest = max(shown, key=utf16_len)
    assert utf16_len(longest) > 1500  # ...though the names make it long
    assert all(utf16_len(t) <= MessageLimit.MAX_TEXT_LENGTH for t in shown)
    assert tg.failed_calls() == []


async def test_a_player_who_deleted_their_account_is_covered_by_the_computer(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Their hand is refused with 403 "user is deactivated": the group is told once, without
    the advice to press Start a blocked DM gets (it cannot bring a deleted account back), and
    the computer plays their tiles while the others play on."""
    masha, alex, group = await match_of_two(harness, 931)
    users = [masha, alex]
    hand, version = await harness.play_until_turn_of(alex, users)
    tg.deactivate(masha)
    await harness.play_turn(alex, hand)
    told = await tg.wait_for_message(group, "I cannot write to Masha")
    assert told.text == (
        "I cannot write to Masha: their Telegram account was deleted, "
        "so the computer plays for them."
    )
    for _ in range(2):
        turn = await harness.next_turn_or_over([alex], group, version)
        if turn is None:
            break
        version = harness.version_of(turn[1])
        await harness.play_turn(alex, turn[1])
    await harness.groups_told()
    assert (await harness.kozel.storage.get_seats(1))[0].absent
    assert sum("I cannot write to Masha" in t for t in harness.group_texts(group)) == 1
    assert {c.error for c in tg.failed_calls()} == {"Forbidden: user is deactivated"}


async def test_someone_who_leaves_the_group_leaves_its_lobby(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, whoever left the group (or was removed from it) kept their seat: the match
    could start with them, and wait out their turns for someone no longer there."""
    masha, alex, zoe = tg.user(941, "Masha"), tg.user(942, "Alex"), tg.user(943, "Zoe")
    group = tg.group(-941, "Yard", creator=masha)
    for user in (masha, alex, zoe):
        await tg.send_text(user, user, "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(masha, group)
    await harness.join([alex, zoe], group, lobby)
    await tg.leave_group(zoe, group)
    await tg.wait_for(lambda: lobby_says(tg, lobby, "Players 2/4: 1. Masha, 2. Alex\n"))


async def test_a_player_removed_from_the_group_mid_match_is_covered_by_the_computer(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An admin removes a player on turn: the group hears who removed him and that a computer
    took the seat, his keyboard becomes the note that he was removed, the computer plays his
    turn and the others play on."""
    masha, alex, zoe = tg.user(951, "Masha"), tg.user(952, "Alex"), tg.user(953, "Zoe")
    group = tg.group(-951, "Yard", creator=masha)
    users = [masha, alex, zoe]
    await start_match(harness, users, group)
    hand, version = await harness.play_until_turn_of(alex, users)
    await tg.leave_group(alex, group, by=masha)
    removed = "🚪 Masha removed Alex from the table: a computer player took the seat."
    await tg.wait_for_message(group, removed)
    note = tg.message(alex.id, hand.message_id)
    assert not note.buttons
    assert "You were removed from the table in Yard" in (note.text or "")
    user, _ = await harness.next_turn([masha, zoe], version)
    seats = await harness.kozel.storage.get_seats(1)
    assert [seat.user_id for seat in seats] == [masha.id, None, zoe.id]
    assert user in (masha, zoe)


async def test_a_player_removed_from_the_group_by_an_anonymous_admin_is_removed_by_an_admin(
    tg: FakeTelegram, harness: Harness
) -> None:
    """An admin who removes a player in the group's name is not named, as with /kick: the group
    heard "Group removed Alex", after Telegram's stand-in for the group."""
    masha, alex, olya = tg.user(961, "Masha"), tg.user(962, "Alex"), tg.user(963, "Olya")
    group = tg.group(-961, "Yard", "supergroup", admins=[olya])
    await start_match(harness, [masha, alex], group, computers=1)
    await tg.leave_group(alex, group, by=olya, anonymous=True)
    await tg.wait_for_message(
        group, "🚪 An admin removed Alex from the table: a computer player took the seat."
    )
    await tg.wait_for_message(alex, "You were removed from the table in Yard")
    assert not any("Group removed" in text for text in harness.group_texts(group))


async def test_standings_of_emoji_names_fit_telegrams_count_and_stay_formatted(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram counts an emoji as two characters (UTF-16 code units): four players named by
    128 emoji each made /standings longer than 4096, and it came cut mid-name, unformatted. The
    board, which the group has, gave way instead; since /standings says the score once, not
    again in the board, the board fits beside it (``match_text`` still lets it give way)."""
    emoji = ["😀", "🐐", "🎲", "🁣"]
    users = [tg.user(990 + n, face * 64, last_name=face * 64) for n, face in enumerate(emoji)]
    group = tg.group(-990, "Yard")
    await start_match(harness, users, group)
    version = 0
    for _ in range(6):  # the board lists the latest moves, by name
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
    await harness.groups_told()
    await tg.send_text(users[0], group, "/standings")
    standings = await tg.wait_for_message(group, lambda m: (m.text or "").startswith("📊"))
    text = standings.text or ""
    assert utf16_len(text) <= 4096
    assert "\n🎲 Kozel · round 1 · to 101\n" in text
    assert text.splitlines()[-1].startswith("Turn: ")
    assert any(e["type"] == "bold" for e in standings.entities)  # its formatting kept


async def test_a_board_of_emoji_names_and_many_moves_fits_and_stays_formatted(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players named by 128 emoji each: the board, with its list of latest moves, came
    close to 4096 (as Telegram counts: two for an emoji), and a tap that set off a batch of
    knocks or draws, each a line of its own, pushed it over: it came cut mid-name and
    unformatted. Here the list holds its twelve latest moves, as a long batch does: the oldest
    give way, counted, and whose turn it is stays, in bold."""
    monkeypatch.setattr("bot.presenter.news.RECENT", 12)
    emoji = ["😀", "🐐", "🎲", "🁣"]
    users = [tg.user(980 + n, face * 64, last_name=face * 64) for n, face in enumerate(emoji)]
    group = tg.group(-980, "Yard")
    await start_match(harness, users, group)
    version = 0
    for _ in range(12):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
    await harness.groups_told()
    board = board_message(tg, group)
    text = board.text or ""
    assert utf16_len(text) <= 4096
    assert "earlier moves" in text
    assert not text.endswith("…")  # not cut by the sender
    assert any(e["type"] == "bold" for e in board.entities)  # its formatting kept
