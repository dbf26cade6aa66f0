"""Challenges: creation rules, accept / decline / cancel, expiry, races."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest

from bot.services.errors import (
    InvalidInputError,
    InvalidStateError,
    NotAllowedError,
    NotFoundError,
    ServiceError,
)
from bot.services.games.challenges import MAX_OPEN_CHALLENGES
from bot.services.settings import ChannelNotAllowedError
from bot.storage.repository import ChallengeStatus, GameStatus
from rules import InvalidOptionError, UnknownGameError
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ROBOT, Env


async def challenge(env: Env, opponent=BOB, **kwargs):
    values: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "challenger": ALICE,
        "game": "groups",
    }
    values.update(kwargs)
    return await env.services.challenges.create(opponent=opponent, **values)


async def test_direct_challenge_is_stored_with_validated_options(env: Env) -> None:
    """The challenge keeps the full option set, the colour choice and the expiry time."""
    made = await challenge(env, options={"start": " DROP "}, colour="Black")
    assert made.status is ChallengeStatus.OPEN
    assert made.options == {"start": "drop"}
    assert made.challenger_seat == 1
    assert made.opponent_id == BOB.id and made.opponent_name == "bob"
    assert made.expires_at - made.created_at == timedelta(hours=1)
    assert await env.services.challenges.get(made.id) == made


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"opponent": ALICE}, NotAllowedError, "You cannot challenge yourself."),
        ({"opponent": ROBOT}, NotAllowedError, "robot is a bot and cannot play"),
        ({"challenger": ROBOT}, NotAllowedError, "Bots cannot start games."),
        ({"game": "chess"}, UnknownGameError, "unknown game 'chess'"),
        ({"options": {"start": "wild"}}, InvalidOptionError, "start must be one of standard, drop"),
        ({"options": {"size": 9}}, InvalidOptionError, "Groups has no option 'size'"),
        ({"colour": "green"}, InvalidInputError, "'green' is not a colour in Groups"),
    ],
)
async def test_bad_challenges_are_refused(env: Env, kwargs, error, text) -> None:
    """Each bad challenge gets its own message and stores nothing."""
    with pytest.raises(error, match=text):
        await challenge(env, **kwargs)
    assert await env.repo.open_challenges(channel_id=CHANNEL) == []


async def test_challenges_only_in_game_channels(env: Env) -> None:
    """With game channels configured, other channels refuse challenges and say where to go."""
    await env.services.settings.update(GUILD, can_manage=True, add_channel=777)
    with pytest.raises(ChannelNotAllowedError) as info:
        await challenge(env)
    assert info.value.allowed == frozenset({777})
    made = await challenge(env, channel_id=777)
    assert made.channel_id == 777


async def test_duplicate_and_too_many_challenges(env: Env) -> None:
    """The same challenge twice is refused, and so is an eleventh open challenge."""
    await challenge(env)
    with pytest.raises(InvalidStateError, match="You already challenged bob to Groups here"):
        await challenge(env)
    for user_id in range(100, 100 + MAX_OPEN_CHALLENGES - 1):
        await challenge(env, opponent=BOB.__class__(user_id, f"u{user_id}"))
    with pytest.raises(InvalidStateError, match="open challenges; cancel one"):
        await challenge(env, opponent=CAROL)


async def test_accept_starts_the_game_with_the_chosen_colours(env: Env) -> None:
    """Alice chose black, so Bob (white) moves first; the challenge points to the game."""
    made = await challenge(env, colour="black", options={"start": "drop"})
    accepted = await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)
    record = accepted.view.record
    assert record.players == (BOB.id, ALICE.id)
    assert record.names == ("bob", "alice")
    assert record.options == {"start": "drop"}
    assert record.status is GameStatus.ACTIVE and record.ply == 0
    assert accepted.challenge.status is ChallengeStatus.ACCEPTED
    assert accepted.challenge.game_id == record.id
    assert accepted.view.state.to_move == 0
    assert accepted.view.to_move_id == BOB.id


async def test_random_colour_comes_from_the_injected_rng(env: Env) -> None:
    """With colour random, the service's random source decides the seats."""

    class Fixed(random.Random):
        def __init__(self, value: int) -> None:
            super().__init__()
            self.value = value

        def randrange(self, *args, **kwargs) -> int:
            return self.value

    for value, players in ((0, (ALICE.id, BOB.id)), (1, (BOB.id, ALICE.id))):
        env.services.challenges._rng = Fixed(value)
        made = await challenge(env, colour="random")
        assert made.challenger_seat is None
        accepted = await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)
        assert accepted.view.record.players == players


async def test_who_may_answer_a_direct_challenge(env: Env) -> None:
    """Only Bob accepts or declines; only Alice cancels; answered challenges stay closed."""
    made = await challenge(env)
    service = env.services.challenges
    with pytest.raises(NotAllowedError, match="This challenge is for bob"):
        await service.accept(made.id, CAROL, guild_id=GUILD)
    with pytest.raises(NotAllowedError, match="cannot accept your own challenge"):
        await service.accept(made.id, ALICE, guild_id=GUILD)
    with pytest.raises(NotAllowedError, match="use Cancel"):
        await service.decline(made.id, ALICE.id)
    with pytest.raises(NotAllowedError, match="Only alice, who made this challenge"):
        await service.cancel(made.id, BOB.id)
    declined = await service.decline(made.id, BOB.id)
    assert declined.status is ChallengeStatus.DECLINED
    with pytest.raises(InvalidStateError, match="This challenge was declined"):
        await service.accept(made.id, BOB, guild_id=GUILD)
    with pytest.raises(InvalidStateError, match="was declined"):
        await service.cancel(made.id, ALICE.id)
    assert await env.repo.active_games(user_id=BOB.id) == []


async def test_cancel_then_accept_is_refused(env: Env) -> None:
    """A cancelled challenge cannot be accepted."""
    made = await challenge(env)
    cancelled = await env.services.challenges.cancel(made.id, ALICE.id)
    assert cancelled.status is ChallengeStatus.CANCELLED
    with pytest.raises(InvalidStateError, match="This challenge was cancelled"):
        await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)


async def test_open_challenge_accepted_by_anyone_but_the_challenger(env: Env) -> None:
    """An open challenge cannot be declined; Carol accepts it; bots cannot."""
    made = await challenge(env, opponent=None)
    service = env.services.challenges
    assert [c.id for c in await service.pending(CAROL.id, CHANNEL)] == [made.id]
    assert await service.pending(ALICE.id, CHANNEL) == []
    with pytest.raises(NotAllowedError, match="open challenge cannot be declined"):
        await service.decline(made.id, CAROL.id)
    with pytest.raises(NotAllowedError, match="Bots cannot play"):
        await service.accept(made.id, ROBOT, guild_id=GUILD)
    for elsewhere in (GUILD + 1, None):  # another server's click, or a direct message
        with pytest.raises(NotFoundError, match=f"^There is no challenge #{made.id} here.$"):
            await service.accept(made.id, CAROL, guild_id=elsewhere)
    accepted = await service.accept(made.id, CAROL, guild_id=GUILD)
    assert set(accepted.view.record.players) == {ALICE.id, CAROL.id}


async def test_two_people_race_for_an_open_challenge(env: Env) -> None:
    """Bob and Carol accept at the same moment: exactly one game starts."""
    made = await challenge(env, opponent=None)
    results = await asyncio.gather(
        env.services.challenges.accept(made.id, BOB, guild_id=GUILD),
        env.services.challenges.accept(made.id, CAROL, guild_id=GUILD),
        return_exceptions=True,
    )
    games = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(games) == 1 and len(errors) == 1
    assert isinstance(errors[0], ServiceError)
    assert len(await env.repo.active_games(user_id=ALICE.id)) == 1


async def test_expiry_by_the_scheduler(env: Env) -> None:
    """After the expiry time, the scheduler's tick expires the challenge and announces it."""
    made = await challenge(env)
    env.clock.advance(timedelta(minutes=59))
    await env.services.scheduler.tick()
    assert env.notifier.expired == []
    env.clock.advance(timedelta(minutes=1))
    await env.services.scheduler.tick()
    assert [c.id for c in env.notifier.expired] == [made.id]
    assert env.notifier.expired[0].status is ChallengeStatus.EXPIRED
    await env.services.scheduler.tick()
    assert len(env.notifier.expired) == 1
    with pytest.raises(InvalidStateError, match="This challenge has expired"):
        await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)


async def test_accepting_late_expires_on_the_spot(env: Env) -> None:
    """An accept after the expiry time but before the next tick is refused and expires it."""
    made = await challenge(env)
    env.clock.advance(timedelta(hours=2))
    with pytest.raises(InvalidStateError, match="This challenge has expired"):
        await env.services.challenges.accept(made.id, BOB, guild_id=GUILD)
    assert [c.id for c in env.notifier.expired] == [made.id]
    assert (await env.services.challenges.get(made.id)).status is ChallengeStatus.EXPIRED


async def test_expiry_follows_the_server_setting(env: Env) -> None:
    """/config challenge expiry applies to new challenges."""
    await env.services.settings.update(GUILD, can_manage=True, challenge_expiry="10m")
    made = await challenge(env)
    assert made.expires_at - made.created_at == timedelta(minutes=10)


async def test_expiry_survives_a_restart(env: Env) -> None:
    """A challenge that expired while the bot was down is expired by the first tick after."""
    made = await challenge(env)
    env.clock.advance(timedelta(days=1))
    restarted = await env.restart()
    try:
        await restarted.services.scheduler.tick()
        assert [c.id for c in restarted.notifier.expired] == [made.id]
    finally:
        await restarted.repo.close()


async def test_unknown_challenge(env: Env) -> None:
    """A challenge id that does not exist is named in the error."""
    with pytest.raises(NotFoundError, match="There is no challenge #42"):
        await env.services.challenges.accept(42, BOB, guild_id=GUILD)


async def test_message_is_remembered(env: Env) -> None:
    """The challenge message id is stored for editing on expiry."""
    made = await challenge(env)
    await env.services.challenges.attach_message(made.id, 31337)
    assert (await env.services.challenges.get(made.id)).message_id == 31337
    assert [c.id for c in await env.services.challenges.mine(ALICE.id)] == [made.id]


async def test_challenges_in_a_deleted_channel_are_withdrawn_and_both_told(env: Env) -> None:
    """A deleted channel withdraws the open challenges made there (an open challenge's
    maker alone is told); those made elsewhere, or in another server, stay open."""
    direct = await challenge(env)
    anyone = await challenge(env, opponent=None, challenger=CAROL)
    elsewhere = await challenge(env, opponent=CAROL, channel_id=CHANNEL + 1)
    assert await env.services.challenges.place_deleted(GUILD + 1, CHANNEL) == []
    withdrawn = await env.services.challenges.place_deleted(GUILD, CHANNEL)
    assert {c.id for c in withdrawn} == {direct.id, anyone.id}
    for made in (direct, anyone):
        assert (await env.services.challenges.get(made.id)).status is ChallengeStatus.CANCELLED
    assert (await env.services.challenges.get(elsewhere.id)).status is ChallengeStatus.OPEN
    told = sorted((c.id, user) for c, user in env.notifier.challenges_gone)
    assert told == sorted([(direct.id, ALICE.id), (direct.id, BOB.id), (anyone.id, CAROL.id)])
    with pytest.raises(InvalidStateError):
        await env.services.challenges.accept(direct.id, BOB, guild_id=GUILD)
