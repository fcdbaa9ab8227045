-- 0008: the names of a forum's topics, which a player's DMs add to the group's name, so that
-- tables in two topics of one forum can be told apart. Learnt from Telegram's service messages
-- (a topic created or renamed while the bot is in the group); a topic the bot never heard of
-- has no row. No reference to chats: a topic may be named before the bot records its group.

CREATE TABLE topics (
    chat_id   INTEGER NOT NULL,
    thread_id INTEGER NOT NULL CHECK (thread_id > 0),
    name      TEXT    NOT NULL,
    PRIMARY KEY (chat_id, thread_id)
);
