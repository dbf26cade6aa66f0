"""The words of conditional moves: a tree listed, a line stored, a tree cleared and why.
Plain text with Discord's light markdown, like `bot.texts`; only the tree's owner sees
any of it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.conditional_lines import shown
from bot.services.conditional_notes import ClearedNotice, ClearReason
from bot.services.conditionals import Added, TreeView
from bot.storage.repository import GameRecord
from bot.texts import Style, game_title
from bot.tournament_texts import TableMessage
from rules import get_game

PICTURES = 10
"""The most pictures (one per line's end) a listing carries: Discord's files a message."""


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def game_name(record: GameRecord) -> str:
    """ "game #12 (Groups: alice vs bob)"."""
    title = game_title(get_game(record.game), record.options)
    return f"game #{record.id} ({title}: {record.names[0]} vs {record.names[1]})"


def line_text(steps: Sequence[str]) -> str:
    """A line as pairs: "e5 → **d4** · f6 → **c3**" (the opponent's turn → the reply)."""
    pairs = [
        f"{shown(steps[index])} → **{shown(steps[index + 1])}**"
        for index in range(0, len(steps) - 1, 2)
    ]
    return " · ".join(pairs)


def tree_heading(view: TreeView) -> str:
    """What a tree is: its game and its size."""
    replies = _plural(view.replies, "reply", "replies")
    lines = _plural(len(view.ends), "line")
    return (
        f"Your conditional moves in {game_name(view.record)}: {replies} in {lines}, each "
        f"written as {view.opponent}'s turn → your reply."
    )


def tree_lines(view: TreeView) -> list[str]:
    """The tree's lines, numbered (the numbers of the pictures)."""
    return [f"{number}. {line_text(end.steps)}" for number, end in enumerate(view.ends, 1)]


def trees_message(views: Sequence[TreeView], *, pictures: bool) -> TableMessage:
    """/conditional list: every tree asked for, with a word on the pictures."""
    if not views:
        return TableMessage("You have no conditional moves in any game here.", "", code=False)
    if len(views) == 1:
        view = views[0]
        tail = ""
        if pictures and view.ends:
            which = "each line" if len(view.ends) <= PICTURES else f"the first {PICTURES} lines"
            tail = f"The pictures show the position at the end of {which} (line-1.png: line 1)."
        return TableMessage(tree_heading(view), "\n".join(tree_lines(view)), tail, code=False)
    parts = []
    for view in views:
        parts.append(tree_heading(view))
        parts += tree_lines(view)
    tail = "Name a game (/conditional list game) to see the positions at the ends of its lines."
    head = f"Your conditional moves in {_plural(len(views), 'game')}:"
    return TableMessage(head, "\n".join(parts), tail, code=False)


def added_text(added: Added) -> str:
    """The answer to /conditional add."""
    view = added.tree
    where = game_name(view.record)
    if not added.new:
        held = line_text(added.line.steps)
        return f"Your conditional moves in {where} already hold {held}: nothing changed."
    replies = _plural(view.replies, "reply", "replies")
    lines = _plural(len(view.ends), "line")
    return (
        f"Stored in {where}: {line_text(added.line.steps)}. You have {replies} in {lines} "
        f"there (/conditional list shows them); {view.opponent} is not told. The picture "
        "shows the position at the end of this line."
    )


def removed_text(view: TreeView) -> str:
    """The answer to /conditional clear."""
    replies = _plural(view.replies, "reply", "replies")
    return f"Cleared your conditional moves in {game_name(view.record)} ({replies})."


def cleared_text(notice: ClearedNotice, style: Style) -> str:
    """Why a player's conditional moves were cleared (by direct message, or with their
    next command)."""
    note, record = notice.note, notice.record
    seat = notice.seat
    opponent = record.names[1 - seat] if seat is not None else "your opponent"
    where = f"{game_name(record)} {style.game_link(record)}"
    turn = f"**{shown(note.turn)}**"
    not_played = "so your conditional reply was not played, and your conditional moves were cleared"
    your_turn = " It is your turn."
    reason = note.reason
    if reason is ClearReason.DEVIATED:
        why = (
            f"{opponent} played {turn}, which none of your conditional moves expected, so "
            "they were cleared."
        )
    elif reason is ClearReason.GAME_ENDED:
        why = f"{opponent} played {turn}, which ended the game: your conditional moves are gone."
        your_turn = ""
    elif reason is ClearReason.UNDO_REQUESTED:
        asker = "you" if note.asker == seat else opponent
        why = f"{opponent} played {turn} while {asker} had asked to take back a move, {not_played}."
    elif reason is ClearReason.DRAW_OFFERED:
        why = (
            f"{opponent} played {turn} and offers a draw, which waits for your answer; "
            f"{not_played}."
        )
    elif reason is ClearReason.VACATION:
        why = f"{opponent} played {turn} while you are on vacation, {not_played}."
    elif reason is ClearReason.TAKEN_BACK:
        why = "moves were taken back, so your conditional moves no longer fit: they were cleared."
        your_turn = ""
    else:
        why = (
            f"{opponent} played {turn}, but your conditional reply could not be played "
            f"({note.detail}); your conditional moves were cleared."
        )
    return f"In {where}: {why}{your_turn}"
