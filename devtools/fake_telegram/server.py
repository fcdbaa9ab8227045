"""The fake Bot API server: HTTP routing, and one object through which tests drive it all."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

from aiohttp import web
from telegram import Bot
from telegram.ext import ApplicationBuilder
from telegram.request import HTTPXRequest

from .actions import UserActions
from .calls import CallLog
from .chats import ChatMethods
from .errors import ApiError
from .flood import FloodControl
from .messages import MessageMethods
from .objects import (
    BotAccount,
    ChatRef,
    FakeMessage,
    JSONDict,
    RecordedCall,
)
from .params import Params, read_params
from .profile import ProfileMethods
from .updates import UpdateQueue

T = TypeVar("T")
BuilderT = TypeVar("BuilderT", bound=ApplicationBuilder[Any, Any, Any, Any, Any, Any])

DEFAULT_TOKEN: Final = "123456789:AAFakeTokenForTestsOnly-0123456789abc"


class FakeTelegram(UserActions):
    """A fake Bot API server; see the package docstring for an example.

    Tests build its world and act in it through the methods of ``World`` and ``UserActions``
    (``user``, ``group``, ``send_text``, ``press_button``, ``messages``...); the rest of what
    happened is below.

    Args:
        bot_username: the bot's username (getMe, ``/cmd@bot`` routing, mentions).
        enforce_group_limit: answer 429 when a group gets more than ``group_limit`` new
            messages and edits within ``group_window`` seconds (counted on ``clock``).
        token: the token the bot must use; other tokens get 401 Unauthorized.
        privacy_mode: like BotFather's default (see ``actions``).
        strict_html: reject ``&`` that does not start an HTML entity (see ``parse_html``).
        text_limit_utf16: count the 4096 limit in UTF-16 code units (astral characters such as
            domino tiles U+1F030.. count twice) rather than in code points.  Telegram does
            not document the unit; UTF-16 is the stricter choice, so a text that passes here
            passes on Telegram either way.
        clock: time source for ``sent_at``, call times and the group limit.

    Attributes tests read or set directly:
        calls: every handled request (:class:`RecordedCall`), getUpdates included.
        callback_answers, admins / creators / members / topic_managers, started / blocked /
            kicked: see ``World``.
        commands: see ``ProfileMethods``.
        chat_actions: ``(chat_id, action)`` from sendChatAction.
        injected_updates: every update injected, confirmed or not.
        webhook / webhook_deliveries: see ``UpdateQueue``.
    """

    def __init__(
        self,
        bot_username: str = "KozelTestBot",
        enforce_group_limit: bool = False,
        *,
        token: str = DEFAULT_TOKEN,
        bot_first_name: str = "Kozel Test Bot",
        privacy_mode: bool = True,
        strict_html: bool = True,
        text_limit_utf16: bool = True,
        group_limit: int = 20,
        group_window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        host: str = "127.0.0.1",
    ) -> None:
        log = CallLog()
        bot = BotAccount(token, bot_username, bot_first_name, privacy_mode)
        super().__init__(clock, bot, UpdateQueue(log), log)
        self.host = host
        self.flood = FloodControl(clock, enforce_group_limit, group_limit, group_window)
        self.profile = ProfileMethods(self.bot)
        self.chat_methods = ChatMethods(self, self.bot)
        self.message_methods = MessageMethods(
            self,
            self.bot,
            self.flood,
            strict_html=strict_html,
            text_limit_utf16=text_limit_utf16,
        )
        handlers = {
            **self.profile.methods(),
            **self.updates.methods(),
            **self.message_methods.methods(),
            **self.chat_methods.methods(),
        }
        self._methods: dict[str, tuple[str, Callable[[Params], Any]]] = {
            name.lower(): (name, handler) for name, handler in handlers.items()
        }
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # --- lifecycle

    async def start(self) -> None:
        """Listen on a free port of ``host``."""
        if self._runner is not None:
            raise RuntimeError("FakeTelegram is already running")
        self.updates.closing = False
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("*", "/{tail:.*}", self._handle_other)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        site = web.SockSite(runner, sock)
        await site.start()
        self._runner = runner
        self._port = int(sock.getsockname()[1])
        self.log.touch()

    async def stop(self) -> None:
        """Release waiting long polls and shut the HTTP server down."""
        await self.updates.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return self._port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What to pass to ``ApplicationBuilder.base_url`` / ``Bot(base_url=...)``."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    # --- the bot's identity

    @property
    def token(self) -> str:
        return self.bot.token

    @property
    def bot_id(self) -> int:
        return self.bot.id

    @property
    def bot_username(self) -> str:
        return self.bot.username

    @property
    def bot_user(self) -> JSONDict:
        """The bot's ``User`` object."""
        return self.bot.user

    # --- PTB wiring

    def make_request(self, **kwargs: Any) -> HTTPXRequest:
        """An ``HTTPXRequest`` that ignores proxy variables (``trust_env=False``)."""
        kwargs.setdefault("connect_timeout", 2.0)
        kwargs.setdefault("read_timeout", 5.0)
        return HTTPXRequest(httpx_kwargs={"trust_env": False}, **kwargs)

    def configure(self, builder: BuilderT) -> BuilderT:
        """Point an ``ApplicationBuilder`` at this server (token, URLs, proxy-free requests).

        No rate limiter is set; add one yourself if the test wants it.
        """
        return (
            builder.token(self.token)
            .base_url(self.base_url)
            .base_file_url(self.base_file_url)
            .request(self.make_request())
            .get_updates_request(self.make_request())
        )

    def make_bot(self) -> Bot:
        """A plain ``telegram.Bot`` talking to this server (use ``async with bot:``)."""
        return Bot(
            self.token,
            base_url=self.base_url,
            base_file_url=self.base_file_url,
            request=self.make_request(),
            get_updates_request=self.make_request(),
        )

    # --- faults

    def inject_flood(
        self,
        method: str | None = "sendMessage",
        chat_id: ChatRef | None = None,
        retry_after: int = 1,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` matching requests with 429 ``retry after N``.

        ``method=None`` matches any method except getUpdates; ``chat_id=None`` any chat.
        """
        self.flood.inject(method, chat_id, retry_after, times)

    @property
    def enforce_group_limit(self) -> bool:
        return self.flood.enforce_group_limit

    @enforce_group_limit.setter
    def enforce_group_limit(self, on: bool) -> None:
        self.flood.enforce_group_limit = on

    # --- what happened

    @property
    def calls(self) -> list[RecordedCall]:
        return self.log.calls

    @property
    def commands(self) -> dict[tuple[str, str], list[JSONDict]]:
        return self.profile.commands

    @property
    def chat_actions(self) -> list[tuple[int, str]]:
        return self.chat_methods.chat_actions

    @property
    def injected_updates(self) -> list[JSONDict]:
        return self.updates.injected

    @property
    def webhook(self) -> JSONDict | None:
        return self.updates.webhook

    @property
    def webhook_deliveries(self) -> list[tuple[int, int]]:
        return self.updates.webhook_deliveries

    def deliver_webhooks_to(self, url: str) -> None:
        """Where the bot's webhook server really listens; updates go there while one is set."""
        self.updates.deliver_to(url)

    def calls_to(self, method: str) -> list[RecordedCall]:
        """Recorded calls of one method (case-insensitive name)."""
        return self.log.calls_to(method)

    def failed_calls(self, *, include_polls: bool = False) -> list[RecordedCall]:
        """Calls answered with an error (getUpdates conflicts excluded by default)."""
        return self.log.failed_calls(include_polls=include_polls)

    def sent_times(self, chat: ChatRef) -> list[float]:
        """Clock times of the bot's successful new messages and edits in ``chat``."""
        return self.flood.sent_times(chat)

    def max_messages_per_window(self, chat: ChatRef, window: float = 60.0) -> int:
        """Most new messages and edits ``chat`` got within any ``window`` seconds."""
        return self.flood.max_messages_per_window(chat, window)

    def command_names(self, scope: str = "default", language_code: str = "") -> list[str]:
        """Commands registered for a scope key and language (see :attr:`commands`)."""
        return self.profile.command_names(scope, language_code)

    @property
    def waiting_polls(self) -> int:
        """How many getUpdates long polls are waiting right now."""
        return self.updates.pollers

    @property
    def pending_updates(self) -> list[JSONDict]:
        """Updates injected but not yet confirmed by the bot (getUpdates offset)."""
        return self.updates.pending

    def describe(self, last: int = 15) -> str:
        """A readable summary of recent calls, for assertion messages."""
        return f"{self.log.describe(last)}\n{self.updates.describe()}"

    # --- waiting

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        *,
        what: str | None = None,
        poll: float = 0.1,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        It is re-evaluated whenever the server handles a request or an update is injected
        (and every ``poll`` seconds as a fallback, for a predicate on what the bot does
        without a request).  Exceptions raised by the predicate count as "not yet"
        (``lambda: server.last_message(chat).text == "x"`` works before any message).
        On timeout raises AssertionError with the last calls.
        """
        return await self.log.wait_for(predicate, timeout, what, self.describe, poll)

    async def wait_for_message(
        self,
        chat: ChatRef,
        match: str | Callable[[FakeMessage], bool] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a (not deleted) bot message in ``chat`` whose text contains ``match`` (or
        that satisfies a predicate); returns the most recent one."""

        def find() -> FakeMessage | None:
            for message in reversed(self.messages(chat, include_deleted=False)):
                if match is None:
                    return message
                if callable(match):
                    if match(message):
                        return message
                elif message.text is not None and match in message.text:
                    return message
            return None

        return await self.wait_for(find, timeout, what=f"a message {match!r} in {chat!r}")

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Return once no request (other than an idle long poll) arrived for ``quiet`` seconds,
        none is in progress and every injected update was fetched by the bot.

        A heuristic: a handler busy with something other than Telegram for longer than
        ``quiet`` looks idle.  Prefer :meth:`wait_for` on the effect you expect.
        """
        await self.log.wait_idle(quiet, timeout, self.updates.unfetched, self.describe)

    # --- HTTP

    async def _handle_other(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )

    async def _handle_api(self, request: web.Request) -> web.Response:
        """Route ``/bot<token>/<method>`` to its handler and record the call and its outcome."""
        token = request.match_info["token"]
        method_name = request.match_info["method"]
        try:
            params = await read_params(request)
        except (ValueError, UnicodeDecodeError):
            params = {}
        known = self._methods.get(method_name.lower())
        canonical = known[0] if known else method_name
        is_poll = canonical == "getUpdates"
        recorded = RecordedCall(canonical, params, self.clock())
        if not is_poll:
            self.log.inflight += 1
            self.log.touch()
            self.log.wake()
        try:
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if known is None:
                raise ApiError(404, "Not Found: method not found")
            self.flood.check(canonical, params)
            result = await known[1](Params(params))
            recorded.result = result
            payload: JSONDict = {"ok": True, "result": result}
        except ApiError as exc:
            recorded.status = exc.status
            recorded.error = exc.description
            payload = {"ok": False, "error_code": exc.status, "description": exc.description}
            if exc.parameters:
                payload["parameters"] = exc.parameters
        except Exception as exc:  # a bug in the fake: make it visible, not a hang
            recorded.status = 500
            recorded.error = f"Internal Server Error: fake server failed: {exc!r}"
            payload = {"ok": False, "error_code": 500, "description": recorded.error}
        finally:
            if not is_poll:
                self.log.inflight -= 1
        self.log.calls.append(recorded)
        if not is_poll or recorded.result:
            self.log.touch()
        self.log.wake()
        return web.json_response(payload, status=recorded.status, dumps=_dumps)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
