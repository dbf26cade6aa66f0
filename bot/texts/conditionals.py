"""The words of conditional moves: a tree listed, a line stored, a tree cleared and why.
Plain text with Discord's light markdown, like `bot.texts.games`; only the tree's owner sees
any of it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.correspondence.conditional_lines import shown
from bot.services.correspondence.conditionals import Added, TreeView
from bot.services.views.conditional_notes import ClearedNotice, ClearReason
from bot.texts.games import Style, record_header
from bot.texts.tournaments import TableMessage

PICTURES = 10
"""The most pictures (one per line's end) a listing carries: Discord's files a message."""


def _count(number: int, word: str, many: str | None = None) -> str:
    return f"{number} {word if number == 1 else many or word + 's'}"


def _replies(number: int) -> str:
    return _count(number, "reply", "replies")


def line_text(steps: Sequence[str]) -> str:
    """A line as its pairs, "c5 → **d3**; then d5 → **e3**": the opponent's turn → the
    reply (a turn of several moves with ", ")."""
    pairs = [
        f"{shown(steps[index])} → **{shown(steps[index + 1])}**"
        for index in range(0, len(steps) - 1, 2)
    ]
    return "; then ".join(pairs)


def tree_lines(view: TreeView) -> list[str]:
    """A tree: its game, its size, and its lines numbered (the numbers of the pictures)."""
    size = f"{_replies(view.replies)} in {_count(len(view.ends), 'line')}"
    lines = [
        record_header(view.record),
        f"Your conditional moves: {size}, each written as {view.opponent}'s turn → your reply.",
    ]
    lines += [f"{number}. {line_text(end.steps)}" for number, end in enumerate(view.ends, 1)]
    return lines


def trees_message(views: Sequence[TreeView], *, pictures: bool) -> TableMessage:
    """/conditional list: every tree asked for; with `pictures`, a word on them."""
    if not views:
        return TableMessage("You have no conditional moves in any game here.", "", code=False)
    if len(views) == 1:
        view = views[0]
        tail = ""
        if pictures and view.ends:
            which = "each line" if len(view.ends) <= PICTURES else f"the first {PICTURES} lines"
            tail = f"The pictures show the position at the end of {which} (line-1.png: line 1)."
        head, *table = tree_lines(view)
        return TableMessage(head, "\n".join(table), tail, code=False)
    table = [line for view in views for line in tree_lines(view)]
    head = f"Your conditional moves in {_count(len(views), 'game')}:"
    tail = "Name a game (/conditional list game) to see the positions at the ends of its lines."
    return TableMessage(head, "\n".join(table), tail, code=False)


def added_text(added: Added) -> str:
    """The answer to /conditional add."""
    view = added.tree
    line = line_text(added.line.steps)
    if not added.new:
        return f"{record_header(view.record)}\nYou have this line already: {line}. Nothing changed."
    size = f"{_replies(view.replies)} in {_count(len(view.ends), 'line')}"
    return (
        f"{record_header(view.record)}\nStored: {line}. Your conditional moves here: {size} "
        f"(/conditional list shows them); {view.opponent} is not told. The picture shows "
        "where this line leads."
    )


def removed_text(view: TreeView) -> str:
    """The answer to /conditional clear."""
    removed = _replies(view.replies)
    return f"{record_header(view.record)}\nCleared your conditional moves ({removed})."


def cleared_text(notice: ClearedNotice, style: Style) -> str:
    """Why a player's conditional moves were cleared (by direct message, or with their
    next command)."""
    note, record = notice.note, notice.record
    seat = notice.seat
    opponent = record.names[1 - seat] if seat is not None else "your opponent"
    played = f"{opponent} played **{shown(note.turn)}**"
    not_played = "so your conditional reply was not played and your conditional moves were cleared"
    after = "It is your turn:"
    reason = note.reason
    if reason is ClearReason.DEVIATED:
        why = f"{played}, which none of your conditional moves expected, so they were cleared."
    elif reason is ClearReason.GAME_ENDED:
        why = f"{played}, which ended the game; your conditional moves were cleared."
        after = "The game:"
    elif reason is ClearReason.UNDO_REQUESTED:
        asker = "you" if note.asker == seat else opponent
        why = f"{played} while {asker} had asked to take back a move, {not_played}."
    elif reason is ClearReason.DRAW_OFFERED:
        why = f"{played} and offers a draw, which waits for your answer, {not_played}."
    elif reason is ClearReason.VACATION:
        why = f"{played} while you are on vacation, {not_played}."
    elif reason is ClearReason.TAKEN_BACK:
        why = "Moves were taken back, so your conditional moves no longer fit: they were cleared."
        after = "The game:"
    else:
        why = (
            f"{played}, but your conditional reply could not be played ({note.detail}); "
            "your conditional moves were cleared."
        )
    return f"{record_header(record)}\n{why} {after} {style.game_link(record)}"
