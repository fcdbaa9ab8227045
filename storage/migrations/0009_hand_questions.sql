-- 0009: the question a live hand shows in place of the hand (which end, which way, open or
-- closed?) until the player answers it or goes back, so that a restart shows it again rather
-- than the hand over it. seats.hand_question is the bot's own encoding of the question (with
-- the table version it was asked at); NULL while the hand asks nothing.

ALTER TABLE seats ADD COLUMN hand_question TEXT;
