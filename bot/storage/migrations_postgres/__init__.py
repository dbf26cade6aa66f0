"""Numbered PostgreSQL migrations (0001_initial.sql, ...), applied in order at start-up."""
