"""The Discord layer's pieces that need no server: /play's options, buttons, extensions."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import cast

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.client import TabulaBot
from bot.config import Settings
from bot.discord_ui.buttons import DYNAMIC_ITEMS, answer_buttons, board_buttons, challenge_buttons
from bot.discord_ui.errors import user_message
from bot.exts import walk_extensions
from bot.exts.games.moves import _form_value
from bot.exts.games.play import FIXED_PARAMETERS, build_play_command, merged_options
from bot.services.errors import NotYourTurnError
from bot.services.settings import ChannelNotAllowedError
from bot.services.views.results import GameView
from bot.storage.repository import ChallengeRecord, GameRecord
from bot.texts.games import HELP_COMMANDS, help_text
from rules import AnyGame, Game, IllegalMoveError, Option, get_game, list_games


def test_play_offers_every_option_of_every_game() -> None:
    """Each registered game is a choice and each of its options a /play parameter."""
    command = build_play_command()
    parameters = {p.name: p for p in command.parameters}
    assert [c.value for c in parameters["game"].choices] == [g.name for g in list_games()]
    for game in list_games():
        for spec in game.option_specs:
            assert spec.name in parameters, (game.name, spec.name)
            parameter = parameters[spec.name]
            assert not parameter.required
            if spec.is_int:
                assert parameter.type is discord.AppCommandOptionType.integer
                low = min(spec.choices) if spec.choices else spec.minimum
                high = max(spec.choices) if spec.choices else spec.maximum
                assert parameter.min_value <= low and parameter.max_value >= high  # type: ignore[operator]
            else:
                assert {c.value for c in parameter.choices} >= set(spec.choices)
            assert game.title in parameter.description
    assert [c.value for c in parameters["colour"].choices] == ["random", "white", "black"]
    assert len(command.parameters) <= 25


def test_option_descriptions_fit_discord() -> None:
    """Every description is at most 100 characters."""
    command = build_play_command()
    assert all(0 < len(p.description) <= 100 for p in command.parameters)


class _Clash(Game):
    """A game whose option would shadow /play's own colour parameter."""

    name = "clash"
    title = "Clash"
    colours = ("White", "Black")
    option_specs = (Option("colour", "red", "a clashing option", choices=("red",)),)
    notation = "-"
    summary = "-"

    def initial_state(self, options):
        raise NotImplementedError

    def decode(self, text):
        raise NotImplementedError


def test_an_option_may_not_shadow_a_fixed_parameter() -> None:
    """A game option named like game/opponent/colour is refused when /play is built."""
    assert "colour" in FIXED_PARAMETERS
    games: list[AnyGame] = [_Clash()]
    with pytest.raises(ValueError, match="clashes with /play's own 'colour'"):
        merged_options(games)


def test_options_of_the_same_name_are_merged() -> None:
    """`size` of Hexade, Rekushu and Stones is one integer option covering all ranges."""
    merged = {m.name: m for m in merged_options(list_games())}
    size = merged["size"]
    assert size.is_int and size.minimum == 5 and size.maximum == 20
    assert "Hexade 5–12 (default 10)" in size.description
    assert merged["start"].choices == ("standard", "drop")


def test_extensions_are_found() -> None:
    """Every extension module with a setup() is loaded by the bot."""
    assert walk_extensions() == [
        "bot.exts.admin.config",
        "bot.exts.competition.leagues",
        "bot.exts.competition.ratings",
        "bot.exts.competition.tournaments",
        "bot.exts.games.conditional",
        "bot.exts.games.link",
        "bot.exts.games.listing",
        "bot.exts.games.moves",
        "bot.exts.games.play",
        "bot.exts.games.records",
        "bot.exts.games.rematch",
        "bot.exts.meta.help",
        "bot.exts.meta.mentions",
        "bot.exts.players.settings",
        "bot.exts.players.vacation",
    ]


def _view(game: str = "stones", moves: tuple[str, ...] = ()) -> GameView:
    state = get_game(game).new_game()
    for move in moves:
        state = state.play_text(move)
    record = GameRecord(
        game=game,
        options=state.options,
        guild_id=1,
        channel_id=2,
        players=(10, 11),
        names=("a", "b"),
        created_at=discord.utils.utcnow(),
        id=123456789,
    )
    return GameView(record, state)


def test_buttons_are_persistent_and_within_limits() -> None:
    """Every button's custom_id matches a registered DynamicItem and fits 100 characters."""
    views = [
        board_buttons(_view(moves=("e5",))),
        answer_buttons("dr", 123456789, 9999),
        answer_buttons("ud", 123456789, 9999),
        challenge_buttons(
            ChallengeRecord(
                guild_id=1, channel_id=2, challenger_id=3, challenger_name="a", opponent_id=4,
                opponent_name="b", game="groups", options={}, challenger_seat=None,
                created_at=discord.utils.utcnow(), expires_at=discord.utils.utcnow(), id=77,
            )
        ),
    ]  # fmt: skip
    templates = [item.__discord_ui_compiled_template__ for item in DYNAMIC_ITEMS]
    for view in views:
        assert view is not None and view.timeout is None and view.is_persistent()
        for item in view.children:
            custom_id = item.custom_id  # type: ignore[attr-defined]
            assert len(custom_id) <= 100
            assert any(re.fullmatch(t, custom_id) for t in templates), custom_id


def test_board_buttons_show_legal_quick_moves_only() -> None:
    """Return appears for Stones only when it is legal; a finished game has no buttons."""

    def labels(view: GameView) -> list[str]:
        buttons = board_buttons(view)
        return [item.item.label for item in buttons.children] if buttons else []  # type: ignore[attr-defined]

    assert labels(_view()) == ["Move", "Offer draw", "Undo", "Resign"]
    assert labels(_view(moves=("e5",))) == ["Move", "Return", "Offer draw", "Undo", "Resign"]
    finished = _view()
    ended = GameView(finished.record.evolve(result_reason="a resigned", winner=1), finished.state)
    assert board_buttons(ended) is None


def test_form_value_is_found_in_rows_and_labels() -> None:
    """The move form's field is read from action rows and from label components."""
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "notation", "value": "d3"}]}]
    labels = [{"type": 18, "component": {"type": 4, "custom_id": "notation", "value": "e4"}}]
    assert _form_value(rows, "notation") == "d3"
    assert _form_value(labels, "notation") == "e4"
    assert _form_value([], "notation") is None


def test_user_messages() -> None:
    """Refusals keep their own words; unexpected errors get none (they are apologised for)."""
    assert user_message(NotYourTurnError("It is b's turn.")) == "It is b's turn."
    assert user_message(IllegalMoveError("e4 is occupied")) == (
        "That move is not allowed: e4 is occupied."
    )
    assert user_message(ChannelNotAllowedError(frozenset({5, 6}))) == (
        "Games are not played in this channel on this server. Games are played in <#5>, <#6>."
    )
    assert user_message(app_commands.NoPrivateMessage()) == "This command works in servers only."
    assert user_message(RuntimeError("boom")) is None
    forbidden = discord.Forbidden(
        cast(aiohttp.ClientResponse, SimpleNamespace(status=403, reason="Forbidden")),
        {"code": 50013, "message": "Missing Permissions"},
    )
    text = user_message(forbidden)
    assert text is not None and text.startswith(
        "Discord did not let me do that here (Missing Permissions)."
    )


async def test_help_lists_every_registered_command() -> None:
    """/help names each slash command and each sub-command (adding one means listing it)."""
    bot = TabulaBot(Settings(token="x"), commands_only=True)
    await bot.setup_hook()
    usages = [usage for usage, _ in HELP_COMMANDS]
    for command in bot.tree.get_commands():
        lines = [u for u in usages if u.split()[0].split("|")[0] == f"/{command.name}"]
        assert lines, f"/help does not list /{command.name}"
        if isinstance(command, app_commands.Group):
            listed = set(lines[0].split()[1].split("|"))
            assert {sub.name for sub in command.commands} == listed, command.name
    listed_names = {u.split()[0][1:] for u in usages}
    assert listed_names == {c.name for c in bot.tree.get_commands()}
    assert len(help_text()) <= 2000
