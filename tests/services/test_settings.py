"""Server settings: permission, validation, game channels."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.errors import InvalidInputError, NotAllowedError
from bot.services.settings import ChannelNotAllowedError
from tests.services.conftest import GUILD, Env


async def test_only_managers_change_settings(env: Env) -> None:
    """Without Manage Server nothing changes."""
    with pytest.raises(NotAllowedError, match="Manage Server"):
        await env.services.settings.update(GUILD, can_manage=False, threads=False)
    assert (await env.services.settings.guild(GUILD)).threads is True


async def test_settings_are_validated_and_stored(env: Env) -> None:
    """Each setting is checked; valid values are stored and read back."""
    service = env.services.settings
    with pytest.raises(InvalidInputError, match="between 1m and 14d"):
        await service.update(GUILD, can_manage=True, challenge_expiry="20s")
    with pytest.raises(InvalidInputError, match="is not a duration"):
        await service.update(GUILD, can_manage=True, challenge_expiry="soon")
    with pytest.raises(InvalidInputError, match="is not a time control"):
        await service.update(GUILD, can_manage=True, default_time_control="3d+1d")
    updated = await service.update(
        GUILD, can_manage=True, threads=False, challenge_expiry="2h30m",
        default_time_control="7d+1d max 10d", add_channel=11,
    )  # fmt: skip
    assert updated.threads is False
    assert updated.challenge_expiry == timedelta(hours=2, minutes=30)
    assert updated.default_time_control == "7d+1d max 10d"
    assert await service.guild(GUILD) == updated


async def test_game_channels(env: Env) -> None:
    """Adding channels restricts games to them; removing or clearing opens them again."""
    service = env.services.settings
    await service.check_game_channel(GUILD, 5)
    await service.update(GUILD, can_manage=True, add_channel=11)
    await service.update(GUILD, can_manage=True, add_channel=12)
    await service.check_game_channel(GUILD, 12)
    with pytest.raises(ChannelNotAllowedError):
        await service.check_game_channel(GUILD, 5)
    with pytest.raises(InvalidInputError, match="not in the list"):
        await service.update(GUILD, can_manage=True, remove_channel=5)
    after = await service.update(GUILD, can_manage=True, remove_channel=11)
    assert after.game_channels == frozenset({12})
    cleared = await service.update(GUILD, can_manage=True, all_channels=True)
    assert cleared.game_channels == frozenset()
    await service.check_game_channel(None, 5)  # direct messages have no server settings
