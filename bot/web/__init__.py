"""The web front end: game, tournament and player pages, live, and play by clicking."""
