-- 0011: a computer that took a person's seat over during a match (they left, or were removed)
-- stands in for them: seats.stand_in is 1 for it. 🔁 Play again seats again the computers the
-- players chose, and leaves a stand-in's place open for a person. Seats from before count as
-- chosen.

ALTER TABLE seats ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1));
