// The board's geometry and the replay of a move's steps, with no DOM: the page (app.js) draws what
// these functions return, and tests/browser/unit.test.js runs them under Node on hand-made positions,
// including board shapes the engine cannot produce yet.
//
// Shapes (docs/cli.md): `pits.south` is a flat list (one row) or a list of rows listed from the middle
// of the board outwards. Every row is numbered from its owner's left as they face the board. Seen from
// the table with south sitting at the bottom, south's rows are below the middle (front row first) with
// pit 1 on the left, and north's rows above it with pit 1 on the right; each store sits at its owner's
// right hand. Turning the board (`flip`) shows it from north's chair.
//
// Shared pits (`pits.shared`, pits that belong to nobody, named s1, s2, ... in moves) come in three
// shapes: a middle row between the players' front rows, listed from south's left; a ring owned by
// halves, whose odd pit lies where the ring passes from north's last pit to south's pit 1; and a ring
// owned by nobody (the players have no pits), listed in ring order and drawn as two half-rows going
// round counter-clockwise, s1 at the bottom left.
(function (root, factory) {
  const api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.SowBoard = api;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const SIDES = ["south", "north"];

  /** The rows of one side, front (middle of the board) first, whatever the shape. */
  function rowsOf(list) {
    if (!Array.isArray(list)) return [];
    if (list.length > 0 && Array.isArray(list[0])) return list;
    return [list];
  }

  /** Is the position's board one row per player? */
  function isFlat(position) {
    const s = position && position.pits && position.pits.south;
    return Array.isArray(s) && !(s.length > 0 && Array.isArray(s[0]));
  }

  /** A key for a cell: "south:0:3" (side, row from the middle, pit), "south:store" or "shared:3". */
  function key(ref) {
    if (!ref) return "";
    if (ref.shared) return "shared:" + ref.pit;
    if (ref.store) return ref.side + ":store";
    return ref.side + ":" + (ref.row || 0) + ":" + ref.pit;
  }

  /**
   * A move as the pit the player touches: 3 -> row 0 pit 3; "a3" -> row 0 pit 3; "b4" -> row 1 pit 4;
   * "3L" -> row 0 pit 3 with the choice "L"; "s2" (or "s2R") -> shared pit 2; "5'" (or "5'R") -> the
   * opponent's pit 5 (a pit the mover owns in the opponent's row), marked `theirs`. Null when it is
   * not a move in any known notation. Rows are lettered a to d at most, so `s` never names a row.
   */
  function parseMove(m) {
    if (typeof m === "number" && Number.isInteger(m) && m > 0) return { row: 0, pit: m, choice: "" };
    if (typeof m !== "string") return null;
    const match = /^\s*([a-z]?)(\d+)('?)(.*?)\s*$/i.exec(m);
    if (!match) return null;
    const letter = match[1].toLowerCase();
    const pit = parseInt(match[2], 10);
    if (!(pit > 0)) return null;
    if (letter === "s") return { shared: true, pit: pit, choice: match[4] };
    const row = letter ? letter.charCodeAt(0) - 97 : 0;
    const p = { row: row, pit: pit, choice: match[4] };
    if (match[3]) p.theirs = true;
    return p;
  }

  /** The key of the pit a move of `mover` starts from: one of the mover's pits, a pit of the
   * opponent's the mover owns, or a shared pit. */
  function moveKey(mover, m) {
    const p = parseMove(m);
    if (!p) return null;
    if (p.shared) return key({ shared: true, pit: p.pit });
    const side = p.theirs ? SIDES[1 - SIDES.indexOf(mover)] : mover;
    return key({ side: side, row: p.row, pit: p.pit });
  }

  /** The legal moves grouped by the pit they start from: key -> [moves]. */
  function movesByPit(position) {
    const out = {};
    for (const m of position.legal_moves || []) {
      const k = moveKey(position.to_move, m);
      if (!k) continue;
      (out[k] = out[k] || []).push(m);
    }
    return out;
  }

  /** Pit label as a player names it: "3" on a one-row side, "a3" when sides have several rows, "s3" for a shared pit. */
  function pitName(ref, flat) {
    if (ref.shared) return "s" + ref.pit;
    if (ref.store) return "store";
    const name = flat ? String(ref.pit) : String.fromCharCode(97 + (ref.row || 0)) + ref.pit;
    return ref.theirs ? name + "'" : name;
  }

  /** Seeds per cell: key -> count. */
  function countsOf(position) {
    const c = {};
    for (const side of SIDES) {
      rowsOf(position.pits[side]).forEach(function (row, r) {
        row.forEach(function (n, i) {
          c[key({ side: side, row: r, pit: i + 1 })] = n;
        });
      });
      c[key({ side: side, store: true })] = position.stores[side];
    }
    (position.pits.shared || []).forEach(function (n, i) {
      c[key({ shared: true, pit: i + 1 })] = n;
    });
    return c;
  }

  /** A per-pit extra (closed, claimed) in the same nesting as pits: key -> value. */
  function perPit(sides) {
    const out = {};
    if (!sides) return out;
    for (const side of SIDES) {
      rowsOf(sides[side]).forEach(function (row, r) {
        row.forEach(function (v, i) {
          out[key({ side: side, row: r, pit: i + 1 })] = v;
        });
      });
    }
    (sides.shared || []).forEach(function (v, i) {
      out[key({ shared: true, pit: i + 1 })] = v;
    });
    return out;
  }

  /**
   * The shape of the shared pits: "none", "middle" (a middle row), "ring" (a ring owned by halves,
   * with its odd pit) or "ring of nobody". `game` is the server's description (`ring`); without it
   * (a hand-made position) the shape is read from the lists: no pits of the players' is a ring of
   * nobody, a full row a middle row.
   */
  function sharedShape(position, game) {
    const shared = (position.pits && position.pits.shared) || [];
    if (shared.length === 0) return "none";
    const south = rowsOf(position.pits.south);
    const own = south.reduce(function (n, r) { return n + r.length; }, 0);
    if (own === 0) return "ring of nobody";
    const ring = game && typeof game.ring === "boolean" ? game.ring : shared.length !== (south[0] || []).length;
    return ring ? "ring" : "middle";
  }

  /**
   * Where everything goes, in grid units: each pit has a column (0 = left) and a line (0 = top), both
   * possibly halfway between two; the stores span every line at the two ends, and a gap is left before
   * each line listed in `breaks` (between the players' rows, and around a middle row). `flip` shows
   * the board from north's side. `game` (optional) is the server's description of the board.
   */
  function layout(position, flip, game) {
    const bottom = flip ? "north" : "south";
    const top = flip ? "south" : "north";
    const shape = sharedShape(position, game);
    const shared = (position.pits && position.pits.shared) || [];
    // A store that is a pit of the row (`store_pit`, docs/cli.md) is drawn in that pit's place, as a
    // pit named "store" holding the store's seeds, and not again at the ends.
    const storePit = position.store_pit || 0;
    const stores = storePit
      ? []
      : [
          // Each store sits at its owner's right hand: the bottom player's on the right, the top player's on the left.
          { side: top, store: true, at: "left" },
          { side: bottom, store: true, at: "right" },
        ];
    const place = function (p) {
      if (storePit && p.row === 0 && p.pit === storePit) p.store = true;
      return p;
    };
    if (shape === "ring of nobody") return ringOfNobody(shared.length, flip, top, bottom, stores);
    const topRows = rowsOf(position.pits[top]);
    const bottomRows = rowsOf(position.pits[bottom]);
    const rowWidth = Math.max(
      1,
      ...topRows.map(function (r) { return r.length; }),
      ...bottomRows.map(function (r) { return r.length; })
    );
    const pits = [];
    const middle = shape === "middle" ? 1 : 0;
    // An odd ring's shared pit takes a column of its own at the end where south's pit 1 is: the
    // left as south sees the board, the right from north's side.
    const ringColumn = shape === "ring" ? 1 : 0;
    const shift = ringColumn && !flip ? 1 : 0;
    const width = rowWidth + ringColumn;
    const lines = topRows.length + middle + bottomRows.length;
    // The top player's rows: the outermost at the top, the front row just above the middle. They face
    // the other way, so their pit 1 is on the right as the bottom player sees it.
    topRows.forEach(function (row, r) {
      const line = topRows.length - 1 - r;
      row.forEach(function (_, i) {
        pits.push(place({ side: top, row: r, pit: i + 1, col: shift + rowWidth - 1 - i, line: line }));
      });
    });
    bottomRows.forEach(function (row, r) {
      const line = topRows.length + middle + r;
      row.forEach(function (_, i) {
        pits.push(place({ side: bottom, row: r, pit: i + 1, col: shift + i, line: line }));
      });
    });
    const breaks = [topRows.length];
    if (shape === "middle") {
      // Numbered from south's left, so read backwards from north's side.
      shared.forEach(function (_, i) {
        pits.push({ shared: true, pit: i + 1, col: flip ? rowWidth - 1 - i : i, line: topRows.length });
      });
      breaks.push(topRows.length + 1);
    } else if (shape === "ring") {
      // Between the two rows; several (a shape the engine does not make) would stand one under another.
      const n = shared.length;
      shared.forEach(function (_, i) {
        pits.push({ shared: true, pit: i + 1, col: flip ? width - 1 : 0, line: topRows.length - 1 + (i + 1) / (n + 1) });
      });
    }
    return { width: width, lines: lines, top: top, bottom: bottom, topLines: topRows.length, breaks: breaks, shape: shape, pits: pits, stores: stores };
  }

  /**
   * A ring whose pits all belong to nobody, as two half-rows going round counter-clockwise: s1 at the
   * bottom left, the first half left to right along the bottom, the rest back along the top (centred
   * over the bottom half when there is one pit fewer). Turned, it is the same ring seen from the other
   * side: a half-turn.
   */
  function ringOfNobody(n, flip, top, bottom, stores) {
    const half = Math.ceil(n / 2);
    const rest = n - half;
    const offset = (half - rest) / 2;
    const pits = [];
    for (let i = 0; i < n; i++) {
      let col = i < half ? i : offset + (n - 1 - i);
      let line = i < half ? 1 : 0;
      if (flip) {
        col = half - 1 - col;
        line = 1 - line;
      }
      pits.push({ shared: true, pit: i + 1, col: col, line: line });
    }
    return { width: Math.max(1, half), lines: 2, top: top, bottom: bottom, topLines: 1, breaks: [1], shape: "ring of nobody", pits: pits, stores: stores };
  }

  /** How many gaps lie above `line` (a fraction for a line halfway across one). */
  function gapsAbove(L, line) {
    let gaps = 0;
    for (const b of L.breaks || [L.topLines]) gaps += Math.min(1, Math.max(0, line - (b - 1)));
    return gaps;
  }

  /**
   * The frames of a move's animation, from the position before it to the one after: each frame is the
   * seeds per cell at that moment, the cells to mark, and the step of the narration it belongs to.
   * Sowing shows one seed at a time. The last frame is always the position after the move, so a step
   * the page does not model (seeds handed over at the end, a new round) still ends right.
   */
  function frames(before, steps, after) {
    const out = [];
    let counts = countsOf(before);
    const path = {}; // key -> order in which the move's seeds fell there (last one wins)
    const marks = {}; // key -> "origin" | "taken" | "last"
    let order = 0;
    let hand = 0;
    const push = function (stepIndex, active) {
      out.push({
        counts: Object.assign({}, counts),
        path: Object.assign({}, path),
        marks: Object.assign({}, marks),
        active: active || null,
        step: stepIndex,
        hand: hand,
      });
    };
    (steps || []).forEach(function (s, i) {
      switch (s.kind) {
        case "pickup": {
          const k = key(s.cell);
          hand += counts[k] || 0;
          counts[k] = 0;
          if (!marks[k]) marks[k] = "origin";
          push(i, k);
          break;
        }
        case "sow":
          for (const c of s.cells || []) {
            const k = key(c);
            counts[k] = (counts[k] || 0) + 1;
            hand = Math.max(0, hand - 1);
            path[k] = ++order;
            push(i, k);
          }
          break;
        case "lap_end":
          marks[key(s.cell)] = marks[key(s.cell)] === "origin" ? "origin" : "last";
          push(i, key(s.cell));
          break;
        case "take": {
          const from = key(s.cell);
          const to = key(s.to);
          counts[from] = Math.max(0, (counts[from] || 0) - s.seeds);
          counts[to] = (counts[to] || 0) + s.seeds;
          marks[from] = "taken";
          push(i, from);
          break;
        }
        case "take_in_hand": {
          // Seeds taken into the hand to be sown again: the `sow` steps that follow drop them.
          const from = key(s.cell);
          counts[from] = Math.max(0, (counts[from] || 0) - s.seeds);
          hand += s.seeds;
          marks[from] = "taken";
          push(i, from);
          break;
        }
        case "move_seeds": {
          const from = key(s.from);
          const to = key(s.to);
          counts[from] = Math.max(0, (counts[from] || 0) - s.seeds);
          counts[to] = (counts[to] || 0) + s.seeds;
          marks[from] = "taken";
          push(i, to);
          break;
        }
        case "settle":
          counts = countsOf(after);
          push(i, null);
          break;
        default:
          push(i, null);
      }
    });
    counts = countsOf(after);
    hand = 0;
    push((steps || []).length - 1, null);
    return out;
  }

  /**
   * Where `n` seeds lie in a pit of radius 1 (or an ellipse rx x ry), at most `max` of them: a
   * sunflower spiral, the same for the same count, so a seed does not jump about between frames.
   */
  function seedSpots(n, max, rx, ry) {
    const shown = Math.min(n, max);
    const spots = [];
    const golden = Math.PI * (3 - Math.sqrt(5));
    const spread = shown > 1 ? 0.78 / Math.sqrt(shown) : 0;
    for (let i = 0; i < shown; i++) {
      const r = spread * Math.sqrt(i + 0.5);
      const a = i * golden;
      spots.push({ x: Math.cos(a) * r * (rx || 1), y: Math.sin(a) * r * (ry || 1) });
    }
    return spots;
  }

  return {
    rowsOf: rowsOf,
    isFlat: isFlat,
    key: key,
    parseMove: parseMove,
    moveKey: moveKey,
    movesByPit: movesByPit,
    pitName: pitName,
    countsOf: countsOf,
    perPit: perPit,
    sharedShape: sharedShape,
    layout: layout,
    gapsAbove: gapsAbove,
    frames: frames,
    seedSpots: seedSpots,
  };
});
