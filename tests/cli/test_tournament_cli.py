"""`tabula tournament export ID --format trf` over a database file, read back by `pair`."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.competition.records import Result
from bot.competition.tournament import Format, Tournament
from bot.competition.trf import read_trf
from bot.storage.competition import EntrantRecord, NewTournament, TournamentStatus
from bot.storage.sqlite import SqliteRepository

NOW = datetime(2026, 11, 1, 12, tzinfo=UTC)


def stored_swiss(database: Path, format: Format = Format.SWISS) -> tuple[int, Tournament]:
    """A Swiss of six with two rounds played, stored; its id and its state."""

    async def store() -> tuple[int, Tournament]:
        repository = await SqliteRepository.open(database)
        try:
            record = await repository.create_tournament(
                NewTournament(
                    guild_id=1,
                    channel_id=2,
                    name="Autumn Swiss",
                    organiser_id=3,
                    organiser_name="Org",
                    game="stones",
                    options={},
                    format=format,
                    swiss_rounds=4,
                    time_control="3d",
                    rated=True,
                    max_players=32,
                    entry_closes_at=None,
                    created_at=NOW,
                )
            )
            entrants = [
                EntrantRecord(record.id, 100 + n, f"Player {n}", NOW, seed=n, rating=1900 - 10 * n)
                for n in range(1, 7)
            ]
            for entrant in entrants:
                await repository.add_entrant(dataclasses.replace(entrant, seed=None))
            started = dataclasses.replace(
                record, status=TournamentStatus.RUNNING, rounds=4, started_at=NOW
            )
            await repository.start_tournament(started, entrants)
            state = Tournament(format, tuple(e.user_id for e in entrants), 4)
            for result in (Result.FIRST_WINS, Result.DRAW):
                made = state.advance()
                stored = await repository.add_pairings(record.id, made)
                for pairing in stored:
                    if pairing.second_id is not None:
                        await repository.set_pairing_result(pairing.id, result)
                state = state.with_pairings(p if p.is_bye else p.with_result(result) for p in made)
            return record.id, state
        finally:
            await repository.close()

    return asyncio.run(store())


def test_export_writes_the_stored_swiss_and_pair_reads_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exported file holds both rounds; `tournament pair` on it prints the round the
    bot would pair next, by starting rank."""
    database = tmp_path / "t.sqlite3"
    tournament_id, state = stored_swiss(database)
    trf = tmp_path / "event.trf"
    args = ["tournament", "export", str(tournament_id), "--database", str(database)]
    assert main([*args, "--format", "trf", "-o", str(trf)]) == 0
    event = read_trf(trf.read_text(encoding="utf-8"))
    assert event.name == "Autumn Swiss" and event.rounds == 4 and event.played_rounds == 2
    assert event.names[1] == "Player 1" and event.ratings[1] == 1890
    number = {p: i + 1 for i, p in enumerate(state.players)}
    assert {(p.round, p.first, p.second) for p in event.pairings} == {
        (p.round, number[p.first], None if p.second is None else number[p.second])
        for p in state.pairings
    }
    assert main(["tournament", "pair", str(trf)]) == 0
    printed = capsys.readouterr().out
    expected = [f"{number[p.first]:4d} - {number[p.second]}" for p in state.advance() if p.second]
    assert printed.startswith("round 3: 3 boards")
    assert all(board in printed for board in expected)
    assert main(args) == 0
    assert capsys.readouterr().out == trf.read_text(encoding="utf-8")


def test_export_refusals_say_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown tournament, a knockout, a missing database: one line each, exit 1."""
    database = tmp_path / "t.sqlite3"
    stored_swiss(database)
    knockout_id, _ = stored_swiss(database, Format.SINGLE_ELIMINATION)
    assert main(["tournament", "export", "99", "--database", str(database)]) == 1
    assert capsys.readouterr().err == "tabula: there is no tournament #99\n"
    assert main(["tournament", "export", str(knockout_id), "--database", str(database)]) == 1
    assert "is a knockout" in capsys.readouterr().err
    assert main(["tournament", "export", "1", "--database", str(tmp_path / "no.sqlite3")]) == 1
    assert "there is no database at" in capsys.readouterr().err
