"""The words both front ends show: challenges, move lines, results, rules, help.

Everything here is plain text with Discord's light markdown (`**bold**`). How users are
mentioned and times written differs per front end, so a `Style` is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol

from bot.records.transcript import changed_options
from bot.services.announcing.announcements import MoveNotice
from bot.services.durations import parse_time_control
from bot.services.views.results import GameView
from bot.storage.repository import ChallengeRecord, ChallengeStatus, GameRecord, GameStatus
from bot.texts.guide import Page, page_url
from renderers.page import with_colour
from rules import AnyGame, OptionValue, get_game, list_games


class Style(Protocol):
    """How a front end writes mentions, times and links."""

    def mention(self, user_id: int | None, name: str) -> str:
        """A mention of the user (it notifies them where mentions exist)."""
        ...

    def when(self, moment: datetime) -> str:
        """A moment relative to now, like "in 59 minutes"."""
        ...

    def game_link(self, record: GameRecord) -> str:
        """A link to where the game is played."""
        ...


def options_text(game: AnyGame, options: Mapping[str, OptionValue]) -> str:
    """The options that differ from their defaults, e.g. "size 13, threshold 20"."""
    return ", ".join(f"{name} {value}" for name, value in changed_options(game, options))


def game_title(game: AnyGame, options: Mapping[str, OptionValue]) -> str:
    """The game's name with its non-default options: "Hexade (size 8)"."""
    extra = options_text(game, options)
    return f"{game.title} ({extra})" if extra else game.title


def seat_line(view: GameView, style: Style) -> str:
    """Both players with their colours: "alice (White) vs bob (Black)"."""
    return " vs ".join(seat_with_colour(view, seat, style) for seat in (0, 1))


def seat_with_colour(view: GameView, seat: int, style: Style) -> str:
    """The player in `seat` (a mention) with their colour: "@alice (White)"; the computer,
    whose name has its level in brackets, as "**Tabula (medium, Black)**"."""
    user, name, colour = view.record.players[seat], view.name(seat), view.colour(seat)
    if user is None:
        return style.mention(None, with_colour(name, colour))
    return f"{style.mention(user, name)} ({colour})"


def challenge_text(challenge: ChallengeRecord, style: Style) -> str:
    """The challenge message: who, which game and options, colours, expiry."""
    game = get_game(challenge.game)
    title = game_title(game, challenge.options)
    challenger = style.mention(challenge.challenger_id, challenge.challenger_name)
    if challenge.opponent_id is not None:
        opponent = style.mention(challenge.opponent_id, challenge.opponent_name or "?")
        head = f"{challenger} challenges {opponent} to **{title}**."
    else:
        head = f"{challenger} is looking for an opponent for **{title}**: anyone may accept."
    if challenge.challenger_seat is None:
        colours = "Colours are drawn at random."
    else:
        colour = game.colours[challenge.challenger_seat]
        colours = f"{challenge.challenger_name} plays {colour}."
    kind = "Rated game." if challenge.rated else "Casual game: not rated."
    lines = [head, f"{colours} {kind}"]
    clock = parse_time_control(challenge.time_control)
    if not clock.is_none:
        lines.append(f"Clock: {clock.describe()}.")
    if challenge.status is ChallengeStatus.OPEN:
        lines.append(f"Challenge #{challenge.id} expires {style.when(challenge.expires_at)}.")
    else:
        lines.append(f"Challenge #{challenge.id} {closed_reason(challenge)}.")
    return "\n".join(lines)


def closed_reason(challenge: ChallengeRecord) -> str:
    """How a challenge was closed, as a phrase: "was declined by bob"."""
    if challenge.status is ChallengeStatus.ACCEPTED:
        return f"was accepted: game #{challenge.game_id}"
    if challenge.status is ChallengeStatus.DECLINED:
        return f"was declined by {challenge.opponent_name}"
    if challenge.status is ChallengeStatus.CANCELLED:
        return f"was cancelled by {challenge.challenger_name}"
    if challenge.status is ChallengeStatus.EXPIRED:
        return "expired without an answer"
    return "is open"


def result_text(view: GameView) -> str:
    """The result: "**alice wins** (all six stones connected)" or "**Draw** (draw agreed)"."""
    outcome = view.outcome
    if outcome is None:
        return ""
    if view.record.status is GameStatus.ABORTED:
        text = f"**Game aborted** ({outcome.reason}): no result."
    elif outcome.winner is None:
        text = f"**Draw** ({outcome.reason})."
    else:
        winner = outcome.winner
        text = f"**{view.name(winner)} wins** with {view.colour(winner)} ({outcome.reason})."
    changes = rating_changes_text(view)
    return f"{text}\n{changes}" if changes else text


def rating_changes_text(view: GameView) -> str:
    """The rating changes a game's end made: "Ratings: alice 1500? → 1662? (+162), ..."."""
    if not view.rating_changes:
        return ""
    return "Ratings: " + ", ".join(change.text() for change in view.rating_changes) + "."


def turn_text(view: GameView, style: Style) -> str:
    """Whose turn it is, with a mention: "@bob to move (Black)"."""
    seat = view.state.to_move
    user, name, colour = view.record.players[seat], view.name(seat), view.colour(seat)
    if user is None and name.endswith(")"):  # the computer: "Tabula (medium, Black)"
        line = f"{style.mention(None, with_colour(name, colour))} to move"
    else:
        line = f"{style.mention(user, name)} to move ({colour})"
    extra = view.turn_info()
    return f"{line}, {extra}." if extra else f"{line}."


def header(view: GameView) -> str:
    """The first line of a board message: "**Groups** #12 · alice vs bob"."""
    return record_header(view.record)


def record_header(record: GameRecord) -> str:
    """A game's heading, "**Groups** #12 · alice vs bob", from its record alone."""
    title = game_title(get_game(record.game), record.options)
    return f"**{title}** #{record.id} · {record.names[0]} vs {record.names[1]}"


def move_caption(result: MoveNotice, style: Style) -> str:
    """The message under a board after a completed turn (one move, or several)."""
    view = result.view
    mover = view.name(result.move.seat)
    moves = result.turn_notation if result.turn_complete else result.move.notation
    played = f"{_numbered(result)}: {mover} played **{moves}**"
    if result.conditional:
        played += ", a conditional move stored in advance"
    lines = [header(view), f"{played}."]
    if result.draw_offer_lapsed:
        lines.append(f"{mover} moved instead of answering the draw offer: it has lapsed.")
    lines.append(result_text(view) if result.finished else turn_text(view, style))
    return "\n".join(lines)


def _numbered(result: MoveNotice) -> str:
    """ "Move 7", or for games of multi-move turns "Turn 3 (moves 5-8)": the turn is
    what the players count there."""
    state, first, last = result.view.state, result.turn_moves[0].ply, result.move.ply
    turn = getattr(state, "turn_number", None)
    if not isinstance(turn, int):
        return f"Move {last}"
    if state.to_move != result.move.seat:
        turn -= 1  # the state is already in the next player's turn
    return f"Turn {turn} (move {last})" if first == last else f"Turn {turn} (moves {first}-{last})"


def start_caption(view: GameView, style: Style) -> str:
    """The message under the first board of a game."""
    return "\n".join(
        [
            header(view),
            f"The game begins: {seat_line(view, style)}.",
            turn_text(view, style),
        ]
    )


def board_caption(view: GameView, style: Style) -> str:
    """The message under a board shown on request (/board)."""
    last = f"Move {view.record.ply}." if view.record.ply else "No move yet."
    end = result_text(view) if view.outcome is not None else turn_text(view, style)
    return "\n".join([header(view), last, end])


def end_caption(view: GameView, style: Style) -> str:
    """The message when a game ends without a move (resignation, agreed draw, time)."""
    return "\n".join([header(view), result_text(view), seat_line(view, style)])


def rules_text(game: AnyGame) -> str:
    """A short rules summary with notation and options, for /rules."""
    lines = [
        f"**{game.title}**: {game.colours[0]} moves first, then {game.colours[1]}.",
        game.summary,
        f"**Moves**: {game.notation}.",
    ]
    if game.quick_moves:
        lines.append(f"**Buttons**: {', '.join(game.quick_moves)} (when legal).")
    if game.option_specs:
        lines.append("**Options** (in /play):")
        for spec in game.option_specs:
            lines.append(
                f"- `{spec.name}`: {spec.description}; {spec.allowed()}, default {spec.default}."
            )
    return "\n".join(lines)


HELP_COMMANDS = (
    (
        "/play game [opponent] [colour] [time] [casual] [options]",
        "challenge a member (or anyone); time:3d per move or 7d+1d max 10d for correspondence",
    ),
    ("/play game opponent:(this bot) [level]", "play the computer: easy, medium or hard"),
    ("/move notation [game]", "play a move in your game (autocomplete lists the legal ones)"),
    ("/board [game]", "show the current board again"),
    ("/resign [game]", "give up the game"),
    ("/draw [game]", "offer a draw (or accept the opponent's offer)"),
    ("/undo [game]", "ask to take back your last turn"),
    ("/rematch [game]", "the same game again, colours swapped"),
    (
        "/conditional add|list|clear [game]",
        "queue replies while your opponent is to move (if e5, then d4)",
    ),
    ("/games", "your games in progress, most urgent first, with the time left"),
    ("/history [user] [game]", "finished games, newest first, to export"),
    ("/export [game]", "a game's record as files: JSON, SGF (Stones) and text"),
    ("/link [game]", "the game's web page, to move by clicking"),
    ("/rules game", "a short summary of a game's rules"),
    ("/vacation start|end|status", "pause your clocks, within a yearly allowance"),
    ("/settings", "your turn messages, reminder times and digest"),
    ("/rating [user] [game]", "ratings (Glicko-2; ? marks a provisional rating)"),
    ("/leaderboard game", "this server's best players in a game"),
    (
        "/tournament create|join|leave|start|withdraw|cancel|standings|pairings|info|list",
        "tournaments",
    ),
    (
        "/league create|join|leave|cancel|standings|divisions|history|info|list",
        "leagues",
    ),
    ("/config", "server settings (Manage Server only)"),
    ("/help", "this list"),
)
"""The commands /help lists, with what they do (a test checks that none is missing)."""


def help_text(docs_url: str | None = None) -> str:
    """What /help shows: the commands, the games and, when the documentation site is
    published (`TABULA_DOCS_URL`), a link to its guide for players."""
    lines = ["**Tabula**: abstract strategy games, played in threads with a picture per move."]
    lines += [f"`{usage}`: {what}" for usage, what in HELP_COMMANDS]
    lines.append("Games: " + ", ".join(game.title for game in list_games()) + ".")
    lines.append(
        "Under each board, **Move** opens a form to type your move; in a game's thread "
        "/move needs only the notation."
    )
    guide = page_url(docs_url, Page.PLAYING)
    if guide is not None:
        lines.append(f"The full guide: <{guide}>")
    return "\n".join(lines)


TURN_IN_PROGRESS = (
    "Only you see this: your turn so far. Everyone else sees the board as it was when "
    "your turn began, until your turn ends."
)
"""Under the board a mover asks for in the middle of a multi-move turn."""
