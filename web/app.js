// The page: chooses a game, draws the board from the position JSON the server returns, shows the
// last move step by step, and asks the server for computer moves and hints. The page holds the game
// as the list of moves played; every request sends that list and the server replays it, so undo is
// dropping moves and a reload (the list is kept in the address) loses nothing.
"use strict";

(function () {
  const B = window.SowBoard;
  const $ = (sel) => document.querySelector(sel);
  const SVGNS = "http://www.w3.org/2000/svg";

  const app = {
    games: [],
    single: false,
    gameId: null,
    moves: [],
    first: "",
    data: null, // the last /api/state answer
    board: null, // the served game's description (the board's shape), from the last answer
    flip: false,
    gen: 0, // bumped by every new game, undo or move, so late answers for an older game are dropped
    // The computer players' random choices; `?seed=N` in the address fixes them (for tests and demonstrations).
    seed: /[?&]seed=(\d+)/.test(location.search) ? parseInt(/[?&]seed=(\d+)/.exec(location.search)[1], 10) : Math.floor(Math.random() * 1e9),
    hinted: null,
    hintedMove: null, // the move the last hint suggested, marked when its pit asks which move
    choosing: null, // the pit whose moves the choice panel offers
    previewing: null, // the move whose outcome the board shows while the pointer is on its button
    previews: new Map(), // "gen move" -> the answer for the moves played and that move
    scrolled: null, // where the page was scrolled before the question opened
    frame: null,
  };

  // ---------- talking to the server ----------

  async function api(path, body) {
    const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new Error("the board's server does not answer: is `sowlang serve` still running?");
    }
    let json = null;
    try {
      json = await res.json();
    } catch (e) {
      throw new Error("the server sent something that is not JSON (" + res.status + ")");
    }
    if (!res.ok || json.error) {
      const e = (json && json.error) || {};
      const err = new Error((e.message || "the server refused the request") + (e.help ? " (" + e.help + ")" : ""));
      err.accepted = typeof e.accepted_moves === "number" ? e.accepted_moves : null;
      throw err;
    }
    return json;
  }

  function request(extra) {
    const body = { game: app.gameId, moves: app.moves.slice() };
    if (app.first) body.first = app.first;
    return Object.assign(body, extra || {});
  }

  // ---------- seats: who plays each side ----------

  const STRENGTHS = {
    alphabeta: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((d) => ({ value: "alphabeta:" + d, label: "looks " + d + " move" + (d > 1 ? "s" : "") + " ahead", def: d === 4 })),
    mcts: [100, 500, 1000, 3000, 10000, 20000].map((p) => ({ value: "mcts:" + p, label: p + " playouts", def: p === 1000 })),
  };

  function seat(side) {
    const el = document.querySelector('.seat[data-side="' + side + '"]');
    const kind = el.querySelector(".kind").value;
    const strength = el.querySelector(".strength");
    const name = el.querySelector(".name").value.trim() || side[0].toUpperCase() + side.slice(1);
    let spec = null;
    if (kind === "random" || kind === "greedy") spec = kind;
    else if (kind !== "human") spec = strength.value;
    return { side: side, human: kind === "human", spec: spec, name: name };
  }

  function who(side) {
    const s = seat(side);
    return s.human ? s.name : s.name + " (computer)";
  }

  /** "Ama (south)", or just "South" when the name is the side's. */
  function whoSide(side) {
    const s = seat(side);
    const own = s.name.toLowerCase() === side;
    if (s.human) return s.name + (own ? "" : " (" + side + ")");
    return s.name + (own ? " (computer)" : " (computer, " + side + ")");
  }

  function fillStrength(el) {
    const kind = el.querySelector(".kind").value;
    const sel = el.querySelector(".strength");
    const keep = sel.value;
    sel.replaceChildren();
    const options = STRENGTHS[kind] || [];
    for (const o of options) {
      const opt = document.createElement("option");
      opt.value = o.value;
      opt.textContent = o.label;
      if (o.value === keep || (!keep.startsWith(kind) && o.def)) opt.selected = true;
      sel.appendChild(opt);
    }
    sel.hidden = options.length === 0;
  }

  function saveSettings() {
    const s = {};
    for (const side of ["south", "north"]) {
      const el = document.querySelector('.seat[data-side="' + side + '"]');
      s[side] = { name: el.querySelector(".name").value, kind: el.querySelector(".kind").value, strength: el.querySelector(".strength").value };
    }
    s.speed = $("#speed").value;
    s.hints = $("#hint-level").value;
    s.presenting = document.body.classList.contains("presenting");
    try {
      localStorage.setItem("sowlang-serve", JSON.stringify(s));
    } catch (e) {
      /* private windows may refuse storage; the settings then last as long as the page */
    }
  }

  function loadSettings() {
    let s = null;
    try {
      s = JSON.parse(localStorage.getItem("sowlang-serve") || "null");
    } catch (e) {
      s = null;
    }
    for (const side of ["south", "north"]) {
      const el = document.querySelector('.seat[data-side="' + side + '"]');
      if (s && s[side]) {
        el.querySelector(".name").value = s[side].name || el.querySelector(".name").value;
        if (s[side].kind) el.querySelector(".kind").value = s[side].kind;
      }
      fillStrength(el);
      if (s && s[side] && s[side].strength) el.querySelector(".strength").value = s[side].strength;
    }
    if (s && s.speed) $("#speed").value = s.speed;
    if (s && (s.hints === "child" || s.hints === "adult")) $("#hint-level").value = s.hints;
    // `?present` in the address opens in presentation, as does the last choice made on this computer.
    present(/[?&]present\b/.test(location.search) || !!(s && s.presenting));
  }

  /** Folds the set-up panel away (or back): the board, the last move and the moves fill the screen. */
  function present(on) {
    document.body.classList.toggle("presenting", on);
    const b = $("#present");
    b.setAttribute("aria-pressed", String(on));
    b.textContent = on ? "Show set-up" : "Presentation";
  }

  // ---------- the address keeps the game ----------

  function writeHash() {
    const parts = ["game=" + encodeURIComponent(app.gameId)];
    if (app.moves.length) parts.push("moves=" + app.moves.map((m) => encodeURIComponent(String(m))).join(","));
    if (app.first) parts.push("first=" + app.first);
    history.replaceState(null, "", "#" + parts.join("&"));
  }

  function readHash() {
    const out = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const i = part.indexOf("=");
      if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
    }
    const moves = out.moves
      ? out.moves.split(",").filter((m) => m !== "").map((m) => {
          const d = decodeURIComponent(m);
          return /^\d+$/.test(d) ? parseInt(d, 10) : d;
        })
      : [];
    return { game: out.game ? decodeURIComponent(out.game) : null, moves: moves, first: out.first === "north" || out.first === "south" ? out.first : "" };
  }

  // ---------- status, errors ----------

  function setBusy(b) {
    document.body.dataset.busy = b ? "1" : "0";
  }

  function showError(message) {
    const el = $("#error");
    el.textContent = message;
    el.hidden = !message;
  }

  function status(text, cls) {
    const el = $("#status");
    el.textContent = text;
    el.className = cls || "";
  }

  function statusFor(data) {
    const pos = data.position;
    if (pos.over) {
      const s = data.scores;
      let result = "it is a draw";
      if (pos.winner === "south" || pos.winner === "north") result = who(pos.winner) + " wins";
      return ["Game over: " + result + " — " + who("south") + " " + s.south + ", " + who("north") + " " + s.north + (pos.ended_by ? " (" + pos.ended_by + ")" : ""), "over"];
    }
    if (data.stuck) return [data.status, "over"];
    if (data.game && data.game.rounds && pos.rounds_won) {
      const r = "Round " + pos.round + " (rounds won: " + who("south") + " " + pos.rounds_won.south + ", " + who("north") + " " + pos.rounds_won.north + "). ";
      const mover = seat(pos.to_move);
      return [r + whoSide(pos.to_move) + " to move" + (mover.human ? ": touch a pit with a white ring" : ""), "turn"];
    }
    const mover = seat(pos.to_move);
    if (mover.human) return [whoSide(pos.to_move) + " to move: touch a pit with a white ring", "turn"];
    return [whoSide(pos.to_move) + " to move", "turn"];
  }

  // ---------- drawing ----------

  const PIT = 100; // grid unit
  const STORE = 120;
  const BAND = 46; // name band above and below

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  const SEED_COLOURS = ["#7b4a1e", "#8f5a2a", "#5e3b1a", "#a0522d", "#6b4423", "#946b3f"];

  function drawSeeds(g, n, cx, cy, rx, ry, max) {
    const spots = B.seedSpots(n, max, rx, ry);
    spots.forEach((s, i) => {
      el("circle", { class: "seed", cx: (cx + s.x).toFixed(1), cy: (cy + s.y).toFixed(1), r: 7.5, fill: SEED_COLOURS[(i * 7 + 3) % SEED_COLOURS.length] }, g);
    });
  }

  /** Draws the board: `counts` (key -> seeds) and `view` (path, marks, active cell, legal pits). */
  function draw(position, counts, view) {
    const svg = $("#board");
    svg.replaceChildren();
    const L = B.layout(position, app.flip, app.board);
    const flat = B.isFlat(position);
    const closed = B.perPit(position.closed);
    const claimed = B.perPit(position.claimed);
    const midGap = 24;
    const gaps = (L.breaks || [L.topLines]).length;
    const width = STORE * 2 + 40 + L.width * PIT;
    const height = BAND * 2 + L.lines * PIT + gaps * midGap;
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    el("rect", { class: "wood", x: 2, y: BAND - 12, width: width - 4, height: height - 2 * BAND + 24, rx: 40 }, svg);
    const lineY = (line) => BAND + line * PIT + B.gapsAbove(L, line) * midGap + PIT / 2;
    const colX = (col) => STORE + 20 + col * PIT + PIT / 2;
    // Pits that belong to nobody stand on a lighter band: a middle row across the board, a ring of
    // nobody's pits all round it. An odd ring's one shared pit is marked by its own colour alone.
    if (L.shape === "middle" || L.shape === "ring of nobody") {
      const lines = L.pits.filter((p) => p.shared).map((p) => p.line);
      const y0 = lineY(Math.min(...lines)) - PIT / 2 + 4;
      const y1 = lineY(Math.max(...lines)) + PIT / 2 - 4;
      el("rect", { class: "shared-band", x: STORE + 14, y: y0, width: L.width * PIT + 12, height: y1 - y0, rx: 44 }, svg);
    }

    // The players' names, each on their own side of the board; the one to move is marked.
    const band = (side, y) => {
      const mover = !position.over && position.to_move === side;
      const t = el("text", { class: "side-name" + (mover ? " to-move" : ""), x: width / 2, y: y, "text-anchor": "middle", "data-side": side }, svg);
      t.textContent = (mover ? "▶ " : "") + whoSide(side) + (mover ? " ◀" : "");
    };
    band(L.top, BAND - 18);
    band(L.bottom, height - 10);

    const legal = view.legal || {};
    for (const p of L.pits) {
      const k = B.key(p);
      const cx = colX(p.col);
      const cy = lineY(p.line);
      const classes = ["pit", p.shared ? "shared" : p.side];
      if (p.store) classes.push("store-pit");
      if (legal[k]) classes.push("legal");
      if (view.active === k) classes.push("active");
      if (view.marks && view.marks[k]) classes.push(view.marks[k]);
      if (view.path && view.path[k]) classes.push("sown");
      if (app.hinted === k) classes.push("hinted");
      if (closed[k]) classes.push("closed");
      const g = el("g", { class: classes.join(" "), "data-key": k, "data-side": p.shared ? "shared" : p.side, "data-row": p.shared ? "" : p.row, "data-pit": p.pit, "data-count": counts[k] }, svg);
      if (legal[k]) {
        g.setAttribute("role", "button");
        g.setAttribute("tabindex", "0");
        g.setAttribute("aria-label", "play " + (p.shared ? "shared pit " : "pit ") + B.pitName(p, flat) + " (" + counts[k] + " seeds)");
      }
      el("circle", { class: "hole", cx: cx, cy: cy, r: 42 }, g);
      if (legal[k]) {
        el("circle", { class: "legal-halo", cx: cx, cy: cy, r: 47 }, g);
        el("circle", { class: "legal-ring", cx: cx, cy: cy, r: 47 }, g);
      }
      if (claimed[k]) el("circle", { class: "claim " + claimed[k], cx: cx, cy: cy, r: 46 }, g);
      drawSeeds(g, counts[k] || 0, cx, cy, 34, 34, 30);
      const label = el("text", { class: "pit-name", x: cx - 40, y: cy - 32 }, g);
      label.textContent = B.pitName(p, flat);
      el("circle", { class: "count-bg", cx: cx + 34, cy: cy + 34, r: 16 }, g);
      const count = el("text", { class: "count", x: cx + 34, y: cy + 40, "text-anchor": "middle" }, g);
      count.textContent = counts[k] || 0;
      if (view.path && view.path[k]) {
        const o = el("text", { class: "order", x: cx - 34, y: cy + 42, "text-anchor": "middle" }, g);
        o.textContent = view.path[k];
      }
      g.addEventListener("click", () => clickPit(k, g));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          clickPit(k, g);
        }
      });
    }

    // A store that holds seeds still to be entered into play (`sow { from store N }`) is the player's
    // hand: drawn as an open hand, so that its seeds are not read as a score.
    const hand = !!(app.board && app.board.hand);
    for (const s of L.stores) {
      const k = B.key(s);
      const x = s.at === "left" ? 10 : width - 10 - STORE;
      const y = BAND;
      const h = L.lines * PIT + gaps * midGap;
      const classes = ["store", s.side];
      if (view.active === k) classes.push("active");
      if (view.path && view.path[k]) classes.push("sown");
      if (hand) classes.push("hand");
      const g = el("g", { class: classes.join(" "), "data-key": k, "data-side": s.side, "data-count": counts[k] }, svg);
      if (hand) {
        const palm = drawHand(g, x, y, h, s.at === "left");
        drawSeeds(g, counts[k] || 0, x + STORE / 2, palm.cy, 40, palm.ry, 90);
      } else {
        el("rect", { class: "hole", x: x + 8, y: y + 4, width: STORE - 16, height: h - 8, rx: 50 }, g);
        drawSeeds(g, counts[k] || 0, x + STORE / 2, y + h / 2 + 10, 44, h / 2 - 50, 90);
      }
      const name = seat(s.side).name;
      const t = el("text", { class: "store-name", x: x + STORE / 2, y: y + 26, "text-anchor": "middle" }, g);
      t.textContent = (name.length > 11 ? name.slice(0, 10) + "…" : name) + "'s";
      const t2 = el("text", { class: "store-name", x: x + STORE / 2, y: y + 44, "text-anchor": "middle" }, g);
      t2.textContent = hand ? "seeds in hand" : "store";
      const count = el("text", { class: "count store-count", x: x + STORE / 2, y: y + h - 16, "text-anchor": "middle" }, g);
      count.textContent = counts[k] || 0;
    }
    svg.setAttribute("aria-label", describeBoard(position, counts, L, flat));
  }

  /**
   * An open hand, palm up, in a store's place: four fingers above a palm, and a thumb. Returns where
   * its seeds lie: on the palm, clear of the count written at the bottom.
   */
  function drawHand(g, x, y, h, thumbRight) {
    const cx = x + STORE / 2;
    const fingerTop = y + 54;
    const palmTop = y + Math.min(120, h * 0.36);
    [-36, -12, 12, 36].forEach((dx, i) => {
      const top = fingerTop + [18, 4, 0, 10][thumbRight ? 3 - i : i];
      el("rect", { class: "finger", x: cx + dx - 11, y: top, width: 22, height: palmTop - top + 24, rx: 11 }, g);
    });
    // The thumb, on the side towards the board, pointing up and out; its root hidden by the palm.
    const tx = thumbRight ? x + STORE - 30 : x + 30;
    const ty = palmTop + 46;
    el("rect", { class: "finger", x: tx, y: ty - 11, width: 52, height: 22, rx: 11, transform: "rotate(" + (thumbRight ? -50 : 230) + " " + tx + " " + ty + ")" }, g);
    const bottom = y + h - 6;
    el("rect", { class: "hole", x: x + 6, y: palmTop, width: STORE - 12, height: bottom - palmTop, rx: 40 }, g);
    return { cy: (palmTop + bottom - 30) / 2, ry: Math.max(10, (bottom - 30 - palmTop) / 2 - 12) };
  }

  function describeBoard(position, counts, L, flat) {
    const parts = [];
    for (const side of [L.top, L.bottom]) {
      const rows = B.rowsOf(position.pits[side]).map((row, r) => row.map((_, i) => counts[B.key({ side: side, row: r, pit: i + 1 })]).join(" "));
      const kept = app.board && app.board.hand ? ", in hand " : ", store ";
      parts.push(side + ": " + rows.join(" / ") + kept + counts[B.key({ side: side, store: true })]);
    }
    const shared = (position.pits.shared || []).map((_, i) => counts[B.key({ shared: true, pit: i + 1 })]);
    if (shared.length) parts.push("shared pits s1 to s" + shared.length + ": " + shared.join(" "));
    return "the board, " + parts.join("; ");
  }

  function legalView(data) {
    const pos = data.position;
    if (pos.over || !seat(pos.to_move).human) return {};
    const byPit = B.movesByPit(pos);
    return byPit;
  }

  function finalView(data) {
    const view = { legal: legalView(data), active: app.choosing };
    if (data.last) {
      const f = B.frames(data.last.before, data.last.steps, data.position);
      const end = f[f.length - 1];
      view.path = end.path;
      view.marks = end.marks;
    }
    return view;
  }

  function narrate(data, current) {
    const ol = $("#narration");
    ol.replaceChildren();
    if (!data.last) {
      const li = document.createElement("li");
      li.textContent = "No move yet. " + (data.position.over ? "" : who(data.position.to_move) + " begins.");
      ol.appendChild(li);
      return;
    }
    const mover = data.last.player;
    data.last.steps.forEach((s, i) => {
      const li = document.createElement("li");
      let text = s.text;
      if (s.kind === "move") {
        const p = Object.assign({ side: mover }, B.parseMove(s.move) || { pit: s.move });
        text = whoSide(mover) + (p.shared ? " plays shared pit " : " plays pit ") + B.pitName(p, B.isFlat(data.position));
        // What the mover chose with the move: its direction, how many seeds, the way captured seeds go...
        const words = typeof data.last.words === "string" ? data.last.words : directionWords(mover, p);
        if (words) text += ": " + words;
      }
      li.textContent = text;
      li.className = s.kind + (current === i ? " current" : "");
      ol.appendChild(li);
    });
  }

  /**
   * Every move of the game so far, both players', numbered: the child's own move stays in sight when
   * the computer answers. Each line names the player and the pit (with its choices, as written in the
   * address).
   */
  function listMoves(data) {
    const ol = $("#move-list");
    ol.replaceChildren();
    const flat = B.isFlat(data.position);
    (data.moves || []).forEach((m, i) => {
      const side = (data.sides || [])[i] || "";
      const li = document.createElement("li");
      li.className = side + (i === data.moves.length - 1 ? " latest" : "");
      const whoEl = document.createElement("span");
      whoEl.className = "who";
      whoEl.textContent = side ? seat(side).name : "";
      const p = Object.assign({ side: side }, B.parseMove(m) || { pit: m });
      const rest = String(m).slice(String(B.pitName(p, flat)).length);
      li.append(whoEl, document.createTextNode((p.shared ? ": shared pit " : ": pit ") + B.pitName(p, flat) + rest));
      ol.appendChild(li);
    });
    if (!ol.children.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = "no move yet";
      ol.appendChild(li);
    }
    const box = $("#moves-panel");
    box.scrollTop = box.scrollHeight;
  }

  /** The seats' titles say where each player sits as the board is shown now: "North (bottom)" once turned. */
  function seatLegends() {
    const bottom = app.flip ? "north" : "south";
    for (const side of ["north", "south"]) {
      const fs = document.querySelector('.seat[data-side="' + side + '"]');
      fs.querySelector("legend").textContent = side[0].toUpperCase() + side.slice(1) + (side === bottom ? " (bottom)" : " (top)");
      // The seat of the player at the top comes first, as on the board.
      fs.style.order = side === bottom ? "1" : "0";
    }
  }

  // ---------- playing ----------

  function sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
  }

  /** Shows the last move one frame at a time, then the position after it. */
  async function animate(data, gen) {
    const delay = parseInt($("#speed").value, 10) || 0;
    if (delay > 0 && data.last) {
      const f = B.frames(data.last.before, data.last.steps, data.position);
      for (const fr of f) {
        if (gen !== app.gen) return;
        draw(data.last.before, fr.counts, { path: fr.path, marks: fr.marks, active: fr.active });
        narrate(data, fr.step);
        status(who(data.last.player) + " is sowing" + (fr.hand > 0 ? ": " + fr.hand + " seed" + (fr.hand > 1 ? "s" : "") + " in hand" : ""), "sowing");
        await sleep(delay);
      }
    }
    if (gen !== app.gen) return;
    show(data);
  }

  function show(data) {
    app.data = data;
    draw(data.position, B.countsOf(data.position), finalView(data));
    narrate(data, -1);
    listMoves(data);
    seatLegends();
    const [text, cls] = statusFor(data);
    status(text, cls);
    $("#undo").disabled = app.moves.length === 0;
    $("#hint").disabled = data.position.over || data.stuck || !seat(data.position.to_move).human;
    // A pass the rules allow (`pass when ...`) is a move of its own, played with its button.
    const pos = data.position;
    $("#pass-row").hidden = pos.over || !seat(pos.to_move).human || !(pos.legal_moves || []).includes("pass");
  }

  async function load(animated) {
    const gen = ++app.gen;
    closeChoice();
    app.previews.clear();
    setBusy(true);
    showError("");
    app.hinted = null;
    app.hintedMove = null;
    $("#hint-panel").hidden = true;
    tell("");
    try {
      const data = await api("/api/state", request());
      if (gen !== app.gen) return;
      app.moves = data.moves.slice();
      app.sides = data.sides;
      app.board = data.game;
      writeHash();
      if (animated) await animate(data, gen);
      else show(data);
      if (gen !== app.gen) return;
      await next(gen);
    } catch (e) {
      if (gen !== app.gen) return;
      setBusy(false);
      if (e.accepted !== null && e.accepted !== undefined && e.accepted < app.moves.length && !app.data) {
        // A game opened from an address whose moves go wrong somewhere: show it up to there.
        app.moves = app.moves.slice(0, e.accepted);
        await load(false).catch(() => {});
      }
      showError(e.message);
      throw e;
    }
  }

  /** After a move: the computer plays if it is its turn; otherwise the page waits for a click. */
  async function next(gen) {
    const data = app.data;
    const pos = data.position;
    if (pos.over || data.stuck || seat(pos.to_move).human) {
      setBusy(false);
      return;
    }
    const s = seat(pos.to_move);
    status(who(pos.to_move) + " is thinking…", "thinking");
    await sleep(150);
    if (gen !== app.gen) return;
    const choice = await api("/api/computer", request({ player: s.spec, seed: app.seed }));
    if (gen !== app.gen) return;
    app.moves.push(choice.move);
    await load(true);
  }

  function play(move) {
    closeChoice();
    app.moves.push(move);
    load(true).catch(() => {
      // The move was refused: the page goes back to the position before it, as the server still has it.
      app.moves.pop();
      writeHash();
    });
  }

  function clickPit(k, g) {
    if (!app.data) return;
    if (document.body.dataset.busy === "1") {
      const pos = app.data.position;
      if (!pos.over && !seat(pos.to_move).human) tell("Wait a moment: " + whoSide(pos.to_move) + " is playing.");
      return;
    }
    const byPit = legalView(app.data);
    const moves = byPit[k];
    if (!moves) return tell(wrongTap(app.data, k));
    tell("");
    if (moves.length === 1) return play(moves[0]);
    askWhich(k, moves);
  }

  /** Says (or, with "", clears) why a tap did nothing, in a few words a teacher would say aloud. */
  function tell(text) {
    const el = $("#tap");
    el.textContent = text;
    el.hidden = !text;
  }

  /**
   * Why the pit with key `k` cannot be played now, as one would say it to a child: the game is over,
   * it is the computer's turn, it is the other player's pit, it is empty, or the rules' own reason
   * (the server's `refused`, in the engine's words).
   */
  function wrongTap(data, k) {
    const pos = data.position;
    if (pos.over) return "The game is over. Touch New game to play again.";
    const mover = pos.to_move;
    if (!seat(mover).human) return "It is " + whoSide(mover) + "'s turn: wait for the computer to play.";
    const flat = B.isFlat(pos);
    const parts = k.split(":");
    const shared = parts[0] === "shared";
    const side = shared ? null : parts[0];
    const ref = shared ? { shared: true, pit: parseInt(parts[1], 10) } : { side: side, row: parseInt(parts[1], 10), pit: parseInt(parts[2], 10) };
    const name = (shared ? "Shared pit " : "Pit ") + B.pitName(ref, flat);
    const you = seat(mover).name;
    if (!shared && side !== mover) return "That is " + seat(side).name + "'s pit. " + you + ", touch one of your own pits with a white ring.";
    const reason = (data.refused || {})[B.pitName(ref, flat)];
    const count = B.countsOf(pos)[k] || 0;
    if (reason === "it is empty" || (!reason && count === 0)) return name + " is empty. " + you + ", choose a pit with seeds in it.";
    if (reason) return name + " cannot be played now: " + reason + ".";
    return name + " cannot be played now. " + you + ", touch a pit with a white ring.";
  }

  // ---------- a pit that starts several moves: which one? ----------

  /** A direction's words when the server gives none (a hand-made answer): "towards south's left". */
  function directionWords(mover, p) {
    const c = (p && p.choice) || "";
    if (/^L$/i.test(c)) return "towards " + mover + "'s left";
    if (/^R$/i.test(c)) return "towards " + mover + "'s right";
    return "";
  }

  /**
   * The way a direction goes on the screen: the mover's left is the screen's left when the mover sits
   * at the bottom, its right when at the top. A shared pit has no owner's left: no arrow.
   */
  function arrow(mover, p, letter) {
    if (!p || p.shared || !/^[LR]$/i.test(letter || "")) return "";
    const atBottom = (app.flip ? "north" : "south") === mover;
    const left = /^L$/i.test(letter);
    return left === atBottom ? "←" : "→";
  }

  /** The server's words for the moves of pits that start several, by move. */
  function optionsByMove(data) {
    const out = {};
    for (const o of (data && data.options) || []) out[String(o.move)] = o;
    return out;
  }

  /** Opens the panel that asks which of a pit's moves to play, one button per complete move, in words. */
  function askWhich(k, moves) {
    const mover = app.data.position.to_move;
    const told = optionsByMove(app.data);
    const flat = B.isFlat(app.data.position);
    const p = B.parseMove(moves[0]) || { pit: moves[0] };
    const name = B.pitName(Object.assign({ side: mover }, p), flat);
    $("#choice-title").textContent = (p.shared ? "Shared pit " : "Pit ") + name + " can be played in " + moves.length + " ways. Which one?";
    const list = $("#choice-options");
    list.replaceChildren();
    for (const m of moves) {
      const o = told[String(m)] || null;
      const pm = B.parseMove(m);
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.dataset.move = String(m);
      const words = document.createElement("strong");
      words.className = "words";
      const dir = o && o.choices && o.choices[0] && o.choices[0].kind === "direction" ? o.choices[0].answer : pm && pm.choice;
      const way = arrow(mover, pm, dir);
      words.textContent = (way ? way + " " : "") + ((o && o.words) || directionWords(mover, pm) || "move " + String(m));
      b.appendChild(words);
      const more = [o && o.does, o && o.differs].filter(Boolean).join(" · ");
      if (more) {
        const does = document.createElement("span");
        does.className = "does";
        does.textContent = more;
        b.appendChild(does);
      }
      const code = document.createElement("code");
      code.className = "notation";
      code.textContent = String(m) + (app.hintedMove === String(m) ? " · the hint's move" : "");
      b.appendChild(code);
      if (app.hintedMove === String(m)) b.classList.add("hinted");
      b.addEventListener("click", () => play(m));
      b.addEventListener("mouseenter", () => preview(m));
      b.addEventListener("focus", () => preview(m));
      b.addEventListener("mouseleave", () => endPreview(m));
      b.addEventListener("blur", () => endPreview(m));
      list.appendChild(b);
    }
    app.choosing = k;
    app.previewing = null;
    // The question may need the page scrolled to be seen; closing it scrolls back.
    if ($("#choice").hidden) app.scrolled = window.scrollY;
    $("#choice").hidden = false;
    show(app.data);
    $("#choice").scrollIntoView({ block: "nearest" });
  }

  /** Closes the question of which move, if open (says whether it was). */
  function closeChoice() {
    const open = !$("#choice").hidden;
    $("#choice").hidden = true;
    $("#board-wrap").classList.remove("preview");
    app.choosing = null;
    app.previewing = null;
    if (open && app.scrolled !== null) window.scrollTo(window.scrollX, app.scrolled);
    app.scrolled = null;
    return open;
  }

  /** Shows on the board what a move would do, without playing it: the position after it and the seeds' path. */
  async function preview(m) {
    if (!app.data || $("#choice").hidden) return;
    const gen = app.gen;
    const mover = app.data.position.to_move;
    app.previewing = String(m);
    const key = gen + " " + String(m);
    let asked = app.previews.get(key);
    if (!asked) {
      asked = api("/api/state", request({ moves: app.moves.concat([m]) }));
      asked.catch(() => {});
      app.previews.set(key, asked);
    }
    let data;
    try {
      data = await asked;
    } catch (e) {
      return;
    }
    if (gen !== app.gen || app.previewing !== String(m) || $("#choice").hidden) return;
    const f = data.last ? B.frames(data.last.before, data.last.steps, data.position) : [];
    const end = f[f.length - 1] || {};
    // Drawn as the mover's turn still: nothing is played yet.
    const shown = Object.assign({}, data.position, { to_move: mover, over: false });
    draw(shown, B.countsOf(data.position), { path: end.path, marks: end.marks, active: app.choosing });
    $("#board-wrap").classList.add("preview");
    status("If " + whoSide(mover) + " plays " + String(m) + ", the seeds go as shown (numbered in order). Not played yet.", "preview");
  }

  function endPreview(m) {
    if (app.previewing !== String(m)) return;
    app.previewing = null;
    $("#board-wrap").classList.remove("preview");
    if (app.data && !$("#choice").hidden) show(app.data);
  }

  function undo() {
    if (!app.moves.length) return;
    let n = app.moves.length - 1;
    const anyHuman = seat("south").human || seat("north").human;
    // Back to the last position where a person was to move, so a computer's answer is undone with the move it answered.
    if (anyHuman && app.sides) {
      while (n > 0 && !seat(app.sides[n]).human) n--;
    }
    app.moves = app.moves.slice(0, n);
    load(false).catch(() => {});
  }

  async function hint() {
    if (!app.data || document.body.dataset.busy === "1") return;
    const gen = app.gen;
    setBusy(true);
    status("Looking for a good move…", "thinking");
    try {
      const h = await api("/api/hint", request({ seed: app.seed }));
      if (gen !== app.gen) return;
      const mover = app.data.position.to_move;
      app.hinted = B.moveKey(mover, h.best);
      app.hintedMove = String(h.best);
      // For children the pit and what it does in whole seeds; for adults every move with its score.
      const adult = $("#hint-level").value === "adult";
      $("#hint-plain").textContent = h.plain || "";
      $("#hint-plain").hidden = adult || !h.plain;
      $("#hint-why").hidden = !adult && !!h.plain;
      $("#hint-moves").hidden = !adult && !!h.plain;
      $("#hint-why").textContent = "Try " + h.why + ".";
      const ul = $("#hint-moves");
      ul.replaceChildren();
      for (const m of h.moves) {
        const li = document.createElement("li");
        li.textContent = "pit " + m.move + (m.words ? " (" + m.words + ")" : "") + ": " + m.does + (m.score ? " — " + m.score : "");
        if (m.move === h.best) li.className = "best";
        ul.appendChild(li);
      }
      $("#hint-panel").hidden = false;
      draw(app.data.position, B.countsOf(app.data.position), finalView(app.data));
      const [text, cls] = statusFor(app.data);
      status(text, cls);
    } catch (e) {
      showError(e.message);
    } finally {
      if (gen === app.gen) setBusy(false);
    }
  }

  // ---------- the rule file ----------

  async function showRules() {
    const dialog = $("#rules-dialog");
    const box = $("#rules-text");
    box.replaceChildren();
    $("#sources").replaceChildren();
    $("#rules-sheet").replaceChildren();
    // The sheet in plain words first; the rule file with its citations one click further (shown at
    // once only when the file has errors and so no sheet).
    showRuleSource(false);
    try {
      const r = await api("/api/rules/" + encodeURIComponent(app.gameId));
      if (r.sheet) {
        // Built by the server from the rules, every text escaped; parsed, never run (no scripts in it).
        const doc = new DOMParser().parseFromString(r.sheet, "text/html");
        const article = doc.querySelector("article");
        if (article) $("#rules-sheet").appendChild(document.adoptNode(article));
      } else {
        showRuleSource(true);
      }
      const docs = new Set();
      for (const f of r.files) {
        const h = document.createElement("h3");
        h.textContent = f.path;
        box.appendChild(h);
        const pre = document.createElement("pre");
        for (const line of f.text.split("\n")) {
          const span = document.createElement("span");
          const t = line.trimStart();
          if (t.startsWith("# cites:")) {
            span.className = "cite-line";
            const doc = /^# cites:\s*([^,]+)/.exec(t);
            if (doc) docs.add(doc[1].trim());
          } else if (t.startsWith("# interpretation:") || t.startsWith("# divergence:")) span.className = "interp-line";
          else if (t.startsWith("#")) span.className = "comment-line";
          span.textContent = line + "\n";
          pre.appendChild(span);
        }
        box.appendChild(pre);
      }
      if (docs.size) {
        const p = document.createElement("p");
        p.textContent = "Documents cited: " + Array.from(docs).join(", ");
        $("#sources").appendChild(p);
      }
      $("#rules-title").textContent = "Rules of " + ((app.data && app.data.game.name) || app.gameId);
    } catch (e) {
      box.textContent = e.message;
    }
    if (!dialog.open) dialog.showModal();
  }

  function showRuleSource(show) {
    $("#rules-source").hidden = !show;
    const button = $("#rules-source-toggle");
    button.setAttribute("aria-expanded", String(show));
    button.textContent = show ? "Hide the rule file" : "Show the rule file, with the sentences it comes from";
  }

  // ---------- choosing a game ----------

  function openGame(id, moves, first) {
    app.gameId = id;
    app.data = null;
    app.board = null;
    app.moves = moves || [];
    app.first = first || "";
    $("#first").value = app.first;
    $("#chooser").hidden = true;
    $("#play").hidden = false;
    $("#game-actions").hidden = false;
    $("#choose").hidden = app.single;
    const g = app.games.find((x) => x.id === id);
    $("#title").textContent = g && g.name ? g.name : id;
    document.title = ($("#title").textContent || "sowlang") + " · sowlang";
    load(false).catch(() => {});
  }

  function showChooser() {
    app.gen++;
    app.gameId = null;
    app.data = null;
    history.replaceState(null, "", location.pathname);
    $("#play").hidden = true;
    $("#game-actions").hidden = true;
    $("#chooser").hidden = false;
    $("#choose").hidden = true;
    $("#title").textContent = "sowlang";
    const ul = $("#game-list");
    ul.replaceChildren();
    for (const g of app.games) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "game";
      b.dataset.id = g.id;
      // One line: the name, the board, the documents the rules come from, a good first game's mark.
      const name = document.createElement("strong");
      name.className = "name";
      name.textContent = g.name || g.id;
      const shape = document.createElement("span");
      shape.className = "shape";
      shape.textContent = g.shape || "";
      const sources = document.createElement("span");
      sources.className = "sources";
      sources.textContent = g.sources && g.sources.length ? "from " + g.sources.join(", ") : g.id;
      sources.title = (g.sources || []).join(", ") + " (" + g.id + ")";
      const mark = document.createElement("span");
      if (g.first_game) {
        mark.className = "first-game";
        mark.textContent = "★ good first game";
      }
      b.append(name, shape, sources, mark);
      li.appendChild(b);
      if (g.problems) {
        b.disabled = true;
        const d = document.createElement("details");
        const s = document.createElement("summary");
        s.textContent = "this file has problems";
        const pre = document.createElement("pre");
        pre.textContent = g.problems;
        d.append(s, pre);
        li.appendChild(d);
      } else {
        b.addEventListener("click", () => openGame(g.id, [], ""));
      }
      ul.appendChild(li);
    }
    setBusy(false);
  }

  async function start() {
    loadSettings();
    for (const el of document.querySelectorAll(".seat")) {
      el.querySelector(".kind").addEventListener("change", () => {
        fillStrength(el);
        saveSettings();
        if (app.data) load(false).catch(() => {});
      });
      el.querySelector(".strength").addEventListener("change", saveSettings);
      el.querySelector(".name").addEventListener("input", () => {
        saveSettings();
        if (app.data && document.body.dataset.busy === "0") show(app.data);
      });
    }
    $("#speed").addEventListener("change", saveSettings);
    $("#first").addEventListener("change", () => {
      app.first = $("#first").value;
      app.moves = [];
      load(false).catch(() => {});
    });
    $("#new").addEventListener("click", () => {
      app.moves = [];
      if (!/[?&]seed=/.test(location.search)) app.seed = Math.floor(Math.random() * 1e9);
      load(false).catch(() => {});
    });
    $("#undo").addEventListener("click", undo);
    $("#pass").addEventListener("click", () => {
      if (document.body.dataset.busy !== "1") play("pass");
    });
    $("#choice-cancel").addEventListener("click", () => {
      if (closeChoice() && app.data) show(app.data);
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && closeChoice() && app.data) show(app.data);
    });
    $("#hint").addEventListener("click", hint);
    $("#rules").addEventListener("click", showRules);
    $("#rules-source-toggle").addEventListener("click", () => showRuleSource($("#rules-source").hidden));
    $("#choose").addEventListener("click", showChooser);
    $("#flip").addEventListener("click", () => {
      app.flip = !app.flip;
      seatLegends();
      if (app.data) show(app.data);
    });
    $("#present").addEventListener("click", () => {
      present(!document.body.classList.contains("presenting"));
      saveSettings();
    });
    $("#hint-level").addEventListener("change", saveSettings);
    try {
      const list = await api("/api/games");
      app.games = list.games;
      app.single = list.single;
      const h = readHash();
      if (app.single) openGame(app.games[0].id, h.game === app.games[0].id ? h.moves : [], h.first);
      else if (h.game && app.games.some((g) => g.id === h.game)) openGame(h.game, h.moves, h.first);
      else showChooser();
    } catch (e) {
      $("#play").hidden = false;
      showError(e.message);
      setBusy(false);
    }
  }

  // An address typed or pasted by hand (another game, other moves) opens what it names.
  window.addEventListener("hashchange", () => {
    const h = readHash();
    if (!h.game) return showChooser();
    if (!app.games.some((g) => g.id === h.game)) return showError("there is no game `" + h.game + "` here");
    if (h.game !== app.gameId || h.moves.join(",") !== app.moves.join(",") || h.first !== app.first) openGame(h.game, h.moves, h.first);
  });
  window.addEventListener("DOMContentLoaded", start);
})();
