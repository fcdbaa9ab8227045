-- 0007: results that speak of any game, not only Kozel. A player's result says its outcome in
-- the words every game shares: 'won', 'lost', 'draw', or 'none' for a Kozel player who was
-- neither the goat nor the best (Kozel has a loser, the goat, and no winner by its rules; the
-- best score is what the standings count as a win). Kozel's goat is a 'lost'; is_goat and
-- is_winner go, their meaning kept: goat -> 'lost', winner -> 'won', the others -> 'none'.
-- A match may now end by a side reaching its 'target' or in a 'draw' (the Ukrainian
-- Telephone's both past 225). Every match already names its game (matches.game, filled from
-- the table, which defaulted to kozel: every match before now was Kozel's); the standings of a
-- chat are read per game, so the index on matches grows the game.
--
-- SQLite cannot change a CHECK in place, so both tables are built anew and filled from the
-- old ones. The old ones are renamed first: renaming the parent carries match_players'
-- foreign key along, so dropping the old tables at the end cascades into nothing new.

ALTER TABLE match_players RENAME TO match_players_0006;
ALTER TABLE matches RENAME TO matches_0006;

CREATE TABLE matches (
    match_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER NOT NULL UNIQUE REFERENCES tables (table_id),
    chat_id     INTEGER NOT NULL REFERENCES chats (chat_id),
    game        TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    pairs       INTEGER NOT NULL CHECK (pairs IN (0, 1)),
    rounds      INTEGER NOT NULL CHECK (rounds >= 0),
    ended_by    TEXT    NOT NULL
                CHECK (ended_by IN ('goat', 'target', 'draw', 'timeout', 'cancelled')),
    finished_at REAL    NOT NULL
);

CREATE TABLE match_players (
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    user_id      INTEGER REFERENCES users (user_id),
    seat         INTEGER NOT NULL,
    side         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'draw', 'none')),
    rating_delta INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

INSERT INTO matches (match_id, table_id, chat_id, game, players, pairs, rounds, ended_by,
                     finished_at)
SELECT match_id, table_id, chat_id, game, players, pairs, rounds, ended_by, finished_at
FROM matches_0006;

INSERT INTO match_players (match_id, user_id, seat, side, score, outcome, rating_delta)
SELECT match_id, user_id, seat, side, score,
       CASE WHEN is_goat THEN 'lost' WHEN is_winner THEN 'won' ELSE 'none' END,
       rating_delta
FROM match_players_0006;

DROP TABLE match_players_0006;
DROP TABLE matches_0006;

CREATE INDEX matches_by_chat_game ON matches (chat_id, game);
CREATE INDEX match_players_by_user ON match_players (user_id) WHERE user_id IS NOT NULL;
