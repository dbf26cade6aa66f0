"""GameService: moves, turn order, permissions, races, endings, draws, undo, restarts."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.services.errors import (
    ConflictError,
    InvalidStateError,
    NotAllowedError,
    NotFoundError,
    NotYourTurnError,
    ServiceError,
)
from bot.services.games.games import GameService, undo_start
from bot.services.views.results import DrawStatus, GameView, UndoStatus
from bot.storage.repository import GameStatus, MoveRecord, NewGame, Snapshot
from rules import IllegalMoveError, InvalidMoveError, get_game
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""Groups with start=drop: White (alice) connects six with the last move."""


async def test_a_move_is_committed_and_changes_the_turn(env: Env) -> None:
    """Alice's move is in the log and the game row before play() returns."""
    view = await env.start()
    result = await env.services.games.play(view.id, ALICE.id, " D3-E2 ")
    assert result.move.notation == "d3-e2"
    assert result.move.ply == 1 and result.move.seat == 0 and result.move.user_id == ALICE.id
    assert result.turn_complete and not result.finished
    assert result.view.state.to_move == 1 and result.view.to_move_id == BOB.id
    assert [m.notation for m in await env.repo.list_moves(view.id)] == ["d3-e2"]
    stored = await env.repo.get_game(view.id)
    assert stored is not None and stored.ply == 1 and stored.to_move == 1


@pytest.mark.parametrize(
    ("user", "text", "error", "message"),
    [
        (BOB, "e3-e1", NotYourTurnError, "It is alice's turn, not yours."),
        (CAROL, "d3-e2", NotAllowedError, "You are not playing in this game"),
        (ALICE, "d3-d4", IllegalMoveError, "d4 is occupied"),
        (ALICE, "e3-e2", IllegalMoveError, "the stone on e3 is not yours"),
        (ALICE, "d3-e2-f1", InvalidMoveError, "not a Groups move"),
    ],
)
async def test_refused_moves_change_nothing(env: Env, user, text, error, message) -> None:
    """Wrong player, stranger, illegal move, bad notation: specific message, no change."""
    view = await env.start()
    with pytest.raises(error, match=message):
        await env.services.games.play(view.id, user.id, text)
    assert await env.repo.list_moves(view.id) == []
    assert (await env.services.games.view(view.id)).state == view.state
    assert (await env.repo.get_game(view.id)) == view.record


async def test_unknown_game(env: Env) -> None:
    """A game id that does not exist is named in the error."""
    with pytest.raises(NotFoundError, match="There is no game #77"):
        await env.services.games.play(77, ALICE.id, "d3-e2")


async def test_two_moves_at_once_apply_exactly_one(env: Env) -> None:
    """Two gathered moves by the player to move: one is played, the other refused."""
    view = await env.start()
    games = env.services.games
    results = await asyncio.gather(
        games.play(view.id, ALICE.id, "d3-e2"),
        games.play(view.id, ALICE.id, "c4-c3"),
        return_exceptions=True,
    )
    played = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(played) == 1 and len(refused) == 1
    assert isinstance(refused[0], NotYourTurnError)
    assert len(await env.repo.list_moves(view.id)) == 1


async def test_two_processes_racing_hit_the_unique_constraint(env: Env) -> None:
    """Two services on separate connections (no shared lock): one move is stored."""
    view = await env.start()
    other = await env.restart()
    try:
        await other.services.games.view(view.id)  # both caches hold the starting position
        results = await asyncio.gather(
            env.services.games.play(view.id, ALICE.id, "d3-e2"),
            other.services.games.play(view.id, ALICE.id, "c4-c3"),
            return_exceptions=True,
        )
    finally:
        await other.repo.close()
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], ConflictError | NotYourTurnError)
    moves = await env.repo.list_moves(view.id)
    assert len(moves) == 1
    assert (await env.services.games.view(view.id)).record.ply == 1


async def test_the_game_ends_by_the_rules(env: Env) -> None:
    """The winning move finishes the game: status, winner, reason; later moves refused."""
    view = await env.start(options={"start": "drop"})
    finished: list[GameView] = []
    env.services.games.finish_hooks.append(lambda v: _append(finished, v))
    games = env.services.games
    result = None
    for index, text in enumerate(DROP_WIN):
        player = ALICE if index % 2 == 0 else BOB
        result = await games.play(view.id, player.id, text)
    assert result is not None and result.finished
    assert result.view.outcome is not None
    assert result.view.outcome.winner == 0
    assert result.view.outcome.reason == "all six stones connected"
    record = await env.repo.get_game(view.id)
    assert record is not None and record.status is GameStatus.FINISHED
    assert record.winner == 0 and record.result_reason == "all six stones connected"
    assert [v.id for v in finished] == [view.id]
    with pytest.raises(InvalidStateError, match="This game is over"):
        await games.play(view.id, BOB.id, "d6")


async def _append(items: list, item) -> None:
    items.append(item)


async def test_resign(env: Env) -> None:
    """Resigning (even on the opponent's turn) ends the game for the opponent."""
    view = await env.start()
    finished: list[GameView] = []
    env.services.games.finish_hooks.append(lambda v: _append(finished, v))
    ended = await env.services.games.resign(view.id, BOB.id)
    assert ended.record.status is GameStatus.FINISHED
    assert ended.outcome is not None and ended.outcome.winner == 0
    assert ended.outcome.reason == "bob resigned before any move: not rated"
    assert [v.id for v in finished] == [view.id]
    with pytest.raises(InvalidStateError):
        await env.services.games.resign(view.id, ALICE.id)
    with pytest.raises(NotAllowedError):
        await env.services.games.resign(view.id, CAROL.id)


async def test_draw_offer_accepted(env: Env) -> None:
    """Alice offers, Bob accepts: a draw."""
    view = await env.start()
    games = env.services.games
    offered = await games.offer_draw(view.id, ALICE.id)
    assert offered.status is DrawStatus.OFFERED
    assert offered.view.record.draw_offer is not None
    assert offered.view.record.draw_offer.seat == 0
    with pytest.raises(InvalidStateError, match="already offered a draw"):
        await games.offer_draw(view.id, ALICE.id)
    with pytest.raises(NotAllowedError, match="your own offer"):
        await games.answer_draw(view.id, ALICE.id, accept=True)
    with pytest.raises(NotAllowedError):
        await games.answer_draw(view.id, CAROL.id, accept=True)
    accepted = await games.answer_draw(view.id, BOB.id, accept=True, offer_ply=0)
    assert accepted.status is DrawStatus.ACCEPTED
    assert accepted.view.outcome is not None and accepted.view.outcome.is_draw
    assert accepted.view.outcome.reason == "draw agreed before any move: not rated"
    assert accepted.view.record.status is GameStatus.FINISHED


async def test_draw_offer_declined_cannot_be_repeated_at_once(env: Env) -> None:
    """After Bob declines, Alice may offer again only after the next move."""
    view = await env.start()
    games = env.services.games
    await games.offer_draw(view.id, ALICE.id)
    declined = await games.answer_draw(view.id, BOB.id, accept=False)
    assert declined.status is DrawStatus.DECLINED
    assert declined.view.record.status is GameStatus.ACTIVE
    with pytest.raises(InvalidStateError, match="bob declined your draw offer"):
        await games.offer_draw(view.id, ALICE.id)
    with pytest.raises(InvalidStateError, match="no longer open"):
        await games.answer_draw(view.id, BOB.id, accept=True)
    await games.play(view.id, ALICE.id, "d3-e2")
    again = await games.offer_draw(view.id, ALICE.id)
    assert again.status is DrawStatus.OFFERED


async def test_draw_offer_lapses_when_the_opponent_moves(env: Env) -> None:
    """Alice's offer stands through her own move and lapses when Bob moves instead."""
    view = await env.start()
    games = env.services.games
    await games.offer_draw(view.id, ALICE.id)
    own = await games.play(view.id, ALICE.id, "d3-e2")
    assert not own.draw_offer_lapsed
    assert own.view.record.draw_offer is not None and own.view.record.draw_offer.open
    reply = await games.play(view.id, BOB.id, "e3-e1")
    assert reply.draw_offer_lapsed
    with pytest.raises(InvalidStateError, match="no longer open"):
        await games.answer_draw(view.id, BOB.id, accept=True, offer_ply=0)


async def test_offering_when_the_opponent_offered_accepts(env: Env) -> None:
    """/draw by Bob while Alice's offer stands is taken as accepting it."""
    view = await env.start()
    await env.services.games.offer_draw(view.id, ALICE.id)
    result = await env.services.games.offer_draw(view.id, BOB.id)
    assert result.status is DrawStatus.ACCEPTED
    assert result.view.outcome is not None and result.view.outcome.is_draw


async def test_stale_draw_button_is_refused(env: Env) -> None:
    """Answering with the ply of an older offer does not accept a newer one."""
    view = await env.start()
    games = env.services.games
    await games.play(view.id, ALICE.id, "d3-e2")
    await games.offer_draw(view.id, ALICE.id)
    with pytest.raises(InvalidStateError, match="no longer open"):
        await games.answer_draw(view.id, BOB.id, accept=True, offer_ply=0)


async def test_undo_own_last_move_with_approval(env: Env) -> None:
    """Alice asks to take back her move; Bob approves; the position is the start again."""
    view = await env.start()
    games = env.services.games
    await games.play(view.id, ALICE.id, "d3-e2")
    requested = await games.request_undo(view.id, ALICE.id)
    assert requested.status is UndoStatus.REQUESTED
    assert requested.notation == "d3-e2"
    with pytest.raises(InvalidStateError, match="already asked"):
        await games.request_undo(view.id, ALICE.id)
    with pytest.raises(NotAllowedError, match="your own request"):
        await games.answer_undo(view.id, ALICE.id, accept=True)
    applied = await games.answer_undo(view.id, BOB.id, accept=True, request_ply=1)
    assert applied.status is UndoStatus.APPLIED and applied.notation == "d3-e2"
    assert applied.view.state == view.state
    assert applied.view.record.ply == 0 and applied.view.record.to_move == 0
    assert await env.repo.list_moves(view.id) == []
    again = await games.play(view.id, ALICE.id, "c4-c3")
    assert again.move.ply == 1


async def test_undo_after_the_reply_takes_back_both(env: Env) -> None:
    """When Bob has replied, Alice's undo takes back her move and Bob's reply."""
    view = await env.start()
    games = env.services.games
    await games.play(view.id, ALICE.id, "d3-e2")
    await games.play(view.id, BOB.id, "e3-e1")
    requested = await games.request_undo(view.id, ALICE.id)
    assert requested.notation == "d3-e2, e3-e1"
    applied = await games.answer_undo(view.id, BOB.id, accept=True)
    assert applied.view.record.ply == 0
    assert (await games.replay_state(view.id)) == view.state


async def test_undo_declined_nothing_to_undo_and_lapse(env: Env) -> None:
    """Refusals: nothing to take back; declined at this ply; a move makes the request lapse."""
    view = await env.start()
    games = env.services.games
    with pytest.raises(InvalidStateError, match="nothing to take back"):
        await games.request_undo(view.id, BOB.id)
    await games.play(view.id, ALICE.id, "d3-e2")
    await games.request_undo(view.id, ALICE.id)
    declined = await games.answer_undo(view.id, BOB.id, accept=False)
    assert declined.status is UndoStatus.DECLINED
    with pytest.raises(InvalidStateError, match="bob declined"):
        await games.request_undo(view.id, ALICE.id)
    await games.play(view.id, BOB.id, "e3-e1")
    await games.request_undo(view.id, BOB.id)
    await games.play(view.id, ALICE.id, "c4-c3")
    with pytest.raises(InvalidStateError, match="no longer open"):
        await games.answer_undo(view.id, ALICE.id, accept=True)
    assert len(await env.repo.list_moves(view.id)) == 3


def test_undo_start_by_turns() -> None:
    """What an undo takes back, in single-move and multi-move turns."""

    def log(*seats: int) -> list[MoveRecord]:
        return [MoveRecord(1, i + 1, seat, seat, f"m{i + 1}", None) for i, seat in enumerate(seats)]  # type: ignore[arg-type]

    assert undo_start([], 0, 0) is None
    assert undo_start(log(0), 1, 1) is None
    assert undo_start(log(0), 0, 1) == (1, True)
    assert undo_start(log(0, 1), 0, 0) == (1, True)
    # Multi-move turns: seat 0 played 4, seat 1 is in the middle of its turn.
    assert undo_start(log(0, 0, 0, 0, 1, 1), 1, 1) == (5, False)
    assert undo_start(log(0, 0, 0, 0, 1, 1), 0, 1) == (1, True)
    assert undo_start(log(0, 0, 1, 1, 0), 1, 0) == (3, True)


async def test_restart_continues_the_game(env: Env) -> None:
    """New services over the same database carry on where the old ones stopped."""
    view = await env.start()
    await env.services.games.play(view.id, ALICE.id, "d3-e2")
    expected = (await env.services.games.view(view.id)).state
    restarted = await env.restart()
    try:
        games = restarted.services.games
        continued = await games.view(view.id)
        assert continued.state == expected
        with pytest.raises(NotYourTurnError):
            await games.play(view.id, ALICE.id, "c4-c3")
        result = await games.play(view.id, BOB.id, "e3-e1")
        assert result.move.ply == 2
    finally:
        await restarted.repo.close()


async def test_snapshot_and_replay_agree(env: Env) -> None:
    """The state from snapshot + replay equals the state from replaying every move."""
    games = GameService(env.repo, env.clock, env.services.outbox, snapshot_every=5)
    view = await env.start()
    rng = random.Random(3)
    players = view.record.players
    state = view.state
    for _ in range(23):
        if state.is_game_over():
            break
        text = rng.choice(state.legal_notations())
        player = players[state.to_move]
        assert player is not None
        state = (await games.play(view.id, player, text)).view.state
    snapshot = await env.repo.get_snapshot(view.id)
    assert snapshot is not None and snapshot.ply == 20
    from_snapshot = await games.replay_state(view.id)
    from_start = await games.replay_state(view.id, use_snapshot=False)
    assert from_snapshot == from_start == state
    assert from_snapshot.encode() == state.encode()


async def test_unreadable_snapshot_falls_back_to_the_full_log(env: Env) -> None:
    """A damaged snapshot is ignored and the moves are replayed from the start."""
    view = await env.start()
    result = await env.services.games.play(view.id, ALICE.id, "d3-e2")
    await env.repo.record_move(
        MoveRecord(view.id, 2, 1, BOB.id, "e3-e1", env.clock.now()),
        result.view.record.evolve(ply=2, to_move=0),
        Snapshot(2, "garbage"),
    )
    restarted = await env.restart()
    try:
        state = await restarted.services.games.replay_state(view.id)
        assert state == view.state.play_text("d3-e2").play_text("e3-e1")
    finally:
        await restarted.repo.close()


async def test_computer_moves_are_announced(env: Env) -> None:
    """A computer seat moves through play_computer_move; it is announced like a player's."""
    record = await env.repo.create_game(
        NewGame(
            game="groups",
            options={"start": "standard"},
            guild_id=GUILD,
            channel_id=CHANNEL,
            players=(ALICE.id, None),
            names=("alice", "Tabula (easy)"),
            ai_levels=(None, "easy"),
            created_at=env.clock.now(),
        )
    )
    games = env.services.games
    with pytest.raises(NotAllowedError, match="not a computer player's turn"):
        await games.play_computer_move(record.id, "d3-e2")
    await games.play(record.id, ALICE.id, "d3-e2")
    result = await games.play_computer_move(record.id, "e3-e1")
    assert result.move.user_id is None and result.move.seat == 1
    assert [(n.move.notation, n.move.user_id) for n in env.notifier.moves] == [
        ("d3-e2", ALICE.id),
        ("e3-e1", None),
    ]


async def test_finish_for_reasons_outside_the_rules(env: Env) -> None:
    """finish() (timeouts, administrators) ends the game once and announces it."""
    view = await env.start()
    ended = await env.services.games.finish(view.id, 1, "alice ran out of time")
    assert ended.outcome is not None and ended.outcome.winner == 1
    assert [v.id for v in env.notifier.finished] == [view.id]
    with pytest.raises(InvalidStateError):
        await env.services.games.finish(view.id, 0, "again")


async def test_move_hooks_see_every_move_and_failures_are_contained(env: Env) -> None:
    """A failing hook is logged; the move still counts and later hooks still run."""
    view = await env.start()
    seen: list[str] = []

    async def broken(result) -> None:
        raise RuntimeError("boom")

    env.services.games.move_hooks += [broken, lambda r: _append(seen, r.move.notation)]
    await env.services.games.play(view.id, ALICE.id, "d3-e2")
    assert seen == ["d3-e2"]


async def test_find_the_game_a_command_means(env: Env) -> None:
    """In a thread: its game; elsewhere: the caller's one game, or the one where they move."""
    first = await env.start()
    second = await env.start(options={"start": "drop"})
    games = env.services.games
    await games.set_thread(first.id, 9001)
    assert (await games.find(ALICE.id, 9001, guild_id=GUILD)).id == first.id
    # Carol is found the game too, and told later that she does not play.
    assert (await games.find(CAROL.id, 9001, guild_id=GUILD)).id == first.id
    # Both games were started from CHANNEL; the second is played there (no thread).
    assert (await games.find(ALICE.id, CHANNEL, guild_id=GUILD)).id == second.id
    await games.set_thread(second.id, 9002)
    with pytest.raises(NotFoundError, match="You have 2 games here"):
        await games.find(ALICE.id, CHANNEL, guild_id=GUILD)
    await games.play(first.id, ALICE.id, "d3-e2")
    assert (await games.find(ALICE.id, CHANNEL, guild_id=GUILD, for_move=True)).id == second.id
    assert (await games.find(BOB.id, CHANNEL, guild_id=GUILD, for_move=True)).id == first.id
    with pytest.raises(NotFoundError, match="no game in progress here"):
        await games.find(CAROL.id, CHANNEL, guild_id=GUILD)
    assert (await games.find(CAROL.id, 1, game_id=second.id, guild_id=GUILD)).id == second.id


async def test_a_game_is_found_only_in_its_own_server_or_by_its_players(env: Env) -> None:
    """From another server a game does not exist; in direct messages only its players
    find it; ids no database holds are no game either."""
    view = await env.start()
    games = env.services.games
    elsewhere = GUILD + 1
    for user in (ALICE, CAROL):
        with pytest.raises(NotFoundError, match=f"^There is no game #{view.id}.$"):
            await games.find(user.id, 1, game_id=view.id, guild_id=elsewhere)
    assert (await games.find(ALICE.id, 1, game_id=view.id, guild_id=None)).id == view.id
    with pytest.raises(NotFoundError, match=f"^There is no game #{view.id}.$"):
        await games.find(CAROL.id, 1, game_id=view.id, guild_id=None)
    for huge in (2**63 - 1, 2**63, 10**23, 0, -5):
        with pytest.raises(NotFoundError, match=f"^There is no game #{huge}.$"):
            await games.find(ALICE.id, 1, game_id=huge, guild_id=GUILD)
        with pytest.raises(NotFoundError):
            await games.play(huge, ALICE.id, "d3-e2")
        assert await games.suggest_moves(huge, ALICE.id, "d") == []


async def test_suggestions_only_for_the_player_to_move(env: Env) -> None:
    """Autocomplete offers legal moves to the player to move, nobody else."""
    view = await env.start()
    games = env.services.games
    suggestions = await games.suggest_moves(view.id, ALICE.id, "d3")
    assert suggestions and all(s.startswith("d3-") for s in suggestions)
    assert set(suggestions) == {m for m in view.state.legal_notations() if m.startswith("d3-")}
    assert len(await games.suggest_moves(view.id, ALICE.id, "")) == 25
    assert await games.suggest_moves(view.id, BOB.id, "") == []
    assert await games.suggest_moves(view.id, CAROL.id, "") == []
    assert await games.suggest_moves(999, ALICE.id, "") == []


async def test_long_diffusion_paths_are_typed_not_offered(env: Env) -> None:
    """Discord's choices hold 100 characters: longer paths are never offered, whatever is
    typed, yet typing one in full plays it (the path matters for an echo, so a shorter
    path to the same cell would be another move and is not offered in its place)."""
    view = await env.start("diffusion")
    games = env.services.games
    legal = view.state.legal_notations()
    longest = max(legal, key=len)
    assert len(longest) > 100
    starts = {notation.split("-")[0] for notation in legal if len(notation) > 100}
    for typed in ["", *starts, longest[:60], longest[:101], longest]:
        offered = await games.suggest_moves(view.id, ALICE.id, typed)
        assert len(offered) <= 25 and all(len(choice) <= 100 for choice in offered), typed
    assert await games.suggest_moves(view.id, ALICE.id, longest) == []
    result = await games.play(view.id, ALICE.id, longest)
    assert result.move.notation == longest


async def test_active_games_and_last_turn(env: Env) -> None:
    """A player's active games are listed; finished games are not."""
    first = await env.start()
    second = await env.start(options={"start": "drop"})
    games = env.services.games
    await games.play(first.id, ALICE.id, "d3-e2")
    assert [m.notation for m in await games.last_turn(first.id)] == ["d3-e2"]
    await games.resign(second.id, ALICE.id)
    assert [g.id for g in await games.active_games(BOB.id)] == [first.id]


async def test_service_errors_are_service_errors() -> None:
    """Every refusal the front ends catch derives from ServiceError."""
    for error in (ConflictError, InvalidStateError, NotAllowedError, NotFoundError):
        assert issubclass(error, ServiceError)


async def test_state_cache_is_bounded(env: Env) -> None:
    """The cache forgets the least recently used games beyond its size."""
    games = GameService(env.repo, env.clock, env.services.outbox, cache_size=2)
    views = [await env.start() for _ in range(3)]
    for view in views:
        await games.view(view.id)
    assert list(games._cache) == [views[1].id, views[2].id]
    assert get_game("groups").name == "groups"
    env.clock.advance(timedelta(seconds=1))


async def test_check_turn_before_opening_the_move_form(env: Env) -> None:
    """The Move button checks the player and the turn before showing the form."""
    view = await env.start()
    games = env.services.games
    assert (await games.check_turn(view.id, ALICE.id)).id == view.id
    with pytest.raises(NotYourTurnError, match="It is alice's turn"):
        await games.check_turn(view.id, BOB.id)
    with pytest.raises(NotAllowedError):
        await games.check_turn(view.id, CAROL.id)
    assert games.check_player(view.record, BOB.id) == 1
    await games.resign(view.id, BOB.id)
    with pytest.raises(InvalidStateError):
        await games.check_turn(view.id, ALICE.id)


async def test_multi_move_turns(env: Env) -> None:
    """Diffusion Chess: sub-moves keep the turn; the turn's moves are reported at its end;
    undo mid-turn takes back the turn's moves at once; a whole turn needs approval."""
    view = await env.start(game="diffusion")
    games = env.services.games
    state = view.state
    played: list[str] = []
    undone_once = False
    while state.to_move == 0:
        notation = state.legal_notations()[0]
        result = await games.play(view.id, ALICE.id, notation)
        state = result.view.state
        played.append(notation)
        assert result.turn_complete == (state.to_move == 1)
        if len(played) == 2 and not undone_once:
            undone_once = True
            undone = await games.request_undo(view.id, ALICE.id)
            assert undone.status is UndoStatus.APPLIED
            assert [m.notation for m in undone.moves] == played
            assert undone.view.state == view.state and undone.view.record.ply == 0
            state, played = view.state, []
    assert [m.notation for m in result.turn_moves] == played and len(played) == 4
    assert result.turn_notation == ", ".join(played)
    bob_move = state.legal_notations()[0]
    await games.play(view.id, BOB.id, bob_move)
    requested = await games.request_undo(view.id, ALICE.id)
    assert requested.status is UndoStatus.REQUESTED
    assert [m.notation for m in requested.moves] == [*played, bob_move]
    applied = await games.answer_undo(view.id, BOB.id, accept=True)
    assert applied.view.state == view.state
    assert await env.repo.list_moves(view.id) == []
