"""People press old buttons, forge callback data and send commands in the wrong place: each gets
a polite answer, nothing changes, and the bot keeps working."""

from __future__ import annotations

from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import (
    Harness,
    board_message,
    start_match,
    stored_events,
    tap,
)

STALE = "That button is out of date — use your latest message."
NOT_VALID = "This button is not valid here."
GAME_OVER = "This game is over."
NOT_YOUR_TABLE = "You are not playing at this table."
GROUP_ONLY = (
    "This works in a group chat: send it there (add me to a group first if I'm not in one)."
)


def playable(message: FakeMessage) -> str:
    return next(str(b["callback_data"]) for b in message.buttons if str(b["text"])[0] == "✅")


class Snapshot:
    """What people can see and what is stored, to check that a bad tap changed nothing."""

    def __init__(self, harness: Harness, group: FakeChat, users: list[FakeUser]) -> None:
        self.harness, self.group, self.users = harness, group, users

    async def take(self) -> tuple[object, ...]:
        """Once the group has been told all the bot queued for it: a board the group's budget
        held back would go out later, and look like a change."""
        await self.harness.groups_told()
        tg = self.harness.tg
        board = board_message(tg, self.group)
        dms = tuple(
            (m.message_id, m.text, str(m.reply_markup)) for u in self.users for m in tg.messages(u)
        )
        return (
            len(await stored_events(self.harness.database, 1)),
            board.message_id,
            board.text,
            len(tg.messages(self.group)),
            dms,
        )


async def changes_nothing(
    tg: FakeTelegram, snapshot: Snapshot, user: FakeUser, message: FakeMessage, data: str
) -> str | None:
    """Tap a button that should do nothing; returns its answer, once nothing has changed."""
    await tg.wait_idle()
    before = await snapshot.take()
    answer = await tap(tg, user, message, data)
    await tg.wait_idle()
    assert await snapshot.take() == before
    return answer.text


async def test_stale_buttons_change_nothing(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex = tg.user(301, "Masha"), tg.user(302, "Alex")
    group = tg.group(-701, "Courtyard")
    users = [masha, alex]
    lobby = await start_match(harness, users, group)
    snapshot = Snapshot(harness, group, users)

    # two moves, keeping the first button pressed
    first, hand = await harness.next_turn(users, 0)
    old_data, old_hand, version = playable(hand), hand, harness.version_of(hand)
    answer = await tap(tg, first, hand, old_data)
    assert str(answer.text).startswith("You played")
    second, hand = await harness.next_turn(users, version)
    version = harness.version_of(hand)
    await harness.play_turn(second, hand)
    user, hand = await harness.next_turn(users, version)
    assert user is first

    # the button of an earlier turn: out of date, and nothing moves
    assert await changes_nothing(tg, snapshot, first, old_hand, old_data) == STALE
    # a version from the future is no better
    future = playable(hand).replace(f":{harness.version_of(hand)}:", ":9999:")
    assert await changes_nothing(tg, snapshot, first, hand, future) == STALE

    # play on to the second round: a button from the first round is out of date too
    while True:
        round_one = (user, hand, playable(hand))
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
        user, hand = await harness.next_turn(users, version)
        events = await stored_events(harness.database, 1)
        if any(e["type"] == "round_ended" for e in events):
            break
    assert await changes_nothing(tg, snapshot, *round_one) == STALE

    # after the match, old buttons and the old lobby answer politely
    last = playable(hand)
    await harness.play_match(users, group)
    await harness.groups_told()
    await tg.wait_idle()
    board = board_message(tg, group).text
    count = len(await stored_events(harness.database, 1))
    answer = await tap(tg, user, hand, last)
    assert answer.text == GAME_OVER
    answer = await tap(tg, masha, lobby, "j:1:0")
    assert answer.text is not None and "no open table" in answer.text
    answer = await tap(tg, masha, lobby, "s:1:0")
    assert answer.text is not None and "no table" in answer.text
    await tg.wait_idle()
    assert board_message(tg, group).text == board
    assert len(await stored_events(harness.database, 1)) == count
    # and the group can start again
    await tg.send_text(masha, group, "/new")
    await tg.wait_for_message(group, "new table")


async def test_forged_and_foreign_callbacks_are_refused(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex, olya = tg.user(311, "Masha"), tg.user(312, "Alex"), tg.user(313, "Olya")
    group = tg.group(-711, "Courtyard", admins=[masha])
    other = tg.group(-712, "Garages")
    users = [masha, alex]
    await start_match(harness, users, group)
    # a second table in another group, where Masha and Alex do not play
    await tg.send_text(olya, olya, "/start")
    await tg.send_text(olya, other, "/new")
    other_lobby = await tg.wait_for_message(other, "new table")
    await tg.wait_for(lambda: "Olya" in (tg.message(other, other_lobby.message_id).text or ""))

    user, hand = await harness.next_turn(users, 0)
    version = harness.version_of(hand)
    await tg.wait_idle()
    snapshot = Snapshot(harness, group, users)
    before = await snapshot.take()
    in_hand = {str(b["callback_data"]).split(":")[3] for b in hand.buttons}
    missing = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in in_hand)
    expected = {
        "p:999:0:1-1": GAME_OVER,
        "zzz": NOT_VALID,
        "p:1:abc:9-9": NOT_VALID,
        "p:1:0:9-9": NOT_VALID,
        "p:1": NOT_VALID,
        "ÿ" * 32: NOT_VALID,  # 64 bytes of garbage
        "p:" + "9" * 62: NOT_VALID,
        # numbers no table, turn or page could have: too big to look up, or not plain digits
        f"p:{'9' * 25}:0:1-1": NOT_VALID,
        f"p:1:{'9' * 25}:{sorted(in_hand)[0]}": NOT_VALID,
        f"x:{'9' * 25}:0": NOT_VALID,
        f"h:{'9' * 25}:0": NOT_VALID,
        f"p:1:{version}²:{sorted(in_hand)[0]}": NOT_VALID,
        f"p:1:{version}:{missing}": "That tile is not in your hand.",
        f"p:1:{version}:{sorted(in_hand)[0]}:middle": NOT_VALID,
        f"x:2:{version}": GAME_OVER,
        f"h:1:{version}": None,  # "I'm back" from someone never away: the group hears nothing
    }
    for data, text in expected.items():
        answer = await tap(tg, user, hand, data)
        if text is not None:
            assert answer.text == text, (data, answer.text)
    # the other table's button, pressed by someone who does not sit there
    answer = await tap(tg, user, hand, "p:2:0:0-0")
    assert answer.text in (GAME_OVER, NOT_YOUR_TABLE)
    # somebody else's table from the group: the lobby of another group, a start, a join
    answer = await tap(tg, masha, board_message(tg, group), "s:2:0")
    assert answer.text is not None and "no table" in answer.text
    answer = await tap(tg, masha, board_message(tg, group), "j:2:0")
    assert answer.text is not None and "no open table" in answer.text
    # the lobby's ✖️ during the match: the match is /cancel's
    answer = await tap(tg, alex, board_message(tg, group), "c:1:0")
    assert answer.text == "The match has already started."
    answer = await tap(tg, masha, board_message(tg, group), "o:1:0:players")
    assert answer.text is not None and "already started" in answer.text
    # the buttons of /top and /language, forged on the board: they would have edited it away
    answer = await tap(tg, alex, board_message(tg, group), "t:0:0:kozel")
    assert answer.text == NOT_VALID
    answer = await tap(tg, masha, board_message(tg, group), "g:0:0:ru")
    assert answer.text == NOT_VALID
    # a stranger presses the real button of a player's hand
    answer = await tap(tg, olya, hand, playable(hand))
    assert answer.text == NOT_YOUR_TABLE
    await tg.wait_idle()
    assert await snapshot.take() == before
    assert "Players 1/4: 1. Olya" in (tg.message(other, other_lobby.message_id).text or "")
    assert all(len(a.text or "") <= 200 for a in tg.callback_answers.values())

    # the bot keeps working: the real button still plays
    answer = await tap(tg, user, hand, playable(hand))
    assert str(answer.text).startswith("You played")
    await harness.next_turn(users, version)


async def test_commands_in_the_wrong_place_get_polite_answers(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(321, "Masha"), tg.user(322, "Alex")
    group = tg.group(-721, "Courtyard")
    await tg.send_text(masha, masha, "/start")
    await tg.wait_for_message(masha, "Hi, Masha")

    async def says(user: FakeUser, chat: FakeChat | FakeUser, command: str, text: str) -> None:
        count = len(tg.messages(chat))
        await tg.send_text(user, chat, command)
        reply = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat)[count:] if text in (m.text or "")), None)
        )
        assert reply.text is not None

    for command in ("/new", "/standings", "/top", "/join", "/cancel"):
        await says(masha, masha, command, GROUP_ONLY)
    await says(masha, masha, "/language", "Choose the language I write to you in")  # her own
    await says(masha, group, "/join", "There is no open table to join here.")
    await says(masha, group, "/leave", "There is no table here.")
    await says(masha, group, "/standings", "No match is being played here.")
    await says(masha, group, "/top", "No finished matches in this group yet.")
    await says(masha, masha, "/start join-999", "That table is no longer open to join.")
    await says(masha, masha, "/start join-abc", "Hi, Masha")
    await says(masha, masha, "/start join-²", "Hi, Masha")  # a digit int() cannot read
    await says(masha, masha, f"/start join-{'9' * 25}", "Hi, Masha")  # no table has such an id
    await says(masha, masha, "/stats", "you have not finished a match yet")

    await says(masha, group, "/new", "new table")
    await says(alex, group, "/new", "A table is already open here.")
    await says(masha, group, "/new", "A table is already open here.")
    # the lobby's match has not started: not "send /new", which the lobby refuses
    await says(alex, group, "/standings", "The match here has not started yet.")
    await says(
        alex, group, "/cancel", "Only Masha, who opened the table, or an admin can cancel it."
    )
    # none of it broke anything: the lobby still takes players
    lobby = await tg.wait_for_message(group, "new table")
    await tg.send_text(alex, alex, "/start")
    await harness.join([alex], group, lobby)
    assert "Players 2/4: 1. Masha, 2. Alex" in (tg.message(group, lobby.message_id).text or "")
    failed = [c for c in tg.failed_calls() if "not modified" not in (c.error or "")]
    assert not failed, tg.describe()


async def test_new_during_a_match_says_a_match_is_on(tg: FakeTelegram, harness: Harness) -> None:
    """/new while a match is played here: before, the answer invited people to join a table
    nobody can join any more ("A table is already open here. Join it...")."""
    masha, alex = tg.user(321, "Masha"), tg.user(322, "Alex")
    group = tg.group(-721, "Courtyard")
    await start_match(harness, [masha], group, computers=1)
    await tg.send_text(alex, group, "/new")
    answer = await tg.wait_for_message(group, "being played")
    assert answer.text == (
        "A match is being played here: wait for it to end, "
        "or ask its opener or an admin to /cancel it."
    )
