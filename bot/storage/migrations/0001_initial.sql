-- Tabula's first schema: games, their move log, challenges, server and user settings.
-- Times are ISO 8601 text in UTC; options are JSON objects.

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER,                -- NULL: an open challenge anyone may accept
    opponent_name   TEXT,
    game            TEXT    NOT NULL,
    options         TEXT    NOT NULL,       -- JSON, complete and validated
    challenger_seat INTEGER,                -- 0, 1 or NULL for a random choice at accept time
    rated           INTEGER NOT NULL DEFAULT 0,
    time_control    TEXT    NOT NULL DEFAULT 'none',
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at      TEXT    NOT NULL,
    expires_at      TEXT    NOT NULL,
    closed_at       TEXT,
    game_id         INTEGER REFERENCES games (id)
);
CREATE INDEX challenges_open_by_expiry ON challenges (expires_at) WHERE status = 'open';
CREATE INDEX challenges_open_by_opponent ON challenges (opponent_id) WHERE status = 'open';
CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id) WHERE status = 'open';

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL,      -- JSON, complete and validated
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,      -- where the challenge was made
    thread_id        INTEGER,               -- where the game is played (NULL: in channel_id)
    challenge_id     INTEGER REFERENCES challenges (id),
    player0_id       INTEGER,               -- NULL for a computer seat
    player1_id       INTEGER,
    player0_name     TEXT    NOT NULL,
    player1_name     TEXT    NOT NULL,
    player0_ai       TEXT,                  -- computer level for a computer seat
    player1_ai       TEXT,
    status           TEXT    NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'aborted')),
    ply              INTEGER NOT NULL DEFAULT 0,
    to_move          INTEGER NOT NULL DEFAULT 0,
    winner           INTEGER,               -- seat; NULL with a result for a draw
    result_reason    TEXT,
    draw_offer_seat  INTEGER,
    draw_offer_ply   INTEGER,
    draw_offer_open  INTEGER NOT NULL DEFAULT 0,
    undo_seat        INTEGER,
    undo_ply         INTEGER,
    undo_open        INTEGER NOT NULL DEFAULT 0,
    snapshot         TEXT,                  -- encode() of the state after snapshot_ply moves
    snapshot_ply     INTEGER,
    rated            INTEGER NOT NULL DEFAULT 0,
    time_control     TEXT    NOT NULL DEFAULT 'none',
    tournament_id    INTEGER,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT
);
CREATE INDEX games_active_player0 ON games (player0_id) WHERE status = 'active';
CREATE INDEX games_active_player1 ON games (player1_id) WHERE status = 'active';
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_channel ON games (channel_id);

-- The move log is append-only: an approved undo marks moves undone instead of deleting
-- them, and only live moves must be unique per (game, ply).
CREATE TABLE moves (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,             -- 1 for the first move
    seat      INTEGER NOT NULL,
    user_id   INTEGER,                      -- NULL for a computer move
    notation  TEXT    NOT NULL,
    played_at TEXT    NOT NULL,
    undone_at TEXT
);
CREATE UNIQUE INDEX moves_live_ply ON moves (game_id, ply) WHERE undone_at IS NULL;

CREATE TABLE guild_settings (
    guild_id             INTEGER PRIMARY KEY,
    threads              INTEGER NOT NULL DEFAULT 1,
    challenge_expiry_s   INTEGER NOT NULL,
    default_time_control TEXT    NOT NULL DEFAULT 'none',
    updated_at           TEXT    NOT NULL
);

CREATE TABLE guild_game_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

CREATE TABLE user_settings (
    user_id     INTEGER PRIMARY KEY,
    dm_on_turn  INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL
);
