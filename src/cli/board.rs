//! Drawing a position for people: the board as text, seen from one player's side, with the stores
//! labelled with whose they are and the last move marked.
//!
//! Everything about the board's shape is here, so that boards of other shapes (several rows per
//! player) need changes in this file only: a [`View`] says who sits at the bottom, what each player is
//! called and what to mark; [`draw_view`] lays the rows out from that.

use crate::engine::{Cell, Event, Game, Outcome, Player, Position};

/// How to draw a board: from whose side, with which names, marking which pits.
#[derive(Debug, Clone)]
pub struct View {
    /// The player whose row is drawn at the bottom, as if sitting at the board there.
    pub bottom: Player,
    /// What to call south and north ("you", "computer", or the players' own names).
    pub names: [String; 2],
    /// The pit the last move was played from.
    pub played: Option<Cell>,
    /// Where the last seed of the last move fell.
    pub last_seed: Option<Cell>,
}

impl Default for View {
    /// South at the bottom, the players called by their seats, nothing marked.
    fn default() -> Self {
        View {
            bottom: Player::South,
            names: [Player::South.name().to_string(), Player::North.name().to_string()],
            played: None,
            last_seed: None,
        }
    }
}

impl View {
    /// Marks what the move narrated by `events` did (nothing when it ended a round): the pit its first lap picked up from and the
    /// cell where its last lap ended. Taken from the engine's own steps, not from the move's text, so
    /// that it holds for any way of naming a move.
    pub fn mark(&mut self, events: &[Event]) {
        // A move that ended a round is followed by the next round's setup: its pits mean nothing on
        // the new board.
        if events.iter().any(|e| matches!(e, Event::RoundSetup { .. })) {
            self.played = None;
            self.last_seed = None;
            return;
        }
        self.played = events.iter().find_map(|e| match e {
            Event::PickUp { cell, lap: 1, .. } => Some(*cell),
            _ => None,
        });
        self.last_seed = events.iter().rev().find_map(|e| match e {
            Event::LapEnds { last, .. } => Some(*last),
            _ => None,
        });
    }

    /// What `p` is called.
    pub fn name(&self, p: Player) -> &str {
        &self.names[p.index()]
    }
}

/// The board as text, south at the bottom, the stores labelled `south` and `north`.
pub fn draw(game: &Game, pos: &Position) -> String {
    draw_view(game, pos, &View::default())
}

/// The board as text, seen from `view.bottom`'s side: the other player's rows on top, read right to
/// left (their pit 1 on the right, across from the bottom player's last pit), the other player's
/// store on the left and the bottom player's on the right, each labelled with its owner's name (the
/// other way round when the track puts each store at its owner's left, see [`stores_at_left`]). On a
/// board of several rows a player the front rows (`a`) meet in the middle and each row is labelled
/// with its letter. The pit just played is drawn `<n>`, the pit where its last seed fell `(n)`, a
/// store that is a pit of the row (`store pit N`) `{n}` in that pit's place.
pub fn draw_view(game: &Game, pos: &Position, view: &View) -> String {
    let b = &pos.board;
    let columns = game.columns;
    let rows = game.rows;
    let me = view.bottom;
    let them = me.other();
    let width = b.cells.iter().map(|c| c.to_string().len()).max().unwrap_or(1).max(2);
    let cell = |c: Cell| -> String {
        // A store that is a pit of the row is drawn in that pit's place, `{n}`, with its seeds.
        if game.is_store_pit(c) {
            let store = game.in_place(c);
            let s = format!("{:>width$}", b.cells[store as usize]);
            let pad = if game.uses_claims { " " } else { "" };
            return if view.last_seed == Some(store) {
                format!("({s}{pad})")
            } else {
                format!("{{{s}{pad}}}")
            };
        }
        let i = c as usize;
        let mut s = if b.closed[i] {
            format!("{:>width$}", "x")
        } else {
            format!("{:>width$}", b.cells[i])
        };
        if let Some(p) = b.claimed[i] {
            s.push(if p == Player::South { 's' } else { 'n' });
        } else if game.uses_claims {
            s.push(' ');
        }
        if view.played == Some(c) {
            format!("<{s}>")
        } else if view.last_seed == Some(c) {
            format!("({s})")
        } else {
            format!("[{s}]")
        }
    };
    let cell_w = cell(0).chars().count();
    // A row of the other player is read from the bottom player's left: its last pit first.
    let top_numbers: Vec<usize> = (1..=columns).rev().collect();
    let bottom_numbers: Vec<usize> = (1..=columns).collect();
    // Row `r` (0 = the front row) of player `p`, in the order of `numbers`.
    let row_cells = |p: Player, r: usize, numbers: &[usize]| -> String {
        numbers
            .iter()
            .map(|&k| cell(game.pit(p, r * columns + k)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let numbers = |order: &[usize]| order.iter().map(|k| format!("{k:>cell_w$}")).collect::<Vec<_>>().join(" ");
    let row_letter = |r: usize| {
        if rows > 1 {
            format!("   {}", char::from(b'a' + r as u8))
        } else {
            String::new()
        }
    };
    // A ring owned by nobody has no rows of players: its pits are drawn as the shared ones.
    let row_w = (columns * (cell_w + 1)).saturating_sub(1);
    let store_w = width.max(2);
    let (left, right) = if stores_at_left(game) { (me, them) } else { (them, me) };
    let left_name = view.name(left);
    let right_name = view.name(right);
    let left_store = b.cells[game.store(left) as usize];
    let right_store = b.cells[game.store(right) as usize];
    // The rows start after the left store and its label, so the label never pushes the store into them.
    let margin = left_name.chars().count() + 1 + store_w + 2;
    let pad = " ".repeat(margin);
    let row_label = |p: Player| -> String {
        let seat = p.name();
        let name = view.name(p);
        if name == seat {
            seat.to_string()
        } else {
            format!("{seat} ({name})")
        }
    };
    let mut s = String::new();
    if game.side_pits() == 0 {
        return ring_of_shared(game, pos, view, &cell, cell_w) + &memory_lines(game, pos, view) + &legend_if_marked(game, view);
    }
    s.push_str(&format!("{pad}{}   {}\n", numbers(&top_numbers), row_label(them)));
    // The other player's back row is furthest from the middle, so it is drawn first.
    for r in (0..rows).rev() {
        s.push_str(&format!("{pad}{}{}\n", row_cells(them, r, &top_numbers), row_letter(r)));
    }
    s.push_str(&format!(
        "{left_name} {left_store:>store_w$}  {}  {right_store:<store_w$} {right_name}\n",
        middle_line(game, view, &cell, row_w)
    ));
    for r in 0..rows {
        s.push_str(&format!("{pad}{}{}\n", row_cells(me, r, &bottom_numbers), row_letter(r)));
    }
    s.push_str(&format!("{pad}{}   {}\n", numbers(&bottom_numbers), row_label(me)));
    if game.shared > 0 {
        s.push_str(&if game.ring {
            format!("{pad}the shared pit s1 lies between north's pit {columns} and south's pit 1\n")
        } else {
            format!("{pad}the middle row: shared pits s1 to s{}, s1 at south's left\n", game.shared)
        });
    }
    s.push_str(&memory_lines(game, pos, view));
    s.push_str(&legend_if_marked(game, view));
    s
}

/// Does the usual rules' track put each player's store at that player's left end of the board, between
/// their pit 1 and the other player's last pit (a track stated to sow clockwise into the stores)? Then
/// the board is drawn with the stores there. Only for two rows of pits; a store no track passes stays
/// where it is usually drawn.
fn stores_at_left(game: &Game) -> bool {
    if game.rows != 1 || game.shared > 0 || game.side_pits() == 0 {
        return false;
    }
    let Some(usual) = game.phases.last() else {
        return false;
    };
    Player::BOTH.iter().all(|&p| {
        let store = game.store(p);
        let left = [game.pit(p, 1), game.pit(p.other(), game.columns)];
        let mut passing = usual.tracks.iter().filter(|t| t.has(store)).peekable();
        passing.peek().is_some()
            && passing.all(|t| {
                let around = [t.prev[store as usize], t.next[store as usize]];
                left.iter().all(|c| around.contains(c))
            })
    })
}

/// What the game remembers, under `the game remembers:`, a line for each value of `memory { }`: each
/// player's (`opened: south 1, north 0`), or for a value kept for each pit, the pits where it is no longer what it started as
/// (`played: 1 at south 2, 1 at south 3`, or `played: nothing yet`). A pit held in memory is
/// named as in the narration (`start: south's is north 3, north's is no pit`).
fn memory_lines(game: &Game, pos: &Position, view: &View) -> String {
    let value = |holds_pit: bool, v: i64| -> String {
        match Cell::try_from(v) {
            Ok(c) if holds_pit && c != crate::compile::ir::NO_PIT => game.describe(c),
            _ if holds_pit => "no pit".to_string(),
            _ => v.to_string(),
        }
    };
    let values = &pos.board.memory;
    let mut s = String::new();
    for m in &game.memory {
        let at = m.at.offset as usize;
        let shown = if m.at.whole_game {
            value(m.holds_pit, values[at])
        } else if m.at.per_pit {
            let set: Vec<String> = (0..game.pit_count())
                .filter(|&c| values[at + c] != game.memory_start_of(m.at))
                .map(|c| format!("{} at {}", value(m.holds_pit, values[at + c]), game.describe(c as Cell)))
                .collect();
            if set.is_empty() {
                "nothing yet".to_string()
            } else {
                set.join(", ")
            }
        } else {
            Player::BOTH
                .iter()
                .map(|&p| {
                    let v = value(m.holds_pit, values[at + p.index()]);
                    // "south north 2" would read as one name: a pit is said to be the player's.
                    if m.holds_pit {
                        format!("{} is {v}", possessive(view.name(p)))
                    } else {
                        format!("{} {v}", view.name(p))
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!("  {}: {shown}\n", m.name));
    }
    if s.is_empty() { s } else { format!("the game remembers:\n{s}") }
}

fn legend_if_marked(game: &Game, view: &View) -> String {
    if view.played.is_some() || view.last_seed.is_some() {
        legend(game, view)
    } else {
        String::new()
    }
}

/// The line between the players' rows: blank, or the shared pits. A middle row is read from the
/// bottom player's left; a ring's odd shared pit sits at the end where the ring passes from the top
/// row to the bottom player's pit 1.
fn middle_line(game: &Game, view: &View, cell: &dyn Fn(Cell) -> String, row_w: usize) -> String {
    let shared: Vec<Cell> = game.shared_pits().map(|c| c as Cell).collect();
    if shared.is_empty() {
        return " ".repeat(row_w);
    }
    let mut line = if game.ring {
        let pits: Vec<String> = shared.iter().map(|&c| cell(c)).collect();
        let pits = pits.join(" ");
        if view.bottom == Player::South {
            format!("{pits:<row_w$}")
        } else {
            format!("{pits:>row_w$}")
        }
    } else {
        let mut order = shared;
        if view.bottom == Player::North {
            order.reverse();
        }
        order.iter().map(|&c| cell(c)).collect::<Vec<_>>().join(" ")
    };
    // Wider than the rows only when a ring's shared pits outnumber a row's pits.
    while line.chars().count() < row_w {
        line.push(' ');
    }
    line
}

/// A ring whose pits all belong to nobody: its first half along the bottom, left to right, the rest
/// back along the top, each pit labelled with its name.
fn ring_of_shared(game: &Game, pos: &Position, view: &View, cell: &dyn Fn(Cell) -> String, cell_w: usize) -> String {
    let cells: Vec<Cell> = game.shared_pits().map(|c| c as Cell).collect();
    let half = cells.len().div_ceil(2);
    let (bottom, top) = cells.split_at(half);
    let top: Vec<Cell> = top.iter().rev().copied().collect();
    let label = |c: Cell| format!("{:>cell_w$}", game.pit_name(game.move_of(c)));
    let line = |cs: &[Cell], f: &dyn Fn(Cell) -> String| cs.iter().map(|&c| f(c)).collect::<Vec<_>>().join(" ");
    let pad = "   ";
    let store = |p: Player| pos.board.cells[game.store(p) as usize];
    let stores = format!(
        "stores: {} {}, {} {}\n",
        view.name(Player::South),
        store(Player::South),
        view.name(Player::North),
        store(Player::North)
    );
    format!(
        "{pad}{}\n{pad}{}\n{pad}{}\n{pad}{}\n{stores}",
        line(&top, &label),
        line(&top, cell),
        line(bottom, cell),
        line(bottom, &label)
    )
}

/// One line saying what the marks on the board mean.
fn legend(game: &Game, view: &View) -> String {
    let mut parts = Vec::new();
    if let Some(c) = view.played {
        parts.push(format!("<> the pit played ({})", game.describe(c)));
    }
    match view.last_seed {
        Some(c) if game.is_store(c) => parts.push(format!(
            "the last seed fell in {} store",
            possessive(view.name(game.side(c).unwrap_or(Player::South)))
        )),
        Some(c) if Some(c) != view.played => parts.push(format!("() where the last seed fell ({})", game.describe(c))),
        Some(_) => parts.push("the last seed fell in the pit played".to_string()),
        None => {}
    }
    format!("{}\n", parts.join(", "))
}

/// "your", "the computer's", "south's".
fn possessive(name: &str) -> String {
    match name {
        "you" => "your".to_string(),
        "computer" => "the computer's".to_string(),
        _ => format!("{name}'s"),
    }
}

/// The board plus whose turn it is, or the result.
pub fn summary(game: &Game, pos: &Position) -> String {
    let mut s = draw(game, pos);
    s.push_str(&status(game, pos, &View::default()));
    s
}

/// The result of a finished game, or whose turn it is and the legal moves; names from `view`.
pub fn status(game: &Game, pos: &Position, view: &View) -> String {
    let mut s = rounds_line(game, pos, view);
    if pos.over {
        s.push_str(&result_line(game, pos, view));
    } else {
        let moves = game.legal_moves(pos);
        if moves.is_empty() {
            s.push_str(&format!(
                "{} to move, but has no legal move and no rule ends the game\n",
                pos.to_move.name()
            ));
        } else {
            s.push_str(&format!(
                "{} to move; legal moves: {}\n",
                pos.to_move.name(),
                super::run::names(game, pos, &moves)
            ));
        }
    }
    s
}

/// "round 2; rounds won: south 1, north 0" in a game played in rounds, else nothing.
pub fn rounds_line(game: &Game, pos: &Position, view: &View) -> String {
    if game.rounds.is_none() {
        return String::new();
    }
    format!(
        "round {}; rounds won: {} {}, {} {}\n",
        pos.round,
        view.name(Player::South),
        pos.rounds_won[0],
        view.name(Player::North),
        pos.rounds_won[1]
    )
}

/// "game over ("rule"): south wins, south 25 - north 23", with the players' names from `view`.
pub fn result_line(game: &Game, pos: &Position, view: &View) -> String {
    let scores = game.scores(pos);
    let who = match pos.winner {
        Some(Outcome::South) => wins(view.name(Player::South)),
        Some(Outcome::North) => wins(view.name(Player::North)),
        _ => "a draw".to_string(),
    };
    let by = pos.ended_by.as_deref().map(|r| format!(" (\"{r}\")")).unwrap_or_default();
    format!(
        "game over{by}: {who}, {} {} - {} {}\n",
        view.name(Player::South),
        scores[0],
        view.name(Player::North),
        scores[1]
    )
}

/// "south wins", but "you win".
fn wins(name: &str) -> String {
    if name == "you" {
        "you win".to_string()
    } else {
        format!("{name} wins")
    }
}
