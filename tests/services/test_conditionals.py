"""Conditional moves: lines stored through the rules, replies played in the triggering
turn's transaction, deviations, undo, vacations, draw offers, clocks, multi-move turns."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest

from bot.services.announcing.outbox import ReplyHandle
from bot.services.correspondence.conditional_lines import Branch, encode_tree
from bot.services.errors import InvalidInputError, InvalidStateError, NotAllowedError
from bot.services.games.games import Turn
from bot.services.views.conditional_notes import ClearReason
from bot.services.views.results import UndoStatus
from bot.storage.conditionals import StoredTree
from bot.storage.repository import GameStatus
from rules import GameState, get_game
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env, status

DROP: dict[str, object] = {"start": "drop"}
"""Groups with drops: every move is a cell, easy to read."""


async def drop_game(env: Env, **extra: Any) -> int:
    """Alice (White) plays c3; Bob is to move."""
    view = await env.start("groups", DROP, **extra)
    await env.services.games.play(view.id, ALICE.id, "c3")
    return view.id


async def moves(env: Env, game_id: int) -> list[str]:
    return [move.notation for move in await env.repo.list_moves(game_id)]


async def lines(env: Env, game_id: int, user_id: int = ALICE.id) -> list[tuple[str, ...]]:
    """The player's lines in the game as they apply now."""
    trees = await env.services.conditionals.trees(user_id, guild_id=GUILD, game_id=game_id)
    return [end.steps for tree in trees for end in tree.ends]


async def notes(env: Env, user_id: int = ALICE.id) -> list[tuple[ClearReason, str]]:
    """What the player is told at their next command (taken)."""
    taken = await env.services.conditionals.take_notes(user_id)
    return [(notice.note.reason, notice.note.turn) for notice in taken]


def announced(env: Env) -> list[tuple[str, bool]]:
    """Every turn announced so far: its moves and whether it was a conditional move."""
    return [(notice.turn_notation, notice.conditional) for notice in env.notifier.moves]


# --- storing lines ---


async def test_a_line_is_stored_and_tells_the_opponent_nothing(env: Env) -> None:
    """The line joins Alice's tree; no announcement is written for anyone."""
    game = await drop_game(env)
    before = await env.repo.count_announcements()
    added = await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    assert added.new and added.line.steps == ("c5", "d3", "d5", "e3")
    assert added.tree.replies == 2
    assert added.line.view.state.encode() == (
        get_game("groups").new_game(start="drop").play_text("c3").play_text("c5")
        .play_text("d3").play_text("d5").play_text("e3").encode()
    )  # fmt: skip
    assert added.line.view.record.ply == 5
    assert await lines(env, game) == [("c5", "d3", "d5", "e3")]
    assert await env.repo.count_announcements() == before
    assert env.notifier.cleared == [] and await notes(env) == []
    assert await lines(env, game, BOB.id) == []


async def test_lines_sharing_a_beginning_make_a_tree(env: Env) -> None:
    """Two lines after the same reply branch; the same line again changes nothing."""
    game = await drop_game(env)
    conditionals = env.services.conditionals
    await conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    added = await conditionals.add(game, ALICE.id, "C5  D3 e5 f3")
    assert added.new and added.tree.replies == 3
    again = await conditionals.add(game, ALICE.id, "c5 d3")
    assert not again.new and again.tree.replies == 3
    await conditionals.add(game, ALICE.id, "f6 f3")
    assert await lines(env, game) == [
        ("c5", "d3", "d5", "e3"),
        ("c5", "d3", "e5", "f3"),
        ("f6", "f3"),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("c5 c3", "'c3' (step 2, your reply): c3 is occupied. Nothing was stored."),
        ("c3 d3", "'c3' (step 1, bob's turn): c3 is occupied. Nothing was stored."),
        ("c5 d3 d5", "The line ends with bob's turn: end it with your reply."),
        ("c5 zz9", "'zz9' (step 2, your reply): "),
        ("", "Write the line"),
        ("c5 d3,e3", "'d3,e3' (step 2, your reply): the turn ends after d3. Nothing"),
    ],
)
async def test_an_illegal_line_is_refused_naming_the_move(
    env: Env, line: str, message: str
) -> None:
    """The move and the reason are named, and nothing is stored."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "f6 f3")
    with pytest.raises(InvalidInputError) as refused:
        await env.services.conditionals.add(game, ALICE.id, line)
    assert str(refused.value).startswith(message)
    assert await lines(env, game) == [("f6", "f3")]


async def test_a_second_reply_to_the_same_turn_is_refused(env: Env) -> None:
    """A tree answers each expected turn once."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    with pytest.raises(InvalidInputError, match="already answer bob's 'd5' with 'e3', not 'f3'"):
        await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 f3")
    assert await lines(env, game) == [("c5", "d3", "d5", "e3")]


async def test_lines_only_while_the_opponent_is_to_move(env: Env) -> None:
    """On one's own turn, in someone else's game, after the end: refused."""
    game = await drop_game(env)
    conditionals = env.services.conditionals
    with pytest.raises(InvalidStateError, match="It is your turn in game #1"):
        await conditionals.add(game, BOB.id, "d3 c5")
    with pytest.raises(NotAllowedError, match="You are not playing in this game"):
        await conditionals.add(game, CAROL.id, "c5 d3")
    await env.services.games.resign(game, BOB.id)
    with pytest.raises(InvalidStateError, match=r"^This game is over\.$"):
        await conditionals.add(game, ALICE.id, "c5 d3")


async def test_a_line_past_the_end_of_the_game_is_refused(env: Env) -> None:
    """Nothing can follow a move that would end the game."""
    view = await env.start("groups", DROP)
    games = env.services.games
    for index, cell in enumerate(["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4"]):
        await games.play(view.id, (ALICE, BOB)[index % 2].id, cell)
    with pytest.raises(InvalidInputError, match="The game would be over after 'd4' \\(step 2\\)"):
        await env.services.conditionals.add(view.id, ALICE.id, "c6 d4 a1 a2")


# --- the trigger ---


async def test_the_reply_is_played_at_once_and_announced_as_conditional(env: Env) -> None:
    """Bob's c5 is answered by d3 in the same call; both boards are announced, the
    reply marked; the tree moves on to what follows."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 e5 f3")
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is not None
    assert result.reply.move.notation == "d3" and result.reply.move.user_id == ALICE.id
    assert result.reply.move.ply == 3 and result.reply.view.to_move_id == BOB.id
    assert await moves(env, game) == ["c3", "c5", "d3"]
    assert announced(env) == [("c3", False), ("c5", False), ("d3", True)]
    assert await lines(env, game) == [("d5", "e3"), ("e5", "f3")]
    result = await env.services.games.play(game, BOB.id, "e5")
    assert result.reply is not None and result.reply.move.notation == "f3"
    assert await moves(env, game) == ["c3", "c5", "d3", "e5", "f3"]
    assert await lines(env, game) == []
    result = await env.services.games.play(game, BOB.id, "d5")
    assert result.reply is None and await notes(env) == []


async def test_the_interaction_answers_the_turn_and_the_reply_follows_it(env: Env) -> None:
    """Bob's command holds only its own board for its answer (the one message found again
    after a crash); the reply goes to the dispatcher, posted once the answer is out."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    with env.services.outbox.replying(ReplyHandle(CHANNEL, {"token": "t"})) as replying:
        await env.services.games.play(game, BOB.id, "c5")
    assert [(row.kind, row.data["conditional"]) for row in replying.rows] == [("move", False)]
    assert [(row.kind, row.data["conditional"]) for row in replying.others] == [("move", True)]
    assert announced(env) == [("c3", False)]
    await env.services.outbox.delivered(replying.rows[0], 77)
    await env.services.dispatcher.drain()
    assert announced(env) == [("c3", False), ("d3", True)]


async def test_the_player_to_move_is_told_only_after_the_reply(env: Env) -> None:
    """Turn messages: none to Alice for Bob's c5 (she did not have to move), one to Bob
    after her conditional reply."""
    game = await drop_game(env)
    await env.services.notifications.update(ALICE.id, turn_dms=True)
    await env.services.notifications.update(BOB.id, turn_dms=True)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    env.notifier.turns.clear()
    await env.services.games.play(game, BOB.id, "c5")
    assert [(turn.user_id, turn.moves) for turn in env.notifier.turns] == [(BOB.id, "d3")]


async def test_another_turn_clears_the_tree_and_tells_the_player(env: Env) -> None:
    """Bob plays e5, which no line expected: nothing is played for Alice, her tree is
    gone, and she is told at her next command (she takes no direct messages)."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    result = await env.services.games.play(game, BOB.id, "e5")
    assert result.reply is None and result.view.to_move_id == ALICE.id
    assert await lines(env, game) == []
    assert await env.repo.conditional_tree(game, ALICE.id) is None
    assert env.notifier.cleared == []
    assert await notes(env) == [(ClearReason.DEVIATED, "e5")]
    assert await notes(env) == []


async def test_a_player_taking_direct_messages_is_told_by_one(env: Env) -> None:
    """With turn messages on, the note is a direct message (an outbox announcement)."""
    game = await drop_game(env)
    await env.services.notifications.update(ALICE.id, turn_dms=True)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.games.play(game, BOB.id, "e5")
    assert [(n.note.user_id, n.note.reason, n.note.turn) for n in env.notifier.cleared] == [
        (ALICE.id, ClearReason.DEVIATED, "e5")
    ]
    assert await notes(env) == []


async def test_notes_given_back_are_shown_next_time(env: Env) -> None:
    """A note whose showing failed comes again with the next command."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.games.play(game, BOB.id, "e5")
    taken = await env.services.conditionals.take_notes(ALICE.id)
    assert len(taken) == 1
    await env.services.conditionals.give_back(taken)
    assert await notes(env) == [(ClearReason.DEVIATED, "e5")]


async def test_clear_removes_the_tree(env: Env) -> None:
    """/conditional clear: gone, and Bob's move is then just a move."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    removed = await env.services.conditionals.clear(game, ALICE.id, guild_id=GUILD)
    assert removed.replies == 2
    with pytest.raises(InvalidStateError, match=r"^You have no conditional moves in game #1\.$"):
        await env.services.conditionals.clear(game, ALICE.id, guild_id=GUILD)
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is None and await notes(env) == []


async def test_trees_are_listed_where_their_games_are_visible(env: Env) -> None:
    """In the game's server and in direct messages; not from another server."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    conditionals = env.services.conditionals
    assert [t.record.id for t in await conditionals.trees(ALICE.id, guild_id=GUILD)] == [game]
    assert [t.record.id for t in await conditionals.trees(ALICE.id, guild_id=None)] == [game]
    assert await conditionals.trees(ALICE.id, guild_id=GUILD + 1) == []
    assert await conditionals.trees(BOB.id, guild_id=GUILD) == []


# --- when the reply is not played ---


async def test_no_reply_on_vacation(env: Env) -> None:
    """Alice is away when Bob plays c5: her reply waits for her, the tree is cleared."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.vacations.start(ALICE.id, "3d")
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is None and await moves(env, game) == ["c3", "c5"]
    assert await notes(env) == [(ClearReason.VACATION, "c5")]
    assert await lines(env, game) == []


async def test_an_unexpected_turn_is_told_as_such_on_vacation_too(env: Env) -> None:
    """The reason given is that no line expected the turn, not the vacation."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.vacations.start(ALICE.id, "3d")
    await env.services.games.play(game, BOB.id, "e5")
    assert await notes(env) == [(ClearReason.DEVIATED, "e5")]


async def test_no_reply_while_the_opponents_draw_offer_waits(env: Env) -> None:
    """Bob offers a draw and plays c5: Alice must answer the offer, so nothing is played."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.games.offer_draw(game, BOB.id)
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is None
    assert result.view.record.draw_offer is not None and result.view.record.draw_offer.open
    assert await notes(env) == [(ClearReason.DRAW_OFFERED, "c5")]


async def test_the_players_own_draw_offer_lapses_and_the_reply_is_played(env: Env) -> None:
    """Alice's offer lapses when Bob moves instead; nothing waits for her answer."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.games.offer_draw(game, ALICE.id)
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.draw_offer_lapsed and result.reply is not None
    assert await moves(env, game) == ["c3", "c5", "d3"]


@pytest.mark.parametrize("asker", [ALICE, BOB])
async def test_no_reply_while_an_undo_was_asked(env: Env, asker: Any) -> None:
    """A request to take back moves was open when Bob moved (it lapses with the move):
    Alice's reply is not played."""
    view = await env.start("groups", DROP)
    games = env.services.games
    await games.play(view.id, ALICE.id, "c3")
    await games.play(view.id, BOB.id, "c5")
    await games.play(view.id, ALICE.id, "d3")
    await env.services.conditionals.add(view.id, ALICE.id, "d5 e3")
    await games.request_undo(view.id, asker.id)
    result = await games.play(view.id, BOB.id, "d5")
    assert result.reply is None
    taken = await env.services.conditionals.take_notes(ALICE.id)
    assert [(t.note.reason, t.note.asker) for t in taken] == [
        (ClearReason.UNDO_REQUESTED, 0 if asker is ALICE else 1)
    ]


async def test_a_turn_ending_the_game_clears_the_tree(env: Env) -> None:
    """Bob's winning move: nothing to answer; Alice is told the game ended."""
    view = await env.start("groups", DROP, colour="black")
    games = env.services.games
    for index, cell in enumerate(["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6"]):
        await games.play(view.id, (BOB, ALICE)[index % 2].id, cell)
    await env.services.conditionals.add(view.id, ALICE.id, "f6 e6")
    result = await games.play(view.id, BOB.id, "d4")
    assert result.finished and result.reply is None
    assert await notes(env) == [(ClearReason.GAME_ENDED, "d4")]
    assert await env.repo.conditional_tree(view.id, ALICE.id) is None


async def test_a_reply_that_wins_ends_and_rates_the_game(env: Env) -> None:
    """Alice's conditional d4 connects her six stones: the game ends with it, is rated
    (the finish hooks ran for the reply), and the reply's board shows the result."""
    view = await env.start("groups", DROP)
    games = env.services.games
    for index, cell in enumerate(["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4"]):
        await games.play(view.id, (ALICE, BOB)[index % 2].id, cell)
    await env.services.conditionals.add(view.id, ALICE.id, "c6 d4")
    result = await games.play(view.id, BOB.id, "c6")
    assert not result.finished and result.reply is not None and result.reply.finished
    assert result.reply.view.record.status is GameStatus.FINISHED
    assert result.reply.view.record.winner == 0
    assert [change.user_id for change in result.reply.view.rating_changes] == [ALICE.id, BOB.id]
    assert env.notifier.moves[-1].conditional and env.notifier.moves[-1].finished
    assert await env.repo.conditional_tree(view.id, ALICE.id) is None


async def test_the_game_ending_otherwise_drops_trees_quietly(env: Env) -> None:
    """Bob resigns: Alice's tree is dropped; nothing to tell her."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await env.services.games.resign(game, BOB.id)
    assert await env.repo.conditional_tree(game, ALICE.id) is None
    assert await notes(env) == []


# --- undo ---


async def test_undoing_the_triggering_turn_takes_back_the_reply_and_restores_the_tree(
    env: Env,
) -> None:
    """Bob takes back c5 (Alice allows): d3 goes with it, and her tree is as it was, so
    c5 again brings d3 again."""
    game = await drop_game(env)
    games = env.services.games
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    await env.services.conditionals.add(game, ALICE.id, "f6 f3")
    await games.play(game, BOB.id, "c5")
    assert await lines(env, game) == [("d5", "e3")]
    asked = await games.request_undo(game, BOB.id)
    assert asked.status is UndoStatus.REQUESTED and asked.notation == "c5, d3"
    undone = await games.answer_undo(game, ALICE.id, True)
    assert undone.status is UndoStatus.APPLIED and await moves(env, game) == ["c3"]
    assert await lines(env, game) == [("c5", "d3", "d5", "e3"), ("f6", "f3")]
    assert await notes(env) == []
    result = await games.play(game, BOB.id, "c5")
    assert result.reply is not None and await moves(env, game) == ["c3", "c5", "d3"]


async def test_undoing_two_triggering_turns_restores_the_first_tree(env: Env) -> None:
    """Trees are kept per position: back past two replies, the tree from before both."""
    game = await drop_game(env)
    games = env.services.games
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3 e5 f3")
    await games.play(game, BOB.id, "c5")
    await games.play(game, BOB.id, "d5")
    assert await moves(env, game) == ["c3", "c5", "d3", "d5", "e3"]
    await games.request_undo(game, BOB.id)
    await games.answer_undo(game, ALICE.id, True)
    assert await moves(env, game) == ["c3", "c5", "d3"]
    assert await lines(env, game) == [("d5", "e3", "e5", "f3")]
    await games.request_undo(game, BOB.id)
    await games.answer_undo(game, ALICE.id, True)
    assert await lines(env, game) == [("c5", "d3", "d5", "e3", "e5", "f3")]


async def test_undoing_the_reply_alone_clears_the_tree(env: Env) -> None:
    """Alice takes back her conditional reply (Bob allows): it is her turn again, the
    rest of her tree no longer fits, and she is told."""
    game = await drop_game(env)
    games = env.services.games
    await env.services.conditionals.add(game, ALICE.id, "c5 d3 d5 e3")
    await games.play(game, BOB.id, "c5")
    await games.request_undo(game, ALICE.id)
    await games.answer_undo(game, BOB.id, True)
    assert await moves(env, game) == ["c3", "c5"]
    assert await env.repo.conditional_tree(game, ALICE.id) is None
    assert await notes(env) == [(ClearReason.TAKEN_BACK, "")]
    await games.play(game, ALICE.id, "d3")
    result = await games.play(game, BOB.id, "d5")
    assert result.reply is None and await moves(env, game) == ["c3", "c5", "d3", "d5"]


async def test_an_undo_before_the_tree_clears_it(env: Env) -> None:
    """Alice takes back c3 itself: her tree started after it, so it is cleared."""
    game = await drop_game(env)
    games = env.services.games
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    await games.request_undo(game, ALICE.id)
    await games.answer_undo(game, BOB.id, True)
    assert await moves(env, game) == []
    assert await notes(env) == [(ClearReason.TAKEN_BACK, "")]
    assert await env.repo.conditional_tree(game, ALICE.id) is None


# --- clocks ---


async def test_the_reply_costs_no_time_and_starts_the_opponents_clock(env: Env) -> None:
    """Capped increment 1d+1h max 2d: Bob uses 5h for c5; Alice's reply is a turn of
    zero length (her bank gains the increment); Bob's clock runs from that moment."""
    game = await drop_game(env, time_control="1d+1h max 2d")
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    env.clock.advance(timedelta(hours=5))
    replied_at = env.clock.now()
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is not None and result.reply.move.played_at == replied_at
    clock = await status(env, result.reply.view)
    assert clock.seat == 1 and clock.turn.started_at == replied_at
    assert clock.left == (timedelta(days=1, hours=2), timedelta(hours=20))
    assert clock.deadline == replied_at + timedelta(hours=20)


# --- several-move turns and special moves ---


def short_turn(state: GameState[Any]) -> list[str]:
    """A whole Diffusion Chess turn of the shortest legal moves."""
    mover, chosen = state.to_move, []
    while state.to_move == mover and state.outcome() is None:
        move = min(state.legal_notations(), key=lambda m: (len(m), m))
        chosen.append(move)
        state = state.play_text(move)
    return chosen


async def test_diffusion_chess_turns_are_single_steps(env: Env) -> None:
    """Bob's five moves, one by one, trigger Alice's five-move reply after the last."""
    view = await env.start("diffusion")
    games = env.services.games
    state = view.state
    for move in short_turn(state):
        state = state.play_text(move)
        await games.play(view.id, ALICE.id, move)
    expected = short_turn(state)
    after = state
    for move in expected:
        after = after.play_text(move)
    reply = short_turn(after)
    assert len(expected) == 5 and len(reply) == 5
    await games.play(view.id, BOB.id, expected[0])  # Bob's turn under way: Alice did not see it
    added = await env.services.conditionals.add(
        view.id, ALICE.id, f"{', '.join(expected)} {','.join(reply)}"
    )
    assert added.line.steps == (",".join(expected), ",".join(reply))
    for move in expected[1:-1]:
        assert (await games.play(view.id, BOB.id, move)).reply is None
    result = await games.play(view.id, BOB.id, expected[-1])
    assert result.reply is not None
    assert [m.notation for m in result.reply.turn_moves] == reply
    assert announced(env)[-2:] == [(", ".join(expected), False), (", ".join(reply), True)]
    assert result.reply.view.to_move_id == BOB.id


async def test_diffusion_chess_half_turns_are_refused(env: Env) -> None:
    """A step that is not a whole turn names what is missing."""
    view = await env.start("diffusion")
    state = view.state
    for move in short_turn(state):
        state = state.play_text(move)
        await env.services.games.play(view.id, ALICE.id, move)
    bob = short_turn(state)
    missing = r"\(step 1, bob's turn\): that is not a whole turn: 3 more moves"
    with pytest.raises(InvalidInputError, match=missing):
        await env.services.conditionals.add(view.id, ALICE.id, f"{','.join(bob[:2])} x")


async def test_stones_stakes_and_returns_are_steps(env: Env) -> None:
    """`stake a4` (two words) is Bob's turn, `return` Alice's reply."""
    view = await env.start("stones", {"size": 5}, colour="white")
    games = env.services.games
    await games.play(view.id, BOB.id, "a5")
    await games.play(view.id, ALICE.id, "a1")
    added = await env.services.conditionals.add(view.id, ALICE.id, "stake a4 return b5 b1")
    assert added.line.steps == ("stake a4", "return", "b5", "b1")
    result = await games.play(view.id, BOB.id, "Stake A4")
    assert result.reply is not None and result.reply.move.notation == "return"
    result = await games.play(view.id, BOB.id, "b5")
    assert result.reply is not None and result.reply.move.notation == "b1"
    assert await moves(env, view.id) == ["a5", "a1", "stake a4", "return", "b5", "b1"]


async def test_an_illegal_stake_is_refused_with_its_reason(env: Env) -> None:
    """A stake at a point that is no liberty: the rules' reason, for the two words."""
    view = await env.start("stones", {"size": 5}, colour="white")
    await env.services.games.play(view.id, BOB.id, "a5")
    await env.services.games.play(view.id, ALICE.id, "a1")
    with pytest.raises(InvalidInputError, match=r"^'stake c3' \(step 1, bob's turn\): "):
        await env.services.conditionals.add(view.id, ALICE.id, "stake c3 return")


# --- robustness ---


async def test_a_refused_reply_leaves_the_turn_stored(env: Env, caplog: Any) -> None:
    """A stored reply that no longer fits (written by hand here) is refused by the rules:
    Bob's move stands, nothing is played for Alice, she is told why."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    stored = await env.repo.conditional_tree(game, ALICE.id)
    assert stored is not None
    broken = encode_tree((Branch("c5", "c3"),))
    await env.repo.save_conditional_tree(
        StoredTree(game, ALICE.id, stored.ply, broken, stored.created_at)
    )
    result = await env.services.games.play(game, BOB.id, "c5")
    assert result.reply is None and await moves(env, game) == ["c3", "c5"]
    taken = await env.services.conditionals.take_notes(ALICE.id)
    assert [(t.note.reason, t.note.detail) for t in taken] == [
        (ClearReason.UNPLAYABLE, "c3 is occupied")
    ]
    assert (await env.services.games.view(game)).state.to_move == 0


async def test_a_failing_responder_is_undone_with_its_reply(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A responder that fails after playing its reply: its savepoint takes the reply
    back, the turn is stored, the failure logged."""
    game = await drop_game(env)
    games = env.services.games

    async def broken(turn: Turn) -> None:
        await turn.reply(["d3"])
        raise RuntimeError("boom")

    games.responders.insert(0, broken)
    caplog.set_level(logging.ERROR)
    result = await games.play(game, BOB.id, "c5")
    assert result.reply is None and await moves(env, game) == ["c3", "c5"]
    assert "a responder failed for game 1" in caplog.text
    view = await games.view(game)
    assert view.state.to_move == 0 and view.record.ply == 2
    assert (await games.replay_state(game)).encode() == view.state.encode()


async def test_the_tree_survives_a_restart(env: Env) -> None:
    """Stored, not in memory: new services over the same database play the reply."""
    game = await drop_game(env)
    await env.services.conditionals.add(game, ALICE.id, "c5 d3")
    restarted = await env.restart()
    result = await restarted.services.games.play(game, BOB.id, "c5")
    assert result.reply is not None and await moves(restarted, game) == ["c3", "c5", "d3"]
    record = await restarted.repo.get_game(game)
    assert record is not None and record.status is GameStatus.ACTIVE and record.ply == 3


async def test_a_move_whose_transaction_fails_leaves_no_cached_state(env: Env) -> None:
    """The move is written, then its transaction fails (an announcer raises): nothing is
    stored, and the in-memory state is dropped too, so a write by another process that
    brings the game row to the same version cannot be read with the failed move's state."""
    game = await drop_game(env)
    games = env.services.games

    async def failing(view: Any, moves: str) -> list[Any]:
        raise RuntimeError("the disk went away")

    games.announcers.append(failing)
    with pytest.raises(RuntimeError, match="the disk went away"):
        await games.play(game, BOB.id, "c5")
    games.announcers.remove(failing)
    other = await env.restart()  # another process over the same database
    await other.services.games.offer_draw(game, BOB.id)
    view = await games.view(game)
    assert view.record.ply == 1 and view.state.to_move == 1
    assert view.state.encode() == (await games.replay_state(game)).encode()
