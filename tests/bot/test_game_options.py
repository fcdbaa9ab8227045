"""The options a table may set for a game are said once, by the game (``Game.settable``): the
⚙️ Rules editor offers them, and ``python -m engine ... --set`` takes them and no other."""

from __future__ import annotations

import json

import pytest

from bot.games import OFFERED, TABLE_SHAPES, fits
from bot.render.lobby import BAZAAR_OPTIONS, choices, options_of, rules_text
from bot.render.summary import value_key
from engine.cli import rules_from
from engine.events import RoundStarted
from engine.games import GAMES
from engine.match import Match
from engine.rules import PRESETS, RuleSet


@pytest.mark.parametrize("game", OFFERED)
def test_the_command_line_takes_every_value_the_editor_offers(game: str) -> None:
    rules = PRESETS[game]()
    for name in options_of(rules):
        for value in choices(name, game):
            assert rules_from(game, [f"{name}={value_key(value)}"]).option(name) == value


@pytest.mark.parametrize("game", OFFERED)
def test_the_command_line_refuses_what_the_editor_never_offers(game: str) -> None:
    others = {name for other in GAMES.values() for name in other.settable}
    for name in sorted(others - set(GAMES[game].settable)):
        with pytest.raises(ValueError, match=f"^{game} has no option {name}; its options: "):
            rules_from(game, [f"{name}={PRESETS[game]().option(name)}"])


@pytest.mark.parametrize("game", [g for g in OFFERED if "multi_double" in GAMES[g].settable])
def test_the_editor_offers_no_more_doubles_a_move_than_the_layout_has_ends(game: str) -> None:
    """A line has two open ends (RULES.md §1.7), each double of a move needing its own (§1.6):
    Sea Goat's and General's Goat's editor offered up to 3 and 4 doubles a move, which play as
    2 there; it now offers one tile or two doubles a move. A spinner's cross keeps all four."""
    on_a_line = PRESETS[game]().spinner == "none"
    assert choices("multi_double", game) == ((0, 2) if on_a_line else (0, 2, 3, 4))


@pytest.mark.parametrize(
    "game", [g for g in OFFERED if set(BAZAAR_OPTIONS) & set(GAMES[g].settable)]
)
def test_the_editor_offers_the_bazaars_options_only_where_a_player_draws(game: str) -> None:
    """Sport domino's editor offered a drawing, though its four players hold all 28 tiles and
    nobody ever draws; so did Kozel's, the Telephones', Sea Goat's and Donkey's at four, seven
    tiles each, and Kozel's its reserve there too, and where nobody draws from it. At every
    table the game seats, each option changed, the editor now offers how to draw only where the
    deal leaves a bazaar, and its reserve only where a player then draws from it."""
    usual = PRESETS[game]()
    seated = [(n, pairs) for n, pairs in TABLE_SHAPES if fits(game, n, pairs)]
    offered = set()
    for rules in (
        usual,
        *(usual.with_options(**{n: v}) for n in options_of(usual) for v in choices(n, game)),
    ):
        for players, pairs in seated:
            _, events = Match.new(players, pairs, rules, seed=1)
            bazaar = next(e for e in events if isinstance(e, RoundStarted)).bazaar
            draws = {
                "draw_mode": bool(bazaar),
                "bazaar_reserve": bool(bazaar) and rules.draw_mode != "none",
            }
            for name in set(BAZAAR_OPTIONS) & set(GAMES[game].settable):
                assert (name in options_of(rules, players)) == draws[name], (name, players, rules)
            offered |= set(options_of(rules, players))
    assert ("draw_mode" in offered) == (game != "sport")


def test_a_sport_table_that_set_a_drawing_still_loads_and_says_nothing_of_it() -> None:
    """A Sport domino table stored with a drawing of its own, set when the editor offered it,
    still loads, and its lobby and /rules say nothing of a bazaar it never has."""
    stored = {**PRESETS["sport"]().to_dict(), "draw_mode": "one_per_turn"}
    rules = RuleSet.from_dict(json.loads(json.dumps(stored)))
    assert rules.draw_mode == "one_per_turn"
    assert "draw_mode" not in options_of(rules, 4) and "draw_mode" not in options_of(rules)
    said = "\n".join(rules_text("en", rules, players=4))
    assert "Bazaar" not in said and "bazaar" not in said
