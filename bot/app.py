"""Building the Telegram application: handlers, per-chat ordering, start-up and shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from telegram import (
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
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from engine.build import describe as engine_build
from storage import Storage

from .callbacks import verb_is
from .context import CONTEXT_TYPES, BotData, Handler, Kozel, KozelContext
from .handlers import cancel_question, chats, errors, info, language, lobby, play, private
from .i18n import LANGUAGES
from .menus import menu
from .pacing import GroupPacer
from .presenter import Presenter
from .recovery import recover
from .scheduler import Scheduler
from .sender import Sender
from .service import TableService
from .settings import Settings
from .transport import AiohttpRequest

log = logging.getLogger(__name__)
Builder = ApplicationBuilder[Any, Any, Any, Any, Any, Any]
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
#: Each button's verb, and the handler that answers a tap on it.
BUTTONS: dict[str, Handler] = {
    "play": play.play_button,
    "lay": play.lay_button,
    "reopen": play.reopen_button,
    "pass": play.pass_button,
    "back": play.back_button,
    "here": play.back_here,
    "join": lobby.join_button,
    "leave": lobby.button(lobby.leave),
    "start": lobby.button(lobby.start_match),
    "bot": lobby.button(lobby.add_computer),
    "opt": lobby.button(lobby.change_setting),
    "game": lobby.button(lobby.choose_game),
    "cancel": lobby.button(lobby.cancel),
    "cancel_answer": cancel_question.answer_button,
    "lobby": lobby.button(lobby.show),
    "pair": lobby.button(lobby.change_pair),
    "top": info.top_button,
    "lang": language.language_button,
    "again": lobby.again_button,
}


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


async def register_commands(sender: Sender, default: str) -> None:
    """The "/" menus of groups and DMs, in every language the bot speaks (``default`` for the
    apps of the others)."""
    for lang in (None, *LANGUAGES):
        code = lang or default
        for scope, dm in (
            (BotCommandScopeAllGroupChats(), False),
            (BotCommandScopeAllPrivateChats(), True),
        ):
            await sender.menu(scope, menu(code, private=dm), lang)


App = Application[Any, KozelContext, Any, Any, BotData, Any]


def build(settings: Settings, configure: Callable[[Builder], Builder] | None = None) -> App:
    """The application with every handler; ``configure`` may adjust the builder further."""
    builder = (
        ApplicationBuilder()
        .token(settings.bot_token.get_secret_value())
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .context_types(CONTEXT_TYPES)
        .concurrent_updates(PerChatOrder())
        .post_init(setup)
        .post_stop(settle)
        .post_shutdown(teardown)
    )
    transports: list[AiohttpRequest] = []
    if settings.http_client == "aiohttp":
        transports = [AiohttpRequest(settings.connection_pool), AiohttpRequest(1)]
        builder = builder.request(transports[0]).get_updates_request(transports[1])
    else:
        builder = builder.connection_pool_size(settings.connection_pool)
    if configure is not None:
        builder = configure(builder)
    if settings.rate_limit:
        # Kept: the overall 30 a second. Groups are paced by the sender's outboxes (GroupPacer),
        # which never hold a table's lock; PTB's group limit would hold moves for seconds with
        # their table locked. The sender also owns the retries after a 429: PTB's pause every
        # chat while one waits.
        limiter = AIORateLimiter(group_max_rate=0, max_retries=0)
        builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
    app = builder.build()
    app.bot_data.settings = settings
    app.bot_data.transports = list(transports)
    app.add_handler(CommandHandler("start", info.start))
    app.add_handler(CommandHandler("new", lobby.new_table))
    app.add_handler(CommandHandler("join", lobby.join_command))
    app.add_handler(CommandHandler("leave", lobby.command(lobby.leave)))
    app.add_handler(CommandHandler("addbot", lobby.add_computer_command))
    app.add_handler(CommandHandler("cancel", lobby.command(lobby.cancel)))
    app.add_handler(CommandHandler("kick", lobby.kick_command))
    app.add_handler(CommandHandler("standings", info.standings))
    app.add_handler(CommandHandler("top", info.top))
    app.add_handler(CommandHandler("history", info.history))
    app.add_handler(CommandHandler("stats", info.stats))
    app.add_handler(CommandHandler("rules", info.rules_command))
    app.add_handler(CommandHandler("help", info.help_command))
    app.add_handler(CommandHandler("language", language.language_command))
    for verb, answer in BUTTONS.items():
        app.add_handler(CallbackQueryHandler(answer, pattern=verb_is(verb)))
    app.add_handler(CallbackQueryHandler(errors.unknown_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chats.chat_migrated))
    chatter = filters.ChatType.PRIVATE & ~filters.StatusUpdate.ALL  # after the commands
    app.add_handler(MessageHandler(chatter, private.chatter))
    app.add_handler(MessageHandler(filters.StatusUpdate.NEW_CHAT_TITLE, chats.chat_renamed))
    topic_named = filters.StatusUpdate.FORUM_TOPIC_CREATED | filters.StatusUpdate.FORUM_TOPIC_EDITED
    app.add_handler(MessageHandler(topic_named, chats.topic_named))
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, chats.topic_closed))
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, chats.member_left))
    app.add_handler(ChatMemberHandler(chats.bot_member_changed, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(errors.on_error)
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
    settings = app.bot_data.settings
    assert settings is not None
    storage = await Storage.open(settings.database)
    service = TableService(storage, settings)
    sender = Sender(
        app.bot, GroupPacer(settings.group_messages_per_minute), service.store.migrate_chat
    )
    presenter = Presenter(sender, service)
    data = app.bot_data
    scheduler = Scheduler(
        service,
        presenter,
        settings.computer_delay,
        clock=data.turn_clock,
        sleep=data.turn_sleep,
    )
    sender.place_gone = scheduler.place_gone
    presenter.notices.time_question = scheduler.time_question
    k = Kozel(settings, storage, service, sender, presenter, scheduler)
    app.bot_data.kozel = k
    await register_commands(sender, settings.default_language)
    await recover(k)
    scheduler.start_sweeping()
    log.info("kozel bot started as @%s (%s)", app.bot.username, engine_build())


async def settle(app: App) -> None:
    """Once updates stop, while the bot can still talk to Telegram: no more computer moves,
    and what the groups' budgets let through in a few seconds goes out."""
    k = app.bot_data.kozel
    if k is not None:
        await k.scheduler.stop()
        await k.sender.close()


async def teardown(app: App) -> None:
    for transport in app.bot_data.transports:  # already closed, unless the bot never started
        await transport.shutdown()
    k = app.bot_data.kozel
    if k is not None:
        await k.scheduler.stop()
        k.service.close()
        await k.storage.close()
