//! Reading a rule file and the chain of files it `extends`, and merging them into one [`Program`]:
//! a child's item replaces the parent's item with the same key in place; new items are appended;
//! `drop` removes an inherited item.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Sources, Span, suggest};
use crate::syntax::ast::{DropKind, Item, ItemKind, Moment};

/// The merged items of a file and its ancestors, in order, each key at most once.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The items.
    pub items: Vec<Item>,
    /// Where the file starts (for problems about the whole file).
    pub file_span: Span,
    /// Problems found while merging (a setting given twice, a `drop` of nothing) that leave a usable
    /// program: the first of two settings is kept, so `check` goes on and reports the rest as well.
    /// Syntax errors come first: the items that parsed are still checked.
    pub problems: Vec<Diagnostic>,
    /// Items left out because they do not parse; `check` holds back what only follows from them.
    pub broken: Vec<crate::syntax::parse::Broken>,
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
        std::io::ErrorKind::IsADirectory => format!("`{}` is a folder, not a rule file", path.display()),
        std::io::ErrorKind::PermissionDenied => format!("not allowed to read the rule file `{}`", path.display()),
        _ => format!("cannot read the rule file `{}`: {}", path.display(), err),
    };
    match from {
        Some(span) => Diagnostic::error("sow::load::missing_file", message, span, "extended here")
            .with_help("the path is relative to the file that extends it"),
        None => Diagnostic::bare("sow::load::missing_file", message).with_help(
            "check the path: it is relative to the folder the command is run in (`sowlang list` names the games built into sowlang)",
        ),
    }
}

fn load_chain(path: &Path, sources: &mut Sources, chain: &mut Vec<PathBuf>, from: Option<Span>) -> Result<Program, Vec<Diagnostic>> {
    // A path with nothing on disk may name a game built into the program.
    let resolved = crate::shipped::resolve(path);
    let path = resolved.as_ref();
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
        let message = format!("more than {MAX_CHAIN} files extend each other, one after the other");
        let diag = match from {
            Some(span) => Diagnostic::error("sow::load::extends_too_deep", message, span, "one `extends` too many"),
            None => Diagnostic::bare("sow::load::extends_too_deep", message),
        };
        let first = chain.first().map(|p| display_name(p)).unwrap_or_default();
        return Err(vec![diag.with_help(format!(
            "the chain starts at `{first}`: let a file extend the game it changes directly, not a long line of others"
        ))]);
    }
    let bytes = match read_limited(path) {
        Ok(Ok(b)) => b,
        Ok(Err(len)) => {
            // Too large to read: refused without reading it, so a huge file costs no memory.
            let file = sources.add(path.to_path_buf(), String::new());
            return Err(vec![crate::syntax::parse::too_large(len, file)]);
        }
        Err(e) => {
            let mut d = read_error(path, &e, from);
            if !chain.is_empty() {
                let mut names: Vec<String> = chain.iter().map(|p| display_name(p)).collect();
                names.push(display_name(path));
                d = d.with_help(format!(
                    "the path is relative to the file that extends it; the chain of `extends` is {}",
                    names.join(" → ")
                ));
            }
            return Err(vec![d]);
        }
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

/// The bytes of a file, or `Ok(Err(length))` when it is longer than a rule file may be.
fn read_limited(path: &Path) -> std::io::Result<Result<Vec<u8>, u64>> {
    use std::io::Read;
    let limit = crate::syntax::parse::MAX_SOURCE_BYTES as u64;
    if crate::shipped::is_builtin(path) {
        let shipped = crate::shipped::at(path).ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))?;
        return Ok(Ok(shipped.text.as_bytes().to_vec()));
    }
    // Opening a FIFO would wait for a writer (`extends` of one hung the loader), and a device has
    // no end: only a plain file (or a link to one) is opened.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() && !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a plain file (a device, a FIFO or a socket)",
        ));
    }
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Ok(Err(len));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Err(bytes.len() as u64));
    }
    Ok(Ok(bytes))
}

fn display_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn from_parsed(file: crate::diagnostic::FileId, sources: &mut Sources, chain: &mut Vec<PathBuf>) -> Result<Program, Vec<Diagnostic>> {
    let recovered = crate::syntax::parse::parse_recovering(sources.text(file), file);
    // Without its parent a file is mostly absences: after a broken `extends` only the syntax
    // errors are worth reporting.
    if !recovered.complete || recovered.broken.iter().any(|b| super::recover::kind(&b.word) == Some("extends")) {
        return Err(recovered.errors);
    }
    let parsed = recovered.file;
    let file_span = Span { file, start: 0, end: 0 };
    let mut errors = recovered.errors;
    let extends: Vec<&Item> = parsed.items.iter().filter(|i| matches!(i.kind, ItemKind::Extends(_))).collect();
    for extra in extends.iter().skip(1) {
        errors.push(
            Diagnostic::error(
                "sow::check::duplicate",
                "a file can extend only one other file",
                extra.span,
                "second `extends`",
            )
            .with_label(extends[0].span, "first `extends`")
            .with_help("a file changes one game: keep one `extends`"),
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
    // Keys are looked up in maps, not by scanning: a file may hold thousands of items.
    let mut seen: HashMap<String, Span> = HashMap::new();
    let index_of = |items: &[Item]| -> HashMap<String, usize> {
        items
            .iter()
            .enumerate()
            .filter_map(|(n, i)| item_key(&i.kind).map(|k| (k, n)))
            .collect()
    };
    let mut index = index_of(&program.items);
    for item in parsed.items {
        if matches!(item.kind, ItemKind::Extends(_)) {
            continue;
        }
        if let ItemKind::Drop(kind, name) = &item.kind {
            let key = drop_key(*kind, &name.node);
            match index.get(&key) {
                Some(&pos) => {
                    program.items.remove(pos);
                    index = index_of(&program.items);
                }
                None => {
                    let prefix = drop_key(*kind, "");
                    let names: Vec<String> = program
                        .items
                        .iter()
                        .filter_map(|i| item_key(&i.kind))
                        .filter_map(|k| k.strip_prefix(&prefix).map(str::to_string))
                        .collect();
                    let message = match kind {
                        DropKind::Board => format!("the inherited board has no `{}` to drop", name.node),
                        _ => format!("there is no inherited {} named `{}` to drop", kind_word(*kind), name.node),
                    };
                    let mut d = Diagnostic::error("sow::check::unknown_name", message, name.span, "not found in the parent");
                    d = match suggest(&name.node, names.iter().map(String::as_str)) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None if *kind == DropKind::Board => d.with_help(format!("the parent's board states: {}", names.join(", "))),
                        None => d.with_help(format!("the parent's {} names are: {}", kind_word(*kind), names.join(", "))),
                    };
                    errors.push(d);
                }
            }
            continue;
        }
        if let ItemKind::Phase(_, _, inner) = &item.kind {
            check_duplicates(inner, &mut HashMap::new(), &mut errors);
        }
        let Some(key) = item_key(&item.kind) else { continue };
        if let Some(first) = seen.get(&key) {
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
        seen.insert(key.clone(), item.span);
        match index.get(&key) {
            Some(&pos) => program.items[pos] = item,
            None => {
                index.insert(key, program.items.len());
                program.items.push(item);
            }
        }
    }
    program.problems.append(&mut errors);
    program.broken.extend(recovered.broken);
    Ok(program)
}

fn check_duplicates(items: &[Item], seen: &mut HashMap<String, Span>, errors: &mut Vec<Diagnostic>) {
    for item in items {
        let Some(key) = item_key(&item.kind) else { continue };
        if let Some(first) = seen.get(&key) {
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
            seen.insert(key, item.span);
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
        DropKind::AfterMove => "after move",
        DropKind::Track => "track",
        DropKind::At(Moment::TurnStart) => "at turn start",
        DropKind::At(Moment::LapEnd) => "at lap end",
        DropKind::At(Moment::AfterCapture) => "after capture",
        DropKind::At(Moment::RoundStart) => "at round start",
        DropKind::At(Moment::RoundEnd) => "at round end",
        DropKind::Board => "board",
    }
}

fn drop_key(kind: DropKind, name: &str) -> String {
    match kind {
        // A board key is not a name: its items' keys are `board seeds`, `board middle row`, ...
        DropKind::Board => format!("board {name}"),
        _ => format!("{} \"{}", kind_word(kind), name),
    }
}

fn describe_key(key: &str) -> String {
    if let Some(name) = key.strip_prefix("memory ") {
        return format!("the memory `{name}`");
    }
    if key == "setup" {
        return "the round's set-up (`setup fill` or `setup deal`)".into();
    }
    match key.split_once(" \"") {
        Some((kind, name)) => format!("the {kind} `{name}`"),
        None => format!("`{key}`"),
    }
}

/// The identity of an item for overriding: two items with the same key are the same setting.
pub fn item_key(kind: &ItemKind) -> Option<String> {
    Some(match kind {
        ItemKind::Game(_) => "game".into(),
        ItemKind::Level(_) => "level".into(),
        ItemKind::Extends(_) | ItemKind::Drop(..) => return None,
        ItemKind::Param { name, .. } => format!("param {}", name.node),
        ItemKind::BoardPits(_) => "board pits".into(),
        ItemKind::BoardRows(_) => "board rows".into(),
        ItemKind::BoardSeeds(_) => "board seeds".into(),
        ItemKind::BoardLayout(_) => "board layout".into(),
        ItemKind::BoardLayoutShared(_) => "board layout shared".into(),
        ItemKind::BoardMiddle => "board middle row".into(),
        ItemKind::BoardHalves(_) => "board owned by halves".into(),
        ItemKind::BoardRing(..) => "board ring".into(),
        ItemKind::PlayFrom(_) => "play from".into(),
        ItemKind::BoardStores(_) => "board stores".into(),
        ItemKind::BoardReserve(_) => "board reserve".into(),
        ItemKind::BoardStorePit(_) => "board store pit".into(),
        ItemKind::SowFromStore(_) => "sow from store".into(),
        ItemKind::CapturesRequired => "captures required".into(),
        ItemKind::PhaseOptional => "optional".into(),
        ItemKind::PassWhenUnable => "pass when unable".into(),
        // One voluntary pass rule a file (or phase): a child file's replaces its parent's.
        ItemKind::PassWhen(_) => "pass when".into(),
        ItemKind::Let(name, _) => format!("let {}", name.node),
        ItemKind::First(_) => "first".into(),
        ItemKind::SowDirection(_) => "sow direction".into(),
        ItemKind::SowTrack(_) => "sow track".into(),
        ItemKind::SowSkipOrigin => "sow skip origin".into(),
        ItemKind::SowSkipWhen(_) => "sow skip when".into(),
        // `into own store` and `into both stores` say where the stores are: one replaces the other.
        ItemKind::SowIntoStore(_) => "sow into store".into(),
        ItemKind::SowRelay(_) => "sow relay".into(),
        ItemKind::SowRelayFrom(_) => "sow relay from".into(),
        // `relay never` states the relay rule too: a child file's replaces its parent's `relay when`.
        ItemKind::SowRelayNever => "sow relay".into(),
        ItemKind::SowStartInOrigin(_) => "sow start in origin".into(),
        ItemKind::SowLift(_) => "sow lift".into(),
        ItemKind::SowRelayLimit(_) => "sow relay limit".into(),
        ItemKind::Forbid(name, _) | ItemKind::ForbidAfter(name, _) => format!("forbid \"{}", name.node),
        ItemKind::Feeding(_) => "feeding".into(),
        ItemKind::GrandSlam(_) => "grand slam".into(),
        ItemKind::Trigger(def) => format!("trigger \"{}", def.name.node),
        ItemKind::Capture(def) => format!("capture \"{}", def.name.node),
        ItemKind::NoCaptures => "no captures".into(),
        ItemKind::NoSowing => "no sowing".into(),
        ItemKind::End(name, ..) => format!("end \"{}", name.node),
        ItemKind::Phase(name, ..) => format!("phase \"{}", name.node),
        ItemKind::MatchEnds(_) => "match ends".into(),
        ItemKind::MatchWinner(_) => "match winner".into(),
        // Filling and dealing are two ways of one set-up: a child file's replaces its parent's.
        ItemKind::SetupFill(..) | ItemKind::SetupDeal | ItemKind::SetupByMoves => "setup".into(),
        ItemKind::SetupMirror => "setup mirror".into(),
        ItemKind::SetupStore(_) => "setup store".into(),
        ItemKind::NextRoundFirst(..) => "next round first".into(),
        ItemKind::SetupKeepClaims => "setup keep claims".into(),
        ItemKind::Rounds => "rounds".into(),
        ItemKind::Memory(slot) => format!("memory {}", slot.name.node),
        ItemKind::AfterMove(def) => format!("after move \"{}", def.name.node),
        ItemKind::At(moment, def) => format!("{} \"{}", kind_word(DropKind::At(*moment)), def.name.node),
        ItemKind::Track(name, _) => format!("track \"{}", name.node),
    })
}
