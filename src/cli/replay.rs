//! `sowlang replay RECORD [--trace] [--side north] [--json]`: shows a saved game move by move with the
//! board, or with `--json` prints its final position (the position JSON of docs/cli.md). Every move of
//! the record is checked before anything is printed: an illegal move is a `sow::run::illegal_move`
//! diagnostic pointing at it in the record, and a result line that the moves do not give is
//! `sow::record::wrong_result`; both exit 1 with nothing on stdout.

use std::path::PathBuf;

use super::board::{self, View};
use super::record;
use super::{Output, Side, out, report};
use crate::diagnostic::Diagnostic;
use crate::engine::{Event, Player};

/// Arguments of `replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game record (written by `save` in `sowlang play`; see docs/cli.md, "Game records").
    record: PathBuf,
    /// Narrate every move step by step instead of in one line.
    #[arg(long)]
    trace: bool,
    /// Draw the board from this player's side.
    #[arg(long, value_enum, default_value_t = Side::South)]
    side: Side,
    /// Go on with the record's rule file as it is now even if it has changed since the game was
    /// saved (the record's moves are still checked one by one).
    #[arg(long)]
    any_rules: bool,
    #[command(flatten)]
    output: Output,
}

/// Runs `replay`.
pub fn run(args: Args) -> u8 {
    let opened = match record::open(&args.record, args.any_rules) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let game = &opened.loaded.game;
    let last = opened.plies.last().map_or(&opened.start, |p| &p.after);
    if let Some(written) = &opened.result {
        let actual = record::result_text(game, last);
        if !record::result_agrees(&written.value, &actual) {
            let d = Diagnostic::error(
                "sow::record::wrong_result",
                format!("the record says `{}`, but its moves give `{actual}`", written.value),
                written.span,
                "the result written in the record",
            )
            .with_help(
                "the rule file or its parameters may have changed since the game was saved; correct the result line or leave it out",
            );
            report(&[d], &opened.sources);
            return 1;
        }
    }
    if args.output.json() {
        out(&format!(
            "{}\n",
            serde_json::to_string(&crate::position::to_json(game, last)).expect("positions serialise")
        ));
        return 0;
    }
    let mut view = View {
        bottom: Player::from(args.side),
        ..View::default()
    };
    let n = opened.plies.len();
    let mut text = format!(
        "{} ({}), {n} {}\n",
        game.name,
        opened.rules.display(),
        if n == 1 { "move" } else { "moves" }
    );
    text.push_str(&board::draw_view(game, &opened.start, &view));
    let mut before = &opened.start;
    // The game's own words said so far: each is explained once, the first time.
    let mut said = Vec::new();
    for (i, ply) in opened.plies.iter().enumerate() {
        text.push('\n');
        let head = format!("move {}: {} plays {}", i + 1, ply.mover.name(), crate::engine::pit_word(&ply.text));
        if args.trace {
            text.push_str(&format!("{head}\n"));
            let steps: Vec<Event> = ply.events.iter().filter(|e| !matches!(e, Event::Move { .. })).cloned().collect();
            let mut lines = game.narrate(&steps);
            game.gloss(&mut lines, &mut said);
            for line in lines {
                text.push_str(&format!("{line}\n"));
            }
        } else {
            let what = super::play::effects(game, before, ply, &view);
            let what = if what.is_empty() {
                String::new()
            } else {
                format!(": {}", what.join(", "))
            };
            text.push_str(&format!("{head}{what}\n"));
        }
        view.mark(&ply.events);
        text.push_str(&board::draw_view(game, &ply.after, &view));
        before = &ply.after;
    }
    text.push('\n');
    text.push_str(&board::status(game, last, &view));
    out(&text);
    0
}
