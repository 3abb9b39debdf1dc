//! `sowlang play FILE [--vs human|random|greedy|alphabeta:6|mcts:2s] [--first south|north]`: a game in
//! the terminal against a person or a computer player. It reads one move per line, so it also works
//! with a pipe; `hint` asks the strongest player what it would play and why.

use std::io::BufRead;
use std::path::PathBuf;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::{Side, Start, board, load_start, out};
use crate::engine::Player;
use crate::players::{Spec, choose};

/// Who the person plays against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Human,
    /// A computer player.
    Computer(Spec),
}

fn parse_opponent(s: &str) -> Result<Opponent, String> {
    if s.trim().eq_ignore_ascii_case("human") {
        Ok(Opponent::Human)
    } else {
        s.parse::<Spec>().map(Opponent::Computer).map_err(|e| format!("{e}, or `human`"))
    }
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// The opponent: `human`, `random`, `greedy`, `alphabeta[:DEPTH|:TIME]` or `mcts[:PLAYOUTS|:TIME]`
    /// (e.g. `alphabeta:6`, `mcts:2s`).
    #[arg(long, value_parser = parse_opponent, default_value = "greedy")]
    vs: Opponent,
    /// The side the person plays (against the computer).
    #[arg(long, value_enum, default_value_t = Side::South)]
    side: Side,
    /// Seed for the computer's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How long the `hint` command thinks, in seconds.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = super::parse_hint_time)]
    hint_time: f64,
    #[command(flatten)]
    start: Start,
}

const HELP: &str = "type the number of one of your pits to sow it; `hint` shows what the computer would play and why, `moves` lists the legal moves, `board` redraws, `quit` stops\n";

/// Runs `play`.
pub fn run(args: Args) -> u8 {
    let (loaded, mut pos) = match load_start(&args.file, &args.start) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let person: Player = args.side.into();
    let computer = match args.vs {
        Opponent::Human => None,
        Opponent::Computer(spec) => Some(spec),
    };
    let hint_time = Duration::from_secs_f64(if args.hint_time.is_finite() {
        args.hint_time.clamp(0.01, 3600.0)
    } else {
        1.0
    });
    let mut rng = StdRng::seed_from_u64(args.seed);
    out(&format!("{}: {HELP}\n", game.name));
    out(&board::draw(game, &pos));
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if pos.over {
            out(&board::summary(game, &pos));
            return 0;
        }
        let moves = game.legal_moves(&pos);
        if moves.is_empty() {
            out(&format!(
                "{} has no legal move and no rule of this game says what happens now; the game stops here\n",
                pos.to_move.name()
            ));
            return 1;
        }
        let mover = pos.to_move;
        let chosen = match computer {
            Some(spec) if mover != person => {
                let k = choose(game, &pos, spec, false, &mut rng).expect("there are legal moves").pit;
                out(&format!("{} (computer, {spec}) plays pit {k}\n", mover.name()));
                k
            }
            _ => {
                out(&format!("{} to move ({}): ", mover.name(), super::run::list(&moves)));
                let line = match lines.next() {
                    Some(Ok(l)) => l,
                    _ => {
                        out("\ninput ended before the game did\n");
                        return 1;
                    }
                };
                let word = line.trim();
                match word {
                    "q" | "quit" | "exit" => {
                        out("stopped\n");
                        return 0;
                    }
                    "?" | "h" | "help" => {
                        out(HELP);
                        continue;
                    }
                    "hint" => {
                        out(&hint(game, &pos, Spec::strongest(hint_time), &mut rng));
                        continue;
                    }
                    "moves" => {
                        out(&format!("legal moves: {}\n", super::run::list(&moves)));
                        continue;
                    }
                    "board" | "" => {
                        out(&board::draw(game, &pos));
                        continue;
                    }
                    _ => {}
                }
                match word.parse::<usize>() {
                    Ok(k) => k,
                    Err(_) => {
                        out(&format!("`{word}` is not a pit number; {HELP}"));
                        continue;
                    }
                }
            }
        };
        match game.apply_traced(&mut pos, chosen) {
            Ok(events) => {
                for line in game.narrate(&events) {
                    out(&format!("{line}\n"));
                }
                out(&board::draw(game, &pos));
            }
            Err(e) => out(&format!("{e}; try again\n")),
        }
    }
}

/// What `spec` would play here, its score and every move's score, for people.
fn hint(game: &crate::Game, pos: &crate::Position, spec: Spec, rng: &mut StdRng) -> String {
    let Some(c) = choose(game, pos, spec, true, rng) else {
        return "there is no legal move\n".into();
    };
    let mut s = format!("hint ({spec}): pit {}: {}\n", c.pit, c.why);
    for (k, score) in &c.scores {
        s.push_str(&format!("  pit {k}: {score}\n"));
    }
    s
}
