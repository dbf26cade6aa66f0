"""The Discord-free service layer: challenges, games, settings, scheduling.

Services take plain ids, return plain results and raise `ServiceError`s whose messages
are shown to players as they are; their repository, clock and notifier are injected.
"""
