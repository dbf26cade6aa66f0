"""Rematches through the services: the same game again with the colours swapped, asked
for once, refused to strangers and for tournament and imported games; against the
computer a new game at once. And the next game offered after a turn."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.errors import InvalidStateError, NotAllowedError, NotFoundError
from bot.services.games.players import computer_seat
from bot.services.games.rematches import RematchAskedError, rematch_offered
from bot.services.views.results import GameView
from bot.storage.repository import ChallengeRecord, ChallengeStatus
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env, play_any
from tests.services.test_tournaments import PLAYERS, games_in_progress
from tests.services.test_tournaments import create as create_tournament
from tests.services.test_tournaments import start as start_tournament

THREAD = 700


async def challenge_of(env: Env, game_id: int, user=ALICE) -> ChallengeRecord:
    """`user` asks for a rematch of a game between people: the challenge it made."""
    made = await env.services.rematches.rematch(game_id, user, guild_id=GUILD)
    assert isinstance(made, ChallengeRecord)
    return made


async def test_a_rematch_swaps_colours_and_keeps_the_choices(env: Env) -> None:
    """A challenge to the same opponent where the game was played, the same options,
    clock and rating choice, the colours swapped; accepted, it starts that game."""
    first = await env.start("stones", {"size": 7}, colour="white", time_control="3d")
    await env.services.games.set_thread(first.id, THREAD)
    assert not rematch_offered(await env.services.games.record(first.id))
    await play_any(env, first.id)  # a game without a move ends unrated
    await env.services.games.resign(first.id, ALICE.id)
    record = await env.services.games.record(first.id)
    assert rematch_offered(record) and record.rated

    made = await challenge_of(env, first.id, ALICE)
    assert (made.challenger_id, made.opponent_id, made.opponent_name) == (ALICE.id, BOB.id, "bob")
    assert made.channel_id == THREAD and made.guild_id == GUILD
    assert made.game == "stones" and made.options == record.options
    assert record.seat_of(ALICE.id) == 1  # White moves second in Stones
    assert made.challenger_seat == 0  # alice plays Black now
    assert made.rated and made.time_control == record.time_control == "3d"
    assert made.status is ChallengeStatus.OPEN

    accepted = await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)
    second = accepted.view.record
    assert second.players == (ALICE.id, BOB.id) and second.names == ("alice", "bob")
    assert (second.game, dict(second.options), second.rated) == ("stones", {**record.options}, True)
    assert second.time_control == "3d" and second.channel_id == THREAD
    with pytest.raises(InvalidStateError) as info:
        await env.services.rematches.rematch(first.id, BOB, guild_id=GUILD)
    assert str(info.value) == (
        f"The rematch of game #{first.id} is being played already: game #{second.id}."
    )


async def test_a_casual_game_and_a_rated_game_lost_without_a_move(env: Env) -> None:
    """A casual game's rematch is casual; a rated game that ended unrated (a loss on time
    by a player who never moved) is asked for again as rated."""
    challenges = env.services.challenges
    casual = await challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, game="groups",
        rated=False,
    )  # fmt: skip
    game = (await challenges.accept(casual.id, BOB, guild_id=GUILD)).view
    await env.services.games.resign(game.id, BOB.id)
    assert not (await challenge_of(env, game.id, BOB)).rated

    timed = await env.start("hexade", {"size": 5}, colour="white", time_control="1d")
    env.clock.advance(timedelta(days=1, minutes=1))
    await env.services.clocks.time_out_due()
    lost = await env.services.games.record(timed.id)
    assert not lost.is_active and not lost.rated and lost.winner == 1
    made = await challenge_of(env, timed.id, ALICE)
    assert made.rated and made.time_control == "1d" and made.options == {"size": 5}


async def test_asked_once_and_the_opponent_is_pointed_to_it(env: Env) -> None:
    """A second request while the first waits is refused; the opponent asking too is
    pointed to the challenge waiting for them; once it is declined, it can be asked again."""
    game = await env.start()
    await env.services.games.resign(game.id, BOB.id)
    made = await challenge_of(env, game.id, ALICE)
    with pytest.raises(RematchAskedError) as mine:
        await env.services.rematches.rematch(game.id, ALICE, guild_id=GUILD)
    assert str(mine.value) == (
        f"You have asked bob for a rematch already (challenge #{made.id}); it waits for an answer."
    )
    with pytest.raises(RematchAskedError) as theirs:
        await env.services.rematches.rematch(game.id, BOB, guild_id=GUILD)
    assert str(theirs.value) == (
        f"alice has asked you for a rematch already: accept challenge #{made.id}."
    )
    assert mine.value.challenge.id == theirs.value.challenge.id == made.id
    assert len(await env.repo.open_challenges(user_id=ALICE.id)) == 1
    await env.services.challenges.decline(made.id, BOB.id)
    again = await challenge_of(env, game.id, BOB)
    assert (again.challenger_id, again.opponent_id, again.challenger_seat) == (
        BOB.id, ALICE.id, 0,
    )  # fmt: skip


async def test_an_expired_request_does_not_block_a_new_one(env: Env) -> None:
    """A request past its expiry (not yet closed by the scheduler) counts for nothing."""
    game = await env.start()
    await env.services.games.resign(game.id, BOB.id)
    old = await challenge_of(env, game.id, ALICE)
    env.clock.advance(timedelta(hours=2))
    new = await challenge_of(env, game.id, BOB)
    assert new.id != old.id
    assert [c.id for c in await env.services.challenges.expire_due()] == [old.id]


async def test_who_may_ask_and_when(env: Env) -> None:
    """Only the two players, only from the game's server (or a direct message), only
    once the game is over; nothing is stored for a refusal."""
    game = await env.start()
    rematches = env.services.rematches
    with pytest.raises(InvalidStateError) as early:
        await rematches.rematch(game.id, ALICE, guild_id=GUILD)
    assert str(early.value) == (
        f"Game #{game.id} is still being played: a rematch can be asked for once it is over."
    )
    await env.services.games.resign(game.id, ALICE.id)
    with pytest.raises(NotAllowedError) as stranger:
        await rematches.rematch(game.id, CAROL, guild_id=GUILD)
    assert str(stranger.value) == f"Only alice and bob can ask for a rematch of game #{game.id}."
    unseen = ((game.id, ALICE, GUILD + 1), (game.id, CAROL, None), (999, ALICE, GUILD))
    for game_id, user, guild in unseen:
        with pytest.raises(NotFoundError) as missing:
            await rematches.rematch(game_id, user, guild_id=guild)
        assert str(missing.value) == f"There is no game #{game_id}."
    assert await env.repo.open_challenges(user_id=ALICE.id) == []
    in_dm = await challenge_of(env, game.id, BOB)  # a direct message: the game's own place
    assert in_dm.guild_id == GUILD and in_dm.channel_id == CHANNEL


async def test_tournament_and_imported_games_have_no_rematch(env: Env) -> None:
    """A tournament game is refused (the tournament decides the pairings), and so is a
    game imported from a record."""
    tournament = await start_tournament(env, await create_tournament(env, "round-robin", 2))
    [(_, game)] = await games_in_progress(env, tournament)
    first, second = game.players
    assert first is not None and second is not None
    await play_any(env, game.id)
    await env.services.games.resign(game.id, first)
    ended = await env.services.games.record(game.id)
    assert not ended.is_active and not rematch_offered(ended)
    winner = next(p for p in PLAYERS if p.id == second)
    with pytest.raises(NotAllowedError) as info:
        await env.services.rematches.rematch(game.id, winner, guild_id=GUILD)
    assert str(info.value) == (
        f"Game #{game.id} was a tournament game: the tournament decides who plays whom, "
        "so it has no rematch."
    )
    assert await env.repo.open_challenges(user_id=winner.id) == []

    played = await env.start()
    await env.services.games.resign(played.id, BOB.id)
    record = await env.services.games.record(played.id)
    exported = (await env.services.records.export_of(record)).file("json")
    assert exported is not None
    imported = await env.services.records.import_record(exported.content, guild_id=GUILD)
    with pytest.raises(NotAllowedError) as refused:
        await env.services.rematches.rematch(imported.id, ALICE, guild_id=GUILD)
    assert "imported from a record, not played here: it has no rematch." in str(refused.value)


async def test_against_the_computer_a_new_game_starts_at_once(env: Env) -> None:
    """The same level and options, the colours swapped, the game started; asked again
    while it is played, refused."""
    computer = env.services.computer
    first = await computer.start(
        guild_id=GUILD, channel_id=CHANNEL, player=ALICE, game="hexade",
        options={"size": 6}, level="easy", colour="white",
    )  # fmt: skip
    await env.services.games.set_thread(first.id, THREAD)
    await env.services.games.resign(first.id, ALICE.id)
    started = len(env.notifier.starts)
    second = await env.services.rematches.rematch(first.id, ALICE, guild_id=GUILD)
    assert isinstance(second, GameView)
    record = second.record
    assert record.players == (None, ALICE.id) and computer_seat(record) == 0
    assert record.ai_levels == ("easy", None) and dict(record.options) == {"size": 6}
    assert record.channel_id == CHANNEL and record.guild_id == GUILD and not record.rated
    assert record.is_active and len(env.notifier.starts) == started + 1
    assert await env.repo.open_challenges(user_id=ALICE.id) == []
    with pytest.raises(InvalidStateError) as info:
        await env.services.rematches.rematch(first.id, ALICE, guild_id=GUILD)
    assert str(info.value) == (
        f"The rematch of game #{first.id} is being played already: game #{record.id}."
    )
    await computer.close()


async def test_the_next_game_is_the_most_urgent_other_one(env: Env) -> None:
    """After a turn, the other games waiting for the player, nearest deadline first and
    untimed last; none when only the game just played waited."""
    untimed = await env.start("groups", colour="first")
    later = await env.start("hexade", {"size": 5}, colour="first", time_control="3d")
    sooner = await env.start("stones", {"size": 5}, colour="first", time_control="1d")
    theirs = await env.start("groups", colour="second")  # bob to move
    notifications = env.services.notifications
    await play_any(env, untimed.id)
    waiting = await notifications.next_games(ALICE.id, untimed.id)
    assert [w.record.id for w in waiting] == [sooner.id, later.id]
    assert waiting[0].left == timedelta(days=1) and waiting[0].deadline is not None
    await play_any(env, sooner.id)
    await play_any(env, later.id)
    assert await notifications.next_games(ALICE.id, later.id) == []
    waiting = await notifications.next_games(BOB.id, untimed.id)
    assert [w.record.id for w in waiting] == [sooner.id, later.id, theirs.id]
    assert waiting[-1].deadline is None and waiting[-1].left is None
