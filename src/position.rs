//! The position JSON of `docs/cli.md`: what `run --json` prints and `run --from` reads. A board of
//! one row a player lists each player's pits in one list; a board of several rows lists each
//! player's rows from the middle of the board outwards, each a list.

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::engine::{Board, Game, Outcome, Player, Position};

/// A value per player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sides<T> {
    /// South's.
    pub south: T,
    /// North's.
    pub north: T,
}

/// A value per pit of one player: one list on a board of one row a player, else a list per row,
/// the front row first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PerPit<T> {
    /// The pits of the only row, pit 1 first.
    Row(Vec<T>),
    /// The rows from the middle outwards, each pit 1 first.
    Rows(Vec<Vec<T>>),
}

impl<T: Clone> PerPit<T> {
    /// The values in the layout of `game`'s board: one list, or a list per row.
    fn shaped(game: &Game, values: &[T]) -> PerPit<T> {
        if game.rows == 1 {
            PerPit::Row(values.to_vec())
        } else {
            PerPit::Rows(values.chunks(game.columns).map(<[T]>::to_vec).collect())
        }
    }

    /// The values in cell order (front row first), checked against the shape of `game`'s board.
    fn flat(&self, game: &Game, what: &str, player: &str) -> Result<Vec<T>, Diagnostic> {
        let rows: Vec<&Vec<T>> = match self {
            PerPit::Row(r) => vec![r],
            PerPit::Rows(rows) => rows.iter().collect(),
        };
        let shape_help = if game.rows == 1 {
            "give one number per pit, pit 1 first, or use --set pits=N".to_string()
        } else {
            format!(
                "give {} lists of {} numbers a player, the front row first, each from pit 1",
                game.rows, game.columns
            )
        };
        if game.rows > 1 && !matches!(self, PerPit::Rows(_)) {
            return Err(bad(
                format!("{what} gives {player} one list, but the board has {} rows a player", game.rows),
                &shape_help,
            ));
        }
        if rows.len() != game.rows {
            return Err(bad(
                format!(
                    "{what} gives {} rows for {player} but the board has {} a player",
                    rows.len(),
                    game.rows
                ),
                &shape_help,
            ));
        }
        let mut out = Vec::with_capacity(game.side_pits);
        for (i, row) in rows.into_iter().enumerate() {
            if row.len() != game.columns {
                let which = if game.rows == 1 {
                    String::new()
                } else {
                    format!(" in row {}", i + 1)
                };
                return Err(bad(
                    format!(
                        "{what} gives {} pits for {player}{which} but the board has {} per row",
                        row.len(),
                        game.columns
                    ),
                    &shape_help,
                ));
            }
            out.extend(row.iter().cloned());
        }
        Ok(out)
    }
}

/// A move as the position JSON lists it: a pit number on a board of one row a player, else the
/// row letter and number (`"b3"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveJson {
    /// A pit number.
    Number(usize),
    /// A name such as `"a3"`.
    Name(String),
}

impl MoveJson {
    /// The move `k` of `game` as the JSON lists it.
    pub fn of(game: &Game, k: usize) -> MoveJson {
        if game.rows == 1 && game.choices == 1 {
            MoveJson::Number(k)
        } else {
            MoveJson::Name(game.move_name(k))
        }
    }
}

/// A position as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionJson {
    /// Seeds per pit, pit 1 first, for each row.
    pub pits: Sides<PerPit<i64>>,
    /// Seeds per store.
    pub stores: Sides<i64>,
    /// Whose turn it is.
    pub to_move: Player,
    /// Is the game over (output only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<bool>,
    /// The winner once over (output only).
    #[serde(default, skip_deserializing)]
    pub winner: Option<Outcome>,
    /// The legal moves (output only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<MoveJson>>,
    /// Moves played so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The player who began the game (shown when a rule reads `starter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starter: Option<Player>,
    /// The player who opened the current round (shown when the next round's opener depends on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opener: Option<Player>,
    /// Rounds won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_won: Option<Sides<u32>>,
    /// Claimed pits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed: Option<Sides<PerPit<Option<Player>>>>,
    /// Closed pits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<Sides<PerPit<bool>>>,
    /// The name of the rule that ended the game (output only, once over).
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub ended_by: Option<String>,
}

fn sides<T>(game: &Game, f: impl Fn(std::ops::Range<usize>) -> T) -> Sides<T> {
    Sides {
        south: f(game.row(Player::South)),
        north: f(game.row(Player::North)),
    }
}

/// Each player's seeds per pit in one list, front row first (the cells' order).
pub fn flat_pits(game: &Game, pos: &Position) -> Sides<Vec<i64>> {
    sides(game, |r| pos.board.cells[r].iter().map(|&c| i64::from(c)).collect())
}

/// The JSON of a position, with the fields the game uses.
pub fn to_json(game: &Game, pos: &Position) -> PositionJson {
    let b = &pos.board;
    PositionJson {
        pits: sides(game, |r| {
            let seeds: Vec<i64> = b.cells[r].iter().map(|&c| i64::from(c)).collect();
            PerPit::shaped(game, &seeds)
        }),
        stores: Sides {
            south: i64::from(b.cells[game.store(Player::South) as usize]),
            north: i64::from(b.cells[game.store(Player::North) as usize]),
        },
        to_move: pos.to_move,
        over: Some(pos.over),
        winner: pos.winner,
        legal_moves: Some(game.legal_moves(pos).into_iter().map(|k| MoveJson::of(game, k)).collect()),
        ply: Some(pos.ply),
        round: game.rounds.as_ref().map(|_| pos.round),
        starter: game.uses_starter.then_some(pos.starter),
        opener: game.rounds.as_ref().and_then(|r| r.opener).map(|_| pos.opener),
        rounds_won: game.rounds.as_ref().map(|_| Sides {
            south: pos.rounds_won[0],
            north: pos.rounds_won[1],
        }),
        claimed: game.uses_claims.then(|| sides(game, |r| PerPit::shaped(game, &b.claimed[r]))),
        closed: game.uses_closed.then(|| sides(game, |r| PerPit::shaped(game, &b.closed[r]))),
        ended_by: pos.ended_by.clone(),
    }
}

fn bad(message: String, help: &str) -> Diagnostic {
    Diagnostic::bare("sow::run::bad_position", message).with_help(help.to_string())
}

/// Reads a position for a game, checking it fits the board. The end rules are not applied to it:
/// pass it through [`Game::settle_start`] before playing on it.
pub fn from_json(game: &Game, text: &str) -> Result<Position, Diagnostic> {
    let json: PositionJson = serde_json::from_str(text).map_err(|e| {
        bad(
            format!("the position is not valid position JSON: {e}"),
            "see docs/cli.md for the format: {\"pits\":{\"south\":[..],\"north\":[..]},\"stores\":{..},\"to_move\":\"south\"}",
        )
    })?;
    let n = game.side_pits;
    let mut cells = Vec::with_capacity(2 * n + 2);
    for (name, row) in [("south", &json.pits.south), ("north", &json.pits.north)] {
        for (i, v) in row.flat(game, "the position", name)?.into_iter().enumerate() {
            cells.push(count(v, &format!("{name}'s pit {}", game.pit_name(i + 1)))?);
        }
    }
    cells.push(count(json.stores.south, "south's store")?);
    cells.push(count(json.stores.north, "north's store")?);
    let total: u64 = cells.iter().map(|&c| u64::from(c)).sum();
    if total > crate::check::limits::MAX_TOTAL_SEEDS as u64 {
        return Err(bad(
            format!("the position holds {total} seeds, more than the engine plays"),
            "use fewer seeds",
        ));
    }
    let mut claimed = vec![None; 2 * n];
    if let Some(c) = &json.claimed {
        for (off, row, name) in [(0, &c.south, "south"), (n, &c.north, "north")] {
            claimed[off..off + n].copy_from_slice(&row.flat(game, "`claimed`", name)?);
        }
    }
    let mut closed = vec![false; 2 * n];
    if let Some(c) = &json.closed {
        for (off, row, name) in [(0, &c.south, "south"), (n, &c.north, "north")] {
            closed[off..off + n].copy_from_slice(&row.flat(game, "`closed`", name)?);
        }
    }
    if let Some(r) = json.round
        && r == 0
    {
        return Err(bad("`round` must be 1 or more".into(), "the first round is round 1"));
    }
    let mut pos = Position {
        board: Board {
            cells: cells.into(),
            claimed: claimed.into(),
            closed: closed.into(),
        },
        to_move: json.to_move,
        ply: json.ply.unwrap_or(0),
        round: json.round.unwrap_or(1),
        // Without it, the game is taken to have begun as the rule file says.
        starter: json.starter.unwrap_or(game.first),
        // Without it, the round is taken to have been opened by the player who began the game.
        opener: json.opener.or(json.starter).unwrap_or(game.first),
        rounds_won: json.rounds_won.map_or([0, 0], |r| [r.south, r.north]),
        over: false,
        winner: None,
        counted_in_place: false,
        ended_by: None,
        history: crate::engine::History::new(),
    };
    pos.history.push(game.hash(&pos));
    Ok(pos)
}

fn count(v: i64, what: &str) -> Result<u32, Diagnostic> {
    u32::try_from(v)
        .ok()
        .filter(|&c| i64::from(c) <= crate::check::limits::MAX_TOTAL_SEEDS)
        .ok_or_else(|| {
            bad(
                format!("{what} holds {v} seeds, which is not possible"),
                "a pit holds 0 or more seeds",
            )
        })
}
