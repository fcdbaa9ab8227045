"""A deploy that changes the rules never damages the matches in play in a database: each is
loaded as the bot loads it, finishes under the rules it started with or goes on under the new
ones as the change's policy says, and is played to the goat (``engine/revisions.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import TableService
from bot.settings import Settings
from engine import Match, replay
from engine.events import RulesUpgraded
from engine.revisions import Policy
from storage import Storage
from tests.engine.rule_change import NEXT, SIX, deploy_six_tile_hands

TABLES = [(2, False), (3, False), (4, True)]  # players, pairs
MOVES_BEFORE = 5  # a round is under way when the deploy lands


async def store_matches_in_play(database: Path) -> list[int]:
    """Tables of computer players with a match in play, stored as the bot stores them: the
    events so far and a snapshot. Returns the table ids."""
    ids = []
    async with await Storage.open(database) as storage:
        for n, (players, pairs) in enumerate(TABLES):
            chat = -1000 - n
            await storage.upsert_chat(chat, f"Courtyard {n}", "group")
            await storage.upsert_user(n + 1, f"Opener {n}", None, "en")
            row = await storage.create_table(chat, n + 1, players=players, pairs=pairs)
            for seat in range(players):
                side = seat % 2 if pairs else seat
                await storage.add_seat(row.table_id, seat, side=side, ai="greedy")
            await storage.update_table(row.table_id, status="playing")
            match, events = Match.new(players, pairs, seed=n)
            for _ in range(MOVES_BEFORE):
                seat_now = match.current_seat
                assert seat_now is not None
                events += match.act(seat_now, match.legal_actions(seat_now)[0])
            assert not match.is_over and match.round is not None and match.round.hands[0]
            await storage.append_events(
                row.table_id, 0, [e.to_dict() for e in events], match.to_json()
            )
            ids.append(row.table_id)
    return ids


def service_on(storage: Storage, database: Path) -> TableService:
    """The bot's table service; its computer players think in this process, whose engine
    knows the deployed change."""
    settings = Settings.model_validate(
        {"bot_token": "1:test", "database": database, "computer_workers": 0}
    )
    return TableService(storage, settings, random.Random(7))


def dealt(log: list[dict[str, object]]) -> list[int]:
    """How many tiles each round dealt to its first seat, in order."""
    rounds = [e for e in log if e["type"] == "round_started"]
    return [len(r["hands"][0]) for r in rounds]  # type: ignore[index]


@pytest.mark.parametrize("policy", ["finish", "continue"])
async def test_matches_in_play_survive_a_rule_change_and_play_to_the_goat(
    policy: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "kozel.sqlite3"
    ids = await store_matches_in_play(database)
    deploy_six_tile_hands(monkeypatch, policy)

    async with await Storage.open(database) as storage:
        service = service_on(storage, database)
        for table_id in ids:
            before = await storage.load_events(table_id)
            table = await service.store.table(table_id)
            assert table is not None and table.match is not None
            loaded = await storage.load_events(table_id)
            if policy == "continue":
                assert loaded == [*before, RulesUpgraded(NEXT).to_dict()]
            else:
                assert loaded == before
            while not table.match.is_over:
                assert await service.player.computer_move(table)
            assert table.match.ended_by == "goat"

    async with await Storage.open(database) as storage:
        for table_id in ids:
            log = await storage.load_events(table_id)
            rounds_before = sum(e["type"] == "round_started" for e in before_upgrade(log))
            sizes = dealt(log)
            if policy == "finish":
                assert set(sizes) == {7}
            else:
                assert set(sizes[:rounds_before]) == {7} and set(sizes[rounds_before:]) == {SIX}
            # a later restart rebuilds the same match, and finds nothing more to upgrade
            match = replay(log)
            assert match.is_over and match.upgrade() == []
            snapshot = await storage.load_snapshot(table_id)
            assert snapshot is not None and snapshot[1] == match.to_json()
            assert match.rules.revision == (NEXT if policy == "continue" else NEXT - 1)


def before_upgrade(log: list[dict[str, object]]) -> list[dict[str, object]]:
    """The log up to its ``rules_upgraded`` event, or all of it."""
    types = [e["type"] for e in log]
    return log[: types.index("rules_upgraded")] if "rules_upgraded" in types else log
