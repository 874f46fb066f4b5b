// The browser side of the pycards table: draws the person's view and sends moves.
// Everything shown comes from the server's view message (what the seat may know).
"use strict";

const $ = (sel) => document.querySelector(sel);
const SUITS52 = { C: ["\u2663", false], D: ["\u2666", true], H: ["\u2665", true], S: ["\u2660", false] };
const SUITS78 = { R: "rats", S: "swords", X: "skulls", P: "pistols" };
const GLYPH78 = { R: "\u2766", S: "\u2694", X: "\u2620", P: "\u2739" };
let games = [];
let conn = null;     // {ws, table_id, token}
let last = null;     // the last view message

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("data-")) e.setAttribute(k, v); else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

function cardEl(name, deck) {
  const card = el("span", { class: "card", "data-card": name, title: name });
  let rank = name, suit = "", label = name;
  if (deck === 52) {
    rank = name.slice(0, -1).replace("T", "10");
    const [sym, red] = SUITS52[name.slice(-1)] || ["?", false];
    suit = sym;
    if (red) card.classList.add("red");
  } else if (name === "OUT" || /^[IVX]+$/.test(name)) {
    card.classList.add("trump");
    rank = name;
    suit = name === "OUT" ? "\u2605" : "\u2726";
    label = name === "OUT" ? "out" : "trump";
  } else {
    const s = name.slice(-1);
    rank = name.slice(0, -1);
    suit = GLYPH78[s] || s;
    label = SUITS78[s] || s;
    card.classList.add("suit-" + s);
  }
  card.append(el("span", { class: "r" }, rank), el("span", { class: "s" }, suit), el("span", { class: "name" }, label));
  return card;
}

function cardsEl(names, deck, small = true) {
  const box = el("div", { class: "cards" + (small ? " small" : "") });
  if (!names.length) box.append(el("span", { class: "none" }, "\u2013"));
  for (const n of names) box.append(cardEl(n, deck));
  return box;
}

function isCardList(v) { return Array.isArray(v) && v.every((x) => typeof x === "string"); }

function valueEl(v, deck) {
  if (v === null || v === undefined) return document.createTextNode("\u2013");
  if (typeof v === "string") return cardsEl([v], deck);
  if (isCardList(v)) return cardsEl(v, deck);
  return document.createTextNode(Array.isArray(v) ? v.join(" ") : String(v));
}

const HIDDEN_FIELDS = new Set(["player", "hand", "current_player", "to_act", "play_order"]);

function drawSeats(m) {
  const box = $("#seats");
  box.replaceChildren();
  const obs = m.observation;
  const perSeat = Object.entries(obs).filter(([k, v]) => Array.isArray(v) && v.length === m.players && !HIDDEN_FIELDS.has(k) && !isCardList(v));
  for (let p = 0; p < m.players; p++) {
    const seat = el("div", { class: "seat", "data-seat": String(p) });
    if (p === m.seat) seat.classList.add("me");
    if (p === m.current_player) seat.classList.add("to-act");
    seat.append(el("h3", {}, el("span", {}, `${p}: ${m.names[p]}`), el("span", { class: "score", "data-score": String(m.returns[p]) }, `${m.returns[p]} pts`)));
    const dl = el("dl");
    for (const [k, v] of perSeat) {
      dl.append(el("dt", {}, k.replaceAll("_", " ")), el("dd", {}, valueEl(v[p], m.deck)));
    }
    seat.append(dl);
    box.append(seat);
  }
}

function drawBoard(m) {
  const dl = el("dl");
  for (const [k, v] of Object.entries(m.observation)) {
    if (HIDDEN_FIELDS.has(k)) continue;
    if (Array.isArray(v) && v.length === m.players && !isCardList(v)) continue;
    dl.append(el("dt", {}, k.replaceAll("_", " ")), el("dd", {}, valueEl(v, m.deck)));
  }
  $("#board").replaceChildren(el("h2", {}, `${m.title}, ${m.players} players`), dl);
}

function drawHand(m) {
  const hand = Array.isArray(m.observation.hand) ? m.observation.hand : [];
  const byCard = new Map();
  for (const a of m.legal) if (a.card) (byCard.get(a.card) || byCard.set(a.card, []).get(a.card)).push(a);
  const box = cardsEl(hand, m.deck, false);
  for (const c of box.querySelectorAll(".card")) {
    const acts = byCard.get(c.dataset.card) || [];
    if (acts.length === 1) {
      c.classList.add("legal");
      c.title = acts[0].name;
      c.addEventListener("click", () => send(acts[0].id));
    } else if (m.legal.length) {
      c.classList.add("dim");
    }
  }
  $("#hand").replaceChildren(...box.childNodes);
}

function drawMoves(m) {
  const box = $("#moves");
  box.replaceChildren();
  if (!m.legal.length) {
    box.append(el("span", { class: "none" }, m.terminal ? "The game is over." : "Waiting for the other seats."));
    return;
  }
  for (const a of m.legal) {
    const b = el("button", { type: "button", "data-action": String(a.id) }, a.name);
    b.addEventListener("click", () => send(a.id));
    box.append(b);
  }
}

function draw(m) {
  last = m;
  document.body.dataset.terminal = String(m.terminal);
  document.body.dataset.turn = String(m.turn);
  document.body.dataset.game = m.game;
  const who = m.current_player === m.seat ? "Your turn" : m.terminal ? "" : `${m.names[m.current_player]} (seat ${m.current_player}) is thinking\u2026`;
  $("#status").textContent = m.terminal ? `Game over. Scores: ${m.returns.map((r, p) => `${m.names[p]} ${r}`).join(", ")}` : who;
  drawSeats(m);
  drawBoard(m);
  drawHand(m);
  drawMoves(m);
  $("#table-text").textContent = m.table;
  $("#log").replaceChildren(...m.events.map((e) => el("li", {}, e)));
  $("#log").scrollTop = 1e9;
  const after = $("#after");
  after.hidden = !m.terminal;
  if (m.terminal) $("#record-link").href = `/api/tables/${conn.table_id}/record?token=${encodeURIComponent(conn.token)}`;
  $("#error").textContent = m.error || "";
}

function send(action) {
  if (!conn || !last) return;
  conn.ws.send(JSON.stringify({ type: "move", action, turn: last.turn }));
}

function connect(table_id, token) {
  if (conn) conn.ws.close();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${table_id}?token=${encodeURIComponent(token)}`);
  conn = { ws, table_id, token };
  localStorage.setItem("pycards-table", JSON.stringify({ table_id, token }));
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "view") draw(m);
    else if (m.type === "error") {
      $("#error").textContent = m.message;
      if (m.message.startsWith("no such table")) localStorage.removeItem("pycards-table");
    }
  };
  ws.onclose = (ev) => { if (ev.code === 4404) $("#status").textContent = "This table is gone: start a new game."; };
}

function fillForm() {
  const g = games.find((x) => x.name === $("#game").value) || games[0];
  const keep = (sel, opts) => {
    const old = $(sel).value;
    $(sel).replaceChildren(...opts.map(([v, t]) => el("option", { value: v }, t)));
    if (opts.some(([v]) => v === old)) $(sel).value = old;
  };
  const players = [];
  for (let n = g.min_players; n <= g.max_players; n++) players.push([String(n), String(n)]);
  keep("#players", players);
  keep("#preset", [["", "default"], ...g.presets.map((p) => [p, p])]);
  const n = Number($("#players").value);
  keep("#seat", [...Array(n).keys()].map((i) => [String(i), String(i)]));
}

async function start(ev) {
  ev.preventDefault();
  const body = { game: $("#game").value, players: Number($("#players").value), seat: Number($("#seat").value), bots: [$("#bots").value] };
  if ($("#preset").value) body.preset = $("#preset").value;
  if ($("#seed").value.trim()) body.seed = Number($("#seed").value.trim());
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { $("#error").textContent = j.error; return; }
  connect(j.table_id, j.token);
}

async function init() {
  const r = await fetch("/api/games");
  games = await r.json();
  $("#game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  const bots = games.length ? (games[0].bots || []) : [];
  $("#bots").replaceChildren(...(bots.length ? bots : ["random"]).map((b) => el("option", { value: b }, b)));
  $("#game").addEventListener("change", fillForm);
  $("#players").addEventListener("change", fillForm);
  $("#new-game").addEventListener("submit", start);
  fillForm();
  const saved = localStorage.getItem("pycards-table");
  if (saved) {
    try { const { table_id, token } = JSON.parse(saved); connect(table_id, token); } catch (e) { localStorage.removeItem("pycards-table"); }
  }
  document.body.dataset.ready = "true";
}

init();
