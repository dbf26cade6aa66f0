"""Board images: each game state drawn as a Pillow image."""
