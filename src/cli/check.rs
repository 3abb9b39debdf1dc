//! `sowlang check FILE...`: parse and validate, print every problem.

use std::path::PathBuf;

use serde::Serialize;

use super::{Format, out, parse_set, report};
use crate::Override;
use crate::diagnostic::{JsonDiagnostic, Severity};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rule files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Same as `--format json`.
    #[arg(long)]
    json: bool,
    /// Exit with 1 when there are warnings.
    #[arg(long)]
    deny_warnings: bool,
    /// Check with a parameter set to a value (`--set pits=5`).
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
}

#[derive(Serialize)]
struct JsonReport {
    diagnostics: Vec<JsonDiagnostic>,
}

/// Runs `check`.
pub fn run(args: Args) -> u8 {
    let json = args.json || args.format == Format::Json;
    let mut all = Vec::new();
    let mut errors = 0usize;
    let mut warnings = 0usize;
    let mut io = false;
    for file in &args.files {
        let (sources, diags) = match crate::load_game(file, &args.sets) {
            Ok(l) => (l.sources, l.warnings),
            Err(f) => (f.sources, f.diagnostics),
        };
        io |= diags.iter().any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty());
        errors += diags.iter().filter(|d| d.severity == Severity::Error).count();
        warnings += diags.iter().filter(|d| d.severity == Severity::Warning).count();
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
    } else if errors == 0 {
        let files = args.files.len();
        eprintln!(
            "checked {files} file{}: no errors{}",
            if files == 1 { "" } else { "s" },
            if warnings > 0 {
                format!(", {warnings} warning(s)")
            } else {
                String::new()
            }
        );
    }
    if io {
        2
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        1
    } else {
        0
    }
}
