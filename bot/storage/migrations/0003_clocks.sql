-- Correspondence play: game clocks, reminders sent, vacations, the bot's downtime, and
-- each user's notification settings. Times are ISO 8601 text in UTC.

-- Every turn of a timed game: whose clock runs from when, with which banks. A new row
-- starts each turn (also when an undo restarts one), so `turn` only ever grows.
CREATE TABLE clock_turns (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    turn       INTEGER NOT NULL,            -- 1 for the first turn of the game
    seat       INTEGER NOT NULL,            -- whose clock runs
    start_ply  INTEGER NOT NULL,            -- moves played before the turn began
    started_at TEXT    NOT NULL,
    bank0_s    REAL,                        -- capped increment: each seat's bank (seconds)
    bank1_s    REAL,                        -- at the start of the turn; NULL per move
    PRIMARY KEY (game_id, turn)
);

-- A timed game's clock: its current turn and what is scheduled for it. The scheduler
-- finds due deadlines and reminders here, so nothing lives only in memory.
CREATE TABLE game_clocks (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    turn       INTEGER NOT NULL,            -- the current turn in clock_turns
    synced_ply INTEGER NOT NULL,            -- the game's ply the clock has caught up with
    deadline   TEXT,                        -- when the running clock runs out; NULL: stopped
    remind_at  TEXT,                        -- the next reminder due; NULL: none pending
    stopped_at TEXT,                        -- when the game ended
    updated_at TEXT    NOT NULL,
    FOREIGN KEY (game_id, turn) REFERENCES clock_turns (game_id, turn)
);
CREATE INDEX game_clocks_by_deadline ON game_clocks (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX game_clocks_by_reminder ON game_clocks (remind_at) WHERE remind_at IS NOT NULL;

-- Reminders claimed before sending: the key makes each one go out at most once per
-- turn, even across restarts and concurrent scheduler ticks.
CREATE TABLE sent_reminders (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    turn     INTEGER NOT NULL,
    offset_s INTEGER NOT NULL,              -- how long before the deadline it was due
    sent_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn, offset_s)
);

-- Vacations pause the user's clocks from started_at until ended_at (ended early) or
-- ends_at (as planned), whichever comes first.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL,
    started_at TEXT    NOT NULL,
    ends_at    TEXT    NOT NULL,
    ended_at   TEXT,
    CHECK (ends_at > started_at)
);
CREATE UNIQUE INDEX vacations_one_open ON vacations (user_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_by_user ON vacations (user_id, ends_at);

-- Times the bot was down; no clock runs during them.
CREATE TABLE outages (
    id         INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    ended_at   TEXT NOT NULL,
    CHECK (ended_at > started_at)
);
CREATE INDEX outages_by_end ON outages (ended_at);

-- When the scheduler last ran: the start of an outage, found at the next start-up.
CREATE TABLE heartbeat (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    alive_at TEXT NOT NULL
);

ALTER TABLE user_settings ADD COLUMN reminders TEXT NOT NULL DEFAULT '86400,3600';
    -- seconds before a deadline, comma-separated; '' for no reminders
ALTER TABLE user_settings ADD COLUMN digest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_settings ADD COLUMN digest_period_s INTEGER NOT NULL DEFAULT 86400;
ALTER TABLE user_settings ADD COLUMN digest_sent_at TEXT;
