"""Random self-play speed of the engine, next to the ``dominoes`` package on the same core.

``python -m benchmarks.bench_engine [--seconds 5] [--slices 5] [--seed 1]`` prints rounds (games)
per second and moves per second, for Kozel and then a line per other game (RULES.md §3.1-§3.11).
Every figure drives the public API the bot uses: ``Match.new`` deals, ``legal_actions`` lists the
moves, ``act`` validates each one, builds its events and applies them, and a round's end is scored
by the real scoring code before the next round is dealt. Whole matches are played, so deals,
redeals and scoring are in the figures, not just placements.

The ``dominoes`` package (``pip install dominoes==6.1.0``, the ``bench`` extra) plays one 4-player
game with random players per ``Game.new()``: 28 tiles, 7 each, no bazaar, which is what a 4-player
Kozel round is, so its games per second and our 4-player rounds per second compare directly.

A last measure times the loop itself with a stand-in that does no work (``LoopOnly``): the
difference is each package's own work per round, and the loop's rate is the ceiling of any engine
driven move by move from Python.

Each measure gets ``--seconds`` of wall time, cut into ``--slices`` taken in turn with the other
measures, so that a busy machine slows all of them alike; the best slice is printed too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from engine import ALL_TILES, DRAW, KNOCK, Action, Match, Play, build
from engine.rules import PRESETS


@dataclass(slots=True)
class Figures:
    """What timed play added up to; ``games`` are rounds for our engine."""

    seconds: float = 0.0
    games: int = 0
    placements: int = 0
    knocks: int = 0
    draws: int = 0
    best: float = 0.0  # games per second in the fastest slice
    #: whatever the measure keeps between slices (its random generator, the next match seed)
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def moves(self) -> int:
        return self.placements + self.knocks + self.draws

    def per_second(self, count: int) -> float:
        return count / self.seconds if self.seconds else 0.0

    def add(self, seconds: float, games: int) -> None:
        self.seconds += seconds
        self.games += games
        self.best = max(self.best, games / seconds)


class LoopOnly:
    """A stand-in for ``Match`` that does no work: one round of ``MOVES`` placements.

    Timing the benchmark's own loop (``rng.choice`` of the legal actions, the calls, the counting)
    with it gives the ceiling any engine could reach through a per-move Python API on this machine.
    """

    MOVES = 25  # about what a random 4-player Kozel round takes
    _LEGAL: ClassVar[list[Action]] = [Play(ALL_TILES[1]), Play(ALL_TILES[2])]

    def __init__(self) -> None:
        self.current_seat: int | None = 0
        self.rounds_played = 1
        self._moves = 0

    @classmethod
    def new(cls, players: int, seed: int) -> tuple[LoopOnly, list[object]]:
        return cls(), []

    def legal_actions(self, seat: int) -> list[Action]:
        return self._LEGAL

    def act(self, seat: int, action: Action) -> list[object]:
        self._moves += 1
        self.current_seat = None if self._moves == self.MOVES else (seat + 1) % 4
        return [action]


def engine_slice(
    players: int, new_match: Callable[..., tuple[Any, Any]] = Match.new
) -> Callable[[Figures, float], None]:
    """Whole matches between uniformly random players, for at least ``seconds``.

    The clock is read between matches, so the figures cover whole matches only.
    """

    def run(fig: Figures, seconds: float) -> None:
        rng: random.Random = fig.state.setdefault("rng", random.Random(fig.state["seed"]))
        match_seed: int = fig.state.setdefault("match_seed", fig.state["seed"])
        moves = knocks = draws = rounds = 0
        start = now = time.perf_counter()
        while now - start < seconds:
            match, _ = new_match(players, seed=match_seed)
            match_seed += 1
            while (seat := match.current_seat) is not None:  # None once the match is over
                action = rng.choice(match.legal_actions(seat))
                match.act(seat, action)
                # Counted as cheaply as Python can: dominoes' figures cost its loop nothing (they
                # are read off the game's own record afterwards), so ours should cost little too.
                moves += 1
                if action is KNOCK:
                    knocks += 1
                elif action is DRAW:
                    draws += 1
            rounds += match.rounds_played
            now = time.perf_counter()
        fig.state["match_seed"] = match_seed
        fig.placements += moves - knocks - draws
        fig.knocks += knocks
        fig.draws += draws
        fig.add(now - start, rounds)

    return run


def dominoes_slice(fig: Figures, seconds: float) -> None:
    """Games of the ``dominoes`` package between random players, for at least ``seconds``."""
    import dominoes  # noqa: PLC0415 - optional: only this measure needs it

    if "rng" not in fig.state:
        random.seed(fig.state["seed"])  # dominoes deals with the global generator
    rng: random.Random = fig.state.setdefault("rng", random.Random(fig.state["seed"]))
    games = 0
    start = now = time.perf_counter()
    while now - start < seconds:
        for _ in range(50):  # between clock reads: a game takes about a tenth of a millisecond
            g = dominoes.Game.new()
            while g.result is None:
                g.make_move(*rng.choice(g.valid_moves))
            games += 1
            moves = g.moves
            passes = moves.count(None)  # the package records a pass as None
            fig.knocks += passes
            fig.placements += len(moves) - passes
        now = time.perf_counter()
    fig.add(now - start, games)


def describe(label: str, unit: str, fig: Figures) -> str:
    rates = [
        f"placements {fig.per_second(fig.placements):,.0f}/s",
        f"knocks {fig.per_second(fig.knocks):,.0f}/s",
    ]
    if fig.draws:
        rates.append(f"draws {fig.per_second(fig.draws):,.0f}/s")
    return (
        f"{label:<34}{fig.per_second(fig.games):>8,.0f} {unit}/s (best slice {fig.best:,.0f})"
        f"{fig.per_second(fig.moves):>10,.0f} moves/s ({', '.join(rates)})"
        f"  [{fig.games:,} {unit} in {fig.seconds:.1f} s]"
    )


def dominoes_installed() -> bool:
    try:
        import dominoes  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


#: The games besides Kozel (RULES.md §3.2-§3.9) from their presets, each at a table it is played
#: at.
SCORING_TABLES = {
    "telephone": 4,
    "telephone_ua": 2,
    "muggins": 4,
    "all_threes": 3,
    "bulgarian_fives": 2,
    "english_fives": 4,
    "donkey": 4,
    "sea_goat": 4,
}

#: The line games of RULES.md §3.1, §3.10 and §3.11: the table each is played at, in pairs or not.
YARD_TABLES = {
    "traditional": (4, False),
    "generals_goat": (4, True),
    "sport": (4, True),
}

MEASURES = {
    "ours4": ("kozel engine, 4 players", "rounds", engine_slice(4)),
    "ours2": ("kozel engine, 2 players (bazaar)", "rounds", engine_slice(2)),
    "dominoes": ("dominoes 6.1.0, 4 players", "games", dominoes_slice),
    "loop": ("the loop alone (no engine)", "rounds", engine_slice(4, LoopOnly.new)),
    **{
        game: (
            f"{game}, {players} players",
            "rounds",
            engine_slice(players, partial(Match.new, rules=PRESETS[game]())),
        )
        for game, players in SCORING_TABLES.items()
    },
    **{
        game: (
            f"{game}, {players} players{' in pairs' if pairs else ''}",
            "rounds",
            engine_slice(players, partial(Match.new, pairs=pairs, rules=PRESETS[game]())),
        )
        for game, (players, pairs) in YARD_TABLES.items()
    },
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per measure")
    parser.add_argument("--slices", type=int, default=5, help="taken in turn between measures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=tuple(MEASURES), action="append", help="this measure")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.seconds <= 0 or args.slices < 1:
        parser.error("--seconds must be positive and --slices at least 1")
    wanted = [name for name in MEASURES if name in (args.only or MEASURES)]
    if "dominoes" in wanted and not dominoes_installed():
        print("dominoes is not installed (pip install dominoes==6.1.0): measuring without it")
        wanted.remove("dominoes")

    print(
        f"Python {sys.version.split()[0]}, one core, uniformly random players, "
        f"{args.seconds:g} s per measure in {args.slices} slices; {build.describe()}"
    )
    figures = {name: Figures(state={"seed": args.seed}) for name in wanted}
    for _ in range(args.slices):
        for name in wanted:
            MEASURES[name][2](figures[name], args.seconds / args.slices)
    for name in wanted:
        label, unit, _run = MEASURES[name]
        print(describe(label, unit, figures[name]))
    if "ours4" in figures and "dominoes" in figures:
        ours, theirs = figures["ours4"], figures["dominoes"]
        ratio = ours.per_second(ours.games) / theirs.per_second(theirs.games)
        print(
            f"4-player rounds/s, ours / dominoes games/s: {ratio:.2f}x"
            f" (best slices: {ours.best / theirs.best:.2f}x)"
        )
        if "loop" in figures:
            loop_us = 1e6 / figures["loop"].per_second(figures["loop"].games)
            ours_us = 1e6 / ours.per_second(ours.games)
            theirs_us = 1e6 / theirs.per_second(theirs.games)
            print(
                f"the loop alone (no engine) would be {theirs_us / loop_us:.2f}x; work per 4-player"
                f" round beyond the loop: ours {ours_us - loop_us:.1f} µs,"
                f" dominoes {theirs_us - loop_us:.1f} µs"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
