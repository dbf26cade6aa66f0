"""The architecture holds: imports point one way, between the top-level folders and
between the subject packages of the service layer, and no module imports itself round."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SERVICE_LAYERS: list[frozenset[str]] = [
    frozenset(
        {"background", "clock", "durations", "errors", "gate", "ids", "locks", "scheduler"}
        | {"settings", "statistics"}
    ),
    frozenset({"views"}),
    frozenset({"announcing"}),
    frozenset({"records"}),
    frozenset({"games"}),
    frozenset({"correspondence", "competition", "computer"}),
    frozenset({"servers"}),
    frozenset({"delivery"}),
    frozenset({"container"}),
]
"""The service layer's parts, lowest first: each imports only from the layers before it and
from itself (parts side by side in one layer never import each other). `docs/design`
draws the same order."""

FRONT_ENDS = ("bot.exts", "bot.discord_ui", "bot.console", "bot.web", "bot.cli", "bot.client")
"""The front ends: the services know none of them."""


def modules(folder: str) -> Iterator[tuple[str, Path]]:
    """Every module under `folder` (a top-level folder or a package path), with its name."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


@cache
def imports(path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """What `path` imports anywhere (also inside functions and under TYPE_CHECKING: a
    dependency all the same): (module, names taken from it) for each import."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, tuple(alias.name for alias in node.names)))
    return tuple(found)


def imported(path: Path, known: frozenset[str] = frozenset()) -> frozenset[str]:
    """The modules `path` imports: `from package import module` counts as the module
    when it is one of `known`, as the package otherwise."""
    names: set[str] = set()
    for module, taken in imports(path):
        submodules = {f"{module}.{name}" for name in taken} & known
        names.update(submodules or {module})
        if len(submodules) < len(taken):
            names.add(module)
        names.update(f"{module}.{name}" for name in taken)
    return frozenset(names)


def under(name: str, *prefixes: str) -> bool:
    """True when module `name` is one of `prefixes` or inside one of them."""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def service_part(name: str) -> str | None:
    """The part of the service layer module `name` belongs to (its subject package, or the
    top-level module's own name); None outside the service layer."""
    parts = name.split(".")
    if parts[:2] != ["bot", "services"] or len(parts) < 3:
        return None
    return parts[2]


def layer_of(part: str) -> int:
    """The index in SERVICE_LAYERS of a service part."""
    for index, layer in enumerate(SERVICE_LAYERS):
        if part in layer:
            return index
    raise AssertionError(f"bot/services/{part} is in no layer: add it to SERVICE_LAYERS")


@pytest.mark.parametrize(
    ("folder", "forbidden"),
    [
        ("rules", ("bot", "renderers", "PIL", "discord", "aiohttp", "aiosqlite", "asyncpg")),
        ("renderers", ("bot", "discord", "aiohttp", "aiosqlite", "asyncpg")),
        ("bot/services", (*FRONT_ENDS, "discord", "aiohttp", "PIL", "aiosqlite", "asyncpg")),
        ("bot/storage", ("bot.services", *FRONT_ENDS, "discord", "aiohttp", "PIL")),
        ("bot/texts", ("discord", *FRONT_ENDS)),
    ],
)
def test_folders_import_only_downwards(folder: str, forbidden: tuple[str, ...]) -> None:
    """Rules know nothing of pictures or the bot, pictures nothing of the bot, services no
    front end, no Discord, no web server, no Pillow and no SQL driver."""
    found = [
        f"{name} imports {target}"
        for name, path in modules(folder)
        for target in sorted(imported(path))
        if under(target, *forbidden)
    ]
    assert found == []


def test_service_parts_import_only_lower_layers() -> None:
    """Each part of the service layer imports only from the layers below it."""
    found = []
    for name, path in modules("bot/services"):
        part = service_part(name)
        if part is None:
            continue
        for target in imported(path):
            other = service_part(target)
            if other is None or other == part:
                continue
            # The lowest layer's modules may use each other (the cycle test keeps them apart).
            if layer_of(other) > layer_of(part) or (layer_of(other) == layer_of(part) > 0):
                found.append(f"{name} imports {target}")
    assert sorted(set(found)) == []


def test_no_module_of_the_bot_imports_itself_round() -> None:
    """No cycle among the modules of the project (a cycle hides which one is lower)."""
    known = {
        name: path for folder in ("bot", "rules", "renderers") for name, path in modules(folder)
    }
    names = frozenset(known)
    graph = {
        name: sorted(t for t in imported(path, names) if t in known and t != name)
        for name, path in known.items()
    }
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    cycles: list[str] = []

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in graph[name]:
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                walk(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert cycles == []


def test_every_service_part_has_a_layer() -> None:
    """A new package or module in `bot/services` is placed in the order, not left out."""
    parts = {service_part(name) for name, _ in modules("bot/services")} - {None}
    for part in parts:
        assert part is not None
        layer_of(part)


def test_the_checks_see_a_wrong_import(tmp_path: Path) -> None:
    """The import reader finds an upward import, also one made inside a function."""
    path = tmp_path / "probe.py"
    path.write_text("def f():\n    from bot.services.delivery.dispatcher import Dispatcher\n")
    assert "bot.services.delivery.dispatcher" in imported(path)
    assert layer_of("delivery") > layer_of(service_part("bot.services.games.games") or "")
