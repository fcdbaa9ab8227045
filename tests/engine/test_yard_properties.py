"""Property tests of Traditional, General's Goat and Sport domino (RULES.md §3.1, §3.10, §3.11)
over many seeded matches and options.

Every match is played by the engine's computer players and followed, event by event, by the
``YardReferee`` below, which re-derives from the events' JSON alone (with ``support.py``'s
independent Kozel arithmetic for Sport, never the engine's rules code): the deal, who leads and
with what, whose turn it is (the same player again after a double with
``extra_turn_after_double``), that every move fits and is one the engine offered, that a round
ends exactly when a hand empties or nobody can move or draw, every round's numbers, General's
Goat's loser and Generals, and when and how the match ends. Replay and JSON must rebuild it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import DRAW, KNOCK, Action, Lay, Match, Play, RuleSet, Tile, errors
from engine.rules import PRESETS, SCORING_OPTION_NAMES

from .support import (
    EVERY_TILE,
    NON_DOUBLES_HIGH_FIRST,
    Refereed,
    Table,
    _fish_amounts,
    _pot_receiver,
    check_rebuilt,
    checked,
    play_refereed,
    t,
    value,
)

YARD_GAMES = ("traditional", "generals_goat", "sport")
QUICK_PLAYERS = ("random", "greedy", "easy")
OWN_OPTIONS = {
    "traditional": (
        "trad_lead",
        "trad_fish",
        "00_always_25",
        "66_always_50",
        "extra_turn_after_double",
    ),
    "generals_goat": ("general_title", "gg_losses"),
    "sport": ("sport_deals",),
}

DOUBLES_UP = [Tile.of(v, v) for v in range(7)]
NON_DOUBLES_UP = list(reversed(NON_DOUBLES_HIGH_FIRST))
#: §3.1's leads: the order the dealt hands are searched in (``lot_heaviest`` draws lots).
TRADITIONAL_ORDERS = {
    "highest_double": [*reversed(DOUBLES_UP), *NON_DOUBLES_HIGH_FIRST],
    "zero_first": [DOUBLES_UP[0], *reversed(DOUBLES_UP[1:]), *NON_DOUBLES_HIGH_FIRST],
    "lowest_double_no_00": [*DOUBLES_UP[1:], *NON_DOUBLES_UP],
    "lowest_incl_00": [*DOUBLES_UP, *NON_DOUBLES_UP],
}


def traditional_value(hand: list[Tile], rules: RuleSet) -> int:
    """§3.1 / §1.10: a lone 0-0 is 25, 0-0 beside other tiles 0; the 'always' options."""
    total = 0
    for x in hand:
        if x == t("0-0") and (len(hand) == 1 or rules.option("00_always_25")):
            total += 25
        elif x == t("6-6") and rules.option("66_always_50"):
            total += 50
        else:
            total += x.a + x.b
    return total


@dataclass
class YardReferee:
    players: int
    pairs: bool
    rules: RuleSet
    game: str = ""
    sides: int = 0
    scores: list[int] = field(default_factory=list)
    pot: int = 0
    round_no: int = 0
    hands: list[list[Tile]] = field(default_factory=list)
    bazaar: list[Tile] = field(default_factory=list)
    table: set[Tile] = field(default_factory=set)
    ends: tuple[int, int] | None = None
    turn: int = -1
    last_placer: int | None = None
    last_move: list[Tile] = field(default_factory=list)
    lead: Tile | None = None
    lead_tiles: list[Tile] | None = None
    pending: str | None = None  # "out" or "fish" once the round must end
    next_leader: int | None = None
    ended: dict[str, Any] | None = None  # what the match_ended must say
    over: bool = False
    seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.game = self.rules.game
        self.sides = 2 if self.pairs else self.players
        self.scores = [0] * self.sides

    def side(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    # -- questions --

    def fits(self, tile: Tile) -> list[str]:
        assert self.ends is not None
        return [e for e, v in zip(("left", "right"), self.ends, strict=True) if v in tile]

    def can_play(self, seat: int) -> bool:
        return self.ends is None or any(self.fits(x) for x in self.hands[seat])

    def stuck(self) -> bool:
        return not self.bazaar and not any(self.can_play(s) for s in range(self.players))

    def closed(self) -> bool:
        """Kozel's closure test (§1.9), which the Kozel-family line games keep."""
        assert self.ends is not None
        left, right = self.ends
        down = sum(1 for x in self.table if x.a != x.b and left in x)
        return self.rules.fish_closure_rule and left == right and down == 6

    def legal(self, seat: int) -> set[Any]:
        """The legal moves, plays as the engine names them, several doubles as a set."""
        hand = self.hands[seat]
        if self.ends is None:
            return {Play(x) for x in hand if self.lead_tiles is None or x in self.lead_tiles}
        moves: set[Any] = set()
        for x in hand:
            where = self.fits(x)
            if len(where) == 2 and self.ends[0] != self.ends[1]:
                moves |= {Play(x, "left"), Play(x, "right")}
            elif where:
                moves.add(Play(x))
        if moves and self.rules.multi_double >= 2:
            left, right = self.ends
            for a in hand:
                for b in hand:
                    if a != b and a == Tile.of(left, left) and b == Tile.of(right, right):
                        moves.add(frozenset({(a, "left"), (b, "right")}))
        if moves:
            return moves
        return {DRAW} if self.bazaar else {KNOCK}

    # -- the events --

    def feed(self, e: dict[str, Any]) -> None:
        assert not self.over, e
        getattr(self, "on_" + e["type"])(e)

    def on_match_started(self, e: dict[str, Any]) -> None:
        names = (*SCORING_OPTION_NAMES, *OWN_OPTIONS[self.game])
        assert e["options"] == {name: self.rules.option(name) for name in names}

    def on_redealt(self, e: dict[str, Any]) -> None:
        assert self.game == "sport", e  # Kozel's redeal, which Sport keeps (§2.2)
        hand = [Tile.parse(x) for x in e["hands"][e["seat"]]]
        doubles = sum(x.a == x.b for x in hand)
        suits = max(sum(v in x for x in hand) for v in range(7))
        assert doubles >= 5 or (suits >= 6 and self.rules.redeal_rule == "doubles_or_suit"), e
        self.count("redealt")

    def on_round_started(self, e: dict[str, Any]) -> None:
        assert self.ended is None and self.pending is None
        assert e["round"] == self.round_no + 1
        self.round_no = e["round"]
        self.hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        self.bazaar = [Tile.parse(x) for x in e["bazaar"]]
        size = 7 if self.game != "traditional" or self.players == 2 else 5
        assert [len(h) for h in self.hands] == [size] * self.players
        dealt = [x for h in self.hands for x in h] + self.bazaar
        assert len(dealt) == 28 and set(dealt) == EVERY_TILE
        leader, lead_tiles = self.leader_of(e)
        assert (e["leader"], e["lead_tiles"]) == (leader, lead_tiles), (e, leader, lead_tiles)
        self.lead_tiles = None if lead_tiles is None else [Tile.parse(x) for x in lead_tiles]
        self.turn, self.table, self.ends = leader, set(), None
        self.last_placer, self.last_move, self.lead = None, [], None

    def leader_of(self, e: dict[str, Any]) -> tuple[int, list[str] | None]:
        holder = {x: s for s, h in enumerate(self.hands) for x in h}
        if self.game == "sport":  # deal k: seat (k - 1) mod 4, any tile
            return (self.round_no - 1) % 4, None
        if self.game == "generals_goat":  # 1-1, every round
            return holder[t("1-1")], ["1-1"]
        lead = self.rules.trad_lead
        if lead == "lot_heaviest":  # the lot (random) seats the first; later the last winner
            return (e["leader"] if self.next_leader is None else self.next_leader), None
        tile = next(x for x in TRADITIONAL_ORDERS[lead] if x in holder)
        return holder[tile], [str(tile)]

    def on_played(self, e: dict[str, Any]) -> None:
        assert self.pending is None, e
        seat = e["seat"]
        assert seat == self.turn, e
        if "tiles" in e:
            tiles = [Tile.parse(x) for x in e["tiles"]]
            placed = frozenset(zip(tiles, e["ends_used"], strict=True))
            assert placed in self.legal(seat), e
            assert self.ends is not None
            left, right = self.ends
            self.ends = (left, right)  # doubles leave the values they go on
            self.count("several doubles")
        else:
            tiles = [Tile.parse(e["tile"])]
            tile = tiles[0]
            if self.ends is None:
                assert Play(tile) in self.legal(seat), e
                self.ends = (tile.a, tile.b)
                self.lead = tile
            else:
                where = self.fits(tile)
                assert e["end"] in where, e
                left, right = self.ends
                shown = left if e["end"] == "left" else right
                other = tile.b if tile.a == shown else tile.a
                self.ends = (other, right) if e["end"] == "left" else (left, other)
        assert e["ends"] == list(self.ends), (e, self.ends)
        assert "scored" not in e and "scores" not in e
        for x in tiles:
            self.hands[seat].remove(x)
            self.table.add(x)
        self.last_placer, self.last_move = seat, tiles
        if not self.hands[seat]:
            self.pending = "out"
        elif self.closed() or self.stuck():
            self.pending = "fish"
        elif self.rules.extra_turn_after_double and tiles[-1].a == tiles[-1].b:
            self.count("extra turn")
        else:
            self.turn = (seat + 1) % self.players

    def on_drew(self, e: dict[str, Any]) -> None:
        seat, tile = e["seat"], Tile.parse(e["tile"])
        assert seat == self.turn and not self.can_play(seat) and tile == self.bazaar[0], e
        self.bazaar.pop(0)
        self.hands[seat].append(tile)
        self.count("drew")

    def on_knocked(self, e: dict[str, Any]) -> None:
        assert e["seat"] == self.turn and not self.can_play(self.turn) and not self.bazaar, e
        self.count("knocked")
        if self.stuck():
            self.pending = "fish"
        else:
            self.turn = (self.turn + 1) % self.players

    def on_round_ended(self, e: dict[str, Any]) -> None:
        result = self.pending
        assert result is not None and e["result"] == result and e["round"] == self.round_no, e
        self.count(result)
        assert [[Tile.parse(x) for x in h] for h in e["hands"]] == self.hands
        went_out = result == "out"
        assert e["winner" if went_out else "fisherman"] == self.last_placer, e
        getattr(self, "settle_" + self.game)(e, went_out)
        assert e["scores"] == self.scores, (e, self.scores)
        self.pending = None

    def settle_traditional(self, e: dict[str, Any], went_out: bool) -> None:
        values = [traditional_value(h, self.rules) for h in self.hands]
        totals = [0] * self.sides
        for seat, v in enumerate(values):
            totals[self.side(seat)] += v
        assert e["hand_values"] == totals
        amounts = [0] * self.sides
        if went_out:
            winner: int | None = self.last_placer
            assert winner is not None
            amounts[self.side(winner)] = sum(
                v for s, v in enumerate(totals) if s != self.side(winner)
            )
        else:
            low = min(totals)
            if totals.count(low) > 1:
                winner = None
                self.count("fish nobody won")
            else:
                side = totals.index(low)
                others = [v for s, v in enumerate(totals) if s != side]
                amounts[side] = sum(v - low for v in others)
                if self.rules.trad_fish == "difference":
                    amounts[side] = sum(others) - low
                seats = [s for s in range(self.players) if self.side(s) == side]
                winner = min(seats, key=lambda s: (values[s], s != self.last_placer))
            assert e["winner"] == winner, (e, winner)
        assert e["amounts"] == amounts, (e, amounts)
        self.scores = [s + a for s, a in zip(self.scores, amounts, strict=True)]
        self.next_leader = winner if winner is not None else self.last_placer
        reached = [s for s, x in enumerate(self.scores) if x >= self.rules.target]
        if reached:
            losers = [s for s in range(self.sides) if s not in reached]
            self.ended = {"ended_by": "target", "winners": reached, "losers": losers}

    def settle_generals_goat(self, e: dict[str, Any], went_out: bool) -> None:
        if not went_out:  # the fish does not count: dealt again (§3.10)
            assert e["outcome"] == "redealt" and "loser" not in e and "general" not in e, e
            assert e["amounts"] == [0, 0]
            self.count("redealt")
            return
        assert "outcome" not in e
        assert self.last_placer is not None
        loser = (self.last_placer + 1) % 4
        both = {t("0-0"), t("6-6")}
        if self.rules.general_title == "both_at_once":
            general = both <= set(self.last_move)
        else:
            general = bool(both & set(self.last_move))
        assert (e["loser"], e["general"]) == (loser, general), (e, self.last_move)
        hung = loser % 2
        self.scores[hung] += 1
        assert e["amounts"] == [int(s == hung) for s in range(2)]
        if general:
            self.count("general")
            self.ended = {"ended_by": "general", "losers": [hung], "winners": [1 - hung]}
        elif self.scores[hung] >= self.rules.gg_losses:
            self.ended = {"ended_by": "losses", "losers": [hung], "winners": [1 - hung]}

    def settle_sport(self, e: dict[str, Any], went_out: bool) -> None:
        """Pair Kozel (§2.7, support.py's arithmetic) without the threshold (§3.11)."""
        assert "memory" not in e and "opened" not in e
        winner = self.side(self.last_placer) if went_out and self.last_placer is not None else None
        ignored = (self.last_placer + 2) % 4 if went_out and self.last_placer is not None else -1
        values = [0, 0]
        for seat, hand in enumerate(self.hands):
            if seat != ignored:
                values[self.side(seat)] += value(hand, self.rules)
        assert e["hand_values"] == values
        amounts = (
            [0 if s == winner else v for s, v in enumerate(values)]
            if went_out
            else _fish_amounts(values, self.rules)
        )
        if amounts is None:
            assert e["eggs"] and e["amounts"] is None, e
            self.pot += sum(values)
            self.count("eggs")
        else:
            assert not e["eggs"]
            if self.rules.special_bones:
                bonus = {t("6-6"): 50, t("0-0"): 25}
                extra = bonus.get(self.lead, 0) if self.lead else 0
                if went_out:
                    extra += bonus.get(self.last_move[-1], 0)
                lost = [(s != winner) if went_out else amounts[s] > 0 for s in range(2)]
                amounts = [a + extra if lost[s] else a for s, a in enumerate(amounts)]
            receiver = _pot_receiver(self.rules, amounts, values, winner) if self.pot else None
            if receiver is not None:
                amounts[receiver] += self.pot
                self.pot = 0
            assert (e["amounts"], e["pot_awarded_to"]) == (amounts, receiver), (e, amounts)
            self.scores = [s + a for s, a in zip(self.scores, amounts, strict=True)]
        assert e["pot"] == self.pot
        if self.round_no == self.rules.sport_deals:
            if self.scores[0] == self.scores[1]:
                self.ended = {"ended_by": "draw", "winners": [], "losers": []}
                self.count("draw")
            else:
                best = self.scores.index(min(self.scores))
                self.ended = {"ended_by": "deals", "winners": [best], "losers": [1 - best]}

    def on_match_ended(self, e: dict[str, Any]) -> None:
        assert self.ended is not None, e
        assert {k: e[k] for k in self.ended} == self.ended and e["scores"] == self.scores, e
        self.over = True


@st.composite
def tables(draw: st.DrawFn, games: tuple[str, ...] = YARD_GAMES) -> Table:
    name = draw(st.sampled_from(games))
    rules = PRESETS[name]()
    if name == "traditional":
        players = draw(st.sampled_from((2, 3, 4)))
        pairs = players == 4 and draw(st.booleans())
        options: dict[str, Any] = {
            "trad_lead": draw(
                st.sampled_from(
                    (
                        "highest_double",
                        "zero_first",
                        "lowest_double_no_00",
                        "lot_heaviest",
                        "lowest_incl_00",
                    )
                )
            ),
            "trad_fish": draw(st.sampled_from(("difference", "per_player"))),
            "00_always_25": draw(st.booleans()),
            "66_always_50": draw(st.booleans()),
            "extra_turn_after_double": draw(st.booleans()),
            "target": draw(st.sampled_from((100, 40, 150))),
        }
    elif name == "generals_goat":
        players, pairs = 4, True
        options = {
            "general_title": draw(st.sampled_from(("both_at_once", "either"))),
            "gg_losses": draw(st.sampled_from((2, 1, 3))),
        }
    else:
        players, pairs = 4, True
        options = {
            "sport_deals": draw(st.sampled_from((8, 4, 12))),
            "fish_mode": draw(st.sampled_from(("for_one", "for_everyone", "lowest_wins"))),
            "eggs": draw(st.sampled_from(("pot_to_max_next", "pot_to_next_winner"))),
            "special_bones": draw(st.booleans()),
            "lone_00": draw(st.sampled_from((10, 25))),
        }
    ai = tuple(draw(st.lists(st.sampled_from(QUICK_PLAYERS), min_size=players, max_size=players)))
    return Table(players, pairs, rules.with_options(**options), draw(st.integers(0, 2**32)), ai)


def run(table: Table, probe: int = 0) -> Refereed[YardReferee]:
    """Play the match, every event (after a JSON round trip) fed to the referee, which also
    checks the legal moves before each; ``probe`` moves the referee finds illegal are tried
    first, and each must be refused without a change."""
    referee = YardReferee(table.players, table.pairs, table.rules)
    probes = random.Random(~table.seed)

    def check(match: Match, seat: int, action: Action) -> None:
        assert {canonical(a) for a in match.legal_actions(seat)} == referee.legal(seat)
        if probe:
            try_illegal(match, seat, referee, probes, probe)

    return play_refereed(table, referee, check)


def canonical(action: Action) -> Any:
    if isinstance(action, Lay):
        return frozenset((p.tile, p.end) for p in action.placements)
    return action


def try_illegal(
    match: Match, seat: int, referee: YardReferee, rng: random.Random, tries: int
) -> None:
    before = match.to_json()
    legal_tiles = {a.tile for a in referee.legal(seat) if isinstance(a, Play)}
    candidates: list[tuple[int, Action]] = [(seat, Play(x)) for x in EVERY_TILE]
    candidates += [(seat, DRAW), (seat, KNOCK)]
    candidates += [((seat + 1) % match.players, a) for a in match.legal_actions(seat)]
    candidates = [
        (who, a)
        for who, a in candidates
        if who != seat
        or (a not in referee.legal(seat) and getattr(a, "tile", None) not in legal_tiles)
    ]
    for who, action in rng.sample(candidates, min(tries, len(candidates))):
        try:
            match.act(who, action)
        except errors.IllegalAction:
            continue
        raise AssertionError(f"seat {who} could {action}")
    assert match.to_json() == before


@checked(60)
@given(tables())
def test_every_event_follows_the_rules_of_its_game(table: Table) -> None:
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
    """The random matches do reach the interesting cases (a guard against vacuous tests); a
    drawn Sport match is rare, and ``test_yard_examples.py`` makes one."""
    seen: dict[str, int] = {}
    for seed in range(60):
        name = YARD_GAMES[seed % len(YARD_GAMES)]
        players = 4 if name != "traditional" else 2 + seed // len(YARD_GAMES) % 3
        rules = PRESETS[name]()
        if name == "traditional":
            rules = rules.with_options(extra_turn_after_double=seed % 2 == 0)
        if name == "generals_goat":
            rules = rules.with_options(general_title="either", gg_losses=3)
        result = run(
            Table(
                players, players == 4 and name != "traditional", rules, seed, ("random",) * players
            )
        )
        for kind, n in result.referee.seen.items():
            seen[kind] = seen.get(kind, 0) + n
    for kind in (
        "out",
        "fish",
        "drew",
        "knocked",
        "extra turn",
        "several doubles",
        "redealt",
        "general",
        "eggs",
    ):
        assert seen.get(kind, 0) > 0, (kind, seen)
