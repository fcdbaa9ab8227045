"""The lobby of a table with its own target, as the group reads it: the line under its title
says the table's target, not the game's usual one, in the group's language."""

from __future__ import annotations

import pytest

from bot.i18n import catalog, t
from bot.render.lobby import describe
from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import Harness
from tests.bot.summaries import usual_about
from tests.bot.test_games_e2e import lobby_now, plain
from tests.bot.test_rules_summary_e2e import set_in_editor

#: How each language's Telephone line says who wins, at a table playing to 100.
TO_100 = {
    "en": "The first to 100 wins.",
    "ru": "Побеждает первый, кто наберёт 100.",
    "uk": "Перемагає перший, хто набере 100.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_telephone_to_100_says_100_under_its_title(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """A Telephone table set to 100 in the ⚙️ Rules editor: back in its lobby, the line under
    the title said "the first to 72 wins" above the table's own "Win at 100 points"."""
    masha, _, lobby = await set_in_editor(harness, lang, "telephone", "target", 100)
    await tg.press_button(masha, lobby, plain(t(lang, "lobby.back")))
    start = plain(t(lang, "lobby.start"))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(start))
    shown = lobby_now(tg, lobby).text or ""
    title = plain(t(lang, "lobby.title", game=catalog(lang)["game.telephone"], opener="Masha"))
    lines = shown.split("\n")
    assert lines[0] == title
    assert lines[1].endswith(TO_100[lang]) and "72" not in lines[1]
    assert plain(describe(lang, "target", 100, "telephone")) in shown
    # the chooser still tells the game as usually played
    await tg.press_button(masha, lobby, lambda b: str(b.get("text")).startswith("🎲 "))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(start) is None)
    assert plain(usual_about(lang, "telephone")) in (lobby_now(tg, lobby).text or "")
    assert "72" in plain(usual_about(lang, "telephone"))
