"""Persistent buttons and the move form.

Every button is a `discord.ui.DynamicItem` whose `custom_id` carries the game or
challenge id, so buttons on old messages keep working after a restart: the bot
registers the classes at start-up and rebuilds each item from the id clicked. The
callbacks only decode the id and hand over to the bot's `Flows`; refusals and failures
are answered privately by `guarded`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, Self, cast

import discord

from bot.discord_ui.errors import send_ephemeral
from bot.discord_ui.origins import (
    MalformedCustomIdError,
    guarded_click,
    parse_id,
    shown_custom_ids,
)
from bot.services.games.rematches import rematch_offered
from bot.services.views.results import GameView
from bot.storage.repository import ChallengeRecord
from rules import GameError

PREFIX = "tabula"
MOVE_FORM = re.compile(rf"{PREFIX}:mf:(?P<game>\d+)")
"""The custom id of the move form (a modal), answered by the bot's interaction listener."""
NOTATION_FIELD = "notation"
"""The custom id of the form's text field."""
FORM_TIMEOUT = 30 * 60.0
"""Seconds discord.py keeps an unanswered form object (submissions work without it)."""
NOTATION_MAX_LENGTH = 400
"""The longest move the form takes: a Diffusion Chess path of 40 steps has 163 characters
(autocomplete offers none over Discord's 100; such paths are typed in full)."""


class Flows(Protocol):
    """What the buttons ask the bot to do (implemented by `bot.discord_ui.flows.Flows`)."""

    async def challenge_button(
        self, interaction: discord.Interaction, challenge_id: int, action: str
    ) -> None:
        """Accept, decline or cancel a challenge."""

    async def game_button(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None:
        """Move (open the form), offer a draw, ask to undo, or resign (asks to confirm)."""

    async def quick_move(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """Play a coordinate-free move such as Stones' `return`."""

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """Resign after confirmation."""

    async def answer_draw(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Accept or decline a draw offer made at `ply`."""

    async def answer_undo(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """Approve or refuse a request to take back moves made at `ply`."""

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Ask for a rematch of a finished game."""

    async def show_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """Show a game's board privately (the next game waiting for the player)."""


class HasFlows(Protocol):
    """A bot that carries its `Flows` (TabulaBot)."""

    flows: Flows


def flows(interaction: discord.Interaction) -> Flows:
    """The flows of the bot that received the interaction."""
    return cast(HasFlows, interaction.client).flows


Button = discord.ui.Button[discord.ui.View]


class ChallengeButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:ch:(?P<id>\d+):(?P<action>accept|decline|cancel)",
):
    """Accept, Decline or Cancel under a challenge."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.secondary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
    }

    def __init__(self, challenge_id: int, action: str) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"{PREFIX}:ch:{challenge_id}:{action}"
            )
        )
        self.challenge_id = challenge_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(parse_id(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: flows(interaction).challenge_button(
                interaction, self.challenge_id, self.action
            ),
        )


class GameButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:g:(?P<id>\d+):(?P<action>move|draw|undo|resign)",
):
    """Move, Offer draw, Undo or Resign under a board."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "move": ("Move", discord.ButtonStyle.primary),
        "draw": ("Offer draw", discord.ButtonStyle.secondary),
        "undo": ("Undo", discord.ButtonStyle.secondary),
        "resign": ("Resign", discord.ButtonStyle.danger),
    }

    def __init__(self, game_id: int, action: str) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:g:{game_id}:{action}")
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(parse_id(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: flows(interaction).game_button(interaction, self.game_id, self.action),
        )


class QuickMoveButton(
    discord.ui.DynamicItem[Button], template=rf"{PREFIX}:q:(?P<id>\d+):(?P<move>[a-z]{{1,20}})"
):
    """A coordinate-free move (Stones' `return`, Diffusion's `echo`) as a button."""

    def __init__(self, game_id: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=move.capitalize(),
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:q:{game_id}:{move}",
            )
        )
        self.game_id = game_id
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(parse_id(match["id"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: flows(interaction).quick_move(interaction, self.game_id, self.move),
        )


class AnswerButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:(?P<kind>dr|ud):(?P<id>\d+):(?P<ply>\d+):(?P<answer>y|n)",
):
    """The opponent's answer to a draw offer (`dr`) or an undo request (`ud`)."""

    LABELS: ClassVar[dict[tuple[str, str], str]] = {
        ("dr", "y"): "Accept draw",
        ("dr", "n"): "Decline",
        ("ud", "y"): "Allow undo",
        ("ud", "n"): "Refuse",
    }

    def __init__(self, kind: str, game_id: int, ply: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "y" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[kind, answer],
                style=style,
                custom_id=f"{PREFIX}:{kind}:{game_id}:{ply}:{answer}",
            )
        )
        self.kind = kind
        self.game_id = game_id
        self.ply = ply
        self.accept = answer == "y"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(match["kind"], parse_id(match["id"]), parse_id(match["ply"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        handler = flows(interaction)
        answer = handler.answer_draw if self.kind == "dr" else handler.answer_undo
        await guarded_click(
            interaction,
            self.custom_id,
            lambda: answer(interaction, self.game_id, self.ply, self.accept),
        )


class OneGameButton(
    discord.ui.DynamicItem[Button], template=rf"{PREFIX}:(?P<kind>rs|rm|sg):(?P<id>\d+)"
):
    """A button about one game: "Yes, resign" (`rs`, shown privately after Resign),
    Rematch (`rm`, under a final board), "Show game #12" (`sg`, the next game offered
    privately after a turn)."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "rs": ("Yes, resign", discord.ButtonStyle.danger),
        "rm": ("Rematch", discord.ButtonStyle.primary),
        "sg": ("Show game #{game}", discord.ButtonStyle.primary),
    }

    def __init__(self, kind: str, game_id: int) -> None:
        label, style = self.STYLES[kind]
        super().__init__(
            discord.ui.Button(
                label=label.format(game=game_id),
                style=style,
                custom_id=f"{PREFIX}:{kind}:{game_id}",
            )
        )
        self.kind = kind
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from a clicked id."""
        return cls(match["kind"], parse_id(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot."""
        handler = flows(interaction)
        actions = {
            "rs": handler.confirm_resign,
            "rm": handler.rematch,
            "sg": handler.show_game,
        }
        action = actions[self.kind]
        await guarded_click(interaction, self.custom_id, lambda: action(interaction, self.game_id))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ChallengeButton,
    GameButton,
    QuickMoveButton,
    AnswerButton,
    OneGameButton,
)
"""Every persistent button class; the bot registers them at start-up."""


async def answer_removed_button(
    interaction: discord.Interaction, items: tuple[type[discord.ui.DynamicItem[Any]], ...]
) -> bool:
    """Answer a click on one of `items` that its message does not show; True if it was one.

    A client that has not yet seen an edit (a challenge accepted, a draw offer answered)
    can still click the removed button; discord.py drops such clicks and the user would
    see "This interaction failed". The click is handed to its item instead, whose
    `guarded_click` acts only when the message was made for it (see
    `bot.discord_ui.origins`), so the user gets the specific answer ("This challenge was
    already accepted.") and a forged click on another message changes nothing.
    """
    if interaction.type is not discord.InteractionType.component or interaction.message is None:
        return False
    data = cast(dict[str, Any], interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if not custom_id or custom_id in shown_custom_ids(interaction.message):
        return False
    for factory in items:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            base = discord.ui.Button[discord.ui.View](custom_id=custom_id)
            try:
                item = await factory.from_custom_id(interaction, base, match)
            except MalformedCustomIdError as error:
                await send_ephemeral(interaction, str(error))
                return True
            await item.callback(interaction)
            return True
    return False


class MoveForm(discord.ui.Modal):
    """A form with one field for the move: easier on phones than a slash command.

    The submission is handled by the bot's interaction listener (matching `MOVE_FORM`),
    not by this object, so a form opened before a restart still works after it.
    """

    def __init__(self, view: GameView) -> None:
        super().__init__(
            title=f"Your move in {view.game.title} #{view.id}"[:45],
            custom_id=f"{PREFIX}:mf:{view.id}",
            timeout=FORM_TIMEOUT,
        )
        self.add_item(
            discord.ui.TextInput(
                label="Move",
                custom_id=NOTATION_FIELD,
                placeholder=view.game.notation[:100],
                min_length=1,
                max_length=NOTATION_MAX_LENGTH,
            )
        )


def _view(*rows: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row, items in enumerate(rows):
        for item in items:
            item.row = row
            view.add_item(item)
    return view


def legal_quick_moves(view: GameView) -> list[str]:
    """The game's coordinate-free moves that are legal for the player to move."""
    legal = []
    for move in view.game.quick_moves:
        try:
            view.state.parse_move(move)
        except GameError:
            continue
        legal.append(move)
    return legal


def board_buttons(view: GameView, *, rematch: bool = True) -> discord.ui.View | None:
    """The buttons under a board: Move and quick moves; Offer draw, Undo, Resign. Under a
    finished game's board, Rematch (unless `rematch` is False, or it was a tournament's)."""
    if view.outcome is not None:
        if rematch and rematch_offered(view.record):
            return _view([OneGameButton("rm", view.id)])
        return None
    game_id = view.id
    first: list[discord.ui.Item[Any]] = [GameButton(game_id, "move")]
    first += [QuickMoveButton(game_id, move) for move in legal_quick_moves(view)]
    second: list[discord.ui.Item[Any]] = [
        GameButton(game_id, "draw"),
        GameButton(game_id, "undo"),
        GameButton(game_id, "resign"),
    ]
    return _view(first, second)


def turn_buttons(view: GameView) -> discord.ui.View | None:
    """The buttons under a private preview in a multi-move turn: Move, quick moves, Undo."""
    if view.outcome is not None:
        return None
    items: list[discord.ui.Item[Any]] = [GameButton(view.id, "move")]
    items += [QuickMoveButton(view.id, move) for move in legal_quick_moves(view)]
    items.append(GameButton(view.id, "undo"))
    return _view(items)


def challenge_buttons(challenge: ChallengeRecord, *, disabled: bool = False) -> discord.ui.View:
    """Accept / Decline / Cancel (Decline only for a challenge to one person); `disabled`
    greys them out (an expired challenge keeps its buttons, so it reads as one)."""
    actions = ["accept", "decline", "cancel"] if challenge.opponent_id else ["accept", "cancel"]
    buttons: list[discord.ui.Item[Any]] = []
    for action in actions:
        button = ChallengeButton(challenge.id, action)
        button.item.disabled = disabled
        buttons.append(button)
    return _view(buttons)


def show_game_buttons(game_id: int) -> discord.ui.View:
    """The button that shows a game's board privately."""
    return _view([OneGameButton("sg", game_id)])


def answer_buttons(kind: str, game_id: int, ply: int) -> discord.ui.View:
    """Accept/Decline for a draw offer (`dr`) or Allow/Refuse for an undo request (`ud`)."""
    return _view([AnswerButton(kind, game_id, ply, answer) for answer in ("y", "n")])


def resign_confirmation(game_id: int) -> discord.ui.View:
    """The private "Yes, resign" button."""
    return _view([OneGameButton("rs", game_id)])
