"""The seams a new game plugs into (``engine.games``, ``engine.layout``): a test-only game with
other hand sizes, points during play and a win-at-target end plays whole matches through ``Match``,
and the line answers the layout's questions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import pytest

from engine import ALL_TILES, Line, Match, RuleSet, Tile, replay, rules
from engine.ai import random_player
from engine.events import RoundEnded
from engine.games import GAMES, game_of
from engine.games.base import Game
from engine.layout import End, Layout
from engine.leads import Lead
from engine.round import Hand, Round
from engine.rules import PRESETS
from engine.scoring.tally import Tally
from engine.seats import side_of

from .support import dicts, plays_at, t
from .test_scoring_properties import SCORING_GAMES
from .test_yard_properties import YARD_GAMES

TARGET = 40


class Fives(Game):
    """Three tiles each; the first seat leads anything and later the winner or the fisherman; a move
    scores the open-end sum when it is a positive multiple of 5; the player who goes out, or has
    the fewest pips at a block, takes the others' pips; 40 wins."""

    name = "fives_for_tests"
    ended_by = "target"

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return 3

    def first_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        return Lead(0, None)

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        leader = ended.winner if ended.winner is not None else ended.fisherman
        assert leader is not None
        return leader

    def move_points(self, layout: Layout, tile: Tile, end: End, rules: RuleSet) -> int:
        total = layout.end_sum_after(tile, end)
        return total if total > 0 and total % 5 == 0 else 0

    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        values = [0] * len(tally.scores)
        for seat, hand in enumerate(rnd.hands):
            values[side_of(seat, pairs)] += sum(tile.pips for tile in hand)
        went_out = rnd.outcome == "out"
        assert rnd.last_placer is not None
        low = min(values)
        winner = (
            side_of(rnd.last_placer, pairs)
            if went_out
            else (values.index(low) if values.count(low) == 1 else None)
        )
        amounts = [0] * len(values)
        if winner is not None:
            amounts[winner] = sum(values) - values[winner]
        return RoundEnded(
            round=rnd.number,
            result="out" if went_out else "fish",
            winner=rnd.last_placer if went_out else None,
            fisherman=None if went_out else rnd.last_placer,
            eggs=False,
            hands=[list(h) for h in rnd.hands],
            hand_values=values,
            amounts=amounts,
            scores=[s + a for s, a in zip(tally.scores, amounts, strict=True)],
            memory=list(tally.memory),
            opened=list(tally.opened),
            pot=0,
            pot_awarded_to=None,
        )

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        top = max(tally.scores)
        return [] if top < TARGET else [s for s, x in enumerate(tally.scores) if x < top]


@pytest.fixture
def fives(monkeypatch: pytest.MonkeyPatch) -> RuleSet:
    """The rules of a table playing the test game: registered, and its name a ``RuleSet.game``,
    as a real game's module and preset would make it."""
    game = Fives()
    monkeypatch.setitem(GAMES, game.name, game)
    monkeypatch.setitem(rules.OPTION_TYPES, "game", Literal["kozel", "fives_for_tests"])
    return RuleSet(game=game.name)  # type: ignore[arg-type]


def play(players: int, pairs: bool, rules: RuleSet, seed: int) -> tuple[Match, list[Any]]:
    match, events = Match.new(players, pairs, rules, seed)
    rng = random.Random(seed)
    while (seat := match.current_seat) is not None:
        events += match.act(seat, random_player(match, seat, rng))
    return match, events


@pytest.mark.parametrize(("players", "pairs"), [(2, False), (3, False), (4, False), (4, True)])
def test_a_registered_game_plays_whole_matches_through_the_match(
    fives: RuleSet, players: int, pairs: bool
) -> None:
    assert isinstance(game_of(fives), Fives)
    sides = 2 if pairs else players
    for seed in range(8):
        match, events = play(players, pairs, fives, seed)
        log = dicts(events)
        assert log[0]["game"] == "fives_for_tests"
        deals = [e for e in log if e["type"] == "round_started"]
        assert all(len(hand) == 3 and e["lead_tiles"] is None for e in deals for hand in e["hands"])
        earned = [0] * sides
        for e in log:
            if e["type"] == "played" and e["scored"]:  # a game with points writes them always
                assert e["scored"] % 5 == 0
                earned[side_of(e["seat"], pairs)] += e["scored"]
            elif e["type"] == "round_ended":
                earned = [x + a for x, a in zip(earned, e["amounts"], strict=True)]
        end = log[-1]
        assert end["type"] == "match_ended" and end["ended_by"] == "target"
        assert end["scores"] == earned == list(match.tally.scores)
        top = max(earned)
        assert top >= TARGET and end["losers"] == [s for s in range(sides) if earned[s] < top]
        assert replay(log).to_json() == match.to_json()


def test_moves_of_the_test_game_score_during_play(fives: RuleSet) -> None:
    """The ``scored`` of ``played`` reaches the match's scores at once, before the round ends."""
    match, _ = Match.new(2, False, fives, seed=1)
    rng = random.Random(1)
    while (seat := match.current_seat) is not None:
        before = list(match.tally.scores)
        made = dicts(match.act(seat, random_player(match, seat, rng)))
        played = made[0]
        if played["type"] == "played" and played["scored"]:
            assert match.tally.scores[seat] == before[seat] + played["scored"]
            return
    pytest.fail("no move scored in a whole match")


def test_kozel_is_the_registered_default() -> None:
    assert game_of(RuleSet()).name == "kozel" == RuleSet().game


@pytest.mark.parametrize("name", GAMES)
def test_a_game_names_the_options_it_records(name: str) -> None:
    """The default, every ``RuleSet`` field, grows with the next game's options: its stored
    ``match_started`` would then differ from the one replaying makes, and the match not replay."""
    assert type(GAMES[name]).options is not Game.options


def test_every_game_is_in_its_familys_property_tests() -> None:
    """Adding a game (``engine/games/__init__.py``, step 3) names it among its family's property
    tests: one named in none is played by none, and nothing else fails (the yard games' self-play
    tests, ``test_yard_selfplay.py``, take theirs from ``YARD_GAMES``). Kozel, Sea Goat and Donkey
    have a module each (``test_properties.py``, ``test_sea_goat_properties.py``,
    ``test_donkey_properties.py``)."""
    tested = {"kozel", "sea_goat", "donkey", *SCORING_GAMES, *YARD_GAMES}
    assert sorted(set(GAMES) - tested) == []


def test_the_line_is_a_layout() -> None:
    line: Layout = Line()
    assert line.is_empty and line.open_ends() == {} and line.end_sum() == 0
    line.place(t("6-4"), "left")
    assert line.open_ends() == {"left": 4, "right": 6}
    assert line.end_sum() == 10  # a lead counts its pips: "6-4 … і відразу записати 10" (§3.5)
    line.place(t("4-2"), "left")
    line.place(t("2-2"), "left")
    assert line.open_ends() == {"left": 2, "right": 6}
    assert line.end_sum() == 10  # "6 and double 2-2 → 10" (§1.8, §3.8)
    assert line.fits(t("2-6")) == ("left", "right") and line.end_names() == ("left", "right")
    assert line.ends_after(t("2-6"), "left") == (6, 6)
    assert line.end_sum_after(t("2-6"), "left") == 12 and line.end_sum() == 10


def test_the_lines_looked_up_plays_are_the_layouts_own() -> None:
    """``Line.plays`` reads a table made once; ``Layout.plays`` asks ``fits`` tile by tile. On
    every pair of ends, doubles at an end or not, a whole set's plays are the same, in order."""
    for left in range(7):
        for right in range(7):
            for chain in ([(left, right)], [(left, left), (left, right), (right, right)]):
                line = Line.from_chain(chain)
                assert line.plays(ALL_TILES) == Layout.plays(line, ALL_TILES), chain


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_that_offers_no_lays_never_has_one(name: str) -> None:
    """``Match.legal_actions`` asks ``Game.lays`` only of a game that ``offers_lays``; a game
    that says it does not offers none, on every turn of whole matches (and one that does offers
    some in them: Donkey's closed doubles, English fives' lengthwise ones)."""
    game = GAMES[name]
    shapes = ((4, False), (4, True), (2, False))
    players, pairs = next(shape for shape in shapes if plays_at(game, *shape))
    offered = 0
    for seed in range(3):
        match, _ = Match.new(players, pairs, PRESETS[name](), seed)
        rng = random.Random(seed)
        while (seat := match.current_seat) is not None and match.round is not None:
            offered += len(game.lays(match.round, seat, match.rules))
            match.act(seat, rng.choice(match.legal_actions(seat)))
    assert (offered > 0) == game.offers_lays
