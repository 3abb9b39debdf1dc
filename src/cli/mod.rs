//! The command line: clap types, one module per subcommand. Each subcommand turns what the user
//! typed into a validated request, calls the library and prints. Exit codes: 0 success, 1 input read
//! but rejected (diagnostics, an illegal move, a mismatch), 2 usage or I/O errors.

mod analyze;
mod bench;
mod board;
mod check;
mod completions;
mod conform;
pub mod explain;
mod list;
mod perft;
mod play;
mod record;
mod replay;
mod run;
mod serve;
mod solve;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::diagnostic::{Diagnostic, Sources};
use crate::{LoadFailure, Loaded, Override, Player, Position};

/// sowlang: describe, check and play mancala-family sowing games.
#[derive(Debug, Parser)]
#[command(name = "sowlang", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and validate rule files; report every problem.
    Check(check::Args),
    /// Play moves from a position and print the result.
    Run(run::Args),
    /// Play a game in the terminal against a person or the computer.
    Play(play::Args),
    /// Show a saved game record move by move with the board (or its final position as JSON), checking every move.
    Replay(replay::Args),
    /// Replay reference traces against a rule file and report where they disagree.
    Conform(conform::Args),
    /// Play many games between computer players and report who wins, how long games last and which rules fire.
    Analyze(analyze::Args),
    /// Compute the exact value of a small board by exhaustive search.
    Solve(solve::Args),
    /// Count the positions reached after 1, 2, ... moves (perft), to test and time the move generator.
    Perft(perft::Args),
    /// Time uniformly random games: playouts and moves per second, mean game length, peak memory.
    Bench(bench::Args),
    /// Print a shell completion script (e.g. `sowlang completions bash > ~/.local/share/bash-completion/completions/sowlang`).
    Completions(completions::CompletionArgs),
    /// Print the man page, of sowlang or of one command (`sowlang man analyze`), in roff.
    Man(completions::ManArgs),
    /// Show a board in the browser to play any rule file, alone, in pairs or against the computer.
    Serve(serve::Args),
    /// Name the games built into sowlang: every command takes one by name (`sowlang play oware`).
    List(list::Args),
    /// Write the rules of a game as a sheet to read aloud or print (Markdown or HTML), made from the rules themselves.
    Explain(explain::Args),
}

/// Output format, the same switch on every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// For people.
    #[default]
    Human,
    /// Machine-readable JSON on stdout.
    Json,
}

/// How a command prints its result: `--format human|json`, or `--json` for short.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Output {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Same as `--format json`.
    #[arg(long)]
    json: bool,
}

impl Output {
    /// JSON was asked for, either way.
    pub fn json(self) -> bool {
        self.json || self.format == Format::Json
    }
}

/// A side named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// South.
    South,
    /// North.
    North,
}

impl From<Side> for Player {
    fn from(s: Side) -> Player {
        match s {
            Side::South => Player::South,
            Side::North => Player::North,
        }
    }
}

/// Parses `name=value` for `--set`.
fn parse_set(s: &str) -> Result<Override, String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}` is not `name=value`"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{value}` is not a whole number"))?;
    Ok(Override {
        name: name.trim().to_string(),
        value,
    })
}

/// Runs the command line and returns the exit code.
pub fn main() -> ExitCode {
    ExitCode::from(main_with(std::env::args_os()))
}

/// Runs the command line with these arguments (the program's name first) and returns the exit code:
/// what the `sowlang` command of the Python package calls.
pub fn main_with<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Run(args) => run::run(args),
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Conform(args) => conform::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
        Command::Serve(args) => serve::run(args),
        Command::List(args) => list::run(args),
        Command::Explain(args) => explain::run(args),
    }
}

/// The board as the command line draws it, south at the bottom.
pub fn board_text(game: &crate::Game, pos: &Position) -> String {
    board::draw(game, pos)
}

/// Colour on a terminal unless `NO_COLOR` is set.
fn color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Prints diagnostics to stderr for people.
fn report(diags: &[Diagnostic], sources: &Sources) {
    let mut err = std::io::stderr().lock();
    for d in diags {
        let _ = write!(err, "{}", d.render(sources, color()));
    }
}

/// Loads a game for `run` / `play`, printing its problems. Err = the exit code.
/// The game's parameters and who begins: `--set NAME=VALUE`... `--first south|north`.
#[derive(Debug, Clone, clap::Args)]
pub struct Start {
    /// Set a parameter (`--set pits=5`); may be repeated.
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
    /// Who moves first in the game's start position.
    #[arg(long, value_enum)]
    first: Option<Side>,
}

/// Loads a rule file with the `--set` parameters and its start position, settled (`--first` decides
/// who begins); on failure, the diagnostics are printed and the exit code returned.
fn load_start(path: &Path, start: &Start) -> Result<(Loaded, Position), u8> {
    let loaded = load(path, &start.sets)?;
    let mut start = loaded.game.initial(start.first.map(Into::into));
    loaded.game.settle_start(&mut start);
    Ok((loaded, start))
}

fn load(path: &Path, sets: &[Override]) -> Result<Loaded, u8> {
    match crate::load_game(path, sets) {
        Ok(l) => Ok(l),
        Err(LoadFailure { sources, diagnostics }) => {
            report(&diagnostics, &sources);
            let io = diagnostics
                .iter()
                .any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty());
            Err(if io { 2 } else { 1 })
        }
    }
}

/// Prints one diagnostic without a source and returns `code`.
fn fail(d: Diagnostic, code: u8) -> u8 {
    report(&[d], &Sources::default());
    code
}

/// Writes to stdout, treating a closed pipe as a normal end.
fn out(text: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes());
    let _ = o.flush();
}

/// Reads a `--from` file.
fn read_position_file(path: &PathBuf) -> Result<String, u8> {
    std::fs::read_to_string(path).map_err(|e| {
        fail(
            Diagnostic::bare(
                "sow::run::unreadable",
                format!("cannot read the position file `{}`: {e}", path.display()),
            ),
            2,
        )
    })
}
