"""The words of correspondence play: clocks, reminders, timeouts, digests, vacations,
/settings and /games. Plain text with Discord's light markdown, like `bot.texts.games`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.services.correspondence.clocks import ClockStatus
from bot.services.correspondence.notifications import GameLine
from bot.services.correspondence.vacations import VacationChange, VacationStatus
from bot.services.durations import format_span
from bot.services.views.alerts import (
    DigestNotice,
    ReminderNotice,
    TimeoutNotice,
    TurnNotice,
    VacationNotice,
    Waiting,
)
from bot.services.views.results import GameView
from bot.storage.repository import GameRecord, UserSettings, Vacation
from bot.texts.games import Style, end_caption, game_title
from rules import get_game

MESSAGE_LIMIT = 2000
"""The most characters a Discord message holds."""


def format_left(delta: timedelta) -> str:
    """Time left, as every duration is written, cut to two units: "2d 4h", "5h 12m",
    "12m", "40s"; "no time" once it has run out."""
    if delta.total_seconds() < 1:
        return "no time"
    return format_span(delta, 2)


def away_text(vacation: Vacation) -> str:
    """ "away until 12 Mar" (for pictures: short, the day in UTC)."""
    end = vacation.end
    return f"away until {end.day} {end:%b}"


def board_clocks(status: ClockStatus | None, record: GameRecord) -> tuple[str | None, str | None]:
    """The time beside each player's name in the picture (None without a clock)."""
    if status is None:
        return (None, None)
    texts: list[str | None] = []
    for seat in (0, 1):
        left = format_left(status.left[seat])
        if status.stopped:
            out = record.result_reason is not None and " ran out of time" in record.result_reason
            if out and record.winner == 1 - seat:
                texts.append("out of time")
                continue
            if status.control.per_move is not None:
                texts.append(None)  # a fresh time per move means nothing after the end
                continue
            text = left
        elif seat == status.seat:
            text = f"{left} left"  # a paused clock says "away until ..." below
        elif status.control.per_move is not None:
            text = f"{left} per move"
        else:
            text = left
        vacation = status.away[seat]
        if vacation is not None:
            text += f" · {away_text(vacation)}"
        texts.append(text)
    return (texts[0], texts[1])


def clock_line(view: GameView, status: ClockStatus | None, style: Style) -> str | None:
    """The caption line about time for an active timed game (None otherwise)."""
    if status is None or status.stopped:
        return None
    record = view.record
    seat = status.seat
    # A position the clock has moved past (a turn answered at once by a conditional
    # reply): the clock line names the player to move there, whose clock did not run.
    settled = view.outcome is None and view.state.to_move != seat
    if settled:
        seat = view.state.to_move
    name = record.names[seat]
    left = format_left(status.left[seat])
    head = f"⏱ {status.control.describe()}: "
    vacation = status.away[seat]
    if status.suspended is not None:
        line = f"{head}the clocks are stopped while the game is suspended; {name} has {left} left."
    elif vacation is not None:
        line = (
            f"{head}{name} is on vacation, back {style.when(vacation.end)}; "
            f"their clock is paused with {left} left."
        )
    elif settled:
        line = f"{head}{name} has {left} left."
    else:
        line = (
            f"{head}{name} has {left} left (runs out {style.when(status.deadline or status.at)})."
        )
    other = 1 - seat
    if status.control.per_move is None:
        line += f" {record.names[other]} has {format_left(status.left[other])}."
    away = status.away[other]
    if away is not None:
        line += f" {record.names[other]} is on vacation, back {style.when(away.end)}."
    return line


def _title(record: GameRecord) -> str:
    return f"**{game_title(get_game(record.game), record.options)}** #{record.id}"


def _opponent(record: GameRecord, user_id: int) -> str:
    seat = record.seat_of(user_id)
    return record.names[1 - seat] if seat is not None else record.names[1]


def _time_left(left: timedelta | None, deadline: datetime | None, style: Style) -> str:
    if left is not None and deadline is None:
        return f"{format_left(left)} left"  # its clock stands (a suspended game)
    if left is None or deadline is None:
        return "no clock"
    return f"{format_left(left)} left, runs out {style.when(deadline)}"


def dashboard_text(lines: Sequence[GameLine], style: Style) -> str:
    """/games: the user's games, most urgent first, with the time left (all of them; a
    front end with a message limit splits it with `pages`)."""
    if not lines:
        return "You have no game in progress. Start one with /play."
    parts = [f"Your games ({len(lines)}), most urgent first:"]
    for line in lines:
        record = line.record
        opponent = record.names[1 - line.seat]
        turn = "**your turn**" if line.my_turn else f"{record.names[record.to_move]}'s turn"
        extra = ""
        status = line.status
        if status is not None:
            mover_away = status.away[status.seat]
            if status.suspended is not None:
                extra = " (suspended: clocks stopped)"
            elif mover_away is not None and not line.my_turn:
                extra = f" (on vacation, back {style.when(mover_away.end)})"
            elif mover_away is not None:
                extra = " (paused: you are on vacation)"
        title = game_title(get_game(record.game), record.options)
        parts.append(
            f"#{record.id} {title} vs {opponent} · move {record.ply} · {turn} · "
            f"{_time_left(line.left, line.deadline, style)}{extra} · {style.game_link(record)}"
        )
    return "\n".join(parts)


def dashboard_pages(lines: Sequence[GameLine], style: Style, *, max_pages: int = 10) -> list[str]:
    """/games as messages that each fit Discord's limit (at most `max_pages`, the last
    saying how many games it leaves out)."""
    found = pages(dashboard_text(lines, style))
    if len(found) <= max_pages:
        return found
    left_out = sum(page.count("\n") + 1 for page in found[max_pages - 1 :])
    return [*found[: max_pages - 1], f"… and {left_out} more games."]


def turn_text(notice: TurnNotice, style: Style) -> str:
    """The direct message "it is your turn"."""
    record = notice.view.record
    opponent = _opponent(record, notice.user_id)
    played = f"{opponent} played **{notice.moves}**" if notice.moves else "the game has begun"
    timing = ""
    if notice.deadline is not None:
        timing = f" Your time runs out {style.when(notice.deadline)}."
    return (
        f"Your turn in {_title(record)} vs {opponent}: {played}.{timing} {style.game_link(record)}"
    )


def reminder_text(notice: ReminderNotice, style: Style) -> str:
    """A reminder that a player's time runs low (in a DM or the game's thread)."""
    record = notice.record
    who = (
        "You have"
        if notice.by_dm
        else f"{style.mention(notice.user_id, record.names[notice.seat])}, you have"
    )
    text = (
        f"⏰ {who} {format_left(notice.left)} left to move in {_title(record)} vs "
        f"{_opponent(record, notice.user_id)}: your time runs out {style.when(notice.deadline)}."
    )
    return f"{text} {style.game_link(record)}" if notice.by_dm else text


def timeout_text(notice: TimeoutNotice, style: Style) -> str:
    """The post in the game's thread when a game is lost on time."""
    view = notice.view
    loser = style.mention(view.record.players[notice.seat], view.name(notice.seat))
    return f"⏰ {loser} ran out of time.\n{end_caption(view, style)}"


def timeout_dm_text(notice: TimeoutNotice, user_id: int, style: Style) -> str:
    """The direct message to a player about a game lost on time."""
    record = notice.view.record
    opponent = _opponent(record, user_id)
    if record.players[notice.seat] == user_id:
        head = f"⏰ You ran out of time in {_title(record)} vs {opponent}: {opponent} wins."
    else:
        head = f"⏰ {opponent} ran out of time in {_title(record)}: you win."
    return f"{head} {style.game_link(record)}"


def digest_text(notice: DigestNotice, style: Style) -> str:
    """The digest: every game waiting for the user, most urgent first."""
    count = len(notice.games)
    lines = [f"**{count} game{'s' if count != 1 else ''} waiting for your move**:"]
    for waiting in notice.games:
        lines.append(_waiting_line(waiting, notice.user_id, style))
    first, *rest = pages("\n".join(lines), MESSAGE_LIMIT - 60)
    if not rest:
        return first
    shown = first.count("\n")
    return f"{first}\n… and {count - shown} more: /games lists them all."


def next_game_text(games: Sequence[Waiting], user_id: int, style: Style) -> str:
    """After a turn: the most urgent other game waiting for the player's move (the first
    of `games`), and how many more wait."""
    record = games[0].record
    text = (
        f"Next: your move in {_title(record)} vs {_opponent(record, user_id)}, "
        f"{_time_left(games[0].left, games[0].deadline, style)} · {style.game_link(record)}"
    )
    more = len(games) - 1
    if more:
        waits = "games wait" if more != 1 else "game waits"
        text += f"\n{more} more {waits} for you: /games lists them."
    return text


def _waiting_line(waiting: Waiting, user_id: int, style: Style) -> str:
    record = waiting.record
    return (
        f"- {_title(record)} vs {_opponent(record, user_id)}: "
        f"{_time_left(waiting.left, waiting.deadline, style)} · {style.game_link(record)}"
    )


def pages(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The text split at line ends into messages of at most `limit` characters each (a
    single line longer than that is cut, ending with "…")."""
    result: list[str] = []
    page = ""
    for whole in text.split("\n"):
        line = whole if len(whole) <= limit else whole[: limit - 1] + "…"
        if page and len(page) + 1 + len(line) > limit:
            result.append(page)
            page = line
        else:
            page = f"{page}\n{line}" if page else line
    result.append(page)
    return result


def vacation_post(notice: VacationNotice, record: GameRecord, style: Style) -> str:
    """The line posted in each of the player's games when they leave or come back."""
    seat = record.seat_of(notice.user_id)
    name = record.names[seat] if seat is not None else "A player"
    if notice.started:
        return (
            f"🏖 {name} is on vacation, back {style.when(notice.vacation.end)}: their clock "
            "is paused while it is their turn."
        )
    return f"{name} is back from vacation: their clock runs again."


def vacation_dm(notice: VacationNotice, style: Style) -> str:
    """The direct message when a vacation ended by itself."""
    waiting = sum(1 for record in notice.games if record.players[record.to_move] == notice.user_id)
    games = f"{waiting} game{'s' if waiting != 1 else ''}" if waiting else "no game"
    return f"Your vacation is over: your clocks run again, and {games} wait for your move."


def vacation_status_text(status: VacationStatus, style: Style) -> str:
    """/vacation status."""
    year = f"{format_span(status.used, 2)} of {format_span(status.allowance)}"
    if status.vacation is not None:
        return (
            f"You are on vacation, back {style.when(status.vacation.end)}: your clocks are "
            f"paused while it is your turn. Used in {status.year}: {year} (this vacation "
            "counted to its end; /vacation end gives the rest back)."
        )
    return (
        f"You are not on vacation. Vacation left in {status.year}: {_free(status)} (of "
        f"{format_span(status.allowance)}). /vacation start pauses your clocks."
    )


def vacation_change_text(change: VacationChange, style: Style) -> str:
    """The answer to /vacation start or /vacation end."""
    opponents = len(change.games)
    told = (
        f" Your opponents in {opponents} game{'s' if opponents != 1 else ''} were told."
        if opponents
        else ""
    )
    if change.vacation.ended_at is None:
        short = " That is all the vacation you have left this year." if change.shortened else ""
        return (
            f"🏖 You are on vacation, back {style.when(change.vacation.end)}: your clocks are "
            f"paused while it is your turn.{short}{told} "
            f"Vacation left in {change.status.year}: {_free(change.status)}."
        )
    return (
        f"Welcome back: your clocks run again.{told} Vacation left in "
        f"{change.status.year}: {_free(change.status)}."
    )


def _free(status: VacationStatus) -> str:
    return format_span(status.left, 2) if status.left else "none"


def settings_text(settings: UserSettings) -> str:
    """/settings: the user's notification settings."""
    turn = "on" if settings.dm_on_turn else "off"
    if settings.dm_on_turn and settings.digest:
        turn += " (replaced by the digest while it is on)"
    if settings.reminders:
        times = ", ".join(format_span(offset) for offset in settings.reminders)
        where = "by direct message" if settings.wants_dms else "in the game's thread"
        reminders = f"{times} before a deadline, {where}"
    else:
        reminders = "none"
    digest = (
        f"on, at most every {format_span(settings.digest_period)}" if settings.digest else "off"
    )
    return "\n".join(
        [
            "**Your notification settings**",
            f"Direct message when it is your turn: {turn}",
            f"Reminders: {reminders}",
            f"Digest of games waiting for you: {digest}",
        ]
    )
