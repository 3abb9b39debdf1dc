//! `sowlang check FILE... [--explore N [--seed S]]`: parse and validate, print every problem.
//! With `--explore`, a file that passed the static checks is also played (see [`crate::explore`]).
//! Exit codes: 0 clean (warnings allowed unless `--deny-warnings`), 1 problems found, 2 a file could
//! not be read.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Output, out, parse_set, report};
use crate::Override;
use crate::diagnostic::{Diagnostic, JsonDiagnostic, Severity, Sources};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rule files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    output: Output,
    /// Exit with 1 when there are warnings.
    #[arg(long)]
    deny_warnings: bool,
    /// Check with a parameter set to a value (`--set pits=5`).
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
    /// Also play N random games and report what goes wrong in play.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    explore: Option<u32>,
    /// Seed of the random games of `--explore` (the same seed plays the same games).
    #[arg(long, default_value_t = 0, requires = "explore")]
    seed: u64,
    /// With `--explore`: a game still going after this many moves is reported.
    #[arg(long, default_value_t = 1000, requires = "explore", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_moves: u32,
}

#[derive(Serialize)]
struct JsonReport {
    diagnostics: Vec<JsonDiagnostic>,
}

/// Reads, checks (and explores) one file.
fn check_one(args: &Args, file: &Path) -> (Sources, Vec<Diagnostic>) {
    match args.explore {
        Some(games) => {
            let opts = crate::explore::Options {
                games: games as usize,
                seed: args.seed,
                max_moves: args.max_moves as usize,
            };
            match crate::explore::run(file, &args.sets, opts) {
                Ok(e) => (e.sources, e.diagnostics),
                Err(f) => (f.sources, f.diagnostics),
            }
        }
        None => match crate::load_game(file, &args.sets) {
            Ok(l) => (l.sources, l.warnings),
            Err(f) => (f.sources, f.diagnostics),
        },
    }
}

/// Runs `check`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let mut all = Vec::new();
    let mut tally = Summary::default();
    for file in &args.files {
        let (sources, diags) = check_one(&args, file);
        tally.add(&diags);
        if json {
            all.extend(diags.iter().map(|d| d.to_json(&sources)));
        } else {
            report(&diags, &sources);
        }
    }
    if json {
        out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&JsonReport { diagnostics: all }).expect("diagnostics serialise")
        ));
    } else {
        eprintln!("{}", tally.line(args.files.len(), args.explore));
    }
    let (io, errors, warnings) = (tally.unreadable > 0, tally.errors + tally.unreadable, tally.warnings);
    if io {
        2
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        1
    } else {
        0
    }
}

/// What the files checked so far hold, for the closing line.
#[derive(Debug, Default)]
struct Summary {
    /// Files that could not be read.
    unreadable: usize,
    /// Errors in the files that were read, and in how many files.
    errors: usize,
    files_with_errors: usize,
    warnings: usize,
}

impl Summary {
    fn add(&mut self, diags: &[Diagnostic]) {
        // A file that could not be read has one placeless `missing_file` diagnostic.
        if diags.iter().any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty()) {
            self.unreadable += 1;
            return;
        }
        let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
        self.errors += errors;
        self.files_with_errors += usize::from(errors > 0);
        self.warnings += diags.iter().filter(|d| d.severity == Severity::Warning).count();
    }

    /// The closing line, printed whether the files pass or fail: `checked 3 files: 2 errors in 1 file`.
    fn line(&self, files: usize, explore: Option<u32>) -> String {
        let count = |n: usize, what: &str| format!("{n} {what}{}", plural(n));
        let mut parts = Vec::new();
        if self.errors > 0 {
            parts.push(format!(
                "{} in {}",
                count(self.errors, "error"),
                count(self.files_with_errors, "file")
            ));
        }
        if self.unreadable > 0 {
            parts.push(format!("{} could not be read", count(self.unreadable, "file")));
        }
        if parts.is_empty() {
            parts.push("no errors".into());
        }
        if self.warnings > 0 {
            parts.push(count(self.warnings, "warning"));
        }
        let explored = explore.map_or(String::new(), |n| format!(" and {} played", count(n as usize, "random game")));
        format!("checked {}{explored}: {}", count(files, "file"), parts.join(", "))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
