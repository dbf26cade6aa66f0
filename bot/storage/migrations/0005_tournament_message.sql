-- The message announcing a tournament, with its Join / Leave buttons: the bot edits it
-- to remove the buttons once entries close (the tournament started or was cancelled).
ALTER TABLE tournaments ADD COLUMN message_id INTEGER;
