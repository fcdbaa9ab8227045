"""How strong the computer players are in every game the bot offers, and how long they think.

``python -m benchmarks.bench_ai_games [--game NAME ...] [--matches 24] [--seed 1]
[--versus strong:greedy greedy:random] [--seconds 180]`` plays, per game at the table it is
played at (``bench_engine.SCORING_TABLES``, ``YARD_TABLES``; Kozel by four), one player of the
first kind against the others of the second (a pair against a pair where the game is played in
pairs) through the arena, seats rotated and every deal played in every seating. It prints a line
per game: the matches played, how often the first kind won the match (the game's own measure:
reaching the target first, not being the goat, the fewest points in Kozel), with its 95% interval
and what an equal player would win, and the CPU time of its decisions that had a choice (p50 / p99
/ max, ms). ``--seconds`` bounds each line: it stops after the seating round in which its time ran
out, and says how many matches it played. The goal for ``strong``: clearly above the equal share,
p99 under 300 ms and max under 1 s on the plain-Python engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import build
from engine.arena import Record, percentile, play_arena, seatings, wilson
from engine.games import game_of
from engine.rules import PRESETS

from .bench_engine import SCORING_TABLES, YARD_TABLES

#: Every game the bot offers and its table: (players, pairs).
TABLES: dict[str, tuple[int, bool]] = {
    "kozel": (4, False),
    **{game: (players, False) for game, players in SCORING_TABLES.items()},
    "traditional": YARD_TABLES["traditional"],
    "traditional_ht": YARD_TABLES["traditional"],
    "generals_goat": YARD_TABLES["generals_goat"],
    "sport": YARD_TABLES["sport"],
}


@dataclass(frozen=True)
class Line:
    """One kind's figures in one game."""

    matches: int
    record: Record
    #: Whether winning is reaching the target first; else it is not losing (not being the goat).
    to_target: bool
    equal: float

    def __str__(self) -> str:
        r = self.record
        won = r.won if self.to_target else r.entries - r.goats
        low, high = wilson(won, r.entries)
        times = sorted(r.times)
        ms = " / ".join(f"{1000 * percentile(times, q):.0f}" for q in (50, 99, 100))
        return (
            f"{self.matches:>4} {100 * won / r.entries:5.1f}% [{100 * low:4.1f}-{100 * high:4.1f}]"
            f" (equal {100 * self.equal:.0f}%)  {len(times):>5} choices  ms {ms}"
        )


def measure(game: str, first: str, second: str, *, matches: int, seed: int, seconds: float) -> Line:
    """``first`` against ``second`` in ``game``: batches of one deal in every seating, until
    ``matches`` or ``seconds`` run out."""
    players, pairs = TABLES[game]
    names = [first, second] * 2 if pairs else [first] + [second] * (players - 1)
    batch = seatings(names)
    total = Record()
    played = 0
    started = time.monotonic()
    rules = PRESETS[game]()
    while played < matches and time.monotonic() - started < seconds:
        records = play_arena(
            players, pairs, rules, names, matches=batch, seed=seed + played, same_deals=True
        )
        record = records[first]
        total.entries += record.entries
        total.goats += record.goats
        total.won += record.won
        total.times += record.times
        played += batch
    to_target = game_of(rules).wins_at_target
    equal = 0.5 if pairs else (1 / players if to_target else 1 - 1 / players)
    return Line(played, total, to_target, equal)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_ai_games", description=__doc__
    )
    parser.add_argument("--game", choices=tuple(TABLES), action="append", help="only this game")
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=180.0, help="wall time per line at most")
    parser.add_argument(
        "--versus", nargs="+", default=["strong:greedy", "greedy:random"], metavar="A:B"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    print(f"Python {sys.version.split()[0]}, {build.describe()}")
    print(f"{'game':<16} {'table':<10} {'who':<16} matches  won [95%]  ...")
    for game in args.game or TABLES:
        players, pairs = TABLES[game]
        for versus in args.versus:
            first, _, second = versus.partition(":")
            line = measure(
                game, first, second, matches=args.matches, seed=args.seed, seconds=args.seconds
            )
            table = f"{players}{' pairs' if pairs else ''}"
            print(f"{game:<16} {table:<10} {first + ' v ' + second:<16} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
