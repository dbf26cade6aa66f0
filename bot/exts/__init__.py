"""Discord extensions (cogs), one module per area; each ends with `async def setup(bot)`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from bot import exts


def walk_extensions() -> list[str]:
    """The dotted names of every extension module (those defining `setup`), sorted."""
    found = []
    for module in pkgutil.walk_packages(exts.__path__, f"{exts.__name__}."):
        if module.ispkg:
            continue
        imported = importlib.import_module(module.name)
        if inspect.iscoroutinefunction(getattr(imported, "setup", None)):
            found.append(module.name)
    return sorted(found)
