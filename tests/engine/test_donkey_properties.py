"""Property tests of Donkey (RULES.md §3.3) over many seeded matches and options.

Every match is played by the engine's computer players and followed, event by event, by the
``Referee`` below, which keeps its own model of the open ends (names and values, the spinner, the
closed doubles and who closed them) from the events' JSON alone, never ``cross.py``: every move
must fit the ends it names, closing only doubles and never the lead, a reopening only by the
closer before he draws; the round must end exactly when no open end is left or nobody can go on,
and it is scored by the independent Kozel model of ``support.py``. Replay and JSON must rebuild
the match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import DRAW, KNOCK, Action, Lay, Match, Play, Reopen, RuleSet, Tile, replay
from engine.cli import main
from engine.games.donkey import DONKEY_OPTION_NAMES
from engine.rules import PRESETS

from .support import (
    EVERY_TILE,
    KOZEL_OPTIONS,
    Refereed,
    Table,
    check_rebuilt,
    check_round_scoring,
    checked,
    expected_first_lead,
    play_refereed,
)

QUICK_PLAYERS = ("random", "greedy", "easy")
END_ORDER = ("left", "right", "up", "down")


def in_order(ends: dict[str, int]) -> dict[str, int]:
    """The open ends as the events list them: left, right, up, down."""
    return {name: ends[name] for name in END_ORDER if name in ends}


@dataclass
class Referee:
    players: int
    pairs: bool
    rules: RuleSet
    sides: int = 0
    scores: list[int] = field(default_factory=list)
    memory: list[int] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    pot: int = 0
    hands: list[list[Tile]] = field(default_factory=list)
    bazaar: list[Tile] = field(default_factory=list)
    ends: dict[str, int] = field(default_factory=dict)
    led: bool = False
    spinner: bool = False
    closed: dict[Tile, tuple[int, str]] = field(default_factory=dict)  # tile: (closer, end)
    turn: int = -1
    drew: bool = False
    lead: Tile | None = None
    last: Tile | None = None
    last_placer: int | None = None
    expect: str | None = None
    next_leader: int | None = None
    goats: list[int] = field(default_factory=list)
    over: bool = False
    seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sides = 2 if self.pairs else self.players
        self.scores, self.memory = [0] * self.sides, [0] * self.sides
        self.opened = [False] * self.sides

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def fits(self, tile: Tile) -> bool:
        return not self.led or any(v in (tile.a, tile.b) for v in self.ends.values())

    def stuck(self) -> bool:
        """No open end left, or (nothing drawable) nobody can place a tile (§1.9)."""
        if not self.ends:
            return True
        return not self.bazaar and not any(self.fits(x) for h in self.hands for x in h)

    def feed(self, e: dict[str, Any]) -> None:
        assert not self.over, e
        if self.expect is not None and e["type"] != "redealt":  # a deal may be thrown in
            assert e["type"] == self.expect.split(":")[0], (self.expect, e)
        getattr(self, "on_" + e["type"])(e)

    def on_match_started(self, e: dict[str, Any]) -> None:
        assert e["game"] == "donkey" and RuleSet.from_dict(e["options"]) == self.rules
        self.expect = None

    def on_redealt(self, e: dict[str, Any]) -> None:
        self.count("redealt")

    def on_round_started(self, e: dict[str, Any]) -> None:
        self.hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        self.bazaar = [Tile.parse(x) for x in e["bazaar"]]
        dealt = [x for h in self.hands for x in h] + self.bazaar
        assert len(dealt) == 28 and set(dealt) == EVERY_TILE
        assert all(len(h) == 7 for h in self.hands)
        if self.next_leader is None:
            seat, tile = expected_first_lead(self.hands, self.rules)
            assert (e["leader"], e["lead_tiles"]) == (seat, [str(tile)]), e
        else:
            assert (e["leader"], e["lead_tiles"]) == (self.next_leader, None), e
        self.turn, self.drew = e["leader"], False
        self.ends, self.led, self.spinner, self.closed = {}, False, False, {}
        self.lead = self.last = self.last_placer = None
        self.expect = None

    def on_played(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        assert seat == self.turn, e
        several = "tiles" in e
        tiles = [Tile.parse(x) for x in e["tiles"]] if several else [Tile.parse(e["tile"])]
        ends = e["ends_used"] if several else [e["end"]]
        flags = e["closed"] if several else [e["closed"]]
        assert len(tiles) == len(ends) == len(flags) and len(set(ends)) == len(ends)
        if several:
            assert 2 <= len(tiles) <= self.rules.multi_double and self.led, e
            assert all(x.a == x.b for x in tiles), e
            self.count("several")
        for tile, end, closed in zip(tiles, ends, flags, strict=True):
            assert tile in self.hands[seat], e
            self.hands[seat].remove(tile)
            self.place(seat, tile, end, closed)
        assert list(e["ends"].items()) == list(self.ends.items()), (e, self.ends)  # in order
        self.last, self.last_placer, self.drew = tiles[-1], seat, False
        if not self.hands[seat]:
            self.expect = "round_ended:out"
        elif self.stuck():
            self.expect = "round_ended:fish"
            if not self.ends:
                self.count("no open end")
        else:
            self.turn = (seat + 1) % self.players

    def place(self, seat: int, tile: Tile, end: str, closed: bool) -> None:
        """The model of §1.7 and §3.3: what each open end shows once ``tile`` goes on ``end``."""
        double = tile.a == tile.b
        if not self.led:
            assert not closed, "the lead cannot be closed"
            self.led, self.lead = True, tile
            self.ends = {"left": tile.a, "right": tile.b}
            if double:
                self.spinner = True
                self.ends.update(up=tile.a, down=tile.a)
            return
        value = self.ends[end]
        assert value in (tile.a, tile.b), (tile, end, self.ends)
        if closed:
            assert double, "only a double closes"
            del self.ends[end]
            self.closed[tile] = (seat, end)
            self.count("closed")
        elif double and not self.spinner:  # the first double left open: arms open at once
            self.spinner = True
            self.ends.update(up=value, down=value)
        else:
            self.ends[end] = tile.b if tile.a == value else tile.a
        self.ends = in_order(self.ends)

    def on_reopened(self, e: dict[str, Any]) -> None:
        seat, tile = e["seat"], Tile.parse(e["tile"])
        assert self.rules.donkey_reopen and seat == self.turn and not self.drew, e
        closer, end = self.closed.pop(tile)
        assert closer == seat, e
        self.ends[end] = tile.a
        self.ends = in_order(self.ends)
        self.count("reopened")

    def on_drew(self, e: dict[str, Any]) -> None:
        seat, tile = e["seat"], Tile.parse(e["tile"])
        assert seat == self.turn and not any(self.fits(x) for x in self.hands[seat])
        assert tile == self.bazaar.pop(0)
        self.hands[seat].append(tile)
        self.drew = True

    def on_knocked(self, e: dict[str, Any]) -> None:
        assert e["seat"] == self.turn and not self.bazaar
        assert not any(self.fits(x) for x in self.hands[self.turn])
        if self.stuck():
            self.expect = "round_ended:fish"
        else:
            self.turn, self.drew = (self.turn + 1) % self.players, False

    def on_round_ended(self, e: dict[str, Any]) -> None:
        assert self.expect is not None and self.last_placer is not None
        result = self.expect.split(":")[1]
        assert e["result"] == result, e
        self.count(result)
        assert (e["winner"], e["fisherman"]) == (
            (self.last_placer, None) if result == "out" else (None, self.last_placer)
        )
        check_round_scoring(self, e, result, self.last_placer if result == "out" else None)
        self.next_leader = self.last_placer
        self.expect = "match_ended" if self.goats else "round_started"

    def on_match_ended(self, e: dict[str, Any]) -> None:
        assert (e["losers"], e["scores"], e["ended_by"]) == (self.goats, self.scores, "goat")
        self.over = True

    def check_legal(self, seat: int, legal: list[Action]) -> None:
        """The tiles offered are exactly those that fit; closing only doubles, after the lead;
        reopening only the seat's own closed doubles, before it draws."""
        hand = self.hands[seat]
        placed = {a.tile for a in legal if isinstance(a, Play)}
        placed |= {p.tile for a in legal if isinstance(a, Lay) for p in a.placements}
        assert placed == {x for x in hand if self.fits(x)} or (not self.led and placed <= set(hand))
        for action in legal:
            if isinstance(action, Lay):
                assert self.led and all(p.tile.a == p.tile.b for p in action.placements)
        reopen = {a.tile for a in legal if isinstance(a, Reopen)}
        mine = {x for x, (closer, _) in self.closed.items() if closer == seat}
        assert reopen == (mine if self.rules.donkey_reopen and not self.drew else set())
        if not placed:
            assert DRAW in legal if self.bazaar else KNOCK in legal


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = draw(st.sampled_from((4, 3, 2)))
    pairs = players == 4 and draw(st.booleans())
    rules = PRESETS["donkey"]().with_options(
        multi_double=draw(st.sampled_from((4, 0, 2, 3))),
        donkey_reopen=draw(st.booleans()),
        fish_mode=draw(st.sampled_from(("for_one", "for_everyone", "lowest_wins"))),
        eggs=draw(st.sampled_from(("pot_to_max_next", "pot_to_next_winner"))),
        memory=draw(st.sampled_from(("remember", "discard"))),
        goat_limit=draw(st.sampled_from((101, 40, 13))),
    )
    ai = tuple(draw(st.lists(st.sampled_from(QUICK_PLAYERS), min_size=players, max_size=players)))
    return Table(players, pairs, rules, draw(st.integers(0, 2**32 - 1)), ai)


def run(table: Table) -> Refereed[Referee]:
    """Play the match, every event (after a JSON round trip) fed to the referee, which checks
    the legal moves before each."""
    referee = Referee(table.players, table.pairs, table.rules)

    def check(match: Match, seat: int, action: Action) -> None:
        referee.check_legal(seat, match.legal_actions(seat))

    return play_refereed(table, referee, check, most_actions=20_000)


@checked(40)
@given(tables())
def test_every_event_follows_the_rules_of_donkey(table: Table) -> None:
    run(table)


@checked(20)
@given(tables(), st.floats(0, 1))
def test_replay_and_json_reproduce_the_match(table: Table, cut: float) -> None:
    result = run(table)
    check_rebuilt(table, result, cut)


def test_the_matches_reach_every_kind_of_end() -> None:
    """The random matches do close, reopen, lay several doubles and end with no open end (a
    guard against vacuous tests)."""
    seen: dict[str, int] = {}
    rules = PRESETS["donkey"]().with_options(donkey_reopen=True)
    for seed in range(12):
        players = 2 + seed % 3
        result = run(Table(players, False, rules, seed, ("random",) * players))
        for kind, n in result.referee.seen.items():
            seen[kind] = seen.get(kind, 0) + n
    for kind in ("out", "fish", "closed", "reopened", "several", "no open end"):
        assert seen.get(kind, 0) > 0, (kind, seen)


def test_the_selfplay_transcript() -> None:
    """``python -m engine selfplay --game donkey``: the README's format, the same bytes for the
    same seed, followed by the referee to the end, and a log that replays."""
    argv = ["selfplay", "--game", "donkey", "--players", "3", "--seed", "4", "--ai", "greedy"]
    out, again = StringIO(), StringIO()
    assert main([*argv, "--set", "donkey_reopen=true"], out=out) == 0
    assert main([*argv, "--set", "donkey_reopen=true"], out=again) == 0
    assert out.getvalue() == again.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    first = lines[0]
    assert list(first["options"]) == [*KOZEL_OPTIONS, *DONKEY_OPTION_NAMES]
    rules = RuleSet.from_dict(first["options"])
    assert rules == PRESETS["donkey"]().with_options(donkey_reopen=True)
    referee = Referee(3, False, rules)
    for line in lines:
        referee.feed(line)
    assert referee.over and referee.seen.get("closed", 0) > 0
    assert all(isinstance(e["closed"], bool | list) for e in lines if e["type"] == "played")
    assert replay(lines).is_over
