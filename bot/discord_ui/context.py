"""`DiscordContext`: what every part of the Discord front end shares: the client, the
services (built after the front end, which is their notifier) and answering helpers.

It sits below the flows, the tournament flows and the notifier, so none of them needs
another to reach the services.
"""

from __future__ import annotations

import discord

from bot.discord_ui.answers import Payload
from bot.services.container import Services


class DiscordContext:
    """The client and, once `attach` was called, the services."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._services: Services | None = None

    def attach(self, services: Services) -> None:
        """Give the front end its services (built after it: it is their notifier)."""
        self._services = services

    @property
    def services(self) -> Services:
        """The services the front end calls."""
        if self._services is None:
            raise RuntimeError("DiscordContext.attach(services) was not called")
        return self._services

    @staticmethod
    async def respond(
        interaction: discord.Interaction, payload: Payload, *, ephemeral: bool = False
    ) -> None:
        """Answer the interaction (or follow up when it was answered already)."""
        if interaction.response.is_done():
            await interaction.followup.send(**payload, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(**payload, ephemeral=ephemeral)
