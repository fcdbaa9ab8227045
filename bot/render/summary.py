"""A game's summary, as /rules shows it above the table's options: the game as usually played,
less what the table plays otherwise."""

from __future__ import annotations

from engine.rules import RuleSet

from ..i18n import Html, section, t
from .lobby import value_key


def summary(lang: str, game: str, rules: RuleSet) -> list[Html]:
    """The lines of ``game``'s summary (a game or house preset, as ``chosen`` names it) that hold
    at a table of ``rules``, in the catalog's order."""
    head = f"games.{game}.summary"
    lines = section(lang, head)
    return [t(lang, f"{head}.{line}") for line in lines if holds(line, rules)]


def holds(line: str, rules: RuleSet) -> bool:
    """Whether the summary line keyed ``line`` holds at a table of ``rules``. A line keyed by an
    option and a value (``play_points.divided``) states that value, so it holds only where the
    table plays it: a table that plays another reads its own line, or its option line alone,
    never two rules that disagree. A line keyed by a word (``play``) always holds."""
    name, _, value = line.partition(".")
    return not value or value_key(rules.option(name)) == value
