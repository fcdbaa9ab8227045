"""How many Bot API calls does a move cost, and how long after the tap is the bot done with it?

Plays many Kozel tables at once through the fake Bot API server (``devtools.fake_telegram``)
with the real bot: ``bot.app.build(settings)`` exactly as ``python -m bot`` builds it (its
aiohttp transport, ``bot/transport.py``, with the default pool), in polling mode, rate limiter
off (``--rate-limit``: on, as in production), ``computer_delay=0``, a one hour turn time (no
timer fires), one SQLite file in a temp directory. Each table is a group with four people, all
human. A fake person taps a ✅ tile of their live hand message when it arrives, after a think
time (``--think``, default 3 s mean, uniform between half and one and a half times that: a brisk
human; 200 tables then offer about 60 moves/s), and an end button when the bot asks which end.
When a match ends the table opens the next one (/new, three ✋ Join taps, ▶️ Start; none of that
is measured), so the load stays constant. Before the measured window every table fast-forwards
its first match by 0-24 moves, so that tables are spread over the round and round ends fall in
the window, and then the run warms up for ``--warmup`` seconds.

Two processes (the default): the fake server and the fake people run in this process, the
bot in a child process (``multiprocessing``, spawn). The fake is not cheap: it parses every
HTML text like TDLib, builds JSON and runs aiohttp; sharing one event loop would charge its
CPU to the bot's latency and make the bot wait behind it. Apart, each has a core of the 2-core
machine, as the bot would in production (Telegram's servers are not on its CPU). The fake's
time spent answering the bot's requests still counts in every figure, because the bot waits
for those answers. ``--same-process`` runs both on one event loop, for comparison.

What is measured, per move (all clocks are this process's ``time.monotonic``):

* the tap is the injection of the ``callback_query`` update (``FakeTelegram.press``);
* the calls of a move are the Bot API requests the fake server answers, from the tap until the
  next live hand (a DM keyboard with ✅ tiles) appears or the match ends, that go to the
  table's players' DMs, plus the ``answerCallbackQuery`` of the tap (``getUpdates`` is not a
  call of any move). Failed calls count too. Calls that arrive for a table while none of its
  moves is open (after the next live hand, before the next tap) are reported as "late
  calls": there should be none. The group's calls go when its budget allows, not with the
  move (``bot/pacing.py``): a move queues at most one board, which a newer one may replace;
  they are reported per move and per minute;
* the latency is from the tap to the moment the fake server has answered the last of those
  calls (for an ordinary move: sent the next player's hand);
* an ordinary move is a tap that plays a tile without ending the round (one new hand in the
  DMs). Round ends and the match end are counted in "all moves". A tap on a tile that
  fits both ends is not a move: it only brings up the end buttons (an edit and an answer) and
  is reported on its own ("end prompts"); the tap on the end button is the move.

Also printed: moves/s, the time from tap to answer (the toast), the CPU seconds each
process spent per move in the measured window (the bot's includes its SQLite thread), and the
machine's load average before the run (other work on the machine competes for its 2 cores).

``--transport httpx`` runs the bot on PTB's own ``HTTPXRequest`` instead (the setting
``KOZEL_HTTP_CLIENT=httpx``), to show what the HTTP client costs; ``--pool N`` sets
``KOZEL_CONNECTION_POOL``. ``--profile`` runs cProfile
on the bot's event loop thread (CPU time, so other processes do not distort it) during the
window and prints the top functions; latencies of a profiled run mean nothing.

    python -m benchmarks.bench_bot                       # 10 and 200 tables, 20 s each
    python -m benchmarks.bench_bot --tables 200 --seconds 30 --think 1
    python -m benchmarks.bench_bot --tables 200 --transport httpx
    python -m benchmarks.bench_bot --tables 200 --profile /tmp/bot.prof   # cProfile the bot
    python -m benchmarks.bench_bot --capacity          # tables one token sustains, think 3 and 8 s

Capacity: Telegram allows one bot token about 30 calls a second, and PTB's ``AIORateLimiter``
(the bot's, with the production settings) holds every call that names a chat to that rate. The
fake server enforces no such limit; the limiter in the bot is what makes moves wait. Each run
prints the calls to chats a table makes a second and the table count that uses up the 30;
``--capacity`` measures that at each think time, then plays at shares of it with the limiter
on and reports the most tables whose moves do not wait: the limiter holds under 1 call in 100
for 10 ms or more (timed inside the bot, so a loaded machine does not blur it).

Goals (on a 2-core machine, 200 tables): at most 4 Bot API calls per ordinary move, and p99
from tap to last call under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import logging
import math
import multiprocessing
import os
import pstats
import random
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram.constants import FloodLimit
from telegram.ext import AIORateLimiter

from devtools.fake_telegram import DEFAULT_TOKEN, FakeTelegram, FakeUser, RecordedCall

JSON = dict[str, Any]
#: seconds a fake person waits for the bot before calling the run broken: a minute and more,
#: because the goat and the lobby wait their turn in the group's budget (bot/pacing.py), which a
#: burst of moves (the fast-forward below) can leave empty for up to a minute
TIMEOUT = 90.0
SPREAD = 25  # about the moves of a round of four
MATCH_OVER = "/new for another match"  # the last line of the match result (en)
#: calls a second to chats that PTB's AIORateLimiter allows one bot token (its default)
TOKEN_RATE = FloodLimit.MESSAGES_PER_SECOND
PROBE_TABLES = 10  # a table count far below what one token sustains
WAIT_FIGURES = ("wait-p99", "wait-max", "wait-share")
WAIT_GOAL_MS = 10.0  # moves "start to wait" once the limiter holds 1 call in 100 this long


# --- the bot side ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BotOptions:
    """What the bot's process needs to know (picklable, for the spawned child)."""

    base_url: str
    database: Path
    profile: str | None = None  # cProfile output path
    pool: int | None = None  # KOZEL_CONNECTION_POOL; None: the bot's default
    transport: str | None = None  # KOZEL_HTTP_CLIENT ("aiohttp" or "httpx"); None: the default
    rate_limit: bool = False  # KOZEL_RATE_LIMIT: the production limiter (30 calls/s to chats)


@dataclass
class LimiterWaits:
    """How long the rate limiter held each call to a chat before sending it.

    Wraps ``AIORateLimiter.process_request`` (PTB's ``BaseRateLimiter`` interface) in the bot's
    process, where it is the only limiter; its instances have ``__slots__``, so the wrapper goes
    on the class. A call's wait runs from reaching the limiter to the limiter calling through to
    the transport. Unlike the latency seen from the fake server, it does not grow with the load
    on the machine.
    """

    def __init__(self) -> None:
        self.counting = False
        self.waits: list[float] = []
        inner = AIORateLimiter.process_request

        async def process_request(  # noqa: PLR0917  (the signature is BaseRateLimiter's)
            limiter: AIORateLimiter,
            callback: Callable[..., Coroutine[Any, Any, Any]],
            args: Any,
            kwargs: dict[str, Any],
            endpoint: str,
            data: dict[str, Any],
            rate_limit_args: Any,
        ) -> Any:
            arrived = time.monotonic()

            async def timed(*a: Any, **k: Any) -> Any:
                if self.counting and data.get("chat_id") is not None:
                    self.waits.append(time.monotonic() - arrived)
                return await callback(*a, **k)

            return await inner(limiter, timed, args, kwargs, endpoint, data, rate_limit_args)

        AIORateLimiter.process_request = process_request  # type: ignore[method-assign,assignment]

    def figure(self, name: str) -> float:
        """``wait-p99``/``wait-max`` in ms, ``wait-share``: the share held over 1 ms."""
        waits = [w * 1000 for w in self.waits]
        if name == "wait-p99":
            return percentile(waits, 99)
        if name == "wait-max":
            return max(waits, default=float("nan"))
        return sum(1 for w in waits if w > 1) / max(len(waits), 1)


@dataclass
class BotRun:
    """The real application, built by ``bot.app.build`` exactly as in production (no
    ``configure``), and started the way the test harness does it."""

    options: BotOptions
    profile: cProfile.Profile | None = None
    app: Any = None
    limiter: LimiterWaits | None = None

    async def start(self) -> None:
        from bot.app import build, setup  # noqa: PLC0415  (imported in the bot's process)
        from bot.settings import Settings  # noqa: PLC0415

        # httpx honours proxy variables; the fake server is on 127.0.0.1.
        for name in ("NO_PROXY", "no_proxy"):
            os.environ[name] = "127.0.0.1,localhost"
        client: dict[str, Any] = {}
        if self.options.pool is not None:
            client["connection_pool"] = self.options.pool
        if self.options.transport is not None:
            client["http_client"] = self.options.transport
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            **client,
            bot_token=DEFAULT_TOKEN,  # type: ignore[arg-type]
            base_url=f"{self.options.base_url}/bot",
            base_file_url=f"{self.options.base_url}/file/bot",
            database=self.options.database,
            rate_limit=self.options.rate_limit,
            computer_delay=0.0,
            default_language="en",
            turn_seconds=3600,
        )
        if settings.rate_limit:
            self.limiter = LimiterWaits()
        app = build(settings)
        await app.initialize()
        await setup(app)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=10)
        self.app = app

    async def stop(self) -> None:
        from bot.app import teardown  # noqa: PLC0415

        app = self.app
        if app is None:
            return
        await app.updater.stop()
        await app.stop()
        await teardown(app)
        await app.shutdown()
        self.app = None

    def command(self, name: str) -> float:
        """``cpu``: process CPU seconds so far; ``window-on``/``window-off``: the measured
        window: the limiter's waits are counted and, with ``options.profile``, the event loop
        thread is profiled (written there when switched off); ``wait-*``: the limiter's figures
        (NaN without a limiter)."""
        if name.startswith("wait-"):
            return float("nan") if self.limiter is None else self.limiter.figure(name)
        if self.limiter is not None and name.startswith("window-"):
            self.limiter.counting = name == "window-on"
        path = self.options.profile
        if name == "window-on" and path:
            # CPU time of the event loop's thread: other processes on the machine (and the
            # SQLite thread) do not show up as time spent in whatever was running.
            self.profile = cProfile.Profile(time.thread_time)
            self.profile.enable()
        elif name == "window-off" and self.profile is not None and path:
            self.profile.disable()
            self.profile.dump_stats(path)
            self.profile = None
        return time.process_time()


async def _serve_bot(options: BotOptions, conn: Connection) -> None:
    run = BotRun(options)
    await run.start()
    conn.send("ready")
    loop = asyncio.get_running_loop()
    while True:
        name = await loop.run_in_executor(None, conn.recv)
        if name == "stop":
            await run.stop()
            conn.send(time.process_time())
            return
        conn.send(run.command(str(name)))


def bot_process(options: BotOptions, conn: Connection) -> None:
    """The child process: the bot until the parent says ``stop``."""
    logging.basicConfig(level=logging.WARNING, format="bot: %(levelname)s %(name)s: %(message)s")
    asyncio.run(_serve_bot(options, conn))


class BotControl:
    """Start, query and stop the bot, in a child process or on this event loop."""

    def __init__(self, options: BotOptions, same_process: bool) -> None:
        self.options, self.same_process = options, same_process
        self._run: BotRun | None = None
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None

    async def start(self) -> None:
        if self.same_process:
            self._run = BotRun(self.options)
            await self._run.start()
            return
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self._conn = ours
        self._process = context.Process(
            target=bot_process, args=(self.options, theirs), name="kozel-bot"
        )
        self._process.start()
        ready = await self._recv(timeout=60.0)
        assert ready == "ready", ready

    async def _recv(self, timeout: float) -> Any:
        assert self._conn is not None
        conn = self._conn
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(None, conn.recv), timeout)

    async def command(self, name: str) -> float:
        if self._run is not None:
            return self._run.command(name)
        assert self._conn is not None
        self._conn.send(name)
        return float(await self._recv(timeout=60.0))

    async def stop(self) -> None:
        if self._run is not None:
            await self._run.stop()
            return
        if self._conn is not None:
            self._conn.send("stop")
            with contextlib.suppress(TimeoutError):
                await self._recv(timeout=30.0)
        if self._process is not None:
            self._process.join(10)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(5)


# --- the people side -------------------------------------------------------------------------


@dataclass
class Signal:
    """Something a fake person reacts to, seen in a Bot API call the server answered."""

    kind: str  # answer | hand | ends | lobby | over
    chat_id: int = 0
    message_id: int = 0
    buttons: list[JSON] = field(default_factory=list)
    text: str = ""
    query_id: str = ""


@dataclass
class Move:
    kind: str  # play | prompt
    pressed: float
    calls: int = 0
    methods: list[str] = field(default_factory=list)
    last: float = 0.0
    answered: float = 0.0
    hands_sent: int = 0  # new messages in the DMs: more than one when a round is dealt
    over: bool = False

    @property
    def category(self) -> str:
        if self.kind == "prompt":
            return "prompt"
        if self.over:
            return "match end"
        return "round end" if self.hands_sent > 1 else "ordinary"

    @property
    def latency_ms(self) -> float:
        return (self.last - self.pressed) * 1000

    @property
    def answer_ms(self) -> float:
        return (self.answered - self.pressed) * 1000


class Broken(Exception):
    """The bot did not answer a tap the way a working bot would."""


class Bench(FakeTelegram):
    """The fake server, watching every answered call to attribute it to a table's move."""

    def __init__(self) -> None:
        super().__init__()
        self.owner: dict[int, Table] = {}
        self.queries: dict[str, Table] = {}
        self.late_calls = 0
        self.counting = False  # during the measured window
        self.chat_calls = 0  # calls that name a chat: what the overall limiter counts
        self.failed = 0
        self.failed_examples: list[str] = []

    async def _handle_api(self, request: web.Request) -> web.Response:
        response = await super()._handle_api(request)
        # No await between the server recording the call and returning: it is the last one.
        call = self.calls[-1]
        if call.method != "getUpdates":
            self._observe(call, time.monotonic())
        if len(self.calls) > 10_000:
            del self.calls[:5_000]
        return response

    def _observe(self, call: RecordedCall, done: float) -> None:
        if self.counting and call.params.get("chat_id") is not None:
            self.chat_calls += 1
        if not call.ok:
            self.failed += 1
            if len(self.failed_examples) < 5:
                self.failed_examples.append(str(call))
        if call.method == "answerCallbackQuery":
            query_id = str(call.params.get("callback_query_id", ""))
            table = self.queries.pop(query_id, None)
            if table is not None:
                table.on_call(call, done, is_group=False)
                text = str(call.params.get("text") or "")
                table.signal(Signal("answer", text=text, query_id=query_id))
            return
        chat_id = _as_int(call.params.get("chat_id"))
        table = self.owner.get(chat_id) if chat_id is not None else None
        if table is None:
            return
        is_group = chat_id == table.group_id
        table.on_call(call, done, is_group=is_group)
        result = call.result
        if not call.ok or not isinstance(result, dict) or chat_id is None:
            return
        markup = result.get("reply_markup") or {}
        buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
        data = [str(b.get("callback_data", "")) for b in buttons]
        text = str(result.get("text") or "")
        message_id = int(result["message_id"])
        if not is_group:
            if any(str(b.get("text", "")).startswith("✅") for b in buttons):
                table.signal(Signal("hand", chat_id, message_id, buttons, text))
            elif any(d.startswith("p:") and d.count(":") == 4 for d in data):
                table.signal(Signal("ends", chat_id, message_id, buttons, text))
        elif any(d.startswith("j:") for d in data):  # the lobby, posted or redrawn
            table.signal(Signal("lobby", chat_id, message_id, buttons, text))
        elif call.method == "sendMessage" and MATCH_OVER in text:
            table.signal(Signal("over", chat_id, message_id, buttons, text))


def _as_int(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
    return None


class Table:
    """A group and its four fake people, playing match after match."""

    def __init__(self, bench: Bench, run: Run, index: int, think: float) -> None:
        self.bench, self.run, self.think = bench, run, think
        self.rng = random.Random(index)
        self.group_id = -(1_000_000 + index)
        self.group = bench.group(self.group_id, f"Yard {index}")
        self.users = [bench.user(10_000 + 4 * index + k, f"P{index}-{k}") for k in range(4)]
        self.by_id: dict[int, FakeUser] = {u.id: u for u in self.users}
        bench.owner[self.group_id] = self
        for user in self.users:
            bench.owner[user.id] = self
            bench.mark_started(user)
        self.signals: asyncio.Queue[Signal] = asyncio.Queue()
        self.move: Move | None = None
        self.between_moves = False
        self.matches = 0

    # calls and signals, from the server

    def on_call(self, call: RecordedCall, done: float, *, is_group: bool) -> None:
        move = self.move
        if is_group:
            return  # paced, not with a move: see report_group_calls
        if move is not None:
            move.calls += 1
            move.methods.append(call.method)
            move.last = done
            if call.method == "answerCallbackQuery":
                move.answered = done
            if call.method == "sendMessage":
                move.hands_sent += 1
        elif self.between_moves:
            self.bench.late_calls += 1

    def signal(self, signal: Signal) -> None:
        self.signals.put_nowait(signal)

    async def _next(self) -> Signal:
        try:
            return await asyncio.wait_for(self.signals.get(), TIMEOUT)
        except TimeoutError:
            raise Broken(f"table {self.group_id}: no answer in {TIMEOUT} s") from None

    async def _press(self, user_id: int, message_id: int, data: str) -> str:
        user = self.by_id[user_id]
        message = {"chat": {"id": user_id}, "message_id": message_id}
        query_id = await self.bench.press(user, message, data)
        self.bench.queries[query_id] = self
        return query_id

    async def _until(
        self, query_id: str | None, outcomes: tuple[str, ...], toast: str = "You played"
    ) -> Signal:
        """Wait for the answer to ``query_id`` (if any) and for one of ``outcomes`` (if any).

        An answer that is neither empty nor starts with ``toast`` is a refusal: the run is
        broken (a stale or misread keyboard), since every tap here should succeed."""
        answered = query_id is None
        found: Signal | None = None
        while not (answered and (found is not None or not outcomes)):
            signal = await self._next()
            if signal.kind == "answer" and signal.query_id == query_id:
                answered = True
                if signal.text and not signal.text.startswith(toast):
                    raise Broken(f"table {self.group_id}: tap refused: {signal.text!r}")
            elif signal.kind in outcomes:
                found = signal
        return found if found is not None else Signal("answer")

    async def _think(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)

    # playing

    async def open_match(self) -> Signal:
        """/new, three joins and Start: returns the first live hand (nothing is measured)."""
        opener = self.users[0]
        await self.bench.send_text(opener, self.group, "/new")
        lobby = await self._until(None, ("lobby",))
        for user in self.users[1:]:
            # lobby buttons carry a digest of the lobby: press the ones of its latest drawing
            join = next(str(b["callback_data"]) for b in lobby.buttons if b["text"] == "✋ Join")
            query_id = await self._press_group(user, lobby.message_id, join)
            lobby = await self._until(query_id, ("lobby",), toast="You are in")
        start = next(str(b["callback_data"]) for b in lobby.buttons if b["text"] == "▶️ Start")
        query_id = await self._press_group(opener, lobby.message_id, start)
        hand = await self._until(query_id, ("hand",), toast="The match has started")
        self.matches += 1
        return hand

    async def _press_group(self, user: FakeUser, message_id: int, data: str) -> str:
        message = {"chat": {"id": self.group_id}, "message_id": message_id}
        query_id = await self.bench.press(user, message, data)
        self.bench.queries[query_id] = self
        return query_id

    async def _tap(self, kind: str, chat_id: int, message_id: int, data: str) -> Signal:
        """One measured tap; returns what it led to (hand, ends or over)."""
        self.between_moves = False
        move = Move(kind, time.monotonic())
        self.move = move
        query_id = await self._press(chat_id, message_id, data)
        outcome = await self._until(query_id, ("hand", "ends", "over"))
        self.move = None
        self.between_moves = outcome.kind != "over"
        if outcome.kind == "ends":
            move.kind = "prompt"
        move.over = outcome.kind == "over"
        self.run.record(move)
        return outcome

    async def play(self, hand: Signal) -> Signal | None:
        """Tap a ✅ tile (and an end if asked): the next live hand, or None at the match end."""
        playable = [b for b in hand.buttons if str(b.get("text", "")).startswith("✅")]
        choice = str(self.rng.choice(playable)["callback_data"])
        outcome = await self._tap("play", hand.chat_id, hand.message_id, choice)
        if outcome.kind == "ends":
            await self._think()
            ends = [
                str(b["callback_data"])
                for b in outcome.buttons
                if str(b.get("callback_data", "")).count(":") == 4
            ]
            outcome = await self._tap(
                "play", outcome.chat_id, outcome.message_id, self.rng.choice(ends)
            )
        return None if outcome.kind == "over" else outcome

    async def run_forever(self, ready: Callable[[], None]) -> None:
        """Match after match until the run stops. The first match is fast-forwarded by 0 to
        ``SPREAD - 1`` moves (no think time, before the measured window): tables that all
        started round 1 together would otherwise all end their rounds together, maybe
        never inside the window."""
        first = True
        while not self.run.stopping:
            self.between_moves = False
            hand: Signal | None = await self.open_match()
            if first:
                for _ in range(self.rng.randrange(SPREAD)):
                    if hand is not None:
                        hand = await self.play(hand)
                ready()
                first = False
            while hand is not None and not self.run.stopping:
                await self._think()
                if self.run.stopping:
                    break
                hand = await self.play(hand)


# --- one run and its figures -----------------------------------------------------------------


@dataclass
class Run:
    tables: int
    think: float
    window: tuple[float, float] = (float("inf"), float("inf"))
    stopping: bool = False
    moves: list[Move] = field(default_factory=list)

    def record(self, move: Move) -> None:
        if self.window[0] <= move.pressed < self.window[1]:
            self.moves.append(move)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, round(p / 100 * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


async def measure(
    tables: int,
    *,
    think: float,
    seconds: float,
    warmup: float,
    same_process: bool,
    profile: str | None,
    pool: int | None = None,
    transport: str | None = None,
    rate_limit: bool = False,
) -> dict[str, float]:
    run = Run(tables, think)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        bench = Bench()
        async with bench:
            options = BotOptions(
                bench.url, Path(tmp) / "kozel.sqlite3", profile, pool, transport, rate_limit
            )
            control = BotControl(options, same_process)
            await control.start()
            try:
                started = 0
                all_started = asyncio.Event()

                def ready() -> None:
                    nonlocal started
                    started += 1
                    if started == tables:
                        all_started.set()

                people = [Table(bench, run, i, think) for i in range(tables)]
                tasks = [asyncio.create_task(t.run_forever(ready)) for t in people]
                waiter = asyncio.create_task(all_started.wait())
                done, _ = await asyncio.wait(
                    [waiter, *tasks], timeout=600, return_when=asyncio.FIRST_COMPLETED
                )
                if waiter not in done:
                    for task in done:
                        task.result()  # a table broke: show why
                    raise Broken("the tables did not all start within 600 s")
                await asyncio.sleep(warmup)
                bot_cpu = await control.command("window-on")
                our_cpu = time.process_time()
                begin = time.monotonic()
                run.window = (begin, begin + seconds)
                bench.counting = True
                await _sleep_watching(seconds, tasks)
                bench.counting = False
                run.stopping = True
                elapsed = time.monotonic() - begin
                bot_cpu = await control.command("window-off") - bot_cpu
                waits = {name: await control.command(name) for name in WAIT_FIGURES}
                our_cpu = time.process_time() - our_cpu
                results = await asyncio.wait_for(
                    asyncio.gather(*tasks, return_exceptions=True), TIMEOUT * 2
                )
                errors = [r for r in results if isinstance(r, BaseException)]
                if errors:
                    raise errors[0]
                matches = sum(t.matches for t in people)
            finally:
                await control.stop()
    print(f"\n(load average before the run: {load:.2f}; {os.cpu_count()} CPUs)", end="")
    figures = report(
        run,
        bench,
        elapsed=elapsed,
        bot_cpu=bot_cpu,
        our_cpu=our_cpu,
        same_process=same_process,
        matches=matches,
        profiled=profile is not None,
        client=f"{transport or 'default'} client, pool {pool or 'default'}",
        waits=waits,
    )
    report_group_calls(bench, run, people)
    return figures


def report_group_calls(bench: Bench, run: Run, people: list[Table]) -> None:
    """Telegram allows a group about 20 calls a minute, edits included: how many each table's
    group got in the measured window (new messages and edits that succeeded), and per move."""
    begin, end = run.window
    counts = [
        sum(begin <= moment < end for moment in bench.sent_times(table.group_id))
        for table in people
    ]
    rates = [count * 60 / (end - begin) for count in counts]
    moves = sum(1 for move in run.moves if move.kind == "play")
    print(
        f"group calls per minute per table: mean {mean(rates):.1f}, max {max(rates):.1f} "
        "(Telegram allows about 20; the bot keeps to KOZEL_GROUP_MESSAGES_PER_MINUTE, 18); "
        f"per move: {sum(counts) / max(moves, 1):.2f}"
    )


async def _sleep_watching(seconds: float, tasks: list[asyncio.Task[None]]) -> None:
    """Sleep, but fail at once if a table broke meanwhile."""
    done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    for task in done:
        task.result()


def report(
    run: Run,
    bench: Bench,
    *,
    elapsed: float,
    bot_cpu: float,
    our_cpu: float,
    same_process: bool,
    matches: int,
    client: str,
    profiled: bool,
    waits: dict[str, float],
) -> dict[str, float]:
    moves = [m for m in run.moves if m.kind == "play"]
    ordinary = [m for m in moves if m.category == "ordinary"]
    prompts = [m for m in run.moves if m.kind == "prompt"]
    rounds = sum(1 for m in moves if m.category == "round end")
    ends = sum(1 for m in moves if m.category == "match end")
    calls = [float(m.calls) for m in ordinary]
    lat = [m.latency_ms for m in ordinary]
    lat_all = [m.latency_ms for m in moves]
    answer = [m.answer_ms for m in moves]
    where = "one event loop" if same_process else "bot in its own process"
    think = f"think {run.think:g} s" if run.think > 0 else "no think time (saturated)"
    rate_limit = not math.isnan(waits["wait-share"])
    limiter = "production rate limiter" if rate_limit else "rate limiter off"
    print(f"\n== {run.tables} tables, 4 people each ({where}; {think}; {client}; {limiter}) ==")
    print(
        f"measured {elapsed:.1f} s: {len(moves)} moves ({len(moves) / elapsed:.1f}/s): "
        f"{len(ordinary)} ordinary, {rounds} round ends, {ends} match ends; "
        f"{len(prompts)} end prompts; {matches} matches started in all"
    )
    most = max(calls, default=float("nan"))
    print(
        f"Bot API calls per ordinary move: mean {mean(calls):.2f}, max {most:.0f} "
        "to the players, + at most one board queued for the group"
    )
    print(f"Bot API calls per move, all moves: mean {mean([float(m.calls) for m in moves]):.2f}")
    for category in ("round end", "match end", "prompt"):
        group = [m for m in run.moves if m.category == category]
        if group:
            shape = _shape(group)
            print(
                f"  {category}: mean {mean([float(m.calls) for m in group]):.2f} calls "
                f"(max {max(m.calls for m in group)}), e.g. {shape}"
            )
    if ordinary:
        print(f"  ordinary, e.g. {_shape(ordinary)}")
    print(
        f"tap -> last call, ordinary moves: p50 {percentile(lat, 50):.1f} ms, "
        f"p99 {percentile(lat, 99):.1f} ms, max {max(lat, default=float('nan')):.1f} ms"
    )
    print(
        f"tap -> last call, all moves:      p50 {percentile(lat_all, 50):.1f} ms, "
        f"p99 {percentile(lat_all, 99):.1f} ms"
    )
    print(
        f"tap -> answer (the toast):        p50 {percentile(answer, 50):.1f} ms, "
        f"p99 {percentile(answer, 99):.1f} ms"
    )
    count = max(len(moves) + len(prompts), 1)
    if same_process:
        print(f"CPU per move: {our_cpu / count * 1000:.2f} ms (bot and fake together)")
    else:
        print(
            f"CPU per move: bot {bot_cpu / count * 1000:.2f} ms "
            f"({bot_cpu / elapsed:.0%} of a core), "
            f"fake server and people {our_cpu / count * 1000:.2f} ms "
            f"({our_cpu / elapsed:.0%} of a core)"
        )
    per_table = bench.chat_calls / elapsed / run.tables
    print(
        f"calls to chats (what the overall limiter counts): {bench.chat_calls / elapsed:.1f}/s, "
        f"{per_table:.2f}/s a table: one token's {TOKEN_RATE}/s is used up at "
        f"{TOKEN_RATE / per_table:.0f} tables"
    )
    if rate_limit:
        print(
            f"held by the limiter: {waits['wait-share']:.1%} of calls to chats over 1 ms; "
            f"p99 {waits['wait-p99']:.1f} ms, max {waits['wait-max']:.1f} ms"
        )
    print(f"failed calls: {bench.failed}, late calls: {bench.late_calls}")
    if profiled:
        print("(profiled: cProfile slows the bot several times; these latencies mean nothing)")
    for example in bench.failed_examples:
        print(f"  {example}")
    ok_calls = most + 1 <= 4
    ok_p99 = percentile(lat, 99) < 50
    print(
        f"goals: <= 4 calls per ordinary move: {'met' if ok_calls else 'MISSED'}; "
        f"p99 < 50 ms: {'met' if ok_p99 else 'MISSED'}"
    )
    return {
        "moves_per_s": len(moves) / elapsed,
        "calls_mean": mean(calls),
        "calls_max": most,
        "p50": percentile(lat, 50),
        "p99": percentile(lat, 99),
        "max": max(lat, default=float("nan")),
        "chat_calls_per_table_s": per_table,
        **waits,
    }


def _shape(moves: list[Move]) -> str:
    """The most common sequence of methods among ``moves``."""
    counts: dict[tuple[str, ...], int] = {}
    for move in moves:
        key = tuple(move.methods)
        counts[key] = counts.get(key, 0) + 1
    common = max(counts, key=lambda k: counts[k])
    return " ".join(common)


def print_profile(path: str, lines: int) -> None:
    stats = pstats.Stats(path)
    stats.strip_dirs()
    print(f"\n-- bot profile ({path}), by own time --")
    stats.sort_stats("tottime").print_stats(lines)
    print("-- by cumulative time --")
    stats.sort_stats("cumulative").print_stats(lines)


async def capacity(args: argparse.Namespace) -> None:
    """How many tables one bot token sustains with the production rate limiter, per think time.

    A run of ``PROBE_TABLES`` tables (far below any limit) measures the calls to chats a table
    makes a second; the token's 30 a second divided by that is the ceiling. The limiter is a
    queue, so moves start to wait before the ceiling: runs at ``--capacity-steps`` times the
    ceiling find the most tables at which the limiter holds fewer than 1 call in 100 for
    ``WAIT_GOAL_MS`` or more (measured in the bot, so the machine's load does not blur it).
    """
    found: list[str] = []
    for think in args.capacity:

        async def at(tables: int, think: float = think) -> dict[str, float]:
            return await measure(
                tables,
                think=think,
                seconds=args.seconds,
                warmup=args.warmup,
                same_process=args.same_process,
                profile=None,
                pool=args.pool,
                transport=args.transport,
                rate_limit=True,
            )

        per_table = (await at(PROBE_TABLES))["chat_calls_per_table_s"]
        ceiling = TOKEN_RATE / per_table
        sustained = 0
        tried: list[str] = []
        for share in args.capacity_steps:
            tables = max(1, round(ceiling * share))
            figures = await at(tables)
            if figures["wait-p99"] < WAIT_GOAL_MS:
                sustained = max(sustained, tables)
            tried.append(
                f"{tables} tables: limiter p99 {figures['wait-p99']:.0f} ms, "
                f"{figures['wait-share']:.1%} of calls held; tap -> last call p99 "
                f"{figures['p99']:.0f} ms"
            )
        found.append(
            f"think {think:g} s: {per_table:.2f} calls/s to chats a table, ceiling "
            f"{ceiling:.0f} tables; the most tables tried at which no move waits: {sustained}\n"
            f"  ({'; '.join(tried)})"
        )
    print(f"\n== tables of four one bot token sustains ({TOKEN_RATE} calls/s to chats) ==")
    print("\n".join(found))


async def main_async(args: argparse.Namespace) -> None:
    if args.capacity:
        await capacity(args)
        return
    for tables in args.tables:
        await measure(
            tables,
            think=args.think,
            seconds=args.seconds,
            warmup=args.warmup,
            same_process=args.same_process,
            profile=args.profile,
            pool=args.pool,
            transport=args.transport,
            rate_limit=args.rate_limit,
        )
        if args.profile:
            print_profile(args.profile, args.profile_lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 200])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per run")
    parser.add_argument(
        "--warmup",
        type=float,
        default=6.0,
        help="seconds between every table having started and the measured window",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="mean seconds a person looks at their hand before tapping (uniform 0.5x-1.5x); "
        "0 taps at once (saturation: latency is then queueing)",
    )
    parser.add_argument(
        "--same-process", action="store_true", help="run the bot on the fake server's loop"
    )
    parser.add_argument(
        "--pool", type=int, help="KOZEL_CONNECTION_POOL for this run (default: the bot's)"
    )
    parser.add_argument(
        "--transport",
        choices=["aiohttp", "httpx"],
        help="KOZEL_HTTP_CLIENT for this run (default: the bot's, aiohttp)",
    )
    parser.add_argument(
        "--rate-limit",
        action="store_true",
        help="run the bot with the production rate limiter (default: off)",
    )
    parser.add_argument(
        "--capacity",
        type=float,
        nargs="*",
        metavar="THINK",
        help="instead of --tables: how many tables one token sustains with the production "
        "limiter, at these think times (default 3 8)",
    )
    parser.add_argument(
        "--capacity-steps",
        type=float,
        nargs="+",
        default=[0.8, 1.0, 1.2],
        help="with --capacity: the table counts tried, as shares of the measured ceiling",
    )
    parser.add_argument("--profile", help="cProfile the bot's event loop during the window")
    parser.add_argument("--profile-lines", type=int, default=30)
    args = parser.parse_args(argv)
    if args.capacity == []:
        args.capacity = [3.0, 8.0]
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
