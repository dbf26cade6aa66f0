"""The Tabula Discord bot: services, storage, Discord extensions and the command line."""
