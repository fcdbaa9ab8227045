"""Time: a turn that runs out, a player marked away, a match nobody plays, expiry."""

from __future__ import annotations

from bot.service import TableService
from storage import Storage

from .conftest import lobby_of, playing


async def test_missed_turns_mark_a_player_away_and_end_a_match_nobody_plays(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    match = table.match
    assert match is not None
    masha = table.seats[0]
    while match.current_seat != 0:
        await service.player.computer_move(table)
    await service.timeouts.timeout(table, masha)
    assert (masha.missed_turns, masha.absent) == (1, False)
    assert not match.is_over
    while match.current_seat != 0:
        await service.player.computer_move(table)
    await service.timeouts.timeout(table, masha)  # the second in a row: away, and alone
    assert masha.absent
    assert match.is_over and match.ended_by == "timeout"
    assert table.status == "finished"
    assert (await storage.get_seats(table.id))[0].absent


async def test_a_tap_brings_an_away_player_back(service: TableService, storage: Storage) -> None:
    table = await playing(service)
    masha = table.seats[0]
    await service.timeouts.set_absent(table, masha, True)
    await service.timeouts.played_in_person(table, masha)
    assert not masha.absent
    assert not (await storage.get_seats(table.id))[0].absent


async def test_the_deadline_is_stored_with_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    await service.timeouts.set_deadline(table, 1234.5)
    assert table.turn_deadline == 1234.5
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.turn_deadline == 1234.5


async def test_old_lobbies_and_idle_matches_expire(service: TableService) -> None:
    lobby = await lobby_of(service)
    assert await service.timeouts.expired(lobby.row.updated_at + 60) == []
    late = lobby.row.updated_at + service.store.settings.lobby_expiry_minutes * 60 + 1
    assert await service.timeouts.expired(late) == [(lobby, "lobby")]
