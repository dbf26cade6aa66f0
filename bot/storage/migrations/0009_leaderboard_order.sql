-- /leaderboard: a game's ratings in the leaderboard's order, read from the index without
-- sorting every rating of the game. (The per-player lookups of /history, /games and
-- challenges use the partial indexes on each seat, one lookup per seat.)
CREATE INDEX ratings_by_game_order ON ratings (game, rating DESC, deviation, user_id);
DROP INDEX ratings_by_game;
