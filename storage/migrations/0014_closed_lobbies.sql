-- 0014: tables.lobby_message_id is the lobby message that still shows the table's buttons.
-- Once a started, cancelled or expired table's lobby has been closed (edited to say so, without
-- buttons), or found deleted, the table forgets it: a table past its lobby that still has one
-- is a lobby the bot stopped before closing, which the next start-up closes. A table from
-- before forgets its lobby message too, unless it may be such a lobby: a table whose board was
-- shown had its lobby closed first, and of the others only the newest at its place, closed in
-- the last two days, is closed again (an edit the group's budget pays for, "not modified" for
-- most).

UPDATE tables SET lobby_message_id = NULL
WHERE status <> 'lobby'
  AND (
    board_message_id IS NOT NULL
    OR (
        status <> 'playing'
        AND (
            finished_at < CAST(strftime('%s', 'now') AS REAL) - 2 * 86400
            OR EXISTS (
                SELECT 1 FROM tables AS newer
                WHERE newer.chat_id = tables.chat_id
                  AND IFNULL(newer.thread_id, 0) = IFNULL(tables.thread_id, 0)
                  AND newer.table_id > tables.table_id
            )
        )
    )
  );
