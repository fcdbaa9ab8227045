-- 0006: how strong a table's computer players are. tables.computer_level is the level a
-- computer player takes when it is added without naming one (/addbot) or takes over an absent
-- player's seat; each computer seat keeps its own in seats.ai. Tables from before play strong,
-- as new ones do.

ALTER TABLE tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'strong'
    CHECK (computer_level IN ('easy', 'normal', 'strong'));
