"""What leagues say, on Discord and at the console: summaries, divisions, standings,
history and the news of seasons."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.competition.leagues import Move
from bot.competition.standings import Standing
from bot.services.announcing.announcements import Kind
from bot.services.durations import format_span, parse_time_control
from bot.services.views.leagues import (
    Departure,
    LeagueHistory,
    LeagueNews,
    LeagueView,
)
from bot.storage.leagues import LeagueRecord, LeagueStatus, PlacementRecord, SeasonStatus
from bot.texts.games import Style
from bot.texts.tournaments import TableMessage, aligned
from rules import get_game

MOVE_MARKS = {Move.UP: "↑ up", Move.DOWN: "↓ down", Move.STAY: ""}
"""How a player's move at a season's end is shown."""


def league_heading(view: LeagueView | LeagueRecord) -> str:
    """The league's name in bold with its number: "**Groups League** (#3)"."""
    record = view.record if isinstance(view, LeagueView) else view
    return f"**{record.name}** (#{record.id})"


def _players(count: int) -> str:
    return "1 player" if count == 1 else f"{count} players"


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def format_text(record: LeagueRecord) -> str:
    """How the league is played: "each pair plays twice (once with each colour)"."""
    pairs = (
        "each pair plays twice, once with each colour"
        if record.games_per_pair == 2
        else "each pair plays once"
    )
    size = (
        f"{record.smallest}"
        if record.smallest == record.largest
        else f"{record.smallest}-{record.largest}"
    )
    return (
        f"divisions of {size} players, {pairs}, all games at once; seasons of up to "
        f"{format_span(record.season_length)}; the top two of each division go up, "
        "the bottom two go down"
    )


def league_summary(view: LeagueView, style: Style) -> str:
    """/league info: what the league is, where it stands and who plays."""
    record = view.record
    game = get_game(record.game).title
    rated = "rated" if record.rated else "casual"
    control = parse_time_control(record.time_control)
    clock = "no time limit" if control.is_none else control.describe()
    lines = [
        f"{league_heading(view)}: a {rated} {game} league ({clock}), run by "
        f"{record.organiser_name}.",
        f"How it works: {format_text(record)}.",
        _status_line(view, style),
    ]
    if view.members:
        names = ", ".join(member.name for member in view.members)
        lines.append(f"Entered for the next season ({len(view.members)}): {names}")
    else:
        lines.append("Nobody is entered for the next season yet: /league join.")
    return "\n".join(lines)


def _status_line(view: LeagueView, style: Style) -> str:
    record = view.record
    if record.status is LeagueStatus.CANCELLED:
        return "This league was cancelled."
    if record.status is LeagueStatus.RUNNING and record.ends_at is not None:
        left = sum(1 for game in view.games if game.result is None)
        return (
            f"Season {record.season} is being played in {view.division_count} "
            f"division(s): {_games(left)} to go; it ends {style.when(record.ends_at)} at the "
            "latest. Players who join now play the next season."
        )
    return f"Season {record.season + 1} takes entries and starts {style.when(record.starts_at)}."


def divisions_message(view: LeagueView) -> TableMessage:
    """/league divisions: the season's divisions, each with its players and ratings."""
    heading = league_heading(view)
    if view.season is None:
        return TableMessage(
            f"{heading} has not started a season yet: divisions are made when it starts.", ""
        )
    parts = []
    for number in range(1, view.division_count + 1):
        rows = [("#", "Player", "Rating")]
        for index, placement in enumerate(view.division(number), start=1):
            name = placement.name + (" (left)" if placement.withdrawn else "")
            rows.append((str(index), name, f"{placement.rating:.0f}"))
        parts.append(f"Division {number}\n{aligned(rows, left_columns=2)}")
    head = f"{heading} · season {view.season.number} · divisions"
    return TableMessage(head, "\n\n".join(parts))


def _standing_rows(
    view: LeagueView, number: int, table: Sequence[Standing]
) -> list[tuple[str, ...]]:
    placements = {p.user_id: p for p in view.division(number)}
    left: dict[int, int] = {}
    for game in view.division_games(number):
        if game.result is None:
            for player in (game.first_id, game.second_id):
                left[player] = left.get(player, 0) + 1
    rows: list[tuple[str, ...]] = [("#", "Player", "Pts", "W", "D", "L", "SB", "Left", "")]
    ordered = sorted(table, key=lambda line: (line.withdrawn, line.rank))
    for place, line in enumerate(ordered, start=1):
        placement = placements[line.player]
        mark = "left" if placement.withdrawn else ""
        if placement.move is not None:
            mark = " ".join(part for part in (mark, MOVE_MARKS[placement.move]) if part)
        rows.append(
            (
                str(placement.place or place),
                placement.name,
                f"{line.points:g}",
                str(line.wins),
                str(line.draws),
                str(line.losses),
                f"{line.tiebreaks[0]:g}" if line.tiebreaks else "",
                str(left.get(line.player, 0)),
                mark,
            )
        )
    return rows


def standings_message(view: LeagueView) -> TableMessage:
    """/league standings: every division's table (points, then Sonneborn-Berger)."""
    heading = league_heading(view)
    if view.season is None:
        return TableMessage(f"{heading} has not started a season yet.", "")
    parts = []
    for number in range(1, view.division_count + 1):
        rows = _standing_rows(view, number, view.standings(number))
        parts.append(f"Division {number}\n{aligned(rows, left_columns=2)}")
    season = view.season
    state = {
        SeasonStatus.RUNNING: "standings so far",
        SeasonStatus.FINISHED: "final standings",
        SeasonStatus.CANCELLED: "standings when it was cancelled",
    }[season.status]
    tail = "Ties are broken by Sonneborn-Berger, then wins; players who left finish last."
    return TableMessage(f"{heading} · season {season.number} · {state}", "\n\n".join(parts), tail)


def history_message(history: LeagueHistory) -> TableMessage:
    """/league history: every season's division winners and who went up and down."""
    heading = league_heading(history.record)
    if not history.seasons:
        return TableMessage(f"{heading} has not played a season yet.", "")
    lines = []
    for summary in history.seasons:
        season = summary.season
        when = f"{season.started_at:%Y-%m-%d}"
        if season.status is SeasonStatus.RUNNING:
            lines.append(f"Season {season.number} (from {when}): being played")
            continue
        if season.status is SeasonStatus.CANCELLED:
            lines.append(f"Season {season.number} (from {when}): cancelled")
            continue
        lines.append(f"Season {season.number} ({when} to {season.finished_at:%Y-%m-%d}):")
        divisions = max((p.division for p in summary.placements), default=0)
        for number in range(1, divisions + 1):
            placed = sorted(
                (p for p in summary.placements if p.division == number),
                key=lambda p: p.place or 0,
            )
            lines.append(f"  Division {number}: {_moves_line(placed)}")
    return TableMessage(f"{heading} · history", "\n".join(lines))


def _moves_line(placed: Sequence[PlacementRecord]) -> str:
    winner = placed[0].name if placed else "nobody"
    up = [p.name for p in placed if p.move is Move.UP]
    down = [p.name for p in placed if p.move is Move.DOWN]
    parts = [f"won by {winner}"]
    if up:
        parts.append(f"up: {', '.join(up)}")
    if down:
        parts.append(f"down: {', '.join(down)}")
    return "; ".join(parts)


def league_list_message(records: Sequence[LeagueRecord]) -> TableMessage:
    """/league list: the server's leagues going on."""
    if not records:
        return TableMessage(
            "No league is going on here. Organisers create one with /league create.", ""
        )
    rows = [("#", "League", "Game", "Season", "State")]
    for record in records:
        state = "running" if record.status is LeagueStatus.RUNNING else "taking entries"
        season = record.season if record.status is LeagueStatus.RUNNING else record.season + 1
        rows.append((str(record.id), record.name, get_game(record.game).title, str(season), state))
    return TableMessage("Leagues on this server:", aligned(rows, left_columns=3))


def departure_text(departure: Departure) -> str:
    """What /league leave answers the player (privately when games were forfeited: the
    league's channel gets the announcement)."""
    heading = league_heading(departure.league)
    if not departure.forfeited:
        return f"{departure.name} left {heading}."
    count = len(departure.forfeited)
    return (
        f"You left {heading}: your {_games(count)} without a result "
        + ("is" if count == 1 else "are")
        + " forfeited. The league's channel has been told."
    )


def withdrawal_line(view: LeagueView, name: str, forfeited: Sequence[object]) -> str:
    """A player left a running season: their remaining games are forfeited."""
    heading = league_heading(view)
    season = view.season.number if view.season else view.record.season
    count = len(forfeited)
    return (
        f"{name} left {heading} during season {season}: their {_games(count)} without a "
        "result " + ("is" if count == 1 else "are") + " forfeited, a loss for them and a win "
        f"for the opponent. {name} finishes last in their division and is out of the next "
        "season."
    )


def news_message(news: LeagueNews, style: Style) -> TableMessage:
    """The announcement of a league's news, posted where the league is run."""
    view = news.league
    heading = league_heading(view)
    kind = Kind(news.kind)
    data = news.data
    if kind is Kind.LEAGUE_SEASON_STARTED:
        divisions = divisions_message(view)
        count = len(view.games)
        ends = view.season.ends_at if view.season else None
        head = (
            f"Season {data['season']} of {heading} has started: {_players(len(view.placements))} "
            f"in {view.division_count} division(s), {_games(count)}, all starting now"
            + (f"; the season ends {style.when(ends)} at the latest." if ends else ".")
        )
        return TableMessage(head, divisions.table)
    if kind is Kind.LEAGUE_SEASON_FINISHED:
        table = standings_message(view)
        unfinished = int(data.get("unfinished", 0))
        note = (
            f" {_games(unfinished)} unfinished at the deadline scored nothing."
            if unfinished
            else ""
        )
        head = f"Season {data['season']} of {heading} is over.{note} Final standings:"
        tail = (
            f"Season {data['season'] + 1} takes entries now and starts "
            f"{style.when(_starts(news))}: everyone stays entered unless they "
            "/league leave; newcomers /league join."
            if view.record.status is not LeagueStatus.CANCELLED
            else ""
        )
        return TableMessage(head, table.table, tail)
    if kind is Kind.LEAGUE_WITHDRAWAL:
        return TableMessage(withdrawal_line(view, data["name"], data["games"]), "")
    if kind is Kind.LEAGUE_POSTPONED:
        head = (
            f"Season {data['season']} of {heading} could not start: "
            f"{_players(int(data['players']))} entered, at least 2 are needed. It starts "
            f"{style.when(_starts(news))} if enough players /league join."
        )
        return TableMessage(head, "")
    if kind is Kind.LEAGUE_CANCELLED:
        return TableMessage(
            f"{heading} was cancelled by {data['by']}; its games in progress were aborted.", ""
        )
    raise ValueError(f"not a league announcement: {news.kind}")


def _starts(news: LeagueNews) -> datetime:
    """When the next season starts, as the announcement recorded it."""
    text = news.data.get("starts")
    return news.league.record.starts_at if text is None else datetime.fromisoformat(text)


def forfeited_game_text(name: str, league: LeagueView, game_id: int) -> str:
    """The line posted in a game ended as a forfeit because a player left the league."""
    return (
        f"Game #{game_id} is over: {name} left {league_heading(league)}, so it counts as a "
        f"loss for {name} and a win for their opponent."
    )


def season_label(view: LeagueView) -> str:
    """ "season 2" for the season shown, "no season yet" before the first."""
    return f"season {view.season.number}" if view.season else "no season yet"


__all__ = [
    "MOVE_MARKS",
    "departure_text",
    "divisions_message",
    "forfeited_game_text",
    "format_text",
    "history_message",
    "league_heading",
    "league_list_message",
    "league_summary",
    "news_message",
    "season_label",
    "standings_message",
    "withdrawal_line",
]
