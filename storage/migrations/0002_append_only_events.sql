-- 0002: the event log is append-only in the database itself, not only by convention: a move,
-- once committed (and perhaps announced), cannot be edited or taken back by a bug or by hand.
-- Nothing in storage updates or deletes events: re-keying a chat changes tables.chat_id, not
-- table_id, and a table that ends is cancelled or finished, never deleted. So the ON DELETE
-- CASCADE from tables is only ever reached for a table without events; for one with events it
-- now aborts, which keeps a played table's history.

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be changed');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be deleted');
END;
