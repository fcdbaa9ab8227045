-- 0005: a forum's topics are tables' places of their own. tables.thread_id is the topic's
-- message_thread_id; NULL is the chat itself (a plain group, or a forum's General topic, whose
-- messages carry no thread id), which is where every table from before sat. A chat may now
-- have one active table per topic, so the unique index moves from the chat to the place.
-- Topic ids are positive message ids, so the index can count the chat itself as topic 0.

ALTER TABLE tables ADD COLUMN thread_id INTEGER CHECK (thread_id IS NULL OR thread_id > 0);

DROP INDEX tables_one_active_per_chat;

CREATE UNIQUE INDEX tables_one_active_per_place ON tables (chat_id, IFNULL(thread_id, 0))
    WHERE status IN ('lobby', 'playing');
