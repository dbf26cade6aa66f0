"""/settings, turn messages, the digest and /games, on a manual clock."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services.correspondence.notifications import parse_reminders, parse_switch
from bot.services.errors import InvalidInputError
from bot.storage.repository import UserSettings
from tests.services.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Env, play_any

pytestmark = pytest.mark.usefixtures("no_logged_errors")

H = timedelta(hours=1)
D = timedelta(days=1)
M = timedelta(minutes=1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("24h,1h", (D, H)),
        (" 1h ; 3d 30m ", (3 * D, H, 30 * M)),
        ("1h,60m", (H,)),
        ("none", ()),
        ("OFF", ()),
    ],
)
def test_reminder_times_are_parsed(text: str, expected: tuple[timedelta, ...]) -> None:
    """Separated by commas, semicolons or spaces; duplicates merged; longest first."""
    assert parse_reminders(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24x", "'24x' is not a duration"),
        ("1m", r"between 5m and 14d before the deadline \(got 1m\)"),
        ("15d", "between 5m and 14d"),
        ("1h,2h,3h,4h,5h", "At most 4 reminder times"),
        (",", "Write reminder times like 24h,1h"),
    ],
)
def test_bad_reminder_times(text: str, message: str) -> None:
    """Each mistake gets its own message."""
    with pytest.raises(InvalidInputError, match=message):
        parse_reminders(text)


def test_switches() -> None:
    """on/off and their synonyms; anything else is named in the message."""
    assert parse_switch("On", "turns") and not parse_switch("no", "digest")
    with pytest.raises(InvalidInputError, match="digest is on or off \\(got 'maybe'\\)"):
        parse_switch("maybe", "digest")


async def test_settings_are_stored_and_validated_as_a_whole(env: Env) -> None:
    """Good settings are saved; a bad value changes nothing, not even the good ones."""
    notifications = env.services.notifications
    saved = await notifications.update(
        ALICE.id, turn_dms=True, reminders="2h", digest=True, digest_period="12h"
    )
    assert saved == UserSettings(ALICE.id, True, (2 * H,), True, 12 * H)
    assert saved.wants_dms
    with pytest.raises(InvalidInputError, match="The digest period is between 1h and 7d"):
        await notifications.update(ALICE.id, turn_dms=False, digest_period="30m")
    assert await notifications.settings(ALICE.id) == saved


async def test_turn_messages_when_asked_for(env: Env) -> None:
    """Bob asked for turn messages: one after each of alice's turns (with his deadline),
    none for a move inside a turn, none to alice who did not ask."""
    await env.services.notifications.update(BOB.id, turn_dms=True)
    view = await env.start("diffusion", time_control="2d")
    for _ in range(3):
        await play_any(env, view.id)
    assert env.notifier.turns == []  # alice is in the middle of her turn
    last = await play_any(env, view.id)
    assert last.turn_complete
    [notice] = env.notifier.turns
    assert notice.user_id == BOB.id and notice.moves == last.turn_notation
    assert notice.deadline == env.clock.now() + 2 * D


async def test_the_first_player_is_told_unless_they_just_accepted(env: Env) -> None:
    """The challenger who moves first gets a message at the start; the accepter, who is
    looking at the board, does not."""
    await env.services.notifications.update(ALICE.id, turn_dms=True)
    await env.services.notifications.update(BOB.id, turn_dms=True)
    await env.start(colour="white")  # alice (challenger) moves first
    assert [(n.user_id, n.moves) for n in env.notifier.turns] == [(ALICE.id, "")]
    await env.start(colour="black")  # bob (accepter) moves first
    assert len(env.notifier.turns) == 1


async def test_the_digest_replaces_turn_messages_and_comes_once_per_period(env: Env) -> None:
    """With the digest on, no message per turn; one digest lists every waiting game, most
    urgent first, and the next comes only a period later."""
    notifications = env.services.notifications
    await notifications.update(BOB.id, turn_dms=True, digest=True, digest_period="1d")
    slow = await env.start(time_control="3d")
    quick = await env.start(time_control="1d")
    untimed = await env.start()
    for game in (slow, quick, untimed):
        await play_any(env, game.id)
    assert env.notifier.turns == []
    await env.services.scheduler.tick()
    await env.services.scheduler.tick()
    [digest] = env.notifier.digests
    assert digest.user_id == BOB.id
    assert [w.record.id for w in digest.games] == [quick.id, slow.id, untimed.id]
    assert [w.left for w in digest.games] == [D, 3 * D, None]
    env.clock.advance(D - M)
    await env.services.scheduler.tick()
    assert len(env.notifier.digests) == 1
    env.clock.advance(M)
    await env.services.scheduler.tick()
    assert len(env.notifier.digests) == 2


async def test_no_digest_when_nothing_waits(env: Env) -> None:
    """A digest is only sent when a game waits for the user."""
    await env.services.notifications.update(ALICE.id, digest=True)
    await env.start(colour="black")  # bob moves first
    await env.services.scheduler.tick()
    assert env.notifier.digests == []


async def test_no_digest_while_on_vacation(env: Env) -> None:
    """A player on vacation gets no digest; it comes again once they are back."""
    await env.services.notifications.update(ALICE.id, digest=True)
    await env.services.vacations.start(ALICE.id, "2d")
    await env.start(time_control="3d")
    await env.services.scheduler.tick()
    assert env.notifier.digests == []
    env.clock.advance(2 * D)
    await env.services.scheduler.tick()  # the vacation ends by itself
    await env.services.scheduler.tick()
    [digest] = env.notifier.digests
    assert digest.user_id == ALICE.id and len(digest.games) == 1


async def test_concurrent_ticks_send_one_digest(env: Env) -> None:
    """Two processes ticking at once send the digest once."""
    await env.services.notifications.update(ALICE.id, digest=True)
    await env.start()
    other = await env.restart()
    await asyncio.gather(env.services.scheduler.tick(), other.services.scheduler.tick())
    assert len(env.notifier.digests) + len(other.notifier.digests) == 1


async def test_games_are_listed_by_urgency(env: Env) -> None:
    """/games: the user's turn first, nearest deadline first, untimed after timed, then the
    games waiting for the opponents."""
    untimed = await env.start()
    slow = await env.start(time_control="5d")
    quick = await env.start(time_control="1d")
    theirs = await env.start(time_control="1d")
    await play_any(env, theirs.id)
    env.clock.advance(H)
    lines = await env.services.notifications.dashboard(ALICE.id)
    assert [line.record.id for line in lines] == [quick.id, slow.id, untimed.id, theirs.id]
    assert [line.my_turn for line in lines] == [True, True, True, False]
    assert [line.left for line in lines] == [D - H, 5 * D - H, None, D - H]
    assert await env.services.notifications.dashboard(CAROL.id) == []


async def test_a_challenge_without_a_time_takes_the_servers_default(env: Env) -> None:
    """The server's default clock applies when /play names none."""
    await env.services.settings.update(GUILD, can_manage=True, default_time_control="2d")
    view = await env.start()
    assert view.record.time_control == "2d"
    explicit = await env.services.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        game="hexade",
        time_control="none",
    )
    assert explicit.time_control == "none"


async def test_games_hides_the_moves_of_a_turn_under_way_from_the_opponent(env: Env) -> None:
    """Two moves into Alice's Diffusion Chess turn, her /games counts them; Bob's still
    shows the move number of the turn's start, as his board does."""
    game = await env.start("diffusion")
    await env.services.games.play(game.id, ALICE.id, "k9-k10")
    await env.services.games.play(game.id, ALICE.id, "j8-j9")
    [mine] = await env.services.notifications.dashboard(ALICE.id)
    [theirs] = await env.services.notifications.dashboard(BOB.id)
    assert mine.record.ply == 2 and mine.my_turn
    assert theirs.record.ply == 0 and not theirs.my_turn
