"""The table store: one table object per active table, rebuilt from its events when needed."""

from __future__ import annotations

import pytest

from bot.place import Place
from bot.service import DamagedTable, TableService
from storage import Storage

from .conftest import GROUP, YARD, playing


async def test_an_active_table_is_the_same_object_on_every_load(service: TableService) -> None:
    table = await playing(service)
    assert await service.store.table(table.id) is table
    assert await service.store.active_table(YARD) is table


async def test_a_forgotten_table_is_rebuilt_from_its_events(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    assert table.match is not None
    service.store.forget(table.id)
    again = await service.store.table(table.id)
    assert again is not None and again is not table
    assert again.match is not None and again.match.to_json() == table.match.to_json()
    assert [s.name for s in again.seats] == [s.name for s in table.seats]
    assert again.seq == table.seq > 0


async def test_a_log_the_engine_refuses_is_a_damaged_table(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    service.store.forget(table.id)
    await storage.append_events(table.id, table.seq, [{"type": "nonsense"}], {})
    with pytest.raises(DamagedTable):
        await service.store.table(table.id)


async def test_a_table_follows_its_group_to_a_supergroup(service: TableService) -> None:
    table = await playing(service)
    lock = service.store.lock(GROUP)
    await service.store.migrate_chat(GROUP, -1000)
    assert table.chat_id == -1000
    assert service.store.lock(-1000) is lock
    assert await service.store.active_table(Place(-1000)) is table


async def test_computer_players_are_named_in_the_groups_language(service: TableService) -> None:
    table = await playing(service)
    english = table.seats[1].name
    await service.store.set_language(GROUP, "ru")
    assert table.language == "ru"
    assert table.seats[1].name != english
    assert table.seats[0].name == "Masha"
