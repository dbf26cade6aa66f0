"""Servers changing under the bot: suspensions of their games."""
