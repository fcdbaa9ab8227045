"""The game's one line under the lobby's title, at a table with its own house rules: it states
the table's target and never the usual value of an option the table changed, which the option
lines right below it would contradict; the chooser's line still tells the game as usually
played."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.games import TABLE_SHAPES, chooser, fits
from bot.i18n import LANGUAGES
from bot.render.lobby import choices, game_line, games_text, lobby_text
from bot.render.room import LIMIT
from bot.render.summary import about
from bot.sender import read_len
from bot.table import Table
from engine.games import game_of
from engine.rules import PRESETS, RuleSet
from tests.bot.tables import table_of

#: Words of a game's usual line that are untrue where an option takes one of its other values:
#: (choice, option, value) → the words in each language.
UNTRUE: dict[tuple[str, str, object], dict[str, str]] = {
    ("telephone", "play_points", "full"): {
        "en": "every five is a point",
        "ru": "каждая пятёрка — очко",
        "uk": "кожна п’ятірка — очко",
    },
    ("donkey", "multi_double", 0): {
        "en": "several doubles a move",
        "ru": "несколько дублей за ход",
        "uk": "кілька дублів за хід",
    },
    ("generals_goat", "general_title", "either"): {
        "en": "0-0 and 6-6 together",
        "ru": "0-0 и 6-6 вместе",
        "uk": "0-0 і 6-6 разом",
    },
}
#: A number standing alone: not a tile's half ("0-0") nor part of a longer number.
NUMBER = re.compile(r"(?<![\d-])\d+(?![\d-])")


def tables(choice: str, lang: str) -> Iterator[tuple[str, object, Table]]:
    """A lobby of ``choice`` for each way it is seated, with each option its editor offers moved
    to each of its other values: (option, value, table)."""
    usual = PRESETS[choice]()
    for players, pairs in TABLE_SHAPES:
        if not fits(choice, players, pairs):
            continue
        names = [f"P{n}" for n in range(players)]
        for name in game_of(usual).settable:
            for value in choices(name, usual.game):
                if value != usual.option(name):
                    rules = usual.with_options(**{name: value})
                    yield name, value, table_of(names, pairs, lang, rules)


def about_in_lobby(table: Table) -> str:
    """The line under the lobby's title."""
    return lobby_text(table, "Masha").split("\n")[1].removeprefix("<i>").removesuffix("</i>")


def numbers(text: str) -> set[int]:
    return {int(n) for n in NUMBER.findall(text)}


def counts(rules: RuleSet) -> dict[str, tuple[int, ...]]:
    """The game's options that are counts (a target, a limit), by the values each may take."""
    found = {}
    for name in game_of(rules).settable:
        values = choices(name, rules.game)
        if all(type(v) is int for v in values):
            found[name] = values
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("choice", chooser())
def test_a_lobby_never_states_the_usual_value_of_an_option_it_changed(
    lang: str, choice: str
) -> None:
    """Every game and house preset the chooser offers, every option its table may set, at each
    of its other values, seated every way it is played: a number the line states that one of
    the game's counts can take is the table's own (where the usual line states the usual
    target, the lobby's states the table's), and words untrue at that value are gone."""
    usual = PRESETS[choice]()
    usual_line = about(lang, choice, usual)
    checked = 0
    for name, value, table in tables(choice, lang):
        said, played = about_in_lobby(table), table.rules_played
        for count, values in counts(played).items():
            stated = numbers(said) & {*values, usual.option(count)}
            assert stated <= {played.option(count)}, (name, value, count, said)
            if numbers(usual_line) & set(values):
                assert played.option(count) in numbers(said), (name, value, count, said)
                checked += 1
        if (choice, name, value) in UNTRUE:
            assert UNTRUE[choice, name, value][lang] not in said, (name, value, said)
            checked += 1
    assert checked or choice in ("kozel", "all_threes", "sport")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_chooser_still_tells_the_usual_game(lang: str) -> None:
    """The chooser, where a game is picked before any option is changed, keeps the usual
    values: Telephone to 72, Sea Goat to 125 (202 in pairs), Donkey's several doubles a move."""
    lines = {choice: about(lang, choice, PRESETS[choice]()) for choice in chooser()}
    assert [c for c in chooser() if lines[c] not in game_line(lang, c)] == []
    for (choice, _, _), words in UNTRUE.items():
        assert words[lang] in lines[choice]
    assert {72} <= numbers(lines["telephone"])
    assert {125, 202} <= numbers(lines["sea_goat"])
    assert {300} <= numbers(lines["traditional_ht"])
    for choice in ("muggins", "bulgarian_fives", "traditional"):
        assert {100} <= numbers(lines[choice])


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "every five is a point. The first to 100 wins."),
        ("ru", "каждая пятёрка — очко. Побеждает первый, кто наберёт 100."),
        ("uk", "кожна п’ятірка — очко. Перемагає перший, хто набере 100."),
    ],
)
def test_telephone_to_100_says_100_under_its_title(lang: str, line: str) -> None:
    """A Telephone table playing to 100 read "the first to 72 wins" above "Win at 100 points"."""
    rules = PRESETS["telephone"]().with_options(target=100)
    table = table_of(["Masha", "Petya"], lang=lang, rules=rules)
    said = about_in_lobby(table)
    assert said.endswith(line) and "72" not in said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_and_the_chooser_fit_in_a_message(lang: str) -> None:
    """With the line now two sentences for some games, every lobby the walk above sets up, with
    the longest names Telegram allows, still fits in one message: its lobby, its ⚙️ Rules
    editor (every option in full) and its chooser."""
    for choice in chooser():
        for _, _, table in tables(choice, lang):
            for seat in table.seats:
                seat.name = "W" * 64
            for text in (lobby_text(table, "W" * 64), lobby_text(table, "W" * 64, editing=True)):
                assert read_len(text) <= LIMIT, (choice, read_len(text))
            assert read_len(games_text(table)) <= LIMIT
