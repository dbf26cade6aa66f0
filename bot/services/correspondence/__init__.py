"""Correspondence play: clocks, pauses, vacations, conditional moves and turn notifications."""
