"""Errors the services raise; each message is shown to the player as it is."""

from __future__ import annotations

from bot.storage.failures import Failure, classify


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


class ManagersOnlyError(NotAllowedError):
    """Only members with the Manage Server permission may do this (the server's settings)."""


class TournamentOrganisersOnlyError(NotAllowedError):
    """Only a tournament's creator or the server's organisers (Manage Server, or the
    organiser role) may do this."""


class LeagueOrganisersOnlyError(NotAllowedError):
    """Only a league's creator or the server's organisers (Manage Server, or the
    organiser role) may do this."""


class NotYourTurnError(NotAllowedError):
    """A player tried to move while it is the opponent's turn."""


class InvalidStateError(ServiceError):
    """The game or challenge is not in a state where this can be done."""


class InvalidInputError(ServiceError):
    """A value the person typed is not acceptable (with what would be)."""


class ConflictError(ServiceError):
    """Another action on the same game got there first."""


_FAILURE_WORDS = {
    Failure.FULL: (
        "the bot's disk is full",
        "Please tell the server's moderators; try again later.",
    ),
    Failure.BUSY: ("the database is busy", "Try again in a moment."),
    Failure.READ_ONLY: (
        "the bot's database cannot be written (it is read-only)",
        "Please tell the server's moderators.",
    ),
    Failure.DAMAGED: ("the bot's database is damaged", "Please tell the server's moderators."),
    Failure.DISK: (
        "the bot's disk failed to read or write",
        "Please tell the server's moderators; try again later.",
    ),
    Failure.UNREACHABLE: (
        "the bot could not reach its database",
        "Try again in a moment; if it goes on, please tell the server's moderators.",
    ),
}
"""Why the database failed and what the player can do, in words a player understands."""


class NotStoredError(Exception):
    """The database failed to store a player's action (disk full, busy, read-only, ...).

    Not a `ServiceError`: front ends log it as an error, with its traceback, then show
    its message.
    """

    def __init__(self, action: str, failure: Failure) -> None:
        reason, advice = _FAILURE_WORDS[failure]
        super().__init__(f"Your {action} was not stored: {reason}. {advice}")
        self.failure = failure


def storage_failure(error: BaseException) -> Failure | None:
    """How the database failed, when `error` is such a failure; None for any other."""
    if isinstance(error, NotStoredError):
        return error.failure
    return classify(error)


def for_moderators(failure: Failure) -> bool:
    """True when the player is asked to tell the server's moderators: waiting does not
    mend this failure, the bot's operator does."""
    return "moderators" in _FAILURE_WORDS[failure][1]


def storage_failure_message(error: BaseException) -> str | None:
    """What to tell the player whose request failed with `error`, when the database
    failed; None for any other error."""
    if isinstance(error, NotStoredError):
        return str(error)
    failure = classify(error)
    if failure is None:
        return None
    reason, advice = _FAILURE_WORDS[failure]
    return f"That could not be stored: {reason}. {advice}"
