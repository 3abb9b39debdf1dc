//! After syntax errors the items that parsed are still checked; this decides which of the problems
//! found only follow from the items left out (an absence the broken item may well fill), so that
//! each root cause is reported once.

use crate::diagnostic::{Diagnostic, suggest};
use crate::syntax::parse::Broken;

/// The words an item starts with.
const ITEM_WORDS: &[&str] = &[
    "game", "extends", "param", "board", "first", "sow", "forbid", "feeding", "grand", "trigger", "capture", "no", "end", "phase",
    "rounds", "drop", "memory", "after",
];

/// What a broken item most likely is: its first word, or the item word it is a misspelling of;
/// `None` when it could be anything.
pub(crate) fn kind(word: &str) -> Option<&'static str> {
    ITEM_WORDS
        .iter()
        .copied()
        .find(|w| *w == word)
        .or_else(|| suggest(word, ITEM_WORDS.iter().copied()).and_then(|s| ITEM_WORDS.iter().copied().find(|w| *w == s)))
}

/// Whether `d` may only follow from one of the `broken` items.
pub(crate) fn follows_from_broken(d: &Diagnostic, broken: &[Broken]) -> bool {
    let could_be = |wanted: &str| broken.iter().any(|b| kind(&b.word).is_none_or(|k| k == wanted));
    match d.code {
        "sow::check::no_end" => could_be("end"),
        // The absences of the whole file (no name, no board size, no seeds, nothing in `rounds`) are
        // reported at its start; a layout missing a row is about the layout itself.
        "sow::check::missing" if d.labels.first().is_some_and(|l| l.span.start == 0 && l.span.end == 0) => {
            if d.message.contains("rounds") || d.message.contains("round is set up") {
                could_be("rounds")
            } else if d.message.contains("board") {
                could_be("board")
            } else {
                could_be("game")
            }
        }
        // A name the broken `param` may declare.
        "sow::check::unknown_name" | "sow::check::not_static" => broken
            .iter()
            .any(|b| kind(&b.word).is_none_or(|k| k == "param") && b.name.as_ref().is_some_and(|n| d.message.contains(&format!("`{n}`")))),
        // `into own store` needs `stores sown`, which a broken board may hold.
        "sow::check::conflict" if d.message.contains("stores that are sown") => could_be("board"),
        _ => false,
    }
}
