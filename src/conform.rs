//! Conformance: replays reference traces (JSON lines, one game a line, as in
//! `conformance/openspiel/README.md`) against a rule file and reports where the two part.
//!
//! Each line gives the board's parameters, the start position, the moves and the position after every
//! move. The rule file is loaded once per distinct set of parameters; every game is played from the
//! start and each position is compared with the trace's: pits, stores, the player to move, the legal
//! moves, whether the game is over and who won. A game stops at its first disagreement, because the
//! positions after it no longer follow from the same history. This module reads no files itself
//! except the rule file (through [`crate::load_game`]); it never changes the engine's positions.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::{Game, Outcome, Player, Position};
use crate::position::Sides;
use crate::{LoadFailure, Loaded, Override};

/// How a trace's `params` are named in the rule files: (trace parameter, rule file parameter).
pub const PARAMS: [(&str, &str); 2] = [("num_houses_per_player", "pits"), ("num_seeds_per_house", "seeds")];

/// A position as a trace records it, and as the engine's position is shown next to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TracePosition {
    /// Seeds per pit, pit 1 first, for each row.
    pub pits: Sides<Vec<i64>>,
    /// Seeds per store.
    pub stores: Sides<i64>,
    /// Whose turn it is (meaningless once over).
    pub to_move: Player,
    /// Is the game over.
    pub over: bool,
    /// The winner once over.
    pub winner: Option<Outcome>,
    /// The moves of the player to move; empty once over.
    pub legal_moves: Vec<usize>,
}

/// One game of a trace file.
#[derive(Debug, Clone, Deserialize)]
pub struct TraceGame {
    /// The game's name in the trace (`"oware"`, `"kalah"`).
    pub game: String,
    /// The board's parameters, under the trace's names (see [`PARAMS`]).
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
    /// The seed of the random moves: it names the game.
    pub rng_seed: Option<u64>,
    /// The number of moves.
    pub plies: Option<usize>,
    /// The pit sown from at each move (1-based, counted from the mover's own left).
    pub moves: Vec<usize>,
    /// The position before the first move.
    pub start: TracePosition,
    /// The position after each move.
    pub positions: Vec<TracePosition>,
    /// What each side ends with (store, plus what a rule set scoring in place leaves in its pits).
    pub final_totals: Option<Sides<i64>>,
}

/// A field of a position that can disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The seeds in the pits.
    Pits,
    /// The seeds in the stores.
    Stores,
    /// The player to move (compared only while neither position is over).
    ToMove,
    /// The legal moves.
    LegalMoves,
    /// Whether the game is over.
    Over,
    /// The winner.
    Winner,
    /// The scores of a finished game against the trace's `final_totals`.
    FinalTotals,
}

impl Field {
    /// The field's name as in the trace.
    pub fn name(self) -> &'static str {
        match self {
            Field::Pits => "pits",
            Field::Stores => "stores",
            Field::ToMove => "to_move",
            Field::LegalMoves => "legal_moves",
            Field::Over => "over",
            Field::Winner => "winner",
            Field::FinalTotals => "final_totals",
        }
    }
}

/// The first place where a game of the trace and the rule file part.
#[derive(Debug, Clone, Serialize)]
pub struct Disagreement {
    /// The trace line (1-based).
    pub line: usize,
    /// The trace's game name.
    pub game: String,
    /// The game's `rng_seed`, if the trace gives one.
    pub rng_seed: Option<u64>,
    /// The move number (1-based); 0 for the start position.
    pub move_number: usize,
    /// The pit played at that move (none for the start position).
    pub pit: Option<usize>,
    /// Who played it, by the trace.
    pub mover: Option<Player>,
    /// The trace's position before the move (none for the start position).
    pub before: Option<TracePosition>,
    /// The trace's position.
    pub expected: TracePosition,
    /// The rule file's position (the one before the move when the move was refused).
    pub got: TracePosition,
    /// The rule file's scores once its game is over.
    pub got_totals: Option<Sides<i64>>,
    /// The trace's `final_totals`.
    pub expected_totals: Option<Sides<i64>>,
    /// The fields that differ (none when the move was refused).
    pub fields: Vec<Field>,
    /// Why the rule file refused the trace's move, if it did.
    pub refused: Option<String>,
}

/// What a replay found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// Games in the trace.
    pub games: usize,
    /// Games in which every position agreed.
    pub games_agreed: usize,
    /// Moves in the trace.
    pub moves: usize,
    /// Moves after which the positions agreed (a game's moves after its first disagreement are not
    /// played and do not count).
    pub moves_agreed: usize,
    /// The first disagreement of each game that has one, in trace order.
    pub disagreements: Vec<Disagreement>,
}

impl Report {
    /// Every game and every move agreed.
    pub fn agreed(&self) -> bool {
        self.disagreements.is_empty() && self.games_agreed == self.games && self.moves_agreed == self.moves
    }
}

/// Why a trace could not be replayed.
#[derive(Debug)]
pub enum ConformError {
    /// A line is not a game in the trace format.
    Trace {
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The trace holds no games (only blank lines).
    Empty,
    /// The rule file cannot be loaded with a line's parameters.
    Load {
        /// The first line with these parameters.
        line: usize,
        /// The parameters given to the rule file.
        overrides: Vec<Override>,
        /// What is wrong.
        failure: LoadFailure,
    },
}

impl fmt::Display for ConformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConformError::Trace { line, message } => write!(f, "trace line {line}: {message}"),
            ConformError::Empty => write!(f, "the trace holds no games"),
            ConformError::Load { line, overrides, .. } => {
                let sets: Vec<String> = overrides.iter().map(|o| format!("{}={}", o.name, o.value)).collect();
                write!(
                    f,
                    "trace line {line}: the rule file cannot be loaded with {}",
                    if sets.is_empty() {
                        "its defaults".to_string()
                    } else {
                        sets.join(", ")
                    }
                )
            }
        }
    }
}

impl std::error::Error for ConformError {}

/// Replays every game of `trace` (the text of a JSON-lines trace) against the rule file at `rules`.
pub fn replay(rules: &Path, trace: &str) -> Result<Report, ConformError> {
    replay_with(trace, |overrides| crate::load_game(rules, overrides))
}

/// Replays every game of `trace`, loading the rules with `load` (called once per distinct set of
/// parameters, with the overrides they give).
pub fn replay_with(trace: &str, mut load: impl FnMut(&[Override]) -> Result<Loaded, LoadFailure>) -> Result<Report, ConformError> {
    let mut games: HashMap<Vec<(String, i64)>, Game> = HashMap::new();
    let mut report = Report::default();
    for (i, text) in trace.lines().enumerate() {
        let line = i + 1;
        if text.trim().is_empty() {
            continue;
        }
        let tg = parse_line(text).map_err(|message| ConformError::Trace { line, message })?;
        let overrides = overrides(&tg.params).map_err(|message| ConformError::Trace { line, message })?;
        let key: Vec<(String, i64)> = overrides.iter().map(|o| (o.name.clone(), o.value)).collect();
        if !games.contains_key(&key) {
            let loaded = load(&overrides).map_err(|failure| ConformError::Load {
                line,
                overrides: overrides.clone(),
                failure,
            })?;
            games.insert(key.clone(), loaded.game);
        }
        let game = &games[&key];
        report.games += 1;
        report.moves += tg.moves.len();
        let (agreed, disagreement) = replay_game(game, &tg, line);
        report.moves_agreed += agreed;
        match disagreement {
            Some(d) => report.disagreements.push(d),
            None => report.games_agreed += 1,
        }
    }
    if report.games == 0 {
        return Err(ConformError::Empty);
    }
    Ok(report)
}

/// Reads one line and checks that its parts fit together.
fn parse_line(text: &str) -> Result<TraceGame, String> {
    let tg: TraceGame = serde_json::from_str(text).map_err(|e| {
        // Each line is parsed alone, so serde's "at line 1" would mislead: keep only the column.
        let full = e.to_string();
        let message = full
            .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
            .unwrap_or(&full);
        format!("not a trace game: {message} at column {}", e.column())
    })?;
    if tg.positions.len() != tg.moves.len() {
        return Err(format!(
            "{} moves but {} positions; a trace gives the position after each move",
            tg.moves.len(),
            tg.positions.len()
        ));
    }
    if let Some(plies) = tg.plies
        && plies != tg.moves.len()
    {
        return Err(format!("`plies` is {plies} but there are {} moves", tg.moves.len()));
    }
    Ok(tg)
}

/// The rule file's parameters for a trace's `params`.
fn overrides(params: &BTreeMap<String, i64>) -> Result<Vec<Override>, String> {
    if let Some(unknown) = params.keys().find(|k| !PARAMS.iter().any(|(t, _)| t == k)) {
        let known: Vec<&str> = PARAMS.iter().map(|(t, _)| *t).collect();
        return Err(format!("unknown parameter `{unknown}` in `params` (known: {})", known.join(", ")));
    }
    Ok(PARAMS
        .iter()
        .filter_map(|(trace, rules)| {
            params.get(*trace).map(|&value| Override {
                name: (*rules).to_string(),
                value,
            })
        })
        .collect())
}

/// Plays one game: the number of moves that agreed, and the first disagreement.
fn replay_game(game: &Game, tg: &TraceGame, line: usize) -> (usize, Option<Disagreement>) {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let totals = tg.final_totals.as_ref();
    let disagreement = |pos: &Position, move_number: usize, before: Option<&TracePosition>, expected: &TracePosition| Disagreement {
        line,
        game: tg.game.clone(),
        rng_seed: tg.rng_seed,
        move_number,
        pit: move_number.checked_sub(1).map(|i| tg.moves[i]),
        mover: before.map(|b| b.to_move),
        before: before.cloned(),
        expected: expected.clone(),
        got: snapshot(game, pos),
        got_totals: pos.over.then(|| scores(game, pos)),
        expected_totals: totals.cloned(),
        fields: Vec::new(),
        refused: None,
    };
    let fields = compare(game, &pos, &tg.start, totals);
    if !fields.is_empty() {
        let d = disagreement(&pos, 0, None, &tg.start);
        return (0, Some(Disagreement { fields, ..d }));
    }
    let mut before = &tg.start;
    for (i, (&pit, expected)) in tg.moves.iter().zip(&tg.positions).enumerate() {
        // The position before the move agreed with the trace's, legal moves included, so a refusal
        // means the trace plays a move its own list does not allow, or the engine disagrees with itself.
        if let Err(e) = game.apply(&mut pos, pit) {
            let d = disagreement(&pos, i + 1, Some(before), expected);
            return (
                i,
                Some(Disagreement {
                    refused: Some(e.to_string()),
                    ..d
                }),
            );
        }
        let fields = compare(game, &pos, expected, totals);
        if !fields.is_empty() {
            let d = disagreement(&pos, i + 1, Some(before), expected);
            return (i, Some(Disagreement { fields, ..d }));
        }
        before = expected;
    }
    (tg.moves.len(), None)
}

/// The fields in which the engine's position disagrees with the trace's.
///
/// In a final position the player to move means nothing and is not compared. A rule set that moves
/// the seeds left into the stores at the end agrees with a trace that leaves them in the pits (and
/// gives the scores in `final_totals`) when its pits are empty and its stores equal `final_totals`.
pub fn compare(game: &Game, pos: &Position, expected: &TracePosition, totals: Option<&Sides<i64>>) -> Vec<Field> {
    let got = snapshot(game, pos);
    let mut fields = Vec::new();
    let both_over = got.over && expected.over;
    let board_same = got.pits == expected.pits && got.stores == expected.stores;
    let collected = both_over && totals.is_some_and(|t| got.stores == *t) && got.pits.south.iter().chain(&got.pits.north).all(|&s| s == 0);
    if !board_same && !collected {
        if got.pits != expected.pits {
            fields.push(Field::Pits);
        }
        if got.stores != expected.stores {
            fields.push(Field::Stores);
        }
    }
    if !got.over && !expected.over && got.to_move != expected.to_move {
        fields.push(Field::ToMove);
    }
    if got.legal_moves != expected.legal_moves {
        fields.push(Field::LegalMoves);
    }
    if got.over != expected.over {
        fields.push(Field::Over);
    }
    if got.winner != expected.winner {
        fields.push(Field::Winner);
    }
    if both_over
        && let Some(t) = totals
        && scores(game, pos) != *t
    {
        fields.push(Field::FinalTotals);
    }
    fields
}

/// The engine's position in the trace's terms.
pub fn snapshot(game: &Game, pos: &Position) -> TracePosition {
    let json = crate::position::to_json(game, pos);
    TracePosition {
        pits: crate::position::flat_pits(game, pos),
        stores: json.stores,
        to_move: json.to_move,
        over: pos.over,
        winner: pos.winner,
        legal_moves: game.legal_moves(pos),
    }
}

/// What each side ends with: its store, plus the pits counted where they lie.
fn scores(game: &Game, pos: &Position) -> Sides<i64> {
    let [south, north] = game.scores(pos);
    Sides {
        south: i64::from(south),
        north: i64::from(north),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "game \"Tiny\"\nparam pits = 2 in 1..4\nparam seeds = 1 in 1..4\n\
        board {\n  pits pits\n  seeds seeds\n  stores captures\n}\nfirst south\n\
        sow {\n  direction ccw\n}\nend \"empty\" when no_moves remaining owner\n";

    fn load(overrides: &[Override]) -> Result<Loaded, LoadFailure> {
        crate::load_text(Path::new("tiny.sow"), RULES, overrides)
    }

    fn pos(south: &[i64], north: &[i64], to_move: &str, legal: &[usize]) -> String {
        format!(
            "{{\"pits\":{{\"south\":{south:?},\"north\":{north:?}}},\"stores\":{{\"south\":0,\"north\":0}},\
             \"to_move\":\"{to_move}\",\"over\":false,\"winner\":null,\"legal_moves\":{legal:?}}}"
        )
    }

    #[test]
    fn sizes_come_from_params() {
        // Three pits a side with two seeds: south's pit 3 sows into north's pits 1 and 2.
        let line = format!(
            "{{\"game\":\"tiny\",\"params\":{{\"num_houses_per_player\":3,\"num_seeds_per_house\":2}},\"rng_seed\":9,\
             \"moves\":[3],\"start\":{},\"positions\":[{}]}}",
            pos(&[2, 2, 2], &[2, 2, 2], "south", &[1, 2, 3]),
            pos(&[2, 2, 0], &[3, 3, 2], "north", &[1, 2, 3]),
        );
        let report = replay_with(&line, load).expect("the line is a game");
        assert!(report.agreed(), "{report:?}");
        assert_eq!((report.games, report.moves, report.moves_agreed), (1, 1, 1));
    }

    #[test]
    fn a_wrong_position_is_the_first_disagreement() {
        let line = format!(
            "{{\"game\":\"tiny\",\"params\":{{}},\"rng_seed\":4,\"moves\":[2,1],\"start\":{},\"positions\":[{},{}]}}",
            pos(&[1, 1], &[1, 1], "south", &[1, 2]),
            pos(&[1, 0], &[2, 1], "north", &[1, 2]),
            pos(&[1, 0], &[0, 3], "north", &[1]),
        );
        let report = replay_with(&line, load).expect("the line is a game");
        assert!(!report.agreed());
        assert_eq!(report.moves_agreed, 1);
        let d = &report.disagreements[0];
        assert_eq!(
            (d.rng_seed, d.move_number, d.pit, d.mover),
            (Some(4), 2, Some(1), Some(Player::North))
        );
        assert_eq!(d.fields, vec![Field::Pits, Field::ToMove]);
    }

    #[test]
    fn a_malformed_line_names_its_number() {
        let err = replay_with("\n{\"game\":1}\n", load).expect_err("not a game");
        assert!(matches!(err, ConformError::Trace { line: 2, .. }), "{err}");
        let line = format!(
            "{{\"game\":\"x\",\"params\":{{\"houses\":3}},\"moves\":[],\"start\":{},\"positions\":[]}}",
            pos(&[1, 1], &[1, 1], "south", &[1, 2])
        );
        let err = replay_with(&line, load).expect_err("unknown parameter");
        assert!(err.to_string().starts_with("trace line 1: unknown parameter `houses`"), "{err}");
    }
}
