"""Updates on their way to the bot: getUpdates long polls, or webhook POSTs once one is set.

A second long poll ends the first with 409, as on Telegram; while a webhook is set getUpdates
answers 409 and each update is POSTed, in order and one at a time, with the
``X-Telegram-Bot-Api-Secret-Token`` header (to the address given by ``deliver_to``: the
registered https URL is not on this machine).
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import aiohttp

from .calls import CallLog
from .errors import ERR_POLL_CONFLICT, ERR_WEBHOOK_ACTIVE, ApiError, bad_request
from .objects import JSONDict
from .params import Params

_DEFAULT_UPDATE_TYPES_EXCLUDED: Final = frozenset(
    {"chat_member", "message_reaction", "message_reaction_count"}
)


@dataclass
class _QueuedUpdate:
    update: JSONDict
    delivered: bool = False

    @property
    def update_id(self) -> int:
        return int(self.update["update_id"])

    @property
    def kind(self) -> str:
        return next(key for key in self.update if key != "update_id")


class UpdateQueue:
    """Updates not yet confirmed by the bot, and the two ways they reach it.

    ``injected`` keeps every update ever queued; ``webhook`` is what setWebhook registered;
    ``webhook_deliveries`` is (update_id, HTTP status the bot answered) for every POST.
    """

    def __init__(self, log: CallLog) -> None:
        self.log = log
        self.injected: list[JSONDict] = []
        self.webhook: JSONDict | None = None
        self.webhook_deliveries: list[tuple[int, int]] = []
        self.pollers = 0
        self.closing = False
        self._queue: list[_QueuedUpdate] = []
        self._update_ids = itertools.count(500_000_001)
        self._allowed: set[str] | None = None
        self._poll_generation = 0
        self._polled = False
        self._target: str | None = None
        self._delivery: asyncio.Task[None] | None = None

    def methods(self) -> dict[str, Callable[[Params], Any]]:
        return {
            "getUpdates": self._get_updates,
            "deleteWebhook": self._delete_webhook,
            "setWebhook": self._set_webhook,
            "getWebhookInfo": self._get_webhook_info,
        }

    def enqueue(self, body: JSONDict) -> int:
        """Queue an update (its ``update_id`` added) and wake whoever waits for it."""
        update_id = next(self._update_ids)
        update = {"update_id": update_id, **body}
        self._queue.append(_QueuedUpdate(update))
        self.injected.append(update)
        self.log.touch()
        self._deliver()
        self.log.wake()
        return update_id

    @property
    def pending(self) -> list[JSONDict]:
        """Updates queued but not yet confirmed by the bot (getUpdates offset)."""
        return [queued.update for queued in self._queue]

    def unfetched(self) -> bool:
        """Whether a polling bot has updates it has not fetched yet."""
        return self._polled and any(not q.delivered for q in self._queue)

    def describe(self) -> str:
        undelivered = sum(1 for q in self._queue if not q.delivered)
        return f"  pending updates: {len(self._queue)} ({undelivered} not yet fetched)"

    async def close(self) -> None:
        """Release waiting long polls and stop delivering."""
        self.closing = True
        self.log.wake()
        if self._delivery is not None:
            self._delivery.cancel()
            await asyncio.gather(self._delivery, return_exceptions=True)

    # --- getUpdates

    async def _get_updates(self, params: Params) -> list[JSONDict]:
        if self.webhook is not None:
            raise ApiError(409, ERR_WEBHOOK_ACTIVE)
        offset = params.opt_int("offset")
        limit = min(max(params.opt_int("limit") or 100, 1), 100)
        timeout = max(params.opt_float("timeout") or 0.0, 0.0)
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed = {str(kind) for kind in allowed} or None
        if offset is not None and offset > 0:
            self._queue = [q for q in self._queue if q.update_id >= offset]
        elif offset is not None and offset < 0:
            self._queue = self._queue[offset:]
        self._polled = True
        self._poll_generation += 1
        generation = self._poll_generation
        self.log.wake()  # an older long poll of the same bot must end with 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self.pollers += 1
        try:
            while True:
                batch = self._take(limit)
                if batch or self.closing:
                    return batch
                if generation != self._poll_generation:
                    raise ApiError(409, ERR_POLL_CONFLICT)
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return []
                await self.log.changed(remaining)
        finally:
            self.pollers -= 1

    def _take(self, limit: int) -> list[JSONDict]:
        if self._allowed is None:
            self._queue = [q for q in self._queue if q.kind not in _DEFAULT_UPDATE_TYPES_EXCLUDED]
        else:
            self._queue = [q for q in self._queue if q.kind in self._allowed]
        batch = self._queue[:limit]
        for queued in batch:
            queued.delivered = True
        return [queued.update for queued in batch]

    # --- webhooks

    async def _delete_webhook(self, params: Params) -> bool:
        self.webhook = None
        if params.flag("drop_pending_updates"):
            self._queue.clear()
        return True

    async def _set_webhook(self, params: Params) -> bool:
        url = params.opt_str("url") or ""
        if not url:
            self.webhook = None
            return True
        match = re.match(r"^(\w+)://[^/:]+(?::(\d+))?", url)
        if match is None or match.group(1).lower() != "https":
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if match.group(2) and int(match.group(2)) not in (80, 88, 443, 8443):
            raise bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        self.webhook = {
            "url": url,
            "secret_token": params.opt_str("secret_token"),
            "allowed_updates": params.get("allowed_updates"),
            "max_connections": params.opt_int("max_connections"),
        }
        if params.flag("drop_pending_updates"):
            self._queue.clear()
        self._deliver()
        return True

    async def _get_webhook_info(self, params: Params) -> JSONDict:
        info: JSONDict = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._queue),
        }
        if self.webhook and self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    def deliver_to(self, url: str) -> None:
        """Where the bot's webhook server really listens (e.g. ``http://127.0.0.1:PORT/path``);
        updates go there while a webhook is set."""
        self._target = url
        self._deliver()

    def _deliver(self) -> None:
        idle = self._delivery is None or self._delivery.done()
        if self.webhook is not None and self._target is not None and idle:
            self._delivery = asyncio.get_running_loop().create_task(self._post_updates())

    async def _post_updates(self) -> None:
        """POST queued updates one at a time, in order, like Telegram (one connection)."""
        async with aiohttp.ClientSession(trust_env=False) as session:
            while self._queue and self.webhook is not None and self._target:
                update = self._queue.pop(0).update
                headers: dict[str, str] = {}
                if self.webhook.get("secret_token"):
                    headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
                try:
                    async with session.post(self._target, json=update, headers=headers) as reply:
                        status = reply.status
                except aiohttp.ClientError:
                    status = 0
                self.webhook_deliveries.append((update["update_id"], status))
                self.log.touch()
                self.log.wake()
