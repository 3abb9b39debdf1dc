//! `sowlang play FILE [--vs human|random|greedy] [--first south|north]`: a game in the terminal. It
//! reads one move per line, so it also works with a pipe.

use std::io::BufRead;
use std::path::PathBuf;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::{Side, board, load, out, parse_set};
use crate::Override;
use crate::engine::Player;
use crate::players::{Strategy, choose};

/// Who the person plays against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Human,
    /// Random legal moves.
    Random,
    /// The move that captures the most at once.
    Greedy,
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// The opponent.
    #[arg(long, value_enum, default_value_t = Opponent::Greedy)]
    vs: Opponent,
    /// Who moves first.
    #[arg(long, value_enum)]
    first: Option<Side>,
    /// The side the person plays (against the computer).
    #[arg(long, value_enum, default_value_t = Side::South)]
    side: Side,
    /// Seed for the computer's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Set a parameter (`--set pits=5`).
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
}

const HELP: &str = "type the number of one of your pits to sow it; `moves` lists the legal moves, `board` redraws, `quit` stops\n";

/// Runs `play`.
pub fn run(args: Args) -> u8 {
    let loaded = match load(&args.file, &args.sets) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let mut pos = game.initial(args.first.map(Into::into));
    game.settle_start(&mut pos);
    let person: Player = args.side.into();
    let computer = match args.vs {
        Opponent::Human => None,
        Opponent::Random => Some(Strategy::Random),
        Opponent::Greedy => Some(Strategy::Greedy),
    };
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
            Some(strategy) if mover != person => {
                let k = choose(game, &pos, strategy, &mut rng).expect("there are legal moves");
                out(&format!("{} (computer) plays pit {k}\n", mover.name()));
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
