"""The games a table can choose, as the bot offers them: which, with which of their options in
the ⚙️ Rules editor, and for how many players."""

from __future__ import annotations

from typing import get_args

from engine.events import GameRuleEnd
from engine.games import GAMES
from engine.rules import PRESETS, TARGET_CHOICES, RuleSet

#: The games a table can choose, in the order the lobby lists them: those the engine plays. The
#: options its ⚙️ Rules editor offers for each are the game's own (``Game.settable``), which
#: ``--set`` accepts too.
OFFERED = tuple(GAMES)
#: The targets a win-at-target game cycles through, its preset's among them.
TARGETS: dict[str, tuple[int, ...]] = {
    "telephone": (72, 100, 150),
    "telephone_ua": (150, 225, 300),
    "muggins": TARGET_CHOICES["muggins"],
    "all_threes": (100, 250, 500),
    "bulgarian_fives": (100, 150, 200),
    "english_fives": (100, 200, 300),
    "traditional": (100, 150, 200, 300, 500),
}
#: The ways a game's own rule ends a match besides its target and the goat (``GameRuleEnd``):
#: its result says which, and its record counts it as won by the rule, as a target is.
SPECIAL_ENDS: tuple[GameRuleEnd, ...] = get_args(GameRuleEnd)
#: Sea Goat's targets: 125, and 202 that pairs play to (RULES.md §3.2).
SEA_GOAT_TARGETS = (125, 202)
#: The other counts the editor cycles through: rounds a General's Goat team may lose (§3.10),
#: Sport domino's deals, a multiple of 4 (§3.11).
COUNTS: dict[str, tuple[int, ...]] = {"gg_losses": (1, 2, 3), "sport_deals": (4, 8, 12, 16)}


#: House presets the game chooser offers after their game (``engine.rules.PRESETS``; RULES.md
#: §3.1: Traditional as §HT plays it, ``trad_preset = ht``). A house preset is its game with
#: options the ⚙️ Rules editor could set one by one, so choosing one only sets the table's rules:
#: the table, its match (``match_started``) and its result record the game itself, and the
#: preset shares that game's standings, /top and /stats, as the same options set by hand would.
HOUSE_PRESETS = ("traditional_ht",)


def game_of_choice(choice: str) -> str:
    """The game a choice of the chooser plays: the game itself, or a house preset's game."""
    return PRESETS[choice]().game if choice in HOUSE_PRESETS else choice


def chooser() -> tuple[str, ...]:
    """What the game chooser lists, in its order: each game, then its house presets."""
    return tuple(
        choice
        for game in OFFERED
        for choice in (game, *(p for p in HOUSE_PRESETS if game_of_choice(p) == game))
    )


def chosen(rules: RuleSet) -> str:
    """The choice a table's ``rules`` are: a house preset while they are exactly its options,
    else their game (with whatever options the table set)."""
    options = rules.to_dict()
    for preset in HOUSE_PRESETS:
        if PRESETS[preset]().to_dict() == options:
            return preset
    return rules.game


def fits(game: str, players: int, pairs: bool) -> bool:
    """Whether ``game`` (or a house preset of it) is played by ``players`` (``pairs``: two
    pairs), as the engine says."""
    try:
        GAMES[game_of_choice(game)].check_table(players, pairs)
    except ValueError:
        return False
    return True


def seating(players: int, pairs: bool, name: str, value: object) -> tuple[int, bool]:
    """The players and pairs of a table whose setting ``name`` (``players`` or ``pairs``) moves to
    ``value``: pairs need four players, and fewer than four cannot be pairs."""
    if name == "players":
        assert isinstance(value, int)
        return value, pairs and value == 4
    return (4 if value else players), bool(value)


#: The ways a table can be set: two to four players, each for themselves, or two pairs.
TABLE_SHAPES: tuple[tuple[int, bool], ...] = ((2, False), (3, False), (4, False), (4, True))
#: Who plays a game, by the shapes it fits, as the lobby and its refusals say it (``players.*``).
WHO_PLAYS: dict[tuple[tuple[int, bool], ...], str] = {
    TABLE_SHAPES: "any",
    TABLE_SHAPES[:3]: "alone",
    ((2, False), (4, True)): "two_or_pairs",
    ((2, False),): "two",
    ((4, True),): "pairs",
}


def who_plays(game: str) -> str:
    """The ``players.*`` key that says who plays ``game``, read off the engine's table check."""
    return WHO_PLAYS[tuple(shape for shape in TABLE_SHAPES if fits(game, *shape))]


def deals_a_bazaar(rules: RuleSet, players: int | None = None) -> bool:
    """Whether a table of ``players`` playing ``rules`` is dealt a bazaar (RULES.md §1.4, as
    the engine deals: ``Game.bazaar_size``); where no table is (``None``: /rules of a game by
    its name), whether some table of the game is, so its usual words say how one draws unless
    no table of it ever does (Sport domino: four at seven each, all 28 tiles dealt)."""
    game = GAMES[rules.game]
    counts = (
        {players}
        if players is not None
        else {n for n, pairs in TABLE_SHAPES if fits(rules.game, n, pairs)}
    )
    return any(game.bazaar_size(rules, count) > 0 for count in counts)
