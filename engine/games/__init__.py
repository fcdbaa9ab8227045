"""The games a table can play, found by name: ``game_of(rules)`` is the game ``RuleSet.game`` names.

The match and its rounds ask the game (``base.Game``) and its ``RuleSet``, never a game's name,
and so does the bot's board, results and standings. So to add a game:

1. a preset: its name in ``rules.GameName``, its options as ``RuleSet`` fields after the last
   game's (the options Kozel and the scoring games record are slices of that order; a name with
   a leading digit goes in ``rules.SPELLED``), the values a game restricts in
   ``rules.GAME_CHOICES``, ``TARGET_CHOICES`` or ``ONE_GAME_OPTIONS`` (and in
   ``OFFERED_CHOICES`` those it accepts but need not offer), and a preset function in
   ``rules.PRESETS``;
2. one module here, a ``Game`` entered in ``GAMES`` below, that names the options a table may set
   for it (``settable``), those its ``match_started`` records (``options``, by name: every field,
   the default, grows with the next game's, and a stored match must replay as it was logged) and
   what ``match_ended`` says of its end (``ended_by``), overrides the hooks it plays differently
   (its table, layout, hand sizes, leads, the points a move scores, how a round is scored and how
   the match ends, and ``utility``, what the strong player plays for: by default a lead in
   points), sets ``closes_doubles`` for doubles laid face down, ``offers_lays`` if its
   ``lays`` offers moves besides the plays, and ``races_out`` if a round is a race to go out,
   and says what the players are shown of it: whether it is won at a target (``wins_at_target``),
   whether its end names winners (``names_winners``, and so does a timeout), the score that ends
   it (``limit``) or its count of ``deals``, the rounds that count (``counted_round``), whether
   it ``keeps_points``, what it calls its loser (``loser_title``) and a blocked round
   (``blocks_are_fish``), and whether partners' hands are summed at a block
   (``pairs_block_by_total``);
3. its worked examples of RULES.md §4 as tests, and its name among the games of its family's
   property and self-play tests (``tests/engine/test_yard_*.py``; the scoring games' take every
   ``TargetGame``), and its table in the benchmarks' (``benchmarks/bench_engine.py``; outside
   ``SCORING_TABLES``, in ``bench_ai_games.TABLES`` too);
4. in the bot, its targets in ``TARGETS`` (``bot/games.py``) if it plays to one, and in ``COUNTS``
   the values the editor cycles through for an integer option of its own, a new way its match
   ends (``ended_by``) in ``SPECIAL_ENDS`` (its result names it, its record counts it as won by
   the rule), a new set of tables it is played at in ``WHO_PLAYS``, a new outcome of its rounds
   in ``OUTCOMES`` (``bot/render/results.py``); and in every ``bot/locales/*.toml`` its name,
   its ``games.NAME`` description and rules, the words for its options' values
   (``rules.OPTION``), and those of its new ends and outcomes.
   ``tests/bot/test_locales.py`` names a text that is missing, and
   ``tests/bot/test_render_every_game.py`` one that a whole match of it shows;
   ``tests/engine/test_seams.py`` a game missing from its family's property tests, or one that
   records every option, and
   ``tests/test_benchmarks.py`` one without its tables in the benchmarks.

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
