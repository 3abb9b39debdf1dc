//! What happened during a move, step by step, and its narration in plain words (`run --trace`).

use super::{Cell, Game, Outcome, Player};

/// Why a seed passed over a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passed {
    /// It is the pit the move started from (`skip origin`).
    Origin,
    /// It is closed.
    Closed,
    /// The phase's `skip when` rule holds of it.
    Stated,
}

/// One step of a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A player starts a move.
    Move {
        /// Who.
        player: Player,
        /// Which pit (1-based).
        pit: usize,
        /// The phase whose rules apply (empty = the usual rules).
        phase: String,
        /// The mover's answers to the choices the move meets, in words (`a8`, `cw`, `3`).
        choices: Vec<String>,
    },
    /// Seeds picked up to sow a lap.
    PickUp {
        /// From where.
        cell: Cell,
        /// How many.
        seeds: u32,
        /// Which lap (1 = the first).
        lap: u32,
    },
    /// A pit passed over.
    Skip {
        /// Which.
        cell: Cell,
        /// Why.
        why: Passed,
    },
    /// Seeds sown, one into each cell listed.
    Sown {
        /// Lap.
        lap: u32,
        /// Cells, in order.
        cells: Vec<Cell>,
    },
    /// A lap's last seed fell.
    LapEnds {
        /// Where.
        last: Cell,
        /// The seeds there now.
        count: u32,
    },
    /// A rule took seeds.
    Take {
        /// The rule's name.
        rule: String,
        /// From where.
        cell: Cell,
        /// How many.
        seeds: u32,
        /// Into whose store.
        to: Player,
    },
    /// A rule took a store into itself: its seeds stay where they are.
    TakeKept {
        /// The rule's name.
        rule: String,
        /// The store.
        cell: Cell,
        /// The seeds it holds.
        seeds: u32,
    },
    /// A rule took seeds into the mover's hand, to sow them again.
    TakeInHand {
        /// The rule's name.
        rule: String,
        /// From where.
        cell: Cell,
        /// How many.
        seeds: u32,
        /// Whose hand.
        player: Player,
    },
    /// Seeds a rule took are sown again, a lap of their own.
    SowAgain {
        /// How many.
        seeds: u32,
        /// The cell the first seed falls into.
        from: Cell,
        /// Which lap (2 or more).
        lap: u32,
    },
    /// A rule moved seeds between pits.
    MoveSeeds {
        /// The rule's name.
        rule: String,
        /// How many.
        seeds: u32,
        /// From.
        from: Cell,
        /// To.
        to: Cell,
    },
    /// A `move` named more seeds than its pit held (or fewer than 0): what there was is moved.
    ShortMove {
        /// The rule's name.
        rule: String,
        /// The count the rule gave.
        asked: i64,
        /// The seeds moved.
        moved: u32,
        /// From.
        from: Cell,
    },
    /// A rule claimed a pit.
    Claim {
        /// The rule's name.
        rule: String,
        /// Which pit.
        cell: Cell,
        /// For whom.
        player: Player,
    },
    /// A rule closed a pit (took it out of play) or opened it again.
    Close {
        /// The rule's name.
        rule: String,
        /// Which pit.
        cell: Cell,
        /// Closed (else opened).
        closing: bool,
    },
    /// A rule changed a memory value.
    Remember {
        /// The rule's name.
        rule: String,
        /// The memory's name.
        name: String,
        /// Whose value it is.
        keeper: Keeper,
        /// The value now: a number, or a pit's cell (`NO_PIT` for none) when `holds_pit`.
        value: i64,
        /// The memory holds a pit.
        holds_pit: bool,
        /// The value was another before (else the rule set it to what it was).
        changed: bool,
    },
    /// A rule with nothing to carry out held: its name says what that means (`after move "a takasa"
    /// { when taken == 0 }`).
    Said {
        /// The rule's name.
        rule: String,
    },
    /// The move is over, and why.
    TurnEnds {
        /// In words.
        why: String,
    },
    /// The player to move passes the turn: unable to move (`pass when unable`), or by choice, as
    /// the rules allow (`pass when COND`, the move `pass`).
    Pass {
        /// Who passes.
        player: Player,
        /// The pass was the player's move (else they could not move).
        chosen: bool,
    },
    /// The mover moves again.
    AnotherMove {
        /// Who.
        player: Player,
    },
    /// A grand slam happened; `undone` = its captures were put back.
    GrandSlam {
        /// Were the captures put back?
        undone: bool,
    },
    /// The mover could have fed the opponent and did not.
    FeedingPenalty {
        /// Who moved.
        mover: Player,
        /// Who receives the seeds left.
        receiver: Player,
    },
    /// An end rule ended the game (or the round).
    GameEnds {
        /// The rule's name.
        rule: String,
        /// What happened to the seeds left.
        remaining: &'static str,
        /// How many seeds were left in the pits.
        left: u32,
        /// How many of them went into the stores.
        moved: u32,
        /// How many were in pits that `remaining ... from PITS` leaves out (they stay and count for nobody).
        outside: u32,
        /// The pits nobody owns whose seeds stayed there (with `owner`) or count for nobody (with
        /// `in place`), with their seeds.
        unowned: Vec<(Cell, u32)>,
        /// Scores, south then north.
        scores: [u32; 2],
        /// The result of the game (or round).
        outcome: Outcome,
        /// The end rule stated the result (else the scores gave it).
        stated: bool,
        /// The round, in a match.
        round: Option<u32>,
    },
    /// The next round was set up.
    RoundSetup {
        /// Its number.
        round: u32,
        /// The cells.
        cells: Vec<u32>,
        /// Closed pits.
        closed: Vec<bool>,
        /// Claimed pits.
        claimed: Vec<Option<Player>>,
        /// Who opens the round, when the rules say who does (else the file's `first`, as always).
        opener: Option<Player>,
    },
    /// The match is over.
    MatchEnds {
        /// Who won it.
        winner: Outcome,
        /// Rounds won, south then north.
        rounds_won: [u32; 2],
        /// Seeds held, south then north.
        scores: [u32; 2],
    },
}

/// Whose memory value a rule changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeper {
    /// A player's.
    Player(Player),
    /// A pit's.
    Pit(Cell),
    /// The whole game's.
    Game,
}

/// Collects events when narration is wanted; does nothing otherwise.
pub(crate) struct Log {
    pub events: Vec<Event>,
}

impl Log {
    pub fn on() -> Self {
        Log { events: Vec::new() }
    }
}

/// Where the steps of a move go: a [`Log`] keeps them, [`Silent`] drops them. The choice is made when
/// the engine is compiled, so a move played without narration carries no test for it.
pub(crate) trait Narrate {
    /// The steps are kept.
    const ON: bool;
    /// Records the event `e` makes, only when narrating: building an event may allocate.
    fn push(&mut self, e: impl FnOnce() -> Event);
    /// How many events were recorded so far (always 0 when none are kept).
    fn len(&self) -> usize {
        0
    }
    fn enabled(&self) -> bool {
        Self::ON
    }
    fn skip(&mut self, cell: Cell, why: Passed) {
        self.push(|| Event::Skip { cell, why });
    }
}

impl Narrate for Log {
    const ON: bool = true;
    #[inline]
    fn push(&mut self, e: impl FnOnce() -> Event) {
        self.events.push(e());
    }
    fn len(&self) -> usize {
        self.events.len()
    }
}

/// No narration.
pub(crate) struct Silent;

impl Narrate for Silent {
    const ON: bool = false;
    #[inline(always)]
    fn push(&mut self, _: impl FnOnce() -> Event) {}
}

fn seeds(n: u32) -> String {
    if n == 1 { "1 seed".into() } else { format!("{n} seeds") }
}

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::South => "south wins",
        Outcome::North => "north wins",
        Outcome::Draw => "it is a draw",
    }
}

/// A number of the seeds just named, with the verb after it agreeing: `1 goes`, `3 go`.
fn seeds_then(n: u32, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

impl Game {
    /// What an end rule did with the seeds left in the pits, after a `; ` (empty when none were left):
    /// how many went to the stores, and how many stay on the board and why (a pit nobody owns, or one
    /// that `from` leaves out), so that the words add up to the seeds each player is given.
    fn seeds_left_words(&self, remaining: &str, left: u32, moved: u32, outside: u32, unowned: &[(Cell, u32)]) -> String {
        if left == 0 {
            return String::new();
        }
        let in_unowned: u32 = unowned.iter().map(|&(_, n)| n).sum();
        // Where seeds in pits nobody owns are: the pits named, or how many when there are many.
        let unowned_pits = || {
            if unowned.len() > 3 {
                format!("in {} shared pits, which nobody owns", unowned.len())
            } else {
                let names: Vec<String> = unowned.iter().map(|&(c, _)| self.describe(c)).collect();
                format!("in {}, which nobody owns", crate::diagnostic::word_list(&names, "and"))
            }
        };
        if remaining == "in place" {
            let owned = left - in_unowned;
            return match (owned, in_unowned) {
                (1, 0) => "; the 1 seed left counts for the owner of its pit".into(),
                (n, 0) => format!("; the {} left count for the owners of their pits", seeds(n)),
                (0, 1) => format!("; the 1 seed left is {}, and counts for nobody", unowned_pits()),
                (0, n) => format!("; the {} left are {}, and count for nobody", seeds(n), unowned_pits()),
                (o, n) => format!(
                    "; of the {} left, {} and {} for nobody ({})",
                    seeds(left),
                    seeds_then(o, "counts for the owner of its pit", "count for the owners of their pits"),
                    seeds_then(n, "counts", "count"),
                    unowned_pits()
                ),
            };
        }
        // The part that went to the stores, as a verb phrase after the number.
        let (go_one, go_many) = match remaining {
            "owner" => ("goes to the owner of its pit", "go to the owners of their pits"),
            "to" => ("is handed over", "are handed over"),
            "split" => ("is split evenly", "are split evenly"),
            _ => ("", ""),
        };
        if remaining == "uncounted" || go_one.is_empty() {
            return if left == 1 {
                "; the 1 seed left counts for nobody".into()
            } else {
                format!("; the {} left count for nobody", seeds(left))
            };
        }
        if moved == left {
            return if left == 1 {
                format!("; the 1 seed left {go_one}")
            } else {
                format!("; the {} left {go_many}", seeds(left))
            };
        }
        // Some seeds stay on the board: say where (each place they stay says why they count for nobody).
        let mut stays = Vec::new();
        if in_unowned > 0 {
            stays.push((in_unowned, unowned_pits()));
        }
        if outside > 0 {
            stays.push((outside, "in the pits the rule leaves out".to_string()));
        }
        let staying = left - moved;
        let (stay, count) = if staying == 1 { ("stays", "counts") } else { ("stay", "count") };
        let where_ = match stays.as_slice() {
            [(_, one)] => format!("{stay} {one}, and {count} for nobody"),
            _ => {
                let each: Vec<String> = stays.iter().map(|(n, w)| format!("{n} {w}")).collect();
                format!("{stay} on the board and {count} for nobody ({})", each.join("; "))
            }
        };
        if moved == 0 {
            let all = if left == 1 {
                "the 1 seed left".to_string()
            } else {
                format!("the {} left", seeds(left))
            };
            return format!("; {all} {where_}");
        }
        format!(
            "; of the {} left, {} and {staying} {where_}",
            seeds(left),
            seeds_then(moved, go_one, go_many)
        )
    }

    /// Explains the game's own words (`word "NAME" means "TEXT"`) in lines of its narration, each
    /// the first time it is said: the line that says it first gets `(NAME: TEXT)`. `said` holds
    /// the words said before (one flag a word), kept by the caller across the moves of one game.
    pub fn gloss(&self, lines: &mut [String], said: &mut Vec<bool>) {
        said.resize(self.words.len(), false);
        for line in lines.iter_mut() {
            let mut told = String::new();
            for (i, (word, means)) in self.words.iter().enumerate() {
                if !said[i] && crate::check::words::says(line, word) {
                    said[i] = true;
                    told.push_str(&format!(" ({word}: {means})"));
                }
            }
            line.push_str(&told);
        }
    }

    /// One line of narration per event, in words a teacher could read aloud.
    pub fn narrate(&self, events: &[Event]) -> Vec<String> {
        let mut lines = Vec::new();
        for e in events {
            let line = match e {
                Event::Move {
                    player,
                    pit,
                    phase,
                    choices,
                } => {
                    let mut l = format!("{} plays pit {}", player.name(), self.move_name(super::move_base(*pit)));
                    if !choices.is_empty() {
                        l.push_str(&format!(", choosing {}", choices.join(" then ")));
                    }
                    if !phase.is_empty() {
                        l.push_str(&format!(" (phase \"{phase}\")"));
                    }
                    l
                }
                Event::PickUp { cell, seeds: n, lap } if *lap == 1 => format!("  picks up {} from {}", seeds(*n), self.describe(*cell)),
                Event::PickUp { cell, seeds: n, lap } => {
                    format!("  lap {lap}: picks up {} from {} and sows on", seeds(*n), self.describe(*cell))
                }
                Event::Skip { cell, why: Passed::Origin } => format!("  skips {}, the pit the move started from", self.describe(*cell)),
                Event::Skip { cell, why: Passed::Closed } => format!("  skips {}, which is closed", self.describe(*cell)),
                Event::Skip { cell, why: Passed::Stated } => format!("  skips {}, as the sowing rule says", self.describe(*cell)),
                Event::Sown { cells, .. } => {
                    let names: Vec<String> = cells.iter().map(|c| self.describe(*c)).collect();
                    if names.len() == 1 {
                        format!("  sows one seed into {}", names[0])
                    } else {
                        format!("  sows one seed each into {}", names.join(", "))
                    }
                }
                Event::LapEnds { last, count } => format!(
                    "  the last seed falls in {}, which now holds {}",
                    self.describe(*last),
                    seeds(*count)
                ),
                Event::Take { rule, cell, seeds: 0, to } => {
                    format!("  \"{rule}\": {} holds no seeds, so {} takes none", self.describe(*cell), to.name())
                }
                Event::Take { rule, cell, seeds: n, to } => {
                    format!("  \"{rule}\": {} takes {} from {}", to.name(), seeds(*n), self.describe(*cell))
                }
                Event::TakeKept { rule, cell, seeds: n } => {
                    format!(
                        "  \"{rule}\": takes {} into {}, where they are already",
                        seeds(*n),
                        self.describe(*cell)
                    )
                }
                Event::TakeInHand { rule, cell, seeds: 0, .. } => {
                    format!("  \"{rule}\": {} holds no seeds, so none are sown again", self.describe(*cell))
                }
                Event::TakeInHand {
                    rule,
                    cell,
                    seeds: n,
                    player,
                } => format!(
                    "  \"{rule}\": {} picks up {} from {} to sow {} again",
                    player.name(),
                    seeds(*n),
                    self.describe(*cell),
                    if *n == 1 { "it" } else { "them" }
                ),
                Event::SowAgain { seeds: n, from, lap } => {
                    format!("  lap {lap}: sows the {} taken on, from {}", seeds(*n), self.describe(*from))
                }
                Event::MoveSeeds { rule, seeds: n, from, to } => format!(
                    "  \"{rule}\": moves {} from {} to {}",
                    seeds(*n),
                    self.describe(*from),
                    self.describe(*to)
                ),
                Event::ShortMove { rule, asked, moved, from } if *asked < 0 => {
                    format!(
                        "  \"{rule}\": asks to move {asked} seeds from {}, so nothing is moved",
                        self.describe(*from)
                    )
                }
                Event::ShortMove { rule, asked, moved, from } => format!(
                    "  \"{rule}\": asks to move {}, but {} held only {}",
                    seeds(u32::try_from(*asked).unwrap_or(u32::MAX)),
                    self.describe(*from),
                    seeds(*moved)
                ),
                Event::Claim { rule, cell, player } => format!("  \"{rule}\": {} now belongs to {}", self.describe(*cell), player.name()),
                Event::Close { rule, cell, closing } => format!(
                    "  \"{rule}\": {} is {}",
                    self.describe(*cell),
                    if *closing {
                        "closed: out of play, its seeds stay in it"
                    } else {
                        "open again"
                    }
                ),
                Event::Remember {
                    rule,
                    name,
                    keeper,
                    value,
                    holds_pit,
                    changed,
                } => {
                    let whose = match keeper {
                        Keeper::Player(p) => p.name().to_string(),
                        Keeper::Pit(c) => self.describe(*c),
                        Keeper::Game => "the game".to_string(),
                    };
                    let value = match (*holds_pit, Cell::try_from(*value)) {
                        (true, Ok(c)) if c != crate::compile::ir::NO_PIT => self.describe(c),
                        (true, _) => "no pit".to_string(),
                        (false, _) => value.to_string(),
                    };
                    let is = if *changed { "is now" } else { "stays" };
                    format!("  \"{rule}\": {whose}'s {name} {is} {value}")
                }
                Event::TurnEnds { why } => format!("  the move ends: {why}"),
                Event::Said { rule } => format!("  \"{rule}\""),
                Event::AnotherMove { player } => format!("  {} moves again", player.name()),
                Event::Pass { player, chosen: false } => format!("{} cannot move and passes", player.name()),
                Event::Pass { player, chosen: true } => format!("{} passes", player.name()),
                Event::GrandSlam { undone: true } => {
                    "  grand slam: the move would leave the opponent no seeds, so the captured seeds go back".into()
                }
                Event::GrandSlam { undone: false } => "  grand slam: every seed of the opponent is captured".into(),
                Event::FeedingPenalty { mover, receiver } => format!(
                    "  {} could have given the opponent seeds and did not: the seeds left go to {}",
                    mover.name(),
                    receiver.name()
                ),
                Event::GameEnds {
                    rule,
                    remaining,
                    left,
                    moved,
                    outside,
                    unowned,
                    scores,
                    outcome,
                    stated,
                    round,
                } => {
                    let what = match round {
                        Some(r) => format!("round {r} ends"),
                        None => "the game ends".into(),
                    };
                    let rest = self.seeds_left_words(remaining, *left, *moved, *outside, unowned);
                    if *stated {
                        format!(
                            "{what} by \"{rule}\"{rest}: {}, as the rule says (seeds held: south {}, north {})",
                            outcome_words(*outcome),
                            scores[0],
                            scores[1]
                        )
                    } else {
                        format!(
                            "{what} by \"{rule}\"{rest}: south {}, north {}: {}",
                            scores[0],
                            scores[1],
                            outcome_words(*outcome)
                        )
                    }
                }
                Event::RoundSetup {
                    round,
                    cells,
                    closed,
                    claimed,
                    opener,
                } => {
                    let n = self.pit_count();
                    let row = |p: Player| {
                        self.row(p)
                            .map(|c| match (closed[c], claimed[c]) {
                                (true, _) => "closed".to_string(),
                                (false, Some(owner)) if owner != p => format!("{} ({}'s)", cells[c], owner.name()),
                                _ => cells[c].to_string(),
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let opens = opener.map_or(String::new(), |p| format!("; {} opens it", p.name()));
                    // A ring owned by nobody has no rows: the set-up filled the ring.
                    let pits = if self.side_pits() == 0 {
                        let ring: Vec<String> = self
                            .shared_pits()
                            .map(|c| if closed[c] { "closed".to_string() } else { cells[c].to_string() })
                            .collect();
                        format!("the ring [{}]", ring.join(" "))
                    } else {
                        format!("south [{}], north [{}]", row(Player::South), row(Player::North))
                    };
                    format!(
                        "round {round} is set up: {pits}; stores south {}, north {}{opens}",
                        cells[n],
                        cells[n + 1]
                    )
                }
                Event::MatchEnds {
                    winner,
                    rounds_won,
                    scores,
                } => format!(
                    "the match is over (rounds won: south {}, north {}; seeds: south {}, north {}): {}",
                    rounds_won[0],
                    rounds_won[1],
                    scores[0],
                    scores[1],
                    outcome_words(*winner)
                ),
            };
            lines.push(line);
        }
        lines
    }
}
