"""Links into the documentation site, for answers that send a user elsewhere.

They appear only when `TABULA_DOCS_URL` says where the site is published; the pages are
the site's, built by `mkdocs build` from `docs/` with MkDocs' directory addresses.
"""

from __future__ import annotations

from enum import Enum

from bot.services.errors import (
    LeagueOrganisersOnlyError,
    ManagersOnlyError,
    TournamentOrganisersOnlyError,
    for_moderators,
    storage_failure,
)


class Page(Enum):
    """A page (and section) of the documentation site, as its address below the root."""

    PLAYING = "playing/discord/"
    PERMISSIONS = "servers/permissions/#when-a-permission-is-missing"
    SERVER_SETTINGS = "servers/#config-the-servers-settings"
    TOURNAMENTS = "servers/tournaments/"
    LEAGUES = "servers/leagues/#creating-a-league-organisers"
    DATABASE_HEALTH = "operating/maintenance/#health-tabula-doctor"


_REFUSAL_PAGES: tuple[tuple[type[Exception], Page], ...] = (
    (ManagersOnlyError, Page.SERVER_SETTINGS),
    (TournamentOrganisersOnlyError, Page.TOURNAMENTS),
    (LeagueOrganisersOnlyError, Page.LEAGUES),
)
"""The refusals that send the user to someone with a permission or role, and the page
that says who that is."""


def refusal_page(error: BaseException) -> Page | None:
    """The page explaining a refusal or failure that sends the user to someone else: who
    may change the server's settings or organise events, or, when the database failed in
    a way only the bot's operator can mend, how the operator checks it. None otherwise."""
    for kind, page in _REFUSAL_PAGES:
        if isinstance(error, kind):
            return page
    failure = storage_failure(error)
    if failure is not None and for_moderators(failure):
        return Page.DATABASE_HEALTH
    return None


def page_url(docs_url: str | None, page: Page) -> str | None:
    """The address of a page of the site, or None when no site is configured."""
    if docs_url is None:
        return None
    return f"{docs_url.rstrip('/')}/{page.value}"


def with_guide(text: str, docs_url: str | None, page: Page | None, label: str = "More") -> str:
    """`text`, followed by a link to a page of the site when one is configured (in angle
    brackets, so that Discord shows no preview)."""
    url = None if page is None else page_url(docs_url, page)
    return text if url is None else f"{text} {label}: <{url}>"
