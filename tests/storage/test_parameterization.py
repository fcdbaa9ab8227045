"""Hostile strings are data, never SQL: they go in and come back out unchanged."""

from __future__ import annotations

from pathlib import Path

from storage import PlayerResult, Storage

BOBBY = "Robert'); DROP TABLE users;--"
NASTY = [BOBBY, "quote \" and ' both", "semi;colon", "percent %s %d {0}", "NUL\x00byte", "🐐 Козёл"]


async def test_hostile_strings_round_trip(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        for i, text in enumerate(NASTY, start=1):
            chat = await storage.upsert_chat(-i, text, "group")
            user = await storage.upsert_user(i, text, text, text)
            assert chat.title == text and user.display_name == text
            assert user.username == text and user.language == text
            await storage.set_chat_language(-i, text)
            await storage.name_topic(-i, i, text)
            table = await storage.create_table(-i, i, game=text, rules={text: [text]}, players=2)
            seat = await storage.add_seat(table.table_id, 0, side=0, ai=text)
            assert seat.ai == text
            await storage.append_events(
                table.table_id, 0, [{"type": text, "who": text}], {"name": text}
            )
            assert await storage.load_events(table.table_id) == [{"type": text, "who": text}]
            assert await storage.load_snapshot(table.table_id) == (1, {"name": text})
            await storage.record_match(
                table.table_id, "goat", 1, [PlayerResult(i, 1, 1, 5, "won", 3)]
            )

    async with await Storage.open(db_path) as storage:  # the users table is still there
        for i, text in enumerate(NASTY, start=1):
            stored_chat = await storage.get_chat(-i)
            stored_user = await storage.get_user(i)
            assert stored_chat is not None and stored_chat.title == text
            assert stored_chat.language == text
            assert await storage.topic_name(-i, i) == text
            assert stored_user is not None and stored_user.display_name == text
            [row] = await storage.chat_standings(-i, game=text)
            assert row.display_name == text
            [recent] = await storage.recent_matches(i)
            assert recent.chat_title == text and recent.game == text
