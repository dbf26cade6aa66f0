"""The words both front ends show for ratings and tournaments.

Tables are monospaced text for a code block; a `TableMessage` keeps the table apart
from the lines around it so a front end can shorten a long one (Discord allows 2,000
characters a message) and attach the whole table instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.competition.elimination import stage_name
from bot.competition.glicko2 import PROVISIONAL_DEVIATION
from bot.competition.tables import display_width, fit
from bot.competition.tournament import Format
from bot.services.competition.ratings import LeaderboardEntry, RatingCard
from bot.services.durations import parse_time_control
from bot.services.views.results import GameView
from bot.services.views.tournaments import (
    Cancellation,
    TournamentPage,
    TournamentView,
    Withdrawal,
)
from bot.storage.competition import PairingRecord, TournamentStatus
from bot.texts.games import Style, game_title, start_caption
from rules import get_game

MESSAGE_LIMIT = 2000
"""The most characters a Discord message holds."""
NAMES_BUDGET = 400
"""Characters a list of names in running text may take before "and N more"."""
MANY_BYES = 8
"""More byes than this in a round are counted, not named (the table names them)."""


@dataclass(frozen=True, slots=True)
class TableMessage:
    """A message made of a head, a table (shown as a code block) and a tail.

    With `code` False the table is a plain list of lines (Discord formatting allowed).
    """

    head: str
    table: str
    tail: str = ""
    code: bool = True

    def text(self) -> str:
        """The whole message."""
        return self._with(self.table)

    def plain(self) -> str:
        """The whole message without code fences, as a text file holds it."""
        return "\n".join(part for part in (self.head, self.table, self.tail) if part) + "\n"

    def shortened(self, limit: int = MESSAGE_LIMIT) -> tuple[str, bool]:
        """The message within `limit` characters, and whether lines were left out.

        Whole lines are dropped from the end of the table (its heading line kept when
        there is room); nothing is ever cut inside a line. Should the head and tail alone
        be too long, whole lines of the message are kept from its start.
        """
        text = self.text()
        if len(text) <= limit:
            return text, False
        lines = self.table.split("\n") if self.table else []
        kept = len(lines)
        while kept > 0:
            kept -= 1
            cut = "\n".join([*lines[:kept], f"… {len(lines) - kept} more lines (attached)"])
            text = self._with(cut)
            if len(text) <= limit:
                return text, True
        note = "… (the whole message is attached)"
        fitted: list[str] = []
        for line in self.plain().split("\n"):
            if len("\n".join([*fitted, line, note])) > limit:
                break
            fitted.append(line)
        return "\n".join([*fitted, note]), True

    def _with(self, table: str) -> str:
        body = f"```\n{table}\n```" if self.code and table else table
        return "\n".join(part for part in (self.head, body, self.tail) if part)


def names_list(names: Sequence[str], budget: int = NAMES_BUDGET) -> str:
    """Names joined with commas, as many as fit in `budget` characters, then how many
    more ("alice, bob and 12 more"); never a name cut in two."""
    shown: list[str] = []
    for index, name in enumerate(names):
        rest = len(names) - index - 1
        more = f" and {rest} more" if rest else ""
        if len(", ".join([*shown, name])) + len(more) > budget and shown:
            return f"{', '.join(shown)} and {len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown)


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
    return "seeded by rating"


LIST_STATUS = {
    TournamentStatus.OPEN: "taking entries",
    TournamentStatus.RUNNING: "running",
    TournamentStatus.FINISHED: "finished",
    TournamentStatus.CANCELLED: "cancelled",
}


def tournament_list_message(listed: TournamentPage) -> TableMessage:
    """/tournament list: one line per tournament, going ones first, then ended ones."""
    if not listed.records:
        return TableMessage(
            "No tournament has been held here yet. Organisers start one with /tournament create.",
            "",
        )
    lines = [
        f"#{r.id} **{r.name}** · {get_game(r.game).title} · {r.format.label} · "
        f"{LIST_STATUS[r.status]}"
        for r in listed.records
    ]
    head = f"Tournaments on this server ({listed.total}):"
    tail = ""
    if listed.pages > 1:
        head = f"Tournaments on this server ({listed.total}), page {listed.page} of {listed.pages}:"
        if listed.page < listed.pages:
            tail = f"More on page {listed.page + 1} (the `page` option)."
    return TableMessage(head, "\n".join(lines), tail, code=False)


def tournament_summary(view: TournamentView, style: Style) -> str:
    """What a tournament is: game, format, clock, who runs it, entries, where it stands."""
    record = view.record
    game = get_game(record.game)
    clock = parse_time_control(record.time_control).describe()
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


def entrant_names(view: TournamentView) -> list[str]:
    """The entrants' names, in the order they joined (or by seed once started)."""
    return [f"{e.name}{' (withdrawn)' if e.withdrawn else ''}" for e in view.entrants]


def entrants_text(view: TournamentView, budget: int | None = None) -> str:
    """ "Players (3): alice, bob, dave." — with a `budget`, as many names as fit, then
    how many more."""
    names = entrant_names(view)
    if not names:
        return "Nobody has entered yet."
    listed = ", ".join(names) if budget is None else names_list(names, budget)
    return f"Players ({len(names)}): {listed}."


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
    """/tournament standings: the table after the rounds played so far (before the
    start, the entrants; for a cancelled tournament, where it stopped)."""
    state = view.state
    record = view.record
    heading = tournament_heading(view)
    if state is None:
        if record.status is TournamentStatus.CANCELLED:
            return TableMessage(f"{heading} was cancelled before it started.", "")
        if not view.entrants:
            return TableMessage(f"{heading} has not started yet. Nobody has entered yet.", "")
        names = entrant_names(view)
        table = "\n".join(f"{n:>3}  {name}" for n, name in enumerate(names, start=1))
        head = f"{heading} has not started yet. Players entered ({len(names)}), in order of entry:"
        return TableMessage(head, table)
    done = sum(1 for n in range(1, state.current_round + 1) if state.is_round_complete(n))
    if record.status is TournamentStatus.FINISHED:
        head = f"{heading} · final standings"
    elif record.status is TournamentStatus.CANCELLED:
        head = f"{heading} was cancelled after {done} of {record.rounds} rounds: the standings then"
    else:
        head = f"{heading} · standings after {done} of {record.rounds} rounds"
    return TableMessage(head, state.standings_table(view.names), tiebreak_note(view))


def pairings_message(view: TournamentView, number: int | None = None) -> TableMessage:
    """/tournament pairings: one round's games with results so far (the latest round)."""
    state = view.state
    heading = tournament_heading(view)
    cancelled = view.record.status is TournamentStatus.CANCELLED
    if state is None or state.current_round == 0:
        if cancelled:
            return TableMessage(f"{heading} was cancelled before any round was paired.", "")
        return TableMessage(f"{heading} has no pairings yet.", "")
    number = state.current_round if number is None else number
    if not 1 <= number <= state.current_round:
        return TableMessage(
            f"{heading} has paired rounds 1 to {state.current_round} so far.",
            "",
        )
    colours = tuple(get_game(view.record.game).colours)
    table = state.pairings_table(number, view.names, seats=(colours[0], colours[1]))
    tail = resting_text(view, number)
    head = f"{heading} · round {number} of {view.record.rounds}"
    if cancelled:
        head += " (the tournament was cancelled)"
    return TableMessage(head, table, tail)


def resting_text(view: TournamentView, number: int) -> str:
    """Who has no game in round `number` (a round robin's rest, a withdrawn player), or ""."""
    state = view.state
    resting = [view.names[p] for p in state.resting(number)] if state is not None else []
    return f"Not playing this round: {names_list(resting)}." if resting else ""


def byes_text(view: TournamentView, number: int) -> str:
    """Who has a bye in round `number`, and what it gives them."""
    byes = [view.names[p.first_id] for p in view.round_pairings(number) if p.second_id is None]
    if not byes:
        return ""
    record = view.record
    many = len(byes) > MANY_BYES
    listed = f"{len(byes)} players (in the table)" if many else ", ".join(byes)
    if record.format is Format.SINGLE_ELIMINATION and record.rounds is not None:
        through = (
            "win the tournament"
            if number == record.rounds
            else f"go through to {stage_name(number + 1, record.rounds)}"
        )
        if len(byes) == 1:
            return f"{byes[0]} has a bye: they {through} without playing."
        return f"Byes: {listed} {through} without playing."
    return f"{byes[0]} has the bye: a point without playing."


def seed_advance_text(view: TournamentView, pairing: PairingRecord) -> str:
    """A knockout match drawn to its last game: the better seed goes through, and why."""
    state = view.state
    match = state.seed_decision(pairing.pairing) if state is not None else None
    rounds = view.record.rounds
    if match is None or match.winner is None or rounds is None:
        return ""
    loser = pairing.first_id if match.winner != pairing.first_id else pairing.second_id
    assert loser is not None
    seeds = {entrant.user_id: entrant.seed for entrant in view.entrants}
    names = view.names
    winner_name, loser_name = names[match.winner], names[loser]
    if pairing.round == rounds:
        what = "wins the final"
    else:
        what = f"goes through to {stage_name(pairing.round + 1, rounds)}"
    games = "both games" if len(match.games) == 2 else f"all {len(match.games)} games"
    return (
        f"{tournament_heading(view)} · {stage_name(pairing.round, rounds)}: {winner_name} and "
        f"{loser_name} drew {games}, so {winner_name} {what} as the better seed "
        f"(seed {seeds[match.winner]} against seed {seeds[loser]})."
    )


ROUND_POSTED_AT_ONCE = 4
"""Above this many games, a round's threads take a while (channels allow 5 posts per 5 s)."""


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
    games = sum(1 for p in view.round_pairings(number) if p.second_id is not None)
    if games > ROUND_POSTED_AT_ONCE:
        tail = (
            f"The round is being set up: its {games} games get their threads a few at a "
            "time (Discord limits how fast a channel may be posted in). Results reach the "
            "tournament by themselves."
        )
    else:
        tail = "Each game has its own thread; results reach the tournament by themselves."
    tail = "\n".join(part for part in (byes_text(view, number), pairings.tail, tail) if part)
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
        lines.append(forfeit_text(game, withdrawal.player_id, name))
    return "\n".join(lines)


def forfeit_text(game: GameView, absent_id: int, absent: str) -> str:
    """A tournament game not played because `absent` withdrew: a forfeit, said one way
    everywhere (the game itself is won by the opponent by forfeit, unrated)."""
    seat = game.record.seat_of(absent_id)
    outcome = "it is a forfeit" if seat is None else f"{game.name(1 - seat)} wins it by forfeit"
    return (
        f"Game #{game.id} had not begun and will not be played: {absent} withdrew, so "
        f"{outcome} (no rating changes)."
    )


def cancellation_text(cancellation: Cancellation, reason: str | None = None) -> str:
    """The announcement of a cancelled tournament."""
    view = cancellation.tournament
    because = f": {reason}" if reason else ""
    lines = [f"{tournament_heading(view)} was cancelled{because}."]
    if cancellation.aborted:
        games = ", ".join(f"#{game.id}" for game in cancellation.aborted)
        lines.append(f"Games in progress were aborted without a result: {games}.")
    return "\n".join(lines)


def aborted_text(game: GameView, tournament: TournamentView | None = None) -> str:
    """Posted where an aborted tournament game was played: a forfeit when the tournament
    scored the game as one (a player withdrew), else no result (a cancellation)."""
    pairing = None
    if tournament is not None:
        pairing = next((p for p in tournament.pairings if p.game_id == game.id), None)
    result = None if pairing is None else pairing.result
    if tournament is not None and pairing is not None and result is not None:
        won = result.winner_seat
        if result.is_forfeit and won is not None:
            absent_id = pairing.second_id if won == 0 else pairing.first_id
            if absent_id is not None:
                return forfeit_text(game, absent_id, tournament.names.get(absent_id, "a player"))
    return f"Game #{game.id} was aborted: {game.record.result_reason}. It has no result."
