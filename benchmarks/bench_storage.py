"""How many moves per second can one Storage commit, and how long does one append take?

Drives N concurrent tables through ONE :class:`storage.Storage` on a file database in a temp
directory; a move is one ~150-byte event plus a ~2 KB snapshot, as in a real game. Two loads:

* ``saturated``: every table appends as fast as it can (closed loop: the next append starts
  when the previous one returned). This measures the most moves/s one Storage can commit.
  Latency here is not a property of the storage but of the queue: by Little's law it is about
  N / throughput, so 1,000 tables hammering at 10,000 moves/s wait ~100 ms each.
* ``offered``: the tables together offer ``--rate`` moves/s (default 1,000) at random
  (Poisson) moments, like players who think between moves. This measures the latency a player
  sees at a given load, which is what the goal is about.

Prints committed moves/s and the p50/p99 latency of one ``append_events`` call, for each N;
``--compare`` repeats every run without group commit (the before/after of that choice).

    python -m benchmarks.bench_storage                 # N = 10, 100, 1000; 3 s per run
    python -m benchmarks.bench_storage --tables 1000 --seconds 5 --compare

Goal: >= 1,000 moves/s with 1,000 active tables and p99 < 20 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage import Storage

TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def realistic_event(seq: int, rng: random.Random) -> dict[str, Any]:
    """A ``played`` event padded to the ~150 bytes the brief asks for."""
    return {
        "type": "played",
        "round": 1 + seq // 30,
        "seat": seq % 4,
        "tile": rng.choice(TILES),
        "end": rng.choice(["left", "right"]),
        "ends": [rng.randrange(7), rng.randrange(7)],
        "by_user": 100_000_000 + seq % 4,
        "at": 1_700_000_000.123 + seq,
        "hand_left": rng.randrange(7),
        "bazaar_left": rng.randrange(14),
    }


def realistic_snapshot(seq: int, rng: random.Random) -> dict[str, Any]:
    """A match state shaped like ``engine.Match.to_json()``, about 2 KB of JSON."""
    tiles = TILES[:]
    rng.shuffle(tiles)
    return {
        "players": 4,
        "pairs": True,
        "rules": {
            "game": "kozel",
            "kozel_hand_sizes": "default",
            "redeal_rule": "doubles_or_suit",
            "first_lead": "chain_1_1",
            "draw_mode": "until_playable",
            "bazaar_reserve": 0,
            "next_lead": "winner",
            "lead_tile": "any",
            "restart_1_1_after_unrecorded": False,
            "lone_00": 10,
            "lone_66": 12,
            "special_bones": False,
            "fish_mode": "for_one",
            "eggs": "pot_to_max_next",
            "memory": "remember",
            "goat_limit": 101,
            "fish_closure_rule": True,
        },
        "seed": 7,
        "round": {
            "number": 1 + seq // 30,
            "hands": [tiles[i * 7 : i * 7 + 7] for i in range(4)],
            "bazaar": [],
            "line": [{"tile": t, "end": "left", "ends": [1, 2]} for t in tiles[:26]],
            "turn": seq % 4,
            "leader": 0,
            "lead_tiles": ["1-1"],
            "passes": 0,
            "last_placer": (seq + 3) % 4,
            "outcome": None,
        },
        "rounds_played": seq // 30,
        "scores": [rng.randrange(100), rng.randrange(100)],
        "memory": [0, 0],
        "opened": [True, False],
        "pot": 0,
        "next_leader": None,
        "restart_chain": False,
        "over": False,
        "losers": [],
        "ended_by": None,
        "events_applied": seq,
    }


@dataclass
class Result:
    tables: int
    group_commit: bool
    load: str
    moves: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def percentile(self, p: float) -> float:
        if len(self.latencies_ms) < 2:
            return self.latencies_ms[0] if self.latencies_ms else float("nan")
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[int(p) - 1]


async def run_one(
    tables: int, seconds: float, group_commit: bool, warmup: float, rate: float | None
) -> Result:
    """One measurement on a fresh database: N tables, ``seconds`` after a warm-up.

    ``rate`` is the moves/s all tables offer together; ``None`` means as fast as possible.
    """
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as tmp:
        storage = await Storage.open(Path(tmp) / "bench.sqlite3", group_commit=group_commit)
        try:
            ids: list[int] = []
            for i in range(tables):
                chat_id = -1_000_000 - i
                await storage.upsert_chat(chat_id, f"Chat {i}", "supergroup")
                await storage.upsert_user(i + 1, f"Player {i}", None, "en")
                row = await storage.create_table(chat_id, i + 1, players=4, pairs=True)
                await storage.update_table(row.table_id, status="playing")
                ids.append(row.table_id)

            latencies: list[float] = []
            moves = 0
            measuring = False
            stop = False

            async def play(table_id: int) -> None:
                nonlocal moves
                rng = random.Random(table_id)
                seq = 0
                loop = asyncio.get_running_loop()
                due = loop.time()
                while not stop:
                    if rate is not None:
                        # Poisson arrivals on an absolute timeline: a slow append delays the
                        # next move but does not lower the offered rate.
                        due += rng.expovariate(rate / tables)
                        await asyncio.sleep(max(0.0, due - loop.time()))
                    event = realistic_event(seq, rng)
                    snapshot = realistic_snapshot(seq, rng)
                    started = time.perf_counter()
                    seq = await storage.append_events(table_id, seq, [event], snapshot)
                    if measuring:
                        latencies.append((time.perf_counter() - started) * 1000)
                        moves += 1

            tasks = [asyncio.create_task(play(t)) for t in ids]
            await asyncio.sleep(warmup)
            measuring = True
            began = time.perf_counter()
            await asyncio.sleep(seconds)
            measuring = False
            elapsed = time.perf_counter() - began
            stop = True
            await asyncio.gather(*tasks)
            load = "saturated" if rate is None else f"offered {rate:,.0f}/s"
            return Result(tables, group_commit, load, moves, elapsed, latencies)
        finally:
            await storage.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument(
        "--rate", type=float, default=1000.0, help="moves/s offered by all tables together"
    )
    parser.add_argument(
        "--compare", action="store_true", help="also run without group commit (before/after)"
    )
    args = parser.parse_args(argv)
    modes = [True, False] if args.compare else [True]
    print(
        f"{'tables':>6}  {'load':<16} {'group commit':>12} {'moves/s':>9} {'p50 ms':>8} "
        f"{'p99 ms':>8} {'max ms':>8}"
    )
    for n in args.tables:
        for rate in (None, args.rate):
            for group_commit in modes:
                r = asyncio.run(run_one(n, args.seconds, group_commit, args.warmup, rate))
                print(
                    f"{n:>6}  {r.load:<16} {'on' if group_commit else 'off':>12} "
                    f"{r.rate:>9,.0f} {r.percentile(50):>8.2f} {r.percentile(99):>8.2f} "
                    f"{max(r.latencies_ms, default=float('nan')):>8.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
