"""Links into the documentation site: only when it is configured, and only to real pages."""

from __future__ import annotations

import re
from collections.abc import Coroutine
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.config import read_config
from bot.discord_ui.delivery import undelivered_text
from bot.discord_ui.errors import APOLOGY, failure_message, user_message
from bot.services.announcing.announcements import UndeliveredNotice
from bot.services.announcing.notify import NullNotifier
from bot.services.announcing.outbox import Refusal
from bot.services.clock import ManualClock
from bot.services.competition.tournaments import Member
from bot.services.container import Services
from bot.services.errors import NotStoredError, ServiceError
from bot.services.games.players import Player
from bot.services.views.leagues import LeagueView
from bot.services.views.tournaments import TournamentView
from bot.storage.failures import Failure
from bot.storage.sqlite import MEMORY, SqliteRepository
from bot.texts.games import help_text
from bot.texts.guide import Page, page_url, with_guide

ROOT = Path(__file__).resolve().parent.parent
SITE = "https://tabula.example.org/docs"


def headings_slugs(text: str) -> set[str]:
    """The anchors MkDocs gives a page's headings (its toc extension's slugs)."""
    slugs = set()
    for line in text.splitlines():
        if match := re.match(r"#+ (.*)", line):
            title = re.sub(r"[`*]", "", match.group(1)).strip().lower()
            slugs.add(re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", title)))
    return slugs


@pytest.mark.parametrize("page", list(Page), ids=lambda page: page.name)
def test_every_linked_page_and_section_exists(page: Page) -> None:
    """Each address is a page of `docs/` (directory addresses) and, with a #, its heading."""
    path, _, anchor = page.value.partition("#")
    source = ROOT / "docs" / path.rstrip("/")
    source = source / "index.md" if source.is_dir() else source.with_suffix(".md")
    assert source.is_file(), page
    if anchor:
        assert anchor in headings_slugs(source.read_text(encoding="utf-8")), page


@pytest.mark.parametrize("page", list(Page), ids=lambda page: page.name)
def test_every_page_is_linked_from_the_code(page: Page) -> None:
    """No address is kept that no answer links."""
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "bot").rglob("*.py")]
    assert any(f"Page.{page.name}" in source for source in sources), page


def test_links_appear_only_when_the_site_is_configured() -> None:
    """Without `TABULA_DOCS_URL` the text is unchanged; with it, a link without preview."""
    assert page_url(None, Page.PLAYING) is None
    assert with_guide("Ask a moderator.", None, Page.PERMISSIONS) == "Ask a moderator."
    assert with_guide("Ask a moderator.", SITE, Page.PERMISSIONS) == (
        f"Ask a moderator. More: <{SITE}/servers/permissions/#when-a-permission-is-missing>"
    )
    assert with_guide("Ask a moderator.", SITE, None) == "Ask a moderator."
    assert "<https://" not in help_text()
    assert help_text(SITE).endswith(f"The full guide: <{SITE}/playing/discord/>")
    assert len(help_text(SITE + "/" + "x" * 200)) <= 2000


def test_a_refusal_by_discord_links_the_permissions_page() -> None:
    """Discord refusing the bot something points to the page on its permissions."""
    forbidden = discord.Forbidden(
        cast(aiohttp.ClientResponse, SimpleNamespace(status=403, reason="Forbidden")),
        {"code": 50013, "message": "Missing Permissions"},
    )
    bot_side = user_message(forbidden, SITE)
    assert bot_side is not None
    assert bot_side.endswith(f"<{SITE}/servers/permissions/#when-a-permission-is-missing>")
    assert user_message(forbidden) is not None and "<" not in (user_message(forbidden) or "")


async def refused(call: Coroutine[Any, Any, object]) -> ServiceError:
    """The service's refusal of `call`."""
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value


async def test_refusals_that_send_the_user_elsewhere_link_the_site() -> None:
    """The refusals players really get for lacking Manage Server or the organiser role
    end with the page saying who may do it; other refusals and an unset site add none."""
    repository = await SqliteRepository.open(MEMORY)
    services = Services.build(repository, ManualClock(), NullNotifier())
    try:
        bob = Member(Player(2, "Bob"))
        carol = Member(Player(3, "Carol"), can_manage=True)
        tournaments, leagues = services.tournaments, services.leagues

        def cup(member: Member) -> Coroutine[Any, Any, object]:
            return tournaments.create(
                guild_id=10, channel_id=20, member=member, game="groups", format="round-robin"
            )

        def league(member: Member) -> Coroutine[Any, Any, object]:
            return leagues.create(
                guild_id=10, channel_id=20, member=member, game="groups", season="30d"
            )

        cup_id = cast(TournamentView, await cup(carol)).id
        league_id = cast(LeagueView, await league(carol)).id
        expected: dict[Page, list[Coroutine[Any, Any, object]]] = {
            Page.SERVER_SETTINGS: [services.settings.update(10, can_manage=False, threads=False)],
            Page.TOURNAMENTS: [cup(bob), tournaments.cancel(10, cup_id, bob)],
            Page.LEAGUES: [league(bob), leagues.cancel(10, league_id, bob)],
        }
        for page, calls in expected.items():
            for call in calls:
                error = await refused(call)
                message = user_message(error, SITE)
                assert message == f"{error} More: <{SITE}/{page.value}>"
                assert user_message(error) == str(error)
        own = await refused(leagues.join(10, league_id, Player(4, "Robot", is_bot=True)))
        assert user_message(own, SITE) == str(own)  # nobody else can help with that
    finally:
        await repository.close()


def test_failures_only_the_operator_can_mend_link_the_health_checks() -> None:
    """ "Tell the server's moderators" comes with the page on checking the database; "try
    again in a moment" and unexpected errors come without."""
    damaged = failure_message(NotStoredError("move", Failure.DAMAGED), SITE)
    assert "tell the server's moderators" in damaged
    assert damaged.endswith(f"<{SITE}/operating/maintenance/#health-tabula-doctor>")
    assert "<" not in failure_message(NotStoredError("move", Failure.DAMAGED))
    busy = failure_message(NotStoredError("move", Failure.BUSY), SITE)
    assert busy.endswith("Try again in a moment.")
    assert failure_message(RuntimeError("boom"), SITE) == APOLOGY


def test_the_undelivered_board_message_links_the_permissions_page() -> None:
    """The direct message asking for a moderator's help links the permissions page."""
    notice = UndeliveredNotice(5, 7, 30, "Discord refused to let me post there", Refusal.ACCESS)
    text = undelivered_text(notice, SITE)
    assert "ask a moderator" in text
    assert text.endswith(f"<{SITE}/servers/permissions/#when-a-permission-is-missing>")
    assert "<http" not in undelivered_text(notice)
    locked = UndeliveredNotice(5, 7, 30, "the thread is locked", Refusal.CLOSED)
    assert "<http" not in undelivered_text(locked, SITE)  # not a permission to give back


def test_the_setting_takes_only_web_addresses(tmp_path: Path) -> None:
    """`TABULA_DOCS_URL` is an http(s) address, kept without its trailing slash."""
    none = tmp_path / "none"
    report = read_config({"TABULA_DOCS_URL": SITE + "/"}, none, none)
    assert report.settings.docs_url == SITE and not report.problems
    bad = read_config({"TABULA_DOCS_URL": "docs.example.org"}, none, none)
    assert bad.settings.docs_url is None
    assert any("TABULA_DOCS_URL" in problem for problem in bad.problems)
