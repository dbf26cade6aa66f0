-- Reads per player or per server in the order they are shown, straight from an index
-- (no sort of every row): /leaderboard's ratings of a game, and a player's vacations.
-- (/history, /games and challenges use the partial indexes on each seat, one lookup
-- per seat.) The new ratings index starts with the old one's columns, which it replaces.
CREATE INDEX ratings_by_game_order ON ratings (game, rating DESC, deviation, user_id);
DROP INDEX ratings_by_game;
CREATE INDEX vacations_by_user_start ON vacations (user_id, started_at);
