"""The page around every board: its size, the header with the players, the footer with the status.

A page is `WIDTH` pixels wide (a board may ask for a wider one). The header holds one
row per seat: a marker for the player to move (or a star for the winner), a stone of the
player's colour, the name, the colour name, the clock, and game-specific facts on the
right ("prisoners 6"). Below the header sits the board block, then the footer: the
status line ("Black to move", the result and its reason) and a line naming the game, the
move number and the last move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from renderers import sprites
from renderers.canvas import Canvas
from renderers.fonts import font, printable
from renderers.text import fit, text_length, wrap
from renderers.theme import Theme
from renderers.view import BoardView
from rules import GameState

WIDTH = 840
"""Pictures have this width, so that Discord shows them at the same scale (Stones adds stake
trays beside its board and may be a little wider)."""
MAX_HEIGHT = 1024
"""No picture is taller than this."""
PAD = 14
"""The frame's outer padding."""
ROW_HEIGHT = 54
"""The height of one player's row in the header."""
GAP = 10
"""The space between header, board block and footer."""
FOOTER_HEIGHT = 84
"""The status (one or two lines) and the move line."""
BOARD_TOP = PAD + 2 * ROW_HEIGHT + GAP
"""The top of the board block."""
BOARD_MAX_WIDTH = WIDTH - 2 * PAD
"""The widest a board block may be."""
BOARD_MAX_HEIGHT = MAX_HEIGHT - BOARD_TOP - GAP - FOOTER_HEIGHT - PAD
"""The tallest a board block may be."""

NAME_SIZE = 24
FACT_SIZE = 21
SUB_SIZE = 17
SMALL_SIZE = 20
STATUS_SIZE = 24


def page_height(board_height: int) -> int:
    """The height of a page whose board block is `board_height` pixels tall."""
    return BOARD_TOP + board_height + GAP + FOOTER_HEIGHT + PAD


def blank_page(theme: Theme, board_height: int, width: int = WIDTH) -> Image.Image:
    """An empty page in the frame colour."""
    return Image.new("RGB", (width, page_height(board_height)), theme.rgb("background"))


@dataclass(frozen=True)
class Caption:
    """The game-specific words around the board."""

    facts: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """Short facts about each seat, shown at the right of its header row ("prisoners 6")."""
    note: str | None = None
    """Said after "Black to move" while the game goes on ("3 of 5 moves left")."""
    details: tuple[str, ...] = ()
    """Extra items of the move line, after the game's title ("19×19", "turn 7 of 32")."""
    highlight: tuple[bool, bool] = (False, False)
    """Per seat: draw its facts in the highlight colour (a six on the board, a decisive lead)."""


def seat_name(state: GameState[Any], view: BoardView, seat: int) -> str:
    """The player's display name, or the colour name when there are no names."""
    colour = state.game.colours[seat]
    if view.players is None:
        return colour
    return printable(view.players[seat]) or colour


def status_line(state: GameState[Any], view: BoardView, caption: Caption) -> str:
    """The line saying whose turn it is, or how the game ended."""
    if view.status:
        return view.status
    outcome = state.outcome()
    if outcome is None:
        turn = f"{_who(state, view, state.to_move)} to move"
        return f"{turn}: {caption.note}" if caption.note else turn
    if outcome.winner is None:
        return f"Draw: {outcome.reason}"
    return f"{_who(state, view, outcome.winner)} won: {outcome.reason}"


def _who(state: GameState[Any], view: BoardView, seat: int) -> str:
    colour = state.game.colours[seat]
    name = seat_name(state, view, seat)
    return colour if name == colour else with_colour(name, colour)


def with_colour(name: str, colour: str) -> str:
    """A name with its colour, "Ada (Black)"; a name that ends in brackets takes the colour
    inside them: "Tabula (medium, Black)", not "Tabula (medium) (Black)"."""
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {colour})"
    return f"{name} ({colour})"


def move_line(state: GameState[Any], caption: Caption) -> str:
    """The game's title, the number of moves played and the last move."""
    parts = [state.game.title, *caption.details]
    if state.ply == 0:
        parts.append("start of the game")
    else:
        last = state.last_move
        played = f"move {state.ply}"
        if last is not None:
            played += f": {state.format_move(last)}"
        parts.append(played)
    return "  ·  ".join(parts)


def draw_header(
    canvas: Canvas,
    state: GameState[Any],
    view: BoardView,
    caption: Caption,
    theme: Theme,
) -> None:
    """Draw one row per seat: marker, stone, name, colour, clock and facts."""
    right = canvas.width - PAD - 14
    outcome = state.outcome()
    over = outcome is not None or bool(view.status)
    for seat in (0, 1):
        top = PAD + seat * ROW_HEIGHT
        middle = top + ROW_HEIGHT / 2
        if not over and seat == state.to_move:
            canvas.rounded_rectangle(
                (PAD, top + 2, canvas.width - PAD - 1, top + ROW_HEIGHT - 3),
                radius=10,
                fill=theme.rgb("panel"),
            )
            canvas.paste(sprites.arrow(theme.rgb("text"), 16), (PAD + 16, middle))
        elif outcome is not None and outcome.winner == seat:
            canvas.paste(
                sprites.star(theme.rgb("highlight"), theme.rgb("background"), 24),
                (PAD + 16, middle),
            )
        colour = state.game.colours[seat]
        canvas.paste(sprites.stone(theme, colour.lower(), 30), (PAD + 47, middle))
        _draw_seat_text(canvas, state, view, caption, theme, seat=seat, middle=middle, right=right)


def _draw_seat_text(
    canvas: Canvas,
    state: GameState[Any],
    view: BoardView,
    caption: Caption,
    theme: Theme,
    *,
    seat: int,
    middle: float,
    right: int,
) -> None:
    """The name (with colour and clock under it) on the left, the facts ending at `right`."""
    x = PAD + 70
    facts = "   ".join(caption.facts[seat]) if view.facts else ""
    if facts:
        fact_face = font(FACT_SIZE)
        if text_length(fact_face, facts) > (right - x) * 0.62:
            fact_face = font(SUB_SIZE + 1)
        facts = fit(facts, fact_face, (right - x) * 0.7)
        fact_colour = theme.rgb("highlight" if caption.highlight[seat] else "text")
        canvas.text((right, middle), facts, fact_face, fact_colour, anchor="rm")
        right -= round(text_length(fact_face, facts)) + 24
    colour = state.game.colours[seat]
    name = seat_name(state, view, seat)
    extras = [] if name == colour else [colour]
    clock = view.clocks[seat]
    if clock:
        extras.append(printable(clock))
    name_face = font(NAME_SIZE, bold=True)
    name_y = middle - 10 if extras else middle
    name = fit(name, name_face, max(40.0, right - x))
    canvas.text((x, name_y), name, name_face, theme.rgb("text"), anchor="lm")
    if extras:
        small = font(SUB_SIZE)
        canvas.text(
            (x + 1, middle + 13),
            fit("  ·  ".join(extras), small, max(0.0, right - x)),
            small,
            theme.rgb("muted"),
            anchor="lm",
        )


def draw_footer(
    canvas: Canvas,
    state: GameState[Any],
    view: BoardView,
    caption: Caption,
    theme: Theme,
) -> None:
    """Draw the status line and the move line under the board."""
    width = canvas.width - 2 * PAD - 8
    status = printable(status_line(state, view, caption))
    status_face = font(STATUS_SIZE, bold=True)
    lines = [status]
    if text_length(status_face, status) > width:
        status_face = font(SMALL_SIZE + 1, bold=True)
        lines = wrap(status, status_face, width)
    line_height = round(status_face.size * 1.25)
    small = font(SMALL_SIZE)
    block = line_height * len(lines) + (6 + SMALL_SIZE if view.move_line else 0)
    y = canvas.height - PAD - FOOTER_HEIGHT + (FOOTER_HEIGHT - block) // 2
    for line in lines:
        canvas.text((PAD + 4, y), line, status_face, theme.rgb("text"))
        y += line_height
    if view.move_line:
        moves = fit(move_line(state, caption), small, width)
        canvas.text((PAD + 4, y + 6), moves, small, theme.rgb("muted"))
