"""The HTML of the pages: small documents the page scripts fill in and keep current."""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape
from typing import Any


def _json_block(name: str, data: Any) -> str:
    return f'<script type="application/json" id="{name}">{_escaped_json(data)}</script>'


def _text_block(name: str, text: str) -> str:
    # Kept as it is, not escaped (cheaper than JSON for a 30 KB board), unless it holds
    # what would end or upset the block: then as JSON, which the script also reads.
    if "</script" in text.lower() or "<!--" in text:
        return f'<script type="application/json" id="{name}">{_escaped_json(text)}</script>'
    return f'<script type="text/plain" id="{name}">{text}</script>'


def _escaped_json(data: Any) -> str:
    # `</` would end the block early and `<!--` could upset it; JSON allows `<\/` and
    # `\u003c`.
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def document(title: str, body: str, *, script: str | None = None) -> str:
    """A whole page around `body`."""
    module = f'<script type="module" src="/static/{script}"></script>' if script else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · Tabula</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        f"{module}</head><body>"
        '<header class="top"><a href="/">Tabula</a></header>'
        f"<main>{body}</main></body></html>"
    )


def message_page(title: str, text: str) -> str:
    """A page that only says something (a refusal, a sign-in problem)."""
    return document(title, f'<h1>{escape(title)}</h1><p class="message">{escape(text)}</p>')


def game_page(snapshot: dict[str, Any], csrf: str | None) -> str:
    """A game's page: the board and what the script needs to keep it live."""
    ply = int(snapshot["ply"])
    names = snapshot["names"]
    colours = snapshot["colours"]
    players = "".join(
        f'<li class="player" data-seat="{seat}"><span class="swatch seat{seat}"></span>'
        f'<span class="name">{escape(names[seat])}</span> '
        f'<span class="colour">({escape(colours[seat])})</span> '
        f'<span class="clock" role="timer"></span> '
        f'<span class="facts">{escape(" · ".join(snapshot["facts"][seat]))}</span></li>'
        for seat in (0, 1)
    )
    body = (
        f'<article id="game" data-game="{int(snapshot["id"])}" '
        f'data-csrf="{escape(csrf or "")}">'
        f'<h1 id="title">{escape(snapshot["title"])} #{int(snapshot["id"])}</h1>'
        f'<ul class="players">{players}</ul>'
        '<p id="status" aria-live="polite"></p>'
        f'<div id="board" class="board" tabindex="0" role="application" '
        'aria-label="Board: arrow keys move, Enter chooses"></div>'
        '<p id="cursor" class="visually-hidden" aria-live="polite"></p>'
        '<div id="steps" class="buttons"></div>'
        '<div id="turn" class="turn"></div>'
        '<p id="error" class="error" role="alert"></p>'
        '<div id="actions" class="buttons"></div>'
        '<div class="replay"><label for="replay">Replay</label> '
        f'<input type="range" id="replay" min="0" max="{ply}" value="{ply}"> '
        f'<span id="replay-at"></span></div>'
        f'<p>Moves played: <span id="ply" data-ply="{ply}">{ply}</span></p>'
        '<ol id="moves" class="moves"></ol>'
        '<p id="links" class="links"></p>'
        "</article>"
        # The board is in the page once, as the text the server drew (the script draws it
        # and applies the live updates' edits to that text), beside the rest as JSON.
        f"{_text_block('board-text', snapshot['board'])}"
        f"{_json_block('snapshot', {**snapshot, 'board': None})}"
    )
    return document(f"{snapshot['title']} #{snapshot['id']}", body, script="game.js")


def table(headers: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """An HTML table of cells already escaped."""
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )
