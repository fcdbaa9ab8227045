"""The lobby: seats in joining order, the settings, leaving, cancelling."""

from __future__ import annotations

import pytest

from bot.service import Refusal, TableService
from storage import Storage

from .conftest import ALEX, MASHA, YARD, lobby_of, playing


async def test_one_table_at_a_time_in_a_group(service: TableService) -> None:
    await lobby_of(service)
    with pytest.raises(Refusal) as no:
        await service.lobby.open_table(YARD, ALEX, "en")
    assert no.value.key == "err.table_exists"


async def test_a_full_table_and_a_second_seat_are_refused(service: TableService) -> None:
    table = await lobby_of(service, computers=0)
    with pytest.raises(Refusal) as no:
        await service.lobby.join(table, MASHA)
    assert no.value.key == "err.already_joined"
    await service.lobby.add_computer(table)
    with pytest.raises(Refusal) as no:
        await service.lobby.join(table, ALEX)
    assert no.value.key == "err.table_full"


async def test_leaving_closes_the_gap(service: TableService, storage: Storage) -> None:
    table = await lobby_of(service, computers=0)
    await service.lobby.change_setting(table, "players", 3)
    await service.lobby.join(table, ALEX)
    await service.lobby.add_computer(table)
    await service.lobby.leave(table, MASHA)
    assert [(s.seat, s.user_id) for s in table.seats] == [(0, ALEX), (1, None)]
    stored = await storage.get_seats(table.id)
    assert [(s.seat, s.user_id) for s in stored] == [(0, ALEX), (1, None)]


async def test_a_pair_game_seats_partners_across_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await lobby_of(service, computers=0)
    await service.lobby.join(table, ALEX)
    await service.lobby.change_setting(table, "pairs", True)
    assert (table.players, table.pairs) == (4, True)
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table)
    assert [s.side for s in await storage.get_seats(table.id)] == [0, 1, 0, 1]
    stored = await storage.get_table(table.id)
    assert stored is not None and (stored.players, stored.pairs) == (4, True)


async def test_a_rule_setting_is_stored_with_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await lobby_of(service)
    await service.lobby.change_setting(table, "goat_limit", 51)
    assert table.rules.goat_limit == 51
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.rules["goat_limit"] == 51


async def test_traditional_zero_zero_and_six_six_values_are_set_by_their_spelling(
    service: TableService, storage: Storage
) -> None:
    """RULES.md §3.1 spells these options with a leading digit; the editor sets them so."""
    table = await lobby_of(service)
    await service.lobby.change_game(table, "traditional")
    await service.lobby.change_setting(table, "00_always_25", True)
    await service.lobby.change_setting(table, "66_always_50", True)
    assert table.rules.option("00_always_25") and table.rules.option("66_always_50")
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert stored.rules["00_always_25"] is True and stored.rules["66_always_50"] is True


async def test_a_person_who_leaves_a_match_is_replaced_by_a_computer(
    service: TableService,
) -> None:
    table = await playing(service)
    gone = await service.lobby.leave(table, MASHA)
    assert gone.user_id == MASHA
    assert table.seats[0].user_id is None and table.seats[0].ai is not None
    with pytest.raises(Refusal) as no:
        await service.lobby.unseat(table, table.seats[0])
    assert no.value.key == "err.computer_seat"


async def test_a_cancelled_table_frees_the_group(service: TableService) -> None:
    table = await lobby_of(service)
    await service.lobby.cancel(table)
    assert table.status == "cancelled"
    assert await service.store.active_table(YARD) is None


async def test_computers_play_at_the_tables_level_or_their_own(
    service: TableService, storage: Storage
) -> None:
    """A new table's computers are strong; one added without a level takes the table's, one
    added by name keeps its own, and a person who leaves a match is played at the table's."""
    table = await service.lobby.open_table(YARD, MASHA, "en")
    assert table.computer_level == "strong"
    await service.lobby.change_setting(table, "players", 4)
    await service.lobby.join(table, MASHA)
    await service.lobby.add_computer(table)
    await service.lobby.change_setting(table, "computer_level", "easy")
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table, "normal")
    assert [s.ai for s in table.seats] == [None, "strong", "easy", "normal"]
    assert [s.ai for s in await storage.get_seats(table.id)] == [None, "strong", "easy", "normal"]
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.computer_level == "easy"

    await service.player.start(table)
    await service.lobby.leave(table, MASHA)
    assert table.seats[0].ai == "easy"
