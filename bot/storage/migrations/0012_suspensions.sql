-- Suspensions: a server that removed Tabula (every game there), or one game whose channel
-- is gone with no game channel to move it to. While a suspension is open its games'
-- clocks stand, nothing is decided and their announcements wait; it ends when Tabula is
-- back (resumed) or after the configured period (its games aborted, unrated).
CREATE TABLE suspensions (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    game_id    INTEGER REFERENCES games (id),   -- NULL: the whole server
    reason     TEXT    NOT NULL,                -- 'removed' or 'no_channel'
    started_at TEXT    NOT NULL,
    ended_at   TEXT,                            -- NULL while it holds
    outcome    TEXT CHECK (outcome IN ('resumed', 'aborted')),
    games      INTEGER NOT NULL DEFAULT 0,      -- games in progress it held when it ended
    CHECK ((ended_at IS NULL) = (outcome IS NULL))
);
-- At most one open suspension per server and per game (two processes cannot both open one).
CREATE UNIQUE INDEX suspensions_one_open
    ON suspensions (guild_id, COALESCE(game_id, 0)) WHERE ended_at IS NULL;
CREATE INDEX suspensions_by_guild ON suspensions (guild_id, started_at);

-- A server's games in progress, found when its suspension starts, ends or runs out.
CREATE INDEX games_active_by_guild ON games (guild_id) WHERE status = 'active';
