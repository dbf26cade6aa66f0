"""`ConditionalService`: replies a player queues while the opponent is to move.

A player adds lines (`add`) in a game where it is the opponent's turn; each line is read
through the rules from the position the player last saw and joins the player's tree
(`bot.services.correspondence.conditional_lines`). When the opponent completes a turn, `respond` (a
`GameService` responder, inside the turn's transaction) plays the reply of the line that
expected it, by the path of any move, and keeps the rest of the tree. Any other turn, or
a reason not to play (the game ended, a request to take back moves, a draw offer to
answer, the player's vacation), clears the tree and tells the player privately: by
direct message where they accept them, else with their next command (`take_notes`).

An undo that takes back a turn answered this way takes back the reply with it and brings
the tree back as it was (`on_undo`: the trees are kept per position); any other undo
past the tree's position clears it. The opponent is never told that a tree exists.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.services.announcing.announcements import conditional_dm_row
from bot.services.announcing.outbox import Outbox
from bot.services.clock import Clock
from bot.services.correspondence.conditional_lines import (
    MAX_REPLIES,
    Branch,
    ReplyConflict,
    Tree,
    complete_line,
    decode_tree,
    encode_tree,
    follow,
    graft,
    lines_of,
    read_line,
    replies_in,
    shown,
)
from bot.services.errors import (
    ConflictError,
    InvalidInputError,
    InvalidStateError,
    NotFoundError,
    ServiceError,
)
from bot.services.games.games import CONFLICT, STALE_RETRIES, GameService, Turn, visible
from bot.services.views.conditional_notes import ClearedNote, ClearedNotice, ClearReason
from bot.services.views.results import GameView
from bot.storage.conditionals import StoredTree
from bot.storage.repository import GameRecord, GameStatus, LockKind, Repository, StaleGameError
from rules import GameError, GameState

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LineEnd:
    """One line of a tree and the position it leads to."""

    steps: tuple[str, ...]
    """The line's turns, stored form, the opponent's first."""
    view: GameView
    """The game as it would stand after the line."""


@dataclass(frozen=True, slots=True)
class TreeView:
    """A player's conditional moves in one game."""

    record: GameRecord
    seat: int
    """The seat of the player whose tree it is."""
    tree: Tree
    ends: tuple[LineEnd, ...]
    """Every line, in the order added, with the position after it."""

    @property
    def replies(self) -> int:
        """How many replies the tree holds."""
        return replies_in(self.tree)

    @property
    def opponent(self) -> str:
        """The name of the opponent, whose turns the lines expect."""
        return self.record.names[1 - self.seat]


@dataclass(frozen=True, slots=True)
class Added:
    """A line added to a tree (or found in it already)."""

    tree: TreeView
    line: LineEnd
    new: bool
    """False when the tree held the line already (nothing changed)."""


class ConditionalService:
    """Stores, lists, clears and plays conditional moves."""

    def __init__(
        self, repository: Repository, clock: Clock, games: GameService, outbox: Outbox
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._games = games
        self._outbox = outbox

    def attach(self) -> None:
        """Follow the games: answer completed turns, keep trees in step with undos, and
        drop them when a game ends."""
        self._games.responders.append(self.respond)
        self._games.undo_writers.append(self.on_undo)
        self._games.finish_hooks.append(self.on_finish)

    # --- what players do ---

    async def add(self, game_id: int, user_id: int, text: str) -> Added:
        """Add the line `text` to the player's tree in the game (see the module's doc)."""
        for _ in range(STALE_RETRIES):
            try:
                return await self._add(game_id, user_id, text)
            except StaleGameError:
                log.info("game %s changed while a line was added; reading it again", game_id)
        raise ConflictError(CONFLICT)

    async def _add(self, game_id: int, user_id: int, text: str) -> Added:
        record = await self._games.record(game_id)
        seat = self._games.check_player(record, user_id)
        if not record.is_active:
            raise InvalidStateError("This game is over.")
        opponent = record.names[1 - seat]
        if record.to_move == seat:
            raise InvalidStateError(
                f"It is your turn in game #{game_id}: conditional moves are stored while "
                f"{opponent} is to move. Play your move first."
            )
        base, state = await self._games.turn_start(record)
        line = read_line(state, text, owner=seat, names=record.names)
        async with self._repository.atomic():
            await self._repository.lock(LockKind.GAME, game_id)
            fresh = await self._repository.get_game(game_id)
            if fresh is None or fresh.version != record.version:
                raise StaleGameError(f"game {game_id} changed while a line was read")
            stored = await self._repository.conditional_tree(game_id, user_id)
            tree = _live(stored, base)
            try:
                grown = graft(tree, line.texts)
            except ReplyConflict as conflict:
                raise InvalidInputError(
                    f"Your conditional moves already answer {opponent}'s "
                    f"{shown(conflict.expected)!r} with {shown(conflict.reply)!r}, not "
                    f"{shown(conflict.wanted)!r}: each turn gets one reply. Nothing was "
                    "stored; /conditional clear removes them all."
                ) from None
            if replies_in(grown) > MAX_REPLIES:
                raise InvalidInputError(
                    f"At most {MAX_REPLIES} replies can be stored in one game. Nothing was stored."
                )
            if grown != tree:
                await self._repository.save_conditional_tree(
                    StoredTree(game_id, user_id, base, encode_tree(grown), self._clock.now())
                )
        view = _tree_view(record, seat, grown, state, base)
        end = LineEnd(line.texts, _position(record, line.end, base + _moves(line.texts)))
        return Added(view, end, grown != tree)

    async def suggest(
        self, game_id: int, user_id: int, typed: str, *, limit: int = 25, max_length: int = 100
    ) -> list[str]:
        """Autocomplete for a line being typed (see `complete_line`); empty when the user
        cannot store lines in this game now."""
        record = await self._games.record(game_id)
        seat = record.seat_of(user_id)
        if seat is None or not record.is_active or record.to_move == seat:
            return []
        _, state = await self._games.turn_start(record)
        return complete_line(state, typed, limit=limit, max_length=max_length)

    async def trees(
        self, user_id: int, *, guild_id: int | None, game_id: int | None = None
    ) -> list[TreeView]:
        """The player's conditional moves in their games visible from `guild_id` (None:
        a direct message), or in one game; only trees that still apply."""
        if game_id is not None:
            record = await self._visible(game_id, user_id, guild_id)
            self._games.check_player(record, user_id)
            found = await self._repository.conditional_tree(game_id, user_id)
            stored = [found] if found is not None else []
        else:
            stored = await self._repository.conditional_trees(user_id)
        views = []
        for item in stored:
            record = await self._games.record(item.game_id)
            if not visible(record, user_id, guild_id):
                continue
            view = await self._current(record, user_id, item)
            if view is not None:
                views.append(view)
        return views

    async def which(
        self, user_id: int, location: int, *, guild_id: int | None, game_id: int | None = None
    ) -> int:
        """The game a command means: the one named (if visible there), else the caller's
        game played in `location`, else their one game with conditional moves."""
        if game_id is not None:
            return (await self._games.find(user_id, location, game_id, guild_id=guild_id)).id
        try:
            return (await self._games.find(user_id, location, guild_id=guild_id)).id
        except NotFoundError:
            trees = await self.trees(user_id, guild_id=guild_id)
        if len(trees) == 1:
            return trees[0].record.id
        if not trees:
            raise NotFoundError("You have no conditional moves in any game here.")
        listed = ", ".join(f"#{tree.record.id}" for tree in trees[:10])
        raise NotFoundError(
            f"You have conditional moves in {len(trees)} games: name one with its number "
            f"({listed})."
        )

    async def clear(self, game_id: int, user_id: int, *, guild_id: int | None) -> TreeView:
        """Remove the player's conditional moves in the game; what was removed."""
        record = await self._visible(game_id, user_id, guild_id)
        self._games.check_player(record, user_id)
        async with self._repository.atomic():
            await self._repository.lock(LockKind.GAME, game_id)
            stored = await self._repository.conditional_tree(game_id, user_id)
            view = None if stored is None else await self._current(record, user_id, stored)
            await self._repository.drop_conditional_trees(game_id, user_id)
        if view is None:
            raise InvalidStateError(f"You have no conditional moves in game #{game_id}.")
        log.debug("user %s cleared %d conditional replies in game %s", user_id, view.replies,
                 game_id)  # fmt: skip
        return view

    async def take_notes(self, user_id: int) -> list[ClearedNotice]:
        """What the player has not been told yet about cleared conditional moves, oldest
        first (taken: call `give_back` if showing them fails)."""
        notes = await self._repository.take_conditional_notes(user_id, self._clock.now())
        notices = []
        for stored in notes:
            note = ClearedNote.from_data(stored.data)
            record = await self._repository.get_game(note.game_id)
            if record is not None:
                notices.append(ClearedNotice(note, record, stored.id))
        return notices

    async def give_back(self, notices: Sequence[ClearedNotice]) -> None:
        """Notes taken but not shown: the player's next command shows them."""
        ids = [notice.note_id for notice in notices if notice.note_id is not None]
        if ids:
            await self._repository.return_conditional_notes(ids)

    async def keep_note(self, note: ClearedNote) -> None:
        """Keep a note for the player's next command (a direct message was refused)."""
        await self._repository.add_conditional_note(
            note.user_id, note.game_id, note.data(), self._clock.now()
        )

    # --- following the games ---

    async def respond(self, turn: Turn) -> None:
        """A turn was completed: play the waiting player's conditional reply to it, or
        clear their tree and tell them why not (inside the turn's transaction)."""
        result = turn.result
        record = result.view.record
        owner_seat = 1 - result.move.seat
        owner = record.players[owner_seat]
        if owner is None:
            return
        base = result.turn_moves[0].ply - 1
        tree = _live(await self._repository.conditional_tree(record.id, owner), base)
        if not tree:
            return
        played = ",".join(move.notation for move in result.turn_moves)
        note = ClearedNote(owner, record.id, ClearReason.DEVIATED, played)
        branch = follow(tree, played)
        asked = turn.before.undo_request
        offer = record.draw_offer
        if result.finished:
            note = ClearedNote(owner, record.id, ClearReason.GAME_ENDED, played)
        elif branch is None:
            pass  # no line expected this turn
        elif asked is not None and asked.open:
            note = ClearedNote(owner, record.id, ClearReason.UNDO_REQUESTED, played, asked.seat)
        elif offer is not None and offer.open and offer.seat != owner_seat:
            note = ClearedNote(owner, record.id, ClearReason.DRAW_OFFERED, played)
        elif await self._away(owner):
            note = ClearedNote(owner, record.id, ClearReason.VACATION, played)
        else:
            refused = await self._reply(turn, owner, branch)
            if refused is None:
                return
            note = ClearedNote(owner, record.id, ClearReason.UNPLAYABLE, played, None, refused)
        log.debug("game %s: conditional moves of user %s cleared (%s)", record.id, owner,
                 note.reason.value)  # fmt: skip
        await self._repository.drop_conditional_trees(record.id, owner)
        await self._tell(note)

    async def _reply(self, turn: Turn, owner: int, branch: Branch) -> str | None:
        """Play the branch's reply and keep what follows it; None when done, else why
        the reply was refused."""
        try:
            reply = await turn.reply(branch.reply.split(","))
        except (GameError, ServiceError) as error:
            log.warning("game %s: conditional reply %r refused: %s", turn.result.view.id,
                        branch.reply, error)  # fmt: skip
            return str(error)
        after = reply.view.record
        await self._repository.save_conditional_tree(
            StoredTree(after.id, owner, after.ply, encode_tree(branch.then), self._clock.now())
        )
        log.debug("game %s: conditional reply %s played for user %s", after.id, branch.reply,
                 owner)  # fmt: skip
        return None

    async def on_undo(self, record: GameRecord, start: int) -> None:
        """Moves from ply `start` on were taken back (inside the undo's transaction): a
        tree from before a taken-back turn it answered comes back; a tree that no longer
        fits the position is cleared, and its player told."""
        kept = start - 1
        for seat, user in enumerate(record.players):
            if user is None:
                continue
            current = await self._repository.conditional_tree(record.id, user)
            if current is None or current.ply <= kept:
                continue
            await self._repository.drop_conditional_trees(record.id, user, after_ply=kept)
            restored = await self._repository.conditional_tree(record.id, user)
            if restored is not None and restored.ply == kept and record.to_move != seat:
                continue
            await self._repository.drop_conditional_trees(record.id, user)
            if decode_tree(current.tree):
                await self._tell(ClearedNote(user, record.id, ClearReason.TAKEN_BACK))

    async def on_finish(self, view: GameView) -> None:
        """A game ended: its trees are of no more use."""
        await self._repository.drop_conditional_trees(view.id)

    # --- helpers ---

    async def _visible(self, game_id: int, user_id: int, guild_id: int | None) -> GameRecord:
        record = await self._games.record(game_id)
        if not visible(record, user_id, guild_id):
            raise NotFoundError(f"There is no game #{game_id}.")
        return record

    async def _current(
        self, record: GameRecord, user_id: int, stored: StoredTree
    ) -> TreeView | None:
        """The tree as it applies now: None when it is empty or no longer applies."""
        seat = record.seat_of(user_id)
        if seat is None or record.status is not GameStatus.ACTIVE or record.to_move == seat:
            return None
        base, state = await self._games.turn_start(record)
        tree = _live(stored, base)
        return _tree_view(record, seat, tree, state, base) if tree else None

    async def _away(self, user_id: int) -> bool:
        vacation = await self._repository.open_vacation(user_id)
        return vacation is not None and vacation.is_on(self._clock.now())

    async def _tell(self, note: ClearedNote) -> None:
        """Tell the player (inside the transaction of the change): by direct message
        where they accept them, else with their next command."""
        settings = await self._repository.get_user_settings(note.user_id)
        if settings.wants_dms:
            await self._outbox.add([conditional_dm_row(note)])
        else:
            await self.keep_note(note)


def _live(stored: StoredTree | None, base: int) -> Tree:
    """The stored tree if it applies from `base` (the start of the opponent's turn)."""
    if stored is None or stored.ply != base:
        return ()
    return decode_tree(stored.tree)


def _moves(steps: Sequence[str]) -> int:
    return sum(len(step.split(",")) for step in steps)


def _position(record: GameRecord, state: GameState[Any], ply: int) -> GameView:
    """The game as it would stand at `state`, `ply` moves in (for a picture)."""
    outcome = state.outcome()
    shown_record = record.evolve(
        ply=ply,
        to_move=state.to_move,
        draw_offer=None,
        undo_request=None,
        status=GameStatus.ACTIVE if outcome is None else GameStatus.FINISHED,
        winner=None if outcome is None else outcome.winner,
        result_reason=None,
    )
    return GameView(shown_record, state)


def _tree_view(
    record: GameRecord, seat: int, tree: Tree, start: GameState[Any], base: int
) -> TreeView:
    """The tree with the position after each of its lines, from `start` (at ply `base`)."""
    ends = []
    for steps in lines_of(tree):
        state = start
        try:
            for step in steps:
                for move in step.split(","):
                    state = state.play_text(move)
        except GameError:
            log.error("game %s: a stored conditional line no longer replays: %s", record.id,
                      steps)  # fmt: skip
            continue
        ends.append(LineEnd(steps, _position(record, state, base + _moves(steps))))
    return TreeView(record, seat, tree, tuple(ends))
