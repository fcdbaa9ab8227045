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
