//! `sowlang list [--json]`: the games built into sowlang, one line each: the name every command
//! takes (`sowlang play oware`), the game's own name, where it is played and its board.

use serde::Serialize;

use super::{Output, out};

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    output: Output,
}

#[derive(Serialize)]
struct Entry {
    /// The name commands take.
    name: &'static str,
    /// Its path under `variants/` in the repository.
    file: &'static str,
    /// The game's display name.
    game: String,
    /// Where it is played, when its file says.
    played_in: Option<&'static str>,
    /// Rows of pits on the board, all players together (0 for a ring).
    rows: usize,
    /// Pits in a row (or round a ring).
    pits: usize,
    ring: bool,
}

#[derive(Serialize)]
struct JsonList {
    games: Vec<Entry>,
}

/// The board in words: `2 rows of 6 pits`, `a ring of 12 pits`.
fn board(e: &Entry) -> String {
    if e.ring {
        format!("a ring of {} pits", e.pits)
    } else {
        format!("{} rows of {} pits", e.rows, e.pits)
    }
}

/// Runs `list`.
pub fn run(args: Args) -> u8 {
    let mut games = Vec::new();
    for shipped in crate::shipped::all() {
        // A shipped file that does not load is caught by the tests; here it is only left out.
        let Ok(loaded) = crate::load_game(&shipped.builtin_path(), &[]) else {
            continue;
        };
        let g = &loaded.game;
        let middle = usize::from(g.shared > 0 && !g.ring);
        games.push(Entry {
            name: shipped.name(),
            file: shipped.path,
            game: g.name.clone(),
            played_in: shipped.played_in(),
            rows: if g.ring { 0 } else { 2 * g.rows + middle },
            pits: if g.ring { g.shared + 2 * g.side_pits() } else { g.columns },
            ring: g.ring,
        });
    }
    games.sort_by(|a, b| a.name.cmp(b.name));
    if args.output.json() {
        out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&JsonList { games }).expect("plain data serializes")
        ));
        return 0;
    }
    let width = |f: &dyn Fn(&Entry) -> usize| games.iter().map(f).max().unwrap_or(0);
    let (w_name, w_game, w_where) = (
        width(&|e| e.name.len()),
        width(&|e| e.game.chars().count()),
        width(&|e| e.played_in.unwrap_or("-").chars().count()),
    );
    let mut text = String::new();
    for e in &games {
        let game_pad = w_game - e.game.chars().count();
        let place = e.played_in.unwrap_or("-");
        let place_pad = w_where - place.chars().count();
        text.push_str(&format!(
            "{:<w_name$}  {}{:game_pad$}  {place}{:place_pad$}  {}\n",
            e.name,
            e.game,
            "",
            "",
            board(e)
        ));
    }
    text.push_str("\nPlay one with `sowlang play NAME`; `sowlang explain NAME` tells its rules.\n");
    out(&text);
    0
}
