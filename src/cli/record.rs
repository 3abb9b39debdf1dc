//! Game records: a small text file that says which game was played (rule file, parameters, who began,
//! the start position if it was not the game's own) and the moves, so that a game can be saved, gone
//! on with (`play --load`) and shown again (`replay`). The format is documented in docs/cli.md
//! ("Game records"); a record is read into a [`Record`] with the place of every value in the file, so
//! that a bad value or an illegal move is reported where it stands. Writing goes through a temporary
//! file and a rename (`cli/output.rs`), so that a record is never left half written.

use std::path::{Component, Path, PathBuf};

use crate::Override;
use crate::diagnostic::{Diagnostic, FileId, Span};
use crate::engine::{Event, Game, Outcome, Player, Position};

/// The first line of every record: the format and its version.
pub const HEADER: &str = "sowlang record 1";

/// Records larger than this are refused unread: no game comes near it.
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// A value read from a record, with where it stands in the file.
#[derive(Debug, Clone)]
pub struct Placed<T> {
    /// The value.
    pub value: T,
    /// Its place in the record.
    pub span: Span,
}

/// A record as read.
#[derive(Debug, Clone)]
pub struct Record {
    /// The rule file: a relative path in the record is relative to the record's folder.
    pub rules: Placed<PathBuf>,
    /// The parameters set (`set: pits=5`).
    pub sets: Vec<Override>,
    /// Who moved first (when there is no start position, the game's start with this player to move).
    pub first: Option<Placed<Player>>,
    /// The start position, as position JSON, when it is not the game's start.
    pub from: Option<Placed<String>>,
    /// Who played each side (`human` or a computer player), south then north, as written.
    pub players: [Option<Placed<String>>; 2],
    /// The moves, in order, as written.
    pub moves: Vec<Placed<String>>,
    /// The result as written (`south wins (south 25, north 23)`, `draw`, `unfinished`).
    pub result: Option<Placed<String>>,
    /// The hash of the rules the game was played with ([`rules_hash`]), as written.
    pub rules_hash: Option<Placed<String>>,
    /// The rule file's text saved in the record (`rules-text:` lines), when it was saved with them.
    pub rules_text: Option<Placed<String>>,
}

fn span(file: FileId, start: usize, end: usize) -> Span {
    Span { file, start, end }
}

fn bad(message: impl Into<String>, at: Span, label: &str) -> Diagnostic {
    Diagnostic::error("sow::record::bad_record", message, at, label)
}

/// Reads the record at `path` whose text is registered as `file`. Every problem is a
/// `sow::record::bad_record` diagnostic pointing at the line at fault.
pub fn parse(path: &Path, file: FileId, text: &str) -> Result<Record, Diagnostic> {
    let folder = path.parent().unwrap_or(Path::new(""));
    let mut header_seen = false;
    let mut header_span = span(file, 0, 0);
    let mut rules: Option<Placed<PathBuf>> = None;
    let mut sets = Vec::new();
    let mut first = None;
    let mut from = None;
    let mut players: [Option<Placed<String>>; 2] = [None, None];
    let mut moves = Vec::new();
    let mut result = None;
    let mut rules_hash = None;
    let mut rules_text: Option<Placed<String>> = None;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let lead = line.len() - line.trim_start().len();
        let body = line.trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let body_span = span(file, line_start + lead, line_start + lead + body.len());
        if !header_seen {
            if !body.eq_ignore_ascii_case(HEADER) {
                return Err(bad(
                    format!("this is not a game record: it does not start with `{HEADER}`"),
                    body_span,
                    "expected the record's first line here",
                )
                .with_help("a record is written by `save` in `sowlang play`; docs/cli.md (\"Game records\") describes it"));
            }
            header_seen = true;
            header_span = body_span;
            continue;
        }
        let Some(colon) = body.find(':') else {
            return Err(bad("a record line is `key: value`", body_span, "no `:` on this line").with_help(KEYS));
        };
        let key = body[..colon].trim().to_ascii_lowercase();
        let value = &body[colon + 1..];
        // Where the value starts in the file, for spans into it.
        let value_start = line_start + lead + colon + 1;
        let value_lead = value.len() - value.trim_start().len();
        let value = value.trim();
        let vstart = value_start + value_lead;
        // An empty value has no text of its own to point at: the whole line is marked instead.
        let value_span = if value.is_empty() {
            body_span
        } else {
            span(file, vstart, vstart + value.len())
        };
        let once = |seen: bool| -> Result<(), Diagnostic> {
            if seen {
                Err(bad(format!("`{key}` is given twice"), body_span, "second time here").with_help(format!("keep one `{key}:` line")))
            } else {
                Ok(())
            }
        };
        match key.as_str() {
            "rules" => {
                once(rules.is_some())?;
                if value.is_empty() {
                    return Err(bad("`rules` names no file", value_span, "the rule file's path goes here"));
                }
                let p = Path::new(value);
                let resolved = if p.is_absolute() { p.to_path_buf() } else { folder.join(p) };
                rules = Some(Placed {
                    value: resolved,
                    span: value_span,
                });
            }
            "set" => match super::parse_set(value) {
                Ok(o) => sets.push(o),
                Err(e) => return Err(bad(e, value_span, "not `name=number`").with_help("write a parameter as `set: pits=5`")),
            },
            "first" => {
                once(first.is_some())?;
                let p =
                    player(value).ok_or_else(|| bad(format!("`{value}` is not a player"), value_span, "expected `south` or `north`"))?;
                first = Some(Placed {
                    value: p,
                    span: value_span,
                });
            }
            "from" => {
                once(from.is_some())?;
                from = Some(Placed {
                    value: value.to_string(),
                    span: value_span,
                });
            }
            "south" | "north" => {
                let i = if key == "south" { 0 } else { 1 };
                once(players[i].is_some())?;
                players[i] = Some(Placed {
                    value: value.to_string(),
                    span: value_span,
                });
            }
            "moves" => {
                let mut rest = value;
                let mut at = vstart;
                while let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
                    let token = &rest[i..];
                    let len = token.find(char::is_whitespace).unwrap_or(token.len());
                    moves.push(Placed {
                        value: token[..len].to_string(),
                        span: span(file, at + i, at + i + len),
                    });
                    rest = &token[len..];
                    at += i + len;
                }
            }
            "rules-hash" => {
                once(rules_hash.is_some())?;
                rules_hash = Some(Placed {
                    value: value.to_ascii_lowercase(),
                    span: value_span,
                });
            }
            "rules-text" => {
                // The line of the rule file as it was, after `: ` (its own indentation and trailing
                // spaces kept), so that the text saved hashes as the file did.
                let after = &line[line.find(':').map_or(line.len(), |c| c + 1)..];
                let kept = after.strip_prefix(' ').unwrap_or(after);
                match &mut rules_text {
                    Some(t) => {
                        t.value.push('\n');
                        t.value.push_str(kept);
                        t.span.end = body_span.end;
                    }
                    None => {
                        rules_text = Some(Placed {
                            value: kept.to_string(),
                            span: body_span,
                        })
                    }
                }
            }
            "result" => {
                once(result.is_some())?;
                result = Some(Placed {
                    value: value.to_string(),
                    span: value_span,
                });
            }
            other => {
                let key_span = span(file, line_start + lead, line_start + lead + other.len());
                return Err(bad(format!("`{other}` is not a key of a game record"), key_span, "unknown key").with_help(KEYS));
            }
        }
    }
    if !header_seen {
        return Err(
            Diagnostic::bare("sow::record::bad_record", "the record is empty").with_help(format!(
                "a record starts with `{HEADER}`; docs/cli.md (\"Game records\") describes it"
            )),
        );
    }
    let rules = rules.ok_or_else(|| {
        bad(
            "the record does not say which rule file was played",
            header_span,
            "no `rules:` line in this record",
        )
        .with_help("add a line such as `rules: ../games/my_game.sow` (relative to the record's folder)")
    })?;
    Ok(Record {
        rules,
        sets,
        first,
        from,
        players,
        moves,
        result,
        rules_hash,
        rules_text,
    })
}

/// The keys of a record, for help texts.
const KEYS: &str = "the keys are rules, rules-hash, rules-text, set, first, from, south, north, moves and result";

/// A hash of the rules a game is played with, written in its record as `rules-hash:` so that a record
/// moved away from its rule file, or a rule file edited since, is noticed when the record is read:
/// FNV-1a (64 bits; stable across builds and machines, unlike the standard hasher) over the text of
/// every rule file the game read (the file, then those it extends), each line ending in a newline,
/// as 16 hexadecimal digits. Any change to the text counts, a comment too: whether an edit changes
/// the game is not for a hash to tell.
pub fn rules_hash(sources: &crate::diagnostic::Sources) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (_, text) in sources.files() {
        for line in text.lines() {
            eat(line.as_bytes());
            eat(b"\n");
        }
        // Between two files: a byte no text holds, so that a line moved from one file to the next counts.
        eat(&[0]);
    }
    format!("{h:016x}")
}

/// The text of the rule file a game was loaded from (the first file read), to be saved in a record.
pub fn main_rules_text(sources: &crate::diagnostic::Sources) -> Option<String> {
    sources.files().next().map(|(_, t)| t.to_string())
}

fn player(s: &str) -> Option<Player> {
    match s.to_ascii_lowercase().as_str() {
        "south" => Some(Player::South),
        "north" => Some(Player::North),
        _ => None,
    }
}

/// Reads a record file's text: a missing or unreadable file is `sow::record::unreadable` (exit 2).
pub fn read(path: &Path) -> Result<String, Diagnostic> {
    let unreadable = |e: String| {
        Diagnostic::bare(
            "sow::record::unreadable",
            format!("cannot read the game record `{}`: {e}", path.display()),
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?;
    if meta.is_dir() {
        return Err(unreadable("it is a folder".into()));
    }
    if meta.len() > MAX_BYTES {
        return Err(unreadable(format!(
            "it is larger than {} MB, far more than any game",
            MAX_BYTES / 1024 / 1024
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".into()))
}

/// One move as played: who, its text, what happened and the position after it.
#[derive(Debug, Clone)]
pub struct Ply {
    /// Who moved.
    pub mover: Player,
    /// The move as the player wrote it.
    pub text: String,
    /// The engine's steps of the move.
    pub events: Vec<Event>,
    /// The position after the move.
    pub after: Position,
}

/// A move's text as the engine takes it (`3`, or `b3` on a board of several rows a player). The
/// engine owns the notation; this is the one place the records and `play` go through.
pub fn parse_move(game: &Game, pos: &Position, text: &str) -> Option<usize> {
    game.read_move(pos, text)
}

/// How a move of `game` is written, for help texts in the game's own notation: in words (`a row
/// letter (...) and a pit number from 1 to 8, then `L` or `R` ...`) and moves as examples (`b3L`,
/// `a1R`; three on a board of one row a player, `3`, `1`, `6`). With `list`, the words describe a
/// list of moves separated by commas (`numbers from 1 to 6 separated by commas, each followed by ...`).
pub fn notation(game: &Game, list: bool) -> (String, Vec<String>) {
    let low = game.columns.min(3);
    let (mut words, mut examples) = if game.side_pits() == 0 {
        (
            if list {
                format!("shared pits `s1` to `s{}` separated by commas", game.shared)
            } else {
                format!("a shared pit `s1` to `s{}`", game.shared)
            },
            vec![format!("s{}", game.shared.min(3)), "s1".to_string()],
        )
    } else if game.rows == 1 {
        (
            if list {
                format!("numbers from 1 to {} separated by commas", game.columns)
            } else {
                format!("a pit number from 1 to {}", game.columns)
            },
            vec![low.to_string(), "1".to_string(), game.columns.min(6).to_string()],
        )
    } else {
        (
            format!(
                "a row letter (`a` the front row, `{}` the back row) and a pit number from 1 to {}",
                game.pit_name(game.side_pits()).chars().next().unwrap_or('a'),
                game.columns
            ),
            vec![format!("b{low}"), "a1".to_string()],
        )
    };
    examples.dedup();
    if game.shared > 0 && game.side_pits() > 0 {
        words.push_str(&format!(", or a shared pit `s1` to `s{}`", game.shared));
    }
    if game.choices > 1 {
        words.push_str(if list { ", each followed by" } else { ", then" });
        words.push_str(" `L` or `R`: the way the seeds go, to your left or right");
        for (i, e) in examples.iter_mut().enumerate() {
            e.push(if i % 2 == 0 { 'L' } else { 'R' });
        }
    }
    if game.uses_choose {
        words.push_str(", then the answers to the choices the move meets, each after a `:`");
    }
    if game.may_pass {
        words.push_str(if list {
            ", or `pass` where the rules allow it"
        } else {
            ", or `pass` when the rules allow it"
        });
    }
    (words, examples)
}

/// What a text that is no move of `pos` but names a pit a move starts from was short of: the way or
/// the answers to the move's choices (`problem`, a clause after the text), and the moves it could be,
/// or why the pit has no legal move here (`help`). `None` when the text names no such pit.
pub struct Meant {
    /// What is wrong with the text, e.g. "names pit b4 but not the way the seeds go".
    pub problem: String,
    /// What to write instead, or why the pit cannot be played now.
    pub help: String,
    /// The pit has no legal move here.
    pub stuck: bool,
}

/// See [`Meant`].
pub fn meant(game: &Game, pos: &Position, text: &str) -> Option<Meant> {
    let (pit, moves) = game.moves_meant(pos, text)?;
    let head = text.split(':').next().unwrap_or(text).trim();
    // The move of one way the text names, when it writes the way (or the game has only one).
    let way = game.parse_move(head).filter(|k| (1..=game.move_count()).contains(k));
    let name = way.map_or_else(|| game.pit_name(pit), |k| game.move_name(k));
    if moves.is_empty() {
        // Why each way (or the pit) cannot be played, said once when the reasons agree.
        let ways: Vec<usize> = match way {
            Some(k) => vec![k],
            None => (0..game.choices).map(|d| pit + d * game.move_pits()).collect(),
        };
        let mut reasons: Vec<(String, String)> = Vec::new();
        for k in ways {
            if let Err(crate::engine::MoveError::Illegal { name, reason, .. }) = game.apply(&mut pos.clone(), k) {
                reasons.push((name, reason));
            }
        }
        let help = match reasons.as_slice() {
            [] => "no move can start there now".to_string(),
            [(_, why)] => format!("it cannot be played now: {why}"),
            [(_, first), rest @ ..] if rest.iter().all(|(_, r)| r == first) => {
                format!("it cannot be played now either way: {first}")
            }
            many => many
                .iter()
                .map(|(n, r)| format!("{n} cannot be played: {r}"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        return Some(Meant {
            problem: format!("pit {name} has no legal move here"),
            help,
            stuck: true,
        });
    }
    let names: Vec<String> = moves.iter().map(|&k| game.name_move(pos, k)).collect();
    let problem = if way.is_none() {
        format!("names pit {name} but not the way the seeds go (`L` or `R`)")
    } else if text.contains(':') {
        format!("is not one of the moves from pit {name}")
    } else {
        format!("names pit {name} but not the answers to the choices its move meets")
    };
    Some(Meant {
        problem,
        help: format!("it could be {}", crate::diagnostic::word_list(&names, "or")),
        stuck: false,
    })
}

/// How a move of `pos` is written, in records and on the screen.
pub fn move_text(game: &Game, pos: &Position, k: usize) -> String {
    game.name_move(pos, k)
}

/// Plays the move written `text` on a copy of `pos`; Err says in words why it cannot be played.
pub fn play(game: &Game, pos: &Position, text: &str) -> Result<Ply, String> {
    let Some(k) = parse_move(game, pos, text) else {
        if let Some(m) = meant(game, pos, text) {
            let problem = if m.stuck { m.problem } else { format!("it {}", m.problem) };
            return Err(format!("{problem}; {}", m.help));
        }
        let (words, examples) = notation(game, false);
        return Err(format!("it is not a move of this board (write {words}, as `{}`)", examples[0]));
    };
    let mut after = pos.clone();
    match game.apply_traced(&mut after, k) {
        Ok(events) => Ok(Ply {
            mover: pos.to_move,
            text: move_text(game, pos, k),
            events,
            after,
        }),
        Err(crate::engine::MoveError::Illegal { reason, .. }) => Err(reason),
        Err(crate::engine::MoveError::GameOver) => Err("the game is already over".into()),
    }
}

/// Plays the record's moves from `start`, checking each: an illegal one is a
/// `sow::run::illegal_move` diagnostic pointing at the move in the record.
pub fn replay(game: &Game, record: &Record, start: &Position) -> Result<Vec<Ply>, Diagnostic> {
    let mut plies: Vec<Ply> = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let pos = plies.last().map_or(start, |p| &p.after);
        match play(game, pos, &m.value) {
            Ok(ply) => plies.push(ply),
            Err(why) => {
                let help = match game.legal_moves(pos).as_slice() {
                    [] => "no move can be played here".to_string(),
                    moves => format!(
                        "{} to move; the legal moves here are: {}",
                        pos.to_move.name(),
                        super::run::names(game, pos, moves)
                    ),
                };
                return Err(Diagnostic::error(
                    "sow::run::illegal_move",
                    format!("move {} of the record (`{}`) is not allowed: {why}", i + 1, m.value),
                    m.span,
                    "this move",
                )
                .with_help(help));
            }
        }
    }
    Ok(plies)
}

/// The start of a game: the position JSON `from` (checked against the board) or the game's start
/// with `first` to move, settled (a finished position reads as finished).
pub fn start_position(game: &Game, from: Option<&str>, first: Option<Player>) -> Result<Position, Diagnostic> {
    let mut pos = match from {
        Some(text) => crate::position::from_json(game, text)?,
        None => game.initial(first),
    };
    game.settle_start(&mut pos);
    Ok(pos)
}

/// A start position as one line of position JSON, for a record's `from:` line: only the fields that
/// are read back (no `over`, `winner` or `legal_moves`).
pub fn position_line(game: &Game, pos: &Position) -> String {
    let mut json = crate::position::to_json(game, pos);
    json.over = None;
    json.legal_moves = None;
    json.ended_by = None;
    let mut value = serde_json::to_value(&json).expect("positions serialise");
    if let Some(map) = value.as_object_mut() {
        // `winner` is always written by the position JSON, but means nothing in a start position.
        map.remove("winner");
    }
    value.to_string()
}

/// A record read and checked: its game loaded, its start position and every move played.
pub struct Opened {
    /// The game of the record's rule file and parameters.
    pub loaded: crate::Loaded,
    /// The rule file, as found from the working folder.
    pub rules: PathBuf,
    /// The parameters set.
    pub sets: Vec<Override>,
    /// The start position, settled.
    pub start: Position,
    /// The start position as one line of JSON, when the record gives one.
    pub from: Option<String>,
    /// The moves played, each checked.
    pub plies: Vec<Ply>,
    /// Who played south and north, as written.
    pub players: [Option<Placed<String>>; 2],
    /// The result as written.
    pub result: Option<Placed<String>>,
    /// The record carried its rules (`rules-text:`): a record saved again carries them too.
    pub with_rules: bool,
    /// The record's text, for diagnostics pointing into it.
    pub sources: crate::diagnostic::Sources,
}

/// Loads the game of a record: its rule file, checked against the record's `rules-hash`; the rules
/// saved in the record when the file is missing or has changed since; the file as it is now with
/// `any_rules`. Every departure from the file is said on stderr. On failure the diagnostics are
/// printed and the exit code returned.
fn load_rules(rec: &Record, any_rules: bool, sources: &crate::diagnostic::Sources) -> Result<crate::Loaded, u8> {
    let shown = rec.rules.value.display();
    let reject = |d: Diagnostic, code: u8| {
        super::report(&[d], sources);
        code
    };
    let from_record = |why: &str| -> Result<crate::Loaded, u8> {
        let text = rec.rules_text.as_ref().expect("called when the record has its rules");
        let loaded = crate::load_text(&rec.rules.value, &text.value, &rec.sets).map_err(|f| {
            super::report(&f.diagnostics, &f.sources);
            1
        })?;
        if let Some(h) = &rec.rules_hash
            && rules_hash(&loaded.sources) != h.value
        {
            return Err(reject(
                bad(
                    "the rules saved in this record are not the ones its `rules-hash` names: the record was edited",
                    h.span,
                    "the hash of the rules the game was played with",
                )
                .with_label(text.span, "the rules saved in the record")
                .with_help(
                    "give the rule file it was played with, or remove the `rules-hash:` line to play with the saved rules as they are",
                ),
                1,
            ));
        }
        note(&format!("{why}: playing with the rules saved in the record"));
        Ok(loaded)
    };
    let file = match crate::load_game(&rec.rules.value, &rec.sets) {
        Ok(l) => l,
        Err(f) => {
            let missing = f
                .diagnostics
                .iter()
                .any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty());
            if missing && rec.rules_text.is_some() && !any_rules {
                return from_record(&format!("the rule file `{shown}` cannot be read"));
            }
            if missing {
                return Err(reject(
                    Diagnostic::error(
                        "sow::record::rules_missing",
                        format!("cannot find the rule file `{shown}` this game was played with"),
                        rec.rules.span,
                        "the rule file, relative to the record's folder",
                    )
                    .with_help(
                        "the record may have been moved away from its rule file: move it back beside it, or correct the `rules:` line; \
                         `save --with-rules` in `sowlang play` writes records that carry their rules",
                    ),
                    2,
                ));
            }
            super::report(&f.diagnostics, &f.sources);
            return Err(1);
        }
    };
    let Some(written) = &rec.rules_hash else {
        return Ok(file);
    };
    if rules_hash(&file.sources) == written.value {
        return Ok(file);
    }
    if any_rules {
        note(&format!(
            "the rule file `{shown}` has changed since this game was saved; going on with it as it is now (--any-rules)"
        ));
        return Ok(file);
    }
    if rec.rules_text.is_some() {
        return from_record(&format!("the rule file `{shown}` has changed since this game was saved"));
    }
    Err(reject(
        Diagnostic::error(
            "sow::record::rules_changed",
            format!("the rule file `{shown}` is not the one this game was played with"),
            written.span,
            "the hash of the rules the game was played with",
        )
        .with_label(rec.rules.span, "this file's rules hash differently")
        .with_help(
            "the file was edited since the game was saved, or the record was moved beside another file of that name; \
             `--any-rules` goes on with the file as it is now (its moves are still checked one by one)",
        ),
        1,
    ))
}

/// Says on stderr how a record's game was loaded when it is not from its rule file as it was.
fn note(text: &str) {
    eprintln!("note: {text}");
}

/// Reads the record at `path`, loads its rules (see [`load_rules`]) and plays its moves, checking
/// each. On failure the diagnostic is printed and the exit code returned: 2 when a file cannot be
/// read, else 1.
pub fn open(path: &Path, any_rules: bool) -> Result<Opened, u8> {
    let text = read(path).map_err(|d| super::fail(d, 2))?;
    let mut sources = crate::diagnostic::Sources::default();
    let file = sources.add(path.to_path_buf(), text.clone());
    let reject = |d: Diagnostic, sources: &crate::diagnostic::Sources| {
        super::report(&[d], sources);
        1
    };
    let rec = parse(path, file, &text).map_err(|d| reject(d, &sources))?;
    let loaded = load_rules(&rec, any_rules, &sources)?;
    let game = &loaded.game;
    let start = start_position(
        game,
        rec.from.as_ref().map(|f| f.value.as_str()),
        rec.first.as_ref().map(|f| f.value),
    )
    .map_err(|d| {
        let d = match &rec.from {
            Some(f) => d.with_label(f.span, "this start position"),
            None => d,
        };
        reject(d, &sources)
    })?;
    if let (Some(first), Some(_)) = (&rec.first, &rec.from)
        && first.value != start.to_move
    {
        let d = bad(
            format!(
                "the record says {} moved first, but its start position has {} to move",
                first.value.name(),
                start.to_move.name()
            ),
            first.span,
            "who moved first",
        )
        .with_help("make `first:` agree with the start position's `to_move`, or leave it out");
        return Err(reject(d, &sources));
    }
    let plies = replay(game, &rec, &start).map_err(|d| reject(d, &sources))?;
    let from = rec
        .from
        .as_ref()
        .and_then(|f| crate::position::from_json(game, &f.value).ok())
        .map(|p| position_line(game, &p));
    Ok(Opened {
        rules: rec.rules.value,
        sets: rec.sets,
        start,
        from,
        plies,
        players: rec.players,
        result: rec.result,
        with_rules: rec.rules_text.is_some(),
        loaded,
        sources,
    })
}

/// The result line of a record: `south wins (south 25, north 23)`, `draw (south 24, north 24)` or
/// `unfinished`.
pub fn result_text(game: &Game, pos: &Position) -> String {
    if !pos.over {
        return "unfinished".into();
    }
    let s = game.scores(pos);
    let who = match pos.winner {
        Some(Outcome::South) => "south wins",
        Some(Outcome::North) => "north wins",
        _ => "draw",
    };
    format!("{who} (south {}, north {})", s[0], s[1])
}

/// Does the result written in a record agree with the one the moves give? The scores in brackets may
/// be left out.
pub fn result_agrees(written: &str, actual: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
    let (w, a) = (norm(written), norm(actual));
    let outcome = |s: &str| s.split(" (").next().unwrap_or("").to_string();
    w == a || (!w.contains('(') && w == outcome(&a))
}

/// What a record to be written holds.
#[derive(Debug, Clone)]
pub struct Draft<'a> {
    /// The rule file, as it was opened (relative to the working folder, or absolute).
    pub rules: &'a Path,
    /// The parameters set.
    pub sets: &'a [Override],
    /// Who moved first.
    pub first: Player,
    /// The start position as one line of position JSON, when it is not the game's start.
    pub from: Option<&'a str>,
    /// Who played south and north (`human` or a computer player).
    pub players: [String; 2],
    /// The moves.
    pub moves: Vec<String>,
    /// The result line.
    pub result: String,
    /// The hash of the rules played ([`rules_hash`]).
    pub rules_hash: String,
    /// The rule file's text, to be saved in the record (`save --with-rules`).
    pub rules_text: Option<&'a str>,
}

impl Draft<'_> {
    /// The record's text, for a record written at `record_path`: the rule file's path is written
    /// relative to the record's folder when both can be found, so that the two can be moved together.
    pub fn render(&self, record_path: &Path) -> String {
        let rules = relative_rules(self.rules, record_path);
        let mut s = String::new();
        s.push_str(HEADER);
        s.push('\n');
        s.push_str("# a game of sowlang; `sowlang replay FILE` shows it, `sowlang play --load FILE` goes on with it\n");
        s.push_str(&format!("rules: {}\n", rules.display()));
        s.push_str(&format!("rules-hash: {}\n", self.rules_hash));
        for o in self.sets {
            s.push_str(&format!("set: {}={}\n", o.name, o.value));
        }
        s.push_str(&format!("first: {}\n", self.first.name()));
        if let Some(f) = self.from {
            s.push_str(&format!("from: {f}\n"));
        }
        s.push_str(&format!("south: {}\nnorth: {}\n", self.players[0], self.players[1]));
        // Twenty moves a line keeps a long game readable in an editor.
        if self.moves.is_empty() {
            s.push_str("moves:\n");
        }
        for chunk in self.moves.chunks(20) {
            s.push_str(&format!("moves: {}\n", chunk.join(" ")));
        }
        s.push_str(&format!("result: {}\n", self.result));
        if let Some(text) = self.rules_text {
            s.push_str("# the rules the game was played with, used when the rule file is missing or has changed\n");
            for line in text.lines() {
                // Trailing spaces are kept, so the saved text hashes as the file did.
                s.push_str(&format!("rules-text: {line}\n"));
            }
        }
        s
    }
}

/// `rules` as seen from the folder of `record`: relative when both can be resolved, else as given.
fn relative_rules(rules: &Path, record: &Path) -> PathBuf {
    let folder = match record.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (Ok(target), Ok(base)) = (std::fs::canonicalize(rules), std::fs::canonicalize(&folder)) else {
        return rules.to_path_buf();
    };
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    // Different roots (another drive) have nothing in common: keep the absolute path.
    if t.first() != b.first() {
        return target;
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    // A path that cannot be written on one line of text is kept absolute rather than garbled.
    if rel.to_str().is_none_or(|s| s.contains('\n')) {
        target
    } else {
        rel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Record, Diagnostic> {
        parse(Path::new("games/a.rec"), FileId(0), text)
    }

    #[test]
    fn a_record_reads_with_places() {
        let text = "sowlang record 1\n# note\nrules: ../v/x.sow\nset: pits=5\nfirst: North\nmoves: 3  5\nmoves: 1\nresult: unfinished\n";
        let r = read(text).expect("reads");
        assert_eq!(r.rules.value, Path::new("games/../v/x.sow"));
        assert_eq!(&text[r.rules.span.start..r.rules.span.end], "../v/x.sow");
        assert_eq!(r.sets.len(), 1);
        assert_eq!(r.first.map(|f| f.value), Some(Player::North));
        let moves: Vec<&str> = r.moves.iter().map(|m| m.value.as_str()).collect();
        assert_eq!(moves, ["3", "5", "1"]);
        for m in &r.moves {
            assert_eq!(&text[m.span.start..m.span.end], m.value);
        }
    }

    #[test]
    fn broken_records_are_refused_at_the_fault() {
        for (text, at) in [
            ("rules: x.sow\n", "rules: x.sow"),
            ("sowlang record 1\nrules x.sow\n", "rules x.sow"),
            ("sowlang record 1\nrules: x.sow\nfirst: east\n", "east"),
            ("sowlang record 1\nrules: x.sow\nset: pits=lots\n", "pits=lots"),
            ("sowlang record 1\nrules: x.sow\ncolour: red\n", "colour"),
            ("sowlang record 1\nrules: x.sow\nrules: y.sow\n", "rules: y.sow"),
            ("sowlang record 1\nmoves: 1\n", "sowlang record 1"),
        ] {
            let d = read(text).expect_err(text);
            assert_eq!(d.code, "sow::record::bad_record");
            let s = d.labels[0].span;
            assert_eq!(&text[s.start..s.end], at, "{text}");
        }
        assert!(read("").is_err() && read("\n# only a comment\n").is_err());
    }

    #[test]
    fn every_cut_of_a_record_reads_or_is_refused_with_a_place_inside_it() {
        let text = "sowlang record 1\n# c\nrules: ../v/x.sow\nset: pits=5\nfirst: south\nfrom: {\"pits\":1}\nsouth: human\nnorth: greedy\nmoves: 3 5 1\nresult: unfinished\n";
        let mut cuts: Vec<String> = (0..=text.len()).map(|i| text[..i].to_string()).collect();
        // Each line dropped, doubled or stripped of its value.
        let lines: Vec<&str> = text.lines().collect();
        for i in 0..lines.len() {
            let mut dropped = lines.clone();
            dropped.remove(i);
            cuts.push(dropped.join("\n"));
            let mut doubled = lines.clone();
            doubled.insert(i, lines[i]);
            cuts.push(doubled.join("\n"));
            let mut emptied = lines.clone();
            let key = lines[i].split(':').next().unwrap_or("").to_string() + ":";
            emptied[i] = &key;
            cuts.push(emptied.join("\n"));
        }
        for cut in &cuts {
            if let Err(d) = read(cut) {
                for l in &d.labels {
                    assert!(l.span.start <= l.span.end && l.span.end <= cut.len(), "{cut:?}: {d:?}");
                }
            }
        }
    }

    #[test]
    fn results_agree_with_or_without_scores() {
        let actual = "south wins (south 25, north 23)";
        assert!(result_agrees("South wins", actual));
        assert!(result_agrees("south wins (south 25, north 23)", actual));
        assert!(!result_agrees("south wins (south 24, north 24)", actual));
        assert!(!result_agrees("north wins", actual));
        assert!(result_agrees("unfinished", "unfinished"));
    }
}
