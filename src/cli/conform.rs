//! `sowlang conform FILE TRACE [--json]`: replay a reference trace (JSON lines, one game a line)
//! against a rule file and report how many games and moves agree, and where they first part.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use super::{Output, fail, out, report};
use crate::conform::{ConformError, Disagreement, Field, Report, TracePosition};
use crate::diagnostic::Diagnostic;
use crate::position::Sides;

/// Arguments of `conform`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// The trace: one game a line, as in conformance/openspiel/README.md.
    trace: PathBuf,
    #[command(flatten)]
    output: Output,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    agreed: bool,
    #[serde(flatten)]
    report: &'a Report,
}

/// Runs `conform`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let text = match std::fs::read_to_string(&args.trace) {
        Ok(t) => t,
        Err(e) => {
            return fail(
                Diagnostic::bare(
                    "sow::conform::unreadable",
                    format!("cannot read the trace `{}`: {e}", args.trace.display()),
                ),
                2,
            );
        }
    };
    let result = match crate::conform::replay(&args.file, &text) {
        Ok(r) => r,
        Err(e) => return refuse(&e, &args),
    };
    if json {
        let j = JsonReport {
            agreed: result.agreed(),
            report: &result,
        };
        out(&format!("{}\n", serde_json::to_string(&j).expect("reports serialise")));
    } else {
        out(&human(&result));
    }
    if result.agreed() { 0 } else { 1 }
}

/// Reports why the trace could not be replayed; returns the exit code.
fn refuse(e: &ConformError, args: &Args) -> u8 {
    match e {
        ConformError::Load { failure, .. } => {
            report(&failure.diagnostics, &failure.sources);
            // The rule file itself is missing (not a file it extends): an I/O error.
            if failure
                .diagnostics
                .iter()
                .any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty())
            {
                return 2;
            }
            fail(Diagnostic::bare("sow::conform::rules_rejected", e.to_string()), 1)
        }
        ConformError::Trace { .. } | ConformError::Empty => fail(
            Diagnostic::bare("sow::conform::bad_trace", e.to_string()).with_help(format!(
                "each line of `{}` must be one game as in conformance/openspiel/README.md",
                args.trace.display()
            )),
            2,
        ),
    }
}

/// The report for people: the counts, the first disagreement in full, one line for each other.
fn human(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "games agreed: {} of {}", r.games_agreed, r.games);
    let _ = writeln!(s, "moves agreed: {} of {}", r.moves_agreed, r.moves);
    let Some((first, rest)) = r.disagreements.split_first() else {
        return s;
    };
    s.push('\n');
    s.push_str(&describe(first));
    if !rest.is_empty() {
        let _ = writeln!(
            s,
            "\n{} more game{} disagree{} (--json lists each in full):",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" },
            if rest.len() == 1 { "s" } else { "" }
        );
        for d in rest.iter().take(20) {
            let _ = writeln!(s, "  {}", headline(d));
        }
        if rest.len() > 20 {
            let _ = writeln!(s, "  and {} more", rest.len() - 20);
        }
    }
    s
}

/// "line 17, rng_seed 17, move 115 (north sows pit 3): pits, stores".
fn headline(d: &Disagreement) -> String {
    let seed = d.rng_seed.map(|r| format!(", rng_seed {r}")).unwrap_or_default();
    let what = match (d.pit, d.mover) {
        (Some(pit), Some(mover)) => format!("move {} ({} sows pit {pit})", d.move_number, mover.name()),
        _ => "the start position".to_string(),
    };
    let why = match &d.refused {
        Some(reason) => format!("the move is refused: {reason}"),
        None => d.fields.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
    };
    format!("line {}{seed}, {what}: {why}", d.line)
}

/// One column of the side-by-side table: a position and, once over, its scores.
struct Column<'a> {
    name: &'a str,
    pos: Option<&'a TracePosition>,
    totals: Option<&'a Sides<i64>>,
}

/// Shows one field of a position.
type Show = fn(&TracePosition) -> String;

/// A disagreement with the positions side by side.
fn describe(d: &Disagreement) -> String {
    let mut s = format!("first disagreement: {}\n\n", headline(d));
    let cols: Vec<Column> = [
        Column {
            name: "before",
            pos: d.before.as_ref(),
            totals: None,
        },
        Column {
            name: "expected",
            pos: Some(&d.expected),
            totals: d.expected_totals.as_ref().filter(|_| d.expected.over),
        },
        Column {
            name: if d.refused.is_some() { "got (move refused)" } else { "got" },
            pos: Some(&d.got),
            totals: d.got_totals.as_ref(),
        },
    ]
    .into_iter()
    .filter(|c| c.pos.is_some())
    .collect();
    let rows: [(&str, Field, Show); 7] = [
        ("pits south", Field::Pits, |p| list(&p.pits.south)),
        ("pits north", Field::Pits, |p| list(&p.pits.north)),
        ("stores", Field::Stores, |p| sides(&p.stores)),
        ("to_move", Field::ToMove, |p| p.to_move.name().to_string()),
        ("over", Field::Over, |p| p.over.to_string()),
        ("winner", Field::Winner, |p| {
            p.winner.map_or("-".to_string(), |w| format!("{w:?}").to_lowercase())
        }),
        ("legal_moves", Field::LegalMoves, |p| list(&p.legal_moves)),
    ];
    let mut table: Vec<(String, Vec<String>, bool)> = rows
        .iter()
        .map(|(label, field, show)| {
            let cells: Vec<String> = cols.iter().map(|c| c.pos.map(show).unwrap_or_default()).collect();
            // Expected and got are the last two columns; both pit rows share the field `pits`.
            let differs = d.fields.contains(field) && cells[cells.len() - 2] != cells[cells.len() - 1];
            (label.to_string(), cells, differs)
        })
        .collect();
    if cols.iter().any(|c| c.totals.is_some()) {
        let cells = cols.iter().map(|c| c.totals.map(sides).unwrap_or_default()).collect();
        table.push(("final_totals".into(), cells, d.fields.contains(&Field::FinalTotals)));
    }
    let header: Vec<String> = cols.iter().map(|c| c.name.to_string()).collect();
    let label_w = table.iter().map(|(l, _, _)| l.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols.len())
        .map(|i| table.iter().map(|(_, c, _)| c[i].len()).chain([header[i].len()]).max().unwrap_or(0))
        .collect();
    let line = |label: &str, cells: &[String], mark: &str| {
        let mut l = format!("  {label:label_w$}");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(l, "   {c:w$}");
        }
        if mark.is_empty() {
            format!("{}\n", l.trim_end())
        } else {
            format!("{l}{mark}\n")
        }
    };
    s.push_str(&line("", &header, ""));
    for (label, cells, differs) in &table {
        s.push_str(&line(label, cells, if *differs { "   <- differs" } else { "" }));
    }
    s
}

fn list<T: ToString>(xs: &[T]) -> String {
    format!("[{}]", xs.iter().map(T::to_string).collect::<Vec<_>>().join(", "))
}

fn sides(s: &Sides<i64>) -> String {
    format!("south {}, north {}", s.south, s.north)
}
