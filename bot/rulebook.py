"""The games' rules pages (`docs/rules/<game>.md`), found in a checkout or an installation.

A checkout reads them from `docs/rules/` beside the packages; `pip install .` copies them
to `share/tabula/rules/` under the installation's data folder (`pyproject.toml`,
`[tool.setuptools.data-files]`), which is where an installed bot (the Docker image) finds
them.
"""

from __future__ import annotations

import os
import sysconfig
from collections.abc import Iterator
from pathlib import Path

from rules import AnyGame

CHECKOUT_PAGES = Path(__file__).resolve().parent.parent / "docs" / "rules"
"""The pages in a source checkout (also what an editable install uses)."""
INSTALLED_PAGES = Path("share") / "tabula" / "rules"
"""Where `pip install` puts the pages, relative to the installation's data folder."""


class MissingRulesPageError(LookupError):
    """A game has no rules page where Tabula looks for them."""


def _folders() -> Iterator[Path]:
    """Where the pages may be, in the order they are tried."""
    yield CHECKOUT_PAGES
    schemes = [sysconfig.get_default_scheme()]
    user = f"{os.name}_user"
    if user in sysconfig.get_scheme_names():
        schemes.append(user)
    for scheme in schemes:
        yield Path(sysconfig.get_paths(scheme)["data"]) / INSTALLED_PAGES


def page_path(game: AnyGame) -> Path:
    """The file of `game`'s rules page; `MissingRulesPageError` when there is none."""
    for folder in _folders():
        path = folder / f"{game.name}.md"
        if path.is_file():
            return path
    raise MissingRulesPageError(f"the rules page {game.name}.md is not installed")


def page_text(game: AnyGame) -> str:
    """The Markdown text of `game`'s rules page."""
    return page_path(game).read_text(encoding="utf-8")
