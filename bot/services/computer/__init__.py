"""The computer opponent as a service: its games, and its searches run off the event loop."""
