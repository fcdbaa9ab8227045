"""Messages in the private chat that are no command: the bot reads only commands and taps, and
silence looked broken to newcomers, so it says what it does, once in a while."""

from __future__ import annotations

from telegram import Update

from ..context import KozelContext
from ..i18n import t
from .common import reply


async def chatter(update: Update, context: KozelContext) -> None:
    """A message in the DM that no command took: a short hint, at most once per
    ``cooldown.HINT_EVERY`` seconds to each person."""
    k, user = context.kozel, update.effective_user
    if user is not None and k.hints.ready(user.id):
        await reply(k, update, t(await k.language(update), "dm.chatter"))
