//! Reading a rule file and the chain of files it `extends`, and merging them into one [`Program`]:
//! a child's item replaces the parent's item with the same key in place; new items are appended;
//! `drop` removes an inherited item.

use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Sources, Span, suggest};
use crate::syntax::ast::{DropKind, Item, ItemKind};

/// The merged items of a file and its ancestors, in order, each key at most once.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The items.
    pub items: Vec<Item>,
    /// Where the file starts (for problems about the whole file).
    pub file_span: Span,
}

/// How many files an `extends` chain may have; deeper chains are refused.
const MAX_CHAIN: usize = 32;

/// Reads `path` and its ancestors.
pub fn load(path: &Path, sources: &mut Sources) -> Result<Program, Vec<Diagnostic>> {
    let mut chain = Vec::new();
    load_chain(path, sources, &mut chain, None)
}

/// Parses a text that is not on disk (tests, editors). `extends` paths are relative to `dir`.
pub fn load_text(name: &Path, text: String, sources: &mut Sources) -> Result<Program, Vec<Diagnostic>> {
    let file = sources.add(name.to_path_buf(), text);
    let mut chain = vec![name.to_path_buf()];
    from_parsed(file, sources, &mut chain)
}

fn read_error(path: &Path, err: &std::io::Error, from: Option<Span>) -> Diagnostic {
    let message = match err.kind() {
        std::io::ErrorKind::NotFound => format!("cannot find the rule file `{}`", path.display()),
        _ => format!("cannot read the rule file `{}`: {}", path.display(), err),
    };
    match from {
        Some(span) => Diagnostic::error("sow::load::missing_file", message, span, "extended here")
            .with_help("the path is relative to the file that extends it"),
        None => Diagnostic::bare("sow::load::missing_file", message),
    }
}

fn load_chain(path: &Path, sources: &mut Sources, chain: &mut Vec<PathBuf>, from: Option<Span>) -> Result<Program, Vec<Diagnostic>> {
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(pos) = chain.iter().position(|p| *p == canonical) {
        let mut names: Vec<String> = chain[pos..].iter().map(|p| display_name(p)).collect();
        names.push(display_name(&canonical));
        let message = format!("`extends` makes a cycle: {}", names.join(" → "));
        let diag = match from {
            Some(span) => Diagnostic::error("sow::load::extends_cycle", message, span, "this closes the cycle"),
            None => Diagnostic::bare("sow::load::extends_cycle", message),
        };
        return Err(vec![
            diag.with_help("a file cannot start from itself; remove one of these `extends`"),
        ]);
    }
    if chain.len() >= MAX_CHAIN {
        let diag = Diagnostic::bare(
            "sow::load::extends_too_deep",
            format!("more than {MAX_CHAIN} files extend each other"),
        );
        return Err(vec![diag]);
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Err(vec![read_error(path, &e, from)]),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let file = sources.add(path.to_path_buf(), text);
            return Err(vec![
                Diagnostic::error(
                    "sow::syntax::not_utf8",
                    "the file is not UTF-8 text",
                    Span {
                        file,
                        start: valid,
                        end: valid + 1,
                    },
                    "this byte is not text",
                )
                .with_help("a rule file is plain text: is this the right file?"),
            ]);
        }
    };
    let file = sources.add(path.to_path_buf(), text);
    chain.push(canonical);
    let result = from_parsed(file, sources, chain);
    chain.pop();
    result
}

fn display_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn from_parsed(file: crate::diagnostic::FileId, sources: &mut Sources, chain: &mut Vec<PathBuf>) -> Result<Program, Vec<Diagnostic>> {
    let parsed = crate::syntax::parse(sources.text(file), file)?;
    let file_span = Span { file, start: 0, end: 0 };
    let mut errors = Vec::new();
    let extends: Vec<&Item> = parsed.items.iter().filter(|i| matches!(i.kind, ItemKind::Extends(_))).collect();
    for extra in extends.iter().skip(1) {
        errors.push(
            Diagnostic::error(
                "sow::check::duplicate",
                "a file can extend only one other file",
                extra.span,
                "second `extends`",
            )
            .with_label(extends[0].span, "first `extends`"),
        );
    }
    let mut program = match extends.first() {
        Some(Item {
            kind: ItemKind::Extends(rel),
            span,
        }) => {
            let base = sources.path(file).parent().map(Path::to_path_buf).unwrap_or_default();
            match load_chain(&base.join(rel), sources, chain, Some(*span)) {
                Ok(p) => p,
                Err(mut e) => {
                    errors.append(&mut e);
                    return Err(errors);
                }
            }
        }
        _ => Program::default(),
    };
    program.file_span = file_span;
    // Duplicates within this one file are mistakes; a key repeated from the parent is an override.
    let mut seen: Vec<(String, Span)> = Vec::new();
    for item in parsed.items {
        if matches!(item.kind, ItemKind::Extends(_)) {
            continue;
        }
        if let ItemKind::Drop(kind, name) = &item.kind {
            let key = drop_key(*kind, &name.node);
            match program
                .items
                .iter()
                .position(|i| item_key(&i.kind).as_deref() == Some(key.as_str()))
            {
                Some(pos) => {
                    program.items.remove(pos);
                }
                None => {
                    let prefix = drop_key(*kind, "");
                    let names: Vec<String> = program
                        .items
                        .iter()
                        .filter_map(|i| item_key(&i.kind))
                        .filter_map(|k| k.strip_prefix(&prefix).map(str::to_string))
                        .collect();
                    let mut d = Diagnostic::error(
                        "sow::check::unknown_name",
                        format!("there is no inherited {} named `{}` to drop", kind_word(*kind), name.node),
                        name.span,
                        "not found in the parent",
                    );
                    d = match suggest(&name.node, names.iter().map(String::as_str)) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help(format!("the parent's {} names are: {}", kind_word(*kind), names.join(", "))),
                    };
                    errors.push(d);
                }
            }
            continue;
        }
        if let ItemKind::Phase(_, _, inner) = &item.kind {
            check_duplicates(inner, &mut Vec::new(), &mut errors);
        }
        let Some(key) = item_key(&item.kind) else { continue };
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            errors.push(
                Diagnostic::error(
                    "sow::check::duplicate",
                    format!("{} is set twice", describe_key(&key)),
                    item.span,
                    "set again here",
                )
                .with_label(*first, "first set here")
                .with_help("keep one of them (to change an inherited rule, write it once in the child file)"),
            );
            continue;
        }
        seen.push((key.clone(), item.span));
        match program
            .items
            .iter()
            .position(|i| item_key(&i.kind).as_deref() == Some(key.as_str()))
        {
            Some(pos) => program.items[pos] = item,
            None => program.items.push(item),
        }
    }
    if errors.is_empty() { Ok(program) } else { Err(errors) }
}

fn check_duplicates(items: &[Item], seen: &mut Vec<(String, Span)>, errors: &mut Vec<Diagnostic>) {
    for item in items {
        let Some(key) = item_key(&item.kind) else { continue };
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            errors.push(
                Diagnostic::error(
                    "sow::check::duplicate",
                    format!("{} is set twice", describe_key(&key)),
                    item.span,
                    "set again here",
                )
                .with_label(*first, "first set here")
                .with_help("keep one of them"),
            );
        } else {
            seen.push((key, item.span));
        }
    }
}

fn kind_word(kind: DropKind) -> &'static str {
    match kind {
        DropKind::Capture => "capture",
        DropKind::Trigger => "trigger",
        DropKind::End => "end",
        DropKind::Forbid => "forbid",
        DropKind::Phase => "phase",
    }
}

fn drop_key(kind: DropKind, name: &str) -> String {
    format!("{} \"{}", kind_word(kind), name)
}

fn describe_key(key: &str) -> String {
    match key.split_once(" \"") {
        Some((kind, name)) => format!("the {kind} `{name}`"),
        None => format!("`{key}`"),
    }
}

/// The identity of an item for overriding: two items with the same key are the same setting.
pub fn item_key(kind: &ItemKind) -> Option<String> {
    Some(match kind {
        ItemKind::Game(_) => "game".into(),
        ItemKind::Extends(_) | ItemKind::Drop(..) => return None,
        ItemKind::Param { name, .. } => format!("param {}", name.node),
        ItemKind::BoardPits(_) => "board pits".into(),
        ItemKind::BoardRows(_) => "board rows".into(),
        ItemKind::BoardSeeds(_) => "board seeds".into(),
        ItemKind::BoardLayout(_) => "board layout".into(),
        ItemKind::BoardStores(_) => "board stores".into(),
        ItemKind::First(_) => "first".into(),
        ItemKind::SowDirection(_) => "sow direction".into(),
        ItemKind::SowSkipOrigin => "sow skip origin".into(),
        ItemKind::SowIntoStore => "sow into own store".into(),
        ItemKind::SowRelay(_) => "sow relay".into(),
        ItemKind::SowRelayLimit(_) => "sow relay limit".into(),
        ItemKind::Forbid(name, _) => format!("forbid \"{}", name.node),
        ItemKind::Feeding(_) => "feeding".into(),
        ItemKind::GrandSlam(_) => "grand slam".into(),
        ItemKind::Trigger(def) => format!("trigger \"{}", def.name.node),
        ItemKind::Capture(def) => format!("capture \"{}", def.name.node),
        ItemKind::NoCaptures => "no captures".into(),
        ItemKind::End(name, ..) => format!("end \"{}", name.node),
        ItemKind::Phase(name, ..) => format!("phase \"{}", name.node),
        ItemKind::MatchEnds(_) => "match ends".into(),
        ItemKind::MatchWinner(_) => "match winner".into(),
        ItemKind::SetupFill(_) => "setup fill".into(),
        ItemKind::SetupDeal => "setup deal".into(),
        ItemKind::SetupKeepClaims => "setup keep claims".into(),
        ItemKind::Rounds => "rounds".into(),
    })
}
