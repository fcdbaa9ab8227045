"""Where computer players think: worker processes, so that a search never blocks the event loop.

A decision goes to a worker as plain data (the match's JSON, the seat, the round's events as
dicts, the level's name and a seed) and comes back as the index of the chosen action among the
match's legal actions, which the engine lists in the same order on both sides. The seed comes
from the match (its own seed and how many events it has applied), so the same position gets the
same decision, after a restart too. A forced move (one legal action) is played without asking.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import Action, Event, Match, event_from_dict
from engine.ai import PLAYERS, greedy_player

log = logging.getLogger(__name__)
#: Forked from a small server process that has the engine loaded already, rather than from the
#: bot (whose threads a fork would copy mid-step) or started afresh (slow to import).
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload([__name__])


def decision_seed(match: Match) -> int:
    """The seed of the decision at this point of the match."""
    return random.Random(f"{match.seed}:{match.events_applied}").getrandbits(64)


def decide(
    level: str, state: dict[str, Any], seat: int, events: list[dict[str, Any]], seed: int
) -> int:
    """In a worker: the index, among the legal actions, of the one ``level`` plays."""
    match = Match.from_json(state)
    rng = random.Random(seed)
    action = PLAYERS[level](match, seat, rng, [event_from_dict(e) for e in events])
    return match.legal_actions(seat).index(action)


class Thinker:
    """A pool of ``workers`` processes, started with the bot and shut down when it stops; its
    processes start at the first decision. ``initializer`` runs in each (tests register players
    there). With no workers, decisions are made in this process, blocking it meanwhile: for
    tests that change the engine in this process only."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        self.workers = workers
        self.initializer = initializer
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor | None:
        if not self.workers:
            return None
        return ProcessPoolExecutor(self.workers, mp_context=_CONTEXT, initializer=self.initializer)

    async def choose(self, level: str, match: Match, seat: int, events: Sequence[Event]) -> Action:
        """What the computer player of ``level`` plays for ``seat``; the caller's lock on the
        table stays held meanwhile, and the event loop is free for other tables."""
        actions = match.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        seed = decision_seed(match)
        work = (level, match.to_json(), seat, [e.to_dict() for e in events], seed)
        if self._pool is None:
            return actions[decide(*work)]
        loop = asyncio.get_running_loop()
        try:
            return actions[await loop.run_in_executor(self._pool, decide, *work)]
        except BrokenProcessPool:
            log.exception("the computer players' worker pool broke; greedy plays this move")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return greedy_player(match, seat, random.Random(seed), events)

    def close(self) -> None:
        """Stop the workers, after the decision they are making, if any."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
