"""What a player's DMs call a table's place, so that someone at two tables tells them apart."""

from __future__ import annotations

import html

from ..i18n import Html, t
from ..table import Table


def place_name(lang: str, table: Table) -> Html:
    """The group's name, and in a forum its topic's ("Yard · Friday games"). A topic the bot
    never heard named (created before the bot joined, renamed since by nobody, and named by no
    message in it) goes by the group's name alone, as the General topic does."""
    if table.topic_name is None:
        return Html(html.escape(table.chat_title, quote=False))
    return t(lang, "place.topic", chat=table.chat_title, topic=table.topic_name)
