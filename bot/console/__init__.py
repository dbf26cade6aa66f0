"""The local console: several users in one simulated server, typing the bot's commands."""
