-- 0017: a person may choose the language the bot writes to them in (/language in the DM),
-- whatever their Telegram app's: users.chosen_language is it, NULL to follow the app's
-- (users.language, which every update refreshes and must not overwrite the choice).

ALTER TABLE users ADD COLUMN chosen_language TEXT;
