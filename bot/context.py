"""The bot's parts, shared by every handler through ``application.bot_data``."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Chat, Update
from telegram.ext import ContextTypes

from storage import Storage

from .i18n import language_for
from .presenter import Presenter
from .scheduler import Scheduler
from .sender import Sender
from .service import TableService
from .settings import Settings

KEY = "kozel"


@dataclass(slots=True)
class Kozel:
    settings: Settings
    storage: Storage
    service: TableService
    sender: Sender
    presenter: Presenter
    scheduler: Scheduler

    async def language(self, update: Update) -> str:
        """The group's language in a group; the person's own in a DM."""
        chat = update.effective_chat
        if chat is not None and chat.type != Chat.PRIVATE:
            return await self.service.store.chat_language(chat.id)
        user = update.effective_user
        code = user.language_code if user is not None else None
        return language_for(code, self.settings.default_language)


def kozel(context: ContextTypes.DEFAULT_TYPE) -> Kozel:
    found = context.bot_data[KEY]
    assert isinstance(found, Kozel)
    return found
