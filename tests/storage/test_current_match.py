"""The current match in a chat, read from the snapshot of a table the real engine plays."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import Match
from storage import CorruptData, CurrentMatch, PlayerResult, Storage

from .conftest import seed_chat


def engine_says(match: Match) -> tuple[Any, ...]:
    t = match.tally
    return (
        match.rounds_played,
        t.scores,
        t.memory,
        t.opened,
        t.pot,
        match.current_seat,
        match.over,
    )


def storage_says(current: CurrentMatch) -> tuple[Any, ...]:
    c = current
    return (c.rounds_played, c.scores, c.memory, c.opened, c.pot, c.turn, c.over)


# Seed 6 plays a match with points remembered before opening and eggs in the pot on the way.
SEED = 18


async def start_match(storage: Storage) -> tuple[int, Match]:
    """Chat -100: four players in pairs (a computer in seat 3), the first round dealt."""
    await seed_chat(storage, -100, 1, 2, 3)
    table = await storage.create_table(-100, 1, players=4, pairs=True)
    tid = table.table_id
    for seat, user_id in enumerate([1, 2, 3]):
        await storage.add_seat(tid, seat, side=seat % 2, user_id=user_id)
    await storage.add_seat(tid, 3, side=1, ai="greedy")
    await storage.update_table(tid, status="playing")
    match, events = Match.new(players=4, pairs=True, seed=SEED)
    await storage.append_events(tid, 0, [e.to_dict() for e in events], match.to_json())
    return tid, match


async def test_it_follows_the_engine_move_by_move(storage: Storage) -> None:
    tid, match = await start_match(storage)
    rng = random.Random(SEED)
    seq = match.events_applied
    seen: list[CurrentMatch] = []
    while True:
        current = await storage.current_match(-100)
        assert current is not None
        assert storage_says(current) == engine_says(match)
        assert (current.table.table_id, current.seq) == (tid, seq)
        seen.append(current)
        if match.over:
            break
        seat = match.current_seat
        assert seat is not None
        events = match.act(seat, rng.choice(match.legal_actions(seat)))
        seq = await storage.append_events(tid, seq, [e.to_dict() for e in events], match.to_json())

    assert [(s.seat, s.user_id, s.ai) for s in seen[0].seats] == [
        (0, 1, None),
        (1, 2, None),
        (2, 3, None),
        (3, None, "greedy"),
    ]
    # The match went through all /standings must show: rounds, points remembered before a
    # side opened, eggs in the pot, written scores, turns passing, the end with nobody to move.
    assert seen[-1].rounds_played >= 3
    assert any(any(c.memory) for c in seen), "no points were remembered: pick another seed"
    assert any(c.pot for c in seen), "the pot never filled: pick another seed"
    assert seen[-1].opened == (True, True) and max(seen[-1].scores) >= 101
    assert {c.turn for c in seen} == {0, 1, 2, 3, None}
    assert seen[-1].over and seen[-1].turn is None


async def test_no_match_without_a_dealt_round_in_play(storage: Storage) -> None:
    assert await storage.current_match(-100) is None  # unknown chat
    await seed_chat(storage, -100, 1, 2)
    table = await storage.create_table(-100, 1, players=2)
    assert await storage.current_match(-100) is None  # nothing dealt yet
    match, events = Match.new(players=2, seed=1)
    await storage.append_events(table.table_id, 0, [e.to_dict() for e in events], match.to_json())
    assert await storage.current_match(-100) is not None
    await storage.record_match(
        table.table_id,
        "goat",
        0,
        [PlayerResult(1, 0, 0, 0, False, True), PlayerResult(2, 1, 1, 0, True, False)],
    )
    assert await storage.current_match(-100) is None  # finished: no longer current


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda s: s.pop("pot"), "'pot' is missing"),
        (lambda s: s.update(pot=True), "pot is True, not int"),
        (
            lambda s: s.update(scores=[0, 0, 0]),
            r"scores is \[0, 0, 0\], not one value for each of 2",
        ),
        (lambda s: s.update(opened=[0, 1]), "opened is 0, not bool"),
        (lambda s: s["round"].update(turn=4), "turn 4 is not a seat of a 4-player table"),
        (lambda s: s.update(round="dealt"), "string indices must be integers"),
    ],
)
async def test_a_snapshot_that_is_not_a_match_is_reported(
    storage: Storage, damage: Callable[[dict[str, Any]], object], message: str
) -> None:
    tid, match = await start_match(storage)
    state = match.to_json()
    damage(state)
    await storage.append_events(tid, match.events_applied, [{"type": "noted"}], state)
    with pytest.raises(
        CorruptData, match=f"^table {tid}: snapshot at seq {match.events_applied + 1}: {message}"
    ):
        await storage.current_match(-100)
