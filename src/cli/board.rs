//! Drawing a position for people.

use crate::engine::{Game, Outcome, Player, Position};

/// The board as text: north's row on top (its pit 1 on the right, across from south's last pit),
/// north's store on the left, south's on the right.
pub fn draw(game: &Game, pos: &Position) -> String {
    if game.rows > 1 {
        return draw_rows(game, pos, Player::South);
    }
    let b = &pos.board;
    let n = game.side_pits;
    let width = b.cells.iter().map(|c| c.to_string().len()).max().unwrap_or(1).max(2);
    let cell = |c: usize| -> String {
        let mut s = if b.closed[c] {
            format!("{:>width$}", "x")
        } else {
            format!("{:>width$}", b.cells[c])
        };
        if let Some(p) = b.claimed[c] {
            s.push(if p == Player::South { 's' } else { 'n' });
        } else if game.uses_claims {
            s.push(' ');
        }
        format!("[{s}]")
    };
    let label_w = cell(0).len();
    let north: Vec<String> = (0..n).rev().map(|i| cell(game.pit(Player::North, i + 1) as usize)).collect();
    let south: Vec<String> = (0..n).map(|i| cell(game.pit(Player::South, i + 1) as usize)).collect();
    let numbers = |order: Vec<usize>| order.iter().map(|k| format!("{:>label_w$}", k)).collect::<Vec<_>>().join(" ");
    let store_w = width.max(3);
    let ns = b.cells[game.store(Player::North) as usize];
    let ss = b.cells[game.store(Player::South) as usize];
    let pad = " ".repeat(store_w + 2);
    let mut s = String::new();
    s.push_str(&format!("{pad}{}   north\n", numbers((1..=n).rev().collect())));
    s.push_str(&format!("{pad}{}\n", north.join(" ")));
    s.push_str(&format!("{:>store_w$}  {}  {}\n", ns, " ".repeat(north.join(" ").len()), ss));
    s.push_str(&format!("{pad}{}\n", south.join(" ")));
    s.push_str(&format!("{pad}{}   south\n", numbers((1..=n).collect())));
    s
}

/// A board of several rows a player as it looks from `near`'s seat: the other player's rows on top
/// (their back row first), then the stores, then `near`'s rows (front row first). Each row is drawn
/// from the left of the person at the table, with its pits' names above or below it (`a1`, `b3`: the
/// row letter, `a` the front row, and the number counted from the owner's left).
pub fn draw_rows(game: &Game, pos: &Position, near: Player) -> String {
    let b = &pos.board;
    let width = b.cells.iter().map(|c| c.to_string().len()).max().unwrap_or(1).max(2);
    let cell = |c: usize| -> String {
        let mut s = if b.closed[c] {
            format!("{:>width$}", "x")
        } else {
            format!("{:>width$}", b.cells[c])
        };
        if let Some(p) = b.claimed[c] {
            s.push(if p == Player::South { 's' } else { 'n' });
        } else if game.uses_claims {
            s.push(' ');
        }
        format!("[{s}]")
    };
    let cell_w = cell(0).len();
    let far = near.other();
    let label_w = far.name().len().max(near.name().len()) + 2;
    // The pits of `player`'s row `row` (0 = front), left to right as the person at `near`'s seat
    // sees them: their own rows from pit 1, the other player's from its last pit.
    let row_cells = |player: Player, row: usize| -> Vec<usize> {
        let first = game.row(player).start + row * game.columns;
        let cells: Vec<usize> = (first..first + game.columns).collect();
        if player == near { cells } else { cells.into_iter().rev().collect() }
    };
    let names = |cells: &[usize]| {
        let names: Vec<String> = cells
            .iter()
            .map(|&c| format!("{:>cell_w$}", game.pit_name(game.move_of(c as crate::engine::Cell))))
            .collect();
        format!("{:label_w$} {}\n", "", names.join(" "))
    };
    let line = |player: Player, row: usize, cells: &[usize]| {
        let letter = char::from(b'a' + row as u8);
        let pits: Vec<String> = cells.iter().map(|&c| cell(c)).collect();
        format!("{:<label_w$} {}\n", format!("{} {letter}", player.name()), pits.join(" "))
    };
    let mut s = String::new();
    for row in (0..game.rows).rev() {
        let cells = row_cells(far, row);
        if row == game.rows - 1 {
            s.push_str(&names(&cells));
        }
        s.push_str(&line(far, row, &cells));
        if row == 0 {
            s.push_str(&names(&cells));
        }
    }
    s.push_str(&format!(
        "{:label_w$} stores: {} {}, {} {}\n",
        "",
        far.name(),
        b.cells[game.store(far) as usize],
        near.name(),
        b.cells[game.store(near) as usize]
    ));
    for row in 0..game.rows {
        let cells = row_cells(near, row);
        if row == 0 {
            s.push_str(&names(&cells));
        }
        s.push_str(&line(near, row, &cells));
        if row == game.rows - 1 {
            s.push_str(&names(&cells));
        }
    }
    s
}

/// The board plus whose turn it is, or the result.
pub fn summary(game: &Game, pos: &Position) -> String {
    let mut s = draw(game, pos);
    if game.rounds.is_some() {
        s.push_str(&format!(
            "round {}; rounds won: south {}, north {}\n",
            pos.round, pos.rounds_won[0], pos.rounds_won[1]
        ));
    }
    if pos.over {
        let scores = game.scores(pos);
        let who = match pos.winner {
            Some(Outcome::South) => "south wins",
            Some(Outcome::North) => "north wins",
            _ => "a draw",
        };
        let by = pos.ended_by.as_deref().map(|r| format!(" (\"{r}\")")).unwrap_or_default();
        s.push_str(&format!("game over{by}: {who}, south {} - north {}\n", scores[0], scores[1]));
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
                super::run::names(game, &moves)
            ));
        }
    }
    s
}
