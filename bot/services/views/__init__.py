"""What services return and announcements carry: games, tournaments, leagues, alerts."""
