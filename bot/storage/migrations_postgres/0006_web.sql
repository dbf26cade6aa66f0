-- The web pages, as SQLite's migration for them: who may see a server's games there
-- (/config web), and the key that signs sign-in links and session cookies.
ALTER TABLE guild_settings ADD COLUMN web TEXT NOT NULL DEFAULT 'players';

CREATE TABLE web_keys (
    id         INTEGER     PRIMARY KEY CHECK (id = 1),
    secret     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- Every change of a game row or of its clock is told to the processes listening on
-- `tabula_games` (the watchers of their web pages) when its transaction commits; the
-- payload is the game's number. SQLite (one process) does the same in memory.
CREATE FUNCTION tabula_game_changed() RETURNS trigger AS $$
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        PERFORM pg_notify('tabula_games', NEW.id::text);
    ELSE
        PERFORM pg_notify('tabula_games', NEW.game_id::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_changed AFTER INSERT OR UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION tabula_game_changed();
CREATE TRIGGER game_clocks_changed AFTER INSERT OR UPDATE ON game_clocks
    FOR EACH ROW EXECUTE FUNCTION tabula_game_changed();
