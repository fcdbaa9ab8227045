"""Playing through Telegram as people do, and checking what they would notice.

Whole matches by taps (with the bazaar), a restart in the middle of a round, joining without
having pressed Start, racing and stale taps, a player who blocks the bot, flood control, names
that look like HTML, and how many messages and calls a match costs.
"""

from __future__ import annotations

import re

import pytest

from bot.render.amounts import signed
from devtools.fake_telegram import FakeMessage, FakeTelegram
from engine import Play, Tile, replay
from engine.scoring.rating import rating_delta
from storage import Storage
from tests.bot.harness import (
    BOARD_TITLE,
    Accelerated,
    Harness,
    board_message,
    one_tap,
    start_match,
    stored_events,
    tap,
    texts_seen,
)


def played_count(events: list[dict[str, object]]) -> int:
    return sum(1 for e in events if e["type"] == "played")


def without_draws(text: str | None) -> str:
    """A hand's text without the note of tiles just drawn (a redraw need not repeat it)."""
    return "\n".join(x for x in (text or "").splitlines() if "drew from the bazaar" not in x)


def expected_events(before: list[dict[str, object]], seat: int, tile: str) -> int:
    """How many events one tap on ``tile`` makes (see ``one_tap``)."""
    return len(one_tap(replay(before), seat, Play(Tile.parse(tile))))


async def test_two_players_with_the_bazaar_play_to_the_goat(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(201, "Masha"), tg.user(202, "Alex")
    group = tg.group(-601, "Courtyard")
    await start_match(harness, [masha, alex], group)
    taps = await harness.play_match([masha, alex], group)
    assert taps > 5

    # the bazaar was used, and both the drawer and the group could see it
    dms = texts_seen(tg, masha) + texts_seen(tg, alex)
    assert any("You drew from the bazaar" in text for text in dms)
    boards = [text for text in texts_seen(tg, group) if text.startswith(BOARD_TITLE)]
    assert any(re.search(r"drew (a tile|\d+ tiles) from the bazaar", text) for text in boards)

    # the stored events replay to a finished match; its scores are what everyone is shown
    events = await stored_events(harness.database, 1)
    match = replay(events)
    assert match.is_over
    assert any(e["type"] == "drew" for e in events)
    scores = match.tally.scores
    names = {0: "Masha", 1: "Alex"}

    async with await Storage.open(harness.database) as storage:
        rows = await storage.chat_standings(group.id)
    assert {r.display_name: (r.matches, r.rating) for r in rows} == {
        names[seat]: (1, rating_delta(scores[seat])) for seat in range(2)
    }
    for row in rows:
        seat = 0 if row.display_name == "Masha" else 1
        assert row.avg_points == scores[seat]
        assert row.losses == (seat in match.losers)

    await tg.send_text(masha, group, "/top")
    top = await tg.wait_for_message(group, "Standings")
    for seat, name in names.items():
        line = next(x for x in (top.text or "").splitlines() if name in x)
        assert f"rating {signed(rating_delta(scores[seat]))}" in line
        assert f"avg {scores[seat]:.1f}" in line
        assert "matches 1" in line

    await tg.send_text(alex, alex, "/stats")
    stats = await tg.wait_for_message(alex, "📈")
    assert "Alex · matches: 1 (groups: 1)" in (stats.text or "")
    assert "1 matches" not in (stats.text or "")
    assert f"average: {scores[1]:.1f} points" in (stats.text or "")
    assert f"rating: {signed(rating_delta(scores[1]))}" in (stats.text or "")
    assert "Courtyard" in (stats.text or "")
    assert not tg.failed_calls() or all(
        "not modified" in (c.error or "") for c in tg.failed_calls()
    )


async def test_a_restart_mid_round_keeps_the_live_buttons_and_the_board(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(211, "Masha"), tg.user(212, "Alex")
    group = tg.group(-611, "Courtyard")
    await start_match(harness, [masha, alex], group)
    users = [masha, alex]
    version = 0
    for _ in range(4):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        await harness.play_turn(user, hand)
    user, hand = await harness.next_turn(users, version)
    await tg.wait_idle()
    board = board_message(tg, group)
    before = await stored_events(harness.database, 1)
    group_messages = len(tg.messages(group))
    board_edits = board.edited

    await harness.stop()
    async with harness.restarted() as restarted:
        await tg.wait_idle()
        # the button sent before the restart still works
        playable = [b for b in hand.buttons if str(b["text"]).startswith("✅")]
        answer = await tap(tg, user, hand, str(playable[0]["callback_data"]))
        current = tg.message(user.id, hand.message_id)
        if any(str(b.get("callback_data", "")).count(":") == 4 for b in current.buttons):
            end = next(b for b in current.buttons if str(b["callback_data"]).endswith("left"))
            answer = await tap(tg, user, current, str(end["callback_data"]))
        assert answer.text is not None and answer.text.startswith("You played")
        after = await stored_events(harness.database, 1)
        assert played_count(after) == played_count(before) + 1
        # the same board message got the move; no new board was posted for it
        tile = re.search(r"You played (\[\d\|\d\])", answer.text)
        assert tile is not None
        await tg.wait_for(
            lambda: (
                f"{user.first_name} played {tile.group(1)}"
                in (tg.message(group, board.message_id).text or "")
            )
        )
        assert board_message(tg, group).message_id == board.message_id
        assert tg.message(group, board.message_id).edited > board_edits
        assert len(tg.messages(group)) == group_messages
        # and the match goes on to the end
        await restarted.play_match(users, group)
        assert replay(await stored_events(harness.database, 1)).is_over


async def test_joining_before_pressing_start_goes_through_the_dm(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, petya = tg.user(221, "Masha"), tg.user(222, "Petya")
    group = tg.group(-621, "Courtyard")
    await tg.send_text(masha, masha, "/start")
    lobby = await harness.open_table(masha, group)

    # Petya never wrote to the bot: it cannot DM him, so the tap opens the bot's DM instead
    join = lobby.find_button("✋ Join")
    assert join is not None
    answer = await tap(tg, petya, lobby, str(join["callback_data"]))
    assert answer.url is not None
    assert re.fullmatch(r"https://t\.me/KozelTestBot\?start=join-1", answer.url), answer.url
    await tg.wait_idle()
    assert "Petya" not in (tg.message(group, lobby.message_id).text or "")
    assert "Players 1/4" in (tg.message(group, lobby.message_id).text or "")
    async with await Storage.open(harness.database) as storage:
        assert [s.user_id for s in await storage.get_seats(1)] == [masha.id]

    # the link opens the DM with /start join-1: now he is seated and the lobby says so
    await tg.send_text(petya, petya, "/start join-1")
    await tg.wait_for(lambda: "Petya" in (tg.message(group, lobby.message_id).text or ""))
    assert "Players 2/4: 1. Masha, 2. Petya" in (tg.message(group, lobby.message_id).text or "")
    joined = await tg.wait_for_message(petya, "You have joined")
    assert "Courtyard" in (joined.text or "")


async def test_a_player_at_two_tables_knows_which_hand_is_which(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, someone who played in two groups at once held two hands in the DM that both
    said "Your turn · round 1": which group each was for, only a tap told."""
    masha, alex, olya = tg.user(271, "Masha"), tg.user(272, "Alex"), tg.user(273, "Olya")
    yard, garages = tg.group(-271, "Yard"), tg.group(-272, "Garages & Co")
    await start_match(harness, [masha, alex], yard)
    await start_match(harness, [olya, masha], garages)

    def masha_live() -> list[FakeMessage]:
        return [
            m
            for m in tg.messages(masha)
            if not m.deleted and any(str(b.get("callback_data", ""))[:2] == "p:" for b in m.buttons)
        ]

    # the others play on until it is Masha's turn at both tables
    while len(masha_live()) < 2:
        user, hand = await harness.next_turn([alex, olya])
        await harness.play_turn(user, hand)
        await tg.wait_idle()
    heads = sorted((m.text or "").splitlines()[0] for m in masha_live())
    assert re.fullmatch(r"🎯 Your turn · round \d+ · Garages & Co", heads[0]), heads
    assert re.fullmatch(r"🎯 Your turn · round \d+ · Yard", heads[1]), heads
    # so does each new deal, sent to whoever does not lead it (one at each table at least)
    deals = [
        (user, text.splitlines()[0])
        for user in (masha, alex, olya)
        for text in texts_seen(tg, user)
        if text.startswith("🃏 New deal")
    ]
    assert len(deals) >= 2
    at = {masha: ("Yard", "Garages & Co"), alex: ("Yard",), olya: ("Garages & Co",)}
    assert all(head.removeprefix("🃏 New deal · ") in at[user] for user, head in deals), deals
    # and each hand plays at its own table: Yard's is table 1, the Garages' table 2
    for hand in masha_live():
        here = 1 if (hand.text or "").splitlines()[0].endswith("Yard") else 2
        before = [len(await stored_events(harness.database, n)) for n in (1, 2)]
        await harness.play_turn(masha, hand)
        after = [len(await stored_events(harness.database, n)) for n in (1, 2)]
        assert [a > b for a, b in zip(after, before, strict=True)] == [here == 1, here == 2]


async def test_racing_taps_make_exactly_one_move(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex = tg.user(231, "Masha"), tg.user(232, "Alex")
    group = tg.group(-631, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    await tg.wait_idle()

    # the same button, tapped twice before the first answer came back
    first, hand = await harness.next_turn(users, 0)
    version = harness.version_of(hand)
    data = str(next(b for b in hand.buttons if str(b["text"]).startswith("✅"))["callback_data"])
    before = await stored_events(harness.database, 1)
    seat = replay(before).current_seat
    assert seat is not None
    one = await tg.press(first, hand, data)
    two = await tg.press(first, hand, data)
    await tg.wait_for(lambda: one in tg.callback_answers and two in tg.callback_answers)
    texts = sorted(str(tg.callback_answers[q].text) for q in (one, two))
    assert texts[0].startswith("That button is out of date"), texts
    assert texts[1].startswith("You played"), texts
    await tg.wait_idle()
    after = await stored_events(harness.database, 1)
    assert len(after) - len(before) == expected_events(before, seat, data.split(":")[3])
    assert played_count(after) == played_count(before) + 1

    # two players at the same moment: only the one on turn moves
    second, hand = await harness.next_turn(users, version)
    assert second is not first
    version = harness.version_of(hand)
    mine = next(b for b in hand.buttons if str(b["text"]).startswith("✅"))
    own_hand = tg.last_message(first)
    early = await tg.press(first, own_hand, f"p:1:{version}:0-0")
    right = await tg.press(second, hand, str(mine["callback_data"]))
    await tg.wait_for(lambda: early in tg.callback_answers and right in tg.callback_answers)
    assert tg.callback_answers[early].text == "It is not your turn yet."
    assert str(tg.callback_answers[right].text).startswith("You played")
    await tg.wait_idle()
    final = await stored_events(harness.database, 1)
    assert played_count(final) == played_count(after) + 1
    assert [e["seat"] for e in final if e["type"] == "played"][-1] == 1 - seat


async def test_a_player_who_blocks_the_bot_is_covered_by_the_computer(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(241, "Masha"), tg.user(242, "Alex")
    group = tg.group(-641, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    # wait until it is Masha's turn, then Alex blocks the bot before his turn comes
    hand, _ = await harness.play_until_turn_of(masha, users)
    tg.block(alex)
    blocked_at = len(await stored_events(harness.database, 1))
    await harness.play_turn(masha, hand)
    notice = await tg.wait_for_message(group, "I cannot write to Alex")
    assert "computer plays for them" in (notice.text or "")
    await tg.wait_for(lambda: "(away: the computer plays)" in str(board_message(tg, group).text))
    # the match goes on: Masha taps, the computer plays Alex's tiles, to the goat
    await harness.play_match([masha], group)
    events = await stored_events(harness.database, 1)
    assert replay(events).is_over
    assert any(e["type"] == "played" and e["seat"] == 1 for e in events[blocked_at:])
    # the group was told once, not at every deal
    texts = harness.group_texts(group)
    assert sum("I cannot write to Alex" in text for text in texts) == 1


async def test_flood_control_delays_the_board_but_loses_no_move(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(251, "Masha"), tg.user(252, "Alex")
    group = tg.group(-651, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    user, hand = await harness.next_turn(users, 0)
    version = harness.version_of(hand)
    await tg.wait_idle()
    board = board_message(tg, group)
    tg.inject_flood(method="editMessageText", chat_id=group.id, retry_after=1, times=1)
    data = str(next(b for b in hand.buttons if str(b["text"]).startswith("✅"))["callback_data"])
    answer = await tap(tg, user, hand, data)
    assert str(answer.text).startswith("You played")
    a, b = data.split(":")[3].split("-")
    await tg.wait_for(
        lambda: f"{user.first_name} played [{a}|{b}]" in (board_message(tg, group).text or ""),
        timeout=5.0,
    )
    assert board_message(tg, group).message_id == board.message_id
    floods = [c for c in tg.failed_calls() if c.status == 429]
    assert len(floods) == 1 and floods[0].method == "editMessageText"
    # nobody was told about an error; the next player got their hand
    await harness.next_turn(users, version)
    for chat in (group, masha, alex):
        assert not any("error" in text.lower() for text in texts_seen(tg, chat))


@pytest.mark.parametrize("method", ["editMessageText", "sendMessage"])
async def test_a_hand_under_long_flood_control_ends_up_current(
    tg: FakeTelegram, harness: Harness, method: str
) -> None:
    """Telegram refused the edits of Masha's hand a while (429, 40 times): the bot gave up
    after three tries at each, so her tapped keyboard never became the record of her move,
    and when her turn came again she held her old keyboard, whose taps were refused as stale,
    until the turn's reminder drew it again (here in 10 minutes). Refused new messages, her
    next hand was given up after three tries, and again when the bot resynced: her turn came
    with no keyboard until the reminder. Now each waits as long as Telegram asks, and her
    hand is the one of her turn once the flood passes."""
    masha = tg.user(263, "Masha")
    group = tg.group(-663, "Courtyard")
    await start_match(harness, [masha], group, computers=3)
    _, hand = await harness.next_turn([masha])
    tg.inject_flood(method=method, chat_id=masha.id, retry_after=1, times=40)
    await harness.play_turn(masha, hand)
    _, again = await harness.next_turn([masha], harness.version_of(hand), timeout=20.0)
    await harness.play_turn(masha, again)
    floods = [c for c in tg.failed_calls() if c.status == 429]
    assert len(floods) == 40


async def test_unchanged_redraws_are_silent(tg: FakeTelegram, harness: Harness) -> None:
    """A redraw that changes nothing ("« Back" pressed twice on the choice of an end) is not
    sent: Telegram would refuse it as "message is not modified", a call spent for nothing."""
    masha, alex = tg.user(261, "Masha"), tg.user(262, "Alex")
    group = tg.group(-661, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    version = 0
    for _ in range(200):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        ends = re.search(r"Ends: (\d) … (\d)", hand.text or "")
        both = (
            ends
            and ends.group(1) != ends.group(2)
            and (hand.find_button(f"✅ {min(ends.groups())}|{max(ends.groups())}"))
        )
        if both:
            break
        await harness.play_turn(user, hand)
    else:
        raise AssertionError("no tile ever fitted both ends")
    before = without_draws(hand.text)
    keyboard = hand.reply_markup
    answer = await tap(tg, user, hand, str(both["callback_data"]))
    assert answer.text is None
    choice = tg.message(user.id, hand.message_id)
    assert "fits both ends" in (choice.text or "")
    back_button = choice.find_button("« Back")
    assert back_button is not None
    back = str(back_button["callback_data"])
    answer = await tap(tg, user, choice, back)
    assert answer.text is None
    assert without_draws(tg.message(user.id, hand.message_id).text) == before
    assert tg.message(user.id, hand.message_id).reply_markup == keyboard
    # the same "« Back" again: nothing to redraw, so no edit goes
    since = len(tg.calls)
    answer = await tap(tg, user, choice, back)
    assert answer.text is None
    # (the group's board may still be catching up with the last move meanwhile: only the
    # hand's chat counts)
    edits = [c for c in tg.calls[since:] if c.method.startswith("editMessage")]
    assert [c for c in edits if c.params.get("chat_id") == user.id] == []
    assert without_draws(tg.message(user.id, hand.message_id).text) == before
    # and the hand still plays
    await harness.play_turn(user, tg.message(user.id, hand.message_id))
    await harness.next_turn(users, version)


async def test_names_show_exactly_as_typed(tg: FakeTelegram, harness: Harness) -> None:
    zoe, alex = tg.user(271, "Zoë & <Co>"), tg.user(272, "Alex")
    group = tg.group(-671, "Courtyard")
    users = [zoe, alex]
    lobby = await start_match(harness, users, group)
    lobby_texts = [*tg.message(group, lobby.message_id).history]
    assert any("opened by Zoë & <Co>" in text for text in lobby_texts)
    assert any("Players 2/2: 1. Zoë & <Co>, 2. Alex" in text for text in lobby_texts)
    order = "Order of play: 1. Zoë & <Co> → 2. Alex"
    assert any(order in text for text in harness.group_texts(group))
    board = board_message(tg, group).text or ""
    assert "Zoë & <Co>: 7 tiles" in board
    assert "Zoë & <Co>: 0" in board
    for _ in range(2):
        user, hand = await harness.next_turn(users, 0)
        await harness.play_turn(user, hand)
    await harness.groups_told()  # the board follows the moves as the group's budget allows
    seen = "\n".join(texts_seen(tg, group))
    assert re.search(r"Zoë & <Co> played \[\d\|\d\]", seen)
    assert "&amp;" not in seen and "&lt;" not in seen
    assert not [c for c in tg.failed_calls() if "parse" in (c.error or "")]


async def test_a_four_player_match_keeps_to_the_group_limit(
    tg: FakeTelegram, harness: Harness
) -> None:
    """One person and three computers: rounds fly by, yet the group never gets more than 20
    new messages a minute (the server would answer a 21st with 429). The server's clock runs
    fast (conftest.SPEED) and the bot's pacer shares it, so a minute of waiting takes seconds;
    before the pacer made every group message wait for room, this match posted up to 24."""
    tg.enforce_group_limit = True
    masha = tg.user(281, "Masha")
    group = tg.group(-681, "Courtyard")
    await start_match(harness, [masha], group, computers=3)
    await harness.play_match([masha], group)
    assert replay(await stored_events(harness.database, 1)).is_over
    assert tg.max_messages_per_window(group, 60) <= 20
    assert not [c for c in tg.failed_calls() if c.status == 429], tg.describe()


@pytest.mark.minute
async def test_replies_to_commands_keep_to_the_group_limit_too(
    tg: FakeTelegram, harness: Harness
) -> None:
    """25 /help in a minute from two people: none over Telegram's 20 a minute (the replies
    count towards the group's messages like the bot's own); they used to go straight out, and
    the 21st got 429 and was lost. Each is answered once: the same answer to the same person
    goes at most once a minute."""
    tg.enforce_group_limit = True
    masha, alex = tg.user(285, "Masha"), tg.user(286, "Alex")
    group = tg.group(-685, "Courtyard")
    for n in range(25):
        await tg.send_text(alex if n % 5 == 4 else masha, group, "/help")
    await harness.open_table(alex, group)  # after every /help: the group's updates keep order
    await harness.groups_told()
    answers = [m for m in tg.messages(group) if m.from_bot and "/new" in (m.text or "")]
    assert 1 <= len(answers) <= 2
    assert tg.max_messages_per_window(group, 60) <= 20
    assert not [c for c in tg.failed_calls() if c.status == 429], tg.describe()


async def test_an_ordinary_move_costs_four_calls(tg: FakeTelegram, harness: Harness) -> None:
    """A tap in the middle of a round with a person up next: the answer, the mover's hand
    becomes a record, the board, the next player's new hand. Nothing else."""
    masha, alex = tg.user(291, "Masha"), tg.user(292, "Alex")
    group = tg.group(-691, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group, computers=2)
    # a budget the moves never exhaust, so that the board goes with each move, not later
    harness.pace_by(Accelerated(2000))
    measured: list[list[str]] = []
    version = 0
    while len(measured) < 3:
        found = await harness.next_turn_or_over(users, group, version)
        assert found is not None, "Masha never made an ordinary move with Alex up next"
        user, hand = found
        version = harness.version_of(hand)
        if user is not masha:
            await harness.play_turn(user, hand)
            continue
        await harness.groups_told()
        await tg.wait_idle()
        start = len(tg.calls)
        await harness.play_turn(user, hand)
        await tg.wait_idle()
        await harness.groups_told()  # the board goes out in the group's turn, after the DMs
        calls = [c.method for c in tg.calls[start:] if c.method != "getUpdates"]
        events = await stored_events(harness.database, 1)
        alex_hand = harness.live_hand(alex)
        ordinary = (
            calls.count("answerCallbackQuery") == 1  # no choice of an end
            and events[-1]["type"] == "played"  # nobody had to draw or knock; the round goes on
            and alex_hand is not None
            and harness.version_of(alex_hand) == len(events)
        )
        if ordinary:
            measured.append(calls)
    for calls in measured:
        assert len(calls) <= 4, calls
        assert sorted(calls) == sorted(
            ["answerCallbackQuery", "editMessageText", "editMessageText", "sendMessage"]
        ), calls


async def test_pressing_start_again_brings_a_blocked_player_back(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The group is told: "press Start to get the tiles back". Pressing it must do that."""
    masha, alex = tg.user(245, "Masha"), tg.user(246, "Alex")
    group = tg.group(-645, "Courtyard")
    users = [masha, alex]
    await start_match(harness, users, group)
    hand, version = await harness.play_until_turn_of(masha, users)
    tg.block(alex)
    await harness.play_turn(masha, hand)
    notice = await tg.wait_for_message(group, "I cannot write to Alex")
    assert "press Start to get the tiles back" in (notice.text or "")
    # the computer covers Alex; Masha plays on; then Alex unblocks the bot with Start
    user, hand = await harness.next_turn([masha], version)
    version = harness.version_of(hand)
    await tg.send_text(alex, alex, "/start")
    await tg.wait_for_message(group, "Alex is back at the table")
    # from now on Alex gets his tiles again and plays them himself
    await harness.play_turn(masha, hand)
    user, hand = await harness.next_turn(users, version)
    if user is masha:  # Alex had to draw and knock, or the round ended: one more turn
        await harness.play_turn(masha, hand)
        user, hand = await harness.next_turn([alex], 0)
    assert user is alex
    await harness.play_turn(alex, hand)
    await harness.groups_told()  # the board of Alex's own move, as the group's budget allows
    assert "Alex played" in (board_message(tg, group).text or "")
    assert "(away" not in (board_message(tg, group).text or "")
    await harness.play_match(users, group)
    events = await stored_events(harness.database, 1)
    assert replay(events).is_over


def chain_why(lead: Tile) -> str:
    """Why Kozel's first round is led with ``lead``, by the step of the 1-1 chain that found it
    (RULES.md §2.3), as the players read it."""
    if lead == Tile(1, 1):
        return "the first round starts with 1-1"
    if lead.is_double and lead.a > 1:
        return "no one holds 1-1, so the lowest double from 2-2 up leads"
    if lead.is_double:
        return "no one holds a double from 1-1 to 6-6, so 0-0 leads"
    return "no one holds a double, so the highest tile leads"


async def test_the_first_leader_is_told_which_tile_to_lead_and_why(
    tg: FakeTelegram, harness: Harness
) -> None:
    """With two players half the tiles stay in the bazaar, so 1-1 often does and the chain
    passes on (RULES.md §2.3): the leader was told "Lead with [2|2]." and not why that tile,
    nor why him."""
    masha, alex = tg.user(291, "Masha"), tg.user(292, "Alex")
    group = tg.group(-291, "Courtyard")
    await start_match(harness, [masha, alex], group)
    user, hand = await harness.next_turn([masha, alex])
    events = await stored_events(harness.database, 1)
    started = next(e for e in events if e["type"] == "round_started")
    assert user is [masha, alex][started["leader"]]
    (lead,) = [Tile.parse(x) for x in started["lead_tiles"]]
    shown = f"[{lead.a}|{lead.b}]"
    assert f"Lead with {shown}: {chain_why(lead)}." in (hand.text or "").splitlines()
    board = board_message(tg, group).text or ""
    assert f"Must lead: {shown} ({chain_why(lead)})" in board.splitlines()


async def test_the_others_are_told_in_their_new_deal_who_leads_and_with_what(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The "🃏 New deal" hand of whoever does not lead said nothing of who does (only the
    board did): it names the leader, and the tile and the rule, as the board and his hand do."""
    masha, alex = tg.user(293, "Masha"), tg.user(294, "Alex")
    group = tg.group(-293, "Courtyard")
    await start_match(harness, [masha, alex], group)
    leader, _ = await harness.next_turn([masha, alex])
    other = alex if leader is masha else masha
    started = next(
        e for e in await stored_events(harness.database, 1) if e["type"] == "round_started"
    )
    (lead,) = [Tile.parse(x) for x in started["lead_tiles"]]
    deal = await tg.wait_for_message(other, "🃏 New deal")
    assert (deal.text or "").splitlines()[:2] == [
        "🃏 New deal · Courtyard",
        f"▶️ {leader.first_name} leads with [{lead.a}|{lead.b}]: {chain_why(lead)}.",
    ]
