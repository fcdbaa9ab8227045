"""The house rules a table plays by (RULES.md §2.0): one typed field per option, DEFAULT first.

Field names and value spellings are exactly the spec's identifiers, so transcripts, table settings
and tests speak one language. Games other than Kozel will add their own fields (layout, in-play
scoring, multi-double moves) next to these; rounds ask the ``RuleSet``, never the game's name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_type_hints

from . import revisions

#: The games a table can play; each is a ``Game`` in ``engine.games`` under this name.
GameName = Literal[
    "kozel",
    "telephone",
    "telephone_ua",
    "muggins",
    "all_threes",
    "bulgarian_fives",
    "english_fives",
    "donkey",
    "sea_goat",
    "traditional",
    "generals_goat",
    "sport",
]
HandSizes = Literal["default", "ht"]
RedealRule = Literal["doubles_or_suit", "doubles_only"]
FirstLead = Literal[
    "chain_1_1",
    "one_one_four_else_lowest_double",
    "lowest_incl_00",
    "lot_lowest",
    "three_two",
    "highest_tile",
]
DrawMode = Literal["until_playable", "one_per_turn", "none"]
NextLead = Literal["winner", "winner_partner"]
LeadTile = Literal["any", "double_if_held"]
FishMode = Literal["for_one", "for_everyone", "lowest_wins"]
Eggs = Literal["pot_to_max_next", "pot_to_next_winner"]
Memory = Literal["remember", "discard"]
PlayPoints = Literal["full", "divided"]
MugginsBonus = Literal["divided", "full"]
ThreesBonus = Literal["threes", "fives"]
BgBlockWinner = Literal["lowest_pips", "literal_most_points"]
Spinner = Literal["none", "first_double"]
SpinnerArmsOpen = Literal["immediately", "after_both_long_sides"]
SpinnerCount = Literal["A", "B"]
SgMeaning = Literal["win", "lose"]
SgFinish = Literal["auto_win", "ua", "penalty_002"]
SgNaSto = Literal["writeoff", "svoyak"]
SgFish = Literal["lowest_wins", "ua_fisherman"]
SgEggs = Literal["pot_to_next_winner", "ua"]
SgDoubleFinish = Literal["zero_six", "any_two"]
TradLead = Literal[
    "highest_double", "zero_first", "lowest_double_no_00", "lot_heaviest", "lowest_incl_00"
]
TradFish = Literal["difference", "per_player"]
GeneralTitle = Literal["both_at_once", "either"]

#: Options whose value is restricted to a set of integers by the spec.
INT_CHOICES: dict[str, tuple[int, ...]] = {
    "bazaar_reserve": (0, 2),
    "lone_00": (10, 25),
    "lone_66": (12, 50),
    "score_multiple": (5, 3),
    "multi_double": (0, 2, 3, 4),
}

#: Targets a game restricts to a few values (§3.6: "100, 250 or 500"); others take any.
TARGET_CHOICES: dict[str, tuple[int, ...]] = {"muggins": (100, 250, 500)}
#: House rules of one game only (§1.6: the extra turn after a double is Traditional's): every
#: other game keeps them off. Its log would not record them, so could not be replayed.
ONE_GAME_OPTIONS: dict[str, str] = {"extra_turn_after_double": "traditional"}
#: Kozel's first leads (§2.3); the lot, 3-2 and the highest tile are the scoring games' (§3.5,
#: §3.6, §3.8), which may take any of them.
KOZEL_FIRST_LEADS: tuple[FirstLead, ...] = (
    "chain_1_1",
    "one_one_four_else_lowest_double",
    "lowest_incl_00",
)
#: The options Kozel restricts: its first leads, and one tile a move (§1.6 "Kozel itself: not
#: allowed"; its log does not record ``multi_double``).
KOZEL_CHOICES: dict[str, tuple[Any, ...]] = {"first_lead": KOZEL_FIRST_LEADS, "multi_double": (0,)}
#: The options each game restricts, by game: Kozel's above; the Bulgarian player draws until a
#: tile fits and "every stock tile is drawable: no reserve" (§3.8); Sea Goat deals 7 tiles and
#: leads as Kozel (§3.2), later rounds "by the winner or the fisherman, with any tile", save
#: "на сто" and eggs (§3.2.3); Donkey's first double takes 4 sides at once and the rest is
#: Kozel's (§3.3).
GAME_CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "kozel": KOZEL_CHOICES,
    "donkey": {
        "kozel_hand_sizes": ("default",),  # "as Kozel (7)", whoever plays (§1.4)
        "first_lead": KOZEL_FIRST_LEADS,
        "spinner": ("first_double",),
        "spinner_arms_open": ("immediately",),
    },
    "bulgarian_fives": {"draw_mode": ("until_playable",), "bazaar_reserve": (0,)},
    "sea_goat": {
        "kozel_hand_sizes": ("default",),
        "first_lead": KOZEL_FIRST_LEADS,
        "next_lead": ("winner",),
        "lead_tile": ("any",),
        "restart_1_1_after_unrecorded": (False,),
    },
}


#: The doubles a move may put down on a line: none, or one on each of its two open ends (§1.6,
#: §1.7).
LINE_MULTI_DOUBLES: tuple[int, ...] = (0, 2)
#: The values of an option that a game's table is offered, fewer than it accepts: on the line of
#: Sea Goat and General's Goat, with its two open ends (§1.7), three or four doubles a move play
#: as two, each double needing an end of its own (§1.6). Unlike ``GAME_CHOICES`` these refuse
#: nothing, so a table or a match that set another value before still loads and plays.
OFFERED_CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "sea_goat": {"multi_double": LINE_MULTI_DOUBLES},
    "generals_goat": {"multi_double": LINE_MULTI_DOUBLES},
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Kozel options; the defaults are the spec's DEFAULTs (RULES.md §2.0, §2.12)."""

    game: GameName = "kozel"
    kozel_hand_sizes: HandSizes = "default"
    redeal_rule: RedealRule = "doubles_or_suit"
    first_lead: FirstLead = "chain_1_1"
    draw_mode: DrawMode = "until_playable"
    bazaar_reserve: int = 0
    next_lead: NextLead = "winner"
    lead_tile: LeadTile = "any"
    restart_1_1_after_unrecorded: bool = False
    lone_00: int = 10
    lone_66: int = 12
    special_bones: bool = False
    fish_mode: FishMode = "for_one"
    eggs: Eggs = "pot_to_max_next"
    memory: Memory = "remember"
    goat_limit: int = 101
    fish_closure_rule: bool = True
    # The scoring games (RULES.md §3.4-§3.9); Kozel neither reads nor records them.
    #: The score that wins a win-at-target match (§1.11).
    target: int = 100
    #: The open-end sum scores when it is a positive multiple of this (§3.6, §3.7 threes).
    score_multiple: int = 5
    #: A scoring move earns S itself, or S divided by ``score_multiple`` (Telephone to 72, §3.4).
    play_points: PlayPoints = "full"
    #: Muggins' end bonus: round5(...)/5, or round5 of the losers' pips in full (§3.6 variant 3).
    muggins_bonus: MugginsBonus = "divided"
    #: All Threes' end bonus in threes (round3(...)/3) or kept as Muggins' fives (§3.7).
    threes_bonus: ThreesBonus = "threes"
    #: Who wins a Bulgarian block: fewer pips in hand, or more match points (§3.8, FLAG).
    bg_block_winner: BgBlockWinner = "lowest_pips"
    # The layout (§1.6-§1.8; ``cross.py``): a spinner, when its arms open, how it counts in the
    # open-end sum, and how many doubles one move may put down (0: one tile a move).
    spinner: Spinner = "none"
    spinner_arms_open: SpinnerArmsOpen = "immediately"
    spinner_count: SpinnerCount = "A"
    multi_double: int = 0
    # Donkey (RULES.md §3.3; ``games/donkey.py``).
    #: Whether the player who closed a double may reopen it at the start of a later turn of his.
    donkey_reopen: bool = False
    # Sea Goat (RULES.md §3.2; ``games/sea_goat.py``).
    #: The target (§3.2.1 rule 5): 125, or 202 for pairs (000 §NI). Unset (None), the table's
    #: shape decides as its match starts (``SeaGoat.for_table``); set, it stands for any shape.
    sg_target: int | None = None
    #: Whether reaching the target wins the match, or (002 §INTRO) loses it.
    sg_125_meaning: SgMeaning = "win"
    #: What going out on 0-0 / 6-6 does (§3.2.2).
    sg_finish: SgFinish = "auto_win"
    #: What losing a "на сто" round costs (§3.2.1 rule 7).
    sg_na_sto: SgNaSto = "writeoff"
    #: Who wins a fish: the lowest hand, or 004's fisherman module (§3.2.4).
    sg_fish: SgFish = "lowest_wins"
    #: Eggs: the pot to the next winner, or 004's replay from 1-1, rotten after 3 (§3.2.5).
    sg_eggs: SgEggs = "pot_to_next_winner"
    #: Which two doubles at once win the match under ``sg_finish = auto_win`` (§3.2.2, FLAG):
    #: 0-0 with 6-6 only, or any two. Spelled by this project: RULES.md names the option only.
    sg_double_finish: SgDoubleFinish = "zero_six"
    # Traditional, General's Goat and Sport domino (RULES.md §3.1, §3.10, §3.11; the modules
    # ``games/traditional.py``, ``games/generals.py``, ``games/sport.py``).
    #: Who leads each round of Traditional (§3.1); ``lowest_incl_00`` is the §HT preset's lead
    #: (``traditional_ht``: the lowest double, 0-0 first, else the lowest non-double).
    trad_lead: TradLead = "highest_double"
    #: What the lowest hand wins at a Traditional fish: the others' pips minus its own
    #: (``difference``), or the sum over the others of each one's pips minus its own
    #: (``per_player``, the spec's "Option Σ_i (h_i − h_winner)"). Equal for two sides.
    trad_fish: TradFish = "difference"
    #: 0-0 counts 25 in any hand, not only alone (§3.1); spelled ``00_always_25``.
    zero_zero_always_25: bool = False
    #: 6-6 counts 50 in any hand (§3.1, §HT); spelled ``66_always_50``.
    six_six_always_50: bool = False
    #: A player who places a double plays again at once (Traditional's house rule, §1.6).
    extra_turn_after_double: bool = False
    #: When General's Goat hangs a General (§3.10): a last move of 0-0 and 6-6 together, or
    #: either of them.
    general_title: GeneralTitle = "both_at_once"
    #: The rounds a team of General's Goat may lose before it loses the match (§3.10: "a team
    #: that loses twice gives up its place").
    gg_losses: int = 2
    #: The deals of a Sport domino match, a multiple of 4 so that each seat leads as often (§3.11).
    sport_deals: int = 8
    #: Not an option: which revision of the rules' code reads the options (``revisions.py``).
    #: A match keeps the one it started under; new rule sets get the current one.
    revision: int = field(default_factory=revisions.current, kw_only=True)

    def __post_init__(self) -> None:
        for name in OPTION_NAMES:
            check_option(name, self.option(name), self.game)
        if not revisions.known(self.revision):
            raise ValueError(f"unknown rules revision {self.revision!r}")

    def hand_size(self, players: int) -> int:
        """7 tiles each (§2.1); the §HT house rule deals 5 when three or four play."""
        if self.kozel_hand_sizes == "ht" and players >= 3:
            return 5
        return 7

    def option(self, name: str) -> Any:
        """The value of the option spelled ``name`` (``00_always_25`` too, see ``SPELLED``)."""
        return getattr(self, SPELLED.get(name, name))

    def to_dict(self) -> dict[str, Any]:
        """The options, without the revision: a match's log records that on its own."""
        return {name: self.option(name) for name in OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        unknown = set(data) - set(OPTION_TYPES)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**_attributes(data))

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with ``changes``, options by their spelling (``00_always_25`` too)."""
        return dataclasses.replace(self, **_attributes(changes))

    def under(self, revision: int) -> RuleSet:
        """The same options read by another revision of the rules' code."""
        return dataclasses.replace(self, revision=revision)


#: Options RULES.md spells with a leading digit, which no Python name may have: each spelling
#: (used in transcripts, settings and ``--set``) and the ``RuleSet`` attribute that holds it.
SPELLED: dict[str, str] = {
    "00_always_25": "zero_zero_always_25",
    "66_always_50": "six_six_always_50",
}
_SPELLING: dict[str, str] = {attribute: name for name, attribute in SPELLED.items()}


def _attributes(options: dict[str, Any]) -> dict[str, Any]:
    return {SPELLED.get(name, name): value for name, value in options.items()}


#: The options by their spelling, in ``RuleSet``'s order.
OPTION_NAMES: tuple[str, ...] = tuple(
    _SPELLING.get(f.name, f.name) for f in dataclasses.fields(RuleSet) if f.name != "revision"
)
_HINTS: dict[str, Any] = {
    _SPELLING.get(attribute, attribute): kind
    for attribute, kind in get_type_hints(RuleSet).items()
    if attribute != "revision"
}
#: Options a table may leave unset (None by default), for its game to fill in from the table's
#: shape (``Game.for_table``).
UNSET_BY_DEFAULT: frozenset[str] = frozenset(
    name for name, kind in _HINTS.items() if type(None) in get_args(kind)
)
#: The type each option is set to (an option unset by default is set to an int).
OPTION_TYPES: dict[str, Any] = {
    name: int if name in UNSET_BY_DEFAULT else kind for name, kind in _HINTS.items()
}


def option_choices(name: str, game: str = "kozel") -> tuple[Any, ...] | None:
    """The allowed values of an option in ``game`` (the few a game restricts: Muggins' targets,
    ``GAME_CHOICES``, another game's house rule), or None when any positive integer is allowed."""
    kind = OPTION_TYPES[name]
    if ONE_GAME_OPTIONS.get(name, game) != game:
        return (False,)
    if name == "target" and game in TARGET_CHOICES:
        return TARGET_CHOICES[game]
    if name in GAME_CHOICES.get(game, {}):
        return GAME_CHOICES[game][name]
    if kind is bool:
        return (False, True)
    if name in INT_CHOICES:
        return INT_CHOICES[name]
    if kind is int:
        return None
    return get_args(kind)


def offered_choices(name: str, game: str = "kozel") -> tuple[Any, ...] | None:
    """The values of an option that a table of ``game`` is offered (the ⚙️ Rules editor's): those
    that play differently there (``OFFERED_CHOICES``), else all it accepts (``option_choices``)."""
    offered = OFFERED_CHOICES.get(game, {}).get(name)
    return offered if offered is not None else option_choices(name, game)


def check_option(name: str, value: Any, game: str = "kozel") -> None:
    """Raise ValueError unless ``value`` is a valid setting of option ``name`` in ``game``."""
    if name not in OPTION_TYPES:
        raise ValueError(f"unknown rule option: {name}")
    if value is None and name in UNSET_BY_DEFAULT:
        return
    kind = OPTION_TYPES[name]
    if kind in (bool, int) and type(value) is not kind:
        raise ValueError(f"{name} must be {kind.__name__}, got {value!r}")
    choices = option_choices(name, game)
    if choices is None:
        if value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if name == "sport_deals" and value % 4:
            raise ValueError(f"sport_deals must be a multiple of 4, got {value!r}")
    elif value not in choices:
        allowed = " | ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def parse_option(name: str, text: str, game: str = "kozel") -> Any:
    """Turn ``option=value`` text (CLI, settings) into a typed value, valid in ``game``."""
    if name not in OPTION_TYPES:
        raise ValueError(f"unknown rule option: {name}")
    kind = OPTION_TYPES[name]
    value: Any = text
    if kind is bool:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "on", "off", "1", "0", "yes", "no"):
            raise ValueError(f"{name} must be true or false, got {text!r}")
        value = lowered in ("true", "on", "1", "yes")
    elif kind is int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{name} must be an integer, got {text!r}") from None
    check_option(name, value, game)
    return value


def kozel() -> RuleSet:
    """The default Kozel preset (RULES.md §2.0)."""
    return RuleSet()


def pair_kozel_team() -> RuleSet:
    """Pair Kozel as 000_7076521a207d37f7.txt §TEAM plays it (RULES.md §2.10)."""
    return RuleSet(
        next_lead="winner_partner",
        lead_tile="double_if_held",
        special_bones=True,
        lone_00=25,
        redeal_rule="doubles_only",
    )


#: The options a Kozel match records (``match_started.options``): the ones it had before the
#: scoring games joined, so that Kozel's logs stay as they were.
KOZEL_OPTION_NAMES: tuple[str, ...] = OPTION_NAMES[: OPTION_NAMES.index("fish_closure_rule") + 1]
#: The options the scoring games of RULES.md §3.4-§3.9 record: the ones they had when they came,
#: so that their logs stay as they were as later games add theirs.
SCORING_OPTION_NAMES: tuple[str, ...] = OPTION_NAMES[: OPTION_NAMES.index("multi_double") + 1]
#: The options Sea Goat records: all there were when Sport domino's came, so that a later game's
#: options neither change its logs nor keep its matches in play from replaying.
SEA_GOAT_OPTION_NAMES: tuple[str, ...] = OPTION_NAMES[: OPTION_NAMES.index("sport_deals") + 1]


def _scoring_game(game: GameName, target: int, **options: Any) -> RuleSet:
    """A scoring game's preset (RULES.md §3.4-§3.9): the spinner's cross, the first side to
    reach ``target`` wins, and no Kozel closure test (§1.9: a line rule of the Kozel family, so
    the generic fish test decides); ``options`` are the game's other DEFAULTs."""
    return RuleSet(
        game=game, spinner="first_double", target=target, fish_closure_rule=False, **options
    )


def telephone() -> RuleSet:
    """Telephone to 72 (§3.4): S/5 a move; drawing and the first lead are Kozel's (FLAG)."""
    return _scoring_game("telephone", 72, play_points="divided")


def telephone_ua() -> RuleSet:
    """The Ukrainian Telephone to 225 (§3.5): the house is the first double covered on both long
    sides, and only then opens its arms; 3-2 leads the match, full points, write-offs at the
    end."""
    return _scoring_game(
        "telephone_ua", 225, spinner_arms_open="after_both_long_sides", first_lead="three_two"
    )


def muggins() -> RuleSet:
    """Muggins / All Fives (§3.6): a lot picks the first leader, S in full a move, to 100."""
    return _scoring_game("muggins", 100, first_lead="lot_lowest")


def all_threes() -> RuleSet:
    """All Threes (§3.7): Muggins with 3 in place of 5."""
    return _scoring_game("all_threes", 100, first_lead="lot_lowest", score_multiple=3)


def bulgarian_fives() -> RuleSet:
    """The Bulgarian two-player game to 100 (§3.8): the highest tile leads every round."""
    return _scoring_game("bulgarian_fives", 100, first_lead="highest_tile")


def english_fives() -> RuleSet:
    """English fives (§3.9) to 200. Its first lead is not given; like Muggins, the lot decides
    (FLAG)."""
    return _scoring_game("english_fives", 200, first_lead="lot_lowest")


def donkey() -> RuleSet:
    """Donkey (§3.3): Kozel's deal, leads and scoring to 101 on the spinner's cross, whose arms
    open at once; up to four doubles a move, each of which may be closed. Kozel's closure test is
    a line rule (§1.9), so the generic fish test decides."""
    return RuleSet(game="donkey", spinner="first_double", multi_double=4, fish_closure_rule=False)


def sea_goat() -> RuleSet:
    """Sea Goat (§3.2): Kozel's deal, leads, drawing, line and fish, two doubles at once, to 125,
    or 202 in pairs."""
    return RuleSet(game="sea_goat", multi_double=2)


def sea_goat_pairs() -> RuleSet:
    """Sea Goat in pairs to 202 (000 §NI)."""
    return RuleSet(game="sea_goat", multi_double=2, sg_target=202)


def traditional() -> RuleSet:
    """Traditional (§3.1): the winner collects, to 100; the highest double leads every round
    (FLAG). Drawing until a tile fits; no Kozel closure test (a rule of the Kozel family, §1.9),
    the generic fish test decides."""
    return RuleSet(game="traditional", fish_closure_rule=False)


def traditional_ht() -> RuleSet:
    """The §HT reading of Traditional (``trad_preset = ht``, §3.1): the lowest double, 0-0
    included, leads, else the lowest non-double; 0-0 always 25, 6-6 always 50; to 300."""
    return traditional().with_options(
        trad_lead="lowest_incl_00",
        zero_zero_always_25=True,
        six_six_always_50=True,
        target=300,
    )


def generals_goat() -> RuleSet:
    """General's Goat (§3.10): two pairs, 1-1 leads every round, two doubles may go down
    together (the 0-0 and 6-6 of a General)."""
    return RuleSet(game="generals_goat", multi_double=2)


def sport() -> RuleSet:
    """Sport domino (§3.11): two pairs, eight deals scored as pair Kozel without the threshold."""
    return RuleSet(game="sport")


PRESETS = {
    "kozel": kozel,
    "pair_kozel_team": pair_kozel_team,
    "telephone": telephone,
    "telephone_ua": telephone_ua,
    "muggins": muggins,
    "all_threes": all_threes,
    "bulgarian_fives": bulgarian_fives,
    "english_fives": english_fives,
    "donkey": donkey,
    "sea_goat": sea_goat,
    "sea_goat_pairs": sea_goat_pairs,
    "traditional": traditional,
    "traditional_ht": traditional_ht,
    "generals_goat": generals_goat,
    "sport": sport,
}
