"""A group upgraded to a supergroup gets a new id; everything moves with it."""

from __future__ import annotations

import pytest

from storage import PlayerResult, SameChatMigration, Storage

from .conftest import seed_chat


async def finished_match(storage: Storage, chat_id: int) -> int:
    table = await storage.create_table(chat_id, 1, players=2)
    await storage.record_match(
        table.table_id,
        "goat",
        2,
        [PlayerResult(1, 0, 0, 10, "won", 9), PlayerResult(2, 1, 1, 101, "lost", 0)],
    )
    return table.table_id


async def test_migrate_moves_chat_tables_and_matches(storage: Storage) -> None:
    await seed_chat(storage, -100, 1, 2)
    await storage.set_chat_language(-100, "uk")
    done = await finished_match(storage, -100)
    active = await storage.create_table(-100, 1)
    await storage.append_events(active.table_id, 0, [{"type": "match_started"}], {"s": 1})

    assert await storage.migrate_chat(-100, -100200300) is True

    assert await storage.get_chat(-100) is None
    chat = await storage.get_chat(-100200300)
    assert chat is not None
    assert (chat.title, chat.type, chat.language) == ("Chat -100", "supergroup", "uk")
    moved = await storage.get_active_table(-100200300)
    assert moved is not None and moved.table_id == active.table_id and moved.last_seq == 1
    finished = await storage.get_table(done)
    assert finished is not None and finished.chat_id == -100200300
    assert [r.user_id for r in await storage.chat_standings(-100200300)] == [1, 2]
    assert await storage.chat_standings(-100) == []
    assert await storage.load_snapshot(active.table_id) == (1, {"s": 1})


async def test_migrate_merges_into_a_known_supergroup(storage: Storage) -> None:
    await seed_chat(storage, -100, 1, 2)
    await storage.set_chat_language(-100, "uk")
    await finished_match(storage, -100)
    old_active = await storage.create_table(-100, 1)

    # The supergroup already spoke to the bot and opened a table of its own.
    await storage.upsert_chat(-100200300, "Yard", "supergroup")
    await finished_match(storage, -100200300)
    new_active = await storage.create_table(-100200300, 2)

    assert await storage.migrate_chat(-100, -100200300) is True

    chat = await storage.get_chat(-100200300)
    assert chat is not None and chat.title == "Yard"
    assert chat.language == "uk"  # the new chat had none
    active = await storage.get_active_table(-100200300)
    assert active is not None and active.table_id == new_active.table_id
    cancelled = await storage.get_table(old_active.table_id)
    assert cancelled is not None and cancelled.status == "cancelled"
    assert cancelled.chat_id == -100200300
    standings = await storage.chat_standings(-100200300)
    assert [(r.user_id, r.matches) for r in standings] == [(1, 2), (2, 2)]


async def test_migrate_keeps_a_table_whose_place_is_free(storage: Storage) -> None:
    """Only a table in the same place cancels the old group's: one in a topic of the
    supergroup leaves the old group's table (in the chat itself) to go on there."""
    await seed_chat(storage, -100, 1, 2)
    old_active = await storage.create_table(-100, 1)
    await storage.upsert_chat(-100200300, "Yard", "supergroup")
    in_topic = await storage.create_table(-100200300, 2, thread_id=5)

    assert await storage.migrate_chat(-100, -100200300) is True

    moved = await storage.get_active_table(-100200300)
    assert moved is not None and moved.table_id == old_active.table_id
    assert await storage.get_active_table(-100200300, 5) == in_topic


async def test_migrate_forgets_the_old_groups_lobby_and_board(storage: Storage) -> None:
    """The old group's messages cannot be edited in the supergroup: its table's next lobby and
    board are posted there afresh, where an edit of the old ids was refused first."""
    await seed_chat(storage, -100, 1, 2)
    table = await storage.create_table(-100, 1)
    await storage.update_table(table.table_id, lobby_message_id=10, board_message_id=11)

    assert await storage.migrate_chat(-100, -100200300) is True

    moved = await storage.get_active_table(-100200300)
    assert moved is not None and (moved.lobby_message_id, moved.board_message_id) == (None, None)


async def test_migrating_an_unknown_chat_does_nothing(storage: Storage) -> None:
    await seed_chat(storage, -100)
    assert await storage.migrate_chat(-5, -6) is False
    assert await storage.get_chat(-6) is None
    assert await storage.get_chat(-100) is not None


async def test_migrating_a_chat_to_its_own_id_is_refused(storage: Storage) -> None:
    """Telegram always gives the supergroup a new id; the same id twice is the caller's bug."""
    await seed_chat(storage, -100)
    active = await storage.create_table(-100, 1)
    with pytest.raises(SameChatMigration, match=r"^chat -100 cannot be migrated to its own id$"):
        await storage.migrate_chat(-100, -100)
    assert await storage.get_chat(-100) is not None
    table = await storage.get_active_table(-100)
    assert table is not None and table.table_id == active.table_id
