-- Leagues for correspondence: seasons of divisions, each division a round robin with
-- all its games at once, the top two of each division going up and the bottom two down.
CREATE TABLE leagues (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,      -- where seasons are announced and games start
    name             TEXT    NOT NULL,
    organiser_id     INTEGER NOT NULL,
    organiser_name   TEXT    NOT NULL,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL,      -- JSON, complete and validated
    time_control     TEXT    NOT NULL DEFAULT 'none',
    rated            INTEGER NOT NULL DEFAULT 1,
    games_per_pair   INTEGER NOT NULL CHECK (games_per_pair IN (1, 2)),
    smallest         INTEGER NOT NULL,      -- division size bounds
    largest          INTEGER NOT NULL,
    season_seconds   INTEGER NOT NULL,      -- how long a season lasts at most
    entry_seconds    INTEGER NOT NULL,      -- how long entries stay open between seasons
    status           TEXT    NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'running', 'cancelled')),
    season           INTEGER NOT NULL DEFAULT 0,  -- the latest season started (0: none yet)
    announced_season INTEGER NOT NULL DEFAULT 0,  -- the latest season whose start was posted
    starts_at        TEXT,                  -- while open: when the next season starts
    ends_at          TEXT,                  -- while running: when the season ends at the latest
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL
);
CREATE INDEX leagues_by_guild ON leagues (guild_id, status);

-- Who plays the next season: members stay from season to season until they leave.
CREATE TABLE league_members (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined_at TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_seasons (
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    number      INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'finished', 'cancelled')),
    started_at  TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (league_id, number)
);

-- Each player's division in a season, and where they finished in it.
CREATE TABLE league_placements (
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    season       INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    division     INTEGER NOT NULL,          -- 1 for the top division
    position     INTEGER NOT NULL,          -- the place on the season's ladder, from 1
    rating       REAL    NOT NULL,          -- the rating when the season started
    withdrawn_at TEXT,
    place        INTEGER,                   -- the final place in the division
    move         TEXT CHECK (move IN ('up', 'down', 'stay')),
    PRIMARY KEY (league_id, season, user_id)
);

CREATE TABLE league_games (
    id        INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    season    INTEGER NOT NULL,
    division  INTEGER NOT NULL,
    round     INTEGER NOT NULL,             -- the round of the division's round robin
    first_id  INTEGER NOT NULL,             -- seat 0
    second_id INTEGER NOT NULL,
    result    TEXT,                         -- '1-0', '0-1', '1/2-1/2', '+/-', '-/+', '-/-'
    game_id   INTEGER UNIQUE REFERENCES games (id),
    announced INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX league_games_by_season ON league_games (league_id, season, division);
