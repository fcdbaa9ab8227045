"""``python -m engine selfplay --game traditional|generals_goat|sport``: the transcripts follow the
format the README documents and the rules (the referee of ``test_yard_properties.py``), and every
computer player plays every yard game. The games are the property tests' ``YARD_GAMES``, which
``test_seams.py`` checks against the registry, so a new yard game is played here too."""

from __future__ import annotations

import pytest

from engine import RuleSet, replay
from engine.ai import PLAYERS
from engine.events import MatchEnded, PlayedDoubles, RoundEnded
from engine.games import GAMES
from engine.rules import PRESETS
from engine.search import StrongPlayer
from engine.selfplay import play_match

from .test_yard_examples import transcript
from .test_yard_properties import YARD_GAMES, YardReferee

#: Every yard game at four in pairs, and Traditional also at three, each alone.
TABLES = {
    **{game: ("4", "--pairs") for game in YARD_GAMES},
    "traditional_alone": ("3",),
}
#: An option off its preset for the computer players' matches, where a game has one worth playing.
OPTIONS: dict[str, dict[str, int | str]] = {
    "traditional": {"target": 40},
    "generals_goat": {"general_title": "either"},
    "sport": {"sport_deals": 4},
}


@pytest.mark.parametrize("name", TABLES)
def test_a_yard_game_transcript(name: str) -> None:
    game = name.removesuffix("_alone")
    players, *pairs = TABLES[name]
    argv = ("--game", game, "--players", players, *pairs, "--seed", "9", "--ai", "greedy")
    lines = transcript(*argv)
    assert transcript(*argv) == lines
    first, last = lines[0], lines[-1]
    rules = RuleSet.from_dict(first["options"])
    assert first["game"] == game and rules == PRESETS[game]()
    referee = YardReferee(int(players), bool(pairs), rules)
    for line in lines:
        referee.feed(line)
        if line["type"] == "played":
            assert "scored" not in line and isinstance(line["ends"], list)
        elif line["type"] == "round_ended":
            assert {"amounts", "scores", "hand_values", "winner", "fisherman"} <= set(line)
            out = line["result"] == "out"
            if game == "generals_goat":
                assert ({"loser", "general"} <= set(line)) is out
                assert ("outcome" in line) is not out
            else:
                assert not {"loser", "general", "outcome"} & set(line)
            assert ({"eggs", "pot", "pot_awarded_to"} <= set(line)) is (game == "sport")
            assert not {"memory", "opened"} & set(line)
    assert last["type"] == "match_ended" and {"winners", "scores", "losers"} <= set(last)
    assert replay(lines).is_over


def test_the_options_by_their_spelling_from_the_command_line() -> None:
    lines = transcript("--game", "traditional", "--players", "2", "--set", "00_always_25=true")
    assert lines[0]["options"]["00_always_25"] is True


@pytest.mark.parametrize("game", YARD_GAMES)
def test_every_computer_player_plays_every_yard_game(game: str) -> None:
    rules = PRESETS[game]().with_options(**OPTIONS.get(game, {}))
    kinds = {**PLAYERS, "strong": StrongPlayer(playouts=6)}
    doubles = False
    for names in (("random", "greedy", "easy", "strong"), ("strong", "easy", "greedy", "random")):
        ai = [kinds[name] for name in names]
        events = list(play_match(4, game != "traditional", rules, 5, ai))
        ended = events[-1]
        assert isinstance(ended, MatchEnded) and ended.winners is not None
        doubles = doubles or any(isinstance(e, PlayedDoubles) for e in events)
    assert doubles or game != "generals_goat"


def test_generals_goat_numbers_only_the_rounds_that_count() -> None:
    """A fish is dealt again and does not count (§3.10), while the engine numbers the deal
    after it as the next round: the players know each round by its place among those that
    count, a fish sharing its number with the deal that replaces it."""
    game, rules = GAMES["generals_goat"], PRESETS["generals_goat"]()
    fish = 0
    for seed in range(6):
        ended = [
            e
            for e in play_match(4, True, rules, seed, [PLAYERS["greedy"]] * 4)
            if isinstance(e, RoundEnded)
        ]
        counted = 1
        for event in ended:
            assert game.counted_round(event.round, event.scores, event.result) == counted
            counted += event.result == "out"
        fish += sum(event.result == "fish" for event in ended)
    assert fish > 0
    assert GAMES["kozel"].counted_round(3, [40, 12], "fish") == 3
