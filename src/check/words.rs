//! The game's own words (`word "NAME" means "TEXT"`): each must be one the narration can say, in the
//! name of a phase, of a rule or an end, or of a choice's option; a word no name says would never be
//! explained, and is refused where it is written.

use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{Item, ItemKind};

/// Whether `line` says `word` as a word of its own (not inside a longer one), in either case: how
/// the narration finds the game's words in what it says.
pub fn says(line: &str, word: &str) -> bool {
    let (line, word) = (line.to_lowercase(), word.to_lowercase());
    if word.trim().is_empty() {
        return false;
    }
    let apart = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    line.match_indices(&word)
        .any(|(at, w)| apart(line[..at].chars().next_back()) && apart(line[at + w.len()..].chars().next()))
}

/// Refuses every `word` no name of the file says; `options` are the words of choices' options.
pub fn check(items: &[Item], options: &[String], diags: &mut Vec<Diagnostic>) {
    let mut names: Vec<&str> = options.iter().map(String::as_str).collect();
    named(items, &mut names);
    for item in items {
        if let ItemKind::Word(word, _) = &item.kind
            && !names.iter().any(|n| says(n, &word.node))
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::word_never_said",
                    format!("the word `{}` is in no name the narration says", word.node),
                    word.span,
                    "never said",
                )
                .with_help(
                    "a word is explained the first time the narration says it: use it in the name of a phase, a rule, an \
                     end or an option (`choose(1 as \"stop\", ..)`), or drop it",
                ),
            );
        }
    }
}

/// The names the narration says: phases', rules' and ends'.
fn named<'a>(items: &'a [Item], names: &mut Vec<&'a str>) {
    for item in items {
        match &item.kind {
            ItemKind::Phase(name, _, inner) => {
                names.push(&name.node);
                named(inner, names);
            }
            ItemKind::Trigger(def) | ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) => names.push(&def.name.node),
            ItemKind::End(name, ..) => names.push(&name.node),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::says;

    #[test]
    fn a_word_is_said_only_on_its_own() {
        assert!(says("south plays pit a3 (phase \"first stage\")", "first stage"));
        assert!(says("Safari: the seeds go on", "safari"));
        assert!(!says("the safaris go on", "safari"));
        assert!(!says("a takasia is marked", "takasa"));
        assert!(says("a takasa; a takasia", "takasia"));
        assert!(!says("anything", " "));
    }
}
