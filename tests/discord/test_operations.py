"""Operations with the real client and the fake Discord: graceful shutdown, SIGTERM,
`tabula sync-commands`."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import pytest

from bot.cli import main
from bot.client import TabulaBot, serve
from bot.config import Settings
from bot.storage.sqlite import SqliteRepository
from tests.discord.test_e2e import COMMANDS, challenge_and_accept, running
from tests.fakediscord.fixtures import FakeClub

TIMEOUT = 10.0


async def live_moves(database: Path, game_id: int) -> list[str]:
    """The moves stored for a game, read from the file after the bot closed."""
    repo = await SqliteRepository.open(database)
    try:
        return [move.notation for move in await repo.list_moves(game_id)]
    finally:
        await repo.close()


async def test_shutdown_finishes_the_move_in_flight_and_refuses_new_requests(
    fake_club: FakeClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """close() while Alice's move is being stored: Bob's click and command get the
    restarting message, Alice's move is stored and answered with the board, then the
    bot disconnects and the database is closed cleanly (no -wal file left)."""
    fake, alice, bob = fake_club.fake, fake_club.alice, fake_club.bob
    database = tmp_path / "t.sqlite3"
    async with running(fake, database) as bot:
        board, thread = await challenge_and_accept(
            fake_club, {"game": "groups", "start": "drop", "colour": "white"}
        )
        repository = bot.services.repository
        storing, release = asyncio.Event(), asyncio.Event()
        record_move = repository.record_move

        async def slow_record_move(*args: object, **kwargs: object) -> object:
            storing.set()
            await release.wait()
            return await record_move(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(repository, "record_move", slow_record_move)
        move = await fake.slash(alice, thread, "move", {"notation": "c3"})
        await asyncio.wait_for(storing.wait(), TIMEOUT)
        closing = asyncio.create_task(bot.close())
        gate = bot.services.gate
        await fake.wait_for(lambda: True if gate.closed else None, what="the gate to close")

        click = await fake.click(bob, board, label="Offer draw")
        refused = await click.response()
        assert refused.ephemeral and refused.message is not None
        assert refused.message.content == "Tabula is restarting. Please try again in a minute."
        command = await fake.slash(bob, thread, "board", {})
        refused = await command.response()
        assert refused.ephemeral and refused.message is not None
        assert "Tabula is restarting" in refused.message.content
        assert not closing.done()

        release.set()
        answered = await move.response()
        assert not answered.ephemeral and answered.message is not None
        assert answered.message.attachments and "c3" in answered.message.content
        await asyncio.wait_for(closing, TIMEOUT)
        assert bot.is_closed()
    assert not database.with_name(database.name + "-wal").exists()
    assert await live_moves(database, 1) == ["c3"]


async def test_sigterm_shuts_the_bot_down_gracefully(
    fake_club: FakeClub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`serve` turns SIGTERM into close(): disconnected, database closed, handlers removed."""
    caplog.set_level(logging.INFO)
    fake = fake_club.fake
    database = tmp_path / "t.sqlite3"
    bot = TabulaBot(
        Settings(token=fake.token, database=database), tick_seconds=0.05, guild_ready_timeout=0.05
    )
    served = asyncio.create_task(serve(bot, fake.token))
    await fake.wait_until_ready(TIMEOUT)
    assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL, "no handler: would kill pytest"
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(served, TIMEOUT)
    await fake.wait_until_disconnected(TIMEOUT)
    assert bot.is_closed()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert "received SIGTERM: shutting down" in caplog.text
    assert "database closed" in caplog.text
    assert database.is_file()
    assert not database.with_name(database.name + "-wal").exists()


async def test_sync_commands_globally_in_one_server_and_clearing(
    fake_club: FakeClub,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tabula sync-commands` logs in, registers the commands, prints them, exits; it opens
    no gateway and no database. `--guild` syncs one server; `--clear` removes them."""
    fake, guild = fake_club.fake, fake_club.guild
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", fake.token)
    monkeypatch.setenv("TABULA_DATABASE", str(tmp_path / "t.sqlite3"))

    assert await asyncio.to_thread(main, ["sync-commands"]) == 0
    out = capsys.readouterr().out
    assert set(fake.commands) == COMMANDS
    assert out.startswith(f"Synced {len(COMMANDS)} command(s) globally")
    assert ", ".join(f"/{name}" for name in sorted(COMMANDS)) in out
    assert fake.guild_commands(guild) == {}

    assert await asyncio.to_thread(main, ["sync-commands", "--guild", str(guild.id)]) == 0
    assert set(fake.guild_commands(guild)) == COMMANDS
    assert f"in server {guild.id} (Discord shows them at once)" in capsys.readouterr().out

    assert (
        await asyncio.to_thread(main, ["sync-commands", "--guild", str(guild.id), "--clear"]) == 0
    )
    assert fake.guild_commands(guild) == {}
    assert set(fake.commands) == COMMANDS
    assert (
        capsys.readouterr().out
        == f"Removed the slash commands in server {guild.id}; 0 remain there.\n"
    )

    assert not fake.gateway.identifies
    assert not (tmp_path / "t.sqlite3").exists()


async def test_sync_commands_explains_a_missing_or_refused_token(
    fake_club: FakeClub,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One line each, no traceback, and never the token itself."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert await asyncio.to_thread(main, ["sync-commands"]) == 2
    assert capsys.readouterr().err == (
        "tabula: DISCORD_TOKEN is not set; sync-commands logs in to Discord with it\n"
    )
    wrong = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"
    monkeypatch.setenv("DISCORD_TOKEN", wrong)
    assert await asyncio.to_thread(main, ["sync-commands"]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == "tabula: Discord refused the token (DISCORD_TOKEN)"
    assert wrong not in captured.err + captured.out
    assert fake_club.fake.commands == {}


async def test_shutdown_waits_share_one_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scheduler tick that outlasts the shutdown timeout leaves no time to wait for
    requests: the waits share the one timeout, which the deploy files' stop timeouts exceed."""
    settings = Settings(token="x", database=tmp_path / "t.sqlite3", shutdown_timeout=0.2)
    bot = TabulaBot(settings, tick_seconds=0.01)
    stuck = asyncio.Event()

    async def endless_job() -> None:
        stuck.set()
        await asyncio.sleep(3600)

    async with bot:  # initialised as `serve` does, never connected
        await bot.setup_hook()
        bot.services.scheduler.add("endless", endless_job)
        gate = bot.services.gate
        waits: list[float | None] = []
        wait_idle = gate.wait_idle

        async def recorded(timeout: float | None = None) -> bool:
            waits.append(timeout)
            return await wait_idle(timeout)

        monkeypatch.setattr(gate, "wait_idle", recorded)
        await asyncio.wait_for(stuck.wait(), TIMEOUT)
        await asyncio.wait_for(bot.close(), TIMEOUT)
    assert waits == [0.0]
