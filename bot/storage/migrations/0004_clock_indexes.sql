-- The scheduler looks for timed games whose clock is missing or behind on every tick:
-- index the active timed games so that it does not read every game ever played.
CREATE INDEX games_active_timed ON games (id) WHERE status = 'active' AND time_control != 'none';
