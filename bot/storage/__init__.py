"""Storage: the repository interface (`repository`) and its SQLite implementation (`sqlite`)."""
