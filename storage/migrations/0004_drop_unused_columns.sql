-- 0004: drop the columns nothing reads or writes. chats.settings was meant for a chat's house
-- rules, but a table keeps its own rules; users.started_bot and users.blocked were meant to
-- remember whether a DM reaches a player, but the bot learns that from the DM itself (Telegram
-- answers 403). Each column's own CHECK goes with it (ALTER TABLE DROP COLUMN: SQLite 3.35+).

ALTER TABLE chats DROP COLUMN settings;
ALTER TABLE users DROP COLUMN started_bot;
ALTER TABLE users DROP COLUMN blocked;
