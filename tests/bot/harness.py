"""Drives the real bot against the fake Bot API server the way people in a chat would."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import App, build, setup, teardown
from bot.settings import Settings
from storage import Storage
from tests.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser

CALLBACK = re.compile(r"^p:(\d+):(\d+):")


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

    async def start(self) -> None:
        app = build(settings_for(self.tg, self.database, **self.overrides), self.tg.configure)
        await app.initialize()
        await setup(app)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        self.app = app

    async def stop(self) -> None:
        app = self.app
        assert app is not None and app.updater is not None
        await app.updater.stop()
        await app.stop()
        await teardown(app)
        await app.shutdown()
        self.app = None

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

    def match_over(self, group: FakeChat) -> bool:
        return any("goat" in text for text in self.group_texts(group))

    # --- doing things ------------------------------------------------------------------------

    async def open_table(self, opener: FakeUser, group: FakeChat) -> FakeMessage:
        await self.tg.send_text(opener, group, "/new")
        return await self.tg.wait_for_message(group, "new table")

    async def join(self, users: list[FakeUser], group: FakeChat, lobby: FakeMessage) -> None:
        for user in users:
            await self.tg.press_button(user, lobby, "✋ Join")
            await self.tg.wait_for(
                lambda u=user: u.first_name in self.tg.message(group, lobby.message_id).text
            )

    async def play_turn(self, user: FakeUser, message: FakeMessage) -> None:
        """Tap a playable tile (and pick an end if asked)."""
        playable = [b for b in message.buttons if str(b.get("text", "")).startswith("✅")]
        assert playable, f"{user.first_name}'s live hand has no playable tile: {message.text}"
        choice = self.rng.choice(playable)
        query = await self.tg.press(user, message, str(choice["callback_data"]))
        await self.tg.wait_for(lambda: query in self.tg.callback_answers, timeout=10.0)
        current = self.tg.message(user.id, message.message_id)
        ends = [b for b in current.buttons if str(b.get("callback_data", "")).count(":") == 4]
        if ends:
            query = await self.tg.press(user, current, str(self.rng.choice(ends)["callback_data"]))
            await self.tg.wait_for(lambda: query in self.tg.callback_answers, timeout=10.0)

    async def play_match(
        self, users: list[FakeUser], group: FakeChat, max_moves: int = 2000
    ) -> int:
        """Play by tapping until the goat is announced; returns the number of taps."""
        version, taps = 0, 0
        while taps < max_moves:
            found = await self.tg.wait_for(
                lambda: "over" if self.match_over(group) else self._turn(users, version),
                timeout=10.0,
            )
            if found == "over":
                return taps
            user, message = found
            version = self.version_of(message)
            await self.play_turn(user, message)
            taps += 1
        raise AssertionError("the match did not end")

    def _turn(self, users: list[FakeUser], after: int) -> tuple[FakeUser, FakeMessage] | None:
        for user in users:
            message = self.live_hand(user)
            if message is not None and self.version_of(message) > after:
                return user, message
        return None


async def stored_events(database: Path, table_id: int) -> list[dict[str, Any]]:
    async with await Storage.open(database) as storage:
        return await storage.load_events(table_id)
