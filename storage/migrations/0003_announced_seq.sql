-- 0003: how far the group has been told a table's results. tables.announced_seq is the last
-- event (seq) up to which every round result and goat was announced; the bot moves it after
-- announcing them. A bot stopped between committing a round's end and announcing it finds the
-- gap at start-up and announces what the group missed. Tables from before count as told.

ALTER TABLE tables ADD COLUMN announced_seq INTEGER NOT NULL DEFAULT 0
    CHECK (announced_seq >= 0);

UPDATE tables SET announced_seq = last_seq;
