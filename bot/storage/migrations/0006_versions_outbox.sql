-- Compare-and-set game writes, and the announcement outbox.

-- Every write to a game row names the version it read and increments it, so a write
-- based on an older read (another process moved meanwhile) is refused, never applied.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- What the players must be told: written in the same transaction as the change it
-- reports, delivered to Discord (or the console) until it is there, exactly once.
-- Rows of one stream (a game, a tournament, a user's direct messages) go out in id
-- order. A pending row is taken by a deliverer until `available_at` (its lease, or the
-- backoff after a failed attempt); `claimed_by` names who holds it.
CREATE TABLE announcements (
    id           INTEGER PRIMARY KEY,
    stream       TEXT    NOT NULL,          -- 'game:12', 'tournament:3', 'user:55', ...
    kind         TEXT    NOT NULL,          -- what happened: 'move', 'result', 'reminder', ...
    guild_id     INTEGER,                   -- the server it is posted in (NULL: a DM)
    game_id      INTEGER,
    data         TEXT    NOT NULL,          -- JSON: what to say (kind-specific)
    reply        TEXT,                      -- JSON: the interaction answering it first
    after_id     INTEGER,                   -- another announcement that must go out first
    status       TEXT    NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'delivered', 'parked')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    available_at TEXT    NOT NULL,
    claimed_by   TEXT,
    created_at   TEXT    NOT NULL,
    attempted_at TEXT,
    finished_at  TEXT,                      -- delivered or parked
    message_id   INTEGER,                   -- the message that delivered it
    error        TEXT                       -- the last failure, or why it was parked
);
CREATE INDEX announcements_pending ON announcements (stream, id) WHERE status = 'pending';
CREATE INDEX announcements_due ON announcements (available_at) WHERE status = 'pending';
CREATE INDEX announcements_by_game ON announcements (game_id, id) WHERE game_id IS NOT NULL;
CREATE INDEX announcements_parked ON announcements (finished_at) WHERE status = 'parked';
