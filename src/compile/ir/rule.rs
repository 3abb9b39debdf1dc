//! A phase's rules as the engine reads them: `forbid` rules, the rules of each moment of a move (their
//! conditions, actions and what happens next) and the shared opening of a run of capture rules.

use super::{Code, PitSet, QuickAct};

/// A forbidden move.
#[derive(Debug, Clone)]
pub struct Forbid {
    /// What the player is told.
    pub reason: String,
    /// When the origin is forbidden.
    pub when: Code,
    /// The condition reads what the move did (`taken`), so it is tested on the board after the
    /// move, which is sown on a copy to find out.
    pub after: bool,
}

/// A trigger or capture rule.
#[derive(Clone)]
pub struct Rule {
    /// Name.
    pub name: String,
    /// Condition.
    pub when: Code,
    /// Actions.
    pub actions: Vec<Action>,
    /// What happens next.
    pub then: Then,
    /// Derived from `actions` ([`Rule::reads_board_in_actions`]): the actions may read the board, so
    /// they read it as the rule fired, from a copy. Left out of `Debug` (which the endgame
    /// databases' key reads), as what follows from the rules is.
    pub reads_board: bool,
    /// Derived from `actions` ([`Rule::quick_actions`]): the actions as steps the engine carries out
    /// without the evaluator, when every one is of a kind it knows so. Left out of `Debug` too.
    pub quick: Option<Box<[QuickAct]>>,
    /// Derived when the file is compiled: the actions meet one choice at most (the file has no
    /// `choose`, and at most one `sow taken ... either`), so that where the move's given answers
    /// are not all read, the rule's choice is a given one. Left out of `Debug` too.
    pub one_choice: bool,
    /// Derived when the file is compiled: where this rule is one of a run of rules read in turn
    /// whose conditions open alike, that opening and the rest ([`Guard`]). Left out of `Debug` too.
    pub guard: Option<Box<Guard>>,
}

/// A rule's condition as `head and rest`, where `head` opens the condition of every rule of its run
/// (`compile::guard`): asked once for the run, by the first of its rules not answered otherwise.
#[derive(Clone)]
pub struct Guard {
    /// The condition the run's rules open with.
    pub head: Code,
    /// What this rule asks after it.
    pub rest: Code,
    /// The run's first rule's place in its list: the rules of one run share it.
    pub run: usize,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("name", &self.name)
            .field("when", &self.when)
            .field("actions", &self.actions)
            .field("then", &self.then)
            .finish()
    }
}

impl Rule {
    /// Might the actions read the board (seeds, claims, closures, memory), rather than only where
    /// pits lie and the state of the move? Only a take of named pits and sets without a series and
    /// a `sow taken` are looked into; any other action counts as reading it.
    pub fn reads_board_in_actions(actions: &[Action]) -> bool {
        let pits = |pits: &[PitsExpr]| {
            pits.iter().any(|p| match p {
                PitsExpr::Pit(c) => c.reads_board(),
                PitsExpr::Set(s) => s.reads_board(),
            })
        };
        actions.iter().any(|a| match a {
            Action::Take { pits: p, to, series: None } => pits(p) || matches!(to, Receiver::Player(c) if c.reads_board()),
            Action::SowTaken { pit, .. } => pit.as_ref().is_some_and(Code::reads_board),
            _ => true,
        })
    }

    /// Some choice of the rule names `word` among its options (`choose(1 as "stop", 0 as "safari")`).
    pub fn names_option(&self, word: &str) -> bool {
        let pits = |pits: &[PitsExpr]| pits.iter().any(|p| matches!(p, PitsExpr::Pit(c) if c.names_option(word)));
        self.when.names_option(word)
            || self.actions.iter().any(|a| match a {
                Action::Take { pits: p, .. } | Action::Close { pits: p, .. } => pits(p),
                Action::Move { count, from, to } => {
                    count.as_ref().is_some_and(|c| c.names_option(word)) || pits(from) || to.names_option(word)
                }
                Action::Claim { pits: p, player } => pits(p) || player.names_option(word),
                Action::Remember { owner, value, .. } => owner.names_option(word) || value.names_option(word),
                Action::SowTaken { pit, .. } => pit.as_ref().is_some_and(|c| c.names_option(word)),
                Action::TakeSome { count, pit, .. } => count.names_option(word) || pit.names_option(word),
            })
    }
}

/// What happens after a capture rule. Ordered by strength: when several rules of one moment say
/// what comes next, the strongest stands (another move over the end of the move over going on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Then {
    /// The relay rule decides.
    Continue,
    /// The move ends.
    End,
    /// The mover moves again.
    AnotherMove,
    /// The move stops and the game (or the round) ends by `Game::stated_ends[i]` (an `end game |
    /// round` action).
    EndGame(u16),
}

/// Who receives seeds.
#[derive(Debug, Clone)]
pub enum Receiver {
    /// Each pit's owner.
    Owner,
    /// A player.
    Player(Code),
    /// The mover's hand: the seeds are sown again (`sow taken`).
    Hand,
}

/// Pits an action applies to.
#[derive(Debug, Clone)]
pub enum PitsExpr {
    /// One pit.
    Pit(Code),
    /// A set of pits.
    Set(PitSet),
}

/// An action.
#[derive(Debug, Clone)]
pub enum Action {
    /// Take seeds; an optional series walks from the first pit.
    Take {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// Who gets them.
        to: Receiver,
        /// `series ...`.
        series: Option<Series>,
    },
    /// Move seeds from each pit named, in order, to one pit.
    Move {
        /// How many from each (`None`: all it holds).
        count: Option<Code>,
        /// From.
        from: Vec<PitsExpr>,
        /// To.
        to: Code,
    },
    /// Claim pits.
    Claim {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// For whom.
        player: Code,
    },
    /// Set (or add to) a memory value.
    Remember {
        /// Which value of `Game::memory`.
        slot: usize,
        /// Whose: a player or a pit.
        owner: Code,
        /// The value set, or the number added.
        value: Code,
        /// Add `value` to the value (else set it).
        add: bool,
    },
    /// Sow the seeds the rule took again, within the same move: from the pit `from`, or from the
    /// pit after `last` along the track.
    SowTaken {
        /// The pit named: the first seed falls into it, or with `after` into the one after it.
        pit: Option<Code>,
        /// The first seed falls after the pit named.
        after: bool,
        /// The direction of this sowing and the rest of the move: clockwise? (`None`: the move's.)
        cw: Option<bool>,
        /// The mover chooses the direction (`either`).
        chosen_way: bool,
        /// `sow from PIT`: the seeds of the pit named are picked up first and sown with the rule's.
        lift: bool,
    },
    /// `take N from PIT`: N seeds of one pit (or all it holds, when fewer), counted as taken.
    TakeSome {
        /// How many.
        count: Code,
        /// Which pit (or store).
        pit: Code,
        /// Who gets them.
        to: Receiver,
    },
    /// `close PITS` / `open PITS`.
    Close {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// Out of play (else back into it).
        closing: bool,
    },
}

/// A series: a walk along the track from the first pit a `take` took, taking pits while a condition
/// holds.
#[derive(Debug, Clone)]
pub struct Series {
    /// It walks against the sowing direction.
    pub backward: bool,
    /// It walks along the sowing direction (after the backward walk, when both).
    pub forward: bool,
    /// It looks at every second pit only.
    pub every_other: bool,
    /// The stores on the track are places of the walk, looked at and taken like pits (else it passes
    /// over them).
    pub with_stores: bool,
    /// It goes on while this holds (`pit` is the pit looked at).
    pub cond: Code,
    /// Each pit taken is taken with the pit across.
    pub with_opposite: bool,
    /// Most pits the walk takes.
    pub max_pits: u32,
    /// Most seeds the walk takes.
    pub max_seeds: u32,
    /// One way, every pit, uncapped and without the pit across: the usual series, which the engine
    /// walks with a loop of its own that tests none of the above.
    pub plain: bool,
}
