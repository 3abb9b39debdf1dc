//! `sowlang explain` (issue 21): the rule sheet of a game, made from its checked rules. Every shipped
//! game's sheet tells each of its named rules; sentences of invented rules are worked out by hand; the
//! HTML escapes what the file says; the command fails as the others do.

use crate::support::{root, scratch, shipped};
use std::path::Path;
use std::process::Command;

fn sheet(path: &Path, text: Option<&str>) -> (String, String, Vec<String>) {
    let s = match text {
        Some(t) => sowlang::rule_sheet_text(path, t, &[]),
        None => sowlang::rule_sheet(path, &[]),
    }
    .unwrap_or_else(|f| panic!("{}: {f}", path.display()));
    (s.markdown().to_string(), s.html().to_string(), s.rule_names().to_vec())
}

#[test]
fn every_shipped_sheet_tells_each_rule_by_name() {
    for path in shipped() {
        let (md, html, names) = sheet(&path, None);
        assert!(!names.is_empty(), "{}: no named rules found", path.display());
        for name in &names {
            let shown = format!("{}{}.", name[..1].to_uppercase(), &name[1..]);
            assert!(
                md.contains(&format!("**{shown}**")),
                "{}: the sheet does not tell `{name}`",
                path.display()
            );
            assert!(
                html.contains(&format!(
                    "<strong>{}</strong>",
                    shown
                        .replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('>', "&gt;")
                        .replace('"', "&quot;")
                )),
                "{}: `{name}`",
                path.display()
            );
        }
        for part in ["## The board", "## A move", "## Captures", "## The end", "```text\n"] {
            assert!(md.contains(part), "{}: no `{part}`", path.display());
        }
    }
    // A rule a file drops is not told; the rules it inherits are.
    let (jodu, _, _) = sheet(&root().join("variants/jodu.sow"), None);
    let (oware, _, _) = sheet(&root().join("variants/oware.sow"), None);
    assert!(oware.contains("**Two or three.**") && !jodu.contains("**Two or three.**"));
    assert!(jodu.contains("**Endless chasing.**"));
}

const INVENTED: &str = r#"game "Little <game>"
board {
  pits 3
  seeds 2
  stores sown
}
sow { into own store }
capture "home" { when last == store(mover)  then another move }
capture "away" {
  when last.side == opponent and last.count in 2..3
  take last
  series backward while pit.side == opponent and pit.count is even
}
forbid "no singles" when origin.count == 1
end "empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner
end "long" when ply > 50 draw
"#;

#[test]
fn sentences_say_what_the_rules_say() {
    let (md, html, names) = sheet(Path::new("invented.sow"), Some(INVENTED));
    assert_eq!(names, ["home", "away", "no singles", "empty", "long"]);
    for sentence in [
        "The board has two rows of 3 pits.",
        "At the start every pit holds 2 seeds, 12 in all. South moves first.",
        "The sowing also drops a seed into the mover's own store as it passes",
        "**Home.** When the last seed falls in the store of the mover, the mover moves again.",
        "**Away.** When the pit where the last seed fell is on the opponent's side and holds 2 or 3 seeds, the mover takes the seeds of the last pit; then going back the way the seeds came, the seeds of each next pit are taken too, as long as that pit is on the opponent's side and holds an even number of seeds.",
        "**No singles.** A move is not allowed when the pit played holds 1 seed.",
        "**Empty.** The game ends when the pits of South hold no seeds, or the pits of North hold no seeds. Each player then takes the seeds left in their own pits.",
        "**Long.** The game ends when the number of moves played is more than 50. The game is a draw.",
    ] {
        assert!(md.contains(sentence), "missing: {sentence}\n{md}");
    }
    let other = INVENTED.replace("when last == store(mover)", "when last != store(mover)");
    let (md, _, _) = sheet(Path::new("invented.sow"), Some(&other));
    assert!(md.contains("When the last seed does not fall in the store of the mover"), "{md}");
    // The file's own text is escaped in HTML.
    assert!(
        html.contains("How to play Little &lt;game&gt;") && !html.contains("<game>"),
        "{html}"
    );
}

#[test]
fn explain_runs_as_a_command() {
    let dir = scratch("explain", "command");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sowlang"))
            .env("SOWLANG_DATABASES", super::support::no_databases())
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("run")
    };
    let md = run(&["explain", "oware"]);
    assert_eq!(md.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&md.stdout).starts_with("# How to play Oware\n"));
    let html = run(&["explain", "kalah", "--format", "html"]);
    assert!(String::from_utf8_lossy(&html.stdout).starts_with("<article class=\"rule-sheet\">"));
    let missing = run(&["explain", "no_such_game"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(missing.stdout.is_empty());
    std::fs::write(dir.join("broken.sow"), "game \"Broken\"\nboard { pits 0 }\n").expect("write");
    let broken = run(&["explain", "broken.sow"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("sow::check::"));
}

// Issue 21: `LoadFailure` was no `Error`, so a program could not pass it on with `?`.
#[test]
fn a_failed_load_is_an_error() {
    fn load(text: &str) -> Result<sowlang::Game, Box<dyn std::error::Error>> {
        Ok(sowlang::load_text(Path::new("broken.sow"), text, &[])?.game)
    }
    let err = load("game \"Broken\"\nboard { pits 0 }\n").expect_err("refused");
    assert!(err.to_string().contains("sow::check::out_of_range"), "{err}");
    assert!(err.to_string().contains("a row of 0 pits is not possible"), "{err}");
}

/// Pits owned as the rules give it: the sheet says who owns the middle row or the board's halves, that
/// a player plays every pit they own, and how a ring owned by nobody is set up for a round.
#[test]
fn sheets_tell_who_owns_a_pit_and_how_a_shared_ring_is_set_up() {
    let fixture = |name: &str| root().join("tests/fixtures/traditional").join(name);
    let (gabata, _, _) = sheet(&fixture("gabata_three_rows.sow"), None);
    assert!(
        gabata.contains("Between them lies a middle row of 6 pits: each player owns the half on their left."),
        "{gabata}"
    );
    assert!(
        gabata.contains("chooses any pit they own (wherever it lies) that holds seeds"),
        "{gabata}"
    );
    let halves = "game \"Halves\"\nboard { pits 4  owned by halves  seeds 2 }\nplay from owned\nend \"no move\" when no_moves\n";
    let (md, _, _) = sheet(Path::new("halves.sow"), Some(halves));
    assert!(
        md.contains("But the board is owned by halves: each player owns the half on their left, in every row"),
        "{md}"
    );
    let (sat_gol, _, _) = sheet(&fixture("sat_gol.sow"), None);
    assert!(
        sat_gol.contains("the players fill the ring's empty pits with 4 seeds each from the seeds they hold, in ring order"),
        "{sat_gol}"
    );
}

/// A store that holds the seeds in hand (moves bring them onto the board: `from store`) is told as
/// such: a phase on `captured(..)` reads "has seeds in their store", not "has captured" (issue 23,
/// Bao la Kiswahili's namua), and a pit the file names with a `let` is told by its name.
#[test]
fn a_store_of_seeds_in_hand_is_told_as_one() {
    const HAND: &str = r#"
game "From the hand"
board { pits 3  seeds 1  reserve 4  stores captures }
let across = if origin.count > 1 then opposite(origin) else opposite(last)
sow { direction ccw }
phase "entering" when captured(to_move) > 0 { sow { from store 1 } }
capture "across" { when last.count > 1 and across.count > 0  take across }
end "empty" when seeds(to_move) == 0 and captured(to_move) == 0 remaining owner
"#;
    let (md, _, _) = sheet(Path::new("hand.sow"), Some(HAND));
    for sentence in [
        "it holds the seeds in their hand, which their moves bring onto the board, and the seeds they capture",
        "**Entering.** These rules replace the usual ones while the player to move has some seeds in their store.",
        "and `across` holds some seeds",
        "the player to move has no seeds in their store",
    ] {
        assert!(md.contains(sentence), "missing: {sentence}\n{md}");
    }
    assert!(!md.contains("has captured"), "{md}");
    // Without moves from the store, the store holds captures.
    let (md, _, _) = sheet(
        Path::new("hand.sow"),
        Some(&HAND.replace(" { sow { from store 1 } }", " { no captures }")),
    );
    assert!(
        md.contains("while the player to move has captured some seeds") && md.contains("for the seeds they capture"),
        "{md}"
    );
    // Bao la Kiswahili's stages read as its players say them.
    let (md, _, _) = sheet(&root().join("variants/bao_la_kiswahili.sow"), None);
    for sentence in [
        "**Namua.** These rules replace the usual ones while the player to move has some seeds in their store.",
        "**Mtaji.** These rules replace the usual ones while the player to move has no seeds in their store.",
        "the number of seeds the move has taken is more than 0",
    ] {
        assert!(md.contains(sentence), "missing: {sentence}\n{md}");
    }
}

/// The game's own words (`word "NAME" means "TEXT"`) have a section of the sheet, and a rule with
/// nothing to do reads as a name for the move (issue 23).
#[test]
fn a_sheet_tells_the_games_words() {
    let (md, html, _) = sheet(&root().join("variants/bao_la_kiswahili.sow"), None);
    assert!(md.contains("## Words of the game\n\nnamua: the first stage: "), "{md}");
    assert!(html.contains("<p>takasa: a move that captures nothing.</p>"), "{html}");
    assert!(
        md.contains("**The move was a takasa.** After the move: When the number of seeds the move has taken is 0, the move is told by this rule's name."),
        "{md}"
    );
}
