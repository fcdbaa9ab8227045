-- 0013: what a lobby message shows: the table itself ('lobby'), its ⚙️ Rules editor
-- ('settings') or the game chooser ('games'), so that someone joining or leaving after a
-- restart redraws the view its opener has open, rather than close it under their fingers.

ALTER TABLE tables ADD COLUMN lobby_view TEXT NOT NULL DEFAULT 'lobby'
    CHECK (lobby_view IN ('lobby', 'settings', 'games'));
