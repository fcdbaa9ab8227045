"""The options a table may set for a game are said once, by the game (``Game.settable``): the
⚙️ Rules editor offers them, and ``python -m engine ... --set`` takes them and no other."""

from __future__ import annotations

import pytest

from bot.games import OFFERED
from bot.render.lobby import choices, options_of
from bot.render.summary import value_key
from engine.cli import rules_from
from engine.games import GAMES
from engine.rules import PRESETS


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
