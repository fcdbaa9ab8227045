"""The log of every request the server answered, and the waiting that tests do on it.

Waiting helpers wake up whenever the server handles a request or an update is injected
(:meth:`CallLog.wake`), so tests never need fixed sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TypeVar

from .objects import RecordedCall

T = TypeVar("T")


class CallLog:
    """``calls`` in the order their responses went out (a long poll when it returns)."""

    def __init__(self) -> None:
        self.calls: list[RecordedCall] = []
        self.inflight = 0
        self.last_activity = 0.0
        self._changed = asyncio.Event()

    def wake(self) -> None:
        """Something changed: every waiter looks again."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float) -> None:
        """Wait until the next :meth:`wake`, at most ``timeout`` seconds."""
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def touch(self) -> None:
        """Note activity, for :meth:`wait_idle`."""
        try:
            self.last_activity = asyncio.get_running_loop().time()
        except RuntimeError:
            self.last_activity = time.monotonic()

    def calls_to(self, method: str) -> list[RecordedCall]:
        """Recorded calls of one method (case-insensitive name)."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def failed_calls(self, *, include_polls: bool = False) -> list[RecordedCall]:
        """Calls answered with an error (getUpdates conflicts excluded by default)."""
        return [c for c in self.calls if not c.ok and (include_polls or c.method != "getUpdates")]

    def describe(self, last: int = 15) -> str:
        """The recent calls besides successful polls, one a line."""
        calls = [c for c in self.calls if c.method != "getUpdates" or not c.ok]
        return "\n".join([f"  {c}" for c in calls[-last:]] or ["  (no calls besides getUpdates)"])

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float,
        what: str | None,
        describe: Callable[[], str],
        poll: float = 0.1,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return it; see ``FakeTelegram.wait_for``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last_error: Exception | None = None
        while True:
            event = self._changed
            try:
                value = predicate()
            except Exception as exc:
                last_error = exc
            else:
                last_error = None
                if value:
                    return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                detail = f"; predicate raised {last_error!r}" if last_error else ""
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what or 'condition'}{detail}\n"
                    f"recent calls:\n{describe()}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, poll))

    async def wait_idle(
        self,
        quiet: float,
        timeout: float,
        unfetched: Callable[[], bool],
        describe: Callable[[], str],
    ) -> None:
        """Return once nothing happened for ``quiet`` seconds, no request is in progress and
        ``unfetched()`` is false; see ``FakeTelegram.wait_idle``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        step = max(quiet / 4, 0.005)
        while True:
            now = loop.time()
            busy = self.inflight > 0 or unfetched()
            if not busy and now - self.last_activity >= quiet:
                return
            if now >= deadline:
                raise AssertionError(
                    f"server not idle after {timeout}s\nrecent calls:\n{describe()}"
                )
            await asyncio.sleep(step)
