"""Competition: ratings and community tournaments."""
