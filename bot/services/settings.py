"""Server settings (/config): game channels, threads, challenge expiry, default clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.services.clock import Clock
from bot.services.durations import (
    format_span,
    parse_duration,
    parse_time_control,
)
from bot.services.errors import InvalidInputError, ManagersOnlyError, NotAllowedError
from bot.storage.repository import GuildSettings, Repository

MIN_EXPIRY = timedelta(minutes=1)
MAX_EXPIRY = timedelta(days=14)
WEB_ACCESS = ("off", "players", "public")
"""Who may see a server's games on the web pages: nobody, their two players, anyone."""


class ChannelNotAllowedError(NotAllowedError):
    """Games may not be started in this channel; `allowed` lists where they may."""

    def __init__(self, allowed: frozenset[int]) -> None:
        super().__init__("Games are not played in this channel on this server.")
        self.allowed = allowed


class SettingsService:
    """Reads and changes server settings; only members who may manage the server change them."""

    def __init__(self, repository: Repository, clock: Clock) -> None:
        self._repository = repository
        self._clock = clock

    async def guild(self, guild_id: int | None) -> GuildSettings:
        """The settings of a server (defaults outside servers, e.g. in direct messages)."""
        if guild_id is None:
            return GuildSettings(guild_id=0)
        return await self._repository.get_guild_settings(guild_id)

    async def check_game_channel(self, guild_id: int | None, channel_id: int) -> GuildSettings:
        """Return the server's settings; raise `ChannelNotAllowedError` outside game channels."""
        settings = await self.guild(guild_id)
        if settings.game_channels and channel_id not in settings.game_channels:
            raise ChannelNotAllowedError(settings.game_channels)
        return settings

    async def update(
        self,
        guild_id: int,
        *,
        can_manage: bool,
        threads: bool | None = None,
        challenge_expiry: str | None = None,
        default_time_control: str | None = None,
        add_channel: int | None = None,
        remove_channel: int | None = None,
        all_channels: bool = False,
        organiser_role: int | None = None,
        clear_organiser_role: bool = False,
        web: str | None = None,
    ) -> GuildSettings:
        """Change the given settings (the others stay); return the new settings.

        `organiser_role` lets members with that role run tournaments;
        `clear_organiser_role` removes it. `web` is who sees the server's games on the
        web pages: `off`, `players` or `public`.
        """
        if not can_manage:
            raise ManagersOnlyError(
                "Only members with the Manage Server permission can change this."
            )
        settings = await self.guild(guild_id)
        changes: dict[str, object] = {}
        if threads is not None:
            changes["threads"] = threads
        if challenge_expiry is not None:
            expiry = parse_duration(challenge_expiry)
            if not MIN_EXPIRY <= expiry <= MAX_EXPIRY:
                raise InvalidInputError(
                    f"The challenge expiry must be between {format_span(MIN_EXPIRY)} "
                    f"and {format_span(MAX_EXPIRY)} (got {format_span(expiry)})."
                )
            changes["challenge_expiry"] = expiry
        if default_time_control is not None:
            changes["default_time_control"] = str(parse_time_control(default_time_control))
        channels = set(settings.game_channels)
        if all_channels:
            channels.clear()
        if add_channel is not None:
            channels.add(add_channel)
        if remove_channel is not None:
            if remove_channel not in channels:
                raise InvalidInputError("That channel is not in the list of game channels.")
            channels.discard(remove_channel)
        changes["game_channels"] = frozenset(channels)
        if clear_organiser_role:
            changes["organiser_role"] = None
        elif organiser_role is not None:
            changes["organiser_role"] = organiser_role
        if web is not None:
            if web.strip().lower() not in WEB_ACCESS:
                raise InvalidInputError(
                    f"web must be one of {', '.join(WEB_ACCESS)} (got {web.strip()[:20]!r})."
                )
            changes["web"] = web.strip().lower()
        updated = replace(settings, **changes)  # type: ignore[arg-type]
        await self._repository.save_guild_settings(updated, self._clock.now())
        return updated
