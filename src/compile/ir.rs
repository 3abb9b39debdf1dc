//! The executable form of a game: names resolved, parameters folded in, sowing tracks precomputed.
//! The engine reads only this.

use crate::engine::{Cell, Player};

/// A rule file compiled for the engine.
#[derive(Debug, Clone)]
pub struct Game {
    /// Display name.
    pub name: String,
    /// Pits in each row.
    pub pits: usize,
    /// Stores are sown into (else they only hold captures).
    pub stores_sown: bool,
    /// Seeds of every cell at the start (pits, then the two stores).
    pub initial: Vec<u32>,
    /// Who moves first.
    pub first: Player,
    /// Phases in order; the last one is the usual rules (condition `None`).
    pub phases: Vec<Phase>,
    /// Triggers (the same in every phase).
    pub triggers: Vec<Rule>,
    /// Feeding policy.
    pub feeding: Option<Feeding>,
    /// Grand slam policy.
    pub grand_slam: Option<GrandSlam>,
    /// End rules in order.
    pub ends: Vec<EndRule>,
    /// Rounds, if the game is a match.
    pub rounds: Option<Rounds>,
    /// Some rule claims pits (the position shows `claimed`).
    pub uses_claims: bool,
    /// Some end rule asks `can_feed` (worth computing only then).
    pub uses_can_feed: bool,
    /// Some rule closes pits (the position shows `closed`).
    pub uses_closed: bool,
    /// Every seed in the game.
    pub total: u32,
}

/// The rules for the moves that start while `when` holds.
#[derive(Debug, Clone)]
pub struct Phase {
    /// Name (empty for the usual rules).
    pub name: String,
    /// When it applies; `None` = always.
    pub when: Option<Expr>,
    /// Sowing.
    pub sow: Sow,
    /// Forbidden moves.
    pub forbids: Vec<Forbid>,
    /// Capture rules in order.
    pub captures: Vec<Rule>,
}

/// How seeds are sown.
#[derive(Debug, Clone)]
pub struct Sow {
    /// Counter-clockwise?
    pub ccw: bool,
    /// The origin gets no seed.
    pub skip_origin: bool,
    /// The mover's store is on the track.
    pub into_own_store: bool,
    /// Relay condition.
    pub relay: Option<Expr>,
    /// Most laps per move.
    pub relay_limit: u32,
}

/// A forbidden move.
#[derive(Debug, Clone)]
pub struct Forbid {
    /// What the player is told.
    pub reason: String,
    /// When the origin is forbidden.
    pub when: Expr,
}

/// A trigger or capture rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Name.
    pub name: String,
    /// Condition.
    pub when: Expr,
    /// Actions.
    pub actions: Vec<Action>,
    /// What happens next.
    pub then: Then,
}

/// What happens after a capture rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// The move ends.
    End,
    /// The relay rule decides.
    Continue,
    /// The mover moves again.
    AnotherMove,
}

/// Who receives seeds.
#[derive(Debug, Clone)]
pub enum Receiver {
    /// Each pit's owner.
    Owner,
    /// A player.
    Player(Expr),
}

/// Pits an action applies to.
#[derive(Debug, Clone)]
pub enum PitsExpr {
    /// One pit.
    Pit(Expr),
    /// A set of pits.
    Set(SetExpr),
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
        /// `series` (forward?, condition).
        series: Option<(bool, Expr)>,
    },
    /// Move seeds between pits.
    Move {
        /// How many.
        count: Expr,
        /// From.
        from: Expr,
        /// To.
        to: Expr,
    },
    /// Claim pits.
    Claim {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// For whom.
        player: Expr,
    },
}

/// Feeding policy.
#[derive(Debug, Clone)]
pub enum Feeding {
    /// Non-feeding moves are illegal.
    Required,
    /// Non-feeding moves end the game; the seeds go to the player.
    Penalty(Expr),
}

/// Grand slam policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrandSlam {
    /// Captures are put back.
    CaptureNothing,
    /// Illegal.
    Forbidden,
    /// Allowed; `true` = another move.
    Allowed(bool),
}

/// An end rule.
#[derive(Debug, Clone)]
pub struct EndRule {
    /// Name.
    pub name: String,
    /// Condition.
    pub when: Expr,
    /// The seeds left on the board.
    pub remaining: Remaining,
}

/// What happens to the seeds left on the board.
#[derive(Debug, Clone)]
pub enum Remaining {
    /// To each pit's owner.
    Owner,
    /// To one player.
    To(Expr),
    /// Split evenly.
    Split,
    /// Counted where they lie.
    InPlace,
    /// Not counted.
    Uncounted,
}

/// A match of rounds.
#[derive(Debug, Clone)]
pub struct Rounds {
    /// When the match is over.
    pub match_ends: Expr,
    /// Most rounds (else most seeds) wins the match.
    pub by_rounds: bool,
    /// `setup fill N`.
    pub fill: Option<u32>,
    /// `setup deal fewest`.
    pub deal: bool,
    /// Claims survive the round.
    pub keep_claims: bool,
}

/// A field of a pit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PitField {
    /// Seeds now.
    Count,
    /// Seeds before the latest seed fell in.
    Before,
    /// Number in its row.
    Number,
    /// Row player.
    Side,
    /// Owner.
    Owner,
    /// Claimed?
    Claimed,
    /// Closed?
    Closed,
    /// A store?
    Store,
}

/// Functions of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// Not empty.
    Any,
    /// Number of pits.
    Size,
    /// Seeds in them.
    Sum,
    /// Leftmost as seen by its row's player.
    Leftmost,
    /// Rightmost.
    Rightmost,
}

/// A set of pits.
#[derive(Debug, Clone)]
pub struct SetExpr {
    /// `Some(player)` = that row; `None` = the whole board.
    pub row: Option<Box<Expr>>,
    /// `where` filters, applied in order.
    pub filters: Vec<Expr>,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// Logical or.
    Or,
    /// Logical and.
    And,
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less.
    Lt,
    /// Less or equal.
    Le,
    /// Greater.
    Gt,
    /// Greater or equal.
    Ge,
    /// Plus.
    Add,
    /// Minus.
    Sub,
    /// Times.
    Mul,
    /// Division rounding down.
    Div,
    /// Remainder.
    Rem,
}

/// An expression.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A number.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// A player.
    Player(Player),
    /// The mover.
    Mover,
    /// The mover's opponent.
    Opponent,
    /// The player to move.
    ToMove,
    /// The last pit of the lap.
    Last,
    /// The origin.
    Origin,
    /// The pit looked at.
    Pit,
    /// The lap's last seed?
    Final,
    /// Lap number.
    Lap,
    /// Moves played.
    Ply,
    /// Round number.
    Round,
    /// All seeds.
    Total,
    /// The player to move has no legal move.
    NoMoves,
    /// The player to move has a legal move that leaves the other player's row with seeds.
    CanFeed,
    /// The position occurred before.
    Repeated,
    /// `other(P)`.
    Other(Box<Expr>),
    /// `opposite(PIT)`.
    Opposite(Box<Expr>),
    /// `store(P)`.
    Store(Box<Expr>),
    /// `seeds(P)`.
    Seeds(Box<Expr>),
    /// `captured(P)`.
    Captured(Box<Expr>),
    /// `rounds_won(P)`.
    RoundsWon(Box<Expr>),
    /// `PIT.field`.
    Field(Box<Expr>, PitField),
    /// `any(SET)` etc.
    Aggregate(Aggregate, Box<SetExpr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `not e`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e in lo..hi`.
    InRange(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e in {..}`.
    InSet(Box<Expr>, Vec<Expr>),
    /// `e is even` (true) / odd.
    Parity(Box<Expr>, bool),
}

/// A pit index used by rules that found no pit (`leftmost` of an empty set).
pub const NO_PIT: Cell = Cell::MAX;
