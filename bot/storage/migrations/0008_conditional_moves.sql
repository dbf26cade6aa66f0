-- Conditional moves: each player's tree of replies queued in a game while the opponent
-- is to move. One row per position a tree applies from (`ply`: the game's ply when the
-- opponent's turn began); the player's current tree is their row with the highest ply.
-- The older rows are the trees as they stood before a conditional reply advanced them,
-- so that taking back the turn that triggered a reply brings its tree back.
CREATE TABLE conditional_trees (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    ply        INTEGER NOT NULL,
    tree       TEXT    NOT NULL,        -- JSON: [[expected turn, reply, [what follows]], ...]
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id, ply)
);
CREATE INDEX conditional_trees_user ON conditional_trees (user_id, game_id);

-- Why a player's conditional moves were cleared, kept for a player who does not accept
-- direct messages: shown with the answer to their next command.
CREATE TABLE conditional_notes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    data       TEXT    NOT NULL,        -- JSON: the reason and what it names
    created_at TEXT    NOT NULL,
    shown_at   TEXT
);
CREATE INDEX conditional_notes_waiting ON conditional_notes (user_id, id) WHERE shown_at IS NULL;
