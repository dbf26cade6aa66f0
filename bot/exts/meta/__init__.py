"""Extensions that explain: help and rules."""
