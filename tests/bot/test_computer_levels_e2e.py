"""How strong the computer players are: the table's level in the lobby, ``/addbot`` with a
level in any of the bot's languages, strong computers taking over, and a computer thinking
without holding up the other tables."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial

import pytest

from bot.handlers.lobby import show_lobby
from bot.place import Place
from bot.service.thinking import Thinker
from devtools.fake_telegram import FakeMessage, FakeTelegram
from engine import Action, Event, Match
from engine.ai import PLAYERS
from tests.bot.harness import Harness, start_match
from tests.bot.service.workers import register_slow, slow_player
from tests.bot.test_lobby_e2e import open_lobby
from tests.bot.test_table_life_e2e import change_lobby, lobby_says

#: As deployed: new tables get strong computer players.
SETTINGS = {"computer_level": "strong"}


class Watched(Thinker):
    """The bot's thinker, noting the level of each decision it is asked for, and flagging each
    one that has a choice (so goes to a worker) as it starts."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers, initializer=register_slow)
        self.levels: list[tuple[int, str]] = []  # (seat, level) of each decision asked for
        self.thinking = asyncio.Event()
        self.thinking_at = -1  # the match's version when the first decision with a choice began

    async def choose(self, level: str, match: Match, seat: int, events: Sequence[Event]) -> Action:
        self.levels.append((seat, level))
        if len(match.legal_actions(seat)) > 1 and not self.thinking.is_set():
            self.thinking_at = match.events_applied
            self.thinking.set()
        return await super().choose(level, match, seat, events)


def watch(harness: Harness, workers: int = 1) -> Watched:
    """The running bot's computer players think through a ``Watched`` thinker from now on."""
    player = harness.kozel.service.player
    player.thinker.close()
    player.thinker = Watched(workers)
    return player.thinker


async def test_the_lobby_chooses_how_strong_its_computers_are(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(701, "Masha")
    group = tg.group(-1701, "Yard")
    lobby = await open_lobby(harness, masha, group)
    assert lobby_says(tg, lobby, "• Computer players: strong (they think ahead)")
    await tg.send_text(masha, group, "/addbot")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 2/4: 1. Masha, 2. 🤖 Galya · strong"))

    await tg.send_text(masha, group, "/kick 2")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 1/4: 1. Masha\n"))
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(
        lambda: tg.current(lobby).find_button("Computer players: strong (they think ahead)")
    )
    await tg.press_button(masha, lobby, lambda b: str(b["text"]).startswith("Computer players:"))
    await tg.wait_for(
        lambda: tg.current(lobby).find_button("Computer players: easy (they make mistakes)")
    )
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: tg.current(lobby).find_button("🤖 Add computer"))
    await tg.wait_for(
        partial(lobby_says, tg, lobby, "• Computer players: easy (they make mistakes)")
    )
    await tg.press_button(masha, lobby, "🤖 Add computer")
    await tg.wait_for(partial(lobby_says, tg, lobby, "2. 🤖 Galya · easy"))
    table = await harness.kozel.storage.get_table(1)
    assert table is not None and table.computer_level == "easy"
    assert [s.ai for s in await harness.kozel.storage.get_seats(1)] == [None, "easy"]


async def test_addbot_takes_a_level_in_any_of_the_bots_languages(
    tg: FakeTelegram, harness: Harness
) -> None:
    galya = tg.user(711, "Галя", language_code="ru")
    group = tg.group(-1711, "Двор", creator=galya)
    lobby = await open_lobby(harness, galya, group)
    for word, shown in [("лёгкий", "лёгкий"), ("сильный", "сильный"), ("Strong", "сильный")]:
        await tg.send_text(galya, group, f"/addbot {word}")
        await tg.wait_for(partial(lobby_says, tg, lobby, f"1. Галя, 2. 🤖 Галя · {shown}\n"))
        await tg.send_text(galya, group, "/kick 2")
        await tg.wait_for(partial(lobby_says, tg, lobby, "Игроки 1/4: 1. Галя\n"))
    await tg.send_text(galya, group, "/addbot гроссмейстер")
    await tg.wait_for_message(
        group, "Компьютер бывает лёгкий, обычный или сильный: например, /addbot сильный."
    )
    await tg.send_text(galya, group, "/addbot обычный")
    await tg.wait_for(partial(lobby_says, tg, lobby, "2. 🤖 Галя · обычный"))
    assert [s.ai for s in await harness.kozel.storage.get_seats(1)] == [None, "normal"]


async def test_a_computer_taking_over_an_absent_player_plays_strong(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(721, "Masha"), tg.user(722, "Alex")
    group = tg.group(-1721, "Yard")
    await start_match(harness, [masha, alex], group)
    thinker = watch(harness)
    await tg.send_text(masha, group, "/kick 2")
    await tg.wait_for_message(
        group, "🚪 Masha removed Alex from the table: a computer player took the seat."
    )
    [_, seat] = await harness.kozel.storage.get_seats(1)
    assert (seat.user_id, seat.ai) == (None, "strong")
    await harness.play_until([masha], lambda: any(s == 1 for s, _ in thinker.levels), 50)
    assert {level for s, level in thinker.levels if s == 1} == {"strong"}


async def test_other_tables_are_answered_while_a_computer_thinks(
    tg: FakeTelegram, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer player that thinks for seconds (``slow``) holds up its own table only: a tap
    at another table is answered before the computer's move is committed. (With no workers,
    the thinking would run on the event loop and this test fails.)"""
    monkeypatch.setitem(PLAYERS, "slow", slow_player)
    masha, ivan = tg.user(731, "Masha"), tg.user(732, "Ivan")
    yard, garden = tg.group(-1731, "Yard"), tg.group(-1732, "Garden")
    for user in (masha, ivan):
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    other = await open_lobby(harness, ivan, garden)
    lobby = await open_lobby(harness, masha, yard)
    await change_lobby(harness, yard, players=2)
    await tg.send_text(masha, yard, "/addbot")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 2/2"))
    k = harness.kozel
    table = await k.service.store.active_table(Place(yard.id))
    assert table is not None
    async with k.service.store.lock(yard.id):
        await k.storage.update_seat(table.id, 1, ai="slow")
        table.seats[1].ai = "slow"
        await show_lobby(k, table)  # its buttons carry the seats' digest
    await k.sender.caught_up(yard.id)
    thinker = watch(harness)

    await tg.press_button(masha, lobby, "▶️ Start")
    while not thinker.thinking.is_set():
        found = await tg.wait_for(lambda: thinker.thinking.is_set() or harness.live_hand(masha))
        if isinstance(found, FakeMessage):
            await harness.play_turn(masha, found)
    query = await tg.press_button(ivan, other, "⚙️ Rules")
    await tg.wait_for(lambda: query in tg.callback_answers)
    assert table.version == thinker.thinking_at, "the other table waited for the computer's move"
    await tg.wait_for(lambda: table.version > thinker.thinking_at, timeout=10.0)
    assert (1, "slow") in thinker.levels
