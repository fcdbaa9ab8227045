"""Helpers for the engine tests: building positions by hand, and an independent model of Kozel.

``Oracle`` re-implements RULES.md §1.4-§1.9 and §2.2-§2.9 from scratch, reading only the public
JSON shape of the events. It never calls the engine's rules code (leads, scoring, line, round), so
the property tests compare two independent implementations.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from hypothesis import HealthCheck, settings

from engine import (
    DRAW,
    KNOCK,
    Action,
    Draw,
    Event,
    Knock,
    Line,
    Match,
    Play,
    Round,
    RuleSet,
    Tile,
    errors,
    replay,
)
from engine.ai import PLAYERS
from engine.deal import CURRENT_SHUFFLE, Shuffle
from engine.games.base import Game
from engine.layout import End
from engine.rules import PRESETS
from engine.scoring.tally import Tally

#: The options a Kozel log records: the 17 it has always had, none of the scoring games'.
KOZEL_OPTIONS = (
    "game",
    "kozel_hand_sizes",
    "redeal_rule",
    "first_lead",
    "draw_mode",
    "bazaar_reserve",
    "next_lead",
    "lead_tile",
    "restart_1_1_after_unrecorded",
    "lone_00",
    "lone_66",
    "special_bones",
    "fish_mode",
    "eggs",
    "memory",
    "goat_limit",
    "fish_closure_rule",
)


def kozel_options(rules: RuleSet) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in KOZEL_OPTIONS}


def checked(examples: int) -> settings:
    """Hypothesis settings for the engine's property tests: reproducible, no time limit."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# --- building positions ----------------------------------------------------------------------


def plays_at(game: Game, players: int, pairs: bool) -> bool:
    """Whether ``game`` is played by ``players`` (``pairs``), as its table check says."""
    try:
        game.check_table(players, pairs)
    except ValueError:
        return False
    return True


def t(text: str) -> Tile:
    """``t("5-2")`` is the tile 2-5."""
    return Tile.parse(text)


def tiles(text: str) -> list[Tile]:
    """``tiles("0-1 2-3")``; an empty string is an empty hand."""
    return [Tile.parse(x) for x in text.split()]


EVERY_TILE: frozenset[Tile] = frozenset(Tile.of(a, b) for a in range(7) for b in range(a, 7))


def position(
    match: Match,
    *,
    hands: Sequence[str],
    chain: Sequence[str] = (),
    bazaar: str = "",
    turn: int,
    number: int = 2,
    lead: str | None = None,
    last_placer: int | None = None,
    tally: Tally | None = None,
) -> Round:
    """Put ``match`` in the middle of round ``number``: ``chain`` lists the line left to right with
    each tile written in its orientation ("2-4" shows 2 on the left end), ``turn`` moves next."""
    pairs = [(int(x[0]), int(x[2])) for x in chain]
    rnd = Round(
        number=number,
        hands=[tiles(h) for h in hands],
        bazaar=tiles(bazaar),
        leader=turn,
        lead_tiles=None,
        layout=Line.from_chain(pairs),
        turn=turn,
        last_placer=last_placer,
        lead=None if lead is None else t(lead),
        last=None,
    )
    match.round = rnd
    match.rounds_played = number - 1
    if tally is not None:
        match.tally = tally
    return rnd


def scoring_table(game: str, players: int = 2, pairs: bool = False, **options: Any) -> Match:
    return Match(players, pairs, PRESETS[game]().with_options(**options), seed=3)


def layout_position(
    match: Match,
    *,
    hands: list[str],
    lays: list[tuple[str, End]],
    turn: int,
    scores: tuple[int, ...] | None = None,
) -> Round:
    """Put a scoring game's ``match`` in the middle of its second round: ``lays`` are placed in
    order on the game's own layout (the first is the lead), the bazaar is empty and ``turn``
    moves next."""
    layout = match.game.layout(match.rules)
    for text, end in lays:
        layout.place(t(text), end)
    rnd = Round(
        number=2,
        hands=[tiles(h) for h in hands],
        bazaar=[],
        leader=turn,
        lead_tiles=None,
        layout=layout,
        turn=turn,
    )
    match.round = rnd
    match.rounds_played = 1
    if scores is not None:
        sides = len(scores)
        match.tally = Tally(scores, (0,) * sides, (False,) * sides)
    return rnd


def snapshot(match: Match) -> str:
    return json.dumps(match.to_json(), sort_keys=True)


def dicts(events: Iterable[Any]) -> list[dict[str, Any]]:
    """Event objects (or dicts already) as dicts."""
    return [e if isinstance(e, dict) else e.to_dict() for e in events]


def of_type(events: Iterable[Any], kind: str) -> list[dict[str, Any]]:
    return [d for d in dicts(events) if d["type"] == kind]


# --- an independent model of the rules --------------------------------------------------------

DOUBLES = [Tile.of(v, v) for v in range(7)]
# §1.2: non-doubles by pip sum, ties broken by the larger half; "highest" first.
NON_DOUBLES_HIGH_FIRST = sorted(
    (x for x in EVERY_TILE if x.a != x.b), key=lambda x: (x.a + x.b, max(x.a, x.b)), reverse=True
)


def lead_order(rules: RuleSet, players: int) -> list[Tile]:
    """§2.3: the order in which the first-round lead is looked for in the dealt hands; special
    bones are never a compulsory lead (§2.7.5), so the order passes over them."""
    if rules.first_lead == "chain_1_1":
        order = [*DOUBLES[1:], DOUBLES[0], *NON_DOUBLES_HIGH_FIRST]
    elif rules.first_lead == "lowest_incl_00":
        order = [*DOUBLES, *reversed(NON_DOUBLES_HIGH_FIRST)]
    else:
        # one_one_four_else_lowest_double: 1-1 with four players, else the smallest double; 0-0
        # counts as the smallest double (the engine's FLAG decision), fallback = DEFAULT step 4.
        first = [DOUBLES[1]] if players == 4 else []
        order = [*first, *DOUBLES, *NON_DOUBLES_HIGH_FIRST]
    if rules.special_bones:
        order = [x for x in order if x not in (Tile.of(0, 0), Tile.of(6, 6))]
    return order


def expected_first_lead(hands: Sequence[Sequence[Tile]], rules: RuleSet) -> tuple[int, Tile]:
    for tile in lead_order(rules, len(hands)):
        for seat, hand in enumerate(hands):
            if tile in hand:
                return seat, tile
    raise AssertionError("nothing dealt")


def triggers_redeal(hand: Sequence[Tile], rules: RuleSet) -> str | None:
    """§2.2: ≥5 doubles, or (DEFAULT) ≥6 tiles of one suit, a double counting once."""
    if sum(x.a == x.b for x in hand) >= 5:
        return "doubles"
    if rules.redeal_rule == "doubles_or_suit" and any(
        sum(v in (x.a, x.b) for x in hand) >= 6 for v in range(7)
    ):
        return "suit"
    return None


def value(hand: Sequence[Tile], rules: RuleSet) -> int:
    """§1.10 / §2.7.1 / §2.7.5 / §2.7.6."""
    if len(hand) == 1 and hand[0] == Tile.of(0, 0):
        return 25 if rules.special_bones else rules.lone_00
    if len(hand) == 1 and hand[0] == Tile.of(6, 6):
        return 50 if rules.special_bones else rules.lone_66
    return sum(x.a + x.b for x in hand)


def _fish_amounts(values: list[int], rules: RuleSet) -> list[int] | None:
    """§2.7.3-§2.7.4: what each side writes after a fish; None for eggs (a drawn round)."""
    sides = len(values)
    if rules.fish_mode == "for_everyone":
        return list(values)
    if rules.fish_mode == "for_one":
        top = max(values)
        return None if values.count(top) > 1 else [sum(values) if v == top else 0 for v in values]
    low = min(values)  # lowest_wins
    return None if values.count(low) == sides else [0 if v == low else v for v in values]


def _pot_receiver(
    rules: RuleSet, amounts: list[int], values: list[int], winner: int | None
) -> int | None:
    """§2.7.4: the side that takes the pot of eggs this round, if any."""
    if rules.eggs == "pot_to_max_next":
        top = max(amounts)
        return amounts.index(top) if top > 0 and amounts.count(top) == 1 else None
    if winner is not None:
        return winner
    # after a fish the "winner" is the unique lowest hand (engine FLAG, spec is silent)
    low = min(values)
    return values.index(low) if values.count(low) == 1 else None


def _written(
    rules: RuleSet,
    amounts: list[int],
    scores: Sequence[int],
    memory: Sequence[int],
    opened: Sequence[bool],
) -> tuple[list[int], list[int], list[bool]]:
    """§2.8: the scores, memory and opened sides after writing ``amounts``."""
    new_scores, new_memory, new_opened = list(scores), list(memory), list(opened)
    for s, r in enumerate(amounts):
        if new_opened[s]:
            new_scores[s] += r
        elif r >= 13:
            new_opened[s] = True
            new_scores[s] += r + new_memory[s]
            new_memory[s] = 0
        elif r > 0:
            if rules.memory == "remember":
                new_memory[s] += r
        else:
            new_memory[s] = 0
    return new_scores, new_memory, new_opened


def expected_scoring(
    *,
    rules: RuleSet,
    pairs: bool,
    hands: Sequence[Sequence[Tile]],
    result: str,
    winner_seat: int | None,
    lead: Tile | None,
    last: Tile | None,
    scores: Sequence[int],
    memory: Sequence[int],
    opened: Sequence[bool],
    pot: int,
) -> dict[str, Any]:
    """§2.7-§2.9 for one round, from the hands left and the standings before it."""
    sides = 2 if pairs else len(hands)

    def side(seat: int) -> int:
        return seat % 2 if pairs else seat

    ignored = (
        (winner_seat + 2) % 4 if (pairs and result == "out" and winner_seat is not None) else -1
    )
    values = [0] * sides
    for seat, hand in enumerate(hands):
        if seat != ignored:
            values[side(seat)] += value(hand, rules)
    winner = None if winner_seat is None else side(winner_seat)
    amounts: list[int] | None
    if result == "out":
        amounts = [0 if s == winner else values[s] for s in range(sides)]
    else:
        amounts = _fish_amounts(values, rules)
    out: dict[str, Any] = {"hand_values": values}
    if amounts is None:  # eggs (§2.7.4): a drawn round, the fish total goes into the pot
        out.update(
            eggs=True,
            amounts=None,
            scores=list(scores),
            memory=list(memory),
            opened=list(opened),
            pot=pot + sum(values),
            pot_awarded_to=None,
            goats=[],
        )
        return out
    if rules.special_bones:  # §2.7.5
        bonus = {Tile.of(6, 6): 50, Tile.of(0, 0): 25}
        extra = bonus.get(lead, 0) if lead is not None else 0
        if result == "out" and last is not None:
            extra += bonus.get(last, 0)
        losing = [(s != winner) if result == "out" else (amounts[s] > 0) for s in range(sides)]
        amounts = [a + extra if losing[s] else a for s, a in enumerate(amounts)]
    receiver = _pot_receiver(rules, amounts, values, winner) if pot else None
    if receiver is not None:
        amounts[receiver] += pot
        pot = 0
    new_scores, new_memory, new_opened = _written(rules, amounts, scores, memory, opened)
    out.update(
        eggs=False,
        amounts=amounts,
        scores=new_scores,
        memory=new_memory,
        opened=new_opened,
        pot=pot,
        pot_awarded_to=receiver,
        goats=[s for s in range(sides) if new_scores[s] >= rules.goat_limit],
    )
    return out


class KozelStandings(Protocol):
    """What a referee keeps of a Kozel-scored match between rounds (§2.7-§2.9)."""

    rules: RuleSet
    pairs: bool
    hands: list[list[Tile]]
    lead: Tile | None
    last: Tile | None
    scores: list[int]
    memory: list[int]
    opened: list[bool]
    pot: int
    goats: list[int]


def check_round_scoring(
    referee: KozelStandings, e: dict[str, Any], result: str, winner_seat: int | None
) -> dict[str, Any]:
    """Check a ``round_ended`` event's Kozel scoring against ``expected_scoring`` and take its
    standings after the round, as every referee of a Kozel-scored game (Kozel, Donkey) must."""
    want = expected_scoring(
        rules=referee.rules,
        pairs=referee.pairs,
        hands=referee.hands,
        result=result,
        winner_seat=winner_seat,
        lead=referee.lead,
        last=referee.last,
        scores=referee.scores,
        memory=referee.memory,
        opened=referee.opened,
        pot=referee.pot,
    )
    for key in ("eggs", "hand_values", "amounts", "scores", "memory", "opened", "pot"):
        assert e[key] == want[key], (key, e, want)
    referee.scores, referee.memory, referee.opened = want["scores"], want["memory"], want["opened"]
    referee.pot, referee.goats = want["pot"], want["goats"]
    return want


class Oracle:
    """Follows a match event by event (as JSON dicts) and checks every rule it can see."""

    def __init__(self, players: int, pairs: bool, rules: RuleSet) -> None:
        self.players, self.pairs, self.rules = players, pairs, rules
        sides = 2 if pairs else players
        self.scores, self.memory = [0] * sides, [0] * sides
        self.opened, self.pot = [False] * sides, 0
        self.phase = "new"  # new -> between -> play -> ended -> between/over
        self.round_no = 0
        self.next_leader: int | None = None
        self.restart = False
        self.goats: list[int] = []
        self.pending: tuple[str, int] | None = None  # ("out", winner) or ("fish", fisherman)
        self.round_actions = 0
        self.max_round_actions = 0
        self.rounds = 0
        self.fish_rounds = 0
        self.closure_fish = 0
        self.redeals = 0
        # The round in play.
        self.hands: list[list[Tile]] = []
        self.bazaar: list[Tile] = []
        self.lead_tiles: list[Tile] | None = None
        self.table: set[Tile] = set()
        self.ends: tuple[int, int] | None = None
        self.turn = 0
        self.drew = False
        self.last_placer: int | None = None
        self.lead: Tile | None = None
        self.last: Tile | None = None

    # -- questions about the current round --

    def drawable(self) -> int:
        if self.rules.draw_mode == "none":
            return 0
        return max(0, len(self.bazaar) - self.rules.bazaar_reserve)

    def fits(self, tile: Tile) -> list[str]:
        assert self.ends is not None
        left, right = self.ends
        return [e for e, v in (("left", left), ("right", right)) if v in (tile.a, tile.b)]

    def can_play(self, seat: int) -> bool:
        if self.ends is None:
            return True
        return any(self.fits(x) for x in self.hands[seat])

    def can_draw(self) -> bool:
        if self.rules.draw_mode == "one_per_turn" and self.drew:
            return False
        return self.drawable() > 0

    def blocked(self) -> bool:
        """The generic test of §1.9: nobody can place and nothing can be drawn."""
        return self.drawable() == 0 and not any(self.can_play(s) for s in range(self.players))

    def closed(self) -> bool:
        """The closure test of §1.9: both ends show v and all six non-doubles of v are down."""
        assert self.ends is not None
        left, right = self.ends
        down = sum(1 for x in self.table if x.a != x.b and left in (x.a, x.b))
        return left == right and down == 6

    def legal(self, seat: int) -> set[Action]:
        """Every legal action in the engine's canonical form (an end only when it matters)."""
        if self.phase != "play" or self.pending is not None or seat != self.turn:
            return set()
        hand = self.hands[seat]
        plays: set[Action] = set()
        if self.ends is None:
            plays = {Play(x) for x in hand if self.lead_tiles is None or x in self.lead_tiles}
        else:
            for x in hand:
                where = self.fits(x)
                if len(where) == 2 and self.ends[0] != self.ends[1]:
                    plays |= {Play(x, "left"), Play(x, "right")}
                elif where:
                    plays.add(Play(x))
        if plays:
            return plays
        return {DRAW} if self.can_draw() else {KNOCK}

    def expected_error(self, seat: int, action: Action) -> type[errors.IllegalAction] | None:
        """The error the engine should raise for ``action`` (None: it is legal)."""
        if self.phase != "play" or self.pending is not None:
            return errors.GameOver
        if seat != self.turn:
            return errors.NotYourTurn
        if isinstance(action, Draw):
            if self.can_play(seat):
                return errors.MustPlay
            return None if self.can_draw() else errors.CannotDraw
        if isinstance(action, Knock):
            if self.can_play(seat):
                return errors.MustPlay
            return errors.MustDraw if self.can_draw() else None
        assert isinstance(action, Play)
        tile = action.tile
        if tile not in self.hands[seat]:
            return errors.TileNotInHand
        if self.ends is None:
            ok = self.lead_tiles is None or tile in self.lead_tiles
            return None if ok else errors.WrongLead
        where = self.fits(tile)
        if not where:
            return errors.TileDoesNotFit
        if action.end is None:
            both = len(where) == 2 and self.ends[0] != self.ends[1]
            return errors.EndRequired if both else None
        return None if action.end in where else errors.TileDoesNotFit

    def canonical(self, seat: int, action: Action) -> Action:
        """A legal play that names an end it did not need to name is the same move."""
        if not isinstance(action, Play) or action.end is None:
            return action
        if self.ends is None or self.ends[0] == self.ends[1] or len(self.fits(action.tile)) < 2:
            return Play(action.tile)
        return action

    # -- following the events --

    def feed(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        getattr(self, "on_" + kind)(event)
        if kind in ("played", "drew", "knocked"):
            self.round_actions += 1

    def on_match_started(self, e: dict[str, Any]) -> None:
        assert self.phase == "new"
        assert e["players"] == self.players and e["pairs"] == self.pairs
        assert e["options"] == kozel_options(self.rules)
        self.phase = "between"

    def on_redealt(self, e: dict[str, Any]) -> None:
        assert self.phase == "between", e
        hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        assert e["round"] == self.round_no + 1
        seat = e["seat"]
        assert triggers_redeal(hands[seat], self.rules) == e["reason"], e
        assert all(triggers_redeal(h, self.rules) is None for h in hands[:seat]), e
        self.redeals += 1

    def on_round_started(self, e: dict[str, Any]) -> None:
        assert self.phase == "between" and not self.goats, e
        assert e["round"] == self.round_no + 1
        self.round_no = e["round"]
        self.hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        self.bazaar = [Tile.parse(x) for x in e["bazaar"]]
        size = 5 if self.rules.kozel_hand_sizes == "ht" and self.players >= 3 else 7
        assert [len(h) for h in self.hands] == [size] * self.players
        everything = [x for h in self.hands for x in h] + self.bazaar
        assert len(everything) == 28 and set(everything) == EVERY_TILE
        for h in self.hands:
            assert triggers_redeal(h, self.rules) is None, h
        lead_tiles = e["lead_tiles"]
        self.lead_tiles = None if lead_tiles is None else [Tile.parse(x) for x in lead_tiles]
        if self.next_leader is None or self.restart:
            # §2.6: a restart is led from 1-1 whatever first_lead says (revision 2 on).
            chain = self.restart and self.rules.revision >= 2
            rules = self.rules.with_options(first_lead="chain_1_1") if chain else self.rules
            seat, tile = expected_first_lead(self.hands, rules)
            assert (e["leader"], self.lead_tiles) == (seat, [tile]), e
        else:
            assert e["leader"] == self.next_leader, e
            hand = self.hands[self.next_leader]
            doubles = [x for x in hand if x.a == x.b]
            must = self.rules.lead_tile == "double_if_held" and any(0 < d.a < 6 for d in doubles)
            if must:
                assert self.lead_tiles is not None and set(self.lead_tiles) == set(doubles), e
            else:
                assert self.lead_tiles is None, e
        self.turn = e["leader"]
        self.table = set()
        self.ends = None
        self.drew = False
        self.last_placer = None
        self.lead = None
        self.last = None
        self.pending = None
        self.round_actions = 0
        self.phase = "play"

    def _advance(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.drew = False

    def on_played(self, e: dict[str, Any]) -> None:
        assert self.phase == "play" and self.pending is None, e
        seat, tile = e["seat"], Tile.parse(e["tile"])
        assert seat == self.turn and tile in self.hands[seat], e
        assert self.canonical(seat, Play(tile, e["end"])) in self.legal(seat), e
        if self.ends is None:
            if self.lead_tiles is not None:
                assert tile in self.lead_tiles, e
            assert sorted(e["ends"]) == [tile.a, tile.b], e
            self.ends = (e["ends"][0], e["ends"][1])
            self.lead = tile
        else:
            left, right = self.ends
            v = left if e["end"] == "left" else right
            assert v in (tile.a, tile.b), e
            other = tile.b if tile.a == v else tile.a
            self.ends = (other, right) if e["end"] == "left" else (left, other)
            assert e["ends"] == list(self.ends), e
        self.hands[seat].remove(tile)
        self.table.add(tile)
        self.last_placer, self.last = seat, tile
        if not self.hands[seat]:
            self.pending = ("out", seat)
        elif self.rules.fish_closure_rule and self.closed():
            self.pending = ("fish", seat)
            self.closure_fish += 1
        elif self.blocked():
            self.pending = ("fish", seat)
        else:
            self._advance()

    def on_drew(self, e: dict[str, Any]) -> None:
        assert self.phase == "play" and self.pending is None, e
        seat, tile = e["seat"], Tile.parse(e["tile"])
        assert seat == self.turn and not self.can_play(seat) and self.can_draw(), e
        assert tile in self.bazaar, e
        self.bazaar.remove(tile)
        self.hands[seat].append(tile)
        self.drew = True
        if self.blocked():  # only a knock can follow; the knock ends the round (§1.9)
            assert self.legal(seat) == {KNOCK}

    def on_knocked(self, e: dict[str, Any]) -> None:
        assert self.phase == "play" and self.pending is None, e
        seat = e["seat"]
        assert seat == self.turn and not self.can_play(seat) and not self.can_draw(), e
        if self.blocked():
            assert self.last_placer is not None
            self.pending = ("fish", self.last_placer)
        else:
            self._advance()

    def on_round_ended(self, e: dict[str, Any]) -> None:
        assert self.phase == "play" and self.pending is not None, e
        result, seat = self.pending
        assert e["round"] == self.round_no
        assert e["result"] == result, e
        if result == "out":
            assert (e["winner"], e["fisherman"]) == (seat, None), e
        else:
            assert (e["winner"], e["fisherman"]) == (None, seat), e
            self.fish_rounds += 1
        hands = [[Tile.parse(x) for x in h] for h in e["hands"]]
        assert [sorted(h) for h in hands] == [sorted(h) for h in self.hands], e
        want = check_round_scoring(self, e, result, seat if result == "out" else None)
        assert e["pot_awarded_to"] == want["pot_awarded_to"], (e, want)
        if result == "out":
            partner = self.rules.next_lead == "winner_partner" and self.pairs
            self.next_leader = (seat + 2) % 4 if partner else seat
        else:
            self.next_leader = seat
        self.restart = (
            self.rules.restart_1_1_after_unrecorded
            and want["amounts"] is not None
            and any(a > 0 and not o for a, o in zip(want["amounts"], self.opened, strict=True))
        )
        self.rounds += 1
        self.max_round_actions = max(self.max_round_actions, self.round_actions)
        self.phase = "ended" if self.goats else "between"

    def on_match_ended(self, e: dict[str, Any]) -> None:
        assert self.phase == "ended" and self.goats, e
        assert e["losers"] == self.goats and e["scores"] == self.scores, e
        assert e["ended_by"] == "goat"
        self.phase = "over"

    # -- comparing with the engine's own state --

    def check_state(self, match: Match, state: dict[str, Any] | None = None) -> None:
        state = match.to_json() if state is None else state
        assert state["scores"] == self.scores and state["memory"] == self.memory
        assert state["opened"] == self.opened and state["pot"] == self.pot
        assert state["over"] == (self.phase == "over")
        if self.phase == "over":
            assert state["losers"] == self.goats
            assert match.current_seat is None and match.legal_actions(0) == []
            return
        rnd = state["round"]
        assert self.phase == "play" and self.pending is None
        hands = [sorted(Tile.parse(x) for x in h) for h in rnd["hands"]]
        assert hands == [sorted(h) for h in self.hands]
        assert [Tile.parse(x) for x in rnd["bazaar"]] == self.bazaar
        chain = [Tile.of(a, b) for a, b in rnd["chain"]]
        assert len(chain) == len(set(chain)) and set(chain) == self.table
        if chain:
            assert (rnd["chain"][0][0], rnd["chain"][-1][1]) == self.ends
        everything = [x for h in hands for x in h] + self.bazaar + chain
        assert len(everything) == 28 and set(everything) == EVERY_TILE
        assert rnd["turn"] == self.turn == match.current_seat
        assert rnd["outcome"] is None


def universe(players: int) -> list[tuple[int, Action]]:
    """Every action any seat could attempt."""
    acts: list[Action] = [DRAW, KNOCK]
    for x in sorted(EVERY_TILE):
        acts += [Play(x), Play(x, "left"), Play(x, "right")]
    return [(s, a) for s in range(players) for a in acts]


@dataclass
class Run:
    match: Match
    events: list[Event]
    log: list[dict[str, Any]]  # the events after a JSON round trip
    oracle: Oracle
    actions: list[tuple[int, Action]]


def run_match(
    players: int,
    pairs: bool,
    rules: RuleSet,
    seed: int,
    ai: Sequence[str],
    *,
    check_state: bool = True,
    probe_illegal: int = 0,
    max_actions: int = 200_000,
    shuffle: Shuffle = CURRENT_SHUFFLE,
) -> Run:
    """Play one match with computer players, feeding every event (after a JSON round trip) to an
    ``Oracle``. ``probe_illegal`` actions outside the legal set are tried before each move."""
    oracle = Oracle(players, pairs, rules)
    match, first = Match.new(players, pairs, rules, seed, shuffle)
    log: list[dict[str, Any]] = []
    raw: list[Event] = []

    def feed(events: Iterable[Event]) -> None:
        for ev in events:
            raw.append(ev)
            d = json.loads(json.dumps(ev.to_dict()))
            log.append(d)
            oracle.feed(d)

    feed(first)
    rng = random.Random(seed)
    probe_rng = random.Random(seed ^ 0x5EED)
    everything = universe(players) if probe_illegal else []
    actions: list[tuple[int, Action]] = []
    while not match.is_over:
        assert len(actions) < max_actions, "the match does not end"
        seat = match.current_seat
        assert seat is not None
        state = match.to_json() if (check_state or probe_illegal) else {}
        if check_state:
            oracle.check_state(match, state)
            assert set(match.legal_actions(seat)) == oracle.legal(seat)
            others = [s for s in range(players) if s != seat]
            assert all(match.legal_actions(s) == [] for s in others)
        for _ in range(probe_illegal):
            who, act = probe_rng.choice(everything)
            if oracle.canonical(who, act) in oracle.legal(who):
                continue
            want = oracle.expected_error(who, act)
            assert want is not None, (who, act)
            try:
                match.act(who, act)
            except errors.IllegalAction as exc:
                assert type(exc) is want, (who, act, exc, want)
            else:
                raise AssertionError(f"illegal {act} by seat {who} was accepted")
        if probe_illegal:
            assert match.to_json() == state, "a refused action changed the state"
        action = PLAYERS[ai[seat]](match, seat, rng)
        actions.append((seat, action))
        feed(match.act(seat, action))
    if check_state:
        oracle.check_state(match)
    assert oracle.phase == "over"
    assert Counter(d["type"] for d in log)["match_ended"] == 1
    return Run(match, raw, log, oracle, actions)


@dataclass(frozen=True)
class Table:
    """A table the property tests play at: its seats, rules and deal seed, and the computer
    player at each seat."""

    players: int
    pairs: bool
    rules: RuleSet
    seed: int
    ai: tuple[str, ...]


class Finished(Protocol):
    """A match a property test played to its end: the log of its events (as JSON) and every
    action taken, in order."""

    @property
    def match(self) -> Match: ...

    @property
    def log(self) -> list[dict[str, Any]]: ...

    @property
    def actions(self) -> list[tuple[int, Action]]: ...


class Referee(Protocol):
    """An independent model of a game that the property tests feed each event's JSON."""

    @property
    def turn(self) -> int: ...

    @property
    def over(self) -> bool: ...

    def feed(self, event: dict[str, Any]) -> None: ...


R = TypeVar("R", bound=Referee)
#: What a property test checks at a turn before ``action`` is made: it may return a check of
#: the events (as JSON) that the move then logs.
TurnCheck = Callable[[Match, int, Action], Callable[[list[dict[str, Any]]], None] | None]


@dataclass
class Refereed(Generic[R]):
    """A match played to its end under a referee, with its log and every action taken."""

    match: Match
    log: list[dict[str, Any]]
    referee: R
    actions: list[tuple[int, Action]]

    def feed(self, events: Iterable[Event]) -> list[dict[str, Any]]:
        """Log ``events`` as a stored log has them (through JSON) and feed them to the
        referee; returns them as logged."""
        logged = [json.loads(json.dumps(event.to_dict())) for event in events]
        for data in logged:
            self.log.append(data)
            self.referee.feed(data)
        return logged


def play_refereed(
    table: Table, referee: R, check: TurnCheck, most_actions: int = 5_000
) -> Refereed[R]:
    """Play ``table``'s match between its computer players, every event fed to ``referee``.
    Before each move: it is the referee's turn too, every tile is somewhere, nobody else may
    act, and ``check`` has its say about the match and the action chosen."""
    match, first = Match.new(table.players, table.pairs, table.rules, table.seed)
    run = Refereed(match, [], referee, [])
    run.feed(first)
    rng = random.Random(table.seed)
    while not match.is_over:
        assert len(run.actions) < most_actions, "the match does not end"
        seat = match.current_seat
        assert seat is not None and seat == referee.turn
        rnd = match.round
        assert rnd is not None
        everything = [x for h in rnd.hands for x in h] + rnd.bazaar + rnd.layout.tiles()
        assert len(everything) == 28 and set(everything) == EVERY_TILE
        assert all(match.legal_actions(s) == [] for s in range(table.players) if s != seat)
        action = PLAYERS[table.ai[seat]](match, seat, rng)
        check_move = check(match, seat, action)
        run.actions.append((seat, action))
        logged = run.feed(match.act(seat, action))
        if check_move is not None:
            check_move(logged)
    assert referee.over
    return run


def check_rebuilt(table: Table, run: Finished, cut: float) -> None:
    """The finished match is rebuilt by replaying its log and from its JSON; and the same match
    saved to JSON after ``cut`` of its actions and restored goes on exactly as the original,
    with the same moves offered and the same events, event for event."""
    final = run.match.to_json()
    assert replay(run.log).to_json() == final
    assert Match.from_json(json.loads(json.dumps(final))).to_json() == final
    original, _ = Match.new(table.players, table.pairs, table.rules, table.seed)
    k = int(cut * len(run.actions))
    for seat, action in run.actions[:k]:
        original.act(seat, action)
    clone = Match.from_json(json.loads(json.dumps(original.to_json())))
    assert clone.to_json() == original.to_json()
    assert replay(run.log[: original.events_applied]).to_json() == original.to_json()
    for seat, action in run.actions[k:]:
        assert clone.legal_actions(seat) == original.legal_actions(seat)
        assert [e.to_dict() for e in clone.act(seat, action)] == [
            e.to_dict() for e in original.act(seat, action)
        ]
    assert clone.to_json() == final
