"""Flood control: 429 ``retry after N``, injected by a test or earned by a busy group.

Telegram allows a group about 20 calls a minute, new messages and edits alike (tdlib issue
2592); with ``enforce_group_limit`` the server counts them on its clock and answers the 21st
with the seconds until the oldest leaves the window. The per-token ~30 calls a second is not
modelled: the bot's own limiter keeps to it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .errors import flood
from .objects import ChatRef, FakeChat, JSONDict, id_of
from .params import loose_int


@dataclass
class _FloodRule:
    method: str | None
    chat_id: int | None
    retry_after: int
    remaining: int


class FloodControl:
    def __init__(
        self, clock: Callable[[], float], enforce_group_limit: bool, limit: int, window: float
    ) -> None:
        self.clock = clock
        self.enforce_group_limit = enforce_group_limit
        self.group_limit = limit
        self.group_window = window
        self._rules: list[_FloodRule] = []
        self._send_times: defaultdict[int, list[float]] = defaultdict(list)

    def inject(
        self, method: str | None, chat_id: ChatRef | None, retry_after: int, times: int
    ) -> None:
        """Answer the next ``times`` matching requests with 429 ``retry after N``.

        ``method=None`` matches any method except getUpdates; ``chat_id=None`` any chat.
        """
        self._rules.append(
            _FloodRule(
                method.lower() if method else None,
                None if chat_id is None else id_of(chat_id),
                retry_after,
                times,
            )
        )

    def check(self, method: str, params: JSONDict) -> None:
        """Raise the 429 an injected rule has in store for this request, if any."""
        for rule in self._rules:
            if rule.remaining <= 0:
                continue
            if rule.method is None and method == "getUpdates":
                continue
            if rule.method is not None and rule.method != method.lower():
                continue
            if rule.chat_id is not None and loose_int(params.get("chat_id")) != rule.chat_id:
                continue
            rule.remaining -= 1
            raise flood(rule.retry_after)

    def check_group(self, chat: FakeChat) -> None:
        """Raise 429 if one more new message or edit would exceed the group's limit."""
        if not self.enforce_group_limit or chat.type not in ("group", "supergroup"):
            return
        now = self.clock()
        recent = [t for t in self._send_times[chat.id] if now - t < self.group_window]
        if len(recent) >= self.group_limit:
            retry_after = max(1, math.ceil(min(recent) + self.group_window - now))
            raise flood(retry_after)

    def sent(self, chat_id: int, at: float) -> None:
        """Count a new message or an edit in the chat."""
        self._send_times[chat_id].append(at)

    def sent_times(self, chat: ChatRef) -> list[float]:
        """Clock times of the bot's successful new messages and edits in ``chat``."""
        return list(self._send_times[id_of(chat)])

    def max_messages_per_window(self, chat: ChatRef, window: float = 60.0) -> int:
        """Most new messages and edits ``chat`` got within any ``window`` seconds."""
        times = sorted(self._send_times[id_of(chat)])
        best = 0
        first = 0
        for last, moment in enumerate(times):
            while moment - times[first] >= window:
                first += 1
            best = max(best, last - first + 1)
        return best
