// A game's page: the board kept live (Server-Sent Events), and for its players moves
// made by clicking or with the keyboard (arrows, Enter). Plain ES module, no build step.

const SVG = "http://www.w3.org/2000/svg";
const CELL = /^[a-z]+\d+$/;
const article = document.getElementById("game");
const gameId = article.dataset.game;
const csrf = article.dataset.csrf;
const boardBox = document.getElementById("board");
const el = (id) => document.getElementById(id);

let snap = JSON.parse(el("snapshot").textContent);  // what the page shows
const boardText = el("board-text");  // the board as the server drew it (JSON if it had to be)
snap.board = boardText.type === "text/plain" ? boardText.textContent : JSON.parse(boardText.textContent);
let live = snap;          // the game as the live stream last told it (its patches apply to it)
let liveAt = Date.now();  // when the stream last read the clocks
let clicks = [];          // the cells and words chosen so far for the move being made
let pending = [];         // the moves of a multi-move turn built so far (not sent yet)
let preview = null;       // the position after `pending`: {board, facts, legal, complete, turn_info}
let replayPly = null;     // the position shown by the replay slider (null: the game now)
let cursor = null;        // the cell the keyboard is on
let confirming = false;   // the resign button waits for its confirmation
let receivedAt = Date.now();
let stopped = null;       // why the page stopped following the game, if it did
let previewing = false;   // a preview of the turn being built is on its way
let waiting = [];         // cells and words chosen meanwhile, taken in order once it is back

// --- talking to the server ---

async function post(path, body) {
  const response = await fetch(`/g/${gameId}/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tabula-CSRF": csrf },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `The server answered ${response.status}.`);
  return data;
}

function showError(text) { el("error").textContent = text || ""; }

async function act(path, body) {
  showError("");
  const heard = live;
  try {
    const fresh = await post(path, body);
    // The answer shows the game as it was just after the action. A live message heard
    // meanwhile may be newer (the opponent answered at once): then the stream, which
    // tells every change after it too, is what the page shows.
    if (fresh && fresh.id && live === heard) accept(fresh);
  } catch (error) {
    showError(error.message);
  }
}

function accept(fresh, at = Date.now()) {
  // A move (or the end) cancels a resignation being confirmed; an offer's answer does not.
  const moved = fresh.ply !== snap.ply || fresh.active !== snap.active;
  if (fresh.ply !== snap.ply || !fresh.my_turn) dropTurn();
  snap = fresh;
  receivedAt = at;  // when the clocks read as they do in `fresh`
  if (moved) confirming = false;
  render();
}

// --- what may be clicked ---

function legal() { return pending.length && preview ? preview.legal : (snap.legal || []); }

function candidates(prefix) {
  return legal().filter((entry) => prefix.every((step, i) => entry.steps[i] === step));
}

function nextSteps() {
  const found = candidates(clicks);
  const cells = new Set(), words = new Set();
  let complete = null;
  for (const entry of found) {
    if (entry.steps.length === clicks.length) { complete = entry.move; continue; }
    const step = entry.steps[clicks.length];
    (CELL.test(step) ? cells : words).add(step);
  }
  return { cells, words, complete };
}

function dropTurn() {
  // The turn being built, its preview and any steps waiting for that preview.
  pending = []; preview = null; clicks = []; waiting = [];
}

function canPlay() {
  return snap.my_turn && !stopped && replayPly === null && !(preview && preview.complete);
}

function step(value) {
  if (previewing) { waiting.push(value); return; }
  if (!canPlay()) return;
  showError("");
  let next = [...clicks, value];
  if (!candidates(next).length) {
    next = [value];                      // start again from this cell
    if (!candidates(next).length) { clicks = []; render(); return; }
  }
  clicks = next;
  const { cells, words, complete } = nextSteps();
  if (complete && !cells.size && !words.size) { choose(complete); return; }
  render();
}

async function choose(move) {
  clicks = [];
  if (snap.game !== "diffusion") { await act("play", { moves: [move], ply: snap.ply }); return; }
  const built = pending;
  const moves = [...built, move];
  previewing = true;
  try {
    const found = await post("preview", { moves });
    if (pending === built) { preview = found; pending = moves; }  // else the turn was dropped
  } catch (error) {
    showError(error.message);
    waiting = [];
  } finally {
    previewing = false;
  }
  render();
  while (waiting.length && !previewing) step(waiting.shift());
}

// --- drawing ---

function cellOf(name) { return boardBox.querySelector(`[data-cell="${name}"]`); }

function inBoard(svg, element, x, y) {
  // A point in `element`'s own coordinates as the board's (a cell's row moves it).
  let point = new DOMPoint(x, y);
  for (let node = element.parentNode; node && node !== svg; node = node.parentNode) {
    const moved = node.transform?.baseVal.consolidate();
    if (moved) point = point.matrixTransform(moved.matrix);
  }
  return point;
}

function mark(svg, layer, name, cls) {
  const cell = cellOf(name);
  if (!cell || !cell.getBBox) return;
  const box = cell.getBBox();
  const r = Math.max(3, Math.min(box.width, box.height) * (cls === "hint" ? 0.22 : 0.46));
  const at = inBoard(svg, cell, box.x + box.width / 2, box.y + box.height / 2);
  const circle = document.createElementNS(SVG, "circle");
  circle.setAttribute("cx", at.x);
  circle.setAttribute("cy", at.y);
  circle.setAttribute("r", r);
  circle.setAttribute("class", cls);
  layer.appendChild(circle);
}

let shownBoard = null;

function drawBoard(html) {
  // The board's elements are replaced only when the position changes: a click whose
  // element vanished between mouse down and up would reach no cell.
  if (html !== shownBoard) { boardBox.innerHTML = html; shownBoard = html; }
  boardBox.classList.toggle("replaying", replayPly !== null);
  const svg = boardBox.querySelector("svg");
  if (!svg) return;
  svg.querySelector("g.web-marks")?.remove();
  for (const cell of svg.querySelectorAll("[data-target]")) cell.removeAttribute("data-target");
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "web-marks");
  layer.setAttribute("aria-hidden", "true");
  svg.appendChild(layer);
  if (canPlay()) {
    const { cells } = nextSteps();
    for (const name of cells) { mark(svg, layer, name, "hint"); cellOf(name)?.setAttribute("data-target", ""); }
    for (const name of clicks) if (CELL.test(name)) mark(svg, layer, name, "pick");
  }
  if (cursor && document.activeElement === boardBox) mark(svg, layer, cursor, "cursor-mark");
}

function clockText(seconds) {
  if (seconds < 0) seconds = 0;
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
  const m = Math.floor(seconds % 3600 / 60), s = Math.floor(seconds % 60);
  if (d) return `${d}d ${h}h`;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
}

function renderClocks() {
  for (const li of document.querySelectorAll(".player")) {
    const seat = Number(li.dataset.seat);
    li.classList.toggle("to-move", snap.active && snap.to_move === seat);
    const clock = li.querySelector(".clock");
    if (!snap.clocks) { clock.textContent = ""; continue; }
    let left = snap.clocks.left[seat];
    if (snap.clocks.running === seat) left -= (Date.now() - receivedAt) / 1000;
    clock.textContent = clockText(left);
  }
}

function statusText() {
  if (stopped) return stopped;
  if (!snap.active) return snap.result || "The game is over.";
  const name = snap.names[snap.to_move], colour = snap.colours[snap.to_move];
  let text = snap.my_turn ? `Your turn (${colour}).` : `${name} to move (${colour}).`;
  const info = pending.length && preview ? preview.turn_info : snap.turn_info;
  if (snap.my_turn && info) text += ` ${info}.`;
  if (snap.draw_offer !== null) text += ` ${snap.names[snap.draw_offer]} offers a draw.`;
  if (snap.undo_request !== null) text += ` ${snap.names[snap.undo_request]} asks to take back their last turn.`;
  return text;
}

function button(label, handler, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", handler);
  return b;
}

function renderSteps() {
  const box = el("steps");
  box.replaceChildren();
  if (!canPlay()) return;
  const { words, complete, cells } = nextSteps();
  for (const word of words) {
    box.appendChild(button(word[0].toUpperCase() + word.slice(1), () => step(word)));
  }
  if (complete && (cells.size || words.size)) {
    const label = snap.game === "rekushu" ? "Place without claiming" : `Play ${complete}`;
    box.appendChild(button(label, () => choose(complete), "primary"));
  }
  if (clicks.length) box.appendChild(button("Cancel", () => { clicks = []; render(); }));
}

function renderTurn() {
  const box = el("turn");
  box.replaceChildren();
  if (!snap.my_turn || !pending.length) return;
  const p = document.createElement("p");
  p.textContent = `Your turn so far: ${pending.join(", ")}` + (preview && preview.complete ? " (complete)." : ".");
  box.appendChild(p);
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  if (preview && preview.complete) {
    buttons.appendChild(button("Send turn", () => act("play", { moves: pending, ply: snap.ply }), "primary"));
  }
  buttons.appendChild(button("Start the turn again", () => { dropTurn(); render(); }));
  box.appendChild(buttons);
}

function renderActions() {
  const box = el("actions");
  box.replaceChildren();
  if (snap.seat === null || snap.seat === undefined || !snap.active || stopped) return;
  const other = 1 - snap.seat;
  if (confirming) {
    box.appendChild(button("Yes, resign", () => { confirming = false; act("resign", {}); }, "danger"));
    box.appendChild(button("Keep playing", () => { confirming = false; render(); }));
    return;
  }
  if (snap.draw_offer === other) {
    box.appendChild(button("Accept draw", () => act("draw", { answer: true }), "primary"));
    box.appendChild(button("Decline draw", () => act("draw", { answer: false })));
  } else if (snap.draw_offer !== snap.seat) {
    box.appendChild(button("Offer draw", () => act("draw", {})));
  }
  if (snap.undo_request === other) {
    box.appendChild(button("Allow undo", () => act("undo", { answer: true }), "primary"));
    box.appendChild(button("Refuse undo", () => act("undo", { answer: false })));
  } else if (snap.undo_request !== snap.seat && snap.ply > 0) {
    box.appendChild(button("Ask to undo", () => act("undo", {})));
  }
  box.appendChild(button("Resign", () => { confirming = true; render(); }, "danger"));
}

function renderMoves() {
  const list = el("moves");
  list.replaceChildren();
  let turn = null;
  for (const move of snap.moves) {
    if (!turn || turn.seat !== move.seat) {
      turn = { seat: move.seat, li: document.createElement("li"), moves: [] };
      list.appendChild(turn.li);
    }
    turn.moves.push(move.move);
    turn.li.textContent = `${snap.colours[move.seat]}: ${turn.moves.join(", ")}`;
    turn.li.dataset.ply = move.ply;
  }
}

function renderLinks() {
  const links = el("links");
  links.replaceChildren();
  const formats = [["text", "Text record"]];
  if (!snap.active) formats.unshift(["json", "JSON record"]);
  if (snap.game === "stones") formats.push(["sgf", "SGF"]);
  for (const [format, label] of formats) {
    const a = document.createElement("a");
    a.href = `/g/${gameId}/export/${format}`;
    a.textContent = label;
    links.append(a, " ");
  }
  if (snap.tournament_id) {
    const a = document.createElement("a");
    a.href = `/t/${snap.tournament_id}`;
    a.textContent = "Tournament";
    links.append(a);
  }
}

function renderFacts(facts) {
  for (const seat of [0, 1]) {
    const box = document.querySelector(`.player[data-seat="${seat}"] .facts`);
    if (box) box.textContent = (facts && facts[seat] || []).join(" · ");
  }
}

function render() {
  el("status").textContent = statusText();
  const ply = el("ply");
  ply.dataset.ply = String(snap.ply);
  ply.textContent = String(snap.ply);
  const slider = el("replay");
  slider.max = String(snap.ply);
  if (replayPly === null) {
    slider.value = String(snap.ply);
    el("replay-at").textContent = "";
    drawBoard(pending.length && preview ? preview.board : snap.board);
    renderFacts(pending.length && preview ? preview.facts : snap.facts);
  }
  renderClocks();
  renderSteps();
  renderTurn();
  renderActions();
  renderMoves();
  renderLinks();
}

// --- replay ---

el("replay").addEventListener("input", async (event) => {
  const wanted = Number(event.target.value);
  if (wanted >= snap.ply) { replayPly = null; render(); return; }
  replayPly = wanted;
  el("replay-at").textContent = `after move ${wanted} of ${snap.ply}`;
  try {
    const response = await fetch(`/g/${gameId}/position/${wanted}`, { credentials: "same-origin" });
    const data = await response.json();
    if (replayPly === wanted) { drawBoard(data.board); renderFacts(data.facts); }
  } catch { showError("Could not load that position."); }
  renderSteps();
});

// --- clicks and keys ---

boardBox.addEventListener("click", (event) => {
  const cell = event.target.closest("[data-cell]");
  if (cell) { cursor = cell.dataset.cell; step(cell.dataset.cell); }
});

function centre(name) {
  const box = cellOf(name)?.getBoundingClientRect();
  return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
}

function moveCursor(dx, dy) {
  const cells = [...boardBox.querySelectorAll("[data-cell]")];
  if (!cells.length) return;
  if (!cursor || !cellOf(cursor)) { cursor = cells[Math.floor(cells.length / 2)].dataset.cell; return; }
  const from = centre(cursor);
  let best = null, bestScore = Infinity;
  for (const cell of cells) {
    const to = centre(cell.dataset.cell);
    const ax = to.x - from.x, ay = to.y - from.y;
    const along = ax * dx + ay * dy;
    if (along <= 1) continue;
    const across = Math.abs(ax * dy - ay * dx);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = cell.dataset.cell; }
  }
  if (best) cursor = best;
}

boardBox.addEventListener("keydown", (event) => {
  const arrows = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (arrows[event.key]) {
    event.preventDefault();
    moveCursor(...arrows[event.key]);
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    if (cursor) step(cursor);
  } else if (event.key === "Escape") {
    clicks = [];
  } else {
    return;
  }
  const cell = cursor && cellOf(cursor);
  el("cursor").textContent = cell ? (cell.getAttribute("aria-label") || cursor) : "";
  render();
});
boardBox.addEventListener("focus", () => render());

// --- live ---

// The first message of a stream is the whole game (without the board when the page has
// it already); the next ones are patches: the fields that changed, the moves added and
// the board as edits of its text, cut before each "<" as the server cut it.

function whole(data) {
  const fresh = { ...data };
  delete fresh.full;
  if (fresh.board === undefined) {
    if (live.board_id !== fresh.board_id) throw new Error("not the board this page has");
    fresh.board = live.board;
  }
  return fresh;
}

function patched(base, data) {
  const fresh = { ...base };
  const special = new Set(["drop", "moves_at", "moves_add", "board_from", "board_edits"]);
  for (const [key, value] of Object.entries(data)) if (!special.has(key)) fresh[key] = value;
  for (const key of data.drop || []) delete fresh[key];
  if (data.moves_at !== undefined) fresh.moves = [...base.moves.slice(0, data.moves_at), ...data.moves_add];
  if (data.board_edits) {
    if (base.board_id !== data.board_from) throw new Error("not the board this page has");
    const pieces = base.board.split("<");
    for (const [start, end, added] of [...data.board_edits].reverse()) pieces.splice(start, end - start, ...added);
    fresh.board = pieces.join("<");
  }
  return fresh;
}

function listen() {
  const source = new EventSource(`/g/${gameId}/events?board=${encodeURIComponent(live.board_id)}`);
  source.onmessage = (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; /* a torn message */ }
    try {
      live = data.full ? whole(data) : patched(live, data);
    } catch {
      source.close();  // out of step: start again from the whole game
      listen();
      return;
    }
    if (data.full || "clocks" in data) liveAt = Date.now();
    accept(live, liveAt);
  };
  source.addEventListener("ended", (event) => {
    source.close();  // the page may no longer show the game (the server's setting changed)
    try { stopped = JSON.parse(event.data).text; } catch { stopped = "This page no longer follows the game."; }
    render();
  });
  // EventSource reconnects by itself (the server asks for 1 s), naming the board it has
  // (the last event's id); the first message after a reconnection is the whole game as
  // it is now, so nothing missed stays missed.
}

setInterval(renderClocks, 1000);
render();
listen();
