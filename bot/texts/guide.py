"""Links into the documentation site, for answers that send a user elsewhere.

They appear only when `TABULA_DOCS_URL` says where the site is published; the pages are
the site's, built by `mkdocs build` from `docs/` with MkDocs' directory addresses.
"""

from __future__ import annotations

from enum import Enum


class Page(Enum):
    """A page (and section) of the documentation site, as its address below the root."""

    PLAYING = "playing/discord/"
    PERMISSIONS = "servers/#inviting-the-bot"
    SERVER_SETTINGS = "servers/#config-the-servers-settings"
    TOURNAMENTS = "servers/tournaments/"
    CORRESPONDENCE = "playing/correspondence/"
    RECORDS = "records/"


def page_url(docs_url: str | None, page: Page) -> str | None:
    """The address of a page of the site, or None when no site is configured."""
    if docs_url is None:
        return None
    return f"{docs_url.rstrip('/')}/{page.value}"


def with_guide(text: str, docs_url: str | None, page: Page, label: str = "More") -> str:
    """`text`, followed by a link to a page of the site when one is configured (in angle
    brackets, so that Discord shows no preview)."""
    url = page_url(docs_url, page)
    return text if url is None else f"{text} {label}: <{url}>"
