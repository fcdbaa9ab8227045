-- 0016: a table nobody started in time is closed as /cancel closes one, and its lobby says
-- that it expired; tables.expired is 1 for it, so that a lobby the bot stopped before closing
-- says so after a restart too, rather than that somebody cancelled it. Only a cancelled table
-- can have expired. Nothing kept tells the tables from before apart: they stay cancelled.

ALTER TABLE tables ADD COLUMN expired INTEGER NOT NULL DEFAULT 0
    CHECK (expired IN (0, 1) AND (expired = 0 OR status = 'cancelled'));
