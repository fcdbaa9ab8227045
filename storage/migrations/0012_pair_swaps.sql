-- 0012: at a pair game whose other pair holds two people, a person who taps 🔀 Change pair asks
-- to change places with one of them, who agrees by tapping it too. seats.asks_swap is 1 while
-- the person asks; it lapses when their seat changes pair (``Storage.arrange_seats``).

ALTER TABLE seats ADD COLUMN asks_swap INTEGER NOT NULL DEFAULT 0 CHECK (asks_swap IN (0, 1));
