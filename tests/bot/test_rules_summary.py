"""/rules' summary of a game at a table with its own house rules: it never states the usual value
of an option the table changed, which the option's line just below contradicts."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

import pytest

from bot.games import TABLE_SHAPES, chooser, chosen, fits
from bot.i18n import LANGUAGES, section, t
from bot.render.lobby import BAZAAR_OPTIONS, choices, describe, rules_text
from bot.render.summary import about, played, summary, value_key
from engine.events import RoundStarted
from engine.games import game_of
from engine.games.generals import hangs_general
from engine.match import Match
from engine.rules import OPTION_NAMES, PRESETS, RuleSet
from engine.tiles import Tile
from tests.bot.summaries import KNOCKS, OTHERWISE, ROUNDS_LOSE


def players_of(choice: str) -> set[int]:
    """The numbers of players a table of ``choice`` (a game or house preset) may seat."""
    return {players for players, pairs in TABLE_SHAPES if fits(choice, players, pairs)}


def one_changed(usual: RuleSet) -> Iterator[RuleSet]:
    """Every table of ``usual``'s game that plays one of its options at another value."""
    for name in game_of(usual).settable:
        for value in choices(name, usual.game):
            yield usual.with_options(**{name: value})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("choice", chooser())
def test_a_table_that_changed_an_option_never_reads_its_usual_value(lang: str, choice: str) -> None:
    """Every game and house preset, every option its table may set, at each of its other values:
    the line of the usual summary that states the usual value is not shown, nor its words in
    whatever summary the table then reads (a house preset's table reads its game's)."""
    usual = PRESETS[choice]()
    head = f"games.{choice}.summary"
    said: list[tuple[str, object]] = []
    for name in game_of(usual).settable:
        key = f"{head}.{name}.{value_key(usual.option(name))}"
        if key.removeprefix(f"{head}.") not in section(lang, head):
            continue  # no line states this option's usual value
        for value in choices(name, usual.game):
            if value == usual.option(name):
                continue
            rules = usual.with_options(**{name: value})
            shown = "\n".join(summary(lang, chosen(rules), rules))
            assert t(lang, key) not in shown, (name, value)
            said.append((name, value))
    assert said or choice == "sport"  # Sport domino's summary states no option's value


@pytest.mark.parametrize("part", ["summary", "about"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("choice", chooser())
def test_every_line_keyed_by_an_option_is_one_the_table_can_play(
    lang: str, choice: str, part: str
) -> None:
    """A line of the summary, or of the chooser's and lobby's line (``about``), keyed by an
    option and a value shows where the table plays that value: an option the game does not let
    a table set, or a value it cannot take (the preset's unset one aside, ``never``, a General
    no move can hang, and ``no_bazaar``, a table of some number of players dealt no bazaar),
    would be a line that always shows, or never; so would ``.other`` where every value has its
    own line. A line keyed by an option alone would always show, stating one value."""
    usual = PRESETS[choice]()
    lines = section(lang, f"games.{choice}.{part}")
    for line in lines:
        name, _, value = line.partition(".")
        if not value:
            assert name not in OPTION_NAMES, line
            continue
        assert name in game_of(usual).settable, line
        values = {value_key(v) for v in (*choices(name, usual.game), usual.option(name))}
        values |= {
            value_key(played(rules, name, players))
            for rules in one_changed(usual)
            for players in (None, *players_of(choice))
        }
        if value == "other":
            assert {v for v in values if f"{name}.{v}" not in lines}, line
        else:
            assert value in values, line


#: How each language's summary says a player with no tile draws one a turn (``one_per_turn``).
DRAWS_ONE = {
    "en": "No tile — draw one from the bazaar",
    "ru": "Нечем ходить — бери с базара один камень",
    "uk": "Нема чим ходити — бери з базару один камінь",
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "choice",
    [c for c in chooser() if "draw_mode.until_playable" in section("en", f"games.{c}.summary")],
)
def test_a_table_that_draws_one_tile_a_turn_reads_how_it_draws(lang: str, choice: str) -> None:
    """Every game and house preset whose summary says how a player with no tile draws: a table
    that draws one tile a turn read nothing of drawing above its "Bazaar: one tile per turn"
    (the line was its usual drawing's alone); it now reads that he draws one, or knocks."""
    usual = PRESETS[choice]()
    assert "one_per_turn" in choices("draw_mode", usual.game)
    rules = usual.with_options(draw_mode="one_per_turn")
    shown = "\n".join(summary(lang, chosen(rules), rules))
    assert DRAWS_ONE[lang] in shown
    assert DRAWS_ONE[lang] not in "\n".join(summary(lang, choice, usual))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sport_domino_says_a_player_with_no_tile_knocks_whatever_its_drawing(lang: str) -> None:
    """Sport domino deals all 28 tiles to its four players, so whatever drawing its editor sets
    nobody ever draws: its summary said nothing of a player with no tile; it now says he knocks,
    there being no bazaar, at every drawing the editor offers."""
    usual = PRESETS["sport"]()
    for mode in choices("draw_mode", usual.game):
        rules = usual.with_options(draw_mode=mode)
        _, events = Match.new(4, True, rules, seed=1)
        started = next(e for e in events if isinstance(e, RoundStarted))
        assert started.bazaar == [], mode
        assert KNOCKS[lang] in "\n".join(summary(lang, chosen(rules), rules)), mode


def deals_bazaar(rules: RuleSet, players: int, pairs: bool) -> bool:
    """Whether the engine's first deal at this table leaves tiles in the bazaar."""
    _, events = Match.new(players, pairs, rules, seed=1)
    return bool(next(e for e in events if isinstance(e, RoundStarted)).bazaar)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("choice", chooser())
def test_a_table_dealt_no_bazaar_reads_that_a_player_with_no_tile_knocks(
    lang: str, choice: str
) -> None:
    """Kozel at four, seven tiles each, all 28 dealt, read "No tile — draw from the bazaar, or
    knock." above "Bazaar: draw until a tile fits"; so did the Telephones at four. Every game
    and house preset, at every table it seats and each option changed: where the deal leaves
    no bazaar, a summary that says how a player with no tile draws says he knocks, as Sport
    domino's does, and no option line speaks of the bazaar; where it leaves one, it says how he
    draws. Without a table (/rules and a game's name), the usual words, but for a game no table
    of which is dealt a bazaar."""
    usual = PRESETS[choice]()
    game = usual.game
    head = f"games.{choice}.summary"
    drawing = {t(lang, f"{head}.{line}") for line in section(lang, head) if "draw_mode." in line}
    knocks = KNOCKS[lang] if drawing else None
    bazaar = {describe(lang, name, v, game) for name in BAZAAR_OPTIONS for v in choices(name, game)}
    dealt = set()
    for rules in (usual, *one_changed(usual)):
        for players, pairs in TABLE_SHAPES:
            if not fits(choice, players, pairs):
                continue
            draws = deals_bazaar(rules, players, pairs)
            dealt.add(draws)
            shown = summary(lang, chosen(rules), rules, players)
            options = rules_text(lang, rules, players=players)
            said = {line.removeprefix("• ") for line in options}
            where = (rules.to_dict(), players)
            if draws:
                assert knocks not in shown, where
                assert not drawing or drawing & set(shown) or rules.draw_mode == "none", where
            else:
                assert drawing & set(shown) == ({knocks} if knocks else set()), where
                assert not bazaar & said, where
    no_table = summary(lang, choice, usual)
    assert (knocks in no_table) == (knocks is not None and True not in dealt)
    if True in dealt and "draw_mode" in game_of(usual).settable:
        assert describe(lang, "draw_mode", usual.draw_mode, game) in "\n".join(
            rules_text(lang, usual)
        )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["sea_goat", "generals_goat"])
def test_a_line_table_set_to_three_or_four_doubles_a_move_reads_as_two(
    lang: str, game: str
) -> None:
    """Sea Goat and General's Goat tables saved with 3 or 4 doubles a move, before their editor
    offered 0 or 2, play as two on a line of two ends, yet their summary said nothing of
    doubles (only two has a line) and their option line "Up to 4 doubles in one move". They
    now read, line for line, as a table of two doubles a move."""
    two = PRESETS[game]()
    assert two.multi_double == 2
    for most in (3, 4):
        rules = RuleSet.from_dict({**two.to_dict(), "multi_double": most})
        shown = summary(lang, game, rules)
        assert t(lang, f"games.{game}.summary.multi_double.2") in shown, most
        assert shown == summary(lang, game, two), most
        assert rules_text(lang, rules) == rules_text(lang, two), most


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generals_goat_where_no_general_is_hung_reads_how_the_match_is_lost(lang: str) -> None:
    """General's Goat at one tile a move, where no General is ever hung, ended its summary on
    "Otherwise the team that loses the set number of rounds loses the match": otherwise than
    nothing. Every table now reads how rounds lose the match, with no "otherwise"; one where a
    General can be hung then reads that it ends the match at once."""
    usual = PRESETS["generals_goat"]()
    for rules in (usual, *one_changed(usual)):
        shown = summary(lang, "generals_goat", rules)
        assert ROUNDS_LOSE[lang] in shown, rules
        assert OTHERWISE[lang] not in "\n".join(shown), rules
    never = summary(lang, "generals_goat", usual.with_options(multi_double=0))
    assert never[-2:] == [
        ROUNDS_LOSE[lang],
        t(lang, "games.generals_goat.summary.general_title.never"),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generals_goat_says_how_a_general_is_hung_only_where_a_move_can_hang_one(
    lang: str,
) -> None:
    """General's Goat at every table its options make: its summary, its line in the lobby and
    its option line say how a General is hung exactly where a last move can hang one, and
    otherwise that none is. At one tile a move 0-0 and 6-6 never go down together, so the usual
    General (both at once) is never hung; all three still told how to hang it, above "One tile
    a move"."""
    usual = PRESETS["generals_goat"]()
    game, names = usual.game, game_of(usual).settable
    titles = choices("general_title", game)
    zero, six = Tile(0, 0), Tile(6, 6)
    for values in product(*(choices(name, game) for name in names)):
        rules = usual.with_options(**dict(zip(names, values, strict=True)))
        moves = [(zero,), (six,), *([(zero, six)] if rules.multi_double >= 2 else [])]
        can = any(hangs_general(move, rules) for move in moves)
        for head, shown in (
            ("summary", "\n".join(summary(lang, game, rules))),
            ("about", about(lang, game, rules)),
        ):
            key = f"games.{game}.{head}.general_title"
            for title in titles:
                hangs = t(lang, f"{key}.{title}") in shown
                assert hangs == (can and title == rules.general_title), (head, values, title)
            assert (t(lang, f"{key}.never") in shown) != can, (head, values)
        options = "\n".join(rules_text(lang, rules))
        for title in titles:
            hangs = describe(lang, "general_title", title, game) in options
            assert hangs == (can and title == rules.general_title), (values, title)
        assert (describe(lang, "general_title", "never", game) in options) != can, values


@pytest.mark.parametrize(
    ("lang", "fifth", "whole"),
    [
        ("en", "a fifth of it (15 → 3)", "a multiple of 5 scores you the whole sum"),
        ("ru", "пятую часть (15 → 3)", "если сумма кратна 5, записываешь её целиком"),
        ("uk", "п’яту частину (15 → 3)", "якщо сума кратна 5, записуєш її повністю"),
    ],
)
def test_telephone_with_full_points_says_the_whole_sum(lang: str, fifth: str, whole: str) -> None:
    """Telephone's summary said a multiple of 5 scores a fifth of it, above the table's own
    "scores the whole sum"; it now says the whole sum, and the usual table still a fifth."""
    usual = PRESETS["telephone"]()
    played = "\n".join(summary(lang, "telephone", usual.with_options(play_points="full")))
    assert fifth not in played and whole in played
    said = "\n".join(summary(lang, "telephone", usual))
    assert fifth in said and whole not in said


@pytest.mark.parametrize(
    ("lang", "remembered"),
    [
        ("en", "smaller amounts are remembered"),
        ("ru", "меньшие суммы запоминаются"),
        ("uk", "менші суми запам’ятовуються"),
    ],
)
def test_kozel_that_throws_small_rounds_away_does_not_say_they_are_remembered(
    lang: str, remembered: str
) -> None:
    """A Kozel table with ``memory = discard`` read "smaller amounts are remembered until then"
    above its own "Under 13 points: thrown away"."""
    usual = PRESETS["kozel"]()
    assert remembered in "\n".join(summary(lang, "kozel", usual))
    discard = "\n".join(summary(lang, "kozel", usual.with_options(memory="discard")))
    assert remembered not in discard and "13" in discard
