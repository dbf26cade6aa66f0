"""RecordService: exports of stored games, round trips through imports, histories."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest

from bot.records.replay import replay
from bot.services.errors import NotFoundError
from bot.services.records.records import PAGE_SIZE, ImportRefusedError, visible_to
from bot.storage.database import UniqueViolation
from bot.storage.records import HistoryQuery, ImportMark
from bot.storage.repository import GameStatus, MoveRecord
from tests.records.games import ALICE, BOB, CASES, ENDINGS, START, case_id, store_played
from tests.records.hostile import cases, json_record
from tests.services.conftest import ALICE as ALICE_PLAYER
from tests.services.conftest import BOB as BOB_PLAYER
from tests.services.conftest import GUILD, Env
from tests.services.test_tournaments import create, games_in_progress, start

OTHER_GUILD = 501
CAROL_ID = 1003


async def game_count(env: Env) -> int:
    """How many games the database holds."""
    return len(await env.repo.finished_games(HistoryQuery(ALICE), limit=10_000)) + len(
        await env.repo.active_games()
    )


def without_ids(text: str, *ids: int) -> str:
    """The record with the game numbers blanked (the one thing an import changes)."""
    for number in ids:
        text = (
            text.replace(f'"gameid": {number}\n', '"gameid": N\n')
            .replace(f"Site: Tabula, game {number}\n", "Site: Tabula, game N\n")
            .replace(f"GN[Tabula game {number}]", "GN[Tabula game N]")
        )
    return text


@pytest.mark.parametrize("case", CASES, ids=case_id)
async def test_export_import_export_is_identical_but_for_the_game_number(
    env: Env, case: Any
) -> None:
    """Random finished games of every game, option and ending, stored as played here:
    each format's export, imported, exports byte for byte the same except the game's
    number (a new game gets a new number); `date-generated` is the export's own time,
    the same here because the clock stands still."""
    name, options = case
    records = env.services.records
    for seed, ending in enumerate(ENDINGS):
        played = await store_played(env.repo, name, options, seed, ending)
        export = await records.export_of(played)
        assert [f.format for f in export.files] == (
            ["json", "sgf", "text"] if name == "stones" else ["json", "text"]
        )
        for file in export.files:
            imported = await records.import_record(file.content)
            assert imported.status is GameStatus.FINISHED and not imported.rated
            assert (await env.repo.import_mark(imported.id)) is not None
            again = (await records.export_of(imported)).file(file.format)
            assert again is not None
            assert again.content != file.content
            assert without_ids(again.content, imported.id) == without_ids(file.content, played.id)


async def test_an_import_is_stored_whole_with_its_players_and_result(env: Env) -> None:
    """The JSON import keeps players (ids, names, the computer's level), the result and
    reason, times, the moves in order, the record's rated flag and tournament; the game
    itself is unrated here and loads in the game service."""
    played = await store_played(env.repo, "stones", {}, 4, "resigned", players=(ALICE, None))
    reason = (played.result_reason or "").replace("bob", "Tabula (hard)")
    played = played.evolve(
        ai_levels=(None, "hard"), names=("alice", "Tabula (hard)"), result_reason=reason
    )
    await env.repo.update_game(played)
    text = (await env.services.records.export_of(played)).file("json")
    assert text is not None
    env.clock.advance(timedelta(days=3))
    imported = await env.services.records.import_record(text.content, guild_id=OTHER_GUILD)
    assert imported.players == (ALICE, None) and imported.ai_levels == (None, "hard")
    assert imported.names == played.names and imported.guild_id == OTHER_GUILD
    assert (imported.winner, imported.result_reason) == (played.winner, played.result_reason)
    assert imported.created_at == START and imported.finished_at == played.finished_at
    assert imported.channel_id == 0 and imported.thread_id is None and not imported.rated
    moves = await env.repo.list_moves(imported.id)
    original = await env.repo.list_moves(played.id)
    assert [(m.ply, m.seat, m.notation) for m in moves] == [
        (m.ply, m.seat, m.notation) for m in original
    ]
    view = await env.services.games.view(imported.id)
    assert view.state.ply == len(original)
    mark = await env.repo.import_mark(imported.id)
    assert mark is not None and mark.imported_at == env.clock.now()
    assert imported.id not in [g.id for g in await env.repo.unrated_games(START)]


async def test_an_illegal_record_is_refused_and_nothing_is_stored(env: Env) -> None:
    """A changed move: the ply and the engine's reason; no game, no move is stored."""
    played = await store_played(env.repo, "groups", {"start": "drop"}, 1, "resigned")
    text = (await env.services.records.export_of(played)).file("text")
    assert text is not None
    moves = await env.repo.list_moves(played.id)
    broken = text.content.replace(f"2. Black: {moves[1].notation}\n", "2. Black: c3\n")
    broken = broken.replace(f"1. White: {moves[0].notation}\n", "1. White: c3\n")
    before = await game_count(env)
    with pytest.raises(ImportRefusedError, match=r"^ply 2 \(Black, 'c3'\): c3 is occupied$"):
        await env.services.records.import_record(broken)
    assert await game_count(env) == before
    for bad, message in [
        ("", "the record is empty"),
        ("Tabula game record\nGame: Chess\n", "Game: "),
        (re.sub("Result: .*", "Result: In progress", text.content), "only finished games"),
    ]:
        with pytest.raises(ImportRefusedError, match=message):
            await env.services.records.import_record(bad)
    assert await game_count(env) == before


async def test_a_failed_import_transaction_leaves_nothing(env: Env) -> None:
    """Two moves at one ply break the unique index: the game row goes too."""
    played = await store_played(env.repo, "hexade", {"size": 5}, 1)
    moves = await env.repo.list_moves(played.id)
    mark = await env.repo.import_mark(played.id)
    assert mark is None
    before = await game_count(env)
    duplicate = MoveRecord(0, 1, 0, ALICE, "a1", START)
    with pytest.raises(UniqueViolation):
        await env.repo.store_imported_game(
            played, [*moves, duplicate], ImportMark(0, False, None, None, START)
        )
    assert await game_count(env) == before


async def test_a_running_game_is_exported_without_the_unfinished_turn(env: Env) -> None:
    """In progress: text (and no JSON); a Diffusion turn being played stays private."""
    view = await env.start("diffusion", colour="white")
    state = view.state
    for _ in range(6):  # White's four moves, then two of Black's five
        move = state.legal_notations()[0]
        user = (ALICE_PLAYER, BOB_PLAYER)[state.to_move]
        await env.services.games.play(view.id, user.id, move)
        state = state.play_text(move)
    record = await env.services.games.record(view.id)
    export = await env.services.records.export_of(record)
    assert [f.format for f in export.files] == ["text"]
    text = export.files[0].content
    assert "Result: In progress\n" in text and "\n1. White: " in text
    assert "\n2. Black" not in text
    assert len(export.transcript.moves()) == 4
    replay(export.transcript)


async def test_tournament_games_carry_their_event_and_round(env: Env) -> None:
    """A tournament game's JSON names the tournament and the round."""
    view = await start(env, await create(env, "round-robin", 2))
    ((_, game),) = await games_in_progress(env, view)
    await env.services.games.resign(game.id, game.players[0] or 0)
    record = await env.services.games.record(game.id)
    export = await env.services.records.export_of(record)
    text = export.file("json")
    assert text is not None
    assert f'"event": "{view.record.name}",\n    "round": "1",' in text.content


async def test_who_may_see_a_game(env: Env) -> None:
    """A server sees its own games; direct messages show a person their own games."""
    records = env.services.records
    played = await store_played(env.repo, "groups", {}, 1, guild_id=GUILD)
    assert visible_to(played, CAROL_ID, GUILD) and not visible_to(played, ALICE, OTHER_GUILD)
    assert visible_to(played, ALICE, None) and not visible_to(played, CAROL_ID, None)
    assert (await records.visible_game(played.id, CAROL_ID, GUILD)).id == played.id
    with pytest.raises(NotFoundError, match=f"There is no game #{played.id} in this server."):
        await records.visible_game(played.id, ALICE, OTHER_GUILD)
    with pytest.raises(NotFoundError, match=f"There is no game #{played.id} of yours."):
        await records.visible_game(played.id, CAROL_ID, None)
    with pytest.raises(NotFoundError, match=r"There is no game #999 in this server\."):
        await records.visible_game(999, ALICE, GUILD)


async def test_the_game_an_export_means(env: Env) -> None:
    """Named; else the thread's game (even in progress); else the latest finished here."""
    records = env.services.records
    old = await store_played(env.repo, "groups", {}, 1, finished_at=START)
    new = await store_played(env.repo, "groups", {}, 2, finished_at=START + timedelta(1))
    running = await store_played(env.repo, "hexade", {}, 3, "none")
    assert running.thread_id is not None
    assert (await records.game_to_export(ALICE, GUILD, None, old.id)).id == old.id
    assert (await records.game_to_export(ALICE, GUILD, running.thread_id, None)).id == running.id
    assert (await records.game_to_export(ALICE, GUILD, 12345, None)).id == new.id
    with pytest.raises(NotFoundError, match="You have no finished game here"):
        await records.game_to_export(ALICE, OTHER_GUILD, None, None)


async def test_histories_page_newest_first_and_filter(env: Env) -> None:
    """23 finished games: three pages of 10, 10, 3, newest first; a game filter; another
    server sees none of them; in DMs Carol sees only the games she played with Alice."""
    records = env.services.records
    ids = []
    for number in range(23):
        game = ("groups", "hexade")[number % 2]
        options = {} if game == "groups" else {"size": 5}
        players = (ALICE, CAROL_ID) if number % 5 == 0 else (ALICE, BOB)
        played = await store_played(
            env.repo, game, options, number, "resigned", players=players,
            finished_at=START + timedelta(hours=number),
        )  # fmt: skip
        ids.append(played.id)
    await store_played(env.repo, "groups", {}, 99, "none")  # in progress: never listed
    newest_first = ids[::-1]
    pages = [await records.history(ALICE, viewer=BOB, guild_id=GUILD, page=n) for n in (1, 2, 3)]
    assert [p.total for p in pages] == [23] * 3 and [p.pages for p in pages] == [3] * 3
    assert [[e.record.id for e in p.entries] for p in pages] == [
        newest_first[:PAGE_SIZE], newest_first[PAGE_SIZE : 2 * PAGE_SIZE], newest_first[20:]
    ]  # fmt: skip
    beyond = await records.history(ALICE, viewer=BOB, guild_id=GUILD, page=9)
    assert beyond.page == 3 and beyond.entries == pages[2].entries
    nobody = await records.history(12345, viewer=12345, guild_id=GUILD, page=2)
    assert (nobody.total, nobody.pages, nobody.page, nobody.entries) == (0, 1, 1, ())
    hexade = await records.history(ALICE, viewer=ALICE, guild_id=GUILD, game="perfect six")
    assert hexade.total == 11 and {e.record.game for e in hexade.entries} == {"hexade"}
    assert (await records.history(ALICE, viewer=ALICE, guild_id=OTHER_GUILD)).total == 0
    mine = await records.history(ALICE, viewer=ALICE, guild_id=None)
    assert mine.total == 23
    shared = await records.history(ALICE, viewer=CAROL_ID, guild_id=None)
    assert [e.record.id for e in shared.entries] == [ids[n] for n in (20, 15, 10, 5, 0)]


async def test_a_history_page_is_one_read(env: Env) -> None:
    """The count and the page come in one statement: on a busy machine every trip to the
    database waits for the other side to be scheduled, and that wait made the tail."""
    for number in range(12):
        await store_played(env.repo, "groups", {}, number, "resigned")
    database = env.repo.database
    reads: list[str] = []
    fetch_all, fetch_one = database.fetch_all, database.fetch_one

    async def counted_all(sql: str, params: Any = ()) -> Any:
        reads.append(sql)
        return await fetch_all(sql, params)

    async def counted_one(sql: str, params: Any = ()) -> Any:
        reads.append(sql)
        return await fetch_one(sql, params)

    database.fetch_all, database.fetch_one = counted_all, counted_one  # type: ignore[method-assign]
    try:
        page = await env.services.records.history(ALICE, viewer=ALICE, guild_id=GUILD, page=2)
    finally:
        database.fetch_all, database.fetch_one = fetch_all, fetch_one  # type: ignore[method-assign]
    assert (page.total, len(page.entries)) == (12, 2)
    assert len(reads) == 1


async def test_imported_games_are_marked_in_histories(env: Env) -> None:
    """An imported game without a server shows only in its players' DMs, marked."""
    played = await store_played(env.repo, "hexade", {"size": 5}, 1)
    text = (await env.services.records.export_of(played)).file("json")
    assert text is not None
    imported = await env.services.records.import_record(text.content)
    in_guild = await env.services.records.history(ALICE, viewer=ALICE, guild_id=GUILD)
    assert [(e.record.id, e.imported) for e in in_guild.entries] == [(played.id, False)]
    in_dms = await env.services.records.history(ALICE, viewer=ALICE, guild_id=None)
    assert {(e.record.id, e.imported) for e in in_dms.entries} == {
        (played.id, False), (imported.id, True)
    }  # fmt: skip


async def test_hostile_files_are_refused_alike_on_every_backend(env: Env) -> None:
    """The bytes of every hostile file: the same one-line refusal as `tabula import`
    gives, nothing stored; the largest user id a database column holds is stored."""
    before = await game_count(env)
    for case in cases():
        with pytest.raises(ImportRefusedError) as caught:
            await env.services.records.import_file(case.data)
        assert case.message in str(caught.value) and "\n" not in str(caught.value)
    assert await game_count(env) == before
    data = json_record()
    data["header"]["players"][0]["userid"] = str(2**63 - 1)
    imported = await env.services.records.import_file(json.dumps(data).encode())
    assert imported.record.players[0] == 2**63 - 1 and imported.notes == ()
    stored = await env.repo.get_game(imported.record.id)
    assert stored is not None and stored.players[0] == 2**63 - 1
