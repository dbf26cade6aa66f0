"""Command lines whose trailing arguments are moves: a move may start with `-`.

`tabula replay groups d3-e2 -a1` must hand `-a1` to the engine (which refuses it in
the JSON contract), not to argparse as an unknown option. Before parsing, the words
after such a command are sorted into its own options (with their values) and moves:
after the first move, or after `--`, a word that is not one of the command's options is
a move; so is `-h` once a move was given.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

HELP = ("-h", "--help")


def subparser_for(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[int, argparse.ArgumentParser] | None:
    """The index of the subcommand's name in `argv` and its parser, if it takes moves."""
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not actions:
        return None
    choices = actions[0].choices
    index = 0
    while index < len(argv):
        word = argv[index]
        if word in choices:
            sub = choices[word]
            return (index, sub) if sub.get_default("trailing_positionals") else None
        action = parser._option_string_actions.get(word)
        if action is None:
            if not word.startswith("-"):
                return None
            index += 1
            continue
        index += 1 + _arity(action)
    return None


def _arity(action: argparse.Action) -> int:
    """How many words always follow the option (values given as `--x=v` excepted)."""
    if action.nargs is None:
        return 1
    if isinstance(action.nargs, int):
        return action.nargs
    return 0


def split_moves(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[list[str], list[str]]:
    """`argv` for argparse, with the command's leading positionals after one `--`, and the
    moves, which argparse never sees (it would take `-a1` for an option and drop a `--`).

    Options keep their values; the other words keep their order.
    """
    found = subparser_for(parser, argv)
    if found is None:
        return list(argv), []
    position, sub = found
    head, words = list(argv[: position + 1]), list(argv[position + 1 :])
    leading = _leading_positionals(sub)
    options: list[str] = []
    positionals: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            positionals += words[index:]
            break
        action = _option_action(sub, word)
        moves_started = len(positionals) > leading
        if action is None:
            if word.startswith("-") and len(word) > 1 and len(positionals) < leading:
                options.append(word)  # before the game: argparse names the unknown option
            else:
                positionals.append(word)
            continue
        if moves_started and word in HELP:
            positionals.append(word)
            continue
        options.append(word)
        if "=" in word or (not word.startswith("--") and len(word) > 2):
            continue  # the value is attached: --out=x.png, -ox.png
        wanted = _arity(action)
        if action.nargs == "?" and index < len(words) and not words[index].startswith("-"):
            wanted = 1
        options += words[index : index + wanted]
        index += wanted
    if not positionals:
        return head + options, []
    return [*head, *options, "--", *positionals[:leading]], positionals[leading:]


def _leading_positionals(sub: argparse.ArgumentParser) -> int:
    """How many positionals come before the moves (the game's name: 1)."""
    names = [a.dest for a in sub._actions if not a.option_strings]
    trailing = sub.get_default("trailing_positionals")
    return names.index(trailing) if trailing in names else len(names)


def _option_action(sub: argparse.ArgumentParser, word: str) -> argparse.Action | None:
    """The command's option named by `word` (`--out`, `--out=x`, `-o` or `-ox`), if any."""
    if not word.startswith("-") or word == "-":
        return None
    if word.startswith("--"):
        return sub._option_string_actions.get(word.split("=", 1)[0])
    action = sub._option_string_actions.get(word)
    if action is None and len(word) > 2:
        attached = sub._option_string_actions.get(word[:2])
        if attached is not None and _arity(attached) == 1:
            return attached
    return action
