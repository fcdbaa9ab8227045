"""Property tests of the scoring games (RULES.md §3.4-§3.9) over many seeded matches and options.

Every match is played by the engine's computer players and followed, event by event, by the
``Referee`` below, which re-derives from the events' JSON alone (and its own arithmetic, not
``scoring/fives.py``): the tiles, whose turn it is, that every move fits, that a block is declared
exactly when nobody can move or draw, each move's points against the open-end sum, every round's
amounts, the next leader and when and how the match ends. Replay and JSON must rebuild the match.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import DRAW, KNOCK, Action, Lay, Match, Play, RuleSet, Tile, errors
from engine.cross import Cross
from engine.games import GAMES
from engine.games.target import TargetGame
from engine.rules import PRESETS, SCORING_OPTION_NAMES

from .support import (
    EVERY_TILE,
    Refereed,
    Table,
    check_rebuilt,
    checked,
    play_refereed,
    t,
)

#: The games that score during play; Traditional, a win-at-target game that does not, has its
#: own referee (``test_yard_properties.py``).
SCORING_GAMES = tuple(
    name for name, game in GAMES.items() if isinstance(game, TargetGame) and name != "traditional"
)
QUICK_PLAYERS = ("random", "greedy", "easy")
#: Games that end the match the moment a side reaches the target (§3.4, §3.6-§3.9).
IMMEDIATE = frozenset(SCORING_GAMES) - {"telephone_ua"}


DOUBLES_HIGH_FIRST = [Tile.of(v, v) for v in range(6, -1, -1)]
NON_DOUBLES_HIGH_FIRST = sorted(
    (x for x in EVERY_TILE if x.a != x.b), key=lambda x: (x.a + x.b, max(x.a, x.b)), reverse=True
)
HIGHEST_FIRST = DOUBLES_HIGH_FIRST + NON_DOUBLES_HIGH_FIRST  # §1.2
KOZEL_CHAIN = [Tile.of(v, v) for v in (1, 2, 3, 4, 5, 6, 0)] + NON_DOUBLES_HIGH_FIRST  # §2.3


def pips(hand: list[Tile]) -> int:
    return sum(x.a + x.b for x in hand)


def nearest(value: int, unit: int) -> int:
    """The multiple of ``unit`` nearest to ``value`` (round5 / round3)."""
    below = value - value % unit
    return below + unit if value - below > unit / 2 else below


@dataclass
class Referee:
    """An independent model of the scoring games, fed the events' JSON."""

    players: int
    pairs: bool
    rules: RuleSet
    seed: int
    sides: int = 0
    scores: list[int] = field(default_factory=list)
    hands: list[list[Tile]] = field(default_factory=list)
    bazaar: list[Tile] = field(default_factory=list)
    table: list[Tile] = field(default_factory=list)
    ends: dict[str, int] = field(default_factory=dict)
    turn: int = -1
    last_placer: int | None = None
    expect: str | None = None  # what must come next: round_ended (and how), match_ended, ...
    next_leader: int | None = None
    over: bool = False
    rounds: int = 0
    seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sides = 2 if self.pairs else self.players
        self.scores = [0] * self.sides

    def side(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    # -- the events --

    def feed(self, e: dict[str, Any]) -> None:
        assert not self.over, e
        kind = e["type"]
        if self.expect is not None:
            assert kind == self.expect.split(":")[0], (self.expect, e)
        getattr(self, "on_" + kind)(e)

    def on_match_started(self, e: dict[str, Any]) -> None:
        assert e["game"] == self.rules.game
        assert e["options"] == {name: self.rules.option(name) for name in SCORING_OPTION_NAMES}
        self.expect = "round_started"

    def on_round_started(self, e: dict[str, Any]) -> None:
        self.rounds += 1
        self.hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        self.bazaar = [Tile.parse(x) for x in e["bazaar"]]
        self.table, self.ends = [], {}
        dealt = [x for h in self.hands for x in h] + self.bazaar
        assert len(dealt) == 28 and set(dealt) == EVERY_TILE
        leader, lead = self.leader_of(e)
        assert e["leader"] == leader and e["lead_tiles"] == lead, (e, leader, lead)
        self.turn = leader
        self.expect = None

    def leader_of(self, e: dict[str, Any]) -> tuple[int, list[str] | None]:
        """The Bulgarian highest tile every round (§3.8); first the Ukrainian 3-2 (§3.5) and
        Telephone's Kozel chain (§3.4, §2.3), or the lot (random: test_scoring_examples.py);
        later the last round's winner, any tile."""
        game, first = self.rules.game, self.next_leader is None
        holder = {x: s for s, h in enumerate(self.hands) for x in h}
        if game == "bulgarian_fives":
            order = HIGHEST_FIRST
        elif first and game == "telephone_ua" and t("2-3") in holder:
            order = [t("2-3")]
        elif first and game in ("telephone", "telephone_ua"):
            order = KOZEL_CHAIN
        elif first:
            return e["leader"], None
        else:
            assert self.next_leader is not None
            return self.next_leader, None
        tile = next(x for x in order if x in holder)
        return holder[tile], [str(tile)]

    def on_played(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        assert seat == self.turn
        if "tiles" in e:  # several doubles in one move, each on its own end (§1.6)
            tiles = [Tile.parse(x) for x in e["tiles"]]
            assert 2 <= len(tiles) <= self.rules.multi_double and len(e["ends_used"]) == len(tiles)
            assert len(set(e["ends_used"])) == len(tiles) and all(x.a == x.b for x in tiles)
            self.count("several doubles")
        else:
            tiles = [Tile.parse(e["tile"])]
        for tile in tiles:
            assert tile in self.hands[seat]
            if self.table and "tiles" not in e:
                assert set(self.ends.values()) & {tile.a, tile.b}, (e, self.ends)
            self.hands[seat].remove(tile)
            self.table.append(tile)
        self.ends = e["ends"]
        assert isinstance(self.ends, dict) and set(self.ends) <= {"left", "right", "up", "down"}
        self.last_placer = seat
        if e.get("lengthwise"):
            assert self.rules.game == "english_fives" and tiles[0].a == tiles[0].b
            self.count("lengthwise")
        scored = e["scored"]
        assert scored >= 0
        if scored:
            self.count("scored")
            if self.rules.play_points == "full":
                assert scored % self.rules.score_multiple == 0
            self.scores[self.side(seat)] += scored
            assert e["scores"] == self.scores
        else:
            assert "scores" not in e
        if scored and self.rules.game in IMMEDIATE and max(self.scores) >= self.rules.target:
            self.expect = "match_ended:target"
            return
        if not self.hands[seat]:
            self.expect = "round_ended:out"
        elif self.stuck():
            self.expect = "round_ended:fish"
        else:
            self.turn = (seat + 1) % self.players

    def stuck(self) -> bool:
        values = set(self.ends.values())
        return not self.bazaar and not any(
            x.a in values or x.b in values for h in self.hands for x in h
        )

    def on_drew(self, e: dict[str, Any]) -> None:
        seat, tile = e["seat"], Tile.parse(e["tile"])
        values = set(self.ends.values())
        assert seat == self.turn and not any(
            x.a in values or x.b in values for x in self.hands[seat]
        )
        assert tile == self.bazaar[0]
        self.bazaar.remove(tile)
        self.hands[seat].append(tile)
        self.count("drew")

    def on_knocked(self, e: dict[str, Any]) -> None:
        values = set(self.ends.values())
        assert e["seat"] == self.turn and not self.bazaar
        assert not any(x.a in values or x.b in values for x in self.hands[self.turn])
        self.count("knocked")
        if self.stuck():
            self.expect = "round_ended:fish"
        else:
            self.turn = (self.turn + 1) % self.players

    def on_round_ended(self, e: dict[str, Any]) -> None:
        assert self.expect is not None
        result = self.expect.split(":")[1]
        assert e["result"] == result, (e, self.expect)
        self.count(result)
        assert [[Tile.parse(x) for x in h] for h in e["hands"]] == self.hands
        values = [pips(h) for h in self.hands]
        side_values = [0] * self.sides
        for seat, v in enumerate(values):
            side_values[self.side(seat)] += v
        assert e["hand_values"] == side_values
        winner, amounts = self.settle(result, values)
        assert (e["winner"], e["amounts"]) == (winner, amounts), (e, winner, amounts)
        assert e["fisherman"] == (self.last_placer if result == "fish" else None)
        assert not {"memory", "opened", "pot", "eggs", "pot_awarded_to"} & set(e)
        self.scores = [s + a for s, a in zip(self.scores, amounts, strict=True)]
        assert e["scores"] == self.scores
        lead = winner if winner is not None else self.last_placer
        if self.rules.game == "telephone" and result == "fish":
            lead = self.last_placer
        self.next_leader = lead
        self.expect = "match_ended" if max(self.scores) >= self.rules.target else "round_started"

    def settle(self, result: str, values: list[int]) -> tuple[int | None, list[int]]:
        game, rules = self.rules.game, self.rules
        amounts = [0] * self.sides
        low = min(values)
        lowest = [s for s, v in enumerate(values) if v == low]
        # a tie between partners is none between sides: theirs wins, the blocker standing for it
        by_one_side = len({self.side(s) for s in lowest}) == 1
        stands = self.last_placer if self.last_placer in lowest else lowest[0]
        winner = self.last_placer if result == "out" else (stands if by_one_side else None)
        if game == "telephone_ua":
            held = [0] * self.sides
            for seat, v in enumerate(values):
                held[self.side(seat)] += v
            amounts = [max(0, s - (h - h % 5)) - s for s, h in zip(self.scores, held, strict=True)]
            return (self.last_placer if result == "out" else None), amounts
        if game == "bulgarian_fives" and result == "fish":
            first = values if rules.bg_block_winner == "lowest_pips" else [-s for s in self.scores]
            winner = min(
                range(2), key=lambda s: (first[s], len(self.hands[s]), s != self.last_placer)
            )
        if winner is None:
            return None, amounts
        mine = self.side(winner)
        others = sum(v for s, v in enumerate(values) if self.side(s) != mine)
        own = values[winner]
        if game == "telephone":
            bonus = -(-others // 5)
        elif game == "english_fives":
            bonus = 10 if result == "out" else nearest(others - own, 5)
        elif game == "bulgarian_fives":
            bonus = others - others % 5 - (own if result == "fish" else 0)
        else:
            unit = rules.score_multiple if rules.threes_bonus == "threes" else 5
            if rules.muggins_bonus == "full":
                bonus = nearest(others, unit)
            else:
                bonus = nearest(others - own if result == "fish" else others, unit) // unit
        amounts[mine] = bonus
        return winner, amounts

    def on_match_ended(self, e: dict[str, Any]) -> None:
        assert self.expect is not None and self.expect.startswith("match_ended")
        reached = [s for s, x in enumerate(self.scores) if x >= self.rules.target]
        assert e["scores"] == self.scores
        if len(reached) > 1:
            assert self.rules.game == "telephone_ua"
            assert (e["ended_by"], e["winners"], e["losers"]) == ("draw", [], [])
            self.count("draw")
        else:
            others = [s for s in range(self.sides) if s not in reached]
            assert (e["ended_by"], e["winners"], e["losers"]) == ("target", reached, others)
        if self.expect == "match_ended:target":
            self.count("ended mid-round")
        self.over = True


@st.composite
def tables(draw: st.DrawFn, games: tuple[str, ...] = SCORING_GAMES) -> Table:
    name = draw(st.sampled_from(games))
    game = GAMES[name]
    assert isinstance(game, TargetGame)
    players = draw(st.sampled_from(game.table_sizes))
    pairs = players == 4 and (game.pairs_only or (game.pairs_allowed and draw(st.booleans())))
    options: dict[str, Any] = {
        "muggins_bonus": draw(st.sampled_from(("divided", "full"))),
        "threes_bonus": draw(st.sampled_from(("threes", "fives"))),
        "bg_block_winner": draw(st.sampled_from(("lowest_pips", "literal_most_points"))),
        "multi_double": draw(st.sampled_from((0, 4, 2, 3))),
    }
    preset = PRESETS[name]()
    # Short matches too, but Muggins' targets are 100, 250, 500, and the Ukrainian write-offs
    # would eat divided points as fast as they come.
    slow = False
    if name not in ("muggins", "telephone_ua"):
        options["play_points"] = draw(st.sampled_from(("full", "divided")))
        slow = options["play_points"] != preset.play_points  # five times fewer points a move
    if name != "muggins":
        options["target"] = draw(st.sampled_from((30, 60) if slow else (preset.target, 30, 60)))
    rules = preset.with_options(**options)
    ai = tuple(draw(st.lists(st.sampled_from(QUICK_PLAYERS), min_size=players, max_size=players)))
    return Table(players, pairs, rules, draw(st.integers(0, 2**32 - 1)), ai)


def run(table: Table, probe: int = 0) -> Refereed[Referee]:
    """Play the match, every event (after a JSON round trip) fed to the referee; ``probe``
    illegal actions are tried before each move and must be refused without a change, and a
    move scores what the rules say."""
    referee = Referee(table.players, table.pairs, table.rules, table.seed)
    probes = random.Random(~table.seed)

    def check(match: Match, seat: int, action: Action) -> Callable[[list[dict[str, Any]]], None]:
        legal = match.legal_actions(seat)
        check_legal(referee, seat, legal)
        if probe:
            try_illegal(match, seat, legal, probes, probe)
        expected = expected_points(match, action)

        def scored(logged: list[dict[str, Any]]) -> None:
            played = [e for e in logged if e["type"] == "played"]
            if played:  # a move is one ``played``, several doubles included
                assert len(played) == 1 and played[0]["scored"] == expected

        return scored

    return play_refereed(table, referee, check)


def check_legal(referee: Referee, seat: int, legal: list[Action]) -> None:
    hand = referee.hands[seat]
    values = set(referee.ends.values())
    fitting = {x for x in hand if not referee.table or x.a in values or x.b in values}
    plays = {a.tile for a in legal if isinstance(a, Play)}
    if not referee.table:  # the lead: any tile, or the tiles the round names
        assert plays and plays <= set(hand)
        return
    assert plays == fitting
    if not fitting:
        assert legal == ([DRAW] if referee.bazaar else [KNOCK])


def try_illegal(
    match: Match, seat: int, legal: list[Action], rng: random.Random, tries: int
) -> None:
    before = match.to_json()
    others = [s for s in range(match.players) if s != seat]
    candidates: list[tuple[int, Action]] = [(s, a) for s in others for a in legal]
    candidates += [(seat, a) for a in (DRAW, KNOCK) if a not in legal]
    candidates += [(seat, Play(x)) for x in EVERY_TILE if Play(x) not in legal]
    candidates = [c for c in candidates if not (c[0] == seat and c[1] in legal)]
    for who, action in rng.sample(candidates, min(tries, len(candidates))):
        if (
            isinstance(action, Play)
            and who == seat
            and any(isinstance(a, Play) and a.tile == action.tile for a in legal)
        ):
            continue  # a legal tile whose end must be named: refused too, but not a new move
        with pytest.raises(errors.IllegalAction):
            match.act(who, action)
    assert match.to_json() == before


def expected_points(match: Match, action: Action) -> int | None:
    """The points ``action`` earns by the rules: the open-end sum S after it (after all its
    tiles), when S is a positive multiple of ``score_multiple``, in full or divided by it (§1.8,
    §3.4). A double laid lengthwise counts once at its end (§3.9)."""
    rnd = match.round
    assert rnd is not None
    after = copy.deepcopy(rnd.layout)
    assert isinstance(after, Cross)
    if isinstance(action, Play):
        after.place(action.tile, rnd.end_for(action))
    elif isinstance(action, Lay):
        for placement in action.placements:
            assert placement.end is not None and placement.tile.is_double
            after.place(placement.tile, placement.end, placement.lengthwise)
    else:
        return None
    total, rules = after.end_sum(), match.rules
    if total <= 0 or total % rules.score_multiple:
        return 0
    return total if rules.play_points == "full" else total // rules.score_multiple


@checked(40)
@given(tables())
def test_every_event_follows_the_rules_of_its_game(table: Table) -> None:
    # Tiles accounted for, legal moves only, blocks exactly when nobody can move, points only from
    # the rules, every round ends, and the match ends when and how the game says.
    result = run(table)
    assert result.match.winners == result.log[-1]["winners"]


@checked(25)
@given(tables())
def test_only_legal_actions_are_accepted(table: Table) -> None:
    run(table, probe=3)


@checked(25)
@given(tables(), st.floats(0, 1))
def test_replay_and_json_reproduce_the_match(table: Table, cut: float) -> None:
    result = run(table)
    check_rebuilt(table, result, cut)


def test_the_matches_reach_every_kind_of_end() -> None:
    """The random matches do reach the interesting cases (a guard against vacuous tests)."""
    seen: dict[str, int] = {}
    rng = random.Random(11)
    for seed in range(48):
        name = SCORING_GAMES[seed % len(SCORING_GAMES)]
        game = GAMES[name]
        assert isinstance(game, TargetGame)
        players = rng.choice(game.table_sizes)
        pairs = players == 4 and (game.pairs_only or (game.pairs_allowed and rng.random() < 0.5))
        rules = PRESETS[name]()
        if name.startswith("telephone"):  # their variant: up to four doubles at once
            rules = rules.with_options(multi_double=4)
        result = run(Table(players, pairs, rules, seed, ("random",) * players))
        for kind, n in result.referee.seen.items():
            seen[kind] = seen.get(kind, 0) + n
    for kind in (
        "out",
        "fish",
        "scored",
        "drew",
        "knocked",
        "ended mid-round",
        "lengthwise",
        "several doubles",
    ):
        assert seen.get(kind, 0) > 0, (kind, seen)
