"""Property tests of Sea Goat (RULES.md §3.2) over seeded matches and every option.

An independent ``Referee``, fed each event's JSON, re-derives the line play (turn order, every
tile accounted for, the fit of each tile, two doubles at once, drawing and knocking, the round's
end and its fisherman), the hand values and the write-off arithmetic of a plain round, the next
leader and the match's end. Refused actions leave the match as it was, and the log replays.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Match, Play, RuleSet, Tile, replay
from engine.ai import PLAYERS
from engine.errors import IllegalAction
from engine.rules import PRESETS, SEA_GOAT_OPTION_NAMES, option_choices

from .support import EVERY_TILE, Table, checked, expected_first_lead, t
from .test_properties import QUICK_PLAYERS

SEA_OPTIONS = (
    "sg_125_meaning",
    "sg_finish",
    "sg_na_sto",
    "sg_fish",
    "sg_eggs",
    "sg_double_finish",
)
SPECIAL = {("0-0",): 25, ("6-6",): 50, ("0-0", "6-6"): 75}


def value(hand: list[str]) -> int:
    special = SPECIAL.get(tuple(sorted(hand)))
    return special if special is not None else sum(t(x).pips for x in hand)


class Referee:
    def __init__(self, players: int, pairs: bool, rules: RuleSet) -> None:
        self.players, self.pairs, self.rules = players, pairs, rules
        self.sides = 2 if pairs else players
        self.scores = [0] * self.sides
        self.sea: dict[str, Any] = {"pot": 0, "na_sto": None}
        self.next_leader: int | None = None
        self.restart = False
        self.over = False

    def side(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat

    @property
    def target(self) -> int:
        """§3.2.1 rule 5: the target the table set; else 125, or 202 for two pairs (000 §NI)."""
        if self.rules.sg_target is not None:
            return self.rules.sg_target
        return 202 if self.pairs else 125

    def fits(self, tile: str) -> bool:
        a, b = map(int, tile.split("-"))
        return not self.ends or a in self.ends or b in self.ends

    def can_play(self, seat: int) -> bool:
        return any(self.fits(x) for x in self.hands[seat])

    def blocked(self) -> bool:
        """The generic fish test (§1.9)."""
        return not self.bazaar and not any(self.can_play(s) for s in range(self.players))

    def closed(self) -> bool:
        """The closure test after a placement (§1.9): both ends v, the six non-doubles of v out."""
        v = self.ends[0]
        return self.ends[1] == v and sum(v in (x.a, x.b) and x.a != x.b for x in self.table) == 6

    def feed(self, e: dict[str, Any]) -> None:
        assert not self.over
        getattr(self, "on_" + e["type"])(e)

    def on_match_started(self, e: dict[str, Any]) -> None:
        recorded = {name: self.rules.option(name) for name in SEA_GOAT_OPTION_NAMES}
        recorded["sg_target"] = self.target  # the target played to
        assert e["game"] == "sea_goat" and e["options"] == recorded

    def on_redealt(self, e: dict[str, Any]) -> None:
        assert any(sum(x[0] == x[2] for x in h) >= 5 for h in e["hands"]) or e["reason"] == "suit"

    def on_round_started(self, e: dict[str, Any]) -> None:
        self.hands = [list(h) for h in e["hands"]]
        self.bazaar = list(e["bazaar"])
        assert {t(x) for h in self.hands for x in h} | {t(x) for x in self.bazaar} == EVERY_TILE
        assert all(len(h) == 7 for h in self.hands)
        if self.next_leader is None or self.restart:
            hands = [[t(x) for x in h] for h in self.hands]
            seat, tile = expected_first_lead(hands, self.rules)
            assert (e["leader"], e["lead_tiles"]) == (seat, [str(tile)])
        else:
            assert e["leader"] == self.next_leader and e["lead_tiles"] is None
        self.lead_tiles = e["lead_tiles"]
        self.leader = self.turn = e["leader"]
        self.ends: list[int] = []
        self.table: list[Tile] = []
        self.lead: str | None = None
        self.last_move: list[str] = []
        self.placer: int | None = None
        self.single_placer: int | None = None
        self.ended: str | None = None

    def place(self, tile: str, end: str) -> None:
        a, b = map(int, tile.split("-"))
        if not self.ends:
            assert self.lead_tiles is None or tile in self.lead_tiles
            self.ends, self.lead = [a, b], tile
        else:
            i = 0 if end == "left" else 1
            assert self.ends[i] in (a, b), (tile, end, self.ends)
            self.ends[i] = b if self.ends[i] == a else a
        self.table.append(t(tile))

    def on_played(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        assert self.ended is None and seat == self.turn
        tiles = e["tiles"] if "tiles" in e else [e["tile"]]
        ends = e["ends_used"] if "tiles" in e else [e["end"]]
        if len(tiles) > 1:
            assert self.rules.multi_double >= 2
            assert len(tiles) == 2 and self.ends and len(set(ends)) == 2
            assert all(x[0] == x[2] for x in tiles)
        for tile, end in zip(tiles, ends, strict=True):
            self.hands[seat].remove(tile)
            self.place(tile, end)
        assert e["ends"] == self.ends and "scored" not in e
        self.last_move, self.placer = tiles, seat
        if tiles[-1][0] != tiles[-1][2]:
            self.single_placer = seat
        if not self.hands[seat]:
            self.ended = "out"
        elif self.closed() or self.blocked():
            self.ended = "fish"
        else:
            self.turn = (seat + 1) % self.players

    def on_drew(self, e: dict[str, Any]) -> None:
        assert e["seat"] == self.turn and not self.can_play(e["seat"])
        assert self.bazaar and e["tile"] == self.bazaar.pop(0)
        self.hands[e["seat"]].append(e["tile"])

    def on_knocked(self, e: dict[str, Any]) -> None:
        assert e["seat"] == self.turn and not self.can_play(e["seat"]) and not self.bazaar
        if self.blocked():
            self.ended = "fish"
        else:
            self.turn = (self.turn + 1) % self.players

    def on_round_ended(self, e: dict[str, Any]) -> None:
        assert e["result"] == self.ended and e["hands"] == self.hands
        out = self.ended == "out"
        winner = self.placer if out else e["winner"]
        assert e["winner"] == winner
        fisherman = (
            None if out else (self.single_placer if self.single_placer is not None else self.placer)
        )
        assert e["fisherman"] == fisherman
        ignored = (winner + 2) % 4 if out and self.pairs and winner is not None else None
        values = [0] * self.sides
        for seat, hand in enumerate(self.hands):
            if seat != ignored:
                values[self.side(seat)] += value(hand)
        assert e["hand_values"] == values
        before = self.scores
        outcome = e.get("outcome")
        if outcome in (None, "writeoff") and winner is not None and self.sea.get("fisher") is None:
            if not out and self.rules.sg_fish == "lowest_wins":
                assert values.count(min(values)) == 1 and values[self.side(winner)] == min(values)
            w = self.side(winner)
            worth = sum(v for s, v in enumerate(values) if s != w) + self.sea["pot"]
            holder = [s for s, score in enumerate(before) if score > 0]
            if holder == [w]:
                expected = [score + worth if s == w else score for s, score in enumerate(before)]
            elif worth >= 25 and holder:
                expected = [0] * self.sides
            elif worth >= 25:
                expected = [worth if s == w else 0 for s in range(self.sides)]
            else:
                expected = list(before)
            assert e["scores"] == expected and (outcome == "writeoff") == (
                bool(holder) and holder != [w] and worth >= 25
            )
        if out and "0-0" in self.last_move:
            assert outcome == "instant_win"
        if out and len(self.last_move) == 2 and not {"0-0", "6-6"} & set(self.last_move):
            rules = self.rules
            any_two = rules.sg_finish == "auto_win" and rules.sg_double_finish == "any_two"
            assert (outcome == "two_doubles") == any_two
        if outcome in ("writeoff", "na_sto_lost", "fish_writeoff") and "match" not in e["sea"]:
            assert e["scores"] == [0] * self.sides
        assert e["amounts"] == [a - b for a, b in zip(e["scores"], before, strict=True)]
        assert sum(1 for score in e["scores"] if score > 0) <= 1
        self.scores, self.sea = e["scores"], e["sea"]
        pending = e["sea"]["na_sto"]
        self.next_leader = pending if pending is not None else (fisherman if not out else winner)
        self.restart = self.rules.sg_eggs == "ua" and e["sea"]["pot"] > 0 and pending is None

    def on_match_ended(self, e: dict[str, Any]) -> None:
        assert e["scores"] == self.scores
        if e["ended_by"] == "target":
            (held,) = (s for s, score in enumerate(self.scores) if score > 0)
            assert self.scores[held] >= self.target
            holder_won = self.rules.sg_125_meaning == "win"
            assert (held in e["winners"]) == holder_won and (held in e["losers"]) != holder_won
        else:
            assert e["ended_by"] in ("instant_win", "two_doubles", "na_sto")
            match = self.sea["match"]
            assert (e["winners"], e["losers"], e["ended_by"]) == (
                match["winners"],
                match["losers"],
                match["ended_by"],
            )
        self.over = True


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = draw(st.sampled_from((2, 3, 4)))
    pairs = players == 4 and draw(st.booleans())
    options = {name: draw(st.sampled_from(option_choices(name) or ())) for name in SEA_OPTIONS}
    options["sg_target"] = draw(st.sampled_from((None, 125, 202, 40)))
    options["multi_double"] = draw(st.sampled_from((2, 2, 0)))
    rules = PRESETS["sea_goat"]().with_options(**options)
    ai = tuple(draw(st.sampled_from(QUICK_PLAYERS)) for _ in range(players))
    return Table(players, pairs, rules, draw(st.integers(0, 2**32 - 1)), ai)


def play(table: Table, probe: bool) -> tuple[list[dict[str, Any]], list[int]]:
    """The match's log, and its length after each action (where a stored log may stop)."""
    referee = Referee(table.players, table.pairs, table.rules)
    match, events = Match.new(table.players, table.pairs, table.rules, table.seed)
    log = [json.loads(json.dumps(e.to_dict())) for e in events]
    rng, probe_rng = random.Random(table.seed), random.Random(~table.seed)
    for line in log:
        referee.feed(line)
    stops = [len(log)]
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        if probe:
            state = match.to_json()
            tile = probe_rng.choice(sorted(EVERY_TILE))
            if Play(tile) not in match.legal_actions(seat) and not any(
                isinstance(a, Play) and a.tile == tile for a in match.legal_actions(seat)
            ):
                try:
                    match.act(seat, Play(tile))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"an illegal play of {tile} was accepted")
                assert match.to_json() == state
        made = match.act(seat, PLAYERS[table.ai[seat]](match, seat, rng))
        for event in made:
            line = json.loads(json.dumps(event.to_dict()))
            log.append(line)
            referee.feed(line)
        stops.append(len(log))
    assert referee.over
    return log, stops


@checked(60)
@given(tables())
def test_every_event_follows_the_rules(table: Table) -> None:
    play(table, probe=False)


@checked(20)
@given(tables(), st.floats(0, 1))
def test_only_legal_moves_are_accepted_and_replay_and_json_rebuild_the_match(
    table: Table, cut: float
) -> None:
    log, stops = play(table, probe=True)
    whole = replay(log)
    assert whole.is_over and Match.from_json(whole.to_json()).to_json() == whole.to_json()
    part = replay(log[: stops[int((len(stops) - 1) * cut)]])
    again = Match.from_json(json.loads(json.dumps(part.to_json())))
    assert again.to_json() == part.to_json()


@pytest.mark.parametrize(("players", "pairs", "seed"), [(3, False, 32), (4, True, 17)])
def test_a_match_won_on_two_doubles_at_once_follows_the_rules(
    players: int, pairs: bool, seed: int
) -> None:
    """Seeds where greedy goes out on two doubles other than 0-0 and 6-6 (rare at random)."""
    rules = PRESETS["sea_goat"]().with_options(sg_double_finish="any_two")
    log, _ = play(Table(players, pairs, rules, seed, ("greedy",) * players), probe=False)
    assert log[-1]["ended_by"] == "two_doubles"
