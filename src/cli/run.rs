//! `sowlang run FILE [--from POS] [--moves 3,1,6] [--json] [--trace]`: play moves, print the result.

use std::path::PathBuf;

use super::{Output, Start, board, fail, load, out, read_position_file};
use crate::diagnostic::Diagnostic;

/// Arguments of `run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// Start from this position (JSON, see docs/cli.md) instead of the game's start.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Moves to play, comma-separated: pit numbers (`3,1,6`), or on a board of several rows a player
    /// the row letter and number (`b3,a1`; `a` is the front row); where the mover chooses the way the
    /// seeds go (`direction either`), each followed by `L` or `R` (`3L,1R` or `b3L,a1R`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    moves: Vec<String>,
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    output: Output,
    /// Narrate every move step by step (on stderr with --json).
    #[arg(long)]
    trace: bool,
}

/// Parses the `--moves` list into moves of `game`: a move, or `None` for a pit written without its
/// way (`b4` where the mover chooses `b4L` or `b4R`), which is told against the position it is played in.
pub(super) fn parse_moves(game: &crate::Game, moves: &[String]) -> Result<Vec<Option<usize>>, Diagnostic> {
    // `--moves ""` plays nothing; an empty item in a list (`,,1`, `3,`) is a slip, not a move.
    let written = moves.len() > 1 || moves.iter().any(|m| !m.trim().is_empty());
    moves
        .iter()
        .map(|m| m.trim())
        .enumerate()
        .filter(|(_, m)| written || !m.is_empty())
        .map(|(i, m)| {
            if m.is_empty() {
                return Err(
                    Diagnostic::bare("sow::run::bad_move", format!("move {} of --moves is empty", i + 1))
                        .with_help("separate the moves with one comma each, e.g. `--moves 3,1,6`"),
                );
            }
            // A move's choices are read against its position, when it is played; here its pit.
            let pit = m.split(':').next().unwrap_or(m);
            if let Some(k) = game.parse_move(pit) {
                return Ok(Some(k));
            }
            if game.parse_pit(pit).is_some() {
                return Ok(None);
            }
            // The words and examples are this game's own notation (`b3L,a1R`).
            let (words, examples) = super::record::notation(game, true);
            Err(
                Diagnostic::bare("sow::run::bad_move", format!("`{m}` in --moves is not a pit of this board"))
                    .with_help(format!("write the pits to play as {words}, e.g. `--moves {}`", examples.join(","))),
            )
        })
        .collect()
}

/// Why move `i` of --moves, `text`, read against `pos`, is no move of it: the moves it could be when it
/// names a pit without all that its move needs, why the pit has no legal move, else the legal moves.
fn not_a_move(game: &crate::Game, pos: &crate::Position, i: usize, text: &str) -> Diagnostic {
    let legal = || match game.legal_moves(pos).as_slice() {
        [] => "no move can be played here".to_string(),
        moves => format!("the legal moves here are: {}", names(game, pos, moves)),
    };
    if pos.over {
        return Diagnostic::bare(
            "sow::run::illegal_move",
            format!("move {} of --moves (`{text}`) comes after the end of the game", i + 1),
        )
        .with_help(legal());
    }
    let pit = text.split(':').next().unwrap_or(text);
    if let Some(why) = game.parse_move(pit).and_then(|k| game.no_such_pit(k)) {
        return Diagnostic::bare(
            "sow::run::illegal_move",
            format!("move {} of --moves (`{text}`) is not allowed: {why}", i + 1),
        )
        .with_help(legal());
    }
    match super::record::meant(game, pos, text) {
        Some(m) if m.stuck => Diagnostic::bare(
            "sow::run::illegal_move",
            format!("move {} of --moves (`{text}`) is not allowed: {}", i + 1, m.problem),
        )
        .with_help(format!("{}; {}", m.help, legal())),
        Some(m) => Diagnostic::bare("sow::run::bad_move", format!("move {} of --moves (`{text}`) {}", i + 1, m.problem)).with_help(m.help),
        None => Diagnostic::bare(
            "sow::run::bad_move",
            format!("move {} of --moves (`{text}`) is not one of the moves here", i + 1),
        )
        .with_help(legal()),
    }
}

/// Runs `run`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let loaded = match load(&args.file, &args.start.sets) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let moves = match parse_moves(game, &args.moves) {
        Ok(m) => m,
        Err(d) => return fail(d, 2),
    };
    let mut pos = match &args.from {
        Some(path) => {
            let text = match read_position_file(path) {
                Ok(t) => t,
                Err(code) => return code,
            };
            match crate::position::from_json(game, &text) {
                Ok(p) => p,
                Err(d) => return fail(d, 1),
            }
        }
        None => game.initial(args.start.first.map(Into::into)),
    };
    game.settle_start(&mut pos);
    let mut narration = String::new();
    // The game's own words said so far: each is explained once, the first time.
    let mut said = Vec::new();
    let texts: Vec<&str> = args.moves.iter().map(|m| m.trim()).filter(|m| !m.is_empty()).collect();
    for (i, &k) in moves.iter().enumerate() {
        let k = match k {
            Some(k) if !game.uses_choose => k,
            _ => match game.read_move(&pos, texts[i]) {
                Some(k) => k,
                None => return fail(not_a_move(game, &pos, i, texts[i]), 1),
            },
        };
        let result = if args.trace {
            game.apply_traced(&mut pos, k).map(|events| {
                // A blank line between one move's board and the next move.
                if !narration.is_empty() {
                    narration.push('\n');
                }
                let mut lines = game.narrate(&events);
                game.gloss(&mut lines, &mut said);
                for line in lines {
                    narration.push_str(&line);
                    narration.push('\n');
                }
                narration.push_str(&board::draw(game, &pos));
            })
        } else {
            game.apply(&mut pos, k)
        };
        if let Err(e) = result {
            let message = match e {
                crate::engine::MoveError::Illegal { name, reason, .. } => {
                    format!(
                        "move {} of --moves ({}) is not allowed: {reason}",
                        i + 1,
                        crate::engine::pit_word(&name)
                    )
                }
                crate::engine::MoveError::GameOver => format!(
                    "move {} of --moves ({}) comes after the end of the game",
                    i + 1,
                    crate::engine::pit_word(&game.name_move(&pos, k))
                ),
            };
            let d = Diagnostic::bare("sow::run::illegal_move", message).with_help(match game.legal_moves(&pos).as_slice() {
                [] => "no move can be played here".to_string(),
                moves => format!("the legal moves here are: {}", names(game, &pos, moves)),
            });
            return fail(d, 1);
        }
    }
    let result = if json {
        format!(
            "{}\n",
            serde_json::to_string(&crate::position::to_json(game, &pos)).expect("positions serialise")
        )
    } else if args.trace && !moves.is_empty() {
        // The narration drew the board after the last move: only what comes next is added.
        board::status(game, &pos, &board::View::default())
    } else {
        board::summary(game, &pos)
    };
    if json {
        eprint!("{narration}");
    } else {
        out(&narration);
    }
    out(&result);
    0
}

/// The moves as the player writes them, comma-separated.
pub(super) fn names(game: &crate::Game, pos: &crate::Position, moves: &[usize]) -> String {
    if moves.is_empty() {
        "none".into()
    } else {
        moves.iter().map(|&k| game.name_move(pos, k)).collect::<Vec<_>>().join(", ")
    }
}
