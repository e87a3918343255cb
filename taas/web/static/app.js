// The taas web table: new game form, the table, and the replay stepper, all from the JSON API
// (see taas/web/app.py). The server holds every game; this page only shows and asks.
// ?pace=MS sets the delay between agents' moves (default 900 ms; the first move after yours
// comes sooner, 100 ms at most).
"use strict";

const params = new URLSearchParams(location.search);
const PACE = params.has("pace") ? Number(params.get("pace")) : 900;
const main = document.getElementById("main");

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) node.append(c);
  }
  return node;
}

// Replace the page's content (skipping absent parts).
function show(...sections) {
  main.replaceChildren(...sections.filter((s) => s !== null && s !== undefined));
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// A request to the API; `token` (a seat's) travels in the X-Seat-Token header, never in
// the URL (URLs end up in logs and browser history).
async function api(method, url, body, token) {
  const init = { method, headers: {} };
  if (token) init.headers["X-Seat-Token"] = token;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || `${response.status} ${response.statusText}`);
  return data;
}

function cards(kinds, opts = {}) {
  return h("span", { class: "cards" }, kinds.map((k) => cardSvg(k, { small: true, ...opts })));
}

function fact(f) {
  return h("span", { class: "fact" }, h("b", { text: f.label + " " }),
    f.cards !== undefined ? (f.cards.length ? cards(f.cards) : "–") : f.text);
}

// ---------------------------------------------------------------- new game
async function newGameForm() {
  document.getElementById("title").textContent = "new game";
  const envs = await api("GET", "/api/envs");
  const envSelect = h("select", { id: "env" }, envs.map((e) => h("option", { value: e.id, text: e.id })));
  const seats = h("div", { id: "seats-form" });
  const rules = h("div", { id: "rules-form", class: "rules" });
  const seed = h("input", { id: "seed", type: "number", min: 0, placeholder: "random" });
  const agentList = h("datalist", { id: "agent-specs" });

  function seatCount(env) {
    const n = rules.querySelector('[name="num_players"]');
    return n ? Number(n.value) || env.rules.num_players : 2;
  }
  function drawSeats(env) {
    agentList.replaceChildren(...["human", ...env.agents].map((a) => h("option", { value: a })));
    const previous = [...seats.querySelectorAll("input")].map((i) => i.value);
    const bot = env.agents.includes("heuristic") ? "heuristic" : "random";
    seats.replaceChildren(...Array.from({ length: seatCount(env) }, (_, i) =>
      h("label", { class: "seat-choice" }, `player_${i} `,
        h("input", { name: `seat-${i}`, list: "agent-specs", value: previous[i] || (i === 0 ? "human" : bot) }))));
  }
  function drawRules(env) {
    rules.replaceChildren(...Object.entries(env.rules).map(([name, value]) => {
      const input = typeof value === "boolean"
        ? h("input", { type: "checkbox", name, checked: value })
        : h("input", { name, value: value === null ? "" : String(value), placeholder: value === null ? "default" : "" });
      input.dataset.default = JSON.stringify(value);
      if (name === "num_players") input.addEventListener("change", () => drawSeats(env));
      return h("label", { class: "rule" }, h("span", { text: name }), input);
    }));
  }
  function current() { return envs.find((e) => e.id === envSelect.value); }
  function ruleValues() {
    const out = {};
    for (const input of rules.querySelectorAll("input")) {
      const def = JSON.parse(input.dataset.default);
      let value;
      if (input.type === "checkbox") value = input.checked;
      else if (input.value.trim() === "") value = null;
      else if (/^-?\d+$/.test(input.value.trim())) value = Number(input.value.trim());
      else value = input.value.trim();
      if (JSON.stringify(value) !== JSON.stringify(def)) out[input.name] = value;
    }
    return out;
  }
  envSelect.addEventListener("change", () => { drawRules(current()); drawSeats(current()); });
  drawRules(current());
  drawSeats(current());

  const start = h("button", { id: "start", class: "primary", text: "Deal" });
  start.addEventListener("click", async () => {
    showError("");
    const body = {
      env_id: envSelect.value,
      agents: [...seats.querySelectorAll("input")].map((i) => i.value.trim()),
      rules: ruleValues(),
    };
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const game = await api("POST", "/api/games", body);
      for (const [seat, token] of Object.entries(game.tokens)) {
        localStorage.setItem(`taas-${game.id}-${seat}`, token);
      }
      const [first] = Object.values(game.tokens);
      location.href = `/game/${game.id}${location.search}#token=${first}`;
    } catch (err) {
      showError(err.message);
    }
  });
  main.replaceChildren(h("section", { class: "panel form" },
    h("h2", { text: "Sit down at a table" }),
    h("label", {}, "game ", envSelect),
    h("h3", { text: "seats (human = you; or an agent spec such as random, heuristic, ismcts:100)" }),
    seats, agentList,
    h("details", {}, h("summary", { text: "rules" }), rules),
    h("label", {}, "seed ", seed), " ", start));
}

// ---------------------------------------------------------------- the table
const table = { id: null, token: null, view: null, busy: false, timer: null, seen: 0 };

async function openGame(id) {
  table.id = id;
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  table.token = fromHash || knownTokens(id)[0]?.[1] || null;
  document.getElementById("title").textContent = `game ${id}`;
  try {
    await refresh(seatApi("GET", ""));
  } catch (err) {
    showError(err.message);
  }
}

// The seats of game `id` this browser holds tokens for, as [seat, token] pairs.
function knownTokens(id) {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = new RegExp(`^taas-${id}-(\\d+)$`).exec(localStorage.key(i));
    if (m) out.push([Number(m[1]), localStorage.getItem(localStorage.key(i))]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

// A request about the open game, as its seat (a spectator without a token).
function seatApi(method, tail, body) {
  return api(method, `/api/games/${table.id}${tail}`, body, table.token);
}

async function refresh(request) {
  const view = await request;
  table.seen = table.view ? table.view.log.length : view.log.length;
  table.view = view;
  renderTable(view);
  schedule(view);
}

function schedule(view) {
  clearTimeout(table.timer);
  if (view.over) return;
  const mover = view.seats[view.current];
  if (mover.agent !== "human" && view.seat !== null) {  // a seat sets the agents' pace
    const fresh = view.log.length && lastMover(view) === view.seat;
    table.timer = setTimeout(advance, fresh ? Math.min(100, PACE) : PACE);
  } else if (view.current !== view.seat) {
    table.timer = setTimeout(() => refresh(seatApi("GET", "")).catch((e) => showError(e.message)), 1500);
  }
}

function lastMover(view) {
  const m = /^player_(\d+)/.exec(view.log[view.log.length - 1] || "");
  return m ? Number(m[1]) : null;
}

async function advance() {
  try {
    await refresh(seatApi("POST", "/advance"));
  } catch (err) {  // e.g. another page of this game moved first: look again shortly
    showError(err.message);
    table.timer = setTimeout(() => refresh(seatApi("GET", "")).catch((e) => showError(e.message)), 1000);
  }
}

async function act(actionId) {
  if (table.busy) return;
  table.busy = true;
  showError("");
  try {
    await refresh(seatApi("POST", "/move", { action: actionId }));
  } catch (err) {
    showError(err.message);
  } finally {
    table.busy = false;
  }
}

function renderTable(v) {
  const mine = v.seat;
  const wild = new Set(v.wild || []);
  // A click on a card plays the game's main card action (discard, play): the verb of the
  // first legal action about a card. The card's other actions (show 7H, dublee_swap 9C) are
  // buttons, so a click never does something rarer than it looks.
  const primary = new Map();
  const cardActions = (v.actions || []).filter((a) => a.card !== null);
  const verb = cardActions.length ? cardActions[0].name.split(" ")[0] : null;
  for (const a of cardActions) {
    if (a.name.split(" ")[0] === verb && !primary.has(a.card)) primary.set(a.card, a);
  }
  const buttons = (v.actions || []).filter((a) => a.card === null || primary.get(a.card) !== a);

  const status = v.over ? "game over"
    : v.current === mine ? "your move"
    : `player_${v.current} (${v.seats[v.current].agent}) to move…`;

  const moved = v.log.length > table.seen ? lastMover(v) : null;  // pulses once
  const seats = v.seats.filter((s) => s.seat !== mine).map((s) =>
    h("div", { class: "seat" + (s.seat === v.current ? " current" : "") + (s.seat === moved ? " moved" : ""),
      id: `seat-${s.seat}` },
      h("div", { class: "who", text: `player_${s.seat} · ${s.agent}` }),
      h("div", { class: "backs" }, cardBack()),
      s.notes.map(fact)));

  const hand = (v.hand || []).map((k) => {
    const svg = cardSvg(k, { wild: wild.has(k) });
    const a = primary.get(k);
    if (a) {
      svg.classList.add("playable");
      svg.setAttribute("tabindex", "0");
      svg.setAttribute("data-action", String(a.id));
      svg.appendChild(svgNode("title", {}, a.name));
      svg.addEventListener("click", () => act(a.id));
      svg.addEventListener("keydown", (e) => { if (e.key === "Enter") act(a.id); });
    }
    return svg;
  });

  const melds = v.melds ? h("div", { id: "melds", class: "melds" },
    h("b", { text: "suggested melds " }),
    v.melds.melds.map((m) => h("span", { class: "meld" + (m.life ? " life" : "") }, cards(m.cards, {}), m.life ? " life" : "")),
    h("span", { class: "meld deadwood" }, "deadwood ", cards(v.melds.deadwood), ` (${v.melds.penalty})`)) : null;

  const last = v.log.length ? v.log[v.log.length - 1] : "the deal";
  const fresh = v.log.length > table.seen;

  show(
    h("section", { class: "facts", id: "facts" }, v.facts.map(fact)),
    h("section", { class: "opponents" }, seats),
    h("section", { class: "felt" },
      h("div", { id: "lastmove", class: fresh ? "flash" : "", text: last }),
      h("div", { id: "status", class: v.current === mine && !v.over ? "yours" : "",
        "data-moves": v.moves, text: status })),
    mine === null ? h("p", { text: "watching: open the link with your seat's token to play" }) :
      h("section", { class: "mine" },
        h("div", { class: "who", text: `player_${mine} · you` },
          " ", (v.seats[mine].notes || []).filter((n) => n.label !== "cards").map(fact)),
        h("div", { id: "hand", class: "hand" }, hand),
        melds,
        h("div", { id: "actions", class: "actions" }, buttons.map((a) =>
          h("button", { id: `action-${a.id}`, "data-action": a.id, onclick: () => act(a.id), text: a.name })))),
    seatLinks(v),
    v.over ? finalBox(v) : null,
    sheet(v.sheet, v.seats.length),
    h("section", { id: "rounds" }, v.rounds.map(roundReport)),
    h("details", { class: "log" }, h("summary", { text: `moves (${v.log.length})` }),
      h("ol", { id: "log" }, v.log.map((line) => h("li", { text: line })))));
}

// Links to the other people's seats this browser created (a hot-seat game).
function seatLinks(v) {
  const others = knownTokens(table.id).filter(([seat]) => seat !== v.seat);
  if (!others.length) return null;
  return h("p", { class: "seat-links" }, "other seats: ", others.map(([seat, token]) =>
    h("a", { href: `/game/${table.id}${location.search}#token=${token}`, text: `player_${seat} ` })));
}

function finalBox(v) {
  const text = v.returns.map((r, i) => `player_${i} ${r > 0 ? "+" : ""}${r}`).join("   ");
  return h("section", { id: "final", class: "panel", "data-returns": JSON.stringify(v.returns) },
    h("h2", { text: v.truncated ? "Cut short by the turn limit" : "Final score" }),
    h("p", { id: "final-scores", text }),
    h("a", { id: "download", href: `/api/games/${table.id}/replay`, text: "download the replay file" }),
    " · ", h("a", { href: `/replay/${table.id}${location.search}`, text: "step through it" }),
    " · ", h("a", { href: `/${location.search}`, text: "new game" }));
}

function sheet(s, n) {
  return h("section", { class: "panel" },
    h("h3", { text: `score sheet: ${s.unit}` }),
    h("table", { id: "sheet" },
      h("tr", {}, h("th", { text: "round" }), Array.from({ length: n }, (_, i) => h("th", { text: `player_${i}` }))),
      s.rows.map((row, r) => h("tr", {}, h("td", { text: String(r + 1) }), row.map((x) => h("td", { text: String(x) })))),
      h("tr", { class: "totals" }, h("td", { text: "total" }), s.totals.map((x) => h("td", { text: String(x) })))));
}

function roundReport(r) {
  return h("div", { class: "panel report" },
    h("h3", { text: r.title }),
    r.lines.map((line) => h("p", { text: line })),
    r.hands.map((hand) => h("div", { class: "arrangement" },
      h("span", { class: "who", text: `player_${hand.seat}${hand.note ? " (" + hand.note + ")" : ""}: ` }),
      hand.melds.map((m) => h("span", { class: "meld" + (m.life ? " life" : "") }, cards(m.cards))),
      hand.deadwood.length ? h("span", { class: "meld deadwood" }, "deadwood ", cards(hand.deadwood)) : null,
      h("b", { text: ` ${hand.label || "penalty"} ${hand.penalty}` }))));
}

// ---------------------------------------------------------------- replays
const replay = { data: null, at: 0, timer: null };

async function openReplay(id) {
  document.getElementById("title").textContent = id ? `replay of game ${id}` : "open a replay";
  if (id) {
    try {
      showReplay(await api("GET", `/api/games/${id}/frames`));
    } catch (err) {
      showError(err.message);
    }
    return;
  }
  const input = h("input", { type: "file", id: "replay-file", accept: ".json,application/json" });
  input.addEventListener("change", async () => {
    showError("");
    try {
      showReplay(await api("POST", "/api/replays", await input.files[0].text()));
    } catch (err) {
      showError(err.message);
    }
  });
  main.replaceChildren(h("section", { class: "panel" },
    h("h2", { text: "Open a replay file" }),
    h("p", { text: "A file written by taas play --record or downloaded from a finished game." }), input));
}

function showReplay(data) {
  replay.data = data;
  replay.at = 0;
  drawFrame();
}

function drawFrame() {
  const { data } = replay;
  const last = data.frames.length - 1;
  const f = data.frames[replay.at];
  const go = (i) => () => { replay.at = Math.max(0, Math.min(last, i)); drawFrame(); };
  const play = () => {
    clearInterval(replay.timer);
    replay.timer = setInterval(() => {
      if (replay.at >= last) { clearInterval(replay.timer); return; }
      replay.at += 1; drawFrame();
    }, PACE);
  };
  show(
    h("section", { class: "panel controls" },
      h("button", { onclick: go(0), text: "⏮" }), h("button", { id: "prev", onclick: go(replay.at - 1), text: "◀" }),
      h("button", { id: "next", onclick: go(replay.at + 1), text: "▶" }), h("button", { onclick: go(last), text: "⏭" }),
      h("button", { onclick: play, text: "play" }), h("button", { onclick: () => clearInterval(replay.timer), text: "pause" }),
      h("span", { id: "step", text: ` move ${replay.at} of ${last}: ` }), h("b", { id: "line", text: f.line })),
    h("section", { class: "facts" }, f.facts.map(fact)),
    h("section", { class: "open-hands" }, f.hands.map((hand, i) =>
      h("div", { class: "seat" }, h("div", { class: "who", text: `player_${i} · ${data.agents[i]}` }), cards(hand)))),
    sheet(f.sheet, data.agents.length),
    replay.at === last ? h("section", {}, data.rounds.map(roundReport),
      h("p", { id: "final-scores", text: "final: " + data.returns.join("  ") })) : null);
}

// ---------------------------------------------------------------- routing
const parts = location.pathname.split("/").filter(Boolean);
window.addEventListener("hashchange", () => location.reload());  // another seat's link
if (parts[0] === "game" && parts[1]) openGame(parts[1]);
else if (parts[0] === "replay") openReplay(parts[1]);
else newGameForm().catch((err) => showError(err.message));
