"""Saying something to a person at most once in a while."""

from __future__ import annotations

import time
from collections.abc import Callable

#: A person who chats on hears the hint again after this many seconds, not at every message.
HINT_EVERY = 600.0


class Cooldown:
    """Whether a person may be told something again: at most once per ``every`` seconds each.
    In memory: a restart only means one more hint."""

    def __init__(self, every: float = HINT_EVERY, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self.clock = clock
        self._told: dict[int, float] = {}

    def ready(self, user_id: int) -> bool:
        now = self.clock()
        self._told = {who: at for who, at in self._told.items() if now - at < self.every}
        if user_id in self._told:
            return False
        self._told[user_id] = now
        return True
