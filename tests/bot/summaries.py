"""Games' /rules summaries and chooser lines, as tests read them."""

from __future__ import annotations

from bot.i18n import section, t
from bot.render.summary import about, summary
from engine.rules import PRESETS


def usual_summary(lang: str, game: str) -> str:
    """``game``'s summary (a game or house preset) as ``/rules <game>`` shows it: at its preset."""
    return "\n".join(summary(lang, game, PRESETS[game]()))


def usual_about(lang: str, game: str) -> str:
    """``game``'s line (a game or house preset) as the chooser shows it: at its preset."""
    return about(lang, game, PRESETS[game]())


def every_line(lang: str, game: str) -> list[str]:
    """Every line of ``game``'s summary, whichever value of an option it is keyed by."""
    head = f"games.{game}.summary"
    return [t(lang, f"{head}.{line}") for line in section(lang, head)]


#: How each language's summary says a player with no tile knocks at a table dealt no bazaar
#: (Sport domino's always, Kozel's at four with seven each).
KNOCKS = {
    "en": "No tile — knock: all 28 tiles are dealt, so there is no bazaar.",
    "ru": "Нечем ходить — стучи: все 28 камней розданы, базара нет.",
    "uk": "Нема чим ходити — стукай: усі 28 каменів роздано, базару немає.",
}
#: How each language's General's Goat summary says the match is lost on rounds.
ROUNDS_LOSE = {
    "en": "The team that loses the set number of rounds loses the match.",
    "ru": "Матч проигрывает пара, проигравшая заданное число раундов.",
    "uk": "Матч програє пара, що програла задане число раундів.",
}
#: The "Otherwise" General's Goat's summary once began that line with, after a General that no
#: move at the table can hang.
OTHERWISE = {"en": "Otherwise", "ru": "Иначе", "uk": "Інакше"}
