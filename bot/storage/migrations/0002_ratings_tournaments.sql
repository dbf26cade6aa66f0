-- Ratings (Glicko-2 per user and game) and community tournaments.
-- A rating is global per (user, game); which servers it shows on is read from the
-- rating changes, each of which records the server its game was played in.

CREATE TABLE ratings (
    user_id       INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    name          TEXT    NOT NULL,         -- the name at the last rated game
    rating        REAL    NOT NULL,
    deviation     REAL    NOT NULL,
    volatility    REAL    NOT NULL,
    games         INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0,
    last_rated_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_by_game ON ratings (game, rating DESC);

-- One row per player per rated game: the history, and the guard that rates a game once.
CREATE TABLE rating_changes (
    game_id           INTEGER NOT NULL REFERENCES games (id),
    user_id           INTEGER NOT NULL,
    seat              INTEGER NOT NULL,
    name              TEXT    NOT NULL,
    game              TEXT    NOT NULL,
    guild_id          INTEGER,
    score             REAL    NOT NULL,     -- 1, 0.5 or 0
    rating_before     REAL    NOT NULL,
    deviation_before  REAL    NOT NULL,
    volatility_before REAL    NOT NULL,
    rating_after      REAL    NOT NULL,
    deviation_after   REAL    NOT NULL,
    volatility_after  REAL    NOT NULL,
    rated_at          TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_by_guild ON rating_changes (guild_id, game, user_id);

-- Finds rated games that ended while their rating was not stored (a crash in between).
CREATE INDEX games_rated_by_finish ON games (finished_at) WHERE rated = 1;
CREATE INDEX games_by_tournament ON games (tournament_id) WHERE tournament_id IS NOT NULL;

ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,       -- where rounds are announced and games start
    name            TEXT    NOT NULL,
    organiser_id    INTEGER NOT NULL,
    organiser_name  TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    options         TEXT    NOT NULL,       -- JSON, complete and validated
    format          TEXT    NOT NULL
                    CHECK (format IN ('round-robin', 'double-round-robin', 'swiss',
                                      'single-elimination')),
    swiss_rounds    INTEGER,                -- the rounds asked for (Swiss); NULL: chosen at start
    rounds          INTEGER,                -- the rounds it has, fixed at start
    time_control    TEXT    NOT NULL DEFAULT 'none',
    rated           INTEGER NOT NULL DEFAULT 1,
    max_players     INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    entry_closes_at TEXT,                   -- NULL: the organiser starts it by hand
    announced_round INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT    NOT NULL,
    started_at      TEXT,
    finished_at     TEXT,
    updated_at      TEXT    NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_open_by_entry ON tournaments (entry_closes_at) WHERE status = 'open';

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     TEXT    NOT NULL,
    seed          INTEGER,                  -- 1 for the best; set at start
    rating        REAL,                     -- the rating the seeding used
    withdrawn_at  TEXT,
    PRIMARY KEY (tournament_id, user_id)
);

-- One row per game or bye, in the order they were paired; the Tournament value is
-- rebuilt from these rows.
CREATE TABLE tournament_pairings (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    first_id      INTEGER NOT NULL,         -- seat 0, or the player with the bye
    second_id     INTEGER,                  -- seat 1; NULL for a bye
    result        TEXT,                     -- '1-0', '0-1', '1/2-1/2', '+/-', '-/+', '-/-'
    game_id       INTEGER UNIQUE REFERENCES games (id),
    announced     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournament_pairings_by_tournament ON tournament_pairings (tournament_id, round);
