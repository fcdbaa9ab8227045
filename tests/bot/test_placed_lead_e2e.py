"""Bulgarian fives' lead is placed for its leader (RULES.md §3.8): "The first tile is placed
automatically and ends that player's turn". A person had to tap it, a tile he had no choice
about, in his DM."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.place import Place
from devtools.fake_telegram import FakeChat, FakeTelegram, FakeUser
from engine import Match
from tests.bot.harness import Harness, stored_events, texts_seen
from tests.bot.test_games_e2e import dealt_for_two, lobby_for_two, lobby_now, table_in


def the_lead(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The first round's lead, as stored."""
    led = [e for e in events if e["type"] == "played" and e["round"] == 1]
    assert led, "the first round was not led"
    return led[0]


def said(lead: dict[str, Any]) -> str:
    """How the board and the leader's DM show the lead's tile, and what it scored."""
    a, b = lead["tile"].split("-")
    return f"[{a}|{b}]" + (f" · +{lead['scored']}" if lead["scored"] else "")


async def lead_told(harness: Harness, users: list[FakeUser], group: FakeChat) -> None:
    """The lead is on the board without a tap, announced in the group with what it scored,
    and its leader is told so in his DM, with no keyboard to tap."""
    tg = harness.tg
    await harness.groups_told()
    await tg.wait_idle()
    events = await stored_events(harness.database, 1)
    dealt = next(e for e in events if e["type"] == "round_started")
    lead = the_lead(events)
    assert lead["seat"] == dealt["leader"]
    leader = users[lead["seat"]]
    played = f"{leader.first_name} played {said(lead)}"
    assert any(played in text for text in texts_seen(tg, group)), texts_seen(tg, group)
    dm = [m.text or "" for m in tg.messages(leader.id) if m.from_bot]
    assert any("The bot led for you" in text and said(lead) in text for text in dm), dm
    match = (await table_in(harness, group)).match
    assert match is not None
    if match.current_seat != lead["seat"]:  # unless the other found nothing in the bazaar
        assert harness.live_hand(leader) is None
        assert harness.live_hand(users[1 - lead["seat"]]) is not None


async def test_the_bulgarian_lead_is_placed_and_announced_without_a_tap(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(951, "Masha"), tg.user(952, "Alex")]
    group = tg.group(-1951, "Yard")
    await dealt_for_two(harness, users, group, "Bulgarian Fives")
    await lead_told(harness, users, group)


async def test_a_round_dealt_unled_before_a_restart_is_led_by_the_bot(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table dealt before the bot placed such leads waited, after the upgrade's restart, for
    a tap on its lead: the restart places it, and the leader's keyboard says so."""
    users = [tg.user(953, "Masha"), tg.user(954, "Alex")]
    group = tg.group(-1953, "Yard")
    with monkeypatch.context() as before:
        before.setattr(Match, "placed_lead", lambda self: None)
        await dealt_for_two(harness, users, group, "Bulgarian Fives")
        await tg.wait_for(lambda: harness._turn(users, 0))
        await harness.stop()
    assert not [e for e in await stored_events(harness.database, 1) if e["type"] == "played"]
    async with harness.restarted() as restarted:
        await lead_told(restarted, users, group)


async def test_each_player_is_told_of_the_new_deal_as_the_lead_is_placed(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Whoever does not lead gets a "🃏 New deal" hand every round. Where the bot placed the
    lead, it said "▶️ Masha leads." of a lead already down, his turn come: it says the bot led
    for her, with what, and that he plays next; her own says whose turn the lead left it."""
    users = [tg.user(955, "Masha"), tg.user(956, "Alex")]
    group = tg.group(-1955, "Yard")
    await dealt_for_two(harness, users, group, "Bulgarian Fives")
    await lead_told(harness, users, group)
    lead = the_lead(await stored_events(harness.database, 1))
    leader, other = users[lead["seat"]], users[1 - lead["seat"]]
    match = (await table_in(harness, group)).match
    assert match is not None and match.current_seat is not None
    on_turn = users[match.current_seat]  # the other, unless he found nothing in the bazaar
    deal = await tg.wait_for_message(other, "🃏 New deal")
    assert (deal.text or "").splitlines()[:3] == [
        "🃏 New deal · Yard",
        f"▶️ The bot led for {leader.first_name}, as the rules allow no other lead: {said(lead)}.",
        "You play next." if on_turn is other else f"{on_turn.first_name} plays next.",
    ]
    led = await tg.wait_for_message(leader, "🃏 New deal")
    assert (led.text or "").splitlines()[:3] == [
        "🃏 New deal · Yard",
        f"▶️ The bot led for you, as the rules allow no other lead: {said(lead)}.",
        "You play next." if on_turn is leader else f"{on_turn.first_name} plays next.",
    ]


async def test_a_leader_back_before_the_computer_led_for_him_is_led_for_by_the_bot(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A leader away at the deal is led for by the computer, in its own time; if he came back
    before it had, he was asked to tap the one tile the rules allow. Coming back places it as
    for anyone present: the board shows it, and his DM says so with his hand, no keyboard."""
    users = [tg.user(957, "Masha"), tg.user(958, "Alex")]
    group = tg.group(-1957, "Yard")
    lobby = await lobby_for_two(harness, users, group, "Bulgarian Fives")
    await tg.press_button(users[1], lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    k = harness.kozel
    table = await k.service.store.active_table(Place(group.id))
    assert table is not None
    deals = random.Random()  # the deal the start is about to make, to find its leader
    deals.setstate(harness.deals.getstate())
    leader = Match.new(2, table.pairs, table.rules, deals.randrange(2**31))[0].current_seat
    assert leader is not None
    async with k.service.store.lock(table.chat_id):  # away as the round is dealt
        await k.service.timeouts.set_absent(table, table.seats[leader], True)
    k.scheduler.delay = 60.0  # the computer takes its time over his lead
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play")
    await tg.wait_idle()
    assert not [e for e in await stored_events(harness.database, 1) if e["type"] == "played"]
    await tg.send_text(users[leader], tg.private(users[leader]), "/start")
    await tg.wait_for_message(group, "is back")
    await lead_told(harness, users, group)
    tile = said(the_lead(await stored_events(harness.database, 1))).split(" ")[0]
    told = await tg.wait_for_message(users[leader], "The bot led for you")
    lines = (told.text or "").splitlines()
    assert lines[0] == "🃏 New deal · Yard", lines
    match = (await table_in(harness, group)).match
    assert match is not None and match.current_seat is not None
    if match.current_seat != leader:  # unless the other found nothing in the bazaar
        assert lines[2] == f"{users[1 - leader].first_name} plays next.", lines
    hand = next(line for line in lines if "your hand:" in line)
    assert tile not in hand and hand.count("[") == 6, lines  # seven dealt, one led
