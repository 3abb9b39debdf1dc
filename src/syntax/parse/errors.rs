//! What a file that does not parse is told: pest's errors turned into our own diagnostics (the word
//! expected, the item that broke, how deep the brackets go) and the items that parse kept around it.

use super::*;

/// The first two words of a broken item, for holding back the problems that only follow from it.
pub(super) fn describe_broken(text: &str, span: Span) -> Broken {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    // `get`, not an index: a span is not trusted to fall between characters.
    let item = text.get(span.start..span.end.min(text.len())).unwrap_or_default();
    // The first word is wherever it starts (after a byte-order mark or a stray `€`, say), and what
    // follows it is read from its end, never from a byte count (issue 22).
    let Some(first) = item.find(is_word) else {
        return Broken {
            word: String::new(),
            name: None,
        };
    };
    let rest = &item[first..];
    let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
    let word = rest[..end].to_string();
    // The second word counts only when it directly follows the first (`param pits`, not `capture "x"`).
    let after = rest[end..].trim_start();
    let name = after
        .starts_with(|c: char| c.is_alphabetic() || c == '_')
        .then(|| after.split(|c: char| !is_word(c)).next().map(str::to_string))
        .flatten();
    Broken { word, name }
}

/// The `sow::syntax::too_large` diagnostic for a file of `len` bytes.
pub fn too_large(len: u64, file: FileId) -> Diagnostic {
    Diagnostic::error(
        "sow::syntax::too_large",
        format!("the file is {len} bytes long, more than the {MAX_SOURCE_BYTES} a rule file may have"),
        Span { file, start: 0, end: 0 },
        "this file",
    )
    .with_help("a rule file is a few hundred lines at most: is this the right file?")
}

/// The item around a syntax error at `at`, to blank out before parsing again: from the start of the
/// item the error is in (see [`item_starts`]) to the start of the next one, or the end of the text.
/// An error right at the first word of an item means the item before it never ended (a missing
/// `}` or value), so that one is the broken item. `None` when there is nothing left to blank.
pub(super) fn broken_item(text: &str, at: usize) -> Option<(usize, usize)> {
    let starts = item_starts(text);
    let chunk = |i: usize| -> (usize, usize) { (starts[i], starts.get(i + 1).copied().unwrap_or(text.len())) };
    let blank = |(s, e): (usize, usize)| text[s..e].trim().is_empty();
    let here = starts.iter().rposition(|&s| s <= at);
    let mut candidates = Vec::new();
    match here {
        Some(i) if starts[i] == at && i > 0 && ITEM_WORDS.iter().any(|w| text[at..].starts_with(w)) => {
            candidates.push(chunk(i - 1));
            candidates.push(chunk(i));
        }
        Some(i) => candidates.push(chunk(i)),
        // Before the first item: from the start of the text to it.
        None => candidates.push((0, starts.first().copied().unwrap_or(text.len()))),
    }
    candidates.into_iter().find(|&c| !blank(c))
}

/// Where the top-level items of a (possibly broken) text start: at every word at the start of a
/// line (so that a misspelt item word such as `baord` starts an item of its own), and at every item
/// word outside braces that is followed by what that item needs (`capture "`, `board {`), so that
/// items written on one line or indented are told apart. Comments and quoted names are passed over.
pub(super) fn item_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let next_after = |from: usize| text[from..].trim_start_matches([' ', '\t', '\r', '\n']);
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let end = text[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(text.len(), |e| i + e);
                let word = &text[i..end];
                let rest = next_after(end);
                let opens = match word {
                    "game" | "extends" | "capture" | "trigger" | "forbid" | "end" | "phase" => rest.starts_with('"'),
                    "board" | "sow" | "rounds" | "memory" => rest.starts_with('{'),
                    "after" => rest.starts_with("move"),
                    "no" => rest.starts_with("captures"),
                    "grand" => rest.starts_with("slam"),
                    "first" => rest.starts_with("south") || rest.starts_with("north"),
                    "feeding" => rest.starts_with("required") || rest.starts_with("penalty"),
                    "param" | "drop" => true,
                    _ => false,
                };
                if i == 0 || bytes[i - 1] == b'\n' {
                    // A word at the start of a line starts an item: braces left open before it are
                    // part of the damage, not of this item.
                    starts.push(i);
                    depth = 0;
                } else if depth == 0 && opens {
                    starts.push(i);
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    starts
}

/// Refuses brackets nested more than [`MAX_NESTING`] deep and longer runs of `not` / `-`.
pub(super) fn nesting(text: &str, file: FileId) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut prefix_run = 0usize;
    let mut chars = text.char_indices().peekable();
    let too_deep = |at: usize, len: usize, message: String| {
        Diagnostic::error(
            "sow::syntax::too_deep",
            message,
            Span {
                file,
                start: at,
                end: at + len,
            },
            "nested too deep",
        )
        .with_help("write the condition more simply, or split it into several rules")
    };
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '"' => {
                while chars.next_if(|&(_, c)| c != '\n' && c != '"').is_some() {}
                chars.next_if(|&(_, c)| c == '"');
                prefix_run = 0;
            }
            '(' | '[' | '{' => {
                depth += 1;
                prefix_run = 0;
                if depth > MAX_NESTING {
                    return Some(too_deep(i, 1, format!("brackets are nested more than {MAX_NESTING} deep")));
                }
            }
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                prefix_run = 0;
            }
            '-' => {
                prefix_run += 1;
                if prefix_run > MAX_NESTING {
                    return Some(too_deep(i, 1, format!("more than {MAX_NESTING} `-` signs in a row")));
                }
            }
            c if c.is_whitespace() => {}
            c if c.is_alphanumeric() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.next_if(|&(_, d)| d.is_alphanumeric() || d == '_') {
                    end = j + d.len_utf8();
                }
                if &text[i..end] == "not" {
                    prefix_run += 1;
                    if prefix_run > MAX_NESTING {
                        return Some(too_deep(i, 3, format!("more than {MAX_NESTING} `not` in a row")));
                    }
                } else {
                    prefix_run = 0;
                }
            }
            _ => prefix_run = 0,
        }
    }
    None
}

/// The longest word a syntax error quotes whole, in characters (the rest is cut, with `…`).
pub(super) const MAX_QUOTED_WORD: usize = 40;

pub(super) fn syntax_error(text: &str, file: FileId, error: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let start = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &error.variant {
        // pest's guards against deep recursion (its call limit, its stack guard) end here.
        return Diagnostic::error(
            "sow::syntax::too_complex",
            format!("this file is too complex to read ({message})"),
            Span { file, start, end: start },
            "gave up here",
        )
        .with_help("split the expression into simpler rules");
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    // pest may stop inside a word (`slame` after the keyword `slam`): report the whole word.
    let in_word = text[..start].chars().next_back().is_some_and(is_word) && text[start..].starts_with(is_word);
    let start = if in_word {
        text[..start]
            .char_indices()
            .rev()
            .find(|&(_, c)| !is_word(c))
            .map_or(0, |(i, c)| i + c.len_utf8())
    } else {
        start
    };
    let word_end = text[start..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| start + i);
    // `counter-clockwise` is one word to a reader: shown whole, and told its short word below.
    let hyphened = ["counter", "anti"].iter().any(|w| text[start..word_end].eq_ignore_ascii_case(w))
        && text[word_end..].get(..10).is_some_and(|t| t.eq_ignore_ascii_case("-clockwise"));
    let word_end = if hyphened { word_end + 10 } else { word_end };
    let word = &text[start..word_end];
    let (end, found) = if !word.is_empty() {
        // A word is quoted whole up to a length, so that the list of what was expected is never cut.
        let shown: String = word.chars().take(MAX_QUOTED_WORD).collect();
        let more = if shown.len() < word.len() { "…" } else { "" };
        (word_end, format!("`{shown}{more}`"))
    } else if let Some(c) = text[start..].chars().next() {
        let shown = if c.is_control() {
            c.escape_default().to_string()
        } else {
            c.to_string()
        };
        (start + c.len_utf8(), format!("`{shown}`"))
    } else {
        (start, "the end of the file".to_string())
    };
    let positives: Vec<Rule> = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    let items = positives.iter().filter(|r| is_item(**r)).count();
    let board_stmts = positives.iter().filter(|r| is_board_stmt(**r)).count();
    let rounds_stmts = positives.iter().filter(|r| is_rounds_stmt(**r)).count();
    let operators = positives.iter().any(|r| is_operator(*r));
    // The memory actions are left out of what a rule may go on with: five words are shown, and the
    // actions on seeds are the likelier meaning.
    let mut expected: Vec<&'static str> = positives
        .iter()
        .filter(|r| !matches!(r, Rule::set_action | Rule::add_action | Rule::kw_set | Rule::kw_add))
        .filter(|r| {
            !(is_operator(**r)
                || (items > 2 && is_item(**r))
                || (board_stmts > 2 && is_board_stmt(**r))
                || (rounds_stmts > 2 && is_rounds_stmt(**r)))
        })
        .map(|r| phrase(*r))
        .collect();
    expected.sort();
    expected.dedup();
    expected.truncate(5);
    if board_stmts > 2 {
        expected.insert(0, "a board statement (`pits`, `rows`, `seeds`, `layout`, ...)");
    }
    if items > 2 {
        expected.insert(0, "a new statement (`game`, `param`, `board`, `sow`, `capture`, `end`, ...)");
    }
    if rounds_stmts > 2 {
        expected.push("another `rounds` statement (`setup`, `next round first`, `match ends when`, ...)");
    }
    if operators {
        expected.push("more of the expression (an operator such as `==`, `+` or `and`)");
    }
    let mut message = format!("unexpected {found}");
    if !expected.is_empty() && !in_word {
        message.push_str(&format!(", expected {}", crate::diagnostic::word_list(&expected, "or")));
    }
    let diag = Diagnostic::error(
        "sow::syntax::unexpected_token",
        message,
        Span { file, start, end },
        if in_word {
            "not a word of the language here"
        } else {
            "not expected here"
        },
    );
    // The words of the language that may stand here, as the expected phrases quote them.
    let expected_words: Vec<&str> = expected.iter().flat_map(|p| p.split('`').skip(1).step_by(2)).collect();
    let help = if let Some(short) = way_word(word).filter(|w| expected_words.contains(w)) {
        Some(format!("did you mean `{short}`? (the ways are written `ccw` and `cw`)"))
    } else if let Some((clause, result)) = (word == "remaining").then(|| result_before(text, start)).flatten() {
        Some(format!("`remaining` comes before the result: write `{clause} {result}`"))
    } else if !word.is_empty() && items > 2 && home_block(word).is_some() {
        Some(format!("`{word}` is written inside {}", home_block(word).unwrap_or_default()))
    } else if let Some(s) = (!word.is_empty() && !known(word))
        .then(|| {
            // Only words that may stand here (any word, when pest stopped inside one).
            let mut words: Vec<&str> = expected.iter().flat_map(|p| p.split('`').skip(1).step_by(2)).collect();
            if in_word {
                words.extend(crate::syntax::names::STATEMENT_WORDS);
            }
            if items > 2 || in_word {
                words.extend(ITEM_WORDS);
            }
            suggest(
                word,
                words
                    .iter()
                    .flat_map(|w| w.split(' '))
                    .filter(|w| w.chars().all(char::is_alphabetic)),
            )
        })
        .flatten()
    {
        Some(format!("did you mean `{s}`?"))
    } else if ITEM_WORDS.contains(&word) && items == 0 {
        Some(format!("`{word}` starts a new statement: is a `}}` or a value missing before it?"))
    } else if positives.contains(&Rule::ident) && is_keyword(word) {
        Some(format!(
            "`{word}` is a word of the language and cannot be a name: choose another name"
        ))
    } else if text[start..].starts_with('"') {
        Some("a name in double quotes must end on the same line: is the closing `\"` missing?".to_string())
    } else if text[start..].starts_with('.') && text[..start].ends_with("..") {
        Some("a range is written with two dots, such as `2..3`".to_string())
    } else if text[start..].starts_with('}') && items > 2 {
        Some("this `}` closes nothing: is it one too many, or is a `{` missing before it?".to_string())
    } else if positives.contains(&Rule::string) {
        Some("names are written in double quotes, such as `\"no move\"`".to_string())
    } else if text[start..].starts_with('=') && !text[start..].starts_with("==") {
        Some("to compare two values write `==`; a single `=` only gives a parameter its default".to_string())
    } else if text[start..].starts_with(|c: char| c.is_control()) {
        Some("this is an invisible control character, not text: delete it".to_string())
    } else if text[start..].starts_with(|c: char| !c.is_ascii() && !c.is_alphanumeric()) {
        Some("only plain ASCII signs are operators: write `>=`, `<=`, `!=`, `==`".to_string())
    } else if text[start..].starts_with(';') {
        Some("statements are not ended with `;`: remove it".to_string())
    } else {
        None
    };
    diag.with_help(help.unwrap_or_else(|| "see docs/language.md for what may be written here".to_string()))
}

/// For a `remaining` clause at `at` written after an end rule's result (`end "e" when C loser to_move
/// remaining owner`): the clause and the result as written, to be swapped; `None` when no result comes
/// before it on the line.
pub(super) fn result_before(text: &str, at: usize) -> Option<(String, String)> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    // The last result word standing alone before the clause, in an end rule.
    let result_at = ["winner", "loser", "draw"]
        .iter()
        .filter_map(|w| {
            before.rmatch_indices(w).find(|&(i, _)| {
                let end = i + w.len();
                !before[..i].ends_with(is_word) && !before[end..].starts_with(is_word)
            })
        })
        .map(|(i, _)| i)
        .max()?;
    if !before.trim_start().starts_with("end") {
        return None;
    }
    let result = before[result_at..].trim().to_string();
    // The clause runs to the end of the line, a comment or a closing brace.
    let rest = &text[at..];
    let end = rest.find(['\n', '#', '}']).unwrap_or(rest.len());
    let clause = rest[..end].trim().to_string();
    Some((clause, result))
}

/// The way of sowing a word written in full means (`clockwise` is `cw`, `anticlockwise` and
/// `counter-clockwise` are `ccw`); `None` for any other word.
pub(super) fn way_word(word: &str) -> Option<&'static str> {
    match word.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
        "clockwise" => Some("cw"),
        "counterclockwise" | "anticlockwise" => Some("ccw"),
        _ => None,
    }
}

/// A statement inside `rounds { }`.
pub(super) fn is_rounds_stmt(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::match_ends
            | Rule::match_winner
            | Rule::setup_fill
            | Rule::setup_deal
            | Rule::setup_by_moves
            | Rule::setup_mirror
            | Rule::setup_store
            | Rule::setup_keep_claims
            | Rule::next_round_first
    )
}

/// A rule that starts a top-level statement.
pub(super) fn is_board_stmt(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::board_pits
            | Rule::board_rows
            | Rule::board_middle
            | Rule::board_halves
            | Rule::board_ring
            | Rule::board_seeds
            | Rule::layout_shared
            | Rule::board_layout
            | Rule::board_store_pit
            | Rule::board_stores
            | Rule::board_reserve
    )
}

pub(super) fn is_item(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::game_item
            | Rule::level_item
            | Rule::word_item
            | Rule::play_from_item
            | Rule::extends_item
            | Rule::param_item
            | Rule::board_item
            | Rule::first_item
            | Rule::sow_item
            | Rule::forbid_item
            | Rule::feeding_item
            | Rule::grand_slam_item
            | Rule::trigger_item
            | Rule::capture_item
            | Rule::no_captures
            | Rule::captures_required
            | Rule::pass_item
            | Rule::let_item
            | Rule::end_item
            | Rule::phase_item
            | Rule::rounds_item
            | Rule::drop_item
            | Rule::memory_item
            | Rule::after_move_item
            | Rule::moment_item
            | Rule::track_item
    )
}

/// What the words of a moment (`at lap end`, `after capture`, ...) name.
pub(super) enum MomentWords {
    At(Moment),
    EachSeed,
    MoveEnd,
}

pub(super) fn moment_words(text: &str) -> MomentWords {
    match text.split_whitespace().collect::<Vec<_>>().as_slice() {
        [_, "turn", "start"] => MomentWords::At(Moment::TurnStart),
        [_, "lap", "end"] => MomentWords::At(Moment::LapEnd),
        [_, "round", "start"] => MomentWords::At(Moment::RoundStart),
        [_, "round", "end"] => MomentWords::At(Moment::RoundEnd),
        [_, "each", "seed"] => MomentWords::EachSeed,
        [_, "move", "end"] => MomentWords::MoveEnd,
        _ => MomentWords::At(Moment::AfterCapture),
    }
}

/// A rule that would continue an expression.
pub(super) fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::add_op | Rule::mul_op | Rule::compare_op | Rule::kw_and | Rule::kw_or | Rule::kw_in | Rule::kw_is | Rule::kw_where
    )
}

/// A word of the language (misplaced, not misspelt).
pub(super) fn known(word: &str) -> bool {
    ITEM_WORDS.contains(&word) || crate::syntax::names::STATEMENT_WORDS.contains(&word) || is_keyword(word)
}

/// Words the grammar keeps from being names.
pub(super) fn is_keyword(word: &str) -> bool {
    [
        "and",
        "or",
        "not",
        "in",
        "is",
        "where",
        "when",
        "take",
        "series",
        "then",
        "move",
        "claim",
        "remaining",
        "capture",
        "trigger",
        "end",
        "forbid",
        "phase",
        "drop",
        "while",
    ]
    .contains(&word)
}

/// Where a statement that cannot stand alone belongs, for a statement word found out of place at the
/// top of the file.
pub(super) fn home_block(word: &str) -> Option<&'static str> {
    Some(match word {
        "pits" | "rows" | "seeds" | "layout" | "stores" => "`board { }`",
        "direction" | "skip" | "into" | "relay" => "`sow { }`",
        "match" | "setup" | "next" => "`rounds { }`",
        "take" | "series" | "claim" => "a `capture` or `trigger` rule, after its `when`",
        "player" => "`memory { }`",
        _ => return None,
    })
}
