//! `sowlang explain GAME|FILE [--format markdown|html]`: the rules of a game as a sheet a teacher can
//! read aloud or print: the board and set-up (with a picture of the start), how a move sows, each
//! capture and special rule, and the end. The sentences are made from the checked rules (the merged
//! items of the file and the files it extends, parameters and `let`s worked out), never from the
//! file's comments, so the sheet says what the program plays. A condition with no wording here is
//! shown as written, in backticks: the sheet stays true where it cannot be plain.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::check::Checked;
use crate::diagnostic::Sources;
use crate::engine::{Game, Player};
use crate::syntax::ast::{
    Action, BinOp, Direction, EndResult, Expr, ExprKind, FillOption, GrandSlam, Item, ItemKind, PlayFrom, Receiver, Remaining, RuleDef,
    SeriesDir, Then, TrackKind,
};

use super::{fail, out};

mod words;

/// The sheet's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum SheetFormat {
    /// Markdown: headings, paragraphs and a text picture of the board.
    #[default]
    Markdown,
    /// One HTML `<article>`, to print or to show in a page.
    Html,
}

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file, or the name of a game built into sowlang (`sowlang list`).
    file: PathBuf,
    /// Markdown or HTML.
    #[arg(long, value_enum, default_value_t = SheetFormat::Markdown)]
    format: SheetFormat,
    /// Set a parameter (`--set pits=5`); may be repeated.
    #[arg(long = "set", value_parser = super::parse_set)]
    sets: Vec<crate::Override>,
}

/// A part of a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A section's title.
    Heading(String),
    /// A paragraph; text in backticks is a rule as written.
    Para(String),
    /// A named rule of the file and what it says.
    Rule {
        /// The rule's name in the file.
        name: String,
        /// What it says.
        text: String,
    },
    /// The board at the start, drawn as text.
    Picture(String),
    /// A note for the command line (`--set`), left out where there is no command line.
    CommandLine(String),
}

/// A rule sheet: the game's name and its parts in reading order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The game's name.
    pub title: String,
    /// The parts.
    pub blocks: Vec<Block>,
}

/// Runs `explain`.
pub fn run(args: Args) -> u8 {
    match sheet_of(&args.file, &args.sets) {
        Ok(sheet) => {
            out(&match args.format {
                SheetFormat::Markdown => sheet.markdown(),
                SheetFormat::Html => sheet.html(),
            });
            0
        }
        Err(failure) => {
            super::report(&failure.diagnostics, &failure.sources);
            let io = failure
                .diagnostics
                .iter()
                .any(|d| d.code == "sow::load::missing_file" && d.labels.is_empty());
            if failure.diagnostics.is_empty() {
                return fail(
                    crate::diagnostic::Diagnostic::bare("sow::load::missing_file", "nothing to explain"),
                    2,
                );
            }
            if io { 2 } else { 1 }
        }
    }
}

/// The sheet of a rule file (or a shipped game's name) with parameter overrides.
pub fn sheet_of(path: &Path, overrides: &[crate::Override]) -> Result<Sheet, crate::LoadFailure> {
    let mut sources = Sources::default();
    let program = match crate::check::load(path, &mut sources) {
        Ok(p) => p,
        Err(diagnostics) => return Err(crate::LoadFailure { sources, diagnostics }),
    };
    match crate::check::check(program, overrides) {
        Ok(checked) => {
            let game = crate::compile::compile(&checked);
            Ok(explain(&checked, &game, &sources))
        }
        Err(diagnostics) => Err(crate::LoadFailure { sources, diagnostics }),
    }
}

/// The names of the named rules of a checked game (captures, triggers, forbids, phases, `after
/// move` rules and ends, inside phases too), in the file's order: what a sheet must mention.
pub fn rule_names(checked: &Checked) -> Vec<String> {
    let mut names = Vec::new();
    collect_names(&checked.program.items, &mut names);
    names
}

fn collect_names(items: &[Item], names: &mut Vec<String>) {
    for item in items {
        match &item.kind {
            ItemKind::Capture(r) | ItemKind::Trigger(r) | ItemKind::AfterMove(r) | ItemKind::At(_, r) => names.push(r.name.node.clone()),
            ItemKind::Forbid(n, _) | ItemKind::ForbidAfter(n, _) | ItemKind::End(n, ..) => names.push(n.node.clone()),
            ItemKind::Phase(n, _, inner) => {
                names.push(n.node.clone());
                collect_names(inner, names);
            }
            _ => {}
        }
    }
}

/// Builds the sheet of a checked game.
pub fn explain(checked: &Checked, game: &Game, sources: &Sources) -> Sheet {
    let w = Words { checked, game, sources };
    let items = &checked.program.items;
    let mut blocks = Vec::new();

    blocks.push(Block::Heading("The board".into()));
    blocks.push(Block::Para(w.board()));
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    blocks.push(Block::Picture(super::board::draw(game, &start)));
    blocks.push(Block::Para(w.setup()));
    if let Some(sizes) = w.sizes(items) {
        blocks.push(Block::CommandLine(sizes));
    }

    // The game's own words (`word "NAME" means "TEXT"`), as the narration explains them.
    if !game.words.is_empty() {
        blocks.push(Block::Heading("Words of the game".into()));
        for (word, means) in &game.words {
            blocks.push(Block::Para(format!("{word}: {means}.")));
        }
    }

    blocks.push(Block::Heading("A move".into()));
    blocks.push(Block::Para(w.sowing(items)));
    for item in items {
        if let ItemKind::Phase(name, when, inner) = &item.kind {
            let optional = inner.iter().any(|i| matches!(i.kind, ItemKind::PhaseOptional));
            let lead = if optional {
                format!("While {}, the player to move may instead play by these rules.", w.cond(when))
            } else {
                format!("These rules replace the usual ones while {}.", w.cond(when))
            };
            let mut text = vec![lead];
            let sow: Vec<Item> = inner.iter().filter(|i| i.kind.is_sowing()).cloned().collect();
            if !sow.is_empty() {
                text.push(w.sow_keys(&sow));
            }
            for i in inner {
                if let Some(s) = w.phase_item(i) {
                    text.push(s);
                }
            }
            blocks.push(Block::Rule {
                name: name.node.clone(),
                text: text.join(" "),
            });
            for i in inner {
                if let Some(rule) = w.named_rule(i) {
                    blocks.push(rule);
                }
            }
        }
    }

    let captures: Vec<Block> = items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Capture(_) | ItemKind::Trigger(_)))
        .filter_map(|i| w.named_rule(i))
        .collect();
    blocks.push(Block::Heading("Captures".into()));
    if items.iter().any(|i| matches!(i.kind, ItemKind::NoCaptures)) || captures.is_empty() {
        blocks.push(Block::Para("The usual moves capture nothing.".into()));
    } else {
        blocks.push(Block::Para(format!(
            "Captured seeds go to the capturer's store{}, unless the rule says otherwise.",
            if game.stores_sown { "" } else { " (they are out of play)" }
        )));
    }
    blocks.extend(captures);

    let special: Vec<Block> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Forbid(..) | ItemKind::ForbidAfter(..) | ItemKind::AfterMove(_) | ItemKind::At(..) => w.named_rule(i),
            _ => w.special(i).map(Block::Para),
        })
        .collect();
    if !special.is_empty() {
        blocks.push(Block::Heading("Special rules".into()));
        blocks.extend(special);
    }

    blocks.push(Block::Heading("The end".into()));
    blocks.push(Block::Para(
        "After every move these are tried in order; the first that holds ends the game.".into(),
    ));
    blocks.extend(
        items
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::End(..)))
            .filter_map(|i| w.named_rule(i)),
    );
    blocks.push(Block::Para(
        "Unless the rule that ended the game names the winner, the player with more seeds in their store wins; the same number is a draw."
            .into(),
    ));
    if let Some(rounds) = w.rounds(items) {
        blocks.push(Block::Heading("Rounds".into()));
        blocks.push(Block::Para(rounds));
    }
    Sheet {
        title: game.name.clone(),
        blocks,
    }
}

impl Sheet {
    /// The sheet without its notes about the command line (for the browser board).
    pub fn without_command_line(mut self) -> Sheet {
        self.blocks.retain(|b| !matches!(b, Block::CommandLine(_)));
        self
    }

    /// The sheet in Markdown.
    pub fn markdown(&self) -> String {
        let mut s = format!("# How to play {}\n", self.title);
        for b in &self.blocks {
            match b {
                Block::Heading(h) => {
                    let _ = write!(s, "\n## {h}\n");
                }
                Block::Para(p) | Block::CommandLine(p) => {
                    let _ = write!(s, "\n{p}\n");
                }
                Block::Rule { name, text } => {
                    let _ = write!(s, "\n- **{}.** {text}\n", capitalized(name));
                }
                Block::Picture(p) => {
                    let _ = write!(s, "\n```text\n{}```\n", p);
                }
            }
        }
        s
    }

    /// The sheet as one HTML `<article>` (text escaped; rules as written in `<code>`).
    pub fn html(&self) -> String {
        let mut s = format!("<article class=\"rule-sheet\">\n<h1>How to play {}</h1>\n", escape(&self.title));
        for b in &self.blocks {
            match b {
                Block::Heading(h) => {
                    let _ = writeln!(s, "<h2>{}</h2>", escape(h));
                }
                Block::Para(p) | Block::CommandLine(p) => {
                    let _ = writeln!(s, "<p>{}</p>", inline(p));
                }
                Block::Rule { name, text } => {
                    let _ = writeln!(
                        s,
                        "<p class=\"rule\"><strong>{}.</strong> {}</p>",
                        escape(&capitalized(name)),
                        inline(text)
                    );
                }
                Block::Picture(p) => {
                    let _ = writeln!(s, "<pre class=\"board-picture\">{}</pre>", escape(p));
                }
            }
        }
        s.push_str("</article>\n");
        s
    }
}

/// The last pit is named in full once in a sentence, then "the last pit".
fn shorter(s: &str) -> String {
    const LONG: &str = "the pit where the last seed fell";
    match s.find(LONG) {
        Some(at) => {
            let (head, tail) = s.split_at(at + LONG.len());
            format!("{head}{}", tail.replace(LONG, "the last pit"))
        }
        None => s.to_string(),
    }
}

/// The pit a simple clause is about (`last.count > 0` is about `last`).
fn clause_subject(w: &Words, e: &Expr) -> Option<String> {
    let lhs = match &e.kind {
        ExprKind::Binary(_, a, _) | ExprKind::InRange(a, ..) | ExprKind::Parity(a, _) => a,
        _ => return None,
    };
    match &lhs.kind {
        ExprKind::Field(p, f) if ["count", "before", "side", "row"].contains(&f.node.as_str()) => Some(w.pit(p)),
        _ => None,
    }
}

/// The pit the last clause of a chain of `and`s is about.
fn last_subject(w: &Words, e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Binary(BinOp::And, _, b) => last_subject(w, b),
        _ => clause_subject(w, e),
    }
}

fn uncapitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escapes a text and turns its `code` spans into `<code>`.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (n, part) in escape(s).split('`').enumerate() {
        if n % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

fn number_word(n: usize) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n).map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// Turns the rules into sentences.
struct Words<'a> {
    checked: &'a Checked,
    game: &'a Game,
    sources: &'a Sources,
}

impl Words<'_> {
    /// The expression as written, for a part with no wording.
    fn written(&self, e: &Expr) -> String {
        if let Some(name) = self.let_named(e) {
            return format!("`{name}`");
        }
        let text = self.sources.text(e.span.file);
        let raw = text.get(e.span.start..e.span.end).unwrap_or("?");
        format!("`{}`", raw.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    fn param(&self, name: &str) -> Option<i64> {
        self.checked.params.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    fn board(&self) -> String {
        let g = self.game;
        let pits = g.columns;
        let mut s = if g.ring {
            let n = g.shared + 2 * g.side_pits();
            if g.side_pits() > 0 {
                format!("The board is a ring of {n} pits; each player owns half of them.")
            } else {
                format!("The board is a ring of {n} pits that belong to nobody: either player may play any of them.")
            }
        } else if g.rows == 1 {
            format!(
                "The board has two rows of {pits} pits. Each player owns the row nearest to them: South the bottom row, North the top row."
            )
        } else {
            format!(
                "The board has {} rows of {pits} pits. Each player owns the {} rows nearest to them: South the bottom half, North the top half. A player's row nearest the middle is their front row (`a`), the next their back row (`b`).",
                number_word(2 * g.rows),
                number_word(g.rows)
            )
        };
        match g.halves {
            crate::board::Halves::Board => s.push_str(
                " But the board is owned by halves: each player owns the half on their left, in every row (the pits across from their left half too).",
            ),
            _ if g.shared > 0 && !g.ring => {
                let whose = if g.halves == crate::board::Halves::Middle {
                    ": each player owns the half on their left"
                } else {
                    " that belongs to nobody"
                };
                let _ = write!(s, " Between them lies a middle row of {} pits{whose}.", g.shared);
            }
            _ => {}
        }
        if let Some(column) = g.store_pit {
            let _ = write!(
                s,
                " Each player's pit {} is their store, not a pit to play: every sowing that passes it drops a seed into it, whoever sows, and their captures go there.",
                column + 1
            );
        } else if g.stores_sown {
            s.push_str(" Each player has a store at their end of the board: they sow into it, and their captures go there.");
        } else if self.hand() {
            s.push_str(
                " Each player has a store beside the board: it holds the seeds in their hand, which their moves bring onto the \
                 board, and the seeds they capture; the store is not sown into.",
            );
        } else {
            s.push_str(" Each player has a store beside the board for the seeds they capture; the store is not sown into.");
        }
        s
    }

    /// Some moves bring seeds from the mover's store onto the board (`sow { from store N }`): a store
    /// then holds a player's seeds in hand, and what it holds is told as such, not as captures.
    fn hand(&self) -> bool {
        self.game.phases.iter().any(|p| p.sow.from_store.is_some())
    }

    fn setup(&self) -> String {
        let g = self.game;
        // The pits a store stands in for are no pits to start with seeds.
        let pits: Vec<u32> = g.initial[..g.initial.len().saturating_sub(2)]
            .iter()
            .enumerate()
            .filter(|&(c, _)| !g.is_store_pit(c as crate::board::Cell))
            .map(|(_, &n)| n)
            .collect();
        let pits = &pits[..];
        let in_pits: u32 = pits.iter().sum();
        let mut s = match pits.first() {
            Some(&n) if pits.iter().all(|&c| c == n) => format!(
                "At the start every pit holds {}, {} in all.",
                plural(i64::from(n), "seed", "seeds"),
                in_pits
            ),
            _ => format!("At the start the seeds lie as the picture shows, {in_pits} in the pits."),
        };
        let stores = &g.initial[g.initial.len().saturating_sub(2)..];
        if stores.iter().any(|&c| c > 0) {
            let _ = write!(
                s,
                " Each player also starts with {} in their store, to bring onto the board later.",
                plural(i64::from(stores[0]), "seed", "seeds")
            );
        }
        let first = match g.first {
            Player::South => "South",
            Player::North => "North",
        };
        let _ = write!(s, " {first} moves first.");
        s
    }

    /// The parameters a player may change, with their ranges.
    fn sizes(&self, items: &[Item]) -> Option<String> {
        let params: Vec<String> = items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::Param {
                    name,
                    range: Some((lo, hi)),
                    ..
                } if lo.node < hi.node => Some(format!(
                    "`--set {}=N` ({} to {}; here {})",
                    name.node,
                    lo.node,
                    hi.node,
                    self.param(&name.node).unwrap_or(0)
                )),
                _ => None,
            })
            .collect();
        (!params.is_empty()).then(|| format!("Other sizes can be played with {}.", params.join(" and ")))
    }

    fn sowing(&self, items: &[Item]) -> String {
        let from = match self.game.play_from {
            PlayFrom::Own => "one of their own pits",
            PlayFrom::Shared => "one of the pits that belong to nobody",
            PlayFrom::Any => "any pit, their own or one that belongs to nobody",
            PlayFrom::Owned => "any pit they own (wherever it lies)",
        };
        let lift = items.iter().find_map(|i| match &i.kind {
            ItemKind::SowLift(e) => Some(self.number(e)),
            _ => None,
        });
        let taken = match lift {
            Some(n) => format!("pick up {n} from"),
            None => "pick up all the seeds of".into(),
        };
        let mut s = format!(
            "The mover (the player whose turn it is) chooses {from} that holds seeds. They {taken} that pit and sow them: one seed into each pit that follows."
        );
        let sow: Vec<Item> = items.iter().filter(|i| i.kind.is_sowing()).cloned().collect();
        s.push(' ');
        s.push_str(&self.sow_keys(&sow));
        if items.iter().any(|i| matches!(i.kind, ItemKind::PassWhenUnable)) {
            s.push_str(" A player who cannot move passes.");
        }
        s.trim_end().to_string()
    }

    /// The sentences of `sow { }` keys.
    fn sow_keys(&self, sow: &[Item]) -> String {
        let mut s = Vec::new();
        for item in sow {
            let sentence = match &item.kind {
                ItemKind::SowDirection(Direction::Ccw) => {
                    "Seeds are sown counter-clockwise (to the right along the mover's own front row).".to_string()
                }
                ItemKind::SowDirection(Direction::Cw) => {
                    "Seeds are sown clockwise (to the left along the mover's own front row).".to_string()
                }
                ItemKind::SowDirection(Direction::Either) => {
                    "With each move the player chooses the direction: clockwise or counter-clockwise.".to_string()
                }
                ItemKind::SowTrack(TrackKind::Own) => "A player sows only round their own rows, never into the opponent's.".to_string(),
                ItemKind::SowTrack(TrackKind::Shared) => "Sowing goes round both players' rows.".to_string(),
                ItemKind::SowTrack(TrackKind::Named(n)) => format!("Sowing follows the track \"{}\".", n.node),
                ItemKind::SowTrack(TrackKind::Path(_)) => "Sowing follows a track of its own, pit by pit.".to_string(),
                ItemKind::SowSkipOrigin => "When a sowing comes all the way round, it skips the pit it was taken from.".to_string(),
                ItemKind::SowSkipWhen(c) => format!("Sowing passes over every pit where {}.", self.cond(c)),
                ItemKind::SowIntoStore(false) => {
                    "The sowing also drops a seed into the mover's own store as it passes, but not into the opponent's.".to_string()
                }
                ItemKind::SowIntoStore(true) => "The sowing drops a seed into each store it passes.".to_string(),
                ItemKind::SowRelay(c) => format!(
                    "When the last seed falls and {}, the mover picks up all the seeds of that pit and sows them on in the same way (relay sowing); otherwise the move ends.",
                    shorter(&self.cond(c))
                ),
                ItemKind::SowRelayNever => "A move is one sowing: it ends where the last seed falls.".to_string(),
                ItemKind::SowRelayFrom(p) => format!("Each new lap starts from {}.", self.pit(p)),
                ItemKind::SowStartInOrigin(None) => "The first seed goes back into the pit it was taken from.".to_string(),
                ItemKind::SowStartInOrigin(Some(c)) => {
                    format!("When {}, the first seed goes back into the pit it was taken from.", self.cond(c))
                }
                ItemKind::SowFromStore(n) => format!(
                    "The seeds come from the player's store, {} at a time, and are sown starting at the pit chosen.",
                    self.number(n)
                ),
                ItemKind::SowLift(_) | ItemKind::SowRelayLimit(_) => continue,
                _ => continue,
            };
            s.push(sentence);
        }
        s.join(" ")
    }

    /// A sentence for a statement inside a phase that has no name of its own.
    fn phase_item(&self, item: &Item) -> Option<String> {
        match &item.kind {
            ItemKind::NoCaptures => Some("No seeds are captured.".into()),
            ItemKind::NoSowing => Some("No seeds are sown: the rules below say what the move does.".into()),
            ItemKind::CapturesRequired => Some("A player who can capture must.".into()),
            _ => None,
        }
    }

    /// A game-wide rule without a name (feeding, grand slam, ...).
    fn special(&self, item: &Item) -> Option<String> {
        Some(match &item.kind {
            ItemKind::Feeding(None) => {
                "Feeding: when the opponent has no seeds in their pits, the player must make a move that gives them some, if one can.".into()
            }
            ItemKind::Feeding(Some(p)) => format!(
                "Feeding: when the opponent has no seeds, a player who could give them some but does not loses the seeds left on the board: they go to {}.",
                self.player(p)
            ),
            ItemKind::GrandSlam(GrandSlam::CaptureNothing) => {
                "Grand slam: a move that would take every seed on the opponent's side captures nothing; its seeds stay where they were sown.".into()
            }
            ItemKind::GrandSlam(GrandSlam::Forbidden) => {
                "Grand slam: a move that would take every seed on the opponent's side is not allowed.".into()
            }
            ItemKind::GrandSlam(GrandSlam::Allowed(true)) => {
                "Grand slam: a move that takes every seed on the opponent's side is allowed, and the player moves again.".into()
            }
            ItemKind::GrandSlam(GrandSlam::Allowed(false)) => "Grand slam: a move may take every seed on the opponent's side.".into(),
            ItemKind::CapturesRequired => "A player who can capture must.".into(),
            ItemKind::Memory(m) => format!(
                "The game keeps a note for each {} called \"{}\", which the rules below read and change.",
                match m.owner.node {
                    crate::syntax::ast::MemoryOwner::Player => "player",
                    crate::syntax::ast::MemoryOwner::Pit => "pit",
                    crate::syntax::ast::MemoryOwner::Game => "game",
                },
                m.name.node
            ),
            _ => return None,
        })
    }

    fn rounds(&self, items: &[Item]) -> Option<String> {
        use crate::syntax::ast::{MatchMeasure, RoundOpener};
        self.game.rounds.as_ref()?;
        let mut s = vec![
            "The game is a match of rounds: when a rule above ends a round, the next round is set up from the seeds each player holds."
                .to_string(),
        ];
        for item in items {
            match &item.kind {
                ItemKind::MatchEnds(c) => s.push(format!("The match ends when {}.", self.cond(c))),
                ItemKind::MatchWinner(MatchMeasure::Rounds) => s.push("The player who won more rounds wins the match.".into()),
                ItemKind::MatchWinner(MatchMeasure::Seeds) => s.push("The player holding more seeds at the end wins the match.".into()),
                ItemKind::SetupFill(n, _) if self.game.ring && self.game.side_pits() == 0 => s.push(format!(
                    "To set up a round, the players fill the ring's empty pits with {} each from the seeds they hold, in ring order: first the player who opens the round, then the other from the next empty pit.",
                    self.amount(n)
                )),
                ItemKind::SetupFill(n, options) => {
                    s.push(format!(
                        "To set up a round, each player fills their pits with {} each from the seeds they hold, from their first pit on.",
                        self.amount(n)
                    ));
                    let has = |o: FillOption| options.iter().any(|x| x.node == o);
                    if has(FillOption::RemainderMadeUp) || has(FillOption::RemainderMadeUpClaimed) {
                        s.push(format!(
                            "A player whose seeds do not fill a last pit whole puts them into it, and the other player makes it up from the seeds their own pits left them{}.",
                            if has(FillOption::RemainderMadeUpClaimed) { ", and owns it" } else { "" }
                        ));
                    }
                }
                ItemKind::SetupDeal => {
                    s.push("To set up a round, the seeds are dealt out as evenly as the player with fewer allows.".into())
                }
                ItemKind::NextRoundFirst(o, _) => s.push(
                    match o {
                        RoundOpener::Alternate => "The players take turns to open the rounds.",
                        RoundOpener::Loser => "The loser of a round opens the next.",
                        RoundOpener::Winner => "The winner of a round opens the next.",
                        RoundOpener::FewerSeeds => "The player with fewer seeds opens the next round.",
                        RoundOpener::OtherThanEnder => "The player who did not make the round's last move opens the next.",
                        RoundOpener::Same => "The same player opens every round.",
                    }
                    .into(),
                ),
                _ => {}
            }
        }
        Some(s.join(" "))
    }

    /// A named rule as a sheet entry.
    fn named_rule(&self, item: &Item) -> Option<Block> {
        let (name, text) = match &item.kind {
            ItemKind::Capture(r) => (&r.name.node, self.rule(r, "the mover", "the pit looked at")),
            ItemKind::Trigger(r) => (
                &r.name.node,
                format!(
                    "As each seed falls while sowing: {}",
                    uncapitalized(&self.rule(r, "the mover", "the pit it falls in"))
                ),
            ),
            ItemKind::AfterMove(r) => (
                &r.name.node,
                format!("After the move: {}", self.rule(r, "the mover", "the pit looked at")),
            ),
            ItemKind::At(moment, r) => (
                &r.name.node,
                format!(
                    "{}: {}",
                    match moment {
                        crate::syntax::ast::Moment::TurnStart => "At the start of a turn, before the seeds are picked up",
                        crate::syntax::ast::Moment::LapEnd => "Whenever a lap of sowing ends",
                        crate::syntax::ast::Moment::AfterCapture => "Right after a capture",
                        crate::syntax::ast::Moment::RoundStart => "When a round is set up, before its first move",
                        crate::syntax::ast::Moment::RoundEnd => "When a round ends, before its seeds go back to their owners",
                    },
                    self.rule(r, "the mover", "the pit looked at")
                ),
            ),
            ItemKind::Forbid(n, c) => (&n.node, shorter(&format!("A move is not allowed when {}.", self.cond(c)))),
            ItemKind::ForbidAfter(n, c) => (
                &n.node,
                shorter(&format!("A move is not allowed if, once it is sown, {}.", self.cond(c))),
            ),
            ItemKind::End(n, c, remaining, from, result) => {
                let mut t = shorter(&format!("The game ends when {}.", self.cond(c)));
                t.push_str(&self.end_how(remaining.as_ref(), from.as_deref(), result.as_ref()));
                (&n.node, t)
            }
            _ => return None,
        };
        Some(Block::Rule { name: name.clone(), text })
    }

    /// A capture, trigger or `after move` rule: when, then what it does.
    fn rule(&self, r: &RuleDef, who: &str, pit: &str) -> String {
        let mut s = format!("When {}, ", self.cond(&r.when));
        let actions: Vec<String> = r.actions.iter().map(|a| self.action(&a.node, who)).collect();
        if actions.is_empty() {
            // A rule with nothing to do tells, by its name, what its holding means.
            s.push_str("the move is told by this rule's name");
        }
        s.push_str(&actions.join("; then "));
        s.push('.');
        shorter(&s.replace("the pit looked at", pit))
    }

    /// What happens to the seeds left and who wins, when the game ends: sentences, each with a
    /// space before it.
    fn end_how(&self, remaining: Option<&Remaining>, from: Option<&Expr>, result: Option<&EndResult>) -> String {
        let mut t = String::new();
        let whose = from.map(|f| format!(" of {}", self.pits(f))).unwrap_or_default();
        match remaining {
            Some(Remaining::Owner) => {
                let _ = write!(t, " Each player then takes the seeds left{whose} in their own pits.");
            }
            Some(Remaining::To(p)) => {
                let _ = write!(t, " The seeds left{whose} go to {}.", self.player(p));
            }
            Some(Remaining::Split) => {
                let _ = write!(
                    t,
                    " The seeds left{whose} are shared evenly; the odd one goes to the player with more on their side."
                );
            }
            Some(Remaining::InPlace) => {
                let _ = write!(t, " The seeds left{whose} count for the player whose pits they lie in.");
            }
            Some(Remaining::Uncounted) => {
                let _ = write!(t, " The seeds left{whose} count for nobody.");
            }
            None => {}
        }
        match result {
            Some(EndResult::Winner(p)) => {
                let _ = write!(t, " {} wins.", capitalized(&self.player(p)));
            }
            Some(EndResult::Loser(p)) => {
                let _ = write!(t, " {} loses.", capitalized(&self.player(p)));
            }
            Some(EndResult::Draw) => t.push_str(" The game is a draw."),
            None => {}
        }
        t
    }

    fn action(&self, a: &Action, who: &str) -> String {
        match a {
            Action::Take(pits, to) => {
                let what = pits.iter().map(|p| self.pits(p)).collect::<Vec<_>>();
                let what = crate::diagnostic::word_list(&what, "and");
                match to {
                    None => format!("{who} takes the seeds of {what}"),
                    Some(Receiver::Owner) => format!("the seeds of {what} go to the owner of the pit"),
                    Some(Receiver::Player(p)) => format!("the seeds of {what} go to {}", self.player(p)),
                }
            }
            Action::Series(sd) => {
                let dir = match sd.dir {
                    SeriesDir::Backward => "going back the way the seeds came",
                    SeriesDir::Forward => "going on the way the seeds went",
                    SeriesDir::BothWays => "going both ways from there",
                };
                let every = if sd.every_other { "every other pit" } else { "each next pit" };
                let mut t = format!(
                    "{dir}, the seeds of {every} are taken too, as long as {}",
                    self.cond(&sd.cond).replace("the pit looked at", "that pit")
                );
                if sd.with_opposite {
                    t.push_str(", each with the pit facing it");
                }
                if sd.with_stores.is_some() {
                    t.push_str(" (a store on the way is looked at and taken like a pit)");
                }
                if let Some((cap, unit)) = &sd.cap {
                    let unit = match unit {
                        crate::syntax::ast::CapUnit::Pits => "pits",
                        crate::syntax::ast::CapUnit::Seeds => "seeds",
                    };
                    let _ = write!(t, " (at most {} {unit})", self.number(cap));
                }
                t
            }
            Action::Move(m) => {
                let count = m.count.as_ref().map_or_else(|| "all the seeds".to_string(), |c| self.amount(c));
                let from = m.from.iter().map(|p| self.pits(p)).collect::<Vec<_>>();
                format!(
                    "{count} move{} from {}{} to {}",
                    if m.count.as_ref().is_some_and(|c| matches!(c.kind, ExprKind::Int(1))) {
                        "s"
                    } else {
                        ""
                    },
                    if m.each { "each of " } else { "" },
                    crate::diagnostic::word_list(&from, "and"),
                    self.pit(&m.to)
                )
            }
            Action::Claim(pits, p) => {
                let what = pits.iter().map(|p| self.pits(p)).collect::<Vec<_>>();
                format!(
                    "{} now belong to {} (their seeds go to that player at the end)",
                    crate::diagnostic::word_list(&what, "and"),
                    self.player(p)
                )
            }
            Action::SowTaken(again) => {
                let mut t = "the seeds taken are sown again".to_string();
                if let Some(p) = &again.pit {
                    let _ = write!(t, ", starting {} {}", if again.after { "after" } else { "in" }, self.pit(p));
                }
                match again.direction.as_ref().map(|d| d.node) {
                    Some(Direction::Ccw) => t.push_str(", counter-clockwise"),
                    Some(Direction::Cw) => t.push_str(", clockwise"),
                    Some(Direction::Either) => t.push_str(", in the direction the player chooses"),
                    None => {}
                }
                t
            }
            Action::TakeSome(n, p, to) => {
                let what = format!("{} from {}", self.amount(n), self.pit(p));
                match to {
                    None => format!("{who} takes {what}"),
                    Some(Receiver::Owner) => format!("{what} go to the owner of the pit"),
                    Some(Receiver::Player(x)) => format!("{what} go to {}", self.player(x)),
                }
            }
            Action::SowFrom(again) => {
                let from = again.pit.as_ref().map_or_else(|| "the last pit".to_string(), |p| self.pit(p));
                format!("the seeds of {from} are picked up and sown on from the pit after it")
            }
            Action::Close(pits, closing) => {
                let what = pits.iter().map(|p| self.pits(p)).collect::<Vec<_>>();
                let what = crate::diagnostic::word_list(&what, "and");
                if *closing {
                    format!("{what} are closed: out of play, their seeds stay in them")
                } else {
                    format!("{what} are open again")
                }
            }
            Action::End(end) => {
                let what = if end.whole_game { "the game ends" } else { "the round ends" };
                let how = self.end_how(end.remaining.as_ref(), end.from.as_deref(), end.result.as_ref());
                // The sentences of `end_how` start with a capital: within this rule's sentence they
                // are clauses after a colon, lower-cased.
                let clauses: Vec<String> = how
                    .trim()
                    .trim_end_matches('.')
                    .split(". ")
                    .filter(|c| !c.is_empty())
                    .map(uncapitalized)
                    .collect();
                if clauses.is_empty() {
                    what.to_string()
                } else {
                    format!("{what}: {}", clauses.join("; "))
                }
            }
            Action::Then(Then::End) => "the move ends".into(),
            Action::Then(Then::Continue) => "the sowing goes on by the usual rules".into(),
            Action::Then(Then::AnotherMove) => format!("{who} moves again"),
            Action::Set(target, value) => format!("the note {} becomes {}", self.written(target), self.written(value)),
            Action::Add(amount, target) => format!("{} is added to the note {}", self.written(amount), self.written(target)),
        }
    }
}
