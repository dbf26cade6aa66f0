"""Conditional moves in the repository, on both backends: trees per player and position
(the current one is the latest), dropping them, and notes taken once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.storage.conditionals import StoredTree
from bot.storage.repository import GameStatus
from bot.storage.sql import SqlRepository
from tests.storage.test_repository import NOW, new_game

ALICE, BOB = 100, 200


def tree(game_id: int, user_id: int, ply: int, text: str) -> StoredTree:
    return StoredTree(game_id, user_id, ply, text, NOW + timedelta(minutes=ply))


async def test_the_current_tree_is_the_latest_position(repo: SqlRepository) -> None:
    """Rows per position; saving at a ply replaces that ply and later ones."""
    game = (await repo.create_game(new_game())).id
    await repo.save_conditional_tree(tree(game, ALICE, 2, '[["a","b",[]]]'))
    await repo.save_conditional_tree(tree(game, ALICE, 4, "[]"))
    await repo.save_conditional_tree(tree(game, BOB, 3, '[["c","d",[]]]'))
    assert await repo.conditional_tree(game, ALICE) == tree(game, ALICE, 4, "[]")
    await repo.save_conditional_tree(tree(game, ALICE, 2, '[["e","f",[]]]'))
    assert await repo.conditional_tree(game, ALICE) == tree(game, ALICE, 2, '[["e","f",[]]]')
    assert await repo.conditional_tree(game, BOB) == tree(game, BOB, 3, '[["c","d",[]]]')
    assert await repo.conditional_tree(game, 999) is None


async def test_dropping_after_a_ply_brings_back_the_earlier_tree(repo: SqlRepository) -> None:
    """An undo drops the positions after it; clearing drops one player's or everyone's."""
    game = (await repo.create_game(new_game())).id
    await repo.save_conditional_tree(tree(game, ALICE, 2, "[1]"))
    await repo.save_conditional_tree(tree(game, ALICE, 4, "[2]"))
    await repo.save_conditional_tree(tree(game, ALICE, 6, "[3]"))
    await repo.save_conditional_tree(tree(game, BOB, 5, "[4]"))
    assert await repo.drop_conditional_trees(game, after_ply=4) == 2
    assert await repo.conditional_tree(game, ALICE) == tree(game, ALICE, 4, "[2]")
    assert await repo.conditional_tree(game, BOB) is None
    assert await repo.drop_conditional_trees(game, ALICE) == 2
    assert await repo.conditional_tree(game, ALICE) is None


async def test_a_players_trees_in_active_games(repo: SqlRepository) -> None:
    """One current tree per active game, by game; finished games left out."""
    first = (await repo.create_game(new_game())).id
    second = (await repo.create_game(new_game())).id
    ended = await repo.create_game(new_game())
    for game in (second, first, ended.id):
        await repo.save_conditional_tree(tree(game, ALICE, 1, f"[{game}]"))
    await repo.save_conditional_tree(tree(first, ALICE, 3, "[9]"))
    await repo.update_game(ended.evolve(status=GameStatus.FINISHED, finished_at=NOW))
    assert await repo.conditional_trees(ALICE) == [
        tree(first, ALICE, 3, "[9]"),
        tree(second, ALICE, 1, f"[{second}]"),
    ]
    assert await repo.conditional_trees(BOB) == []


async def test_notes_are_taken_once_and_can_be_given_back(repo: SqlRepository) -> None:
    """Oldest first; two takers at once share them without doubles; given back, again."""
    game = (await repo.create_game(new_game())).id
    first = await repo.add_conditional_note(ALICE, game, {"n": 1}, NOW)
    second = await repo.add_conditional_note(ALICE, game, {"n": 2}, NOW)
    await repo.add_conditional_note(BOB, game, {"n": 3}, NOW)
    taken = await asyncio.gather(
        repo.take_conditional_notes(ALICE, NOW), repo.take_conditional_notes(ALICE, NOW)
    )
    ids = sorted(note.id for batch in taken for note in batch)
    assert ids == [first, second]
    assert await repo.take_conditional_notes(ALICE, NOW) == []
    await repo.return_conditional_notes([second])
    again = await repo.take_conditional_notes(ALICE, NOW)
    assert [(note.id, note.game_id, dict(note.data)) for note in again] == [
        (second, game, {"n": 2})
    ]
    assert [dict(note.data) for note in await repo.take_conditional_notes(BOB, NOW)] == [{"n": 3}]
