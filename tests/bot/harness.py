"""Drives the real bot against the fake Bot API server the way people in a chat would."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bot.app import App, build, settle, setup, teardown
from bot.context import Kozel
from bot.settings import Settings
from devtools.fake_telegram import CallbackAnswer, FakeChat, FakeMessage, FakeTelegram, FakeUser
from engine import DRAW, KNOCK, Action, Event, Match, Play, Reopen
from storage import Storage

CALLBACK = re.compile(r"^[py]:(\d+):(\d+):")
#: The end-to-end matches' deals come from a seed new each run (as the bot's do), or the one this
#: variable names: a failing test's report says the seed (``conftest.py``), so that its matches
#: can be dealt again. Each test's deals follow from the seed and the test's name alone.
DEALS_VARIABLE = "KOZEL_TEST_DEALS"
RUN_DEALS = os.environ.get(DEALS_VARIABLE) or str(random.SystemRandom().randrange(10**9))


def _test_deals() -> random.Random:
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rpartition(" ")[0]
    return random.Random(f"{RUN_DEALS}:{test}")


def settings_for(tg: FakeTelegram, database: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "bot_token": tg.token,
        "base_url": tg.base_url,
        "base_file_url": tg.base_file_url,
        "database": database,
        "rate_limit": False,
        "computer_delay": 0.0,
        "default_language": "en",
        "turn_seconds": 600,
        # quick computers, unless a test is about how strong they are (strong is the default)
        "computer_level": "normal",
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@dataclass
class Harness:
    tg: FakeTelegram
    database: Path
    overrides: dict[str, Any] = field(default_factory=dict)
    app: App | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    #: where the bot's deals come from, across its restarts in one test
    deals: random.Random = field(default_factory=_test_deals)
    #: the turns' clock (``Scheduler``), across its restarts; None: real time
    turns: Accelerated | None = None

    async def start(self) -> None:
        # built as in production: the settings point the bot's own transport at the fake server
        app = build(settings_for(self.tg, self.database, **self.overrides))
        if self.turns is not None:
            app.bot_data.turn_clock, app.bot_data.turn_sleep = self.turns, self.turns.sleep
        await app.initialize()
        await setup(app)
        # the bot counts its group messages on the server's clock (tests may speed it up)
        kozel = app.bot_data.kozel
        assert kozel is not None
        self.app = app
        if isinstance(self.tg.clock, Accelerated):
            self.pace_by(self.tg.clock)
        kozel.service.player.rng = self.deals
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)

    def pace_by(self, clock: Accelerated) -> None:
        """The bot's group pacer counts on ``clock`` (the server's, or one faster still)."""
        self.kozel.sender.pacer.clock = clock
        self.kozel.sender.pacer.sleep = clock.sleep

    async def stop(self) -> None:
        app = self.app
        assert app is not None and app.updater is not None
        await app.updater.stop()
        await app.stop()
        await settle(app)
        await teardown(app)
        await app.shutdown()
        self.app = None

    @contextlib.asynccontextmanager
    async def restarted(self) -> AsyncIterator[Harness]:
        """The bot started again on this harness's database (stop this one first, as a
        restart would), and stopped when the block ends."""
        again = Harness(self.tg, self.database, dict(self.overrides), turns=self.turns)
        await again.start()
        try:
            yield again
        finally:
            await again.stop()

    @property
    def kozel(self) -> Kozel:
        """The running bot's parts (storage, service, sender...)."""
        assert self.app is not None
        found = self.app.bot_data.kozel
        assert found is not None
        return found

    # --- reading the chats -------------------------------------------------------------------

    def live_hand(self, user: FakeUser) -> FakeMessage | None:
        """The user's message that carries a keyboard of tiles (it is their turn)."""
        for message in reversed(self.tg.messages(user.id)):
            if message.deleted or not message.from_bot:
                continue
            if any(CALLBACK.match(str(b.get("callback_data", ""))) for b in message.buttons):
                return message
        return None

    @staticmethod
    def version_of(message: FakeMessage) -> int:
        for button in message.buttons:
            found = CALLBACK.match(str(button.get("callback_data", "")))
            if found:
                return int(found.group(2))
        return -1

    def group_texts(self, group: FakeChat) -> list[str]:
        return [m.text or "" for m in self.tg.messages(group) if m.from_bot]

    async def groups_told(self, timeout: float = 30.0) -> None:
        """Wait until the bot has handled every update it fetched and every group call it
        queued has gone out (the groups' budgets may hold the last boards and results back a
        while after the moves). A tap is answered, and its hand becomes a record, before the
        board is queued: the group's outbox alone may look idle in between."""
        # the bot finishes an update without a request the server would wake us for: look often
        await self.tg.wait_for(self._settled, timeout, what="the groups told", poll=0.005)

    def _settled(self) -> bool:
        app = self.app
        assert app is not None
        handling = app.update_processor.current_concurrent_updates
        return app.update_queue.empty() and not handling and self.kozel.sender.idle

    def match_over(self, group: FakeChat) -> bool:
        return any("goat" in text for text in self.group_texts(group))

    # --- doing things ------------------------------------------------------------------------

    async def open_table(self, opener: FakeUser, group: FakeChat) -> FakeMessage:
        await self.tg.send_text(opener, group, "/new")
        return await self.tg.wait_for_message(group, "new table")

    async def join(self, users: list[FakeUser], group: FakeChat, lobby: FakeMessage) -> None:
        for user in users:
            await self.tg.press_button(user, lobby, "✋ Join")
            await self.tg.wait_for(partial(self._lists, group, lobby, user.first_name))

    async def play_turn(self, user: FakeUser, message: FakeMessage, *, shown: bool = True) -> None:
        """Tap a playable tile (and pick an end if asked); with ``shown``, wait until the bot
        has shown the move (the hand became a record), else only until the tap is answered."""
        playable = [b for b in message.buttons if str(b.get("text", "")).startswith("✅")]
        assert playable, f"{user.first_name}'s live hand has no playable tile: {message.text}"
        tapped = self.version_of(message)  # read now: the message changes as the bot answers
        choice = self.rng.choice(playable)
        query = await self.tg.press(user, message, str(choice["callback_data"]))
        await self.tg.wait_for(lambda: query in self.tg.callback_answers, timeout=10.0)
        # then the questions a tile may ask: which end, and for English fives' doubles, which way
        current = self.tg.message(user.id, message.message_id)  # edited in place as the bot answers
        while choices := self.choices_of(current):
            asked = current.buttons
            await tap(self.tg, user, current, str(self.rng.choice(choices)["callback_data"]))
            await self.tg.wait_idle()
            if current.buttons == asked:
                break  # the question stayed: the bot died before showing the move (a test kills it)
        if not shown:
            return
        # the toast comes first; the move is done once this keyboard has become a record
        await self.tg.wait_for(
            lambda: self.version_of(self.tg.message(user.id, message.message_id)) != tapped,
            timeout=10.0,
            what=f"{user.first_name}'s hand to become a record",
        )

    @staticmethod
    def choices_of(message: FakeMessage) -> list[dict[str, Any]]:
        """The buttons of a question about the tile tapped (an end, or which way a double
        lies), whose callback data carries more than the tile."""
        return [
            b
            for b in message.buttons
            if CALLBACK.match(str(b.get("callback_data", "")))
            and str(b.get("callback_data")).count(":") >= 4
        ]

    async def play_match(
        self,
        users: list[FakeUser],
        group: FakeChat,
        max_moves: int = 2000,
        *,
        watching: bool = False,
    ) -> int:
        """Play by tapping until the goat is announced; returns the number of taps."""
        return await self.play_until(
            users, partial(self.match_over, group), max_moves, watching=watching
        )

    async def play_until(
        self,
        users: list[FakeUser],
        over: Callable[[], bool],
        max_moves: int = 2000,
        *,
        watching: bool = False,
    ) -> int:
        """Tap live hands until ``over()``; returns the number of taps. ``watching``: before
        each tap, wait until the group has seen what the bot queued for it, as someone who
        follows the board would (else a board that waits may give way to a newer one)."""
        version, taps = 0, 0

        def turn() -> tuple[FakeUser | None, FakeMessage | None] | None:
            return (None, None) if over() else self._turn(users, version)

        while taps < max_moves:
            # long enough for the goat, which may wait behind results the group's budget holds
            user, message = await self.tg.wait_for(turn, timeout=30.0)
            if user is None or message is None:
                return taps
            version = self.version_of(message)
            if watching:
                await self.groups_told()
            await self.play_turn(user, message)
            taps += 1
        raise AssertionError("the match did not end")

    def _lists(self, group: FakeChat, lobby: FakeMessage, name: str) -> bool:
        return name in (self.tg.message(group, lobby.message_id).text or "")

    async def next_turn(
        self, users: list[FakeUser], after: int = 0, timeout: float = 10.0
    ) -> tuple[FakeUser, FakeMessage]:
        """Wait for the live hand of one of ``users`` newer than version ``after``."""
        return await self.tg.wait_for(lambda: self._turn(users, after), timeout)

    async def play_until_turn_of(
        self, wanted: FakeUser, users: list[FakeUser]
    ) -> tuple[FakeMessage, int]:
        """Everyone plays on until ``wanted`` holds a live hand; returns it and its version."""
        version = 0
        while True:
            user, hand = await self.next_turn(users, version)
            version = self.version_of(hand)
            if user is wanted:
                return hand, version
            await self.play_turn(user, hand)

    async def next_turn_or_over(
        self, users: list[FakeUser], group: FakeChat, after: int = 0, timeout: float = 10.0
    ) -> tuple[FakeUser, FakeMessage] | None:
        """Like ``next_turn``, or None once the goat is announced."""

        def found() -> tuple[tuple[FakeUser, FakeMessage] | None] | None:
            if self.match_over(group):
                return (None,)
            turn = self._turn(users, after)
            return None if turn is None else (turn,)

        return (await self.tg.wait_for(found, timeout))[0]

    def _turn(self, users: list[FakeUser], after: int) -> tuple[FakeUser, FakeMessage] | None:
        for user in users:
            message = self.live_hand(user)
            if message is not None and self.version_of(message) > after:
                return user, message
        return None


def playable(hand: FakeMessage) -> str:
    """The callback data of a tile this live hand can play."""
    return str(next(b for b in hand.buttons if str(b["text"]).startswith("✅"))["callback_data"])


def one_tap(match: Match, seat: int, action: Action) -> list[Event]:
    """The events one tap makes, as the bot makes them: the move, then the leads, draws and
    knocks of people (here everyone) that the rules leave no choice about."""
    events = match.act(seat, action)
    while not match.is_over:
        turn = match.current_seat
        assert turn is not None
        lead = match.placed_lead()
        if lead is not None:
            events += match.act(turn, lead)
            continue
        actions = match.legal_actions(turn)
        if any(isinstance(a, Play | Reopen) for a in actions):
            break
        events += match.act(turn, DRAW if DRAW in actions else KNOCK)
    return events


async def stored_events(database: Path, table_id: int) -> list[dict[str, Any]]:
    async with await Storage.open(database) as storage:
        return await storage.load_events(table_id)


# --- helpers for the scenario tests (test_play_e2e.py, test_bad_input_e2e.py) ---------------


class Accelerated:
    """A clock running ``speed`` times faster than real time, for ``FakeTelegram(clock=...)``:
    the harness hands it to the bot's group pacer (``Harness.pace_by``), so a minute of
    Telegram's group limit passes in 60/speed seconds and whole matches need not wait for it."""

    def __init__(self, speed: float, now: Callable[[], float] = time.monotonic) -> None:
        self.speed = speed
        self.now = now  # the real clock it runs ahead of (``time.time`` for the turns')
        self.origin = now()

    def __call__(self) -> float:
        return self.origin + (self.now() - self.origin) * self.speed

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock."""
        await asyncio.sleep(seconds / self.speed)


BOARD_TITLE = "🎲 Kozel · round"


def texts_seen(tg: FakeTelegram, chat: FakeChat | FakeUser | int) -> list[str]:
    """Every text the bot's messages in ``chat`` ever showed, edits included, oldest first."""
    seen: list[str] = []
    for message in tg.messages(chat):
        seen += [*message.history, message.text or ""]
    return seen


def board_message(tg: FakeTelegram, group: FakeChat) -> FakeMessage:
    """The newest board in the group (the message the bot keeps editing move after move)."""
    for message in reversed(tg.messages(group, include_deleted=False)):
        if (message.text or "").startswith(BOARD_TITLE):
            return message
    raise AssertionError(f"no board in {group.id}")


async def tap(
    tg: FakeTelegram, user: FakeUser, message: FakeMessage | Mapping[str, Any], data: str
) -> CallbackAnswer:
    """Press a button with ``data`` (checked or not) and wait for the bot's answer to it."""
    query = await tg.press(user, message, data)
    return await tg.wait_for(lambda: tg.callback_answers.get(query), timeout=10.0)


async def start_match(
    harness: Harness,
    users: list[FakeUser],
    group: FakeChat,
    *,
    players: int | None = None,
    computers: int = 0,
    pairs: bool = False,
) -> FakeMessage:
    """Everyone presses Start in their DM, the first opens a table for ``players`` (default:
    the users plus the computers; four for ``pairs``), the rest join, computers take seats, and
    the match starts. Returns the lobby message."""
    tg = harness.tg
    wanted = players or len(users) + computers
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
    lobby = await harness.open_table(users[0], group)
    if wanted != 4:
        await tg.press_button(users[0], lobby, "⚙️ Rules")
        await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("Players: 4"))
        for _ in range((wanted - 4) % 3):
            # each tap waits for its answer, which comes once the lobby is redrawn: a second
            # tap on the keyboard as it was is refused as stale (a busy machine outlasts
            # wait_idle's quiet between the tap and the redraw)
            count = tg.message(group, lobby.message_id).find_button(
                lambda b: "Players:" in str(b.get("text"))
            )
            assert count is not None
            await tap(tg, users[0], lobby, str(count["callback_data"]))
        await tg.wait_for(
            lambda: tg.message(group, lobby.message_id).find_button(f"Players: {wanted}")
        )
        await tg.press_button(users[0], lobby, "« Back")
        await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("✋ Join"))
    if pairs:
        await tg.press_button(users[0], lobby, "⚙️ Rules")
        await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("Players: 4"))
        await tg.press_button(users[0], lobby, lambda b: "themselves" in str(b.get("text")))
        await tg.wait_for(lambda: "Two pairs" in (tg.message(group, lobby.message_id).text or ""))
        await tg.press_button(users[0], lobby, "« Back")
        await tg.wait_for(lambda: tg.message(group, lobby.message_id).find_button("✋ Join"))
    await harness.join(users[1:], group, lobby)
    for n in range(computers):
        await tg.press_button(users[0], lobby, "🤖 Add computer")
        wanted_text = f"Players {len(users) + n + 1}/"
        await tg.wait_for(
            lambda: wanted_text in (tg.message(group, lobby.message_id).text or "")  # noqa: B023
        )
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Pairs:" if pairs else "Order of play")
    await tg.wait_for(lambda: board_message(tg, group))
    return lobby


CANCEL_YES, KEEP_PLAYING = "✖️ Yes, cancel it", "▶️ Keep playing"


async def ask_to_cancel(
    tg: FakeTelegram, user: FakeUser, group: FakeChat, *, anonymous: bool = False
) -> FakeMessage:
    """``user`` sends /cancel during a match: the question it asks in the group."""
    sent = int((await tg.send_text(user, group, "/cancel", anonymous=anonymous))["message_id"])
    return await tg.wait_for_message(
        group, lambda m: m.message_id > sent and m.find_button(CANCEL_YES) is not None
    )


def button_data(message: FakeMessage, label: str) -> str:
    button = message.find_button(label)
    assert button is not None, label
    return str(button["callback_data"])


async def cancel_match(tg: FakeTelegram, user: FakeUser, group: FakeChat) -> CallbackAnswer:
    """``user`` sends /cancel during a match and taps ✖️ Yes, cancel it: the tap's answer."""
    question = await ask_to_cancel(tg, user, group)
    return await tap(tg, user, question, button_data(question, CANCEL_YES))
