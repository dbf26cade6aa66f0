-- Game records (`tabula import`), as SQLite's migration 0007: games imported from a
-- record file, marked as such and never rated here; what the record said that the games
-- table has no column for.
CREATE TABLE imported_games (
    game_id     BIGINT      PRIMARY KEY REFERENCES games (id),
    rated       BOOLEAN     NOT NULL,   -- whether the game was rated where it was played
    event       TEXT,                   -- its tournament and round there, if any
    round       TEXT,
    imported_at TIMESTAMPTZ NOT NULL
);

-- /history: a player's finished games, newest first.
CREATE INDEX games_finished_player0 ON games (player0_id, finished_at) WHERE status = 'finished';
CREATE INDEX games_finished_player1 ON games (player1_id, finished_at) WHERE status = 'finished';
