"""How long the computer players think, on one core: CPU time per decision that had a choice.

``python -m benchmarks.bench_ai [--matches 20] [--seed 1] [--pairs]`` plays ``strong`` against
three ``greedy`` players (or a ``strong`` pair against a ``greedy`` pair) through the arena and
prints its table; the last column is the time per decision (p50 / p99 / max, milliseconds). The
goal for ``strong`` is p99 under 300 ms and max under 1 s on the plain-Python engine. The load
average is printed too: CPU time grows a little on a busy machine (shared caches), not as much as
the time on the wall.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine import RuleSet, build
from engine.arena import play_arena, report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_ai", description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", action="store_true")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    names = ["strong", "greedy", "strong", "greedy"] if args.pairs else ["strong"] + ["greedy"] * 3
    print(f"Python {sys.version.split()[0]}, {build.describe()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    records = play_arena(4, args.pairs, RuleSet(), names, matches=args.matches, seed=args.seed)
    report(records, sys.stdout)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
