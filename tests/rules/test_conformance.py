"""The generic conformance test every registered game must pass."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import GameState, IllegalMoveError, InvalidMoveError, get_game, list_games

EXTRA_OPTIONS: dict[str, list[dict[str, object]]] = {
    "groups": [{"start": "drop"}],
    "hexade": [{"size": 5}, {"size": 7}],
    "rekushu": [{"size": 8}, {"size": 12}],
    "stones": [{"size": 5}, {"size": 7, "compensation": 0}, {"size": 13, "threshold": 6}],
}
"""Option sets tested besides each game's defaults."""

GAMES_PER_CONFIG = 4
PLY_LIMIT = 600
"""Random games are cut off here unless PLY_LIMITS says otherwise."""
PLY_LIMITS: dict[str, int] = {"rekushu": 2000}
"""Per-game cut-offs: higher to play long games to their end (Rekushu's 20×20 random
games last about 700 plies), lower where checking every ply of a long game is slow.
A game with a move cap must be over by its cap unless the cut-off came first."""
MOVES_CHECKED_PER_STATE = 40
"""Round-trips are checked on a sample of each state's legal moves."""


def configurations() -> list[Any]:
    """(game name, options) pairs: every game's defaults plus its extra option sets."""
    params = []
    for game in list_games():
        for options in [{}, *EXTRA_OPTIONS.get(game.name, [])]:
            label = ",".join(f"{k}={v}" for k, v in options.items()) or "default"
            params.append(pytest.param(game.name, options, id=f"{game.name}-{label}"))
    return params


def check_state(state: GameState[Any], rng: random.Random) -> list[Any]:
    """Check one state's invariants; return its legal moves."""
    game = state.game
    assert state.to_move in (0, 1)
    moves = list(state.legal_moves())
    assert len(set(moves)) == len(moves), "legal_moves() yielded a move twice"
    outcome = state.outcome()
    assert (outcome is None) == bool(moves), (
        f"outcome() is {outcome} but there are {len(moves)} legal moves"
    )
    if outcome is not None:
        assert outcome.winner in (0, 1, None)
        assert outcome.reason
    restored = game.decode(state.encode())
    assert restored == state
    assert hash(restored) == hash(state)
    assert restored.encode() == state.encode()
    assert restored.outcome() == outcome
    for move in rng.sample(moves, min(len(moves), MOVES_CHECKED_PER_STATE)):
        text = state.format_move(move)
        assert text == text.lower().strip(), f"notation {text!r} is not lower-case"
        assert state.parse_move(text) == move
        assert state.parse_move(f" {text.upper()} ") == move
    return moves


@pytest.mark.parametrize(("name", "options"), configurations())
def test_random_games_follow_the_interface(name: str, options: dict[str, object]) -> None:
    """Seeded random games keep every promise of the rules interface."""
    game = get_game(name)
    cap = game.max_plies(game.validate_options(options))
    limit = PLY_LIMITS.get(name, PLY_LIMIT)
    for seed in range(GAMES_PER_CONFIG):
        rng = random.Random(seed)
        state = game.new_game(**options)
        assert state.ply == 0
        assert state.last_move is None
        assert dict(state.options) == game.validate_options(options)
        while True:
            moves = check_state(state, rng)
            if not moves or state.ply >= limit:
                break
            move = rng.choice(moves)
            before = state.encode()
            after = state.play(move)
            assert state.encode() == before, "play() changed the state it was called on"
            assert after.ply == state.ply + 1
            assert after.last_move == move
            state = after
        if cap is not None:
            assert state.ply <= cap
            cut_off = state.ply >= limit
            assert state.is_game_over() or cut_off, f"game still running at the move cap ({cap})"
        if state.is_game_over():
            with pytest.raises(IllegalMoveError):
                state.play(move)


@pytest.mark.parametrize("name", [game.name for game in list_games()])
@pytest.mark.parametrize("text", ["", "   ", "???", "zz99-", "a0", "9"])
def test_garbage_is_invalid_notation(name: str, text: str) -> None:
    """Text that is not notation raises InvalidMoveError, not another error."""
    with pytest.raises(InvalidMoveError):
        get_game(name).new_game().parse_move(text)


@pytest.mark.parametrize("name", [game.name for game in list_games()])
def test_random_games_are_deterministic(name: str) -> None:
    """The same seed gives the same game: engines hold no hidden randomness."""

    def play(seed: int) -> str:
        rng = random.Random(seed)
        state = get_game(name).new_game()
        for _ in range(60):
            moves = list(state.legal_moves())
            if not moves:
                break
            state = state.play(rng.choice(moves))
        return state.encode()

    assert play(7) == play(7)


@pytest.mark.parametrize("name", [game.name for game in list_games()])
def test_metadata_is_complete(name: str) -> None:
    """Every game declares its names, colours, options and help texts."""
    game = get_game(name)
    assert game.name == game.name.lower()
    assert get_game(game.title.upper()) is game
    for alias in game.aliases:
        assert get_game(alias) is game
    assert len(game.colours) == 2
    assert game.notation
    assert game.summary
    defaults = game.validate_options({})
    for spec in game.option_specs:
        assert spec.validate(spec.default) == spec.default
        assert defaults[spec.name] == spec.default
