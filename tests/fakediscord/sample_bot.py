"""A tiny discord.py bot using every API the fake implements; the fake's tests drive it.

Its games live in a `SampleStore` shared across bot instances, so a test can restart the
bot mid-game as the real bot does with its database.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from PIL import Image

MOVE = re.compile(r"^[a-h][1-8]$")


def board_png(width: int = 64, height: int = 48) -> bytes:
    """A small PNG standing in for a board image."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 170, 110)).save(out, "PNG")
    return out.getvalue()


@dataclass
class SampleGame:
    """A pretend game: two players, the moves so far, its thread."""

    id: int
    players: tuple[int, int]
    moves: list[str] = field(default_factory=list)
    thread_id: int | None = None


@dataclass
class SampleStore:
    """What survives a restart of the sample bot (its "database")."""

    games: dict[int, SampleGame] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    """HTTP errors the bot met and handled, as `"<status> <code>"`."""
    received: list[str] = field(default_factory=list)
    """Content of the MESSAGE_CREATE events the bot received from users."""

    def new_game(self, players: tuple[int, int]) -> SampleGame:
        """Start a game."""
        game = SampleGame(len(self.games) + 1, players)
        self.games[game.id] = game
        return game


def _store(interaction: discord.Interaction) -> SampleStore:
    client = interaction.client
    assert isinstance(client, SampleBot)
    return client.store


async def _play(interaction: discord.Interaction, game: SampleGame, notation: str) -> None:
    if interaction.user.id not in game.players:
        await interaction.response.send_message("This is not your game.", ephemeral=True)
        return
    if not MOVE.match(notation):
        await interaction.response.send_message(f"Illegal move: {notation}", ephemeral=True)
        return
    game.moves.append(notation)
    await interaction.response.send_message(f"Move {len(game.moves)}: {notation}")


class MoveModal(discord.ui.Modal, title="Your move"):
    """The form the Move button opens."""

    notation: discord.ui.TextInput[MoveModal] = discord.ui.TextInput(
        label="Move", custom_id="notation", min_length=2, max_length=4
    )
    confidence: discord.ui.Label[MoveModal] = discord.ui.Label(
        text="Confidence",
        component=discord.ui.Select(
            custom_id="confidence",
            options=[
                discord.SelectOption(label="Low", value="low"),
                discord.SelectOption(label="High", value="high"),
            ],
            required=False,
        ),
    )

    def __init__(self, game_id: int) -> None:
        super().__init__(custom_id=f"sample-modal:{game_id}")
        self.game_id = game_id

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Play the move typed in the form."""
        game = _store(interaction).games[self.game_id]
        await _play(interaction, game, self.notation.value.strip())


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sample:(?P<game>\d+):move"
):
    """A persistent button that opens the move form (survives restarts)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Move", style=discord.ButtonStyle.primary, custom_id=f"sample:{game_id}:move"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Players get the form; anyone else an ephemeral refusal."""
        game = _store(interaction).games[self.game_id]
        if interaction.user.id not in game.players:
            await interaction.response.send_message("This is not your game.", ephemeral=True)
            return
        await interaction.response.send_modal(MoveModal(self.game_id))


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sample:(?P<game>\d+):resign"
):
    """A persistent button that ends the game by updating its message."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"sample:{game_id}:resign",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResignButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Update the game message in place (response type 7), buttons disabled."""
        view = game_view(self.game_id, disabled=True)
        await interaction.response.edit_message(
            content=f"{interaction.user.mention} resigned.", view=view
        )


def game_view(game_id: int, *, disabled: bool = False) -> discord.ui.View:
    """The buttons under a game's message."""
    view = discord.ui.View(timeout=None)
    for item in (MoveButton(game_id), ResignButton(game_id)):
        item.item.disabled = disabled
        view.add_item(item)
    return view


class PickView(discord.ui.View):
    """A select menu answered by updating the message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="sample:pick",
        options=[
            discord.SelectOption(label=name, value=name) for name in ("hexade", "stones", "groups")
        ],
        max_values=2,
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[PickView]
    ) -> None:
        """Show what was picked."""
        await interaction.response.edit_message(
            content=f"picked {', '.join(select.values)}", view=None
        )


game_group = app_commands.Group(name="game", description="Play a game")


@game_group.command(name="start", description="Challenge someone")
async def game_start(interaction: discord.Interaction, opponent: discord.Member) -> None:
    """Post the game message with its buttons, then a thread with the first board."""
    store = _store(interaction)
    game = store.new_game((interaction.user.id, opponent.id))
    await interaction.response.send_message(
        f"Game {game.id}: {interaction.user.mention} vs {opponent.mention}", view=game_view(game.id)
    )
    message = await interaction.original_response()
    board = discord.File(io.BytesIO(board_png()), "board.png", description="An empty board.")
    try:
        thread = await message.create_thread(name=f"Game {game.id}")
    except discord.Forbidden as error:
        store.errors.append(f"{error.status} {error.code}")
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send(f"{interaction.user.mention} to move", file=board)
        return
    game.thread_id = thread.id
    await thread.add_user(opponent)
    await thread.send(f"{interaction.user.mention} to move", file=board)


async def _complete_move(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    squares = [f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)]
    return [app_commands.Choice(name=s, value=s) for s in squares if s.startswith(current)][:25]


@game_group.command(name="move", description="Play a move in this game's thread")
@app_commands.autocomplete(notation=_complete_move)
async def game_move(interaction: discord.Interaction, notation: str) -> None:
    """Play a move in the thread's game."""
    store = _store(interaction)
    game = next((g for g in store.games.values() if g.thread_id == interaction.channel_id), None)
    if game is None:
        await interaction.response.send_message("No game here.", ephemeral=True)
        return
    await _play(interaction, game, notation)


class SampleBot(discord.Client):
    """The sample bot: slash commands, a sub-command group, buttons, a modal, threads, DMs."""

    def __init__(
        self, store: SampleStore | None = None, *, intents: discord.Intents | None = None
    ) -> None:
        super().__init__(intents=intents or discord.Intents.default(), guild_ready_timeout=0.05)
        self.store = store if store is not None else SampleStore()
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(game_group)
        self._add_commands()

    async def setup_hook(self) -> None:
        """Register the persistent buttons and sync the commands."""
        self.add_dynamic_items(MoveButton, ResignButton)
        self.add_view(PickView())
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        """Remember what users wrote (to check what the gateway shows the bot)."""
        if self.user is not None and message.author.id != self.user.id:
            self.store.received.append(message.content)

    def _add_commands(self) -> None:
        tree = self.tree
        store = self.store

        @tree.command(description="Say hello")
        @app_commands.describe(name="Who to greet", times="How many times")
        async def hello(
            interaction: discord.Interaction, name: str, times: app_commands.Range[int, 1, 3] = 1
        ) -> None:
            await interaction.response.send_message(" ".join([f"hello {name}"] * times))

        @tree.command(description="Repeat a text")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            try:
                await interaction.response.send_message(text)
            except discord.HTTPException as error:
                store.errors.append(f"{error.status} {error.code}")
                await interaction.response.send_message(f"refused: {error.code}", ephemeral=True)

        @tree.command(description="Think, then answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("done thinking", ephemeral=True)
            await interaction.followup.send("a secret", ephemeral=True)

        @tree.command(description="Remind someone by DM")
        async def remind(interaction: discord.Interaction, member: discord.Member) -> None:
            try:
                await member.send(
                    f"Your turn, {member.display_name}",
                    file=discord.File(
                        io.BytesIO(board_png()), "board.png", description="An empty board."
                    ),
                )
            except discord.Forbidden as error:
                store.errors.append(f"{error.status} {error.code}")
                await interaction.response.send_message("I cannot DM them.", ephemeral=True)
                return
            await interaction.response.send_message("Reminded.", ephemeral=True)

        @tree.command(description="Post a message in the channel")
        async def post(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            message = await interaction.channel.send(text)
            await interaction.followup.send(f"posted {message.id}")

        @tree.command(description="Pick games")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick some", view=PickView())

        @tree.command(description="Open a private thread with someone")
        async def private(interaction: discord.Interaction, member: discord.Member) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            thread = await channel.create_thread(
                name=f"with {member.display_name}", type=discord.ChannelType.private_thread
            )
            await thread.add_user(member)
            await thread.send(f"Hello {member.mention}")
            await interaction.response.send_message(f"Opened {thread.mention}", ephemeral=True)

        @tree.command(description="Settings")
        @app_commands.default_permissions(manage_guild=True)
        async def config(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("settings", ephemeral=True)

        async def too_many(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(30)]

        @tree.command(description="Autocomplete with too many choices")
        @app_commands.autocomplete(value=too_many)
        async def overflow(interaction: discord.Interaction, value: str) -> None:
            await interaction.response.send_message(value)


Script = Callable[[discord.Interaction], Awaitable[None]]


class ScriptedBot(discord.Client):
    """A bot whose answer to every interaction is whatever coroutine the test sets in `script`.

    It declares one command, `/do what:<text>`; clicks and modal submits reach the script too.
    Exceptions the script raises are kept in `failures`.
    """

    def __init__(self, **options: Any) -> None:
        """`options` go to `discord.Client` (e.g. `shard_id=1, shard_count=2`)."""
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.tree = app_commands.CommandTree(self)
        self.script: Script | None = None
        self.failures: list[BaseException] = []
        self.finished = 0
        """How many interactions the script has finished with."""

        @self.tree.command(name="do", description="Run the test's script")
        async def do(interaction: discord.Interaction, what: str = "") -> None:
            await self._run(interaction)

    async def setup_hook(self) -> None:
        """Sync `/do`."""
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Components and modal submits go to the script (commands go through the tree)."""
        if interaction.type in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,
        ):
            await self._run(interaction)

    async def _run(self, interaction: discord.Interaction) -> None:
        try:
            if self.script is not None:
                await self.script(interaction)
        except Exception as error:  # kept for the test to assert on
            self.failures.append(error)
        finally:
            self.finished += 1
