// The browser side of the pycards table: a lobby, a table drawn from the
// server's messages (what this seat, or a spectator, may know), and replays.
"use strict";

const $ = (sel) => document.querySelector(sel);
// suits by shape and by letter, so they stay distinct without colour
const SUITS52 = { C: ["\u2663", "clubs", false], D: ["\u2666", "diamonds", true], H: ["\u2665", "hearts", true], S: ["\u2660", "spades", false] };
const SUITS78 = { R: ["\u2766", "rats"], S: ["\u2694", "swords"], X: ["\u2620", "skulls"], P: ["\u2739", "pistols"] };
const RANKS = { A: "ace", J: "jack", Q: "queen", K: "king", T: "ten", C: "cavalier" };
let games = [];
let conn = null;      // {ws, table_id, token, retry}
let last = null;      // the last table message
let selected = null;  // the seat picked in an ask

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role") e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function cardLabel(name, deck) {
  if (deck === 52) {
    const r = name.slice(0, -1), s = SUITS52[name.slice(-1)];
    return `${RANKS[r] || r} of ${s ? s[1] : name.slice(-1)}`;
  }
  if (name === "OUT") return "the Outsider";
  if (/^[IVX]+$/.test(name)) return `trump ${name}`;
  const s = SUITS78[name.slice(-1)], r = name.slice(0, -1);
  return `${RANKS[r] || r} of ${s ? s[1] : name.slice(-1)}`;
}

function cardEl(name, deck) {
  const card = el("span", { class: "card", "data-card": name, title: cardLabel(name, deck), role: "img", "aria-label": cardLabel(name, deck) });
  let rank = name, suit = "";
  if (deck === 52) {
    rank = name.slice(0, -1).replace("T", "10");
    const s = SUITS52[name.slice(-1)] || ["?", "", false];
    suit = s[0];
    card.classList.add("suit-" + name.slice(-1));
    if (s[2]) card.classList.add("red");
  } else if (name === "OUT" || /^[IVX]+$/.test(name)) {
    card.classList.add("trump");
    suit = name === "OUT" ? "\u2605" : "\u2726";
  } else {
    rank = name.slice(0, -1);
    suit = (SUITS78[name.slice(-1)] || ["?"])[0];
    card.classList.add("suit-" + name.slice(-1));
  }
  card.append(el("span", { class: "r" }, rank), el("span", { class: "s" }, suit));
  return card;
}

function cardsEl(names, deck, cls = "") {
  const box = el("div", { class: "cards " + cls });
  if (!names || !names.length) box.append(el("span", { class: "none" }, "\u2013"));
  else for (const n of names) box.append(cardEl(n, deck));
  return box;
}

const backs = (n) => el("span", { class: "backs", "aria-label": `${n} cards in hand` }, `\ud83c\udca0\u00d7${n}`);

// ---- what each game shows of a seat, in words ----
function seatFacts(m, p) {
  const o = m.observation, out = [];
  const at = (k) => (Array.isArray(o[k]) ? o[k][p] : undefined);
  if (m.game === "nancy") {
    const b = at("bids");
    if (b !== undefined && b !== null) out.push(b > 0 ? `bid ${b}` : b === 0 ? "passed" : "no bid yet");
    if (o.taker === p) out.push("Nancy (taker)");
    if (o.partner === p) out.push("Partner");
  } else if (m.defined) {
    if (o.dealer === p) out.push("dealer");
    const b = at("bids");
    if (typeof b === "number" && b >= 0) out.push(`bid ${b}`);
    if (at("tricks") !== undefined && at("tricks") !== null) out.push(`${at("tricks")} tricks`);
  } else if (m.game === "notakers") {
    if (at("hand_sizes") !== undefined) out.push(`${at("hand_sizes")} in hand`);
    if (at("save_sizes") !== undefined) out.push(`${at("save_sizes")} saved`);
  } else {
    if (o.dealer === p) out.push("dealer");
    if (at("held") !== undefined && at("held") !== null) out.push(`${at("held")} held`);
    if (at("gone")) out.push("go");
  }
  return out.join(" \u00b7 ");
}

function seatBox(m, p) {
  const box = el("div", { class: "seat", "data-seat": String(p) });
  if (p === m.current_player && !m.terminal) box.classList.add("to-act");
  const away = (m.away || []).includes(p);
  const bot = m.bots[p].split(":")[0] + " bot";
  // a bot's default name ("heuristic bot", "heuristic bot 2") already says what it is
  const named = m.names[p] === bot || m.names[p].startsWith(bot + " ");
  const who = m.bots[p] === "person" ? (away ? "away" : "here") : named ? "bot" : bot;
  box.append(el("h3", {}, el("span", { class: "name" }, m.names[p]), el("span", { class: "who" + (away ? " away" : "") }, who),
    el("span", { class: "score", "data-score": String(m.returns[p]) }, String(scoreOf(m, p)))));
  box.append(el("p", { class: "facts" }, seatFacts(m, p)));
  const o = m.observation;
  if (Array.isArray(o.face_up) && o.face_up[p] && o.face_up[p].length) box.append(cardsEl(o.face_up[p], m.deck, "small"));
  if (Array.isArray(o.save_piles) && o.save_piles[p]) box.append(cardsEl(o.save_piles[p], m.deck, "small"));
  if (m.game !== "nancy" && Array.isArray(o.played) && Array.isArray(o.played[p]) && o.played[p].length) box.append(cardsEl(o.played[p], m.deck, "small played"));
  return box;
}

function scoreOf(m, p) {
  const s = m.observation.scores || m.observation.points;
  return Array.isArray(s) && s[p] !== null && s[p] !== undefined ? s[p] : m.returns[p];
}

function drawOthers(m) {
  const box = $("#others");
  box.replaceChildren();
  const me = m.seat === null ? -1 : m.seat;
  for (let i = 1; i <= m.players; i++) {
    const p = (Math.max(me, 0) + i) % m.players;
    if (p === me) continue;
    box.append(seatBox(m, p));
  }
  box.dataset.n = String(box.children.length);
}

function pegBoard(m) {
  const o = m.observation, target = m.target || 121;
  const board = el("div", { class: "pegboard", role: "img", "aria-label": "peg board: " + m.names.map((n, p) => `${n} ${scoreOf(m, p)}`).join(", ") });
  const seen = new Set();
  for (let p = 0; p < m.players; p++) {
    const s = Math.min(scoreOf(m, p) || 0, target);
    const key = String(s) + (m.players === 4 ? p % 2 : p);
    if (m.players === 4 && p >= 2) continue; // partners share a track
    if (seen.has(key)) continue;
    seen.add(key);
    const track = el("div", { class: "track" }, el("span", { class: "track-name" }, m.players === 4 ? `${m.names[p]} & ${m.names[p + 2]}` : m.names[p]),
      el("span", { class: "holes" }, el("span", { class: "peg", style: `left:${(100 * s) / target}%` })), el("span", { class: "track-score" }, `${s}/${target}`));
    board.append(track);
  }
  return board;
}

// the objective tracker: the bid and how each objective stands on Nancy's pile
function objectives(m, t) {
  const met = t.standing.filter((o) => o.met).length;
  const box = el("div", { class: "objectives", "aria-label": "objectives" },
    el("span", { class: "label" }, `${m.names[t.taker]} bid ${t.bid ?? "?"}: ${met} met so far`));
  const list = el("ul", {});
  for (const o of t.standing) {
    const mark = o.met === null ? "\u2026" : o.met ? "\u2713" : "\u2013";
    const state = o.met === null ? "decided at the end" : o.met ? "met" : "not yet";
    list.append(el("li", { class: o.met ? "met" : o.met === null ? "later" : "", title: `${o.name}: ${state}` }, `${mark} ${o.name}`));
  }
  box.append(list);
  return box;
}

// the round and game summaries: the newest open, the game's naming the winner
function drawRounds(m) {
  const list = m.summaries || [], box = $("#rounds");
  $("#rounds-box").hidden = !list.length;
  box.replaceChildren(...list.map((s, i) => el("details", { class: "summary" + (s.round === 0 ? " game" : ""), open: i === list.length - 1 },
    el("summary", {}, s.title), el("ul", {}, ...s.lines.map((l) => el("li", {}, l))))));
  if (list.length && (!drawRounds.seen || list.length > drawRounds.seen)) $("#rounds-box").open = true;
  drawRounds.seen = list.length;
}

function drawRules(m) {
  const b = m.rules_book;
  if (!b || $("#rules").dataset.table === m.table_id) return;
  $("#rules").dataset.table = m.table_id || "";
  // the rules in plain words (pycards.teach.rules_book, the docs' own text), then the settings
  const plain = (b.plain || []).flatMap((s) => [el("h3", {}, s.title), ...s.paragraphs.map((p) => el("p", {}, p)),
    ...(s.items.length ? [el("ul", {}, ...s.items.map((i) => el("li", {}, i)))] : [])]);
  $("#rules").replaceChildren(...plain, el("h3", {}, "This table's settings"), el("p", {}, el("b", {}, `Variant: ${b.preset}. `), b.summary),
    el("dl", {}, ...b.items.flatMap((r) => [el("dt", { class: r.changed ? "changed" : "" }, `${r.label}: ${r.value}`), el("dd", {}, r.note)])));
}

function drawInfo(m) {
  const o = m.observation, box = $("#info"), r = m.readable || {};
  box.replaceChildren();
  const item = (label, ...content) => box.append(el("div", { class: "info-item" }, el("span", { class: "label" }, label), ...content));
  if (m.game === "nancy") {
    const bids = (o.bids || []).map((b, p) => `${m.names[p]}: ${b > 0 ? b : b === 0 ? "pass" : "\u2013"}`).join(", ");
    item("Bids", bids);
    if (o.taker !== null && o.taker !== undefined) item("Nancy", m.names[o.taker]);
    if (o.called) item("Called", cardsEl([o.called], m.deck, "small"), o.partner_revealed ? ` partner ${m.names[o.partner]}` : " partner unknown");
    if (o.hound && o.hound.length) item("Hound", cardsEl(o.hound, m.deck, "small"));
    if (o.nancy_pile && o.opponents_pile) item("Piles", `Nancy ${o.nancy_pile.length} \u00b7 opponents ${o.opponents_pile.length}`);
    if (m.prompt) item("Now", m.prompt);
    if (r.objectives) box.append(objectives(m, r.objectives));
  } else if (m.defined) {
    const suits = ["clubs", "diamonds", "hearts", "spades"];
    item("Trumps", typeof o.trump === "number" ? suits[o.trump] : "none");
    if (o.turnup) item("Turn-up", cardsEl([o.turnup], m.deck, "small"));
    if (o.phase === 0 && o.passed && o.passed.length) item("Passed", cardsEl(o.passed, m.deck, "small"));
    if (m.prompt) item("Now", m.prompt);
  } else if (m.game === "notakers") {
    item("Draw pile", String(o.pile_size));
    if (m.prompt) item("Now", m.prompt);
    if (o.asker !== null && o.asker !== undefined) item("Ask", `${m.names[o.asker]} asks ${m.names[o.asked]} for ${(m.readable && m.readable.asked_for) || "?"}`);
    if (o.save && o.save.length) item("Your save", cardsEl(o.save, m.deck, "small"));
  } else {
    if (o.turnup) item("Turn-up", cardsEl([o.turnup], m.deck, "small"));
    if (o.starter) item("Starter", cardsEl([o.starter], m.deck, "small"));
    if (m.game === "cribbage" && o.dealer !== null && o.dealer !== undefined) item("Crib", `${m.names[o.dealer]}'s`, o.discards && o.discards.length ? cardsEl(o.discards, m.deck, "small") : null);
    box.append(pegBoard(m));
  }
}

// the middle of the table, from the story (the same for the terminal): the
// trick or count in the order played; a finished one stays, with the line
// that ended it, until the next card is played, and can be looked at again
let showLast = false;
function drawPlay(m, quiet = false) {
  const box = $("#play"), area = m.play_area || { cards: [], closed: null, last: null };
  const o = m.observation;
  let cards = area.cards, line = area.closed;
  if (showLast && area.last && !area.closed) { cards = area.last.cards; line = area.last.line; }
  if (!cards.length && m.game === "notakers" && o.selection && o.selection.length) cards = o.selection.map((c) => [m.seat, c]);
  const keys = cards.map(([p, c]) => `${p}:${c}`);
  // a card shown stays the same element while its trick or count goes on, so
  // it moves in once, when it is played, and never again (no flicker)
  let slots = box.querySelector(":scope > .slots");
  const had = slots && drawPlay.table === m.table_id ? [...slots.querySelectorAll(".slot")].map((x) => x.dataset.key) : null;
  if (!had || had.length > keys.length || had.some((k, i) => keys[i] !== k)) {
    const before = new Set(had || []);
    slots = el("div", { class: "slots" });
    box.replaceChildren(slots);
    keys.forEach((k, i) => slots.append(playSlot(m, cards[i], k, !quiet && !before.has(k))));
  } else {
    for (const x of [...box.children]) if (x !== slots) x.remove();
    for (const x of slots.querySelectorAll(":scope > .none")) x.remove();
    for (let i = had.length; i < keys.length; i++) slots.append(playSlot(m, cards[i], keys[i], true));
  }
  drawPlay.table = m.table_id;
  slots.classList.toggle("swept", !!line);
  if (!cards.length) slots.append(el("span", { class: "none" }, m.game === "notakers" ? "" : "\u2013"));
  if (line) box.append(el("p", { class: "won" }, (showLast && !area.closed ? "Last: " : "") + line));
  if (area.last && !area.closed) {
    const b = el("button", { type: "button", id: "last-trick", "aria-pressed": String(showLast) }, showLast ? "Back to the table" : (m.game === "nancy" || m.defined ? "Last trick" : "Last count"));
    b.addEventListener("click", () => { showLast = !showLast; drawPlay(m, true); }); // a look back moves no card
    box.append(b);
  }
  if (o.total !== undefined && m.game !== "notakers" && !line) box.append(el("p", { class: "total" }, `count ${o.total}`));
}

function playSlot(m, [p, c], key, fresh) {
  return el("div", { class: "slot" + (fresh ? " new" : ""), "data-key": key }, cardEl(c, m.deck), p === null ? null : el("span", { class: "slot-name" }, m.names[p]));
}

function drawHand(m) {
  const o = m.observation;
  const hand = Array.isArray(o.hand) ? o.hand : [];
  const byCard = new Map();
  const live = !conn || (!conn.down && !conn.gone); // a replay has no conn and no moves
  for (const a of live ? m.legal : []) if (a.card) (byCard.get(a.card) || byCard.set(a.card, []).get(a.card)).push(a);
  const box = $("#hand");
  box.replaceChildren();
  const mine = [...hand];
  if (m.game === "nancy" && Array.isArray(o.face_up) && m.seat !== null) for (const c of o.face_up[m.seat] || []) mine.push(c);
  const chosen = new Set(o.selection || []);
  for (const name of mine) {
    const c = cardEl(name, m.deck);
    if (!hand.includes(name)) c.classList.add("face-up");
    if (chosen.has(name)) c.classList.add("chosen");
    const acts = byCard.get(name) || [];
    if (acts.length === 1) {
      c.classList.add("legal");
      c.tabIndex = 0;
      c.setAttribute("role", "option");
      c.setAttribute("aria-label", `${acts[0].name}: ${cardLabel(name, m.deck)}`);
      c.addEventListener("click", () => send(acts[0].id));
      c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); send(acts[0].id); } });
    } else if (m.legal.length && live) c.classList.add("dim");
    box.append(c);
  }
  if (!mine.length) box.append(el("span", { class: "none" }, m.seat === null ? "You are watching." : "No cards."));
}

function drawMoves(m) {
  const box = $("#moves");
  box.replaceChildren();
  if (conn && conn.gone) { box.append(el("span", { class: "none" }, "This table is gone.")); return; }
  if (conn && conn.down) { box.append(el("span", { class: "none" }, "Reconnecting\u2026")); return; }
  const others = m.legal.filter((a) => !a.card && !a.ask);
  const asks = m.legal.filter((a) => a.ask);
  for (const a of others) {
    const b = el("button", { type: "button", "data-action": String(a.id) }, a.name);
    b.addEventListener("click", () => send(a.id));
    box.append(b);
  }
  if (asks.length) {
    const seats = [...new Set(asks.map((a) => a.ask.seat))];
    if (!seats.includes(selected)) selected = seats[0];
    const pick = el("div", { class: "ask", role: "group", "aria-label": "ask" }, el("span", { class: "label" }, "Ask"));
    for (const s of seats) {
      const b = el("button", { type: "button", class: "seat-pick" + (s === selected ? " on" : ""), "aria-pressed": String(s === selected) }, m.names[s]);
      b.addEventListener("click", () => { selected = s; drawMoves(m); });
      pick.append(b);
    }
    const bys = {};
    for (const a of asks.filter((x) => x.ask.seat === selected)) (bys[a.ask.by] = bys[a.ask.by] || []).push(a);
    for (const [by, acts] of Object.entries(bys)) {
      const sel = el("select", { "aria-label": `ask for a ${by}`, "data-by": by }, el("option", { value: "" }, `a ${by}\u2026`),
        ...acts.map((a) => el("option", { value: String(a.id) }, a.ask.what)));
      sel.addEventListener("change", () => { if (sel.value) send(Number(sel.value)); });
      pick.append(sel);
    }
    box.append(pick);
  }
  if (!m.legal.length) {
    const text = m.terminal ? "The game is over." : m.seat === null ? "" : `Waiting for ${m.names[m.current_player]}\u2026`;
    box.append(el("span", { class: "none" }, text));
  }
}

function drawSide(m) {
  const rows = m.names.map((n, p) => el("tr", { class: p === m.seat ? "me" : "" }, el("td", {}, n), el("td", { class: "num" }, String(scoreOf(m, p)))));
  $("#scores").replaceChildren(el("table", {}, el("caption", {}, `${m.title}${m.target ? ` to ${m.target}` : ""}`), ...rows));
  const log = $("#log");
  log.replaceChildren(...(m.log || []).map((l) => el("li", { value: l.n }, l.text)));
  log.scrollTop = 1e9;
  const res = $("#result");
  res.hidden = !m.terminal;
  if (m.terminal) {
    const game = (m.summaries || []).find((s) => s.round === 0);
    const best = Math.max(...m.returns);
    const ids = game && game.winners ? game.winners : m.names.map((_, p) => p).filter((p) => m.returns[p] === best);
    const winners = ids.map((p) => m.names[p]);
    res.replaceChildren(el("h2", {}, `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}`),
      el("p", {}, game ? game.title : m.names.map((n, p) => `${n}: ${m.returns[p]}`).join(", ")),
      game && game.lines.length ? el("ul", {}, ...game.lines.map((l) => el("li", {}, l))) : null);
  }
  drawRounds(m);
  drawRules(m);
  $("#after").hidden = !(m.terminal && conn && conn.token);
  if (m.terminal && conn && conn.token) $("#record-link").href = `/api/tables/${m.table_id}/record?token=${encodeURIComponent(conn.token)}`;
}

// ---- sound: short tones made in the page (no files), off until a person
// turns it on (kept in this browser); what was sounded is listed for tests ----
const sound = { on: localStorage.getItem("pycards-sound") === "on", ctx: null, played: [] };
window.pycardsSound = sound;
const TONES = { card: [660, 0.07], turn: [880, 0.18], won: [520, 0.25] };
function tone(kind) {
  if (!sound.on) return;
  sound.played.push(kind);
  try {
    sound.ctx = sound.ctx || new (window.AudioContext || window.webkitAudioContext)();
    const [freq, len] = TONES[kind], t = sound.ctx.currentTime;
    const o = sound.ctx.createOscillator(), g = sound.ctx.createGain();
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.08, t);
    g.gain.exponentialRampToValueAtTime(0.0001, t + len);
    o.connect(g).connect(sound.ctx.destination);
    o.start(t);
    o.stop(t + len);
  } catch (e) { /* a browser without audio stays silent */ }
}
function drawSound() {
  const b = $("#sound");
  b.setAttribute("aria-pressed", String(sound.on));
  b.textContent = sound.on ? "Sound on" : "Sound off";
}
// one tone an update of the live table: your turn, a trick or count ended, a card played
function sounds(m, before) {
  if (!conn || !before || before.table_id !== m.table_id || before.version === m.version) return;
  const area = m.play_area || {}, was = before.play_area || {};
  if (m.seat !== null && m.current_player === m.seat && !m.terminal && before.current_player !== m.seat) tone("turn");
  else if (area.closed && !was.closed) tone("won");
  else tone("card");
}

function draw(m) {
  sounds(m, last);
  drawOthers(m);
  drawInfo(m);
  drawPlay(m);
  drawHand(m);
  drawMoves(m);
  drawSide(m);
  drawInvites(m);
  drawAway(m);
  drawChat(m);
  last = m;
  document.body.dataset.terminal = String(m.terminal);
  document.body.dataset.turn = String(m.turn);
  document.body.dataset.version = String(m.version);
  document.body.dataset.game = m.game;
  document.body.dataset.seat = m.seat === null ? "spectator" : String(m.seat);
  const mine = m.seat !== null ? el("span", {}, `${m.names[m.seat]} \u00b7 ${scoreOf(m, m.seat)} \u00b7 ${seatFacts(m, m.seat)}`) : el("span", {}, "Watching");
  $("#mybar").replaceChildren(mine);
  $("#me").classList.toggle("to-act", m.current_player === m.seat && !m.terminal);
  const away = (m.away || []).map((p) => m.names[p]);
  // what the seat is asked, in words, from the shared layer (pycards.teach.prompt)
  let status = m.terminal ? "Game over." : m.current_player === m.seat ? (m.prompt ? `Your turn: ${m.prompt}.` : "Your turn.") : `${m.names[m.current_player]} to play.`;
  if (away.length) status += ` Away: ${away.join(", ")}.`;
  $("#status").textContent = status;
  $("#error").textContent = m.error || "";
  $("#help").hidden = !(m.solo && m.seat !== null && !m.terminal && conn);
  $("#hint").disabled = m.current_player !== m.seat;
  const w = $("#warning");
  w.hidden = !m.warning;
  w.textContent = m.warning || "";
}

// ---- the seats this browser holds: table id -> {token, seat, invites}, so
// leaving for the lobby (or a restart) never loses a seat ----
function seatsHeld() {
  try { return JSON.parse(localStorage.getItem("pycards-seats") || "{}"); } catch { return {}; }
}
function holdSeat(table_id, token, invites) {
  const all = seatsHeld();
  const old = all[table_id] || {};
  all[table_id] = { token: token || old.token || null, invites: invites || old.invites || [] };
  localStorage.setItem("pycards-seats", JSON.stringify(all));
}

function drawInvites(m) {
  const held = seatsHeld()[m.table_id];
  const invites = held && held.token === (conn && conn.token) ? held.invites || [] : [];
  const list = $("#invite-list");
  list.replaceChildren(...invites.map((i) => {
    const copy = el("button", { type: "button", class: "copy" }, "Copy");
    copy.addEventListener("click", () => { navigator.clipboard && navigator.clipboard.writeText(i.url); copy.textContent = "Copied"; });
    const here = !(m.away || []).includes(i.seat);
    return el("li", {}, `${m.names[i.seat]}${here ? " (here)" : ""}: `, el("a", { href: i.url, "data-invite": String(i.seat) }, i.url), " ", copy);
  }));
  $("#invites").hidden = !invites.length || m.terminal;
}

// who is away, the clock before a bot plays for them, and the others' choice
function drawAway(m) {
  const box = $("#away");
  box.replaceChildren();
  const clocks = new Map((m.away_clock || []).map((c) => [c.seat, c.seconds]));
  for (const p of m.away || []) {
    if (m.terminal) break;
    const standing = (m.stand_ins || []).includes(p);
    let text = `${m.names[p]} is away`;
    if (standing) text += ": a bot plays for them until they come back.";
    else if (clocks.has(p)) {
      const left = Math.max(0, Math.round(clocks.get(p) - (Date.now() - m.received) / 1000));
      text += `: a bot plays for them in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}.`;
    } else text += ".";
    const line = el("p", { class: "away-line", "data-away": String(p) }, text);
    if (!standing && m.seat !== null && conn && conn.token) {
      const b = el("button", { type: "button", "data-stand-in": String(p) }, "Let a bot play now");
      b.addEventListener("click", () => { if (conn && !conn.down) conn.ws.send(JSON.stringify({ type: "stand_in", seat: p })); });
      line.append(" ", b);
    }
    box.append(line);
  }
  box.hidden = !box.children.length;
}
setInterval(() => { if (last && last.away_clock && last.away_clock.length) drawAway(last); }, 1000);

// the chat of the people at the table: plain text (never markup), which the
// spectators read; a spectator writes nothing
function drawChat(m) {
  $("#chat-box").hidden = !conn; // a replay has no chat
  const log = $("#chat-log");
  log.replaceChildren(...(m.chat || []).map((l) => el("li", {}, el("b", {}, `${m.names[l.seat]}: `), l.text)));
  log.scrollTop = 1e9;
  const writer = m.seat !== null && !!conn && !!conn.token;
  $("#chat-form").hidden = !writer;
  $("#chat-note").hidden = writer;
}

function say(ev) {
  ev.preventDefault();
  const text = $("#chat-text").value.trim();
  if (!text || !conn || conn.down || conn.gone) return;
  conn.ws.send(JSON.stringify({ type: "chat", text }));
  $("#chat-text").value = "";
}

function send(action) {
  if (!conn || !last || conn.down) return;
  // the version, not the turn: an undo lowers the turn, never the version
  conn.ws.send(JSON.stringify({ type: "move", action, version: last.version }));
}

function show(view) {
  document.body.dataset.view = view;
  $("#lobby-view").hidden = view !== "lobby";
  $("#history-view").hidden = view !== "history";
  $("#table-view").hidden = view !== "table" && view !== "replay";
}

function connect(table_id, token) {
  if (conn) { conn.closed = true; conn.ws.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${table_id}${q}`);
  const c = { ws, table_id, token, down: false, closed: false, retry: (conn && conn.table_id === table_id ? conn.retry : 0) };
  conn = c;
  if (token) holdSeat(table_id, token);
  const hash = `#t=${table_id}` + (token ? `&k=${token}` : "");
  if (location.hash !== hash) history.replaceState(null, "", hash);
  show("table");
  ws.onopen = () => { c.retry = 0; c.down = false; $("#banner").hidden = true; document.body.dataset.connected = "true"; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    m.received = Date.now();
    if (m.type === "view") draw(m);
    else if (m.type === "error") $("#error").textContent = m.message;
    else if (m.type === "hint" && last && m.version === last.version) {
      $("#error").textContent = `Hint: ${m.name}`;
      for (const c of document.querySelectorAll("#hand .card")) c.classList.toggle("hinted", c.dataset.card === m.card);
      const b = document.querySelector(`#moves [data-action="${m.action}"]`);
      if (b) b.classList.add("hinted");
    }
  };
  ws.onclose = (ev) => {
    if (c.closed || conn !== c) return;
    document.body.dataset.connected = "false";
    if (ev.code === 4404) {
      c.gone = true;
      if (last) { drawHand(last); drawMoves(last); }
      $("#status").textContent = "This table is gone.";
      return;
    }
    c.down = true;
    $("#banner").hidden = false;
    if (last) { drawHand(last); drawMoves(last); }
    const wait = Math.min(5000, 300 * 2 ** c.retry++);
    setTimeout(() => { if (conn === c) connect(table_id, token); }, wait);
  };
}

// ---- the lobby and the new-table form ----
function seatRows() {
  const g = games.find((x) => x.name === $("#game").value) || games[0];
  const n = Number($("#players").value);
  const box = $("#seat-rows");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => [r.querySelector("select").value, r.querySelector("input").value]);
  box.replaceChildren();
  for (let p = 0; p < n; p++) {
    const anyone = p === 0 ? [] : [el("option", { value: "*open" }, "anyone (from the lobby)")];
    const kind = el("select", { "aria-label": `seat ${p + 1} player`, "data-seat-kind": String(p) }, el("option", { value: "" }, p === 0 ? "you" : "a person (invite link)"), ...anyone, ...g.bots.map((b) => el("option", { value: b }, `${b} bot`)));
    const name = el("input", { size: 12, maxLength: 24, "aria-label": `seat ${p + 1} name`, "data-seat-name": String(p) });
    const [k, nm] = old[p] || [p === 0 ? "" : g.bots[0], ""];
    kind.value = k;
    name.value = nm;
    name.placeholder = p === 0 ? "your name" : "name";
    box.append(el("div", { class: "seat-row" }, el("span", {}, `Seat ${p + 1}`), kind, name));
  }
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
  keep("#preset", [["", "standard"], ...g.presets.map((p) => [p, p.replaceAll("_", " ")])]);
  seatRows();
}

async function start(ev) {
  ev.preventDefault();
  const seats = [...document.querySelectorAll(".seat-row")].map((r) => {
    const kind = r.querySelector("select").value, name = r.querySelector("input").value.trim();
    const seat = kind === "*open" ? { bot: null, open: true } : { bot: kind || null };
    if (name) seat.name = name;
    return seat;
  });
  const body = { game: $("#game").value, players: Number($("#players").value), seats, listed: $("#listed").checked };
  if ($("#preset").value) body.preset = $("#preset").value;
  if ($("#seed").value.trim()) { body.seed = Number($("#seed").value.trim()); body.practice = true; }
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { $("#error").textContent = j.error; alert(j.error); return; }
  // the invite links are shown at the table at once, kept with the creator's seat
  const invites = Object.entries(j.tokens).filter(([p]) => Number(p) !== j.seat)
    .map(([p, t]) => ({ seat: Number(p), url: `${location.origin}/#t=${j.table_id}&k=${t}` }));
  if (j.token) holdSeat(j.table_id, j.token, invites);
  if (j.token) connect(j.table_id, j.token); else connect(j.table_id, null);
}

async function loadLobby() {
  const r = await fetch("/api/tables");
  const tables = await r.json();
  const list = $("#lobby-list");
  list.replaceChildren();
  if (!tables.length) list.append(el("li", { class: "none" }, "None yet."));
  const held = seatsHeld();
  for (const t of tables) {
    const li = el("li", {}, `${t.title}: ${t.seats.map((s) => s.name + (s.bot ? " (bot)" : "")).join(", ")} \u00b7 move ${t.turn} `);
    if (held[t.table_id] && held[t.table_id].token) {
      const back = el("button", { type: "button", class: "back-to-seat" }, "Back to your seat");
      back.addEventListener("click", () => connect(t.table_id, held[t.table_id].token));
      li.append(back);
    }
    const watch = el("button", { type: "button" }, "Watch");
    watch.addEventListener("click", () => connect(t.table_id, null));
    li.append(watch);
    t.seats.forEach((s, p) => {
      if (!s.open) return;
      const b = el("button", { type: "button" }, `Sit as ${s.name}`);
      b.addEventListener("click", async () => {
        const jr = await fetch(`/api/tables/${t.table_id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat: p }) });
        const j = await jr.json();
        if (jr.ok) connect(j.table_id, j.token); else alert(j.error);
      });
      li.append(b);
    });
    list.append(li);
  }
}

// ---- finished games, replayed move by move ----
let replayId = null;
async function loadHistory() {
  show("history");
  const r = await fetch("/api/history");
  const rows = await r.json();
  const list = $("#history-list");
  list.replaceChildren();
  if (!rows.length) list.append(el("li", { class: "none" }, "No finished game yet."));
  for (const g of rows) {
    const b = el("button", { type: "button" }, "Replay");
    b.addEventListener("click", () => replayAt(g.table_id, 0));
    list.append(el("li", {}, `${g.game}: ${g.names.map((n, p) => `${n} ${g.returns[p]}`).join(", ")} (${g.moves} moves) `, b));
  }
}

async function replayAt(id, step) {
  const r = await fetch(`/api/history/${id}?step=${step}`);
  if (!r.ok) return;
  const m = await r.json();
  replayId = id;
  if (conn) { conn.closed = true; conn.ws.close(); conn = null; }
  draw(m);
  show("replay");
  $("#history-view").hidden = false;
  $("#replay-bar").hidden = false;
  const s = $("#replay-step");
  s.max = String(m.steps);
  s.value = String(step);
  $("#replay-label").textContent = `move ${step} of ${m.steps}`;
}

function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("t")) connect(h.get("t"), h.get("k"));
  else { show("lobby"); loadLobby(); }
}

document.addEventListener("keydown", (ev) => {
  if (!["ArrowLeft", "ArrowRight"].includes(ev.key)) return;
  const cards = [...document.querySelectorAll("#hand .card.legal")];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  const j = i < 0 ? 0 : (i + (ev.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
  cards[j].focus();
  ev.preventDefault();
});

async function init() {
  const r = await fetch("/api/games");
  games = await r.json();
  $("#game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  $("#game").addEventListener("change", fillForm);
  $("#players").addEventListener("change", seatRows);
  $("#new-game").addEventListener("submit", start);
  $("#to-lobby").addEventListener("click", () => { if (conn) { conn.closed = true; conn.ws.close(); conn = null; } history.replaceState(null, "", "#"); show("lobby"); loadLobby(); });
  $("#to-history").addEventListener("click", loadHistory);
  $("#chat-form").addEventListener("submit", say);
  $("#sound").addEventListener("click", () => {
    sound.on = !sound.on;
    localStorage.setItem("pycards-sound", sound.on ? "on" : "off");
    drawSound();
  });
  drawSound();
  $("#hint").addEventListener("click", () => { if (conn && !conn.down) conn.ws.send(JSON.stringify({ type: "hint" })); });
  $("#undo").addEventListener("click", () => { if (conn && !conn.down) conn.ws.send(JSON.stringify(last ? { type: "undo", version: last.version } : { type: "undo" })); });
  $("#replay-step").addEventListener("input", () => replayAt(replayId, Number($("#replay-step").value)));
  $("#replay-prev").addEventListener("click", () => replayAt(replayId, Math.max(0, Number($("#replay-step").value) - 1)));
  $("#replay-next").addEventListener("click", () => replayAt(replayId, Math.min(Number($("#replay-step").max), Number($("#replay-step").value) + 1)));
  window.addEventListener("hashchange", route);
  // the lobby refreshes itself while it is shown
  setInterval(() => { if (document.body.dataset.view === "lobby" && !document.hidden) loadLobby(); }, 4000);
  fillForm();
  route();
  document.body.dataset.ready = "true";
}

init();
