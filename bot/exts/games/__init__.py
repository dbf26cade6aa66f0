"""Extensions for playing: challenges, moves, game lists."""
