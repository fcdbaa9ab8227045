"""The bot's parts, and the context every handler gets them from (PTB's ``ContextTypes``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Self

from telegram import Chat, Update, User
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot
from telegram.request import BaseRequest

from storage import Storage

from .callbacks import Callback, decode
from .cooldown import Cooldown
from .presenter import Presenter
from .scheduler import Scheduler
from .sender import Sender
from .service import TableService
from .settings import Settings


@dataclass(slots=True)
class Kozel:
    settings: Settings
    storage: Storage
    service: TableService
    sender: Sender
    presenter: Presenter
    scheduler: Scheduler
    #: Who was told lately what the bot does, after writing to it in the DM.
    hints: Cooldown = field(default_factory=Cooldown)

    async def language(self, update: Update) -> str:
        """The group's language in a group (the person's own while the group has none: nobody
        chose one there, nor opened a table); the person's own in a DM."""
        chat = update.effective_chat
        if chat is not None and chat.type != Chat.PRIVATE:
            group = await self.service.store.group_language(chat.id)
            if group is not None:  # the person's is asked only where it is used
                return group
        return await self.person_language(update.effective_user)

    async def person_language(self, user: User | None, otherwise: str | None = None) -> str:
        """A person's own language (``TableStore.user_language``): their DMs speak it, and so
        does the answer to their tap, which nobody else sees, in a group too. Telegram may not
        say whose tap it is: then ``otherwise`` (a group's), else the bot's default."""
        if user is None:
            return otherwise or self.settings.default_language
        return await self.service.store.user_language(user, otherwise)


class BotData:
    """``application.bot_data``: the settings from the start, the bot's parts once set up."""

    def __init__(self) -> None:
        self.settings: Settings | None = None
        self.kozel: Kozel | None = None
        #: The HTTP clients ``build`` gave the bot, closed again on the way out (``teardown``):
        #: PTB closes them only for a bot that started, and a failed start would leak them.
        self.transports: list[BaseRequest] = []
        #: The turns' clock and its sleep (``Scheduler``), given it as it is set up, before it
        #: re-arms the turns a restart left: real time, unless a test runs it faster.
        self.turn_clock: Callable[[], float] = time.time
        self.turn_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


class KozelContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]):
    """What a handler is called with: the bot's parts, and the tapped button, decoded once."""

    #: The button tapped, None for anything but a well-formed button (a forged one, a command).
    button: Callback | None = None

    @classmethod
    def from_update(
        cls, update: object, application: Application[Any, Self, Any, Any, Any, Any]
    ) -> Self:
        context = super().from_update(update, application)
        query = update.callback_query if isinstance(update, Update) else None
        if query is not None and isinstance(query.data, str):
            context.button = decode(query.data)
        return context

    @property
    def kozel(self) -> Kozel:
        found = self.bot_data.kozel
        if found is None:
            raise RuntimeError("an update arrived before the bot was set up")
        return found


CONTEXT_TYPES = ContextTypes(context=KozelContext, bot_data=BotData)
#: What answers an update.
Handler = Callable[[Update, KozelContext], Coroutine[Any, Any, None]]
