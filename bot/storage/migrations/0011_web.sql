-- The web pages: who may see a server's games there (/config web), and the key that
-- signs sign-in links and session cookies (made once, shared by every process).
ALTER TABLE guild_settings ADD COLUMN web TEXT NOT NULL DEFAULT 'players';

CREATE TABLE web_keys (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    secret     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
