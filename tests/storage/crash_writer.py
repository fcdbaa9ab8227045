"""Child process of ``test_crash_safety``: plays Kozel on several tables until it is killed.

    python -m tests.storage.crash_writer DB_PATH SEED TABLES

Each table lives in its own chat. A table resumes from its stored event log (so every run
continues where the previous, killed run stopped), plays random legal moves, appends every
move's events with the new snapshot, and when the match is over records it and opens the next
table. Prints ``ready`` once every table is playing, and after every ``append_events`` that
returned, the line ``TABLE_ID FROM_SEQ TO_SEQ DIGEST`` (flushed at once): a promise that events
``FROM_SEQ + 1 .. TO_SEQ``, fingerprinted by :func:`digest`, are committed, so the parent can
check that none of them was lost or changed when it kills this process.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from engine import Match, RuleSet, replay
from engine.seats import side_of
from storage import PlayerResult, Storage


def digest(events: Sequence[Mapping[str, Any]]) -> str:
    """A short fingerprint of events, the same for the dicts written and the dicts loaded."""
    text = json.dumps(list(events), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


async def append(
    storage: Storage, tid: int, seq: int, events: list[dict[str, Any]], match: Match
) -> int:
    """Append, and only once the call has returned tell the parent what is now committed."""
    new_seq = await storage.append_events(tid, seq, events, match.to_json())
    print(tid, seq, new_seq, digest(events), flush=True)
    return new_seq


def results_of(players: int, pairs: bool, final_events: list[dict[str, Any]]) -> list[PlayerResult]:
    """Seat 0 is the chat's human; the rest are computer players."""
    endings = [e for e in final_events if e["type"] == "match_ended"]
    ended: dict[str, Any] = endings[-1] if endings else {}
    scores = ended.get("scores") or [0] * players
    losers = set(ended.get("losers") or [])
    results = []
    for seat in range(players):
        side = side_of(seat, pairs)
        results.append(
            PlayerResult(
                user_id=1 if seat == 0 else None,
                seat=seat,
                side=side,
                score=int(scores[side]) if side < len(scores) else 0,
                outcome="lost" if side in losers else "won",
                rating_delta=0,
            )
        )
    return results


async def play_table(storage: Storage, chat_id: int, seed: int, started: asyncio.Event) -> None:
    rng = random.Random(seed * 7919 + chat_id)
    while True:
        table = await storage.get_active_table(chat_id)
        if table is None:
            players = rng.choice([2, 3, 4])
            pairs = players == 4 and rng.random() < 0.5
            table = await storage.create_table(chat_id, 1, players=players, pairs=pairs)
            table = await storage.update_table(table.table_id, status="playing")
        tid = table.table_id
        if table.last_seq == 0:
            # a low goat limit: short matches, so the killed runs finish some and record them
            rules = RuleSet(goat_limit=31)
            match, new = Match.new(players=table.players, pairs=table.pairs, rules=rules, seed=tid)
            seq = await append(storage, tid, 0, [e.to_dict() for e in new], match)
        else:
            seq = table.last_seq
            match = replay(await storage.load_events(tid))
        started.set()
        last: list[dict[str, Any]] = []
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            action = rng.choice(match.legal_actions(seat))
            last = [e.to_dict() for e in match.act(seat, action)]
            seq = await append(storage, tid, seq, last, match)
        await storage.record_match(
            tid, "goat", match.rounds_played, results_of(table.players, table.pairs, last)
        )


async def main(path: str, seed: int, tables: int) -> None:
    async with await Storage.open(path) as storage:
        await storage.upsert_user(1, "Crash Test Dummy", None, "en")
        for lane in range(tables):
            await storage.upsert_chat(-1000 - lane, f"Lane {lane}", "group")
        started = [asyncio.Event() for _ in range(tables)]
        players = [
            asyncio.create_task(play_table(storage, -1000 - lane, seed, started[lane]))
            for lane in range(tables)
        ]
        try:
            await asyncio.gather(*(s.wait() for s in started))
            print("ready", flush=True)
            await asyncio.gather(*players)  # forever, until SIGKILL
        finally:
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
