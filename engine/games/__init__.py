"""The games a table can play, found by name: ``game_of(rules)`` is the game ``RuleSet.game`` names.

The match and its rounds ask the game (``base.Game``) and its ``RuleSet``, never a game's name, so
to add a game:

1. a preset: its name in ``rules.GameName``, its options as ``RuleSet`` fields, and a preset
   function in ``rules.PRESETS``;
2. one module here, a ``Game`` that names the options a table may set for it (``settable``) and
   overrides the hooks it plays differently (its layout, hand sizes, leads, the points a move
   scores, how a round is scored and how the match ends), entered in ``GAMES`` below;
3. its worked examples of RULES.md §4 as tests, and the property tests run over it;
4. in the bot, its targets in ``TARGETS`` (``bot/games.py``) if it plays to one, and in every
   ``bot/locales/*.toml`` its name and its ``games.NAME`` description and rules;
   ``tests/bot/test_locales.py`` names what is missing.

Kozel (``kozel.py``) goes through the same hooks.
"""

from __future__ import annotations

from ..rules import RuleSet
from .base import Game
from .bulgarian import BulgarianFives
from .donkey import Donkey
from .english import EnglishFives
from .generals import GeneralsGoat
from .kozel import Kozel
from .muggins import Muggins
from .sea_goat import SeaGoat
from .sport import Sport
from .telephone import Telephone, TelephoneUA
from .traditional import Traditional

#: The games by name, in the order the bot's game chooser lists them.
GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Kozel(),
        Telephone(),
        TelephoneUA(),
        Muggins("muggins", "muggins_bonus"),
        Muggins("all_threes", "threes_bonus"),
        BulgarianFives(),
        EnglishFives(),
        SeaGoat(),
        Traditional(),
        GeneralsGoat(),
        Sport(),
        Donkey(),
    )
}


def game_of(rules: RuleSet) -> Game:
    return GAMES[rules.game]


def check_settable(game: str, name: str) -> None:
    """Raise ValueError unless a table of ``game`` may set option ``name`` (``Game.settable``):
    another game's option would be accepted and never read, so the refusal names this game's."""
    settable = GAMES[game].settable
    if name not in settable:
        raise ValueError(f"{game} has no option {name}; its options: {', '.join(settable)}")
