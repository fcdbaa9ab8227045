"""A game's words that hold at a table: /rules' summary above the table's options, and its one
line (``about``) in the chooser and under the lobby's title. Each is the game as usually played,
less what the table plays otherwise, so it never disagrees with the option lines below it."""

from __future__ import annotations

from typing import Any

from engine.games import game_of
from engine.games.generals import can_hang_general
from engine.rules import RuleSet

from ..i18n import Html, section, t


def value_key(value: Any) -> str:
    """An option's value as locale keys spell it: ``true``, ``none`` (an option left unset)."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def played(rules: RuleSet, name: str) -> Any:
    """Option ``name``'s value as a table of ``rules`` plays it, for its words: its own, but
    ``never`` for a General (``general_title``) that no move there can hang (0-0 and 6-6
    together at one tile a move, RULES.md §3.10), as its lines and option line then say."""
    if name == "general_title" and not can_hang_general(rules):
        return "never"
    return rules.option(name)


def summary(lang: str, game: str, rules: RuleSet) -> list[Html]:
    """The lines of ``game``'s summary (a game or house preset, as ``chosen`` names it) that hold
    at a table of ``rules``, in the catalog's order."""
    return holding(lang, f"games.{game}.summary", rules)


def about(lang: str, game: str, rules: RuleSet) -> Html:
    """``game``'s one line at a table of ``rules``: the chooser passes the preset, so it tells
    the usual game, and the lobby its table's rules, so it states the table's target."""
    return Html(" ".join(holding(lang, f"games.{game}.about", rules)))


def holding(lang: str, head: str, rules: RuleSet) -> list[Html]:
    """The sentences under ``head`` that hold at a table of ``rules``, each filled with the
    table's values of its game's options (``{target}``: the table's, not the usual one)."""
    lines = section(lang, head)
    values = {name: rules.option(name) for name in game_of(rules).settable}
    return [t(lang, f"{head}.{line}", **values) for line in lines if holds(line, rules, lines)]


def holds(line: str, rules: RuleSet, lines: list[str]) -> bool:
    """Whether the line keyed ``line`` (one of ``lines``) holds at a table of ``rules``. A line
    keyed by an option and a value (``play_points.divided``) states that value, so it holds only
    where the table plays it: a table that plays another reads its own line, or its option line
    alone, never two rules that disagree; ``.other``, where the table plays a value no line of
    that option names. A line keyed by a word (``play``) always holds."""
    name, _, value = line.partition(".")
    if not value:
        return True
    plays = value_key(played(rules, name))
    return plays == value or (value == "other" and f"{name}.{plays}" not in lines)
