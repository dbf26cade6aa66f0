"""Errors the services raise; each message is shown to the player as it is."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the services refuse, with a message for the person who made it."""

    @property
    def message(self) -> str:
        """The text to show."""
        return str(self)


class NotFoundError(ServiceError):
    """No game or challenge with that id (or none that the request could mean)."""


class NotAllowedError(ServiceError):
    """The person may not do this: not a player, not the one challenged, no permission."""


class NotYourTurnError(NotAllowedError):
    """A player tried to move while it is the opponent's turn."""


class InvalidStateError(ServiceError):
    """The game or challenge is not in a state where this can be done."""


class InvalidInputError(ServiceError):
    """A value the person typed is not acceptable (with what would be)."""


class ConflictError(ServiceError):
    """Another action on the same game got there first."""
