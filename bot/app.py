"""Building the Telegram application: handlers, per-chat ordering, start-up and shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from engine.build import describe as engine_build
from storage import Storage

from .callbacks import decode
from .context import KEY, Kozel, kozel
from .handlers import info, lobby, play
from .handlers.common import refuse
from .i18n import LANGUAGES, t
from .presenter import Presenter
from .recovery import recover
from .scheduler import Scheduler
from .sender import GroupPacer, Sender
from .service import DamagedTable, TableService
from .settings import Settings
from .transport import AiohttpRequest

log = logging.getLogger(__name__)
Builder = ApplicationBuilder[Any, Any, Any, Any, Any, Any]
GROUP_COMMANDS = (
    "new",
    "join",
    "leave",
    "addbot",
    "standings",
    "top",
    "stats",
    "rules",
    "language",
    "cancel",
    "kick",
    "help",
)
PRIVATE_COMMANDS = ("start", "stats", "rules", "help")
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]


class PerChatOrder(BaseUpdateProcessor):
    """Updates of one chat run in order; different chats run at the same time."""

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock = self._locks.setdefault(chat.id, asyncio.Lock())
        async with lock:
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up: locks are created on demand."""

    async def shutdown(self) -> None:
        self._locks.clear()


async def route_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every button press lands here and goes to the handler for its verb."""
    cb = decode(update.callback_query.data if update.callback_query else None)
    private = update.effective_chat is not None and update.effective_chat.type == "private"
    if cb is None:
        k = kozel(context)
        await refuse(k, update, await k.language(update), "err.unknown_button")
    elif cb.verb == "play" or (cb.verb == "back" and private):
        await play.hand_button(update, context)
    elif cb.verb == "here":
        await play.back_here(update, context)
    elif cb.verb == "top":
        await info.top_button(update, context)
    elif cb.verb == "lang":
        await info.language_button(update, context)
    else:
        await lobby.lobby_button(update, context)


async def chat_migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its tables and standings follow it to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    k = kozel(context)
    async with k.service.store.lock(message.chat.id):
        await k.service.store.migrate_chat(message.chat.id, message.migrate_to_chat_id)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the failure and tell the person that their tap or command did nothing, rather than
    leave a button spinning or a command unanswered. Never raises: nothing comes after it."""
    log.error("update failed: %s", context.error, exc_info=context.error)
    if not isinstance(update, Update):
        return
    message = update.effective_message
    if update.callback_query is None and (message is None or not message.text):
        return  # a service message (a group that moved, say): nobody waits for an answer
    try:
        k = kozel(context)
        try:
            lang = await k.language(update)
        except Exception:  # the database may be what failed
            lang = k.settings.default_language
        damaged = isinstance(context.error, DamagedTable)
        await refuse(k, update, lang, "err.damaged" if damaged else "err.failed")
    except Exception:
        log.warning("could not tell the person that their update failed", exc_info=True)


async def register_commands(app: App, default: str) -> None:
    for lang in (None, *LANGUAGES):
        code = lang or default
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(n, t(code, f"commands.{n}")) for n in names]
            await app.bot.set_my_commands(commands, scope=scope, language_code=lang)


App = Application[Any, Any, Any, Any, Any, Any]


def build(settings: Settings, configure: Callable[[Builder], Builder] | None = None) -> App:
    """The application with every handler; ``configure`` may adjust the builder further."""
    builder = (
        ApplicationBuilder()
        .token(settings.bot_token.get_secret_value())
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .concurrent_updates(PerChatOrder())
        .post_init(setup)
        .post_shutdown(teardown)
    )
    if settings.http_client == "aiohttp":
        builder = builder.request(AiohttpRequest(settings.connection_pool)).get_updates_request(
            AiohttpRequest(1)
        )
    else:
        builder = builder.connection_pool_size(settings.connection_pool)
    if configure is not None:
        builder = configure(builder)
    if settings.rate_limit:
        # Telegram's ~20 a minute per group is for new messages, which GroupPacer already
        # paces; PTB's group limit would count every request to a group (each move's board
        # edit) and hold moves for seconds with their table locked. Kept: the overall 30 a
        # second and the retries after a 429.
        limiter = AIORateLimiter(group_max_rate=0, max_retries=3)
        builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
    app = builder.build()
    app.bot_data["settings"] = settings
    app.add_handler(CommandHandler("start", info.start))
    app.add_handler(CommandHandler("new", lobby.new_table))
    app.add_handler(CommandHandler("join", lobby.join_command))
    app.add_handler(CommandHandler("leave", lobby.leave_command))
    app.add_handler(CommandHandler("addbot", lobby.addbot_command))
    app.add_handler(CommandHandler("cancel", lobby.cancel_command))
    app.add_handler(CommandHandler("kick", lobby.kick_command))
    app.add_handler(CommandHandler("standings", info.standings))
    app.add_handler(CommandHandler("top", info.top))
    app.add_handler(CommandHandler("stats", info.stats))
    app.add_handler(CommandHandler("rules", info.rules_command))
    app.add_handler(CommandHandler("help", info.help_command))
    app.add_handler(CommandHandler("language", info.language_command))
    app.add_handler(CallbackQueryHandler(route_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_migrated))
    app.add_error_handler(on_error)
    return app


def webhook_options(settings: Settings) -> dict[str, Any]:
    """How to serve webhooks (``run_webhook``/``start_webhook``): Telegram POSTs to
    ``webhook_url``; the bot listens on ``webhook_listen:webhook_port`` at the URL's path (a
    reverse proxy in front may forward to it) and refuses updates without the secret."""
    assert settings.webhook_url is not None and settings.webhook_secret is not None
    return {
        "listen": settings.webhook_listen,
        "port": settings.webhook_port,
        "url_path": urlsplit(settings.webhook_url).path.strip("/"),
        "webhook_url": settings.webhook_url,
        "secret_token": settings.webhook_secret.get_secret_value(),
        "allowed_updates": ALLOWED_UPDATES,
    }


async def setup(app: App) -> None:
    """Open the database, register commands and pick up every table a restart left behind."""
    settings: Settings = app.bot_data["settings"]
    storage = await Storage.open(settings.database)
    service = TableService(storage, settings)
    sender = Sender(
        app.bot, GroupPacer(settings.group_messages_per_minute), service.store.migrate_chat
    )
    presenter = Presenter(sender, service)
    scheduler = Scheduler(service, presenter, settings.computer_delay)
    k = Kozel(settings, storage, service, sender, presenter, scheduler)
    app.bot_data[KEY] = k
    await register_commands(app, settings.default_language)
    await recover(k)
    scheduler.start_sweeping()
    log.info("kozel bot started as @%s (%s)", app.bot.username, engine_build())


async def teardown(app: App) -> None:
    k = app.bot_data.get(KEY)
    if isinstance(k, Kozel):
        await k.scheduler.stop()
        await k.storage.close()
