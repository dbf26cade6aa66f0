"""Games from challenge to result: challenges, moves and offers, rematches, what they return."""
