// The browser test of `sowlang serve`: the real binary serves variants/, the system's Chromium
// (headless, driven by playwright-core) opens the page, and the test plays by clicking pits as a
// child would. After every move it reads the seeds the page shows in each pit and store and compares
// them with `sowlang run FILE --moves ... --json`, run separately, so a move that does not show on
// the page (or shows wrong) fails the test. It plays Oware to its end against the random computer
// player, undoes, plays Kalah with two people at one screen, plays Hus (two rows a player) to its end,
// checks that a refused move is reported, plays Bao (moves that carry choices: the page asks which
// move, in words) to its end with undo across a choice, plays Omweso until it has asked twice, draws
// a hand-made four-row position through the same page, and saves screenshots into docs/. A second
// server serves the invented boards of tests/fixtures/serve: a three-row board (a middle row of
// shared pits) is played to its end, the rings are drawn and played a move each, and a board where
// the mover says how many seeds to sow is played to its end, and a pass the rules allow is played with
// its button. Everything is bounded in time; the servers are stopped at the end.
"use strict";

const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const assert = require("node:assert/strict");
const { chromium } = require("playwright-core");

const ROOT = path.resolve(__dirname, "../..");
const BIN = process.env.SOWLANG || path.join(ROOT, "target/release/sowlang");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const DOCS = path.join(ROOT, "docs");
const LIMIT_MS = 480000;
const STEP_MS = 20000;

const deadline = setTimeout(() => {
  console.error("browser test: took longer than " + LIMIT_MS / 1000 + " s, giving up");
  cleanup().finally(() => process.exit(1));
}, LIMIT_MS);

const servers = [];
let context = null;
let profile = null;

async function cleanup() {
  if (context) await context.close().catch(() => {});
  context = null;
  for (const server of servers) if (server.exitCode === null) server.kill("SIGTERM");
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
}

/** Starts `sowlang serve DIR --port 0` and returns the address it prints. */
function startServer(dir) {
  return new Promise((resolve, reject) => {
    const server = spawn(BIN, ["serve", dir, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    servers.push(server);
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server did not print its address within 10 s: " + out)), 10000);
    server.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/[^\s]+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    server.stderr.on("data", (d) => process.stderr.write("server: " + d));
    server.on("exit", (code) => reject(new Error("the server exited early with " + code + ": " + out)));
  });
}

/** What `sowlang run` says the position is after `moves`: the independent reference. */
function expected(file, moves) {
  const args = ["run", file, "--json"];
  if (moves.length) args.push("--moves", moves.join(","));
  return JSON.parse(execFileSync(BIN, args, { cwd: ROOT, encoding: "utf8" }));
}

/** Seeds per pit and store of a position JSON, in either shape (one row a player, or a list of rows), and its shared pits. */
function expectedCounts(pos) {
  const c = {};
  for (const side of ["south", "north"]) {
    const rows = Array.isArray(pos.pits[side][0]) ? pos.pits[side] : [pos.pits[side]];
    rows.forEach((row, r) => row.forEach((n, i) => (c[side + ":" + r + ":" + (i + 1)] = n)));
    c[side + ":store"] = pos.stores[side];
  }
  (pos.pits.shared || []).forEach((n, i) => (c["shared:" + (i + 1)] = n));
  return c;
}

/** The move a click on a pit plays: its number on a one-row side, else row letter and number ("b4"); "s2" for a shared pit. */
function moveOf(key, flat) {
  if (key.startsWith("shared:")) return "s" + key.split(":")[1];
  const [, row, pit] = key.split(":").map((x, i) => (i ? parseInt(x, 10) : x));
  return flat ? pit : String.fromCharCode(97 + row) + pit;
}

/** The seeds the page shows: the number written in every pit and store. */
async function shownCounts(page) {
  return page.$$eval("#board .pit, #board .store", (els) => {
    const c = {};
    for (const e of els) c[e.dataset.key] = parseInt(e.querySelector(".count").textContent, 10);
    return c;
  });
}

/** The seeds drawn as seeds in each pit (capped at 30 in a pit, 90 in a store). */
async function drawnSeeds(page) {
  return page.$$eval("#board .pit, #board .store", (els) => {
    const c = {};
    for (const e of els) c[e.dataset.key] = e.querySelectorAll(".seed").length;
    return c;
  });
}

async function movesShown(page) {
  return page.evaluate(() => {
    const m = /moves=([^&]*)/.exec(location.hash);
    return m ? m[1].split(",").filter((x) => x).map((x) => (/^\d+$/.test(x) ? parseInt(x, 10) : decodeURIComponent(x))) : [];
  });
}

async function idle(page) {
  await page.waitForSelector('body[data-busy="0"]', { timeout: STEP_MS });
}

/** Checks the page against `sowlang run` for the moves the page says were played. */
async function check(page, file, what, names) {
  names = names || { south: "South", north: "North" };
  await idle(page);
  const moves = await movesShown(page);
  const pos = expected(file, moves);
  const want = expectedCounts(pos);
  const shown = await shownCounts(page);
  assert.deepEqual(shown, want, what + ": the page shows other counts than `sowlang run` after moves " + moves.join(","));
  const seeds = await drawnSeeds(page);
  for (const k of Object.keys(want)) {
    const cap = k.endsWith("store") ? 90 : 30;
    assert.equal(seeds[k], Math.min(want[k], cap), what + ": seeds drawn in " + k);
  }
  const status = await page.textContent("#status");
  if (pos.over) {
    assert.match(status, /Game over/, what + ": the end is shown");
    const words = pos.winner === "draw" ? /draw/ : new RegExp(names[pos.winner] + "( \\(computer\\))? wins");
    assert.match(status, words, what + ": the winner is shown");
  } else {
    assert.match(status, new RegExp("^" + names[pos.to_move] + ".* to move"), what + ": whose turn is shown");
    const legal = await page.$$eval("#board .pit.legal", (els) => els.map((e) => e.dataset.key));
    return { moves, pos, legal };
  }
  return { moves, pos, legal: [] };
}

/** Clicks a pit and waits until the page has played it (and any computer answer). */
async function click(page, key, movesBefore) {
  await page.click('#board .pit.legal[data-key="' + key + '"]', { timeout: STEP_MS });
  await page.waitForFunction(
    (n) => document.body.dataset.busy === "0" && (location.hash.match(/moves=([^&]*)/) || ["", ""])[1].split(",").filter((x) => x).length > n,
    movesBefore,
    { timeout: STEP_MS }
  );
}

/** The buttons of the panel that asks which of a pit's moves: the move each plays, its words, what it does, its notation. */
async function choiceOffered(page) {
  return page.$$eval("#choice button.option", (els) =>
    els.map((e) => ({
      move: e.dataset.move,
      words: e.querySelector(".words").textContent,
      does: e.querySelector(".does") ? e.querySelector(".does").textContent : "",
      notation: e.querySelector(".notation").textContent,
    }))
  );
}

/** The pit a move of `mover` starts from, as the page keys it: "a5L:cw" -> "north:0:5", "3:2" -> "south:0:3", "s3L" -> "shared:3". */
function keyOfMove(mover, m) {
  const match = /^([a-z]?)(\d+)/i.exec(String(m).split(":")[0]);
  const letter = match[1].toLowerCase();
  if (letter === "s") return "shared:" + match[2];
  return mover + ":" + (letter ? letter.charCodeAt(0) - 97 : 0) + ":" + match[2];
}

/**
 * Clicks a pit as a child would. When the pit starts several moves the page asks which: the buttons
 * must be exactly the moves `sowlang run` lists from that pit, each told in words of its own, and
 * `pick` chooses one. Waits until the move (and any computer answer) is played. Returns the move
 * played and whether the page asked.
 */
async function clickAndChoose(page, key, state, pick) {
  const fromPit = state.pos.legal_moves.map(String).filter((m) => keyOfMove(state.pos.to_move, m) === key);
  assert.ok(fromPit.length > 0, "pit " + key + " starts a move at " + state.moves.join(","));
  await page.click('#board .pit.legal[data-key="' + key + '"]', { timeout: STEP_MS });
  let chosen = fromPit[0];
  const asked = fromPit.length > 1;
  if (asked) {
    await page.waitForSelector("#choice:not([hidden])", { timeout: STEP_MS });
    const offered = await choiceOffered(page);
    assert.deepEqual(offered.map((o) => o.move), fromPit, "one button for every move from " + key + " at " + state.moves.join(","));
    for (const o of offered) {
      assert.ok(/[a-z]{3,} [a-z]{3,}/.test(o.words) && !o.words.includes(o.move), "the button of " + o.move + " says it in words: " + o.words);
      assert.equal(o.notation.split(" ")[0], o.move, "the button also shows the move's notation");
    }
    assert.equal(new Set(offered.map((o) => o.words)).size, offered.length, "no two buttons say the same: " + offered.map((o) => o.words).join(" | "));
    chosen = pick(offered);
    await page.click('#choice button.option[data-move="' + chosen + '"]', { timeout: STEP_MS });
  } else {
    assert.ok(await page.isHidden("#choice"), "a pit of one move is played at once");
  }
  await page.waitForFunction(
    (n) => document.body.dataset.busy === "0" && (location.hash.match(/moves=([^&]*)/) || ["", ""])[1].split(",").filter((x) => x).length > n,
    state.moves.length,
    { timeout: STEP_MS }
  );
  return { move: chosen, asked: asked };
}

/** A small seeded generator, so a failing game can be replayed. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

async function playOware(page, url) {
  // A fixed seed makes the random computer player's moves the same in every run.
  await page.goto(url + "?seed=15");
  await idle(page);
  assert.ok(await page.isVisible("#chooser"), "a folder opens on the chooser");
  const names = await page.$$eval("#game-list button.game strong", (els) => els.map((e) => e.textContent));
  assert.ok(names.includes("Oware") && names.includes("Kalah"), "the chooser lists the games: " + names.join(", "));
  await page.click('#game-list button.game[data-id="oware.sow"]');
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "random");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await idle(page);
  assert.equal(await page.textContent("#title"), "Oware");

  // The first move is shown step by step: the page is busy sowing for a while.
  await page.selectOption("#speed", "120");
  let state = await check(page, "variants/oware.sow", "start");
  assert.equal(state.legal.length, 6, "south's six pits are playable at the start");
  await page.click('#board .pit.legal[data-key="south:0:3"]');
  await page.waitForSelector("#status.sowing", { timeout: STEP_MS });
  await idle(page);
  state = await check(page, "variants/oware.sow", "after south 3 and north's answer");
  assert.equal(state.moves[0], 3, "the clicked pit is the first move");
  const story = await page.$$eval("#narration li", (els) => els.map((e) => e.textContent));
  assert.match(story[0], /North \(computer\) plays pit \d/, "the narration tells the computer's move");
  assert.ok(story.some((l) => /sows one seed each into/.test(l)), "the narration tells the sowing");
  await page.screenshot({ path: path.join(DOCS, "serve-two-row.png") });

  await page.selectOption("#speed", "0");
  const random = rng(15);
  let guard = 0;
  while (!state.pos.over) {
    assert.ok(++guard < 400, "the game ends");
    assert.ok(state.legal.length > 0, "south has a pit to click at " + state.moves.join(","));
    const key = state.legal[Math.floor(random() * state.legal.length)];
    const pit = moveOf(key, true);
    await click(page, key, state.moves.length);
    const next = await check(page, "variants/oware.sow", "after clicking pit " + pit);
    assert.equal(next.moves[state.moves.length], pit, "the clicked pit is the move played");
    assert.deepEqual(next.moves.slice(0, state.moves.length), state.moves, "earlier moves stay");
    state = next;
  }
  console.log("browser test: Oware played to its end in " + state.moves.length + " moves: " + (await page.textContent("#status")));

  // Undo from the end: back to the last position where the person was to move.
  const before = state.moves.length;
  await page.click("#undo");
  await idle(page);
  const undone = await check(page, "variants/oware.sow", "after undo");
  assert.ok(undone.moves.length < before, "undo removed moves");
  assert.equal(undone.pos.to_move, "south", "undo goes back to the person's turn");
  assert.ok(undone.legal.length > 0, "pits are playable again after undo");

  // A hint says what the move does and how good it is.
  await page.click("#hint");
  await idle(page);
  assert.ok(await page.isVisible("#hint-panel"), "the hint shows");
  const why = await page.textContent("#hint-why");
  assert.match(why, /pit \d+: .*(seeds|win|loss).*looking \d+ moves ahead/, "the hint gives a reason and a score: " + why);
  assert.equal(await page.$$eval("#board .pit.hinted", (els) => els.length), 1, "the hinted pit is marked");

  // The rules in plain words first (issue 21), the rule file with its citations one click further.
  await page.click("#rules");
  await page.waitForSelector("#rules-dialog[open] #rules-sheet article h2");
  const sheet = await page.textContent("#rules-sheet");
  assert.match(sheet, /How to play Oware/, "the sheet names the game");
  assert.match(sheet, /Two or three\./, "the sheet tells each rule by name");
  assert.ok(!(await page.isVisible("#rules-text")), "the rule file waits behind a click");
  await page.screenshot({ path: path.join(DOCS, "serve-rule-sheet.png") });
  await page.click("#rules-source-toggle");
  await page.waitForSelector("#rules-dialog[open] .cite-line");
  const cites = await page.$$eval("#rules-dialog .cite-line", (els) => els.length);
  assert.ok(cites > 5, "the rule file's citations are marked");
  assert.match(await page.textContent("#sources"), /african-sowing-game-rules\.txt/);
  await page.screenshot({ path: path.join(DOCS, "serve-rules.png") });
  await page.click("#rules-dialog .close");

  // New game: back to the start.
  await page.click("#new");
  state = await check(page, "variants/oware.sow", "new game");
  assert.equal(state.moves.length, 0);
}

const KALAH_NAMES = { south: "Ama", north: "Kofi" };

async function playKalahTwoPeople(page, url) {
  await page.goto(url + "#game=kalah.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.fill('.seat[data-side="north"] .name', "Kofi");
  await page.fill('.seat[data-side="south"] .name', "Ama");
  await page.click("#new");
  assert.equal(await page.textContent("#title"), "Kalah");
  let state = await check(page, "variants/kalah.sow", "kalah start", KALAH_NAMES);
  assert.match(await page.textContent("#status"), /Ama \(south\) to move/);
  assert.match(await page.textContent('#board .store[data-side="north"] .store-name'), /Kofi/, "north's store is labelled with its owner");
  const random = rng(7);
  let guard = 0;
  let another = false;
  while (!state.pos.over) {
    assert.ok(++guard < 400, "the game ends");
    const key = state.legal[Math.floor(random() * state.legal.length)];
    await click(page, key, state.moves.length);
    const next = await check(page, "variants/kalah.sow", "kalah after " + key, KALAH_NAMES);
    assert.equal(next.moves.length, state.moves.length + 1, "two people: one move per click");
    if (next.pos.to_move === state.pos.to_move && !next.pos.over) another = true;
    state = next;
  }
  assert.ok(another, "some move of the game gave another move");
  const status = await page.textContent("#status");
  assert.match(status, /Game over/);
  console.log("browser test: Kalah played by two people in " + state.moves.length + " moves: " + status);
  // Undo with two people takes back exactly one move.
  await page.click("#undo");
  const undone = await check(page, "variants/kalah.sow", "kalah undo", KALAH_NAMES);
  assert.equal(undone.moves.length, state.moves.length - 1);
}

/** A board with two rows a player (Hus): played to its end against the random computer player. */
async function playHus(page, url) {
  await page.goto(url + "?seed=4#game=hus.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "random");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  const names = KALAH_NAMES;
  assert.equal(await page.textContent("#title"), "Hus");
  let state = await check(page, "variants/hus.sow", "hus start", names);
  assert.equal(await page.$$eval("#board .pit", (els) => els.length), 32, "four rows of eight pits");
  const labels = await page.$$eval('#board .pit[data-side="south"] .pit-name', (els) => els.map((e) => e.textContent));
  assert.ok(labels.includes("a1") && labels.includes("b8"), "pits are named by row letter: " + labels.join(" "));
  const random = rng(11);
  let guard = 0;
  let shot = false;
  while (!state.pos.over) {
    assert.ok(++guard < 600, "the game ends");
    const key = state.legal[Math.floor(random() * state.legal.length)];
    const move = moveOf(key, false);
    await click(page, key, state.moves.length);
    const next = await check(page, "variants/hus.sow", "hus after clicking " + move, names);
    assert.equal(next.moves[state.moves.length], move, "the clicked pit is the move played");
    state = next;
    if (!shot && state.moves.length >= 8 && !state.pos.over) {
      // Show one move step by step for the picture: the path of a relay across both rows.
      shot = true;
      await page.screenshot({ path: path.join(DOCS, "serve-four-row.png") });
    }
  }
  console.log("browser test: Hus played to its end in " + state.moves.length + " moves: " + (await page.textContent("#status")));
  await page.click("#undo");
  const undone = await check(page, "variants/hus.sow", "hus undo", names);
  assert.ok(undone.moves.length < state.moves.length && undone.pos.to_move === "south", "undo goes back to the person's turn");
}

async function refusedMove(page, url) {
  // South's pit 3 is empty after 3,3: the page must say so and show the position the server holds.
  await page.goto(url + "#game=oware.sow&moves=3,3,3");
  await page.waitForSelector("#error:not([hidden])", { timeout: STEP_MS });
  assert.match(await page.textContent("#error"), /not allowed/);
}

/**
 * A hand-made position of a board with two rows per player, answered in place of the server: the page
 * draws and plays the shape from the position JSON alone, whatever game the server would have.
 */
async function fourRowPreview(page, url) {
  const row = (n, v) => Array.from({ length: n }, () => v);
  const cell = (side, r, pit) => ({ side: side, row: r, pit: pit });
  const before = {
    pits: { south: [[0, 0, 0, 0, 2, 2, 2, 2], row(8, 2)], north: [row(8, 2), row(8, 2)] },
    stores: { south: 0, north: 0 },
    to_move: "south",
    legal_moves: ["a5", "a6", "a7", "a8", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"],
    over: false,
    winner: null,
  };
  const after = JSON.parse(JSON.stringify(before));
  after.pits.south[1][3] = 0;
  after.pits.south[1][4] = 3;
  after.pits.south[1][5] = 3;
  after.to_move = "north";
  after.legal_moves = ["a1", "a2", "b8"];
  let asked = null;
  await page.route("**/api/state", async (route) => {
    asked = JSON.parse(route.request().postData() || "{}");
    const played = asked.moves && asked.moves.length > 0;
    const steps = [
      { kind: "move", player: "south", move: "b4", text: "south plays pit b4" },
      { kind: "pickup", cell: cell("south", 1, 4), seeds: 2, lap: 1, text: "picks up 2 seeds from south b4" },
      { kind: "sow", cells: [cell("south", 1, 5), cell("south", 1, 6)], lap: 1, text: "sows one seed each into south b5, south b6" },
    ];
    await route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({
        game: { id: "preview.sow", name: "Four rows (hand-made position)", pits: 8 },
        moves: played ? ["b4"] : [],
        sides: played ? ["south", "north"] : ["south"],
        position: played ? after : before,
        scores: { south: 0, north: 0 },
        stuck: false,
        status: "",
        last: played ? { move: "b4", player: "south", before: before, steps: steps } : null,
      }),
    });
  });
  await page.route("**/api/games", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ single: true, truncated: false, games: [{ id: "preview.sow", name: "Four rows (hand-made position)", pits: 8, problems: null }] }),
    })
  );
  await page.goto(url);
  await idle(page);
  // Two people: no computer is asked to play a game the real server does not have.
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await idle(page);
  const pits = await page.$$eval("#board .pit", (els) => els.map((e) => ({ key: e.dataset.key, box: (({ x, y }) => ({ x, y }))(e.querySelector(".hole").getBBox()), label: e.querySelector(".pit-name").textContent })));
  assert.equal(pits.length, 32, "four rows of eight pits");
  const y = (k) => pits.find((p) => p.key === k).box.y;
  const x = (k) => pits.find((p) => p.key === k).box.x;
  assert.ok(y("north:1:1") < y("north:0:1") && y("north:0:1") < y("south:0:1") && y("south:0:1") < y("south:1:1"), "rows from top: north b, north a, south a, south b");
  assert.ok(x("south:0:1") < x("south:0:8") && x("north:0:1") > x("north:0:8"), "south's pit 1 on the left, north's on the right");
  assert.equal(pits.find((p) => p.key === "south:1:4").label, "b4", "pits are named by row letter");
  const counts = await shownCounts(page);
  assert.equal(counts["south:0:1"], 0);
  assert.equal(counts["south:1:4"], 2);
  await page.click('#board .pit.legal[data-key="south:1:4"]');
  await idle(page);
  assert.deepEqual(asked.moves, ["b4"], "clicking pit b4 sends the move b4");
  const after2 = await shownCounts(page);
  assert.equal(after2["south:1:4"], 0);
  assert.equal(after2["south:1:5"], 3);
  assert.deepEqual((await page.$$eval("#board .pit.sown", (els) => els.map((e) => e.dataset.key))).sort(), ["south:1:5", "south:1:6"]);
  await page.screenshot({ path: path.join(__dirname, "out", "four-row-hand-made.png") });
  await page.unroute("**/api/state");
  await page.unroute("**/api/games");
}

/** A pit that starts two moves (a direction to choose): the page asks which, and sends the one chosen. */
async function choiceOfDirection(page, url) {
  const start = {
    pits: { south: [2, 2, 0], north: [2, 2, 2] },
    stores: { south: 0, north: 0 },
    to_move: "south",
    legal_moves: ["1L", "1R", "2L", "2R"],
    over: false,
    winner: null,
  };
  let asked = null;
  await page.route("**/api/games", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ single: true, truncated: false, games: [{ id: "choice.sow", name: "Directions (hand-made position)", problems: null }] }),
    })
  );
  await page.route("**/api/state", async (route) => {
    asked = JSON.parse(route.request().postData() || "{}");
    await route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ game: { id: "choice.sow", name: "Directions", rows: 1, columns: 3 }, moves: asked.moves, sides: ["south"], position: start, scores: { south: 0, north: 0 }, stuck: false, status: "", last: null }),
    });
  });
  await page.goto(url);
  await idle(page);
  await page.click('#board .pit.legal[data-key="south:0:1"]');
  await page.waitForSelector("#choice:not([hidden])");
  const offered = await choiceOffered(page);
  assert.deepEqual(offered.map((o) => o.move), ["1L", "1R"], "both directions of pit 1 are offered");
  // With no words from the server (a hand-made answer), the page still says the direction in words,
  // with an arrow the way it goes on the screen: south sits at the bottom, so its left is the screen's.
  assert.deepEqual(offered.map((o) => o.words), ["← towards south's left", "→ towards south's right"]);
  await page.click('#choice button.option[data-move="1R"]');
  await idle(page);
  assert.deepEqual(asked.moves, ["1R"], "the chosen direction is the move sent");
  await page.unroute("**/api/state");
  await page.unroute("**/api/games");
}

/** The centre of every pit drawn: key -> {x, y, label}. */
async function pitPlaces(page) {
  return page.$$eval("#board .pit", (els) => {
    const out = {};
    for (const e of els) {
      const b = e.querySelector(".hole").getBBox();
      out[e.dataset.key] = { x: b.x + b.width / 2, y: b.y + b.height / 2, label: e.querySelector(".pit-name").textContent };
    }
    return out;
  });
}

const MIDDLE = "tests/fixtures/serve/middle_row.sow";

/**
 * A three-row board (tests/fixtures/serve/middle_row.sow): a middle row of pits that belong to nobody
 * between the players' rows, drawn from south's left, played to its end against the random computer
 * player, with clicks on shared pits as well as south's own.
 */
async function playMiddleRow(page, url) {
  await page.goto(url + "?seed=5#game=middle_row.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "random");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  // Another server, another origin: the players keep the names they are given by default.
  const names = undefined;
  let state = await check(page, MIDDLE, "middle row start", names);
  const at = await pitPlaces(page);
  assert.equal(Object.keys(at).length, 9, "three rows of three pits");
  assert.ok(at["north:0:1"].y < at["shared:1"].y && at["shared:1"].y < at["south:0:1"].y, "the middle row between the players' rows");
  assert.ok(at["shared:1"].x < at["shared:2"].x && at["shared:2"].x < at["shared:3"].x, "s1 at south's left");
  assert.equal(at["shared:1"].x, at["south:0:1"].x, "s1 in south's pit 1's column");
  assert.equal(at["shared:2"].label, "s2", "shared pits are named s1, s2, ...");
  assert.deepEqual(state.legal.sort(), ["shared:1", "shared:2", "shared:3", "south:0:1", "south:0:2", "south:0:3"], "every pit south may play is clickable");
  const random = rng(21);
  let guard = 0;
  let sharedClicks = 0;
  while (!state.pos.over) {
    assert.ok(++guard < 100, "the game ends");
    // The first move from the middle row, then any clickable pit.
    const key = state.moves.length === 0 ? "shared:2" : state.legal[Math.floor(random() * state.legal.length)];
    const move = moveOf(key, true);
    if (key.startsWith("shared:")) sharedClicks++;
    await click(page, key, state.moves.length);
    const next = await check(page, MIDDLE, "middle row after clicking " + move, names);
    assert.equal(String(next.moves[state.moves.length]), String(move), "the clicked pit is the move played");
    if (state.moves.length === 0) {
      await page.screenshot({ path: path.join(DOCS, "serve-middle-row.png") });
      const sown = await page.$$eval("#board .pit.sown", (els) => els.map((e) => e.dataset.key).sort());
      assert.ok(sown.length > 0, "the last move's path is marked");
    }
    state = next;
  }
  assert.ok(sharedClicks > 0, "some moves were played from shared pits");
  console.log("browser test: the middle-row board played to its end in " + state.moves.length + " moves: " + (await page.textContent("#status")));
}

/** The two rings: an odd ring's shared pit beside south's pit 1, and a ring of nobody's pits, each played once. */
async function rings(page, url) {
  const RING9 = "tests/fixtures/serve/ring_halves.sow";
  await page.goto(url + "#game=ring_halves.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  let state = await check(page, RING9, "ring of nine start");
  let at = await pitPlaces(page);
  assert.ok(at["shared:1"].x < at["south:0:1"].x && at["shared:1"].x < at["north:0:4"].x, "the shared pit at the left end");
  assert.ok(at["north:0:4"].y < at["shared:1"].y && at["shared:1"].y < at["south:0:1"].y, "between north's pit 4 and south's pit 1");
  await click(page, "shared:1", 0);
  state = await check(page, RING9, "ring of nine after s1");
  assert.deepEqual(state.moves, ["s1"]);
  await page.screenshot({ path: path.join(__dirname, "out", "ring-of-nine.png") });
  // Turned, the shared pit stays beside south's pit 1, now at the top right.
  await page.click("#flip");
  at = await pitPlaces(page);
  assert.ok(at["shared:1"].x > at["south:0:1"].x && at["south:0:1"].y < at["shared:1"].y, "turned: at the right end");
  await page.click("#flip");

  const RING7 = "tests/fixtures/serve/ring_of_nobody.sow";
  await page.goto(url + "#game=ring_of_nobody.sow");
  await idle(page);
  await page.click("#new");
  state = await check(page, RING7, "ring of nobody start");
  at = await pitPlaces(page);
  assert.equal(Object.keys(at).length, 7);
  assert.ok(at["shared:1"].x < at["shared:4"].x && at["shared:1"].y === at["shared:4"].y, "s1 to s4 along the bottom");
  assert.ok(at["shared:5"].y < at["shared:4"].y && at["shared:5"].x > at["shared:7"].x, "s5 to s7 back along the top");
  await page.click('#board .pit.legal[data-key="shared:3"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.deepEqual((await choiceOffered(page)).map((o) => [o.move, o.words]), [["s3R", "sows counter-clockwise ↺"], ["s3L", "sows clockwise ↻"]], "both ways round are offered, in words");
  await page.click('#choice button.option[data-move="s3L"]');
  await page.waitForFunction(() => document.body.dataset.busy === "0" && /moves=s3L/.test(location.hash));
  state = await check(page, RING7, "ring of nobody after s3L");
  assert.deepEqual(state.moves, ["s3L"]);
  assert.deepEqual(await page.$$eval("#board .pit.taken", (els) => els.map((e) => e.dataset.key)), ["shared:1"], "the capture is marked");
  await page.screenshot({ path: path.join(DOCS, "serve-ring.png") });
}

const BAO = "variants/bao.sow";

/**
 * Bao (four rows, moves that carry choices): two people at one screen answer the page's question
 * "which move from this pit?", a move with a choice is undone and chosen otherwise, the address
 * replays such moves, a move written without its choices is refused; then a game against the random
 * computer player is played to its end, the child picking at random among the buttons offered.
 */
async function playBao(page, url) {
  const names = KALAH_NAMES; // the names typed in the Kalah game, kept by this origin's page
  await page.goto(url + "?seed=3#game=bao.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  assert.equal(await page.textContent("#title"), "Bao");
  let state = await check(page, BAO, "bao start", names);

  // South's loaded front pits start two moves, one each way: a seed entered into a6 is sown on.
  await page.click('#board .pit.legal[data-key="south:0:6"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.match(await page.textContent("#choice-title"), /^Pit a6 can be played in 2 ways/);
  let offered = await choiceOffered(page);
  assert.deepEqual(offered.map((o) => [o.move, o.words]), [["a6L", "← towards south's left"], ["a6R", "→ towards south's right"]]);
  assert.deepEqual(await page.$$eval("#board .pit.active", (els) => els.map((e) => e.dataset.key)), ["south:0:6"], "the pit asked about is marked");
  // "Not this pit" closes the question and plays nothing.
  await page.click("#choice-cancel");
  assert.ok(await page.isHidden("#choice"), "the question is closed");
  assert.deepEqual(await movesShown(page), [], "closing the question plays nothing");
  // A seed entered into the empty a4 stays there whichever way it would go: one move (issue 26), played at once.
  let played = await clickAndChoose(page, "south:0:4", state, () => "a4L");
  assert.ok(!played.asked, "an entry into an empty pit is one move");
  state = await check(page, BAO, "bao after a4L", names);
  assert.deepEqual(state.moves, ["a4L"]);

  // North's a5 (6 seeds) faces south's a4, which now holds the seed just entered: entering a seed into a5
  // captures it, and north chooses the way (the end of the front row) it is sown from. The entry captures at
  // once, so its own way changes nothing: two complete moves.
  await page.click('#board .pit.legal[data-key="north:0:5"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.match(await page.textContent("#choice-title"), /^Pit a5 can be played in 2 ways. Which one\?/);
  offered = await choiceOffered(page);
  assert.deepEqual(offered.map((o) => o.move), ["a5L:ccw", "a5L:cw"]);
  // North sits at the top of the screen: its left is the screen's right.
  assert.deepEqual(offered.map((o) => o.words), [
    "→ towards north's left; captured seeds go counter-clockwise ↺",
    "→ towards north's left; captured seeds go clockwise ↻",
  ]);
  // Each says what it does, and where the captured seed starts: clockwise from the left end (a1),
  // counter-clockwise from the right end (a8).
  for (const o of offered) {
    assert.match(o.does, /^captures 1 seed/, o.move);
    assert.match(o.does, o.move.endsWith(":cw") ? / · sows the 1 seed taken on, from north a1$/ : / · sows the 1 seed taken on, from north a8$/, o.move + ": " + o.does);
  }
  // Pointing at a button shows on the board what that move would do, and plays nothing.
  await page.hover('#choice button.option[data-move="a5L:cw"]');
  await page.waitForSelector("#board-wrap.preview");
  assert.deepEqual(await shownCounts(page), expectedCounts(expected(BAO, ["a4L", "a5L:cw"])), "the preview shows the board after a5L:cw");
  assert.match(await page.textContent("#status"), /If Kofi \(north\) plays a5L:cw.*Not played yet/);
  assert.deepEqual(await movesShown(page), ["a4L"], "pointing plays nothing");
  // The picture for docs/serve.md: from the status line to the bottom of the question.
  const top = await page.$eval("#status", (e) => e.getBoundingClientRect().top + window.scrollY);
  const bottom = await page.$eval("#choice", (e) => e.getBoundingClientRect().bottom + window.scrollY);
  await page.screenshot({ path: path.join(DOCS, "serve-choice.png"), fullPage: true, clip: { x: 0, y: top - 8, width: 1280, height: bottom - top + 16 } });
  await page.click('#choice button.option[data-move="a5L:cw"]');
  await page.waitForFunction(() => document.body.dataset.busy === "0" && /moves=a4L,a5L%3Acw$/.test(location.hash));
  state = await check(page, BAO, "bao after a5L:cw", names);
  assert.deepEqual(state.moves, ["a4L", "a5L:cw"], "the move chosen is the move played");
  // Worked by hand: a5 holds 6 + 1 = 7; south's a4 gave its seed, sown from north's a1; north has 21 in hand.
  let c = await shownCounts(page);
  assert.deepEqual([c["north:0:5"], c["south:0:4"], c["north:0:1"], c["north:0:8"], c["north:store"]], [7, 0, 1, 0, 21]);
  const story = await page.$$eval("#narration li", (els) => els.map((e) => e.textContent));
  assert.equal(story[0], "Kofi (north) plays pit a5: towards north's left; captured seeds go clockwise ↻ (entering)", "the narration tells the choices and the phase");

  // Undo takes the move back with its choices; the other way is then another move.
  await page.click("#undo");
  state = await check(page, BAO, "bao undo of a5L:cw", names);
  assert.deepEqual(state.moves, ["a4L"]);
  assert.equal(state.pos.to_move, "north");
  // A hint names its move with the choices in words, and the question marks the hint's move.
  await page.click("#hint");
  await idle(page);
  const why = await page.textContent("#hint-why");
  const best = /^Try pit (a5[LR]:c?cw) \(towards north's (left|right); captured seeds go (counter-)?clockwise [↺↻]\): captures 1 seed/.exec(why);
  assert.ok(best, "the hint tells its move's choices in words: " + why);
  await page.click('#board .pit.legal[data-key="north:0:5"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.deepEqual(await page.$$eval("#choice button.option.hinted", (els) => els.map((e) => e.dataset.move)), [best[1]], "the hint's move is marked");
  await page.keyboard.press("Escape");
  assert.ok(await page.isHidden("#choice"), "Escape closes the question");
  played = await clickAndChoose(page, "north:0:5", state, () => "a5L:ccw");
  assert.ok(played.asked, "the same pit asks again after undo");
  state = await check(page, BAO, "bao after a5L:ccw", names);
  assert.deepEqual(state.moves, ["a4L", "a5L:ccw"]);
  c = await shownCounts(page);
  assert.deepEqual([c["north:0:5"], c["south:0:4"], c["north:0:1"], c["north:0:8"]], [7, 0, 0, 1], "counter-clockwise: the seed starts at the right end, a8");

  // The address keeps the moves with their choices: opening it again shows the same game.
  await page.goto(url + "?seed=3&again=1#game=bao.sow&moves=a4L,a5L%3Acw");
  state = await check(page, BAO, "bao opened from its address", names);
  assert.deepEqual(state.moves, ["a4L", "a5L:cw"]);
  // A move written without the choices it carries is refused with the moves it could be; the board
  // shows the position before it.
  await page.goto(url + "?seed=3&again=2#game=bao.sow&moves=a4L,a5L");
  await page.waitForSelector("#error:not([hidden])", { timeout: STEP_MS });
  assert.match(await page.textContent("#error"), /move 2 \(`a5L`\) does not say the choices made during the move: it could be a5L:ccw or a5L:cw/);
  state = await check(page, BAO, "bao after a refused move", names);
  assert.deepEqual(state.moves, ["a4L"]);

  // A whole game against the random computer player, the child choosing at random when asked.
  await page.goto(url + "?seed=3#game=bao.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "random");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  state = await check(page, BAO, "bao against the computer", names);
  const random = rng(11);
  let guard = 0;
  let asked = 0;
  while (!state.pos.over) {
    assert.ok(++guard < 200, "the game ends");
    const key = state.legal[Math.floor(random() * state.legal.length)];
    played = await clickAndChoose(page, key, state, (o) => o[Math.floor(random() * o.length)].move);
    if (played.asked) asked++;
    const next = await check(page, BAO, "bao after " + played.move, names);
    assert.equal(next.moves[state.moves.length], played.move, "the move chosen is the move played");
    assert.deepEqual(next.moves.slice(0, state.moves.length), state.moves, "earlier moves stay");
    state = next;
  }
  // Entries into empty pits are one move each (issue 26): the page asks less often than it did.
  assert.ok(asked >= 3, "the page asked which move " + asked + " times");
  const computerChose = state.moves.filter((m, i) => i % 2 === 1 && String(m).includes(":"));
  assert.ok(computerChose.length > 0, "the computer played moves with choices: " + state.moves.join(","));
  console.log("browser test: Bao played to its end in " + state.moves.length + " moves (asked which move " + asked + " times): " + (await page.textContent("#status")));
  await page.click("#undo");
  const undone = await check(page, BAO, "bao undo at the end", names);
  assert.ok(undone.moves.length < state.moves.length && undone.pos.to_move === "south", "undo goes back to the person's turn");
}

const KISWAHILI = "variants/bao_la_kiswahili.sow";

/**
 * Bao la Kiswahili (issue 23): a person who knows the game plays a whole game against the computer.
 * After four opening moves (from the address) south's a8 starts a capture move whose lap ends in the
 * functional nyumba: the page asks, in words, whether to stop there or go on a safari (`a8L:stop`,
 * `a8L:safari`, named by the file's `choose(1 as "stop", 0 as "safari")`); the safari is chosen and
 * the narration explains the game's words (namua, kichwa, safari, ...) once each. Then the game is
 * played to its end against the greedy computer player, the person choosing among every option the
 * page offers (a kichwa and direction at a namua capture, stop or safari); every position is checked
 * against `sowlang run`.
 */
async function playBaoLaKiswahili(page, url) {
  await page.goto(url + "?seed=7#game=bao_la_kiswahili.sow");
  await idle(page);
  const names = {
    south: await page.inputValue('.seat[data-side="south"] .name'),
    north: await page.inputValue('.seat[data-side="north"] .name'),
  };
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption('.seat[data-side="north"] .kind', "greedy");
  await page.selectOption("#speed", "0");
  await page.goto(url + "?seed=7&again=1#game=bao_la_kiswahili.sow&moves=a6L,a5L,a3L,a5R");
  let state = await check(page, KISWAHILI, "bao la kiswahili after four moves", names);
  assert.equal(await page.textContent("#title"), "Bao la Kiswahili");
  // The narration tells the last move in the game's words, and explains each the first time.
  const explained = {};
  const readNarration = async () => {
    const lines = await page.$$eval("#narration li", (els) => els.map((e) => e.textContent));
    for (const l of lines) for (const m of l.matchAll(/\((namua|mtaji|nyumba|safari|takasa|kichwa|kimbi|takasia|bao hamna): /g)) explained[m[1]] = (explained[m[1]] || 0) + 1;
    return lines;
  };
  const opening = await readNarration();
  assert.match(opening[0], /\(computer(, north)?\) plays pit a5: towards north's right \(namua\) \(namua: the first stage: /, "the move names its stage, explained: " + opening[0]);
  assert.deepEqual(state.pos.legal_moves, ["a8L:stop", "a8L:safari"]);

  // The nyumba: stop, or go on a safari, asked in the game's words.
  await page.click('#board .pit.legal[data-key="south:0:8"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.match(await page.textContent("#choice-title"), /^Pit a8 can be played in 2 ways/);
  const offered = await choiceOffered(page);
  assert.deepEqual(offered.map((o) => o.move), ["a8L:stop", "a8L:safari"]);
  assert.match(offered[0].words, /chooses stop \("the nyumba: stop, or go on a safari"\)/, "the option in words: " + offered[0].words);
  assert.match(offered[1].words, /chooses safari \("the nyumba: stop, or go on a safari"\)/, "the option in words: " + offered[1].words);
  const top = await page.$eval("#choice", (e) => e.getBoundingClientRect().top + window.scrollY);
  const bottom = await page.$eval("#choice", (e) => e.getBoundingClientRect().bottom + window.scrollY);
  await page.screenshot({ path: path.join(DOCS, "serve-kiswahili-choice.png"), fullPage: true, clip: { x: 0, y: Math.max(0, top - 380), width: 1280, height: bottom - top + 396 } });
  await page.click('#choice button.option[data-move="a8L:safari"]');
  await page.waitForFunction(() => document.body.dataset.busy === "0" && /a8L%3Asafari|a8L:safari/.test(location.hash), null, { timeout: STEP_MS });
  state = await check(page, KISWAHILI, "bao la kiswahili after the safari", names);
  assert.deepEqual(state.moves.slice(0, 5), ["a6L", "a5L", "a3L", "a5R", "a8L:safari"]);

  // The page shows the computer's answer now, in the game's words; namua is not explained again.
  const answer = await readNarration();
  assert.match(answer[0], /\(namua\)$/, "the computer's move names its stage: " + answer[0]);

  // The rest of the game against the computer, the person choosing among the options offered, a
  // safari whenever one is offered.
  const random = rng(23);
  let guard = 0;
  let asked = 0;
  let safaris = 1;
  let seenStage = {};
  while (!state.pos.over) {
    assert.ok(++guard < 200, "the game ends");
    const key = state.legal[Math.floor(random() * state.legal.length)];
    const played = await clickAndChoose(page, key, state, (o) => (o.find((x) => /:safari$/.test(x.move)) || o[Math.floor(random() * o.length)]).move);
    if (played.asked) asked++;
    if (/:safari$/.test(played.move)) safaris++;
    const next = await check(page, KISWAHILI, "bao la kiswahili after " + played.move, names);
    assert.equal(next.moves[state.moves.length], played.move, "the move chosen is the move played");
    state = next;
    for (const l of await readNarration()) {
      const stage = /\((namua|mtaji)\)/.exec(l);
      if (stage) seenStage[stage[1]] = true;
    }
  }
  assert.ok(asked >= 1, "the page asked which move " + asked + " times");
  assert.ok(seenStage.mtaji, "the game reached mtaji: " + state.moves.join(","));
  for (const [w, n] of Object.entries(explained)) assert.ok(n <= 1, w + " is explained " + n + " times");
  // At once (speed 0) the person's own moves are shown only for an instant before the computer's
  // answer: the words first said there (mtaji, often) were explained there, out of this test's sight.
  for (const w of ["namua", "kichwa"]) assert.equal(explained[w], 1, w + " is explained once: " + JSON.stringify(explained));
  const status = await page.textContent("#status");
  console.log("browser test: Bao la Kiswahili played to its end in " + state.moves.length + " moves against the greedy computer (asked which move " + asked + " times, " + safaris + " safaris; words explained: " + Object.keys(explained).join(", ") + "): " + status);
}

/** Omweso: against the greedy computer player until the page has asked twice which way captured seeds go. */
async function omwesoChoices(page, url) {
  const OMWESO = "variants/omweso.sow";
  const names = KALAH_NAMES;
  await page.goto(url + "?seed=2#game=omweso.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "greedy");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  let state = await check(page, OMWESO, "omweso start", names);
  const random = rng(5);
  let asked = 0;
  let guard = 0;
  while (!state.pos.over && asked < 2) {
    assert.ok(++guard < 80, "the page asks which way within 80 moves");
    // Since moves that do the same thing are listed once (issue 26), few of Omweso's pits start
    // several moves: the child touches one of those when there is one, so that the page asks.
    const several = state.legal.filter((k) => state.pos.legal_moves.filter((m) => keyOfMove(state.pos.to_move, String(m)) === k).length > 1);
    const pool = several.length ? several : state.legal;
    const key = pool[Math.floor(random() * pool.length)];
    const played = await clickAndChoose(page, key, state, (o) => o[Math.floor(random() * o.length)].move);
    if (played.asked) asked++;
    const next = await check(page, OMWESO, "omweso after " + played.move, names);
    assert.equal(next.moves[state.moves.length], played.move, "the move chosen is the move played");
    state = next;
  }
  assert.equal(asked, 2, "the page asked twice");
  console.log("browser test: Omweso played " + state.moves.length + " moves, the page asked which way twice");
}

const HOW_MANY = "tests/fixtures/serve/how_many_seeds.sow";

/**
 * `lift choose(1..origin.count)` (tests/fixtures/serve/how_many_seeds.sow): the page asks how many
 * seeds to sow; the board after the choice is worked by hand; then a game against the greedy
 * computer player is played to its end.
 */
async function howManySeeds(page, url) {
  await page.goto(url + "?seed=8#game=how_many_seeds.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  let state = await check(page, HOW_MANY, "how many seeds start");
  await page.click('#board .pit.legal[data-key="south:0:3"]');
  await page.waitForSelector("#choice:not([hidden])");
  assert.match(await page.textContent("#choice-title"), /^Pit 3 can be played in 3 ways/);
  const offered = await choiceOffered(page);
  assert.deepEqual(offered.map((o) => [o.move, o.words]), [
    ["3:1", "sows 1 of the 3 seeds, leaving 2 in the pit"],
    ["3:2", "sows 2 of the 3 seeds, leaving 1 in the pit"],
    ["3:3", "sows all 3 seeds"],
  ]);
  // One seed stops in south's pit 4; two reach north's pit 1, which then holds four and is taken;
  // three reach north's pit 2, taken the same way.
  assert.deepEqual(offered.map((o) => o.does.split(" · ")[0]), [
    "captures nothing",
    "captures 4 seeds; sows 1 seed into north's row",
    "captures 4 seeds; sows 2 seeds into north's row",
  ]);
  await page.click('#choice button.option[data-move="3:2"]');
  await page.waitForFunction(() => document.body.dataset.busy === "0" && /moves=3%3A2$/.test(location.hash));
  state = await check(page, HOW_MANY, "how many seeds after 3:2");
  assert.deepEqual(state.moves, ["3:2"]);
  // Worked by hand: pit 3 keeps 1 of its 3 seeds; south's pit 4 gets one (4), north's pit 1 the other
  // (4), which is taken into south's store.
  assert.deepEqual(await shownCounts(page), {
    "south:0:1": 3, "south:0:2": 3, "south:0:3": 1, "south:0:4": 4, "south:store": 4,
    "north:0:1": 0, "north:0:2": 3, "north:0:3": 3, "north:0:4": 3, "north:store": 0,
  });
  const story = await page.$$eval("#narration li", (els) => els.map((e) => e.textContent));
  assert.equal(story[0], "South plays pit 3: sows 2 of the 3 seeds, leaving 1 in the pit");
  await page.screenshot({ path: path.join(__dirname, "out", "how-many-seeds.png"), fullPage: true });
  await page.click("#undo");
  state = await check(page, HOW_MANY, "how many seeds undo");
  assert.deepEqual(state.moves, []);

  // To the end against the greedy computer player, choosing at random how many seeds.
  await page.selectOption('.seat[data-side="north"] .kind', "greedy");
  await idle(page);
  const random = rng(3);
  let guard = 0;
  let asked = 0;
  while (!state.pos.over) {
    assert.ok(++guard < 40, "the game ends");
    const key = state.legal[Math.floor(random() * state.legal.length)];
    const played = await clickAndChoose(page, key, state, (o) => o[Math.floor(random() * o.length)].move);
    if (played.asked) asked++;
    const next = await check(page, HOW_MANY, "how many seeds after " + played.move);
    // A pit of one seed has one move, written with its one answer (`4:1`).
    assert.equal(String(next.moves[state.moves.length]), played.move, "the move chosen is the move played");
    state = next;
  }
  assert.ok(asked > 0, "the page asked how many seeds");
  console.log("browser test: the how-many-seeds board played to its end in " + state.moves.length + " moves: " + (await page.textContent("#status")));
}

// ---------------------------------------------------------------- issue 21: a board for a class

/**
 * Where each of the page's parts lies on the screen, and whether it lies wholly inside the window
 * (and is not empty): the board, the status line, the narration of the last move and the move list.
 */
async function onScreen(page, selectors) {
  return page.evaluate((sels) => {
    const out = {};
    for (const s of sels) {
      const e = document.querySelector(s);
      const r = e ? e.getBoundingClientRect() : null;
      // Not hidden under something else or scrolled out of its box: its centre shows it.
      const top = r ? document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)) : null;
      const shown = !!r && r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden" && !!top && (top === e || e.contains(top));
      out[s] = shown && r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 ? "on screen" : "off: " + (r ? [r.left, r.top, r.right, r.bottom].map(Math.round).join(",") : "none") + " in " + innerWidth + "x" + innerHeight;
    }
    // The page itself must not need scrolling: what is below the window is not on the screen.
    out.scroll = document.documentElement.scrollHeight <= innerHeight + 1 ? "none" : "the page scrolls to " + document.documentElement.scrollHeight;
    return out;
  }, selectors);
}

// The board, the status line, the narration of the last move (its box, and its first line: who
// played which pit) and the move list (its box, and the latest move, scrolled into sight).
const PRESENTED = ["#board", "#status", "#story", "#narration li:first-child", "#moves-panel", "#move-list li:last-child"];

async function assertAllOnScreen(page, what) {
  const where = await onScreen(page, PRESENTED);
  const want = Object.fromEntries(PRESENTED.map((s) => [s, "on screen"]));
  want.scroll = "none";
  assert.deepEqual(where, want, what + ": the board, the narration and the move list are all on the screen");
  // The drawing itself fills the board's box across or down: it is not shrunk to nothing.
  const drawn = await page.$eval("#board", (svg) => {
    const r = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    return { w: vb.width * scale, h: vb.height * scale, boxW: r.width };
  });
  assert.ok(drawn.w > drawn.boxW * 0.6 || drawn.h > 250, what + ": the board is drawn large: " + JSON.stringify(drawn));
}

/** The move list as shown: one entry per move, "Name: pit 3". */
async function moveList(page) {
  return page.$$eval("#move-list li:not(.none)", (els) => els.map((e) => e.textContent));
}

/**
 * A game played at a projector's 1024x768 in presentation mode (the set-up folded away): after
 * every click the board, the narration and the move list are all on the screen; the move list keeps
 * both players' moves. `file` is the game's rule file for `sowlang run`.
 */
async function presentGame(page, url, id, file, clicks, seed) {
  await page.goto(url + "?seed=" + seed + "#game=" + id);
  await idle(page);
  // The teacher sets the players up, then folds the set-up away.
  if (await page.evaluate(() => document.body.classList.contains("presenting"))) await page.click("#present");
  await page.selectOption('.seat[data-side="north"] .kind', "random");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#present");
  assert.ok(await page.isHidden("#setup"), id + ": presentation folds the set-up away");
  await page.click("#new");
  const names = KALAH_NAMES;
  let state = await check(page, file, id + " presented", names);
  await assertAllOnScreen(page, id + " at the start");
  const random = rng(seed);
  for (let i = 0; i < clicks && !state.pos.over; i++) {
    const key = state.legal[Math.floor(random() * state.legal.length)];
    await click(page, key, state.moves.length);
    const next = await check(page, file, id + " presented, after " + key, names);
    await assertAllOnScreen(page, id + " after " + next.moves.join(","));
    // Every move of both players is listed, the child's own among them after the computer answered.
    const listed = await moveList(page);
    assert.equal(listed.length, next.moves.length, id + ": one line per move: " + listed.join(" | "));
    const mine = listed[state.moves.length];
    assert.equal(mine, names.south + ": pit " + moveOf(key, B_FLAT[id]), id + ": the child's move stays listed: " + listed.join(" | "));
    if (next.moves.length > state.moves.length + 1) assert.match(listed[state.moves.length + 1], new RegExp("^" + names.north + ": pit "), id + ": the computer's answer is listed too");
    state = next;
  }
  return state;
}

/** Whether a game's moves are plain pit numbers (one row a player). */
const B_FLAT = { "oware.sow": true, "hus.sow": false, "bao.sow": false };

async function classroom(page, url, fixtures) {
  await page.setViewportSize({ width: 1024, height: 768 });
  // The players' names, as a class would type them (kept by the page for the games that follow).
  await page.goto(url + "#game=oware.sow");
  await idle(page);
  if (await page.evaluate(() => document.body.classList.contains("presenting"))) await page.click("#present");
  await page.fill('.seat[data-side="north"] .name', KALAH_NAMES.north);
  await page.fill('.seat[data-side="south"] .name', KALAH_NAMES.south);

  // The chooser: one line per game, sorted by name, with its board, its sources and a first game's mark.
  await page.goto(url);
  await idle(page);
  const lines = await page.$$eval("#game-list button.game", (els) =>
    els.map((e) => ({ id: e.dataset.id, name: e.querySelector(".name").textContent, shape: e.querySelector(".shape").textContent, sources: e.querySelector(".sources").textContent, mark: e.querySelector(".first-game") ? e.querySelector(".first-game").textContent : "" }))
  );
  const names = lines.map((l) => l.name.toLowerCase());
  assert.deepEqual(names, names.slice().sort(), "the chooser is sorted by name");
  const line = (id) => lines.find((l) => l.id === id);
  assert.deepEqual(line("oware.sow"), { id: "oware.sow", name: "Oware", shape: "2 rows of 6", sources: "from african-sowing-game-rules.txt", mark: "" });
  assert.equal(line("hus.sow").shape, "4 rows of 8");
  assert.match(line("ba_awa.sow").mark, /good first game/, "Ba-awa is marked a good first game");
  const oneLine = await page.$$eval("#game-list button.game", (els) => els.every((e) => e.getBoundingClientRect().height < 60));
  assert.ok(oneLine, "each game takes one line at 1024 wide");
  await page.screenshot({ path: path.join(DOCS, "serve-chooser.png") });

  // A two-row and a four-row game played in presentation mode.
  let state = await presentGame(page, url, "oware.sow", "variants/oware.sow", 8, 15);
  await page.screenshot({ path: path.join(DOCS, "serve-presentation-two-row.png") });
  state = await presentGame(page, url, "hus.sow", "variants/hus.sow", 8, 4);
  await page.screenshot({ path: path.join(DOCS, "serve-presentation-four-row.png") });

  // Playable pits: a thick solid white ring outside the hole, unlike every mark of the last move
  // (yellow path, dashed origin, orange last pit, red captures, drawn on the hole's edge).
  const rings = await page.$$eval("#board .pit.legal", (els) =>
    els.map((e) => {
      const ring = e.querySelector(".legal-ring");
      if (!ring) return null;
      const s = getComputedStyle(ring);
      return { stroke: s.stroke, width: parseFloat(s.strokeWidth), dash: s.strokeDasharray, r: ring.r.baseVal.value, hole: e.querySelector(".hole").r.baseVal.value };
    })
  );
  assert.ok(rings.length > 0 && rings.every((r) => r && r.stroke === "rgb(255, 255, 255)" && r.width >= 6 && r.dash === "none" && r.r > r.hole), "every playable pit has a thick solid white ring outside its hole: " + JSON.stringify(rings));
  const marks = await page.$$eval("#board .pit.sown .hole, #board .pit.origin .hole, #board .pit.last .hole, #board .pit.taken .hole", (els) => els.map((e) => getComputedStyle(e).stroke));
  assert.ok(marks.length > 0, "the last move's marks are drawn");
  for (const m of marks) assert.notEqual(m, "rgb(255, 255, 255)", "a last move's mark is not the colour of the playable pits' ring");
  const unplayable = await page.$$eval("#board .pit:not(.legal)", (els) => els.filter((e) => e.querySelector(".legal-ring")).length);
  assert.equal(unplayable, 0, "no ring on a pit that cannot be played");

  // Every board shape fits 1024x768 in presentation: three rows (a shared middle row), the rings.
  for (const id of ["middle_row.sow", "ring_halves.sow", "ring_of_nobody.sow", "how_many_seeds.sow"]) {
    await page.goto(fixtures + "?present&seed=2#game=" + id);
    await idle(page);
    await assertAllOnScreen(page, id);
  }
  await page.goto(url + "?present&seed=2#game=bao.sow&moves=a5L,a5L%3Accw");
  await idle(page);
  await assertAllOnScreen(page, "bao");

  // Seeds in hand are drawn as a hand, not as a store: Bao's 22 seeds in hand each are no score.
  await page.goto(url + "?seed=2#game=bao.sow");
  await idle(page);
  const kept = await page.$$eval("#board .store", (els) => els.map((e) => ({ hand: e.classList.contains("hand"), fingers: e.querySelectorAll(".finger").length, words: Array.from(e.querySelectorAll(".store-name")).map((t) => t.textContent).join(" ") })));
  assert.deepEqual(kept.map((k) => [k.hand, k.fingers >= 4, /seeds in hand/.test(k.words), /store/.test(k.words)]), [[true, true, true, false], [true, true, true, false]], "Bao's stores are hands: " + JSON.stringify(kept));
  assert.match(await page.getAttribute("#board", "aria-label"), /in hand 22/, "the board's description says seeds in hand");
  await page.screenshot({ path: path.join(DOCS, "serve-hand.png") });
  // A wrong tap at Bao's start: the rules' own reason, in words.
  await page.click("#present");
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await idle(page);
  await page.click('#board .pit[data-key="south:1:1"]');
  assert.equal(await page.textContent("#tap"), "Pit b1 cannot be played now: a seed is entered into the front row.");
  await page.goto(url + "#game=oware.sow");
  await idle(page);
  assert.deepEqual((await page.$$eval("#board .store", (els) => els.map((e) => e.classList.contains("hand")))), [false, false], "Oware's stores are stores");

  // A wrong tap is answered in a few spoken words: the opponent's pit, an empty pit.
  await page.goto(url + "#game=oware.sow&moves=3,3");
  await idle(page);
  assert.ok(await page.isHidden("#tap"), "no message before a tap");
  await page.click('#board .pit[data-key="south:0:3"]');
  assert.equal(await page.textContent("#tap"), "Pit 3 is empty. Ama, choose a pit with seeds in it.");
  await page.click('#board .pit[data-key="north:0:2"]');
  assert.equal(await page.textContent("#tap"), "That is Kofi's pit. Ama, touch one of your own pits with a white ring.");
  assert.deepEqual(await movesShown(page), [3, 3], "a wrong tap plays nothing");
  await page.click('#board .pit.legal[data-key="south:0:1"]');
  await idle(page);
  assert.ok(await page.isHidden("#tap"), "the message goes once a pit is played");

  // Hints: for children in whole seeds and plain words; the detailed one for adults (a setting).
  await page.goto(url + "#game=oware.sow&moves=3,3");
  await idle(page);
  assert.equal(await page.inputValue("#hint-level"), "child", "children's hints unless the teacher chooses");
  await page.click("#hint");
  await idle(page);
  const plain = await page.textContent("#hint-plain");
  assert.match(plain, /^(Pit \d+ captures \d+ seeds?\.|Pit \d+ gives you another turn\.|Try pit \d+\.)( |$)/, "the children's hint names the pit and what it does: " + plain);
  assert.ok(!/\d[.,]\d|\+|best play|moves ahead/.test(plain), "in whole seeds and plain words: " + plain);
  assert.ok(await page.isHidden("#hint-why"), "the detailed hint is not shown to children");
  await page.selectOption("#hint-level", "adult");
  await page.click("#hint");
  await idle(page);
  assert.ok(await page.isVisible("#hint-why") && (await page.isHidden("#hint-plain")), "adults see the detailed hint");
  assert.match(await page.textContent("#hint-why"), /moves ahead/);
  await page.selectOption("#hint-level", "child");

  // "Turn board": the seats' titles follow the board.
  const legends = () => page.$$eval(".seat legend", (els) => els.map((e) => e.textContent).sort());
  assert.deepEqual(await legends(), ["North (top)", "South (bottom)"]);
  await page.click("#flip");
  assert.deepEqual(await legends(), ["North (bottom)", "South (top)"], "turned, north sits at the bottom");
  await page.click("#flip");
  assert.deepEqual(await legends(), ["North (top)", "South (bottom)"]);

  // The same at 1920x1080: a four-row game in presentation mode.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await presentGame(page, url, "hus.sow", "variants/hus.sow", 4, 9);
  await page.screenshot({ path: path.join(DOCS, "serve-presentation-1920.png") });
  // Back to the usual page for whoever runs next in this browser profile.
  await page.click("#present");
  assert.ok(await page.isVisible("#setup"), "the set-up comes back");
  await page.setViewportSize({ width: 1280, height: 900 });
  console.log("browser test: a class's board: presentation at 1024x768 and 1920x1080 (two, three and four rows, rings), rings on playable pits, wrong taps, moves, hints, hands, Turn board, the chooser");
}

/**
 * A pass the rules allow (tests/fixtures/serve/passing.sow, `pass when ...`; issue 26): the page shows a
 * Pass button while the player to move may pass, plays the move `pass` with it, and hides it otherwise.
 */
async function passing(page, url) {
  const PASSING = "tests/fixtures/serve/passing.sow";
  await page.goto(url + "?seed=4#game=passing.sow");
  await idle(page);
  await page.selectOption('.seat[data-side="north"] .kind', "human");
  await page.selectOption('.seat[data-side="south"] .kind', "human");
  await page.selectOption("#speed", "0");
  await page.click("#new");
  let state = await check(page, PASSING, "passing start");
  assert.ok(state.pos.legal_moves.includes("pass"), "south may pass at the start");
  assert.ok(await page.isVisible("#pass"), "the Pass button is shown");
  await page.click("#pass");
  await page.waitForFunction(() => document.body.dataset.busy === "0" && /moves=pass$/.test(location.hash), null, { timeout: STEP_MS });
  state = await check(page, PASSING, "passing after south passes");
  assert.deepEqual(state.moves, ["pass"]);
  assert.equal(state.pos.to_move, "north");
  assert.ok(!state.pos.legal_moves.includes("pass") && (await page.isHidden("#pass-row")), "north may not pass: no button");
  const story = await page.$$eval("#narration li", (els) => els.map((e) => e.textContent));
  assert.match(story[0], /passes$/, "the narration tells the pass: " + story[0]);
  console.log("browser test: the Pass button played the move `pass`");
}

async function main() {
  const url = await startServer("variants");
  const fixtures = await startServer("tests/fixtures/serve");
  fs.mkdirSync(path.join(__dirname, "out"), { recursive: true });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "sowlang-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 422/.test(m.text())) problems.push("console error: " + m.text() + " at " + page.url() + " " + JSON.stringify(m.location()));
  });
  page.setDefaultTimeout(STEP_MS);
  // `ONLY=kiswahili` runs the Bao la Kiswahili part alone, for working on it.
  if (process.env.ONLY === "kiswahili") {
    await playBaoLaKiswahili(page, url);
    assert.deepEqual(problems, [], "no script errors on the page");
    return;
  }
  // `ONLY=classroom` runs the classroom part alone, for working on it.
  if (process.env.ONLY === "classroom") {
    await classroom(page, url, fixtures);
    assert.deepEqual(problems, [], "no script errors on the page");
    return;
  }
  await playOware(page, url);
  await playKalahTwoPeople(page, url);
  await playHus(page, url);
  await refusedMove(page, url);
  await playBao(page, url);
  await playBaoLaKiswahili(page, url);
  await omwesoChoices(page, url);
  await fourRowPreview(page, url);
  await choiceOfDirection(page, url);
  await playMiddleRow(page, fixtures);
  await rings(page, fixtures);
  await howManySeeds(page, fixtures);
  await classroom(page, url, fixtures);
  await passing(page, fixtures);
  assert.deepEqual(problems, [], "no script errors on the page");
  console.log("browser test: passed");
}

main()
  .then(() => cleanup())
  .then(() => {
    clearTimeout(deadline);
    process.exit(0);
  })
  .catch(async (e) => {
    console.error("browser test FAILED: " + (e && e.stack ? e.stack : e));
    await cleanup();
    process.exit(1);
  });
