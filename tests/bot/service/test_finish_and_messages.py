"""What a finished match records, and which messages a table remembers for a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from typing import Any, get_args

import pytest

from bot.service import TableService
from bot.service.finish import ENDED_BY, results
from bot.settings import Settings
from bot.table import Table
from engine.events import MatchEndedBy
from storage import Storage, TableRow

from .conftest import MASHA, lobby_of, playing


async def test_a_match_ended_by_timeout_is_rated_against_whoever_stopped_playing(
    service: TableService,
) -> None:
    table = await playing(service)
    assert table.dropped_out() is None
    table.seats[0].absent = True
    assert table.dropped_out() == (0, {0})
    await service.timeouts.abandon(table, table.seats[1])
    assert table.dropped_out() == (1, {0, 1})  # the seat whose timeout ended it
    assert {r.seat: r.rating_delta for r in results(table)} == {0: 0, 1: 0}
    assert table.status == "finished"


async def test_message_ids_and_announcements_are_stored(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    await service.messages.remember_board(table, 42)
    await service.messages.remember_lobby(table, 41)
    await service.messages.remember_hand(table, table.seats[0], 43)
    await service.messages.mark_announced(table, table.seq)
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.board_message_id, stored.lobby_message_id) == (42, 41)
    assert stored.announced_seq == table.seq
    assert (await storage.get_seats(table.id))[0].hand_message_id == 43
    assert await service.store.unannounced(table) == []
    assert table.seats[0].user_id == MASHA


async def test_a_lobby_posted_while_a_setting_changes_keeps_its_message(
    service: TableService, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group's outbox posted the lobby (and remembered its message, outside the table's
    lock) while a setting was being written under the lock: the setting's row, read before,
    replaced the table's in memory without the lobby's message, so the next redraw posted a
    second lobby (the first one's buttons still live). Storage kept it; now memory does too."""
    table = await lobby_of(service)
    written = asyncio.Event()
    go_on = asyncio.Event()
    update_table = storage.update_table

    async def slow(table_id: int, /, **fields: Any) -> TableRow:
        row = await update_table(table_id, **fields)
        if "turn_seconds" in fields:
            written.set()
            await go_on.wait()
        return row

    monkeypatch.setattr(storage, "update_table", slow)
    setting = asyncio.create_task(service.lobby.change_setting(table, "turn_seconds", 90))
    await written.wait()
    await service.messages.remember_lobby(table, 41)
    go_on.set()
    await setting
    assert (table.lobby_message_id, table.turn_seconds) == (41, 90)


@pytest.mark.parametrize("ended_by", ["instant_win", "two_doubles"])
async def test_a_match_a_game_ends_its_own_way_is_recorded_as_won_by_rule(
    service: TableService, storage: Storage, ended_by: MatchEndedBy
) -> None:
    """Sea Goat's instant win on 0-0 / 6-6 (and the other games' own ends) once failed to record
    for want of a storage category: the table stayed in play."""
    table = await lobby_of(service)
    await service.lobby.change_game(table, "sea_goat")
    await service.player.start(table)
    match = table.match
    assert match is not None
    match.winners, match.losers, match.ended_by, match.over = [0], [1], ended_by, True
    await service.finisher.record(table)
    assert table.status == "finished"
    (recorded,) = await storage.recent_matches(MASHA, limit=1)
    assert (recorded.game, recorded.ended_by) == ("sea_goat", "target")


async def test_sea_goat_is_rated_against_its_own_target(service: TableService) -> None:
    """Sea Goat plays to ``sg_target`` (125), not to the scoring games' ``target`` (100): a win
    by 110 points is 8.8 tenths of its target, so +9 and -9, where 100 once made it +11 and -11."""
    table = await lobby_of(service)
    await service.lobby.change_game(table, "sea_goat")
    await service.player.start(table)
    match = table.match
    assert match is not None and match.rules.sg_target == 125
    match.tally = dataclasses.replace(match.tally, scores=(150, 40))
    match.winners, match.losers, match.ended_by, match.over = [0], [1], "target", True
    assert {r.seat: r.rating_delta for r in results(table)} == {0: 9, 1: -9}


@pytest.mark.parametrize(
    ("ended_by", "lost", "deltas"),
    [("losses", (1, 2), (5, -5)), ("losses", (0, 2), (10, -10)), ("general", (1, 0), (1, -1))],
)
async def test_generals_goat_rates_the_winners_up_and_the_losers_down(
    service: TableService, ended_by: MatchEndedBy, lost: tuple[int, int], deltas: tuple[int, int]
) -> None:
    """General's Goat's score is the rounds a team lost (RULES.md §3.10), which Kozel's formula
    read as points: (100 − 2)/10 gave every player +10, the losers as much as the winners."""
    table = await lobby_of(service, computers=3)
    await service.lobby.change_setting(table, "pairs", True)
    await service.lobby.change_game(table, "generals_goat")
    await service.player.start(table)
    match = table.match
    assert match is not None and match.rules.gg_losses == 2
    match.tally = dataclasses.replace(match.tally, scores=lost)
    match.winners, match.losers, match.ended_by, match.over = [0], [1], ended_by, True
    assert {r.seat: r.rating_delta for r in results(table)} == {
        seat: deltas[seat % 2] for seat in range(4)
    }


async def _played_out(service: TableService, table: Table) -> None:
    """Every seat plays its first legal move until the match is over."""
    match = table.match
    assert match is not None
    while not match.is_over:
        seat = table.seats[match.current_seat or 0]
        await service.player.act(table, seat, match.legal_actions(seat.seat)[0])


async def test_a_match_won_in_the_middle_of_a_round_records_that_round(
    service: TableService, settings: Settings
) -> None:
    """English fives to 5: the first move that scores wins in the middle of its round, which
    never ends (RULES.md §3.9). The match was recorded one round short: round 1 won made 0."""
    table = await lobby_of(service)
    await service.lobby.change_game(table, "english_fives")
    await service.lobby.change_setting(table, "target", 5)
    await service.player.start(table)
    await _played_out(service, table)
    match = table.match
    assert match is not None and match.round is not None
    assert match.ended_by == "target" and match.rounds_played < match.round.number
    with sqlite3.connect(settings.database) as conn:
        (rounds,) = conn.execute("SELECT rounds FROM matches").fetchone()
    assert rounds == match.round.number


def test_every_way_a_match_ends_is_recorded_as_storage_knows_it() -> None:
    """A new way to end a match (``MatchEndedBy``) needs its record: without it, recording
    the finished match would fail, and the table with it."""
    assert set(ENDED_BY) == set(get_args(MatchEndedBy))
