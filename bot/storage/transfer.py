"""Copying one database into another, table by table (`tabula migrate-database`).

Both sides are migrated to the same schema first; each table's rows are copied with
their ids, in an order their references allow (a reference that goes round in a circle,
a challenge's game and the game's challenge, is filled in once both rows exist), all in
one transaction on the target. Values are converted to the target's types (SQLite keeps
times as ISO 8601 text and flags as 0/1). Afterwards PostgreSQL's identity sequences are
set past the highest id, so new rows get new numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.storage.database import Dialect
from bot.storage.sql import SqlRepository

BOOKKEEPING = frozenset({"tabula_schema", "sqlite_sequence"})
"""Tables that belong to the database, not to Tabula's data."""


class TransferError(Exception):
    """The two databases cannot be copied into one another (their tables differ)."""


@dataclass(frozen=True)
class Table:
    """A table as the copy sees it."""

    name: str
    columns: tuple[str, ...]
    """The columns that are copied (not those the database fills in by itself)."""
    key: tuple[str, ...]
    """The primary key (rows are updated by it)."""
    references: tuple[tuple[str, str], ...] = ()
    """(column, table it refers to)."""
    nullable: frozenset[str] = frozenset()
    types: Mapping[str, str] = field(default_factory=dict)
    """Column → its type as the database names it."""
    order: str = ""
    """How to read the rows in the order they were stored."""
    identities: tuple[str, ...] = ()
    """Columns numbered by a sequence (PostgreSQL)."""


async def describe(repository: SqlRepository) -> dict[str, Table]:
    """Every table of Tabula's data in the database, by name."""
    if repository.dialect is Dialect.POSTGRESQL:
        return await _describe_postgres(repository)
    return await _describe_sqlite(repository)


async def _describe_sqlite(repository: SqlRepository) -> dict[str, Table]:
    db = repository.database
    names = [
        row["name"]
        for row in await db.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"  # SQLite's own (sqlite_stat1)
        )
        if row["name"] not in BOOKKEEPING
    ]
    found = {}
    for name in names:
        info = await db.fetch_all(f"PRAGMA table_info({_quoted(name)})")
        keys = sorted((row["pk"], row["name"]) for row in info if row["pk"])
        foreign = await db.fetch_all(f"PRAGMA foreign_key_list({_quoted(name)})")
        found[name] = Table(
            name=name,
            columns=tuple(row["name"] for row in info),
            key=tuple(column for _, column in keys),
            references=tuple((row["from"], row["table"]) for row in foreign),
            nullable=frozenset(row["name"] for row in info if not row["notnull"]),
            types={row["name"]: str(row["type"]).lower() for row in info},
            order="rowid",
        )
    return found


async def _describe_postgres(repository: SqlRepository) -> dict[str, Table]:
    db = repository.database
    columns = await db.fetch_all(
        "SELECT table_name, column_name, data_type, is_nullable, is_identity, "
        "identity_generation FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    keys = await db.fetch_all(
        "SELECT t.relname AS table_name, a.attname AS column_name FROM pg_index i "
        "JOIN pg_class t ON t.oid = i.indrelid JOIN pg_attribute a ON a.attrelid = t.oid "
        "AND a.attnum = ANY(i.indkey) WHERE i.indisprimary "
        "AND t.relnamespace = current_schema()::regnamespace ORDER BY t.relname, a.attnum"
    )
    foreign = await db.fetch_all(
        "SELECT c.relname AS table_name, a.attname AS column_name, p.relname AS parent "
        "FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid "
        "JOIN pg_class p ON p.oid = k.confrelid JOIN pg_attribute a ON a.attrelid = c.oid "
        "AND a.attnum = ANY(k.conkey) WHERE k.contype = 'f' "
        "AND k.connamespace = current_schema()::regnamespace ORDER BY c.relname, a.attnum"
    )
    by_table: dict[str, list[Any]] = {}
    for row in columns:
        if row["table_name"] not in BOOKKEEPING:
            by_table.setdefault(row["table_name"], []).append(row)
    found = {}
    for name, rows in by_table.items():
        generated = {r["column_name"] for r in rows if r["identity_generation"] == "ALWAYS"}
        identities = tuple(r["column_name"] for r in rows if r["is_identity"] == "YES")
        key = tuple(r["column_name"] for r in keys if r["table_name"] == name)
        found[name] = Table(
            name=name,
            columns=tuple(r["column_name"] for r in rows if r["column_name"] not in generated),
            key=key,
            references=tuple(
                (r["column_name"], r["parent"]) for r in foreign if r["table_name"] == name
            ),
            nullable=frozenset(r["column_name"] for r in rows if r["is_nullable"] == "YES"),
            types={r["column_name"]: r["data_type"] for r in rows},
            order=", ".join(identities or key),
            identities=identities,
        )
    return found


def _quoted(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise TransferError(f"unexpected table or column name {name!r}")
    return f'"{name}"'


def _columns(names: Iterable[str]) -> str:
    return ", ".join(_quoted(name) for name in names)


async def count_rows(repository: SqlRepository, table: str) -> int:
    """How many rows the table holds."""
    row = await repository.database.fetch_one(f"SELECT COUNT(*) AS n FROM {_quoted(table)}")
    assert row is not None
    return int(row["n"])


def copy_order(tables: Mapping[str, Table]) -> list[tuple[Table, frozenset[str]]]:
    """The tables in an order their references allow, each with the columns to fill in
    only after every table is copied (references going round in a circle)."""
    done: set[str] = set()
    ordered: list[tuple[Table, frozenset[str]]] = []
    remaining = dict(sorted(tables.items()))
    while remaining:

        def waiting(table: Table) -> list[str]:
            return [
                column
                for column, parent in table.references
                if parent != table.name and parent in remaining
            ]

        ready = [table for table in remaining.values() if not waiting(table)]
        if ready:
            table, later = ready[0], frozenset[str]()
        else:  # a circle: copy the table with the fewest waiting references first
            table = min(remaining.values(), key=lambda t: (len(waiting(t)), t.name))
            later = frozenset(waiting(table))
            if not later <= table.nullable:
                raise TransferError(f"{table.name} refers in a circle through a required column")
        ordered.append((table, later))
        done.add(table.name)
        del remaining[table.name]
    return ordered


def _converter(dialect: Dialect, kind: str) -> Callable[[Any], Any]:
    """How a value read from the other database is written into a column of `kind`."""
    if dialect is not Dialect.POSTGRESQL:
        return lambda value: value  # SQLite takes Python values (times become text)
    if kind.startswith("timestamp"):
        return _as_time
    if kind == "boolean":
        return lambda value: None if value is None else bool(value)
    if kind in ("double precision", "real", "numeric"):
        return lambda value: None if value is None else float(value)
    return lambda value: value


def _as_time(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    moment = datetime.fromisoformat(str(value))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def clear(repository: SqlRepository, steps: Sequence[Step]) -> None:
    """Delete every row of these tables (in one transaction)."""
    async with repository.database.transaction() as db:
        for step in steps:
            for column in sorted(step.later):
                await db.execute(f"UPDATE {_quoted(step.table.name)} SET {_quoted(column)} = NULL")
        for step in reversed(steps):
            await db.execute(f"DELETE FROM {_quoted(step.table.name)}")


@dataclass(frozen=True)
class Step:
    """One table to copy: how the source reads it, what the target takes."""

    table: Table
    """The target's table."""
    later: frozenset[str]
    """Columns filled in after every table is copied (references in a circle)."""
    columns: tuple[str, ...]
    read_order: str
    """The source's order of its rows (their ids; SQLite's rowid)."""


async def copy_rows(
    source: SqlRepository, target: SqlRepository, steps: Sequence[Step]
) -> dict[str, int]:
    """Copy every table's rows in one transaction on the target; how many each had."""
    copied: dict[str, int] = {}
    fill_ins: list[tuple[Table, str, list[tuple[Any, ...]]]] = []
    async with target.database.transaction() as db:
        for step in steps:
            table, names = step.table, list(step.columns)
            order_by = f" ORDER BY {step.read_order}" if step.read_order else ""
            selected = await source.database.fetch_all(
                f"SELECT {_columns(names)} FROM {_quoted(table.name)}{order_by}"
            )
            convert = [_converter(target.dialect, table.types.get(n, "")) for n in names]
            rows = [
                tuple(
                    None if name in step.later else fix(row[index])
                    for index, (name, fix) in enumerate(zip(names, convert, strict=True))
                )
                for row in selected
            ]
            marks = ", ".join("?" for _ in names)
            await db.execute_many(
                f"INSERT INTO {_quoted(table.name)} ({_columns(names)}) VALUES ({marks})", rows
            )
            keys = [names.index(k) for k in table.key]
            for column in sorted(step.later):
                index = names.index(column)
                values = [
                    (convert[index](row[index]), *(convert[k](row[k]) for k in keys))
                    for row in selected
                    if row[index] is not None
                ]
                fill_ins.append((table, column, values))
            copied[table.name] = len(rows)
        for table, column, values in fill_ins:
            where = " AND ".join(f"{_quoted(k)} = ?" for k in table.key)
            await db.execute_many(
                f"UPDATE {_quoted(table.name)} SET {_quoted(column)} = ? WHERE {where}", values
            )
    return copied


async def reset_sequences(repository: SqlRepository, tables: Iterable[Table]) -> list[str]:
    """Set each identity sequence past the highest number in its column (PostgreSQL;
    SQLite numbers new rows past the highest by itself); the columns reset."""
    if repository.dialect is not Dialect.POSTGRESQL:
        return []
    reset = []
    async with repository.database.transaction() as db:
        for table in tables:
            for column in table.identities:
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence(?, ?), "
                    f"COALESCE((SELECT MAX({_quoted(column)}) FROM {_quoted(table.name)}), 0) + 1, "
                    "false)",
                    (table.name, column),
                )
                reset.append(f"{table.name}.{column}")
    return reset


@dataclass(frozen=True)
class CopyReport:
    """What `copy_database` did."""

    copied: dict[str, int]
    """Rows copied, by table, in the order copied."""
    replaced: dict[str, int]
    """Rows the target held before and that were deleted (`force`), by table."""
    sequences: list[str]
    """Identity columns whose sequences were set past the highest id."""
    counts: dict[str, tuple[int, int]]
    """Rows in the source and in the target afterwards, by table."""

    @property
    def mismatched(self) -> list[str]:
        """Tables whose row counts differ between source and target."""
        return [name for name, (here, there) in self.counts.items() if here != there]


async def plan(source: SqlRepository, target: SqlRepository) -> list[Step]:
    """The tables to copy, in order; `TransferError` when the schemas differ."""
    theirs, ours = await describe(source), await describe(target)
    if set(theirs) != set(ours):
        only_source = ", ".join(sorted(set(theirs) - set(ours))) or "none"
        only_target = ", ".join(sorted(set(ours) - set(theirs))) or "none"
        raise TransferError(
            f"the databases hold different tables (only in the source: {only_source}; "
            f"only in the target: {only_target})"
        )
    steps = []
    for table, later in copy_order(ours):
        source_columns = set(theirs[table.name].columns)
        if source_columns != set(table.columns):
            raise TransferError(
                f"the table {table.name} has different columns in the source "
                f"({', '.join(sorted(source_columns))}) and in the target "
                f"({', '.join(sorted(table.columns))})"
            )
        steps.append(Step(table, later, table.columns, theirs[table.name].order))
    return steps


async def copy_database(
    source: SqlRepository, target: SqlRepository, *, force: bool = False
) -> CopyReport:
    """Copy every row of `source` into `target` (both migrated to the same schema) and
    count both afterwards. A target holding rows is refused (`TransferError`) unless
    `force`, which deletes them first."""
    steps = await plan(source, target)
    held = {step.table.name: await count_rows(target, step.table.name) for step in steps}
    replaced = {name: n for name, n in held.items() if n}
    if replaced and not force:
        listed = ", ".join(f"{name} {n}" for name, n in replaced.items())
        raise TransferError(
            f"the target already holds data ({listed} rows); copying into it would mix two "
            "communities: give --force to delete it first"
        )
    if replaced:
        await clear(target, steps)
    copied = await copy_rows(source, target, steps)
    sequences = await reset_sequences(target, [step.table for step in steps])
    counts = {
        step.table.name: (
            await count_rows(source, step.table.name),
            await count_rows(target, step.table.name),
        )
        for step in steps
    }
    return CopyReport(copied, replaced, sequences, counts)
