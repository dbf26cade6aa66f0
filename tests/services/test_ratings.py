"""RatingService: which games are rated, once each, and what the players are told."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.competition.glicko2 import Rating, after_inactivity, rate_game
from bot.services.games.players import Player
from bot.services.views.results import GameView
from bot.storage.repository import GameStatus, NewGame
from bot.texts.games import end_caption, move_caption
from rules import UnknownGameError
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env

DROP_WIN = ["c3", "c5", "d3", "d5", "e3", "e5", "f3", "f5", "c4", "c6", "d4"]
"""Groups with start=drop: White (alice) connects six with the last move."""


class Plain:
    """A style with plain @names, for checking captions."""

    def mention(self, user_id: int | None, name: str) -> str:
        return f"@{name}"

    def when(self, moment: object) -> str:
        return "soon"

    def game_link(self, record: object) -> str:
        return "here"


async def challenge(
    env: Env, first: Player = ALICE, second: Player = BOB, *, rated: bool = True, guild=GUILD
) -> GameView:
    """`first` challenges `second` (taking White), who accepts."""
    made = await env.services.challenges.create(
        guild_id=guild,
        channel_id=CHANNEL,
        challenger=first,
        opponent=second,
        game="groups",
        options={"start": "drop"},
        colour="white",
        rated=rated,
    )
    return (await env.services.challenges.accept(made.id, second, guild_id=guild)).view


async def opened(env: Env, first: Player = ALICE, second: Player = BOB, *, guild=GUILD) -> GameView:
    """A rated game as `challenge` makes it, with `first`'s first move played (a game
    without any move is never rated)."""
    view = await challenge(env, first, second, guild=guild)
    return (await env.services.games.play(view.id, first.id, DROP_WIN[0])).view


async def test_a_rated_win_by_moves_updates_both_players_once(env: Env) -> None:
    """The winning move's result carries both changes; the stored ratings match Glicko-2."""
    view = await challenge(env)
    assert view.record.rated
    result = None
    for index, move in enumerate(DROP_WIN):
        result = await env.services.games.play(view.id, (ALICE, BOB)[index % 2].id, move)
    assert result is not None and result.finished
    expected_alice, expected_bob = rate_game(Rating(), Rating(), 1.0)
    changes = result.view.rating_changes
    assert [c.text() for c in changes] == ["alice 1500? → 1662? (+162)", "bob 1500? → 1338? (-162)"]
    assert changes[0].after == expected_alice and changes[1].after == expected_bob
    caption = move_caption(env.notifier.moves[-1], Plain())
    assert caption.endswith(
        "**alice wins** with White (all six stones connected).\n"
        "Ratings: alice 1500? → 1662? (+162), bob 1500? → 1338? (-162)."
    )
    alice = await env.repo.get_rating(ALICE.id, "groups")
    bob = await env.repo.get_rating(BOB.id, "groups")
    assert alice is not None and bob is not None
    assert alice.rating == expected_alice and (alice.games, alice.wins, alice.losses) == (1, 1, 0)
    assert bob.rating == expected_bob and (bob.games, bob.wins, bob.losses) == (1, 0, 1)
    # Rating the same game again (the scheduler's catch-up, a second hook) changes nothing.
    again = await env.services.ratings.rate(result.view.record)
    assert again == list(changes)
    assert await env.services.ratings.rate_missed() == 0
    assert await env.repo.get_rating(ALICE.id, "groups") == alice


async def test_resignation_and_agreed_draw_are_rated(env: Env) -> None:
    """Every ending with a result after a move is rated; a draw between equals keeps both
    at 1500."""
    played = await challenge(env)
    await env.services.games.play(played.id, ALICE.id, DROP_WIN[0])
    resigned = await env.services.games.resign(played.id, BOB.id)
    assert [c.score for c in resigned.rating_changes] == [1.0, 0.0]
    assert "Ratings: alice 1500? → 1662? (+162)" in end_caption(resigned, Plain())
    drawn_game = await challenge(env, CAROL, Player(4, "dave"))
    await env.services.games.play(drawn_game.id, CAROL.id, DROP_WIN[0])
    await env.services.games.offer_draw(drawn_game.id, CAROL.id)
    drawn = await env.services.games.answer_draw(drawn_game.id, 4, accept=True)
    changes = drawn.view.rating_changes
    assert [c.score for c in changes] == [0.5, 0.5]
    assert [c.text() for c in changes] == ["carol 1500? → 1500? (+0)", "dave 1500? → 1500? (+0)"]
    assert changes[0].after.deviation < 350


async def test_a_game_without_any_move_is_never_rated(env: Env) -> None:
    """A resignation or an agreed draw before either player moved keeps its result but
    changes no rating (a second account cannot hand out points), and says so."""
    resigned = await env.services.games.resign((await challenge(env)).id, BOB.id)
    assert resigned.record.winner == 0 and not resigned.record.rated
    assert resigned.rating_changes == ()
    assert "not rated" in end_caption(resigned, Plain())
    drawn_game = await challenge(env, CAROL, Player(4, "dave"))
    await env.services.games.offer_draw(drawn_game.id, CAROL.id)
    drawn = await env.services.games.answer_draw(drawn_game.id, 4, accept=True)
    assert drawn.view.rating_changes == () and not drawn.view.record.rated
    assert await env.repo.get_rating(ALICE.id, "groups") is None
    assert await env.services.ratings.rate_missed() == 0


async def test_casual_computer_and_aborted_games_are_not_rated(env: Env) -> None:
    """Casual challenges, a computer seat and an aborted game leave ratings alone."""
    casual = await challenge(env, rated=False)
    assert not casual.record.rated
    view = await env.services.games.resign(casual.id, BOB.id)
    assert view.rating_changes == ()
    assert "Ratings" not in end_caption(view, Plain())
    computer = await env.repo.create_game(
        NewGame(
            game="groups",
            options={"start": "standard"},
            guild_id=GUILD,
            channel_id=CHANNEL,
            players=(ALICE.id, None),
            names=("alice", "computer"),
            created_at=env.clock.now(),
            ai_levels=(None, "easy"),
            rated=True,
        )
    )
    ended = await env.services.games.finish(computer.id, 0, "the computer gave up")
    assert ended.rating_changes == ()
    aborted = await challenge(env)
    gone = await env.services.games.abort(aborted.id, "a test")
    assert gone is not None and gone.record.status is GameStatus.ABORTED
    assert await env.services.ratings.rate(gone.record) == []
    assert await env.repo.get_rating(ALICE.id, "groups") is None
    assert await env.services.ratings.rate_missed() == 0


async def test_a_loss_on_time_before_the_losers_first_move_is_not_rated(env: Env) -> None:
    """A no-show loses on time but unrated (said in the result); once the loser has
    moved, a loss on time is rated like any other; a casual game keeps the plain reason."""

    async def timed(rated: bool = True) -> GameView:
        made = await env.services.challenges.create(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, game="groups",
            options={"start": "drop"}, colour="white", rated=rated, time_control="1d",
        )  # fmt: skip
        return (await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)).view

    first_never = await timed()
    second_never = await timed()
    await env.services.games.play(second_never.id, ALICE.id, "c3")
    both_moved = await timed()
    for user, move in ((ALICE, "c3"), (BOB, "c5"), (ALICE, "d3")):
        await env.services.games.play(both_moved.id, user.id, move)
    casual = await timed(rated=False)
    env.clock.advance(timedelta(days=1, minutes=1))
    await env.services.scheduler.tick()
    for view, loser in ((first_never, "alice"), (second_never, "bob")):
        record = await env.services.games.record(view.id)
        assert record.status is GameStatus.FINISHED and not record.rated
        assert record.result_reason == f"{loser} ran out of time without moving: not rated"
        assert await env.repo.rating_changes(view.id) == []
    rated = await env.services.games.record(both_moved.id)
    assert rated.rated and rated.winner == 0 and rated.result_reason == "bob ran out of time"
    assert [c.score for c in await env.repo.rating_changes(both_moved.id)] == [1.0, 0.0]
    plain = await env.services.games.record(casual.id)
    assert plain.result_reason == "alice ran out of time" and plain.winner == 1
    assert await env.services.ratings.rate_missed() == 0
    alice = await env.repo.get_rating(ALICE.id, "groups")
    assert alice is not None and (alice.games, alice.wins) == (1, 1)


async def test_a_long_break_widens_the_deviation_first(env: Env) -> None:
    """After 100 days (20 periods) the old deviation is grown before the next game."""
    await env.services.games.resign((await opened(env)).id, BOB.id)
    first = await env.repo.get_rating(ALICE.id, "groups")
    assert first is not None
    env.clock.advance(timedelta(days=100))
    card = await env.services.ratings.card(ALICE.id, "Groups", "alice")
    assert card.current == after_inactivity(first.rating, 20)
    assert card.current.deviation > first.rating.deviation
    view = await env.services.games.resign((await opened(env, ALICE, CAROL)).id, CAROL.id)
    change = view.rating_changes[0]
    assert change.before == after_inactivity(first.rating, 20)
    expected, _ = rate_game(first.rating, Rating(), 1.0, first_periods=20, second_periods=1)
    assert change.after == expected


async def test_leaderboards_are_per_server(env: Env) -> None:
    """A server's leaderboard lists those who played rated there, best first, marked `?`."""
    await env.services.games.resign((await opened(env)).id, BOB.id)
    other = await opened(env, CAROL, Player(4, "dave"), guild=GUILD + 1)
    await env.services.games.resign(other.id, 4)
    board = await env.services.ratings.leaderboard(GUILD, "groups")
    assert [(e.rank, e.card.stored.name) for e in board] == [(1, "alice"), (2, "bob")]
    assert [e.card.current.display() for e in board] == ["1662?", "1338?"]
    elsewhere = await env.services.ratings.leaderboard(GUILD + 1, "groups")
    assert [e.card.stored.name for e in elsewhere] == ["carol", "dave"]
    assert await env.services.ratings.rank(GUILD, "groups", BOB.id) == (2, 2)
    assert await env.services.ratings.rank(GUILD, "groups", CAROL.id) is None
    assert await env.services.ratings.leaderboard(GUILD, "hexade") == []


async def test_a_rating_lost_in_a_crash_is_caught_up_after_a_restart(env: Env) -> None:
    """A rated game stored as finished without its rating is rated by the scheduler."""
    view = await opened(env)
    env.services.games.finish_hooks.clear()  # the process dies before the hooks run
    await env.services.games.resign(view.id, BOB.id)
    assert await env.repo.get_rating(ALICE.id, "groups") is None
    restarted = await env.restart()
    try:
        await restarted.services.scheduler.tick()
        changes = await restarted.repo.rating_changes(view.id)
        assert [c.text() for c in changes] == [
            "alice 1500? → 1662? (+162)",
            "bob 1500? → 1338? (-162)",
        ]
        await restarted.services.scheduler.tick()
        alice = await restarted.repo.get_rating(ALICE.id, "groups")
        assert alice is not None and alice.games == 1
    finally:
        await restarted.repo.close()


async def test_cards_for_newcomers_and_players(env: Env) -> None:
    """A newcomer sees 1500?; a player sees every game they played rated."""
    newcomer = await env.services.ratings.card(CAROL.id, "groups", "carol")
    assert newcomer.current.display() == "1500?" and newcomer.record_text == "no rated games yet"
    await env.services.games.resign((await opened(env)).id, BOB.id)
    cards = await env.services.ratings.cards(ALICE.id)
    assert [(c.game_title, c.record_text) for c in cards] == [
        ("Groups", "1 game: 1 won, 0 drawn, 0 lost")
    ]
    with pytest.raises(UnknownGameError, match="chess"):
        await env.services.ratings.card(ALICE.id, "chess", "alice")
