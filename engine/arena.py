"""Many matches between computer players, to tell how strong each kind is.

Seats rotate from match to match (match i seats kind ``names[(seat + i) % players]``), so every kind
plays from every seat and leads as often; in pairs, name partners two apart
(``strong,greedy,strong,greedy``) and they stay partners.
Everything is deterministic given the seed except the timings, which are CPU time of this thread
(one core), so a loaded machine slows them less than the clock on the wall.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from .actions import Action
from .ai import PLAYERS, Player
from .events import Event, MatchEnded
from .match import Match
from .rules import RuleSet
from .selfplay import play_match

Z95 = 1.96


@dataclass
class Record:
    """How one kind of player fared, counted once per side it held in a match."""

    entries: int = 0
    #: Matches lost: as the goat in Kozel, by not reaching the target first in the other games.
    goats: int = 0
    won: int = 0
    points: list[int] = field(default_factory=list)
    #: CPU seconds of each decision that had a choice (a forced move costs no search).
    times: list[float] = field(default_factory=list)
    forced: int = 0


def match_seeds(seed: int, matches: int, repeat: int = 1) -> Iterator[int]:
    """The seed of each match; each of them ``repeat`` times in a row."""
    rng = random.Random(seed)
    for i in range(matches):
        if i % repeat == 0:
            deal = rng.getrandbits(32)
        yield deal


@dataclass
class Timed:
    """A player whose decisions are timed into ``record``."""

    player: Player
    record: Record

    def __call__(
        self, match: Match, seat: int, rng: random.Random, events: Sequence[Event] = ()
    ) -> Action:
        choice = len(match.legal_actions(seat)) > 1
        started = time.thread_time()
        action = self.player(match, seat, rng, events)
        if choice:
            self.record.times.append(time.thread_time() - started)
        else:
            self.record.forced += 1
        return action


def seating(names: Sequence[str], match_index: int) -> list[str]:
    """Who sits where in the match ``match_index``: the names rotated by one seat a match."""
    return [names[(s + match_index) % len(names)] for s in range(len(names))]


def seatings(names: Sequence[str]) -> int:
    """How many different seatings the rotation of ``names`` makes: with ``same_deals`` each
    deal is played in every one of them."""
    return len({tuple(seating(names, i)) for i in range(len(names))})


def play_arena(
    players: int,
    pairs: bool,
    rules: RuleSet,
    names: Sequence[str],
    *,
    matches: int,
    seed: int,
    same_deals: bool = False,
) -> dict[str, Record]:
    """Play ``matches`` matches, seats rotated; a record per kind, in the order first named.
    With ``same_deals``, each match's deals are played again in every other seating, so that
    no kind is dealt better tiles than another (duplicate play)."""
    records = {name: Record() for name in names}
    table = Match(players, pairs, rules, seed)  # only asked which side a seat is on
    repeat = seatings(names) if same_deals else 1
    for i, match_seed in enumerate(match_seeds(seed, matches, repeat)):
        seated = seating(names, i)
        timed = [Timed(PLAYERS[kind], records[kind]) for kind in seated]
        *_, ended = play_match(players, pairs, rules, match_seed, timed)
        assert isinstance(ended, MatchEnded)
        scores = ended.scores
        for side, kind in sorted({(table.side_of(s), seated[s]) for s in range(players)}):
            record = records[kind]
            record.entries += 1
            record.points.append(scores[side])
            if side in ended.losers:
                record.goats += 1
            elif ended.winners is not None:  # a game that names its winners (names_winners)
                record.won += side in ended.winners
            elif pairs or scores[side] == min(scores):
                record.won += 1
    return records


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[int]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, 0.0)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, Z95 * math.sqrt(variance / n))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def report(records: dict[str, Record], out: TextIO) -> None:
    """One line per kind: goat and won rates with 95% intervals, mean final points, and the CPU
    time of its decisions that had a choice."""
    out.write(
        f"{'player':<8} {'sides':>5}  {'goat':<22} {'won':<22} {'mean points':<14} "
        f"{'choices':>7} {'forced':>6}  ms p50 / p99 / max\n"
    )
    for name, r in records.items():
        times = sorted(r.times)
        mean, half = mean_interval(r.points)
        ms = " / ".join(f"{1000 * percentile(times, q):.1f}" for q in (50, 99, 100))
        out.write(
            f"{name:<8} {r.entries:>5}  {_rate(r.goats, r.entries):<22} "
            f"{_rate(r.won, r.entries):<22} {f'{mean:.1f} ± {half:.1f}':<14} "
            f"{len(times):>7} {r.forced:>6}  {ms}\n"
        )


def _rate(hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    share = hits / n if n else 0.0
    return f"{hits} {100 * share:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"
