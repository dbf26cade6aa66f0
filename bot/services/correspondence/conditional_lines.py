"""Conditional moves as data: reading a line through the rules, and the tree of lines.

A line alternates the opponent's expected turn and the player's reply: "e5 d4 f6 c3"
means if e5 then d4, then if f6 then c3. A turn of several moves (Diffusion Chess) is
one step, written as its moves joined by ","; a move with a space in it (Stones'
`stake e5`, a Rekushu claim `d13 c10-f13`) is one step too. Steps are kept in the game's
own notation (`format_move`), so a turn matches however it was typed.

A tree holds the lines of one player in one game, sharing their beginnings: each branch
is an expected turn, the one reply to it, and the branches that follow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.refusals import shorten
from bot.services.errors import InvalidInputError
from bot.services.games.suggest import rank_moves
from rules import GameError, GameState, IllegalMoveError, InvalidMoveError

MAX_STEPS = 40
"""The most steps one line may have (20 of the opponent's turns and 20 replies)."""
MAX_REPLIES = 100
"""The most replies a tree may hold."""

_COMMA = re.compile(r"\s*,\s*")


@dataclass(frozen=True, slots=True)
class Step:
    """One turn of a line: its moves in the game's notation, and who plays them."""

    moves: tuple[str, ...]
    seat: int

    @property
    def text(self) -> str:
        """The turn as stored and matched: its moves joined by ","."""
        return ",".join(self.moves)


@dataclass(frozen=True, slots=True)
class Line:
    """A line read through the rules: its steps and the position after the last."""

    steps: tuple[Step, ...]
    end: GameState[Any]

    @property
    def texts(self) -> tuple[str, ...]:
        """The steps as stored."""
        return tuple(step.text for step in self.steps)


@dataclass(frozen=True, slots=True)
class Branch:
    """If the opponent plays `expected`, answer `reply`; then follow `then`."""

    expected: str
    reply: str
    then: Tree = ()


Tree = tuple[Branch, ...]


def shown(step: str) -> str:
    """A stored step as players read it (a several-move turn with ", ")."""
    return ", ".join(step.split(","))


# --- reading a line ---


def _tokens(text: str) -> list[str]:
    """The line's words; the moves of one turn stay together ("a, b" is "a,b")."""
    return _COMMA.sub(",", text.strip()).split()


def _play_turn(state: GameState[Any], text: str) -> tuple[tuple[str, ...], GameState[Any]]:
    """Play one turn written as its moves joined by ","; its moves in notation and the
    state after. Raises the engine's `GameError`, or `InvalidInputError` when the moves
    are not exactly one whole turn."""
    seat = state.to_move
    moves: list[str] = []
    for part in text.split(","):
        if moves and (state.to_move != seat or state.outcome() is not None):
            raise InvalidInputError(f"the turn ends after {', '.join(moves)}")
        if not part:
            raise InvalidInputError("a move is missing between two commas")
        move = state.parse_move(part)
        moves.append(state.format_move(move))
        state = state.play(move)
    if state.to_move == seat and state.outcome() is None:
        left = getattr(state, "moves_left", None)
        more = f"{left} more move{'s' if left != 1 else ''}" if isinstance(left, int) else "more"
        raise InvalidInputError(
            f"that is not a whole turn: {more} to play, joined to it with commas"
        )
    return tuple(moves), state


def _who(seat: int, owner: int, names: tuple[str, str]) -> str:
    return "your reply" if seat == owner else f"{names[seat]}'s turn"


def read_line(state: GameState[Any], text: str, *, owner: int, names: tuple[str, str]) -> Line:
    """Read `text` as a line for the player in seat `owner`, from `state` (where the
    opponent is to move), playing every step through the rules.

    Refuses (`InvalidInputError`) naming the step and the reason: a move the rules do not
    allow there, a step that is not one whole turn, anything after the game would end, a
    line not ending with the player's reply, a line that is too long.
    """
    tokens = _tokens(text)
    if not tokens:
        raise InvalidInputError(
            "Write the line: your opponent's move, your reply, and so on (like e5 d4 f6 c3)."
        )
    steps: list[Step] = []
    index = 0
    while index < len(tokens):
        if len(steps) == MAX_STEPS:
            raise InvalidInputError(f"A line has at most {MAX_STEPS} steps.")
        number = len(steps) + 1
        if state.outcome() is not None:
            last = shown(steps[-1].text)
            raise InvalidInputError(
                f"The game would be over after {last!r} (step {number - 1}): "
                "nothing can follow it. Nothing was stored."
            )
        seat = state.to_move
        try:
            moves, state, used = _next_step(state, tokens, index)
        except _Refused as refused:
            typed = shorten(refused.typed, 40)
            who = _who(seat, owner, names)
            raise InvalidInputError(
                f"{typed!r} (step {number}, {who}): {refused.reason}. Nothing was stored."
            ) from None
        steps.append(Step(moves, seat))
        index += used
    if steps[-1].seat != owner:
        raise InvalidInputError(
            f"The line ends with {names[steps[-1].seat]}'s turn: end it with your reply."
        )
    return Line(tuple(steps), state)


class _Refused(Exception):
    """A step the rules refuse: what was typed, and why."""

    def __init__(self, typed: str, reason: str) -> None:
        super().__init__(reason)
        self.typed = typed
        self.reason = reason


def _next_step(
    state: GameState[Any], tokens: Sequence[str], index: int
) -> tuple[tuple[str, ...], GameState[Any], int]:
    """The turn starting at `tokens[index]`: a move with a space in it (two words that
    the rules read as one move) first, else the one word; and how many words it took."""
    word = tokens[index]
    refused: _Refused | None = None
    if index + 1 < len(tokens) and "," not in word and "," not in tokens[index + 1]:
        joined = f"{word} {tokens[index + 1]}"
        try:
            moves, after = _play_turn(state, joined)
        except IllegalMoveError as error:
            # Well-formed as one move (a stake, a claim): its reason is the one to give.
            refused = _Refused(joined, str(error))
        except (InvalidMoveError, InvalidInputError):
            pass
        else:
            return moves, after, 2
    try:
        moves, after = _play_turn(state, word)
    except (GameError, InvalidInputError) as error:
        raise refused or _Refused(word, str(error)) from None
    return moves, after, 1


def complete_line(
    state: GameState[Any], typed: str, *, limit: int = 25, max_length: int = 100
) -> list[str]:
    """Choices while a line is typed from `state`: the line with its last word completed
    to a legal move where it would be played, best first (at most `limit`, none longer
    than `max_length`). Empty when what was typed before it does not read."""
    text = _COMMA.sub(",", typed.lstrip())
    words = text.split()
    partial = "" if not words or text[-1].isspace() else words.pop()
    index = 0
    while index < len(words):
        try:
            _, state, used = _next_step(state, words, index)
        except _Refused:
            if index != len(words) - 1:
                return []
            partial = f"{words.pop()} {partial}"  # the first word of a move like stake e5
            break
        index += used
    done, _, last = partial.rpartition(",")
    turn: list[str] = []
    mover = state.to_move
    for part in done.split(",") if done else []:
        try:
            move = state.parse_move(part)
        except GameError:
            return []
        turn.append(state.format_move(move))
        state = state.play(move)
        if state.to_move != mover:
            return []
    if state.outcome() is not None:
        return []
    lead = " ".join(words) + (" " if words else "") + "".join(f"{move}," for move in turn)
    room = max_length - len(lead)
    if room <= 0:
        return []
    moves = rank_moves(state, state.legal_notations(), last, limit, room)
    return [lead + move for move in moves]


# --- the tree ---


class ReplyConflict(Exception):
    """A line answers an expected turn differently from the tree."""

    def __init__(self, expected: str, reply: str, wanted: str) -> None:
        super().__init__(f"{expected} is answered with {reply}, not {wanted}")
        self.expected = expected
        self.reply = reply
        self.wanted = wanted


def graft(tree: Tree, steps: Sequence[str]) -> Tree:
    """The tree with a line (expected turn, reply, ...) added; raises `ReplyConflict`
    when the tree already answers one of its expected turns with another reply."""
    if not steps:
        return tree
    expected, reply, rest = steps[0], steps[1], steps[2:]
    branches = list(tree)
    for index, branch in enumerate(branches):
        if branch.expected != expected:
            continue
        if branch.reply != reply:
            raise ReplyConflict(expected, branch.reply, reply)
        branches[index] = Branch(expected, reply, graft(branch.then, rest))
        return tuple(branches)
    return (*branches, Branch(expected, reply, graft((), rest)))


def follow(tree: Tree, turn: str) -> Branch | None:
    """The branch expecting `turn` (stored form), if any."""
    return next((branch for branch in tree if branch.expected == turn), None)


def lines_of(tree: Tree) -> list[tuple[str, ...]]:
    """Every line of the tree, from its start to a last reply, in the order added."""
    found: list[tuple[str, ...]] = []
    for branch in tree:
        head = (branch.expected, branch.reply)
        tails = lines_of(branch.then)
        found += [head + tail for tail in tails] if tails else [head]
    return found


def replies_in(tree: Tree) -> int:
    """How many replies the tree holds."""
    return sum(1 + replies_in(branch.then) for branch in tree)


def encode_tree(tree: Tree) -> str:
    """The tree as stored: JSON `[[expected, reply, [...]], ...]`."""
    return json.dumps(_plain(tree), separators=(",", ":"))


def _plain(tree: Tree) -> list[Any]:
    return [[branch.expected, branch.reply, _plain(branch.then)] for branch in tree]


def decode_tree(text: str) -> Tree:
    """A stored tree."""
    return _branches(json.loads(text))


def _branches(items: Sequence[Any]) -> Tree:
    return tuple(Branch(str(e), str(r), _branches(then)) for e, r, then in items)
