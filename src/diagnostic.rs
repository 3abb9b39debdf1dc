//! Diagnostics: every problem sowlang reports about a rule file, a position or a move.
//!
//! A `Diagnostic` is plain data (code, severity, message, labelled byte spans, help) so that it can be
//! rendered for people (miette's graphical handler) or as JSON for editors, from the same values.

use std::path::PathBuf;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use serde::Serialize;

/// Identifies one loaded source file in a [`Sources`] table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span covering both `self` and `other` (same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The text of every file read while loading a game, so diagnostics can quote them.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<(PathBuf, Arc<String>)>,
}

impl Sources {
    /// Registers a file's text and returns its id.
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.files.push((path, Arc::new(text)));
        FileId((self.files.len() - 1) as u32)
    }
    /// The path of a file.
    pub fn path(&self, id: FileId) -> &std::path::Path {
        &self.files[id.0 as usize].0
    }
    /// The text of a file.
    pub fn text(&self, id: FileId) -> &str {
        &self.files[id.0 as usize].1
    }
    /// Every file registered, in the order read: path and text.
    pub fn files(&self) -> impl Iterator<Item = (&std::path::Path, &str)> {
        self.files.iter().map(|(p, t)| (p.as_path(), t.as_str()))
    }
    /// The id of an already registered path.
    pub fn find(&self, path: &std::path::Path) -> Option<FileId> {
        self.files.iter().position(|(p, _)| p == path).map(|i| FileId(i as u32))
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(id);
        let offset = offset.min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file cannot be used.
    Error,
    /// The file works but probably not as meant.
    Warning,
}

/// A labelled span.
#[derive(Debug, Clone)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it is ("first set here"); may be empty.
    pub text: String,
}

/// One problem found in a rule file, a position or a move.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Stable code such as `sow::check::unknown_name`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// One line, lowercase, no trailing period.
    pub message: String,
    /// The primary label first; may be empty for problems without a place (a missing file).
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with a primary label.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: one_line(message.into()),
            labels: vec![Label { span, text: label.into() }],
            help: None,
        }
    }
    /// An error that points at no text.
    pub fn bare(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: one_line(message.into()),
            labels: vec![],
            help: None,
        }
    }
    /// Turns the diagnostic into a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }
    /// Adds help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label { span, text: text.into() });
        self
    }
    /// Is this an error?
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The JSON form of a diagnostic (`check --format json`).
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic {
    code: &'static str,
    severity: Severity,
    message: String,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    offset: Option<usize>,
    length: Option<usize>,
    labels: Vec<JsonLabel>,
    help: Option<String>,
}

#[derive(Debug, Serialize)]
struct JsonLabel {
    file: String,
    line: usize,
    column: usize,
    offset: usize,
    length: usize,
    text: String,
}

impl Diagnostic {
    /// The JSON form, with positions resolved against `sources`.
    pub fn to_json(&self, sources: &Sources) -> JsonDiagnostic {
        let labels: Vec<JsonLabel> = self
            .labels
            .iter()
            .map(|l| {
                let (line, column) = sources.line_col(l.span.file, l.span.start);
                JsonLabel {
                    file: sources.path(l.span.file).display().to_string(),
                    line,
                    column,
                    offset: l.span.start,
                    length: l.span.end - l.span.start,
                    text: l.text.clone(),
                }
            })
            .collect();
        let first = labels.first();
        JsonDiagnostic {
            code: self.code,
            severity: self.severity,
            message: self.message.clone(),
            file: first.map(|l| l.file.clone()),
            line: first.map(|l| l.line),
            column: first.map(|l| l.column),
            offset: first.map(|l| l.offset),
            length: first.map(|l| l.length),
            help: self.help.clone(),
            labels,
        }
    }

    /// Renders for people: miette's graphical report quoting the primary label's file, without
    /// colours when `color` is false.
    pub fn render(&self, sources: &Sources, color: bool) -> String {
        let mut builder = miette::MietteDiagnostic::new(self.message.clone())
            .with_code(self.code)
            .with_severity(match self.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            });
        if let Some(help) = &self.help {
            builder = builder.with_help(help.clone());
        }
        // miette draws a label's column as a formatting width, which may not exceed 65535, and a
        // snippet of a very long line is unreadable anyway: then the place is given as text instead.
        let long_line = self.labels.iter().any(|l| {
            let text = sources.text(l.span.file);
            let start = floor_char_boundary(text, l.span.start.min(text.len()));
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            line_end - line_start > MAX_SNIPPET_LINE
        });
        let report = match self.labels.first() {
            Some(primary) if long_line => {
                let (line, column) = sources.line_col(primary.span.file, primary.span.start);
                let place = format!("{}:{line}:{column}", sources.path(primary.span.file).display());
                builder.message = format!("{}\n    at {place} (the line is too long to show)", self.message);
                miette::Report::new(builder)
            }
            None => miette::Report::new(builder),
            Some(primary) => {
                let file = primary.span.file;
                let text = sources.text(file);
                let labels: Vec<LabeledSpan> = self
                    .labels
                    .iter()
                    .filter(|l| l.span.file == file)
                    .enumerate()
                    .map(|(i, l)| {
                        let start = floor_char_boundary(text, l.span.start.min(text.len()));
                        let end = floor_char_boundary(text, l.span.end.min(text.len())).max(start);
                        let label = (!l.text.is_empty()).then(|| l.text.clone());
                        if i == 0 {
                            LabeledSpan::new_primary_with_span(label, (start, end - start))
                        } else {
                            LabeledSpan::new_with_span(label, (start, end - start))
                        }
                    })
                    .collect();
                let name = sources.path(file).display().to_string();
                miette::Report::new(builder.with_labels(labels)).with_source_code(NamedSource::new(name, text.to_string()))
            }
        };
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = String::new();
        let handler = GraphicalReportHandler::new_themed(theme).with_width(80);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out = format!("{}: {}\n", self.code, self.message);
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }
}

/// The longest message, in characters: a message quotes the user's words, which may be absurdly long.
/// Messages of our own words stay well below it (a syntax error lists at most five phrases of
/// `syntax/names.rs`, each at most 110 characters, and quotes at most 40 characters of a word), so
/// that they are never cut.
const MAX_MESSAGE: usize = 600;

/// A message cut to [`MAX_MESSAGE`] characters.
fn one_line(message: String) -> String {
    if message.chars().count() <= MAX_MESSAGE {
        return message;
    }
    let mut cut: String = message.chars().take(MAX_MESSAGE).collect();
    cut.push('…');
    cut
}

/// Lines longer than this (in bytes) are not quoted in a rendered diagnostic.
const MAX_SNIPPET_LINE: usize = 1000;

/// Edit distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Words joined as in a sentence: `a`, `a or b`, `a, b or c` (with `last` = "or").
pub fn word_list(items: &[impl AsRef<str>], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., end] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} {last} {}", init.join(", "), end.as_ref())
        }
    }
}

/// The closest candidate within edit distance 2, if any.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Lengths more than 2 apart are more than 2 edits apart; skipping them keeps a huge word cheap.
    let len = word.chars().count();
    candidates
        .into_iter()
        .filter(|c| c.chars().count().abs_diff(len) <= 2)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= 2 && *d < word.len().max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
