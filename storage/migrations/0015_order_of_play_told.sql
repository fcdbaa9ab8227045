-- 0015: announced_seq, how far the group was told a table's story, is 0 for a table in play
-- only until its order of play has been told, which goes before its first board: a bot
-- stopped before it was told tells it at start-up. A table in play from before whose board the
-- group saw was told it; event 1 (the match's start) is no result, so counting it as told
-- skips none.

UPDATE tables SET announced_seq = 1
WHERE status = 'playing' AND announced_seq = 0 AND last_seq > 0
  AND board_message_id IS NOT NULL;
