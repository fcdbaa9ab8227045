"""A game's words that hold at a table: /rules' summary above the table's options, and its one
line (``about``) in the chooser and under the lobby's title. Each is the game as usually played,
less what the table plays otherwise, so it never disagrees with the option lines below it."""

from __future__ import annotations

from typing import Any

from engine.games import game_of
from engine.games.generals import can_hang_general
from engine.rules import RuleSet

from ..games import deals_a_bazaar
from ..i18n import Html, section, t


def value_key(value: Any) -> str:
    """An option's value as locale keys spell it: ``true``, ``none`` (an option left unset)."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def played(rules: RuleSet, name: str, players: int | None = None) -> Any:
    """Option ``name``'s value as a table of ``rules`` and ``players`` plays it (None: no table,
    as every table of its game would), for its words: its own, but

    - ``never`` for a General (``general_title``) that no move there can hang (0-0 and 6-6
      together at one tile a move, RULES.md §3.10), as its lines and option line then say;
    - ``no_bazaar`` for ``draw_mode`` at a table dealt no bazaar (all 28 tiles dealt, §1.4):
      a player with no tile knocks there, whatever drawing the option names;
    - for ``multi_double``, the most doubles a move can put down (``Game.doubles_a_move``): 3
      or 4 on a line play as 2, so such a table, set before its editor offered 0 or 2 only,
      reads the lines of 2, which it plays."""
    if name == "general_title" and not can_hang_general(rules):
        return "never"
    if name == "draw_mode" and not deals_a_bazaar(rules, players):
        return "no_bazaar"
    if name == "multi_double":
        return game_of(rules).doubles_a_move(rules)
    return rules.option(name)


def summary(lang: str, game: str, rules: RuleSet, players: int | None = None) -> list[Html]:
    """The lines of ``game``'s summary (a game or house preset, as ``chosen`` names it) that hold
    at a table of ``rules`` and ``players`` (None: no table, the game as usually played), in the
    catalog's order."""
    return holding(lang, f"games.{game}.summary", rules, players)


def about(lang: str, game: str, rules: RuleSet) -> Html:
    """``game``'s one line at a table of ``rules``: the chooser passes the preset, so it tells
    the usual game, and the lobby its table's rules, so it states the table's target."""
    return Html(" ".join(holding(lang, f"games.{game}.about", rules)))


def holding(lang: str, head: str, rules: RuleSet, players: int | None = None) -> list[Html]:
    """The sentences under ``head`` that hold at a table of ``rules`` and ``players``, each
    filled with the table's values of its game's options (``{target}``: the table's, not the
    usual one)."""
    lines = section(lang, head)
    values = {name: rules.option(name) for name in game_of(rules).settable}
    return [
        t(lang, f"{head}.{line}", **values) for line in lines if holds(line, rules, lines, players)
    ]


def holds(line: str, rules: RuleSet, lines: list[str], players: int | None = None) -> bool:
    """Whether the line keyed ``line`` (one of ``lines``) holds at a table of ``rules`` and
    ``players``. A line keyed by an option and a value (``play_points.divided``) states that
    value, so it holds only where the table plays it: a table that plays another reads its own
    line, or its option line alone, never two rules that disagree; ``.other``, where the table
    plays a value no line of that option names. A line keyed by a word (``play``) always
    holds."""
    name, _, value = line.partition(".")
    if not value:
        return True
    plays = value_key(played(rules, name, players))
    return plays == value or (value == "other" and f"{name}.{plays}" not in lines)
