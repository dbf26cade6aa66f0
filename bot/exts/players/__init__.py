"""A player's own commands: vacations and notification settings."""
