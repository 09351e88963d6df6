// The table page: the state of the table for this seat, from the socket at /ws/play/<id>/
// or, where a socket cannot stay open, by polling .../state/ (ETag) and posting moves.
import { WORDS, arranged, buttonText, isRed, label, moved, place, said, say, setWords, suitWord } from "./cards.js";

const root = document.getElementById("play");
setWords(JSON.parse(document.getElementById("play-words")?.textContent || "{}"));
const socketPath = root.dataset.socket;
const stateUrl = root.dataset.stateUrl;
const moveUrl = root.dataset.moveUrl;
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
const message = document.getElementById("message");
const why = document.getElementById("why");
const handEl = document.getElementById("hand");
const controls = document.getElementById("controls");
const trickEl = document.getElementById("trick");

let state = null;
let socket = null;
let etag = "";
let polling = null;

// ---------------------------------------------------------------- connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let opened = false;
  try {
    socket = new WebSocket(`${scheme}://${location.host}${socketPath}`);
  } catch {
    poll();
    return;
  }
  socket.addEventListener("open", () => {
    opened = true;
    stopPolling();
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    socket = null;
    poll();
    setTimeout(connect, opened ? 1000 : 10000);
  });
}

function poll() {
  if (polling) return;
  const once = async () => {
    try {
      const response = await fetch(stateUrl, {
        headers: etag ? { "If-None-Match": etag } : {},
        credentials: "same-origin",
      });
      if (response.status === 200) {
        etag = response.headers.get("ETag") || "";
        receive(await response.json());
      }
    } catch {
      // no signal: the next poll tries again
    }
  };
  once();
  polling = setInterval(once, Number(root.dataset.poll || 700));
}

function stopPolling() {
  if (polling) clearInterval(polling);
  polling = null;
}

async function send(move) {
  why.textContent = "";
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(move));
    return;
  }
  const response = await fetch(moveUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    credentials: "same-origin",
    body: JSON.stringify(move),
  });
  const body = await response.json();
  if (response.ok) receive(body);
  else receive({ event: "refused", reason: body.message, code: body.code });
}

// ---------------------------------------------------------------- messages

function nameOf(seat) {
  const found = state?.seats?.[seat];
  if (!found) return say("seat", { n: seat });
  return found.you ? say("you") : found.name || say("seat", { n: seat });
}

function news(before, after) {
  if (!after.hand) {
    return after.phase === "seating" ? say("waiting") : "";
  }
  const view = after.hand.view;
  if (after.phase === "cutting") {
    const flips = after.game?.flips || [];
    const first =
      after.hand.number === 1 && flips.length ? `${say("turnedJack", { name: nameOf(after.game.first_dealer) })} ` : "";
    return `${first}${say("cuts", { cutter: nameOf(after.hand.cutter), dealer: nameOf(after.hand.dealer) })}`;
  }
  if (after.phase === "hand_over" || after.phase === "game_over") {
    const result = after.hand.result;
    const line = result
      ? say("handResult", {
        number: after.hand.number,
        outcome: (WORDS.outcomes || {})[result.outcome] || result.outcome.replace("_", " "),
        a: result.points[0],
        b: result.points[1],
      })
      : "";
    if (after.phase === "game_over") {
      const won = after.game.winner === "team_a" ? 0 : 1;
      const mine = after.you === null ? won : after.you % 2;
      const score = { team: "AB"[won], a: after.game.score[0], b: after.game.score[1] };
      return `${line} ${say(won === mine && after.you !== null ? "gameOverYours" : "gameOverTeam", score)}`;
    }
    return `${line} ${say("nextDeals", { name: nameOf((after.hand.dealer + 1) % 4) })}`;
  }
  if (!view) return "";
  const parts = [];
  if (view.last && before?.hand?.actions !== after.hand.actions) parts.push(said(view.last, nameOf(view.last.seat)));
  if (
    before?.hand?.view &&
    view.last_trick_winner !== null &&
    JSON.stringify(before.hand.view.last_trick) !== JSON.stringify(view.last_trick)
  ) {
    parts.push(say("trickTo", { name: nameOf(view.last_trick_winner) }));
  }
  if (view.phase === "calling") parts.push(say("toCall", { name: nameOf(view.to_act) }));
  else if (view.phase === "playing") {
    if (parts.length === 0 && view.trump !== undefined && view.caller !== null) {
      parts.push(say("called", { name: nameOf(view.caller), suit: suitWord(view.trump) }));
    }
    parts.push(say("toPlay", { name: nameOf(view.to_act) }));
  } else if (view.phase === "done") parts.push(say("handOver"));
  return parts.filter(Boolean).join(" · ");
}

function receive(data) {
  if (data.event === "refused") {
    why.textContent = data.reason;
    return;
  }
  if (data.event === "watching") {
    showWatching(data.watching);
    return;
  }
  if (data.event !== "state") return;
  if (state && data.version <= state.version) return; // nothing new: keep what is drawn
  const before = state;
  state = data;
  const line = news(before, data);
  if (line) message.textContent = line;
  render();
}

// ---------------------------------------------------------------- drawing

function cardEl(card, cls = "") {
  const el = document.createElement("span");
  el.className = `card ${isRed(card) ? "red" : "black"} ${cls}`.trim();
  el.textContent = label(card);
  el.dataset.card = card;
  return el;
}

function button(text, move, cls = "") {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  if (cls) el.className = cls;
  el.addEventListener("click", () => send(move));
  return el;
}

function renderSeats() {
  const view = state.hand?.view;
  for (const seat of state.seats) {
    const spot = root.querySelector(`.spot[data-pos="${place(seat.number, state.you)}"]`);
    spot.querySelector(".spot-name").textContent =
      (seat.you ? say("you") : seat.name || say("emptySeat")) +
      (seat.bot ? ` (${say("computer")})` : "") +
      (seat.waiting ? ` (${say("waitingSignIn")})` : "");
    const info = [];
    if (state.hand && state.hand.dealer === seat.number) info.push(say("dealer"));
    if (view && view.caller === seat.number) info.push(say("calledSuit", { suit: suitWord(view.trump) }));
    if (view) info.push(say("cards", { n: view.hand_sizes[seat.number] }));
    if (seat.away) info.push(say("away"));
    spot.querySelector(".spot-info").textContent = info.join(" · ");
    spot.classList.toggle("to-act", !!view && view.to_act === seat.number);
  }
}

function renderTrick() {
  trickEl.replaceChildren();
  const view = state.hand?.view;
  if (!view) return;
  for (const [seat, card] of view.current_trick) {
    trickEl.append(cardEl(card, `at-${place(seat, state.you)}`));
  }
  const last = document.getElementById("last-trick-cards");
  last.replaceChildren();
  for (const [seat, card] of view.last_trick || []) {
    const row = document.createElement("div");
    row.append(`${nameOf(seat)}: `, cardEl(card));
    last.append(row);
  }
}

function orderKey() {
  return `play-order-${state.table}-${state.game?.id}-${state.hand?.number}`;
}

function renderHand() {
  handEl.replaceChildren();
  const view = state.hand?.view;
  if (!view || state.you === null) return;
  const order = JSON.parse(localStorage.getItem(orderKey()) || "[]");
  const cards = arranged(view.hand, order);
  const myTurn = view.phase === "playing" && view.to_act === state.you;
  for (const card of cards) {
    const legal = myTurn && view.legal_plays.includes(card);
    const el = cardEl(card, myTurn ? (legal ? "legal" : "dimmed") : "");
    if (myTurn && !legal) el.title = say("notPlayable");
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    handEl.append(el);
  }
}

function tapCard(card) {
  const view = state.hand?.view;
  if (!view) return;
  if (view.phase === "playing" && view.to_act === state.you) {
    if (view.legal_plays.includes(card)) send({ type: "play", card });
    else why.textContent = view.why_not[card] || "";
  } else if (view.phase === "playing" || view.phase === "calling") {
    why.textContent = say("turnOf", { name: nameOf(view.to_act) });
  }
}

// Tap a card to play it; drag it onto another to move it there.
let dragged = null;
handEl.addEventListener("pointerdown", (event) => {
  const card = event.target.closest(".card");
  if (card) dragged = { card: card.dataset.card, x: event.clientX, y: event.clientY };
});
handEl.addEventListener("pointerup", (event) => {
  if (!dragged) return;
  const from = dragged;
  dragged = null;
  const far = Math.abs(event.clientX - from.x) + Math.abs(event.clientY - from.y) > 12;
  const under = document.elementFromPoint(event.clientX, event.clientY)?.closest(".card");
  if (far && under && under.dataset.card !== from.card && handEl.contains(under)) {
    const shown = [...handEl.querySelectorAll(".card")].map((el) => el.dataset.card);
    localStorage.setItem(orderKey(), JSON.stringify(moved(shown, from.card, under.dataset.card)));
    renderHand();
  } else if (!far) {
    tapCard(from.card);
  }
});
handEl.addEventListener("keydown", (event) => {
  const card = event.target.closest(".card");
  if (card && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    tapCard(card.dataset.card);
  }
});

function renderControls() {
  controls.replaceChildren();
  const you = state.you;
  if (you === null) return;
  const phase = state.phase;
  if (phase === "game_over" && state.game?.owner) {
    // a match's game: its next game is set up from the match, and comes to this table
    const link = document.createElement("a");
    link.href = state.game.owner.page;
    link.textContent = state.game.owner.next || say("theMatch");
    controls.append(link);
    return;
  }
  if (phase === "seating" || phase === "game_over") {
    const ready = state.seats.every((s) => s.name && !s.waiting);
    if (ready) controls.append(button(say(phase === "seating" ? "flipAndStart" : "anotherGame"), { type: "start" }));
    return;
  }
  if (phase === "cutting") {
    if (state.hand.cutter === you) {
      const range = document.createElement("input");
      range.type = "range";
      range.min = "4";
      range.max = "32";
      range.value = "18";
      range.setAttribute("aria-label", say("whereToCut"));
      const cut = document.createElement("button");
      cut.type = "button";
      cut.textContent = say("cutHere");
      cut.addEventListener("click", () => send({ type: "cut", at: Number(range.value) }));
      controls.append(range, cut);
    }
    return;
  }
  if (phase === "hand_over") {
    controls.append(button(say("nextHand"), { type: "continue" }));
    return;
  }
  const view = state.hand?.view;
  if (!view) return;
  for (const action of view.legal_actions) {
    if (action.type === "throw_in") continue;
    controls.append(button(buttonText(action), action, action.type === "pass" ? "secondary" : ""));
  }
  if (view.phase === "done") controls.append(button(say("goOn"), { type: "continue" }, "secondary"));
  if (view.phase === "playing") {
    const throwIn = document.createElement("button");
    throwIn.type = "button";
    throwIn.className = "danger";
    throwIn.textContent = say("throwIn");
    throwIn.addEventListener("click", () => {
      if (window.confirm(say("throwInConfirm"))) {
        send({ type: "throw_in" });
      }
    });
    controls.append(throwIn);
  }
}

function renderSheet() {
  const body = document.getElementById("sheet-body");
  body.replaceChildren();
  if (!state.game) return;
  const table = document.createElement("table");
  table.className = "sheet";
  const head = table.insertRow();
  for (const text of ["sheetHand", "sheetTeamA", "sheetTeamB", "sheetTotalA", "sheetTotalB"].map((key) => say(key))) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  for (const row of state.game.sheet) {
    const tr = table.insertRow();
    for (const value of [row.number, row.points[0], row.points[1], row.running[0], row.running[1]]) {
      tr.insertCell().textContent = value;
    }
  }
  body.append(table);
  const link = document.createElement("a");
  link.href = state.game.url;
  link.textContent = say("gamePage");
  body.append(link);
}

function showWatching(count) {
  document.getElementById("watching").textContent = `${count} watching`;
}

function render() {
  root.dataset.phase = state.phase;
  root.dataset.version = state.version;
  showWatching(state.watching);
  renderSeats();
  renderTrick();
  renderHand();
  renderControls();
  renderSheet();
}

for (const opener of document.querySelectorAll("[data-open]")) {
  opener.addEventListener("click", () => document.getElementById(opener.dataset.open).showModal());
}

connect();
