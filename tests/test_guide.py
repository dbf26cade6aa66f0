"""Links into the documentation site: only when it is configured, and only to real pages."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.config import read_config
from bot.discord_ui.errors import user_message
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


def test_links_appear_only_when_the_site_is_configured() -> None:
    """Without `TABULA_DOCS_URL` the text is unchanged; with it, a link without preview."""
    assert page_url(None, Page.PLAYING) is None
    assert with_guide("Ask a moderator.", None, Page.PERMISSIONS) == "Ask a moderator."
    assert with_guide("Ask a moderator.", SITE, Page.PERMISSIONS) == (
        f"Ask a moderator. More: <{SITE}/servers/#inviting-the-bot>"
    )
    assert "<https://" not in help_text()
    assert help_text(SITE).endswith(f"The full guide: <{SITE}/playing/discord/>")
    assert len(help_text(SITE + "/" + "x" * 200)) <= 2000


def test_refusals_that_send_the_user_elsewhere_link_the_site() -> None:
    """Missing permissions (the bot's or the user's) point to the page that explains them."""
    forbidden = discord.Forbidden(
        cast(aiohttp.ClientResponse, SimpleNamespace(status=403, reason="Forbidden")),
        {"code": 50013, "message": "Missing Permissions"},
    )
    bot_side = user_message(forbidden, SITE)
    assert bot_side is not None and bot_side.endswith(f"<{SITE}/servers/#inviting-the-bot>")
    user_side = user_message(app_commands.MissingPermissions(["manage_guild"]), SITE)
    assert user_side is not None
    assert user_side.endswith(f"<{SITE}/servers/#config-the-servers-settings>")
    assert user_message(forbidden) is not None and "<" not in (user_message(forbidden) or "")


def test_the_setting_takes_only_web_addresses(tmp_path: Path) -> None:
    """`TABULA_DOCS_URL` is an http(s) address, kept without its trailing slash."""
    none = tmp_path / "none"
    report = read_config({"TABULA_DOCS_URL": SITE + "/"}, none, none)
    assert report.settings.docs_url == SITE and not report.problems
    bad = read_config({"TABULA_DOCS_URL": "docs.example.org"}, none, none)
    assert bad.settings.docs_url is None
    assert any("TABULA_DOCS_URL" in problem for problem in bad.problems)
