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
from renderers.fonts import Font, font, printable
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
MIN_NAME_SIZE = 17
"""Long names are drawn smaller, down to this size, before they are cut short."""
FACTS_SHARE = 0.6
"""The most of a header row's width the facts may take."""
NAME_GAP = 24
"""The space between a name and the facts."""
FACT_SEPARATOR = "   "


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
    played: str | None = None
    """What the move line says was played, instead of "move 12: d4" (Diffusion Chess: the
    whole turn, numbered as the announcements number it)."""
    legend: str | None = None
    """What a mark of the picture means ("▲ moved this turn"), said after the status line
    while the game goes on; only in the picture (a description names the stones itself)."""


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
    if caption.played is not None:
        parts.append(caption.played)
    elif state.ply == 0:
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
    """The name (with colour and clock under it) on the left, the facts ending at `right`.

    The name comes first: the facts get smaller, then go on two lines, before the name
    is made smaller, and a name is cut short only when it is longer than any display name.
    """
    x = PAD + 70
    width = right - x
    colour = state.game.colours[seat]
    name = seat_name(state, view, seat)
    name_face = font(NAME_SIZE, bold=True)
    name_width = text_length(name_face, name)
    if view.facts and caption.facts[seat]:
        facts = caption.facts[seat]
        room = max(width * 0.4, width - name_width - NAME_GAP, narrowest_facts(facts))
        room = min(width * FACTS_SHARE, room)
        fact_face, lines = fact_lines(facts, room)
        fact_colour = theme.rgb("highlight" if caption.highlight[seat] else "text")
        ys = [middle] if len(lines) == 1 else [middle - 10, middle + 13]
        for line, y in zip(lines, ys, strict=True):
            canvas.text((right, y), line, fact_face, fact_colour, anchor="rm")
        right -= round(max(text_length(fact_face, line) for line in lines)) + NAME_GAP
    extras = [] if name == colour else [colour]
    clock = view.clocks[seat]
    if clock:
        extras.append(printable(clock))
    name_y = middle - 10 if extras else middle
    room = max(40.0, right - x)
    name_face = name_font(name, room)
    name = fit(name, name_face, room)
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


def name_font(name: str, width: float) -> Font:
    """The largest bold face, from `NAME_SIZE` down to `MIN_NAME_SIZE`, drawing `name` within
    `width` (the smallest when none does)."""
    for size in range(NAME_SIZE, MIN_NAME_SIZE - 1, -1):
        face = font(size, bold=True)
        if text_length(face, name) <= width:
            return face
    return font(MIN_NAME_SIZE, bold=True)


def narrowest_facts(facts: tuple[str, ...]) -> float:
    """The width of the narrowest way `fact_lines` lays `facts` out without cutting them."""
    face = font(SUB_SIZE)
    widths = [text_length(face, fact) for fact in facts]
    best = text_length(font(SUB_SIZE + 1), FACT_SEPARATOR.join(facts))
    gap = text_length(face, FACT_SEPARATOR)
    for k in range(1, len(facts)):
        first = sum(widths[:k]) + gap * (k - 1)
        second = sum(widths[k:]) + gap * (len(facts) - k - 1)
        best = min(best, max(first, second))
    return best


def fact_lines(facts: tuple[str, ...], width: float) -> tuple[Font, list[str]]:
    """A seat's facts within `width`: on one line, smaller if need be, else on two lines
    split between facts (each cut short only if a single fact is wider than `width`)."""
    joined = FACT_SEPARATOR.join(facts)
    for size in (FACT_SIZE, SUB_SIZE + 1):
        face = font(size)
        if text_length(face, joined) <= width:
            return face, [joined]
    face = font(SUB_SIZE)
    if len(facts) == 1:
        return face, wrap(joined, face, width)
    splits = [
        [FACT_SEPARATOR.join(facts[:k]), FACT_SEPARATOR.join(facts[k:])]
        for k in range(1, len(facts))
    ]
    best = min(splits, key=lambda lines: max(text_length(face, line) for line in lines))
    return face, [fit(line, face, width) for line in best]


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
    if caption.legend and not view.status and state.outcome() is None:
        status += f"; {caption.legend}"
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
        moves = move_line(state, caption)
        if text_length(small, moves) > width:  # a long turn: smaller before it is cut
            small = font(MIN_NAME_SIZE)
        canvas.text((PAD + 4, y + 6), fit(moves, small, width), small, theme.rgb("muted"))
