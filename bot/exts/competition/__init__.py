"""Ratings and tournaments."""
