"""The words both front ends show for histories and exports."""

from __future__ import annotations

from bot.services.records.records import Export, HistoryPage
from bot.storage.repository import FinishedGame, GameRecord
from bot.texts.games import Style, game_title
from rules import get_game

REASON_LIMIT = 80
"""A longer reason is cut in a history line (the whole one is in the game's export)."""
FORMAT_NAMES = {
    "json": "the AbstractPlay game record (JSON)",
    "sgf": "SGF",
    "text": "the text record",
}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def result_for(record: GameRecord, user_id: int) -> str:
    """ "won", "lost" or "draw" from the point of view of `user_id`."""
    if record.winner is None:
        return "draw"
    return "won" if record.players[record.winner] == user_id else "lost"


def subject_name(page: HistoryPage) -> str | None:
    """The name of the player whose history it is, as their latest game on the page
    has it; None when the page lists no game."""
    user = page.query.user_id
    for entry in page.entries:
        seat = entry.record.seat_of(user)
        if seat is not None:
            return entry.record.names[seat]
    return None


def history_line(entry: FinishedGame, user_id: int, style: Style) -> str:
    """ "#42 Stones (size 13) vs bob · **won** (bob resigned) · 2025-03-01 · link"."""
    record = entry.record
    seat = record.seat_of(user_id)
    opponent = record.names[1 - seat] if seat is not None else " vs ".join(record.names)
    title = game_title(get_game(record.game), record.options)
    reason = _cut(record.result_reason or "", REASON_LIMIT)
    ended = record.finished_at or record.created_at
    where = "imported" if entry.imported else style.game_link(record)
    return (
        f"#{record.id} {title} vs {opponent} · **{result_for(record, user_id)}** ({reason}) "
        f"· {ended:%Y-%m-%d} · {where}"
    )


def history_heading(page: HistoryPage, name: str) -> str:
    """ "alice's finished games of Groups in this server (23)"; `name` is whose they are."""
    query = page.query
    what = "games" if query.game is None else f"games of {get_game(query.game).title}"
    if query.guild_id is not None:
        where = " in this server"
    elif query.with_user is not None:
        where = " with you"
    else:
        where = ""
    return f"{name}'s finished {what}{where} ({page.total})"


def history_lines(page: HistoryPage, style: Style) -> list[str]:
    """One line per game of the page; a sentence when there is none."""
    if not page.entries:
        return ["No finished game yet."]
    return [history_line(entry, page.query.user_id, style) for entry in page.entries]


def page_footer(page: HistoryPage) -> str:
    """ "Page 2 of 3"."""
    return f"Page {page.page} of {page.pages}"


def export_text(export: Export) -> str:
    """What an export says: the game, its result, and which files are attached."""
    record = export.record
    title = game_title(get_game(record.game), record.options)
    transcript = export.transcript
    if record.is_active:
        hidden = record.ply - len(transcript.moves())
        state = "in progress"
        if hidden:
            state += (
                f" (the {hidden} move{'s' if hidden != 1 else ''} of the unfinished turn left out)"
            )
    elif transcript.finished:
        winner = "a draw" if record.winner is None else f"{record.names[record.winner]} won"
        state = f"{winner} ({record.result_reason})"
    else:
        state = f"aborted ({record.result_reason})"
    files = ", ".join(FORMAT_NAMES[f.format] for f in export.files)
    return (
        f"Game #{record.id}, {title}: {record.names[0]} vs {record.names[1]}, {state}. "
        f"Attached: {files}."
    )
