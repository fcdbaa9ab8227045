-- 0010: a computer player keeps its name wherever it sits. The bot named a computer by its
-- seat's number, and the deal seats a pair game's partners opposite, so a computer could be
-- one name in the lobby and another in the match. seats.computer is the number of its name
-- (the catalogs' computer.0 … computer.3), NULL for a person; two computers at one table never
-- share one. A computer that sits down (or takes a person's seat over) without one is given the
-- number of its seat if no other computer at the table has it, else the lowest free one: four
-- names for at most four seats. The computers seated now keep the name their seat gave them.

ALTER TABLE seats ADD COLUMN computer INTEGER CHECK (computer BETWEEN 0 AND 3);

UPDATE seats SET computer = seat WHERE user_id IS NULL;

CREATE UNIQUE INDEX seats_computer_once_per_table ON seats (table_id, computer)
    WHERE computer IS NOT NULL;

CREATE TRIGGER seats_computer_named_on_insert AFTER INSERT ON seats
WHEN NEW.user_id IS NULL AND NEW.computer IS NULL
BEGIN
    UPDATE seats SET computer = (
        SELECT column1 FROM (VALUES (0), (1), (2), (3))
        WHERE column1 NOT IN (
            SELECT computer FROM seats WHERE table_id = NEW.table_id AND computer IS NOT NULL
        )
        ORDER BY column1 <> NEW.seat, column1
        LIMIT 1
    )
    WHERE table_id = NEW.table_id AND seat = NEW.seat;
END;

-- a person's seat taken over by a computer gets a name; a computer's taken by a person drops it
CREATE TRIGGER seats_computer_named_on_update AFTER UPDATE OF user_id ON seats
WHEN (NEW.user_id IS NULL) = (NEW.computer IS NULL)
BEGIN
    UPDATE seats SET computer = CASE WHEN NEW.user_id IS NULL THEN (
        SELECT column1 FROM (VALUES (0), (1), (2), (3))
        WHERE column1 NOT IN (
            SELECT computer FROM seats WHERE table_id = NEW.table_id AND computer IS NOT NULL
        )
        ORDER BY column1 <> NEW.seat, column1
        LIMIT 1
    ) END
    WHERE table_id = NEW.table_id AND seat = NEW.seat;
END;
