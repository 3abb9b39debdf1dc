//! `sowlang play FILE [--vs human|random|greedy|alphabeta:6|mcts:2s] [--side south|north] [--from POS]`
//! and `sowlang play --load RECORD`: a game in the terminal against a person or a computer player.
//!
//! It reads one line at a time, so it also works from a pipe (the tests drive it that way): nothing
//! it prints depends on a terminal except the "thinking" indicator, which is drawn on stderr only when
//! both stdout and stderr are terminals. Commands are read without regard to case; a line holding
//! terminal control sequences (an arrow key) is refused as a whole, and never echoed, so that it
//! cannot garble the screen. Every move made is kept, so moves can be taken back (`undo`), played
//! again (`redo`) and saved as a game record (`save FILE`, see record.rs).

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::board::{self, View};
use super::record::{self, Draft, Ply};
use super::{Side, Start, fail, load, out, read_position_file, report};

mod advice;
use crate::Override;
use crate::diagnostic::Diagnostic;
use crate::engine::{Event, Game, Outcome, Player, Position};
use crate::players::{Spec, choose_with};
use crate::search::endgame::{self, Endgames};
use crate::search::{self, alphabeta};
pub(super) use advice::effects;

/// Who the person plays against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Human,
    /// A computer player.
    Computer(Spec),
}

fn parse_opponent(s: &str) -> Result<Opponent, String> {
    if s.trim().eq_ignore_ascii_case("human") {
        Ok(Opponent::Human)
    } else {
        s.parse::<Spec>().map(Opponent::Computer).map_err(|e| format!("{e}, or `human`"))
    }
}

/// `--hint-time`: a number of seconds, more than 0 and at most an hour.
fn parse_hint_time(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 3600.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number of seconds from more than 0 to 3600")),
    }
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file (not with --load, which names its own).
    #[arg(required_unless_present = "load")]
    file: Option<PathBuf>,
    /// The opponent: `human`, `random`, `greedy`, `alphabeta[:DEPTH|:TIME]` or `mcts[:PLAYOUTS|:TIME]`
    /// (e.g. `alphabeta:6`, `mcts:2s`); `greedy` unless a loaded record says otherwise.
    #[arg(long, value_parser = parse_opponent)]
    vs: Option<Opponent>,
    /// The side the person plays, drawn at the bottom of the board (`south` unless a loaded record
    /// says otherwise).
    #[arg(long, value_enum)]
    side: Option<Side>,
    /// Start from this position (JSON, as for `run --from`; a teacher's puzzle); its `to_move` says who begins.
    #[arg(long, conflicts_with_all = ["load", "first"])]
    from: Option<PathBuf>,
    /// Go on with a saved game record (it names the rule file, parameters and moves).
    #[arg(long, conflicts_with_all = ["file", "sets", "first"])]
    load: Option<PathBuf>,
    /// Keep the game record in this file, written again after every move.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Records saved carry the rules themselves, not only the rule file's name and hash, so that they
    /// can be played on when the file is missing or has changed (as `save --with-rules`).
    #[arg(long)]
    with_rules: bool,
    /// With --load: go on with the record's rule file as it is now even if it has changed since the
    /// game was saved (the record's moves are still checked one by one).
    #[arg(long, requires = "load")]
    any_rules: bool,
    /// Less text, for children: no step-by-step narration, short prompts and hints.
    #[arg(long, short)]
    quiet: bool,
    /// Seed for the computer's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How long the `hint` command thinks, in seconds (more than 0, at most 3600).
    #[arg(long, default_value = "1", value_parser = parse_hint_time, allow_negative_numbers = true)]
    hint_time: f64,
    /// Let `hint` search exactly this many plies instead of for --hint-time (the same hint on every machine).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    hint_depth: Option<u32>,
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    endgames: super::solve::Knowledge,
}

/// The commands after the first (a move, whose words depend on the game: [`Session::help`]).
const HELP: &str = "  undo [N]       take back your last move (and the computer's reply), or N of them
  redo [N]       play again what undo took back
  hint           what the computer would play, what each move does and its score
  moves          the legal moves
  board          draw the board again
  save [FILE]    save the game as a record (`sowlang play --load FILE` goes on with it);
                 `save --with-rules [FILE]` puts the rules themselves in it
  quit           stop
";

/// The commands, in short, after what to type for a move.
const QUIET_COMMANDS: &str = "`undo`, `hint`, `save FILE`, `quit`\n";

/// How a move of `game` is typed, in short and in its own notation: `a pit number`, `a pit's row and
/// number and `L` or `R` (`b3L`)`.
fn what_to_type(game: &Game) -> String {
    let (_, examples) = record::notation(game, false);
    let example = &examples[0];
    let mut what = if game.side_pits() == 0 {
        "a shared pit".to_string()
    } else if game.rows == 1 {
        "a pit number".to_string()
    } else {
        "a pit's row and number".to_string()
    };
    if game.choices > 1 {
        what.push_str(" and `L` or `R`");
    }
    if game.uses_choose {
        what.push_str(", then its choices after `:`");
    }
    if example != "3" {
        what.push_str(&format!(" (`{example}`)"));
    }
    if game.may_pass {
        what.push_str(", or `pass` when the rules allow it");
    }
    what
}

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    Person,
    Computer(Spec),
}

/// A game in progress: the start, every move played (for undo and saving) and the moves taken back.
struct Session {
    game: Game,
    rules: PathBuf,
    sets: Vec<Override>,
    start: Position,
    /// The start position as position JSON when it is not the game's own start.
    from: Option<String>,
    plies: Vec<Ply>,
    /// Moves taken back, the next to play again last.
    redo: Vec<String>,
    seats: [Seat; 2],
    view: View,
    quiet: bool,
    /// Where `save` writes when no file is named.
    save_to: Option<PathBuf>,
    /// Save after every move.
    autosave: bool,
    hint: alphabeta::Limits,
    /// The game's endgame databases, when they exist: the computer and the hints read them.
    db: Option<Endgames>,
    rng: StdRng,
    /// The number of moves played when the end of the game was last announced.
    ended_at: Option<usize>,
    saved: Saved,
    /// The game's own words the narration has said: each is explained once, the first time.
    said: Vec<bool>,
}

/// What saving needs to know besides the game: the rules' hash and text, and what was saved last.
struct Saved {
    /// [`record::rules_hash`] of the rules played.
    rules_hash: String,
    /// The rule file's text, for `save --with-rules`.
    rules_text: String,
    /// Records are saved with the rules in them (`--with-rules`, `save --with-rules`, or a loaded
    /// record that had them).
    with_rules: bool,
    /// The game came from a record (`--load`): leaving saves it there.
    loaded_record: bool,
    /// The moves as last saved (or loaded).
    moves: Vec<String>,
}

/// Runs `play`.
pub fn run(args: Args) -> u8 {
    match setup(&args) {
        Ok(mut s) => s.main_loop(),
        Err(code) => code,
    }
}

/// Turns the arguments into a session: the game, the start, the moves of a loaded record, who plays.
fn setup(args: &Args) -> Result<Session, u8> {
    let opened = match &args.load {
        Some(path) => Some(record::open(path, args.any_rules)?),
        None => None,
    };
    let with_rules = args.with_rules || opened.as_ref().is_some_and(|r| r.with_rules);
    let (loaded, rules, sets, start, from, plies, record_seats) = match opened {
        Some(r) => {
            let mut seats = [None, None];
            for (i, p) in r.players.iter().enumerate() {
                if let Some(p) = p {
                    seats[i] = Some(match parse_opponent(&p.value) {
                        Ok(Opponent::Human) => Seat::Person,
                        Ok(Opponent::Computer(spec)) => Seat::Computer(spec),
                        Err(e) => {
                            let d = Diagnostic::error("sow::record::bad_record", e, p.span, "who played this side");
                            report(&[d], &r.sources);
                            return Err(1);
                        }
                    });
                }
            }
            (r.loaded, r.rules, r.sets, r.start, r.from, r.plies, seats)
        }
        None => {
            let file = args.file.clone().expect("clap asks for FILE unless --load is given");
            let loaded = load(&file, &args.start.sets)?;
            let game = &loaded.game;
            let (start, from) = match &args.from {
                Some(p) => {
                    let text = read_position_file(p)?;
                    let read = crate::position::from_json(game, &text).map_err(|d| fail(d, 1))?;
                    let line = record::position_line(game, &read);
                    let start = record::start_position(game, Some(&line), None).map_err(|d| fail(d, 1))?;
                    (start, Some(line))
                }
                None => (
                    record::start_position(game, None, args.start.first.map(Into::into)).map_err(|d| fail(d, 1))?,
                    None,
                ),
            };
            (loaded, file, args.start.sets.clone(), start, from, Vec::new(), [None, None])
        }
    };
    let saved = Saved {
        rules_hash: record::rules_hash(&loaded.sources),
        rules_text: record::main_rules_text(&loaded.sources).unwrap_or_default(),
        with_rules,
        loaded_record: args.load.is_some(),
        moves: plies.iter().map(|p| p.text.clone()).collect(),
    };
    let game = loaded.game;
    let seats = seats(args, record_seats);
    let person = match seats {
        [Seat::Person, Seat::Computer(_)] => Player::South,
        [Seat::Computer(_), Seat::Person] => Player::North,
        _ => args.side.map_or(Player::South, Into::into),
    };
    let names = match seats {
        [Seat::Person, Seat::Person] => [Player::South.name().to_string(), Player::North.name().to_string()],
        _ => {
            let mut n = ["computer".to_string(), "computer".to_string()];
            n[person.index()] = "you".to_string();
            n
        }
    };
    let hint = match args.hint_depth {
        Some(d) => alphabeta::Limits { depth: d, time: None },
        None => alphabeta::Limits {
            depth: crate::players::MAX_DEPTH,
            time: Some(Duration::from_secs_f64(args.hint_time)),
        },
    };
    let db = args.endgames.read(&game);
    let mut session = Session {
        db,
        game,
        rules,
        sets,
        start,
        from,
        plies,
        redo: Vec::new(),
        seats,
        view: View {
            bottom: person,
            names,
            played: None,
            last_seed: None,
        },
        quiet: args.quiet,
        save_to: args.save.clone().or_else(|| args.load.clone()),
        autosave: args.save.is_some(),
        hint,
        rng: StdRng::seed_from_u64(args.seed),
        ended_at: None,
        saved,
        said: Vec::new(),
    };
    session.mark_last();
    Ok(session)
}

/// Who plays each side: the command line first, then the loaded record, then a person as south
/// against `greedy`.
fn seats(args: &Args, from_record: [Option<Seat>; 2]) -> [Seat; 2] {
    let two_people = match args.vs {
        Some(Opponent::Human) => true,
        Some(Opponent::Computer(_)) => false,
        None => from_record == [Some(Seat::Person), Some(Seat::Person)],
    };
    if two_people {
        return [Seat::Person, Seat::Person];
    }
    let computer = match args.vs {
        Some(Opponent::Computer(spec)) => spec,
        _ => from_record
            .iter()
            .find_map(|s| match s {
                Some(Seat::Computer(spec)) => Some(*spec),
                _ => None,
            })
            .unwrap_or(Spec::Greedy),
    };
    // The person keeps the side they had in the record unless told otherwise.
    let person = match (args.side, from_record) {
        (Some(side), _) => side.into(),
        (None, [Some(Seat::Computer(_)), Some(Seat::Person)]) => Player::North,
        _ => Player::South,
    };
    let mut s = [Seat::Computer(computer), Seat::Computer(computer)];
    s[person.index()] = Seat::Person;
    s
}

/// A line of input made safe to act on and to echo.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    /// The words of the line, lower case.
    Words(Vec<String>),
    /// The line held terminal control sequences or other control characters.
    Control,
}

/// Reads a line for acting on: control sequences (an arrow key sends `ESC [ A`) and other control
/// characters make the whole line unusable, since what is left of it is not what the person meant.
fn clean(line: &str) -> Input {
    let line = line.trim_end_matches(['\n', '\r']);
    if line.chars().any(|c| (c.is_control() && c != '\t') || c == '\u{fffd}') {
        return Input::Control;
    }
    Input::Words(line.split_whitespace().map(str::to_lowercase).collect())
}

/// A word echoed back in a message: printable, and short enough for one line.
fn echo(word: &str) -> String {
    let w: String = word.chars().take(24).collect();
    if word.chars().count() > 24 { format!("{w}...") } else { w }
}

impl Session {
    fn pos(&self) -> &Position {
        self.plies.last().map_or(&self.start, |p| &p.after)
    }

    fn is_person(&self, p: Player) -> bool {
        self.seats[p.index()] == Seat::Person
    }

    fn against_computer(&self) -> bool {
        self.seats.iter().any(|s| *s != Seat::Person)
    }

    /// Marks the last move on the board, or nothing at the start.
    fn mark_last(&mut self) {
        match self.plies.last() {
            Some(p) => {
                let events = p.events.clone();
                self.view.mark(&events);
            }
            None => {
                self.view.played = None;
                self.view.last_seed = None;
            }
        }
    }

    fn board(&self) -> String {
        let mut s = board::draw_view(&self.game, self.pos(), &self.view);
        s.push_str(&board::rounds_line(&self.game, self.pos(), &self.view));
        s
    }

    /// "you (south)", "computer (north)", "south" for two people.
    fn who(&self, p: Player) -> String {
        if self.against_computer() {
            format!("{} ({})", self.view.name(p), p.name())
        } else {
            p.name().to_string()
        }
    }

    fn main_loop(&mut self) -> u8 {
        let intro = if self.quiet {
            format!("type {}; {QUIET_COMMANDS}", what_to_type(&self.game))
        } else {
            self.help()
        };
        out(&format!("{}\n{intro}\n", self.game.name));
        if !self.plies.is_empty() {
            let noun = if self.plies.len() == 1 { "move" } else { "moves" };
            out(&format!("{} {noun} played so far: {}\n", self.plies.len(), self.move_list()));
        }
        out(&self.board());
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let pos = self.pos().clone();
            let moves = self.game.legal_moves(&pos);
            let finished = pos.over || moves.is_empty();
            if finished {
                // The result is said once, when the game comes to it (again after an undo and redo).
                if self.ended_at != Some(self.plies.len()) {
                    self.ended_at = Some(self.plies.len());
                    if pos.over {
                        out(&board::result_line(&self.game, &pos, &self.view));
                    } else {
                        out(&format!(
                            "{} has no legal move and no rule of this game says what happens now; the game stops here\n",
                            self.who(pos.to_move)
                        ));
                    }
                }
            } else if let Seat::Computer(spec) = self.seats[pos.to_move.index()] {
                self.computer_moves(spec);
                continue;
            }
            // A person's turn, or the game is finished and they may take moves back or save it.
            let prompt = if finished && pos.over {
                "game over: `undo`, `save FILE` or `quit`: ".to_string()
            } else if finished {
                "no move can be played: `undo`, `save FILE` or `quit`: ".to_string()
            } else if self.quiet && self.against_computer() {
                "your move: ".to_string()
            } else if self.quiet {
                format!("{} to move: ", self.who(pos.to_move))
            } else {
                format!(
                    "{} to move ({}): ",
                    self.who(pos.to_move),
                    super::run::names(&self.game, &pos, &moves)
                )
            };
            out(&prompt);
            let mut bytes = Vec::new();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => {
                    out("\n");
                    self.save_on_leaving();
                    if finished && pos.over {
                        return 0;
                    }
                    out("input ended before the game did\n");
                    return 1;
                }
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            let words = match clean(&line) {
                Input::Control => {
                    out(&format!(
                        "that line held arrow keys or other control keys, which `play` does not use, so it was not understood; type {} or `help`\n",
                        what_to_type(&self.game)
                    ));
                    continue;
                }
                Input::Words(w) => w,
            };
            let Some(first) = words.first() else {
                out(&self.board());
                continue;
            };
            let count = || -> Result<usize, String> {
                match words.get(1) {
                    None => Ok(1),
                    Some(n) => n
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| format!("`{}` is not a number of moves", echo(n))),
                }
            };
            match first.as_str() {
                "q" | "quit" | "exit" | "stop" => {
                    self.save_on_leaving();
                    out("stopped\n");
                    return 0;
                }
                "?" | "h" | "help" => out(&self.help()),
                "hint" if !finished => {
                    let text = self.hint();
                    out(&text);
                }
                "moves" if !finished => out(&format!("legal moves: {}\n", super::run::names(&self.game, &pos, &moves))),
                "board" => out(&self.board()),
                "undo" | "u" | "back" => match count() {
                    Ok(n) => self.undo(n),
                    Err(e) => out(&format!("{e}; write `undo` or `undo 3`\n")),
                },
                "redo" => match count() {
                    Ok(n) => self.redo(n),
                    Err(e) => out(&format!("{e}; write `redo` or `redo 3`\n")),
                },
                "save" => self.save_command(&line),
                word if finished => out(&format!(
                    "the game is over, so `{}` does nothing; `undo`, `save FILE` or `quit`\n",
                    echo(word)
                )),
                word => match record::parse_move(&self.game, &pos, word) {
                    Some(_) if words.len() == 1 => self.person_moves(word),
                    // A pit written without its way or choices: the moves it could be, or why it has none.
                    None if words.len() == 1
                        && let Some(m) = record::meant(&self.game, &pos, word) =>
                    {
                        if m.stuck {
                            out(&format!("{}; {}; try again\n", m.problem, m.help));
                        } else {
                            out(&format!("`{}` {}: {}\n", echo(word), m.problem, m.help));
                        }
                    }
                    _ => {
                        let more = if self.quiet {
                            QUIET_COMMANDS
                        } else {
                            "type `help` for the commands\n"
                        };
                        out(&format!(
                            "`{}` is not understood: type {} ({}); {more}",
                            echo(&words.join(" ")),
                            what_to_type(&self.game),
                            super::run::names(&self.game, &pos, &moves)
                        ));
                    }
                },
            }
        }
    }

    /// The list of commands, the first (a move) in the game's own notation.
    fn help(&self) -> String {
        let (words, examples) = record::notation(&self.game, false);
        let example = &examples[0];
        let mut text = String::from("commands (upper or lower case):\n");
        // The move's line, wrapped to the commands' column.
        let mut line = String::from("  a move         sow a pit:");
        for word in format!("write {words} (`{example}`)").split(' ') {
            if line.len() + 1 + word.len() > 96 {
                text.push_str(&line);
                text.push('\n');
                line = format!("{:17}", "");
            } else {
                line.push(' ');
            }
            line.push_str(word);
        }
        text.push_str(&line);
        text.push('\n');
        text.push_str(HELP);
        text
    }

    fn move_list(&self) -> String {
        self.plies.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(" ")
    }

    /// Plays a move typed by a person; a new move forgets the moves taken back.
    fn person_moves(&mut self, text: &str) {
        match record::play(&self.game, self.pos(), text) {
            Ok(ply) => {
                self.redo.clear();
                self.announce(&ply, None);
                self.push(ply);
            }
            Err(why) => out(&format!(
                "{} cannot be played: {why}; try again\n",
                crate::engine::pit_word(text.trim())
            )),
        }
    }

    fn computer_moves(&mut self, spec: Spec) {
        let pos = self.pos().clone();
        let label = format!("{} is thinking", self.who(pos.to_move));
        let game = &self.game;
        let rng = &mut self.rng;
        let db = self.db.as_ref();
        let choice = thinking(&label, || choose_with(game, &pos, spec, false, rng, db));
        let k = choice.expect("the caller checked that there is a legal move").pit;
        match record::play(game, &pos, &record::move_text(game, &pos, k)) {
            Ok(ply) => {
                self.redo.clear();
                self.announce(&ply, Some(spec));
                self.push(ply);
            }
            Err(why) => out(&format!(
                "the computer chose a move the engine refuses ({why}); this is a bug in sowlang\n"
            )),
        }
    }

    /// Keeps a move played, marks it and draws the board; saves when asked to after every move.
    fn push(&mut self, ply: Ply) {
        self.plies.push(ply);
        self.mark_last();
        out(&self.board());
        if self.autosave {
            self.save(None, true);
        }
    }

    /// Says once who played what, then what happened: step by step, or in one line when quiet.
    fn announce(&mut self, ply: &Ply, computer: Option<Spec>) {
        let who = match computer {
            _ if self.quiet => self.view.name(ply.mover).to_string(),
            Some(spec) => format!("{} ({}, {spec})", self.view.name(ply.mover), ply.mover.name()),
            None => self.who(ply.mover),
        };
        let verb = if self.view.name(ply.mover) == "you" { "play" } else { "plays" };
        let before = self.pos();
        if self.quiet {
            let what = effects(&self.game, before, ply, &self.view);
            let what = if what.is_empty() {
                String::new()
            } else {
                format!(": {}", what.join(", "))
            };
            out(&format!("{who} {verb} {}{what}\n", crate::engine::pit_word(&ply.text)));
        } else {
            // The engine's own first line ("south plays pit 3") would say it a second time.
            let steps: Vec<Event> = ply.events.iter().filter(|e| !matches!(e, Event::Move { .. })).cloned().collect();
            // The stage whose rules the move followed, in the game's words (`phase "namua"`).
            let phase = ply.events.iter().find_map(|e| match e {
                Event::Move { phase, .. } if !phase.is_empty() => Some(format!(" ({phase})")),
                _ => None,
            });
            let head = format!("{who} {verb} {}{}", crate::engine::pit_word(&ply.text), phase.unwrap_or_default());
            let mut lines = vec![head];
            lines.extend(self.game.narrate(&steps));
            self.game.gloss(&mut lines, &mut self.said);
            for line in lines {
                out(&format!("{line}\n"));
            }
        }
    }

    /// Takes back `n` of the person's moves; against the computer, its replies go too, so that it is
    /// the person's turn again.
    fn undo(&mut self, n: usize) {
        let mut taken = Vec::new();
        for _ in 0..n {
            if !self.plies.iter().any(|p| self.is_person(p.mover)) {
                break;
            }
            while let Some(ply) = self.plies.pop() {
                let person = self.is_person(ply.mover);
                taken.push(format!("{} {}", ply.mover.name(), ply.text));
                self.redo.push(ply.text);
                if person && self.is_person(self.pos().to_move) {
                    break;
                }
            }
        }
        if taken.is_empty() {
            out(if self.against_computer() {
                "there is no move of yours to take back\n"
            } else {
                "there is no move to take back\n"
            });
            return;
        }
        self.mark_last();
        self.ended_at = None;
        let noun = if taken.len() == 1 { "move" } else { "moves" };
        out(&format!("took back {} {noun} ({})\n", taken.len(), taken.join(", ")));
        out(&self.board());
        if self.autosave {
            self.save(None, true);
        }
    }

    /// Plays again `n` of the person's moves taken back, with the computer's replies that followed.
    fn redo(&mut self, n: usize) {
        let mut played = Vec::new();
        'steps: for _ in 0..n {
            while let Some(text) = self.redo.pop() {
                match record::play(&self.game, self.pos(), &text) {
                    Ok(ply) => {
                        played.push(format!("{} {}", ply.mover.name(), ply.text));
                        self.plies.push(ply);
                    }
                    Err(_) => {
                        self.redo.clear();
                        break 'steps;
                    }
                }
                let pos = self.pos();
                if self.redo.is_empty() || pos.over || self.is_person(pos.to_move) {
                    break;
                }
            }
        }
        if played.is_empty() {
            out("there is nothing to redo\n");
            return;
        }
        self.mark_last();
        let noun = if played.len() == 1 { "move" } else { "moves" };
        out(&format!("played again {} {noun} ({})\n", played.len(), played.join(", ")));
        out(&self.board());
        if self.autosave {
            self.save(None, true);
        }
    }

    /// `save [--with-rules] [FILE]`, as typed on `line`.
    fn save_command(&mut self, line: &str) {
        // The file name keeps its case and inner spaces: take it from the line as typed.
        let raw = line.trim();
        let mut rest = raw[raw.find(char::is_whitespace).unwrap_or(raw.len())..].trim();
        if let Some(after) = rest.strip_prefix("--with-rules")
            && (after.is_empty() || after.starts_with(char::is_whitespace))
        {
            self.saved.with_rules = true;
            rest = after.trim();
        }
        let to = (!rest.is_empty()).then(|| PathBuf::from(rest));
        self.save(to, false);
    }

    /// Leaving a game loaded from a record (`quit`, or the input ended) saves it where it was loaded
    /// from (or last saved), when moves were played or taken back since.
    fn save_on_leaving(&mut self) {
        let moves: Vec<String> = self.plies.iter().map(|p| p.text.clone()).collect();
        if self.saved.loaded_record && moves != self.saved.moves && !self.autosave {
            self.save(None, false);
        }
    }

    /// A name for a record when `save` is given none: `RULES-N.txt` in the working folder, RULES the
    /// rule file's name and N the first number no file has, so that nothing is ever replaced.
    fn fresh_record_name(&self) -> Option<PathBuf> {
        let stem = self.rules.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
        (1..10_000u32)
            .map(|n| PathBuf::from(format!("{stem}-{n}.txt")))
            .find(|p| std::fs::symlink_metadata(p).is_err())
    }

    /// Saves the game as a record at `to`, or where the last save (or `--save`, `--load`) went, or
    /// under a new name ([`Session::fresh_record_name`]); `quietly` (the save after every move of
    /// `--save`) says nothing unless it fails.
    fn save(&mut self, to: Option<PathBuf>, quietly: bool) {
        let Some(path) = to.or_else(|| self.save_to.clone()).or_else(|| self.fresh_record_name()) else {
            out("say where: `save FILE` (for example `save game.txt`)\n");
            return;
        };
        let players = self.seats.map(|s| match s {
            Seat::Person => "human".to_string(),
            Seat::Computer(spec) => spec.to_string(),
        });
        let pos = self.pos();
        let draft = Draft {
            rules: &self.rules,
            sets: &self.sets,
            first: self.start.to_move,
            from: self.from.as_deref(),
            players,
            moves: self.plies.iter().map(|p| p.text.clone()).collect(),
            result: record::result_text(&self.game, pos),
            rules_hash: self.saved.rules_hash.clone(),
            rules_text: self.saved.with_rules.then_some(self.saved.rules_text.as_str()),
        };
        if super::output::would_clobber(&path, record::HEADER).is_some() {
            out(&format!(
                "did not save: {} exists and is not a game record; choose another name\n",
                path.display()
            ));
            return;
        }
        let text = draft.render(&path);
        match super::output::write_atomic(&path, text.as_bytes()) {
            Ok(()) => {
                if !quietly {
                    out(&format!("saved the game in {}\n", path.display()));
                }
                self.saved.moves = draft.moves;
                self.save_to = Some(path);
            }
            Err(e) => out(&format!("could not save the game in {}: {e}\n", path.display())),
        }
    }
}

/// Runs `work`, showing `label` and a spinner on stderr meanwhile when a person is watching (stdout
/// and stderr both terminals); off a terminal it prints nothing, so piped output stays clean.
fn thinking<T>(label: &str, work: impl FnOnce() -> T) -> T {
    if !(std::io::stdout().is_terminal() && std::io::stderr().is_terminal()) {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let spinner = scope.spawn(|| {
            let frames = ['|', '/', '-', '\\'];
            let started = Instant::now();
            let mut i = 0;
            // Short searches finish before anything is drawn, so a quick reply shows no flicker.
            while !done.load(Ordering::Relaxed) {
                if started.elapsed() > Duration::from_millis(150) {
                    let mut e = std::io::stderr().lock();
                    let _ = write!(e, "\r{label}... {} {:.0} s ", frames[i % 4], started.elapsed().as_secs_f64());
                    let _ = e.flush();
                    i += 1;
                }
                // Woken at once when the work is done, so the indicator never delays the reply.
                std::thread::park_timeout(Duration::from_millis(100));
            }
            if started.elapsed() > Duration::from_millis(150) {
                let mut e = std::io::stderr().lock();
                let _ = write!(e, "\r\x1b[2K");
                let _ = e.flush();
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        spinner.thread().unpark();
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_sequences_make_a_line_unusable() {
        assert_eq!(clean("\u{1b}[A\n"), Input::Control);
        assert_eq!(clean("3\u{1b}[D\n"), Input::Control);
        assert_eq!(clean("\u{1b}OB"), Input::Control);
        assert_eq!(clean("q\u{7f}"), Input::Control);
        assert_eq!(clean("bad \u{fffd} utf-8"), Input::Control);
        assert_eq!(clean("  Undo 2\r\n"), Input::Words(vec!["undo".into(), "2".into()]));
        assert_eq!(clean("\tHINT"), Input::Words(vec!["hint".into()]));
    }

    #[test]
    fn echoed_words_are_short() {
        assert_eq!(echo("abc"), "abc");
        assert_eq!(echo(&"x".repeat(100)), format!("{}...", "x".repeat(24)));
    }
}
