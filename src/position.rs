//! The position JSON of `docs/cli.md`: what `run --json` prints and `run --from` reads. A board of
//! one row a player lists each player's pits in one list; a board of several rows lists each
//! player's rows from the middle of the board outwards, each a list.

use serde::{Deserialize, Serialize};

use crate::board::PlayFrom;
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

/// A value per pit: each player's (as [`PerPit`]), and, on a board with pits that belong to nobody
/// (a middle row, a ring's shared pits), a `shared` list: a middle row from south's left, a ring's in
/// ring order. A board without shared pits has no `shared` key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PitSides<T> {
    /// South's.
    pub south: PerPit<T>,
    /// North's.
    pub north: PerPit<T>,
    /// Nobody's.
    #[serde(default = "Option::default", skip_serializing_if = "Option::is_none")]
    pub shared: Option<Vec<T>>,
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
        let mut out = Vec::with_capacity(game.side_pits());
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
/// row letter and number (`"b3"`); a pass the rules allow is `"pass"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveJson {
    /// A pit number.
    Number(usize),
    /// A name such as `"a3"`.
    Name(String),
}

impl MoveJson {
    /// The move `k` of `game` in position `pos` as the JSON lists it.
    pub fn of(game: &Game, pos: &Position, k: usize) -> MoveJson {
        // Plain numbers while every move is one of the player's own pits on a one-row side; a game
        // with a pass lists names (`3`, `pass`), so that one list never mixes numbers and names.
        let numbered = game.rows == 1
            && game.choices == 1
            && !game.uses_choose
            && !game.may_pass
            && !game.plays_across
            && (game.shared == 0 || game.play_from == PlayFrom::Own);
        if numbered {
            MoveJson::Number(k)
        } else {
            MoveJson::Name(game.name_move(pos, k))
        }
    }
}

/// A position as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionJson {
    /// Seeds per pit, pit 1 first, for each row.
    pub pits: PitSides<i64>,
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
    /// Moves played in this round (shown when a rule reads `round_ply`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_ply: Option<u32>,
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
    pub claimed: Option<PitSides<Option<Player>>>,
    /// Closed pits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<PitSides<bool>>,
    /// The values of the game's `memory { }` by name (shown when the game keeps memory): per player
    /// `{"south": V, "north": V}`, per pit the values laid out as `pits`. A number, or a pit written
    /// `"north 3"` (`"south b2"`, `"north store"`), or `null` for no pit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryJson>,
    /// `store pit N`: the pit of each player's row that is their store (output only). That pit is
    /// listed in `pits` with no seeds: its seeds are the player's entry in `stores`.
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub store_pit: Option<usize>,
    /// The name of the rule that ended the game (output only, once over).
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub ended_by: Option<String>,
}

/// The memory of a position by name, in the order the game declares it: serialised as a JSON
/// object whose keys keep that order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryJson(pub Vec<(String, serde_json::Value)>);

impl Serialize for MemoryJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, values) in &self.0 {
            map.serialize_entry(name, &SeatsFirst(values))?;
        }
        map.end()
    }
}

/// A memory value written with its keys in the order of the rest of the position (`south`, `north`,
/// `shared`), not the alphabetical order a JSON value keeps them in.
struct SeatsFirst<'a>(&'a serde_json::Value);

impl Serialize for SeatsFirst<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let serde_json::Value::Object(fields) = self.0 else {
            return self.0.serialize(s);
        };
        const SEATS: [&str; 3] = ["south", "north", "shared"];
        let mut map = s.serialize_map(Some(fields.len()))?;
        for key in SEATS {
            if let Some(v) = fields.get(key) {
                map.serialize_entry(key, v)?;
            }
        }
        for (key, v) in fields.iter().filter(|(k, _)| !SEATS.contains(&k.as_str())) {
            map.serialize_entry(key, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for MemoryJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = MemoryJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of memory values by name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<MemoryJson, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(MemoryJson(entries))
            }
        }
        d.deserialize_map(Entries)
    }
}

fn sides<T>(game: &Game, f: impl Fn(std::ops::Range<usize>) -> T) -> Sides<T> {
    Sides {
        south: f(game.row(Player::South)),
        north: f(game.row(Player::North)),
    }
}

/// The values of every pit of the board, shaped as the JSON lists them.
fn pit_sides<T: Clone>(game: &Game, values: &[T]) -> PitSides<T> {
    PitSides {
        south: PerPit::shaped(game, &values[game.row(Player::South)]),
        north: PerPit::shaped(game, &values[game.row(Player::North)]),
        shared: (game.shared > 0).then(|| values[game.shared_pits()].to_vec()),
    }
}

/// Reads the values of every pit from the JSON, checked against the board's shape.
fn read_pits<T: Clone>(game: &Game, sides: &PitSides<T>, what: &str) -> Result<Vec<T>, Diagnostic> {
    let mut out = sides.south.flat(game, what, "south")?;
    out.extend(sides.north.flat(game, what, "north")?);
    match &sides.shared {
        Some(shared) if shared.len() == game.shared => out.extend(shared.iter().cloned()),
        None if game.shared == 0 => {}
        Some(shared) if game.shared == 0 => {
            return Err(bad(
                format!("{what} gives {} shared pits but the board has none", shared.len()),
                "leave out `shared`",
            ));
        }
        given => {
            return Err(bad(
                format!(
                    "{what} gives {} shared pits but the board has {}",
                    given.as_ref().map_or(0, Vec::len),
                    game.shared
                ),
                &format!(
                    "give `shared` a list of {} values, from south's left (or in ring order)",
                    game.shared
                ),
            ));
        }
    }
    Ok(out)
}

/// Each player's seeds per pit in one list, front row first (the cells' order).
pub fn flat_pits(game: &Game, pos: &Position) -> Sides<Vec<i64>> {
    sides(game, |r| pos.board.cells[r].iter().map(|&c| i64::from(c)).collect())
}

/// The JSON of a position, with the fields the game uses.
pub fn to_json(game: &Game, pos: &Position) -> PositionJson {
    let b = &pos.board;
    PositionJson {
        pits: pit_sides(game, &b.cells[..game.pit_count()].iter().map(|&c| i64::from(c)).collect::<Vec<_>>()),
        stores: Sides {
            south: i64::from(b.cells[game.store(Player::South) as usize]),
            north: i64::from(b.cells[game.store(Player::North) as usize]),
        },
        to_move: pos.to_move,
        over: Some(pos.over),
        winner: pos.winner,
        legal_moves: Some(game.legal_moves(pos).into_iter().map(|k| MoveJson::of(game, pos, k)).collect()),
        ply: Some(pos.ply),
        round: game.rounds.as_ref().map(|_| pos.round),
        round_ply: game.uses_round_ply.then_some(pos.ply - pos.round_start),
        starter: game.uses_starter.then_some(pos.starter),
        opener: game.rounds.as_ref().and_then(|r| r.opener).map(|_| pos.opener),
        rounds_won: game.rounds.as_ref().map(|_| Sides {
            south: pos.rounds_won[0],
            north: pos.rounds_won[1],
        }),
        claimed: game.uses_claims.then(|| pit_sides(game, &b.claimed)),
        closed: game.uses_closed.then(|| pit_sides(game, &b.closed)),
        memory: (!game.memory.is_empty()).then(|| memory_json(game, pos)),
        store_pit: game.store_pit.map(|column| column + 1),
        ended_by: pos.ended_by.as_deref().map(str::to_string),
    }
}

/// The memory of a position, by name.
fn memory_json(game: &Game, pos: &Position) -> MemoryJson {
    use serde_json::{Value, json};
    let value = |holds_pit: bool, v: i64| -> Value {
        if holds_pit {
            u16::try_from(v)
                .ok()
                .and_then(|c| pit_text(game, c))
                .map_or(Value::Null, Value::String)
        } else {
            json!(v)
        }
    };
    let values = &pos.board.memory;
    MemoryJson(
        game.memory
            .iter()
            .map(|m| {
                let at = m.at.offset as usize;
                let shown = if m.at.whole_game {
                    Ok(value(m.holds_pit, values[at]))
                } else if m.at.per_pit {
                    let all: Vec<Value> = (0..game.pit_count()).map(|c| value(m.holds_pit, values[at + c])).collect();
                    serde_json::to_value(pit_sides(game, &all))
                } else {
                    serde_json::to_value(Sides {
                        south: value(m.holds_pit, values[at]),
                        north: value(m.holds_pit, values[at + 1]),
                    })
                }
                .expect("values serialise");
                (m.name.clone(), shown)
            })
            .collect(),
    )
}

/// A pit as the memory of the position JSON writes it: `"north 3"`, `"south b2"`, `"south store"`;
/// `None` for no pit.
fn pit_text(game: &Game, c: crate::engine::Cell) -> Option<String> {
    if usize::from(c) >= game.pit_count() + 2 {
        return None;
    }
    Some(match game.side_of(c) {
        None => format!("shared {}", game.pit_name(game.move_of(c))),
        Some(side) if game.is_store(c) => format!("{} store", side.name()),
        Some(side) => format!("{} {}", side.name(), game.pit_name(game.move_of(c))),
    })
}

/// Reads a pit as [`pit_text`] writes it (`null` is no pit).
fn read_pit(game: &Game, v: &serde_json::Value) -> Option<crate::engine::Cell> {
    if v.is_null() {
        return Some(crate::compile::ir::NO_PIT);
    }
    let (side, pit) = v.as_str()?.trim().split_once(' ')?;
    let player = match side {
        "south" => Player::South,
        "north" => Player::North,
        "shared" => {
            let k: usize = pit.strip_prefix('s')?.parse().ok()?;
            return (1..=game.shared)
                .contains(&k)
                .then(|| game.pit(Player::South, game.side_pits() + k));
        }
        _ => return None,
    };
    if pit == "store" {
        return Some(game.store(player));
    }
    let k = if game.rows == 1 {
        pit.parse().ok().filter(|k| (1..=game.side_pits()).contains(k))?
    } else {
        let number: usize = pit.get(1..)?.parse().ok()?;
        let row = usize::from(pit.as_bytes()[0].checked_sub(b'a')?);
        (row < game.rows && (1..=game.columns).contains(&number)).then(|| row * game.columns + number)?
    };
    Some(game.pit(player, k))
}

/// Reads the memory of a position JSON into `memory` (which holds the values at the start): the
/// values given replace those, the others stay.
fn read_memory(game: &Game, given: &MemoryJson, memory: &mut [i64]) -> Result<(), Diagnostic> {
    use serde_json::Value;
    let names: Vec<&str> = game.memory.iter().map(|m| m.name.as_str()).collect();
    if names.is_empty() {
        return Err(bad(
            "the position gives `memory`, but this game keeps none".into(),
            "remove `memory`: only a game with `memory { }` has it",
        ));
    }
    for (name, v) in &given.0 {
        let Some(m) = game.memory.iter().find(|m| m.name == *name) else {
            return Err(bad(
                format!("the game keeps no memory named `{name}`"),
                &format!("its memory is: {}", names.join(", ")),
            ));
        };
        let what = if m.holds_pit {
            "a pit such as \"north 3\", or null for no pit"
        } else {
            "a whole number"
        };
        let one = |v: &Value, whose: &str| -> Result<i64, Diagnostic> {
            let read = if m.holds_pit {
                read_pit(game, v).map(i64::from)
            } else {
                v.as_i64()
            };
            read.ok_or_else(|| {
                bad(
                    format!("`memory.{name}` of {whose} is {v}, not {what}"),
                    &format!("`{name}` holds {what}"),
                )
            })
        };
        let at = m.at.offset as usize;
        let shape = |expected: &str| {
            bad(
                format!("`memory.{name}` is not {expected}"),
                "give the values as `pits` gives the seeds (or `{\"south\": V, \"north\": V}` for a player's)",
            )
        };
        if m.at.whole_game {
            memory[at] = one(v, "the game")?;
        } else if m.at.per_pit {
            let per_pit: PitSides<Value> =
                serde_json::from_value(v.clone()).map_err(|_| shape("a list of values a pit for each player"))?;
            for (c, v) in read_pits(game, &per_pit, &format!("`memory.{name}`"))?.iter().enumerate() {
                memory[at + c] = one(v, &game.describe(c as crate::engine::Cell))?;
            }
        } else {
            let per_player: Sides<Value> = serde_json::from_value(v.clone()).map_err(|_| shape("a value for each player"))?;
            memory[at] = one(&per_player.south, "south")?;
            memory[at + 1] = one(&per_player.north, "north")?;
        }
    }
    Ok(())
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
    let mut cells = Vec::with_capacity(game.pit_count() + 2);
    for (c, v) in read_pits(game, &json.pits, "the position")?.into_iter().enumerate() {
        let c = c as crate::engine::Cell;
        let what = match game.side_of(c) {
            Some(p) => format!("{}'s pit {}", p.name(), game.pit_name(game.move_of(c))),
            None => game.describe(c),
        };
        if game.is_store_pit(c) && v != 0 {
            let p = game.side_of(c).map_or("the player", Player::name);
            return Err(bad(
                format!("{what} is {p}'s store: it holds no seeds of its own"),
                &format!("give its seeds as `stores.{p}` and 0 in its place in `pits`"),
            ));
        }
        cells.push(count(v, &what)?);
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
    let claimed = match &json.claimed {
        Some(c) => read_pits(game, c, "`claimed`")?,
        None => vec![None; game.pit_count()],
    };
    let closed = match &json.closed {
        Some(c) => read_pits(game, c, "`closed`")?,
        None => vec![false; game.pit_count()],
    };
    if let Some(r) = json.round
        && r == 0
    {
        return Err(bad("`round` must be 1 or more".into(), "the first round is round 1"));
    }
    if let Some(r) = json.round_ply
        && r > json.ply.unwrap_or(0)
    {
        return Err(bad(
            "`round_ply` is more than `ply`".into(),
            "the moves of this round are some of the moves played",
        ));
    }
    let mut memory = game.memory_start.clone();
    if let Some(given) = &json.memory {
        read_memory(game, given, &mut memory)?;
    }
    let mut pos = Position {
        board: Board {
            cells: cells.into(),
            claimed: claimed.into(),
            closed: closed.into(),
            memory,
        },
        to_move: json.to_move,
        ply: json.ply.unwrap_or(0),
        round: json.round.unwrap_or(1),
        // Without it, the round is taken to have begun with the game.
        round_start: json.ply.unwrap_or(0) - json.round_ply.unwrap_or(0),
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
