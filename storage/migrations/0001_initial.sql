-- 0001: the initial schema. Timestamps are Unix seconds (REAL); booleans are 0/1 INTEGERs;
-- JSON columns hold compact JSON text (checked with json_valid where it is cheap).

CREATE TABLE chats (
    chat_id    INTEGER PRIMARY KEY,
    title      TEXT    NOT NULL DEFAULT '',
    type       TEXT    NOT NULL,
    language   TEXT,
    settings   TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    created_at REAL    NOT NULL
);

CREATE TABLE users (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    username     TEXT,
    language     TEXT,
    started_bot  INTEGER NOT NULL DEFAULT 0 CHECK (started_bot IN (0, 1)),
    blocked      INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
    updated_at   REAL    NOT NULL
);

CREATE TABLE tables (
    table_id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id          INTEGER NOT NULL REFERENCES chats (chat_id),
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    game             TEXT    NOT NULL DEFAULT 'kozel',
    rules            TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    players          INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    pairs            INTEGER NOT NULL DEFAULT 0 CHECK (pairs IN (0, 1)),
    opener_id        INTEGER NOT NULL REFERENCES users (user_id),
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    turn_seconds     INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    turn_deadline    REAL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL,
    last_seq         INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0)
);

-- At most one table per chat in the lobby or playing.
CREATE UNIQUE INDEX tables_one_active_per_chat ON tables (chat_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_by_chat ON tables (chat_id);
CREATE INDEX tables_by_status ON tables (status);

CREATE TABLE seats (
    table_id        INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id         INTEGER REFERENCES users (user_id),
    ai              TEXT,
    side            INTEGER NOT NULL CHECK (side >= 0),
    hand_message_id INTEGER,
    missed_turns    INTEGER NOT NULL DEFAULT 0 CHECK (missed_turns >= 0),
    absent          INTEGER NOT NULL DEFAULT 0 CHECK (absent IN (0, 1)),
    PRIMARY KEY (table_id, seat),
    -- a seat holds a human or a computer player, never both, never neither
    CHECK ((user_id IS NULL) <> (ai IS NULL))
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_user_once_per_table ON seats (table_id, user_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Append-only event log; seq is 1, 2, 3, ... per table with no gaps.
CREATE TABLE events (
    table_id   INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq > 0),
    type       TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- The engine state after event `seq`; written in the same transaction as that event.
CREATE TABLE snapshots (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);

CREATE TABLE matches (
    match_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER NOT NULL UNIQUE REFERENCES tables (table_id),
    chat_id     INTEGER NOT NULL REFERENCES chats (chat_id),
    game        TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    pairs       INTEGER NOT NULL CHECK (pairs IN (0, 1)),
    rounds      INTEGER NOT NULL CHECK (rounds >= 0),
    ended_by    TEXT    NOT NULL CHECK (ended_by IN ('goat', 'timeout', 'cancelled')),
    finished_at REAL    NOT NULL
);

CREATE INDEX matches_by_chat ON matches (chat_id);

CREATE TABLE match_players (
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    user_id      INTEGER REFERENCES users (user_id),
    seat         INTEGER NOT NULL,
    side         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    is_goat      INTEGER NOT NULL CHECK (is_goat IN (0, 1)),
    is_winner    INTEGER NOT NULL CHECK (is_winner IN (0, 1)),
    rating_delta INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

CREATE INDEX match_players_by_user ON match_players (user_id) WHERE user_id IS NOT NULL;
