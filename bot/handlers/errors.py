"""Answers when nothing else answers: a button the bot does not know, an update that failed."""

from __future__ import annotations

import logging

from telegram import Update

from ..context import KozelContext
from ..sender import PlaceGone
from ..service import DamagedTable
from .common import RightsUnknown, refuse

log = logging.getLogger(__name__)


async def unknown_button(update: Update, context: KozelContext) -> None:
    """A forged or foreign button: no verb the bot draws."""
    k = context.kozel
    await refuse(k, update, await k.language(update), "err.unknown_button")


def _why(error: object) -> str:
    """What the person hears of why their tap or command did nothing."""
    if isinstance(error, DamagedTable):
        return "err.damaged"
    if isinstance(error, RightsUnknown):
        return "err.rights_unknown"
    return "err.failed"


async def on_error(update: object, context: KozelContext) -> None:
    """Log the failure and tell the person that their tap or command did nothing, rather than
    leave a button spinning or a command unanswered. Never raises: nothing comes after it."""
    # a place the bot may no longer write to: its table is being ended, and a reply there would
    # fail too
    gone = isinstance(context.error, PlaceGone)
    if gone:
        log.info("an update's place is gone: %s", context.error)
    elif isinstance(context.error, RightsUnknown):  # Telegram's trouble, not the bot's
        log.warning("could not tell whether someone is an admin: %s", context.error)
    else:
        log.error("update failed: %s", context.error, exc_info=context.error)
    if not isinstance(update, Update):
        return
    message = update.effective_message
    if update.callback_query is None and (gone or message is None or not message.text):
        return  # a service message (a group that moved, say): nobody waits for an answer
    try:
        k = context.kozel
        try:
            lang = await k.language(update)
        except Exception:  # the database may be what failed
            lang = k.settings.default_language
        await refuse(k, update, lang, _why(context.error))
    except Exception:
        log.warning("could not tell the person that their update failed", exc_info=True)
