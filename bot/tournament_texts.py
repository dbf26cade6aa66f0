"""The words both front ends show for ratings and tournaments.

Tables are monospaced text for a code block; a `TableMessage` keeps the table apart
from the lines around it so a front end can shorten a long one (Discord allows 2,000
characters a message) and attach the whole table instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.competition.glicko2 import PROVISIONAL_DEVIATION
from bot.competition.tables import display_width, fit
from bot.competition.tournament import Format
from bot.services.ratings import LeaderboardEntry, RatingCard
from bot.services.results import GameView
from bot.services.tournament_views import Cancellation, TournamentView, Withdrawal
from bot.storage.competition import PairingRecord, TournamentStatus
from bot.texts import Style, game_title, start_caption
from rules import get_game

MESSAGE_LIMIT = 2000
"""The most characters a Discord message holds."""


@dataclass(frozen=True, slots=True)
class TableMessage:
    """A message made of a head, a table (shown as a code block) and a tail."""

    head: str
    table: str
    tail: str = ""

    def text(self) -> str:
        """The whole message."""
        return self._with(self.table)

    def shortened(self, limit: int = MESSAGE_LIMIT) -> tuple[str, bool]:
        """The message within `limit` characters, and whether table lines were left out.

        The table's heading line is always kept; whole lines are dropped from the end.
        """
        text = self.text()
        if len(text) <= limit:
            return text, False
        lines = self.table.split("\n")
        kept = len(lines)
        while kept > 1:
            kept -= 1
            cut = "\n".join([*lines[:kept], f"… {len(lines) - kept} more lines (attached)"])
            text = self._with(cut)
            if len(text) <= limit:
                return text, True
        return self._with(lines[0])[:limit], True

    def _with(self, table: str) -> str:
        parts = [self.head, f"```\n{table}\n```"]
        if self.tail:
            parts.append(self.tail)
        return "\n".join(part for part in parts if part)


# --- ratings ---


def rating_line(card: RatingCard) -> str:
    """One game's rating: "**Groups**: 1662? (± 290) · 1 game: 1 won, 0 drawn, 0 lost"."""
    current = card.current
    if not card.stored.games:
        return f"**{card.game_title}**: {current.display()} (no rated games yet)"
    return (
        f"**{card.game_title}**: {current.display()} (± {round(current.deviation)}) · "
        f"{card.record_text}"
    )


def rating_text(
    name: str,
    cards: Sequence[RatingCard],
    *,
    rank: tuple[int, int] | None = None,
    style: Style | None = None,
) -> str:
    """/rating: a user's ratings, one game a line; `rank` on this server for one game."""
    if not cards:
        return f"{name} has not played a rated game yet: every rating starts at 1500?."
    lines = [f"Ratings of **{name}**:" if len(cards) > 1 else f"Rating of **{name}**:"]
    for card in cards:
        line = rating_line(card)
        if style is not None and card.stored.last_rated_at is not None:
            line += f" · last rated game {style.when(card.stored.last_rated_at)}"
        lines.append(line)
    if rank is not None:
        lines.append(f"Place {rank[0]} of {rank[1]} on this server's leaderboard.")
    if any(card.current.is_provisional for card in cards):
        lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines)


PROVISIONAL_NOTE = (
    f"? provisional: the rating is still uncertain (deviation above {PROVISIONAL_DEVIATION:g}) "
    "after few games or a long break."
)
"""What the question mark after a rating means."""


def leaderboard_message(game: str, entries: Sequence[LeaderboardEntry]) -> TableMessage:
    """/leaderboard: the server's best players in a game as a table."""
    title = get_game(game).title
    if not entries:
        return TableMessage(
            f"Nobody has played rated {title} on this server yet.",
            "",
        )
    rows = [["#", "Player", "Rating", "±", "Games", "W-D-L"]]
    for entry in entries:
        card = entry.card
        stored = card.stored
        rows.append(
            [
                str(entry.rank),
                fit(stored.name, 18).rstrip(),
                card.current.display(),
                str(round(card.current.deviation)),
                str(stored.games),
                f"{stored.wins}-{stored.draws}-{stored.losses}",
            ]
        )
    table = aligned(rows, left_columns=2)
    tail = PROVISIONAL_NOTE if any(e.card.current.is_provisional for e in entries) else ""
    return TableMessage(f"**{title}** leaderboard", table, tail)


def aligned(rows: Sequence[Sequence[str]], *, left_columns: int) -> str:
    """Rows as aligned columns; the first `left_columns` flush left, the rest right."""
    widths = [max(display_width(cell) for cell in column) for column in zip(*rows, strict=True)]
    lines = []
    for row in rows:
        cells = [
            fit(cell, width) if index < left_columns else " " * (width - display_width(cell)) + cell
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


# --- tournaments ---


def tournament_heading(view: TournamentView) -> str:
    """The tournament's name in bold with its number: "**Spring Swiss** (#3)"."""
    return f"**{view.record.name}** (#{view.id})"


def rounds_text(view: TournamentView) -> str:
    """How many rounds: "5 rounds", or what decides it before the start."""
    record = view.record
    if record.rounds is not None:
        return "1 round" if record.rounds == 1 else f"{record.rounds} rounds"
    if record.format is Format.SWISS:
        if record.swiss_rounds is None:
            return "rounds set by the number of players"
        return "1 round" if record.swiss_rounds == 1 else f"{record.swiss_rounds} rounds"
    if record.format is Format.ROUND_ROBIN:
        return "everyone meets everyone once"
    if record.format is Format.DOUBLE_ROUND_ROBIN:
        return "everyone meets everyone twice"
    return "knockout, seeded by rating"


def tournament_summary(view: TournamentView, style: Style) -> str:
    """What a tournament is: game, format, clock, who runs it, entries, where it stands."""
    record = view.record
    game = get_game(record.game)
    clock = "no clock" if record.time_control == "none" else f"{record.time_control} clock"
    lines = [
        f"{tournament_heading(view)} · {game_title(game, record.options)} · "
        f"{record.format.label}, {rounds_text(view)} · {clock} · "
        f"{'rated' if record.rated else 'casual (unrated)'}",
        f"Organised by {style.mention(record.organiser_id, record.organiser_name)} · "
        f"{len(view.entrants)} of {record.max_players} players entered.",
    ]
    if record.status is TournamentStatus.OPEN:
        if record.entry_closes_at is not None:
            lines.append(
                f"Join with /tournament join; entries close and it starts "
                f"{style.when(record.entry_closes_at)}."
            )
        else:
            lines.append("Join with /tournament join; the organiser starts it.")
    elif record.status is TournamentStatus.RUNNING:
        lines.append(f"Round {view.current_round} of {record.rounds} is being played.")
    else:
        lines.append(_ended(view, style))
    return "\n".join(lines)


def _ended(view: TournamentView, style: Style) -> str:
    if view.record.status is TournamentStatus.FINISHED:
        return f"Finished: {winner_text(view, style)}."
    return "Cancelled."


def announcement_text(view: TournamentView, style: Style) -> str:
    """The announcement once entries have closed (its buttons removed): what it is and
    where to follow it, in words that stay true while the rounds go on."""
    record = view.record
    if record.status is TournamentStatus.OPEN:
        return tournament_summary(view, style)
    head = tournament_summary(view, style).split("\n")[:2]
    if record.status is TournamentStatus.RUNNING:
        started = style.when(record.started_at) if record.started_at is not None else "now"
        head.append(
            f"Entries are closed: it started {started}. /tournament pairings and "
            "/tournament standings show how it goes."
        )
    else:
        head.append(f"Entries are closed. {_ended(view, style)}")
    return "\n".join(head)


def entrants_text(view: TournamentView) -> str:
    """The entrants' names, in the order they joined (or by seed once started)."""
    if not view.entrants:
        return "Nobody has entered yet."
    names = [f"{e.name}{' (withdrawn)' if e.withdrawn else ''}" for e in view.entrants]
    return f"Players ({len(names)}): " + ", ".join(names) + "."


def winner_text(view: TournamentView, style: Style) -> str:
    """Who won: "@alice wins" or "@alice and @bob share first place"."""
    state = view.state
    if state is None:
        return "no winner"
    standings = state.standings()
    top = [s for s in standings if s.rank == 1]
    names = view.names
    mentions = [style.mention(s.player, names[s.player]) for s in top]
    if len(mentions) == 1:
        return f"{mentions[0]} wins"
    return f"{', '.join(mentions[:-1])} and {mentions[-1]} share first place"


def tiebreak_note(view: TournamentView) -> str:
    """The tie-break columns spelled out, for under a standings table."""
    shown = [t for t in view.record.format.tiebreaks if t.value != "Wins"]
    if not shown:
        return ""
    return "Tie-breaks: " + ", ".join(f"{t.value} = {t.label}" for t in shown) + "."


def standings_message(view: TournamentView) -> TableMessage:
    """/tournament standings: the table after the rounds played so far."""
    state = view.state
    record = view.record
    if state is None:
        return TableMessage(
            f"{tournament_heading(view)} has not started yet.\n{entrants_text(view)}", ""
        )
    done = sum(1 for n in range(1, state.current_round + 1) if state.is_round_complete(n))
    if record.status is TournamentStatus.FINISHED:
        head = f"{tournament_heading(view)} · final standings"
    else:
        head = f"{tournament_heading(view)} · standings after {done} of {record.rounds} rounds"
    return TableMessage(head, state.standings_table(view.names), tiebreak_note(view))


def pairings_message(view: TournamentView, number: int | None = None) -> TableMessage:
    """/tournament pairings: one round's games with results so far (the latest round)."""
    state = view.state
    if state is None or state.current_round == 0:
        return TableMessage(f"{tournament_heading(view)} has no pairings yet.", "")
    number = state.current_round if number is None else number
    if not 1 <= number <= state.current_round:
        return TableMessage(
            f"{tournament_heading(view)} has paired rounds 1 to {state.current_round} so far.",
            "",
        )
    colours = tuple(get_game(view.record.game).colours)
    table = state.pairings_table(number, view.names, seats=(colours[0], colours[1]))
    resting = [view.names[p] for p in state.resting(number)]
    tail = f"Not playing this round: {', '.join(resting)}." if resting else ""
    head = f"{tournament_heading(view)} · round {number} of {view.record.rounds}"
    return TableMessage(head, table, tail)


def round_started_message(view: TournamentView, number: int) -> TableMessage:
    """The announcement of a new round, with its pairings."""
    pairings = pairings_message(view, number)
    record = view.record
    if number == 1:
        head = (
            f"{tournament_heading(view)} has started with {len(view.entrants)} players: "
            f"round 1 of {record.rounds}."
        )
    else:
        head = f"{tournament_heading(view)}: round {number} of {record.rounds} has started."
    tail = "Each game has its own thread; results reach the tournament by themselves."
    if pairings.tail:
        tail = f"{pairings.tail}\n{tail}"
    return TableMessage(head, pairings.table, tail)


def final_message(view: TournamentView, style: Style) -> TableMessage:
    """The end of a tournament: the winner and the final standings."""
    standings = standings_message(view)
    head = f"🏆 {tournament_heading(view)} is over: {winner_text(view, style)}!\nFinal standings:"
    return TableMessage(head, standings.table, standings.tail)


def board_label(view: TournamentView, pairing: PairingRecord) -> str:
    """Where a game stands in its round: "round 2, board 1" (and whether it is a replay)."""
    boards = [p for p in view.round_pairings(pairing.round) if p.second_id is not None]
    number = next(i for i, p in enumerate(boards, start=1) if p.id == pairing.id)
    meeting = {pairing.first_id, pairing.second_id}
    replay = any({p.first_id, p.second_id} == meeting for p in boards[: number - 1])
    label = f"round {pairing.round}, board {number}"
    return f"{label}, replay after a draw" if replay else label


def tournament_game_caption(
    view: TournamentView, pairing: PairingRecord, game: GameView, style: Style
) -> str:
    """The first message of a tournament game: the tournament and round, then the game."""
    return (
        f"{tournament_heading(view)} · {board_label(view, pairing)}\n{start_caption(game, style)}"
    )


def withdrawal_text(withdrawal: Withdrawal) -> str:
    """The answer to /tournament withdraw."""
    view = withdrawal.tournament
    name = view.names.get(withdrawal.player_id, "The player")
    if view.record.status is TournamentStatus.OPEN and view.entrant(withdrawal.player_id) is None:
        return f"{name} is no longer entered in {tournament_heading(view)}."
    lines = [f"{name} withdrew from {tournament_heading(view)}; their results so far stand."]
    for game in withdrawal.resigned:
        lines.append(f"Game #{game.id} is lost: {game.record.result_reason}.")
    for game in withdrawal.aborted:
        lines.append(f"Game #{game.id} had not begun: it counts as a forfeit.")
    return "\n".join(lines)


def cancellation_text(cancellation: Cancellation, reason: str | None = None) -> str:
    """The announcement of a cancelled tournament."""
    view = cancellation.tournament
    because = f": {reason}" if reason else ""
    lines = [f"{tournament_heading(view)} was cancelled{because}."]
    if cancellation.aborted:
        games = ", ".join(f"#{game.id}" for game in cancellation.aborted)
        lines.append(f"Games in progress were aborted without a result: {games}.")
    return "\n".join(lines)


def aborted_text(game: GameView) -> str:
    """Posted where an aborted tournament game was played."""
    return f"Game #{game.id} was aborted: {game.record.result_reason}. It has no result."
