// Unit tests of web/board.js under Node (no browser): the geometry of both board shapes of
// docs/cli.md, move notation, and the replay of a move's steps. The nested (several rows per player)
// positions are made by hand, since the engine does not play such boards yet.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const B = require("../../web/board.js");

const flat = {
  pits: { south: [1, 2, 3, 4, 5, 6], north: [7, 8, 9, 10, 11, 12] },
  stores: { south: 20, north: 21 },
  to_move: "south",
  legal_moves: [1, 2, 3, 4, 5, 6],
};

// Two rows per player, eight pits a row: row a (front) first, then row b, as docs/cli.md lists them.
const nested = {
  pits: {
    south: [
      [0, 0, 0, 0, 2, 2, 2, 2],
      [2, 2, 2, 2, 2, 2, 2, 3],
    ],
    north: [
      [1, 0, 0, 0, 2, 2, 2, 2],
      [2, 2, 2, 2, 2, 2, 2, 4],
    ],
  },
  stores: { south: 0, north: 0 },
  to_move: "south",
  legal_moves: ["a5", "b1", "b8"],
};

function at(L, side, row, pit) {
  return L.pits.find((p) => p.side === side && p.row === row && p.pit === pit);
}

test("a flat row is one row; nested rows are kept in order", () => {
  assert.deepEqual(B.rowsOf([1, 2]), [[1, 2]]);
  assert.deepEqual(B.rowsOf([[1], [2]]), [[1], [2]]);
  assert.equal(B.isFlat(flat), true);
  assert.equal(B.isFlat(nested), false);
});

test("two-row board: south below, pit 1 on the left; north above, pit 1 on the right, across from south's last pit", () => {
  const L = B.layout(flat, false);
  assert.equal(L.lines, 2);
  assert.equal(L.width, 6);
  assert.deepEqual([at(L, "south", 0, 1).col, at(L, "south", 0, 1).line], [0, 1]);
  assert.deepEqual([at(L, "north", 0, 1).col, at(L, "north", 0, 1).line], [5, 0]);
  assert.equal(at(L, "north", 0, 1).col, at(L, "south", 0, 6).col);
  // Each store at its owner's right hand.
  assert.deepEqual(L.stores.map((s) => [s.side, s.at]), [["north", "left"], ["south", "right"]]);
});

test("a store that is a pit of the row is drawn in its place, with the store's seeds, and not at the ends", () => {
  const position = {
    pits: { south: [3, 3, 3, 0], north: [3, 3, 3, 0] },
    stores: { south: 5, north: 2 },
    store_pit: 4,
    to_move: "south",
    legal_moves: [1, 2, 3],
  };
  const L = B.layout(position, false);
  assert.deepEqual(L.stores, []);
  const south = at(L, "south", 0, 4);
  assert.equal(south.store, true);
  assert.equal(B.key(south), "south:store");
  assert.equal(B.pitName(south, true), "store");
  assert.equal(B.countsOf(position)[B.key(south)], 5);
  assert.equal(B.countsOf(position)[B.key(at(L, "north", 0, 4))], 2);
  assert.equal(at(L, "south", 0, 3).store, undefined);
});

test("turned board: north below with its pit 1 on the left", () => {
  const L = B.layout(flat, true);
  assert.deepEqual([at(L, "north", 0, 1).col, at(L, "north", 0, 1).line], [0, 1]);
  assert.deepEqual([at(L, "south", 0, 1).col, at(L, "south", 0, 1).line], [5, 0]);
});

test("four-row board: north's rows above (outer row at the top), south's below (front row nearest the middle)", () => {
  const L = B.layout(nested, false);
  assert.equal(L.lines, 4);
  assert.equal(L.width, 8);
  assert.equal(L.pits.length, 32);
  assert.equal(at(L, "north", 1, 1).line, 0); // north's back row at the top
  assert.equal(at(L, "north", 0, 1).line, 1); // north's front row next to the middle
  assert.equal(at(L, "south", 0, 1).line, 2); // south's front row next to the middle
  assert.equal(at(L, "south", 1, 1).line, 3); // south's back row at the bottom
  // Every row numbered from its owner's left: south's pit 1 on the left, north's on the right.
  assert.equal(at(L, "south", 0, 1).col, 0);
  assert.equal(at(L, "south", 1, 1).col, 0);
  assert.equal(at(L, "north", 0, 1).col, 7);
  assert.equal(at(L, "north", 1, 1).col, 7);
  // A counter-clockwise lap of south's own track (front row right to left, back row left to right)
  // goes round its half: front row a8..a1 then back row b1..b8 visits every column twice.
  const track = [];
  for (let p = 8; p >= 1; p--) track.push(at(L, "south", 0, p));
  for (let p = 1; p <= 8; p++) track.push(at(L, "south", 1, p));
  for (let i = 1; i < track.length; i++) {
    const step = Math.abs(track[i].col - track[i - 1].col) + Math.abs(track[i].line - track[i - 1].line);
    assert.equal(step, 1, "neighbours on the track are neighbours on the board");
  }
});

test("counts of both shapes are read by side, row and pit", () => {
  const c = B.countsOf(nested);
  assert.equal(c["south:1:8"], 3);
  assert.equal(c["north:0:1"], 1);
  assert.equal(c["north:1:8"], 4);
  assert.equal(c["south:store"], 0);
  assert.equal(Object.keys(c).length, 34);
  const f = B.countsOf(flat);
  assert.equal(f["south:0:6"], 6);
  assert.equal(f["north:store"], 21);
});

test("moves: numbers, row letters and choices map to the pit touched", () => {
  assert.deepEqual(B.parseMove(3), { row: 0, pit: 3, choice: "" });
  assert.deepEqual(B.parseMove("a3"), { row: 0, pit: 3, choice: "" });
  assert.deepEqual(B.parseMove("b4"), { row: 1, pit: 4, choice: "" });
  assert.deepEqual(B.parseMove("3L"), { row: 0, pit: 3, choice: "L" });
  assert.equal(B.parseMove("x"), null);
  assert.equal(B.parseMove(0), null);
  assert.deepEqual(B.movesByPit(nested), { "south:0:5": ["a5"], "south:1:1": ["b1"], "south:1:8": ["b8"] });
  assert.deepEqual(B.movesByPit({ to_move: "north", legal_moves: ["3L", "3R", 4] }), { "north:0:3": ["3L", "3R"], "north:0:4": [4] });
  assert.equal(B.pitName({ side: "south", row: 1, pit: 4 }, false), "b4");
  assert.equal(B.pitName({ side: "south", row: 0, pit: 4 }, true), "4");
});

test("a move's frames sow one seed at a time and end on the position after it (nested board)", () => {
  const after = JSON.parse(JSON.stringify(nested));
  after.pits.south[1][7] = 0; // b8 picked up (3 seeds)
  after.pits.south[0][7] += 1; // then a8, a7, a6 (counter-clockwise round south's half)
  after.pits.south[0][6] += 1;
  after.pits.south[0][5] += 1;
  after.to_move = "north";
  const cell = (row, pit) => ({ side: "south", row: row, pit: pit });
  const steps = [
    { kind: "move", player: "south", move: "b8", text: "south plays pit b8" },
    { kind: "pickup", cell: cell(1, 8), seeds: 3, lap: 1, text: "picks up 3 seeds" },
    { kind: "sow", cells: [cell(0, 8), cell(0, 7), cell(0, 6)], lap: 1, text: "sows" },
    { kind: "lap_end", cell: cell(0, 6), count: 3, text: "the last seed falls" },
  ];
  const f = B.frames(nested, steps, after);
  const sowing = f.filter((x) => x.step === 2);
  assert.equal(sowing.length, 3, "one frame per seed");
  assert.deepEqual(sowing.map((x) => x.hand), [2, 1, 0]);
  assert.equal(sowing[0].counts["south:0:8"], 3);
  assert.equal(sowing[0].counts["south:0:7"], 2, "the next pit has not been sown yet");
  assert.deepEqual(f[f.length - 1].counts, B.countsOf(after));
  assert.deepEqual(f[f.length - 1].path, { "south:0:8": 1, "south:0:7": 2, "south:0:6": 3 });
  assert.equal(f[f.length - 1].marks["south:1:8"], "origin");
  assert.equal(f[f.length - 1].marks["south:0:6"], "last");
});

test("a capture moves the seeds to the store in the replay", () => {
  const before = { pits: { south: [0, 1], north: [1, 0] }, stores: { south: 0, north: 0 }, to_move: "south" };
  const after = { pits: { south: [0, 0], north: [0, 0] }, stores: { south: 2, north: 0 }, to_move: "north" };
  const s = (side, pit) => ({ side: side, row: 0, pit: pit });
  const steps = [
    { kind: "pickup", cell: s("south", 2), seeds: 1 },
    { kind: "sow", cells: [s("north", 1)] },
    { kind: "take", cell: s("north", 1), seeds: 2, to: { side: "south", store: true } },
  ];
  const f = B.frames(before, steps, after);
  const take = f.find((x) => x.step === 2);
  assert.equal(take.counts["south:store"], 2);
  assert.equal(take.marks["north:0:1"], "taken");
  assert.deepEqual(f[f.length - 1].counts, B.countsOf(after));
});

test("seed spots stay inside the pit and are capped", () => {
  for (const n of [1, 2, 5, 12, 30, 80]) {
    const spots = B.seedSpots(n, 30, 1, 1);
    assert.equal(spots.length, Math.min(n, 30));
    for (const p of spots) assert.ok(Math.hypot(p.x, p.y) <= 0.8, "inside the pit");
  }
});

test("seeds taken into the hand leave their pit and are sown on", () => {
  const before = { pits: { south: [[1, 0]], north: [[3, 0]] }, stores: { south: 0, north: 0 }, to_move: "south" };
  const after = { pits: { south: [[0, 2]], north: [[0, 0]] }, stores: { south: 0, north: 0 }, to_move: "north" };
  const s = (side, pit) => ({ side: side, row: 0, pit: pit });
  const steps = [
    { kind: "pickup", cell: s("south", 1), seeds: 1 },
    { kind: "sow", cells: [s("south", 2)] },
    { kind: "take_in_hand", cell: s("north", 1), seeds: 3, player: "south" },
    { kind: "note" },
    { kind: "sow", cells: [s("south", 1), s("south", 2), s("north", 2)] },
  ];
  const f = B.frames(before, steps, after);
  const took = f.find((x) => x.step === 2);
  assert.equal(took.counts["north:0:1"], 0);
  assert.equal(took.hand, 3);
  assert.equal(took.marks["north:0:1"], "taken");
  assert.equal(f[f.length - 2].hand, 0, "every seed in hand is sown");
});

// Shared pits, in the three shapes the engine makes (positions as `sowlang run --json` writes them
// for tests/fixtures/serve/*.sow).
const middle = {
  pits: { south: [2, 2, 2], north: [2, 2, 2], shared: [1, 2, 3] },
  stores: { south: 0, north: 0 },
  to_move: "south",
  legal_moves: ["1", "2", "3", "s1", "s2", "s3"],
};
const ring9 = {
  pits: { south: [3, 3, 3, 3], north: [3, 3, 3, 3], shared: [5] },
  stores: { south: 0, north: 0 },
  to_move: "north",
  legal_moves: ["1", "2", "s1"],
};
const ring7 = {
  pits: { south: [], north: [], shared: [1, 2, 3, 4, 5, 6, 7] },
  stores: { south: 0, north: 0 },
  to_move: "south",
  legal_moves: ["s1R", "s1L", "s2R"],
};

function shared(L, k) {
  return L.pits.find((p) => p.shared && p.pit === k);
}

test("shared pits: moves named s3 start from the shared pit, whoever moves", () => {
  assert.deepEqual(B.parseMove("s3"), { shared: true, pit: 3, choice: "" });
  assert.deepEqual(B.parseMove("S2R"), { shared: true, pit: 2, choice: "R" });
  assert.equal(B.moveKey("north", "s2"), "shared:2");
  assert.equal(B.moveKey("north", "2"), "north:0:2");
  assert.deepEqual(B.movesByPit(ring9), { "north:0:1": ["1"], "north:0:2": ["2"], "shared:1": ["s1"] });
  assert.deepEqual(B.movesByPit(ring7), { "shared:1": ["s1R", "s1L"], "shared:2": ["s2R"] });
  assert.equal(B.pitName({ shared: true, pit: 3 }, true), "s3");
  const c = B.countsOf(middle);
  assert.equal(c["shared:3"], 3);
  assert.equal(Object.keys(c).length, 11);
  assert.deepEqual(B.perPit({ south: [false, false, false], north: [false, true, false], shared: [true, false, false] })["shared:1"], true);
});

test("the shape of the shared pits: the server's word, else read from the lists", () => {
  assert.equal(B.sharedShape(flat), "none");
  assert.equal(B.sharedShape(middle), "middle");
  assert.equal(B.sharedShape(ring9), "ring");
  assert.equal(B.sharedShape(ring7), "ring of nobody");
  // A ring of three owned by halves has as many shared pits as a row's: only the server can tell.
  const ring3 = { pits: { south: [1], north: [1], shared: [1] } };
  assert.equal(B.sharedShape(ring3), "middle");
  assert.equal(B.sharedShape(ring3, { ring: true }), "ring");
  assert.equal(B.sharedShape(middle, { ring: false }), "middle");
});

test("a middle row lies between the front rows, s1 at the bottom player's left", () => {
  const L = B.layout(middle, false, { ring: false });
  assert.equal(L.lines, 3);
  assert.equal(L.width, 3);
  assert.deepEqual(L.breaks, [1, 2]);
  assert.deepEqual([at(L, "north", 0, 1).col, at(L, "north", 0, 1).line], [2, 0]);
  assert.deepEqual([shared(L, 1).col, shared(L, 1).line], [0, 1]);
  assert.deepEqual([shared(L, 3).col, shared(L, 3).line], [2, 1]);
  assert.deepEqual([at(L, "south", 0, 1).col, at(L, "south", 0, 1).line], [0, 2]);
  const F = B.layout(middle, true, { ring: false });
  assert.deepEqual([shared(F, 1).col, shared(F, 1).line], [2, 1], "turned: s1 at north's right");
  assert.deepEqual([at(F, "north", 0, 1).col, at(F, "north", 0, 1).line], [0, 2]);
  // The gaps: one between each player's rows and the middle row.
  assert.equal(B.gapsAbove(L, 0), 0);
  assert.equal(B.gapsAbove(L, 1), 1);
  assert.equal(B.gapsAbove(L, 2), 2);
});

test("an odd ring's shared pit stands between north's last pit and south's pit 1", () => {
  const L = B.layout(ring9, false, { ring: true });
  assert.equal(L.width, 5);
  assert.equal(L.lines, 2);
  const s1 = shared(L, 1);
  assert.deepEqual([s1.col, s1.line], [0, 0.5]);
  assert.equal(at(L, "north", 0, 4).col, 1, "north's pit 4 at the top left, next to it");
  assert.equal(at(L, "south", 0, 1).col, 1, "south's pit 1 at the bottom left, next to it");
  assert.equal(at(L, "north", 0, 1).col, at(L, "south", 0, 4).col);
  assert.equal(B.gapsAbove(L, 0.5), 0.5, "halfway down the gap between the rows");
  // Turned: south's pit 1 is at the top right, and the shared pit beside it.
  const F = B.layout(ring9, true, { ring: true });
  assert.deepEqual([shared(F, 1).col, shared(F, 1).line], [4, 0.5]);
  assert.equal(at(F, "south", 0, 1).col, 3);
  assert.equal(at(F, "north", 0, 4).col, 3);
});

test("a ring of nobody goes round counter-clockwise: s1 at the bottom left, back along the top", () => {
  const L = B.layout(ring7, false);
  assert.equal(L.width, 4);
  assert.equal(L.pits.length, 7);
  assert.deepEqual([1, 2, 3, 4].map((k) => [shared(L, k).col, shared(L, k).line]), [[0, 1], [1, 1], [2, 1], [3, 1]]);
  assert.deepEqual([5, 6, 7].map((k) => [shared(L, k).col, shared(L, k).line]), [[3 - 0.5, 0], [2 - 0.5, 0], [1 - 0.5, 0]]);
  // Every step round the ring, s7 back to s1 included, is to a neighbour.
  for (let k = 1; k <= 7; k++) {
    const a = shared(L, k);
    const b = shared(L, (k % 7) + 1);
    assert.ok(Math.hypot(a.col - b.col, a.line - b.line) <= 1.2, "s" + k + " next to the following pit");
  }
  const F = B.layout(ring7, true);
  assert.deepEqual([shared(F, 1).col, shared(F, 1).line], [3, 0], "turned half round");
  assert.deepEqual(L.stores.map((s) => s.side), ["north", "south"]);
});

test("a move sown through shared pits is replayed seed by seed", () => {
  const after = { pits: { south: [2, 2, 0], north: [2, 2, 2], shared: [1, 3, 4] }, stores: { south: 0, north: 0 }, to_move: "north" };
  const steps = [
    { kind: "move", player: "south", move: "3" },
    { kind: "pickup", cell: { side: "south", row: 0, pit: 3 }, seeds: 2 },
    { kind: "sow", cells: [{ shared: true, pit: 3 }, { shared: true, pit: 2 }] },
    { kind: "lap_end", cell: { shared: true, pit: 2 }, count: 3 },
  ];
  const f = B.frames(middle, steps, after);
  const sown = f.filter((x) => x.step === 2);
  assert.equal(sown[0].counts["shared:3"], 4);
  assert.equal(sown[0].counts["shared:2"], 2);
  assert.deepEqual(f[f.length - 1].path, { "shared:3": 1, "shared:2": 2 });
  assert.equal(f[f.length - 1].marks["shared:2"], "last");
  assert.deepEqual(f[f.length - 1].counts, B.countsOf(after));
});

test("a pit owned in the opponent's row: 5' starts from the opponent's pit 5", () => {
  assert.deepEqual(B.parseMove("5'"), { row: 0, pit: 5, choice: "", theirs: true });
  assert.deepEqual(B.parseMove("b3'R"), { row: 1, pit: 3, choice: "R", theirs: true });
  assert.equal(B.moveKey("south", "5'"), "north:0:5");
  assert.equal(B.moveKey("north", "5'"), "south:0:5");
  assert.deepEqual(B.movesByPit({ to_move: "south", legal_moves: ["1", "5'"] }), { "south:0:1": ["1"], "north:0:5": ["5'"] });
  assert.equal(B.pitName(B.parseMove("5'"), true), "5'");
});
