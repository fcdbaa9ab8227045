"""The games' names as people say them: shown in the group's language, and recognised when a
player types one (``/top muggins``, ``/top пятёрочка``) in any of the bot's languages."""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..i18n import FALLBACK, LANGUAGES, Html, catalog, t


def game_name(lang: str, game: str) -> Html:
    """The game's name in ``lang``; a game the catalogs do not name shows as stored."""
    if f"game.{game}" in catalog(FALLBACK):
        return t(lang, f"game.{game}")
    return Html(html.escape(game, quote=False))


def game_called(words: str, games: Iterable[str]) -> str | None:
    """The one of ``games`` that ``words`` name: its own name (``telephone_ua``) or its name in
    any language, ignoring case, spaces, punctuation (any apostrophe) and ё/е; None if none
    does."""
    wanted = _plain(words)
    for game in games:
        names = {game, *(catalog(lang).get(f"game.{game}", "") for lang in LANGUAGES)}
        if wanted and wanted in {_plain(name) for name in names}:
            return game
    return None


#: Ukrainian's apostrophe as some keyboards type it: a letter to Python, so not dropped with the
#: other punctuation (' and ’) unless named.
MODIFIER_APOSTROPHE = "\u02bc"


def _plain(text: str) -> str:
    kept = text.casefold().replace("ё", "е").replace(MODIFIER_APOSTROPHE, "")
    return "".join(c for c in kept if c.isalnum())
