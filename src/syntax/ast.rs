//! The syntax tree of one `.sow` file. Every node carries the byte [`Span`] it was read from, so that
//! later stages can point at it. Nothing here has been checked: names may not exist, numbers may be
//! out of range.

use crate::diagnostic::Span;

/// A value with the span it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

/// One parsed file.
#[derive(Debug, Clone)]
pub struct File {
    /// The items in the order written.
    pub items: Vec<Item>,
}

/// A top-level statement (or a statement inside `board`, `sow`, `rounds`, flattened by the parser).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// What it says.
    pub kind: ItemKind,
    /// The whole statement.
    pub span: Span,
}

/// A player named literally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerLit {
    /// Moves first by default.
    South,
    /// The other player.
    North,
}

/// What a store is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreMode {
    /// Only holds captured seeds.
    Captures,
    /// Its owner sows into it.
    Sown,
}

/// A sowing direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Counter-clockwise: south 1..N, then north 1..N.
    Ccw,
    /// Clockwise.
    Cw,
    /// Chosen by the mover with each move.
    Either,
}

/// The grand slam policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrandSlam {
    /// The captures are put back.
    CaptureNothing,
    /// The move is illegal.
    Forbidden,
    /// Nothing special; `true` = the mover moves again.
    Allowed(bool),
}

/// What happens after a rule fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// The move ends.
    End,
    /// The relay rule decides.
    Continue,
    /// The move ends and the mover moves again.
    AnotherMove,
}

/// Which way a series walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesDir {
    /// Against the sowing direction.
    Backward,
    /// Along it.
    Forward,
    /// Backward, then forward, both from the first pit taken.
    BothWays,
}

/// What a series cap counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapUnit {
    /// Pits taken.
    Pits,
    /// Seeds taken.
    Seeds,
}

/// `series DIR [every other pit] [including stores] while COND [with opposite] [at most N pits|seeds]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesDef {
    /// Which way it walks.
    pub dir: SeriesDir,
    /// It looks at every second pit only.
    pub every_other: bool,
    /// `including stores`, where it was written: the stores on the track are places of the walk.
    pub with_stores: Option<Span>,
    /// It goes on while this holds of `pit`.
    pub cond: Expr,
    /// Each pit taken is taken with the pit across.
    pub with_opposite: bool,
    /// At most this many pits or seeds are taken by the walk.
    pub cap: Option<(Expr, CapUnit)>,
}

/// `move N|all from [each of] PITS to PIT`.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveDef {
    /// Seeds from each pit; `None`: `all` of them.
    pub count: Option<Expr>,
    /// `each of` was written.
    pub each: bool,
    /// The pits (or sets) the seeds come from, in order.
    pub from: Vec<Expr>,
    /// Where they go.
    pub to: Expr,
}

/// Who receives taken seeds.
#[derive(Debug, Clone, PartialEq)]
pub enum Receiver {
    /// Each pit's owner.
    Owner,
    /// A player expression.
    Player(Expr),
}

/// An action of a trigger or capture rule.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `take PITS [to ...]`.
    Take(Vec<Expr>, Option<Receiver>),
    /// `series DIR while COND ...`.
    Series(SeriesDef),
    /// `move N from A to B`.
    Move(MoveDef),
    /// `claim PITS for PLAYER`.
    Claim(Vec<Expr>, Expr),
    /// `sow taken [from PIT | after PIT] [DIRECTION]`.
    SowTaken(SowAgain),
    /// `then ...`.
    Then(Then),
    /// `set TARGET = VALUE`: a memory value is set.
    Set(Expr, Expr),
    /// `add AMOUNT to TARGET`: a number in memory is added to.
    Add(Expr, Expr),
    /// `take N from PIT [to ...]`: N seeds of one pit.
    TakeSome(Expr, Expr, Option<Receiver>),
    /// `sow from PIT [DIRECTION]`: the pit's seeds are picked up and sown on (the pit is in `pit`;
    /// `after` is always true).
    SowFrom(SowAgain),
    /// `close PITS` (true) or `open PITS` (false).
    Close(Vec<Expr>, bool),
    /// `end game | round ...`: the move stops and the game (or round) ends.
    End(EndAction),
}

/// What an `end game | round` action ends, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct EndAction {
    /// `end game` (else `end round`): in a game of rounds, the whole match ends.
    pub whole_game: bool,
    /// `remaining MODE`.
    pub remaining: Option<Remaining>,
    /// `remaining ... from PITS`.
    pub from: Option<Box<Expr>>,
    /// The result stated; `None`: the scores decide.
    pub result: Option<EndResult>,
}

/// Where and which way the seeds a rule took are sown again.
#[derive(Debug, Clone, PartialEq)]
pub struct SowAgain {
    /// The pit named, if any.
    pub pit: Option<Expr>,
    /// The first seed falls after the pit named (else into it).
    pub after: bool,
    /// The direction of this sowing and the rest of the move (else the move's).
    pub direction: Option<Spanned<Direction>>,
}

/// A trigger or capture rule.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleDef {
    /// Its name.
    pub name: Spanned<String>,
    /// When it fires.
    pub when: Expr,
    /// What it does, in order.
    pub actions: Vec<Spanned<Action>>,
}

/// What happens to the seeds on the board when the game ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Remaining {
    /// Each pit's seeds to its owner.
    Owner,
    /// All to one player.
    To(Expr),
    /// Split evenly, odd seed to the player with more on their side.
    Split,
    /// Counted where they lie.
    InPlace,
    /// Counted for nobody.
    Uncounted,
}

/// One player's part of a `layout`: the player, then each row's seeds (the front row first).
pub type LayoutSide = (Spanned<PlayerLit>, Vec<Spanned<Vec<Expr>>>);

/// The result an end rule states.
#[derive(Debug, Clone, PartialEq)]
pub enum EndResult {
    /// `winner PLAYER`.
    Winner(Expr),
    /// `loser PLAYER`.
    Loser(Expr),
    /// `draw`.
    Draw,
}

/// The circuit a sowing follows.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackKind {
    /// Through every row of both players (one row each).
    Shared,
    /// Through the mover's own rows only.
    Own,
    /// Stated piece by piece, in sowing order, as the mover sees the board.
    Path(Vec<TrackPiece>),
    /// The track a `track "NAME" = ...` item states.
    Named(Spanned<String>),
}

/// One piece of a stated track: a run of pits along one row, or a store.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackPiece {
    /// Whose pits (or store) the piece runs through.
    pub whose: TrackWhose,
    /// The row named by a word (`mover back 1..pits`), for ends given as numbers.
    pub row: Option<Spanned<TrackRow>>,
    /// The first and last pit, or `None` for the store.
    pub range: Option<(TrackEnd, TrackEnd)>,
    /// Where it was written.
    pub span: Span,
}

/// One end of a piece of track.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackEnd {
    /// A pit named with its row letter, as moves name it (`a3`, `s2`).
    Named(Spanned<String>),
    /// A pit number known before the game (`3`, `pits`, `pits - 1`).
    Number(Expr),
}

impl TrackEnd {
    /// Where it was written.
    pub fn span(&self) -> Span {
        match self {
            TrackEnd::Named(n) => n.span,
            TrackEnd::Number(e) => e.span,
        }
    }
}

/// A row named by a word in a piece of track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackRow {
    /// The row facing the opponent (`a`).
    Front,
    /// The row furthest from the middle.
    Back,
    /// A player's own middle row (`b`), between their front and back rows on a side of three rows.
    Middle,
}

/// Whose pits a piece of a stated track runs through, seen from the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackWhose {
    /// The mover's.
    Mover,
    /// The other player's.
    Opponent,
    /// Nobody's: the middle row, or a ring's shared pits.
    Shared,
}

/// Who owns a ring's pits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingOwner {
    /// Each player half of them; of an odd number, one is left to nobody.
    Halves,
    /// Nobody: either player may play any of them.
    Nobody,
}

pub use crate::board::PlayFrom;

/// A moment of a move at which a rule of its own acts (`at lap end "NAME" { ... }`). The other
/// moments have their older words: `at each seed` is a `trigger`, `at move end` an `after move`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// `at turn start`: the move is named, nothing is lifted yet.
    TurnStart,
    /// `at lap end`: after the lap's capture rules, every rule that holds.
    LapEnd,
    /// `after capture`: right after a capture rule was carried out at the end of a lap.
    AfterCapture,
    /// `at round start`: a round of a match is set up, before its first move.
    RoundStart,
    /// `at round end`: a round has ended (its result counted), before its seeds go back to their
    /// owners and the next round is set up.
    RoundEnd,
}

/// Which kind of named item `drop` removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropKind {
    /// `drop capture`.
    Capture,
    /// `drop trigger`.
    Trigger,
    /// `drop end`.
    End,
    /// `drop forbid`.
    Forbid,
    /// `drop phase`.
    Phase,
    /// `drop after move`.
    AfterMove,
    /// `drop track`.
    Track,
    /// `drop at lap end` (and the other moments of their own).
    At(Moment),
    /// `drop board KEY`: the name is the key (`seeds`, `middle row`, `layout shared`).
    Board,
}

/// Whom a memory value is kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryOwner {
    /// One value for each player.
    Player,
    /// One value for each pit.
    Pit,
    /// One value for the whole game (`game.NAME`).
    Game,
}

/// A `memory { }` statement: a value the game keeps for each player or each pit.
#[derive(Debug, Clone, PartialEq)]
pub struct MemorySlot {
    /// Whom it is kept for.
    pub owner: Spanned<MemoryOwner>,
    /// Its name, read as `mover.NAME` or `last.NAME`.
    pub name: Spanned<String>,
    /// Its value at the start of the game: a number, or `no_pit` for a memory that holds a pit.
    pub start: Expr,
}

/// What decides a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchMeasure {
    /// Rounds won.
    Rounds,
    /// Seeds held.
    Seeds,
}

/// How `setup fill` treats the pits and seeds it cannot fill whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillOption {
    /// `close unfilled`.
    CloseUnfilled,
    /// `remainder next`.
    RemainderNext,
    /// `remainder made up`: the other player makes the short pit up to a whole one.
    RemainderMadeUp,
    /// `remainder made up and claimed`: the same, and the player who made it up owns the pit.
    RemainderMadeUpClaimed,
    /// `as many as the other`.
    AsManyAsOther,
    /// `as many as the other used`.
    AsManyAsUsed,
    /// `claim unfilled`.
    ClaimUnfilled,
    /// `from right`.
    FromRight,
}

/// Who opens the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundOpener {
    /// The player who did not open the round just ended.
    Alternate,
    /// The round's loser.
    Loser,
    /// The round's winner.
    Winner,
    /// The player holding fewer seeds when the round is set up.
    FewerSeeds,
    /// The player who did not make the round's last move.
    OtherThanEnder,
    /// The player who opened the round just ended.
    Same,
}

/// The kinds of item.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemKind {
    /// `game "NAME"`.
    Game(String),
    /// `level beginner|intermediate|advanced`: how hard the game is to learn (no rule reads it).
    Level(String),
    /// `extends "PATH"`.
    Extends(String),
    /// `param NAME = DEFAULT [in LOW..HIGH [even|odd] | in {A, B, ..}]`.
    Param {
        /// Its name.
        name: Spanned<String>,
        /// Default value.
        default: Spanned<i64>,
        /// Allowed range.
        range: Option<(Spanned<i64>, Spanned<i64>)>,
        /// `even` (true) or `odd` (false) after the range: only numbers of that parity in it.
        parity: Option<Spanned<bool>>,
        /// `in {A, B, ..}`: the only values allowed.
        values: Option<Spanned<Vec<Spanned<i64>>>>,
    },
    /// `board { pits EXPR }`.
    BoardPits(Expr),
    /// `board { rows EXPR }`.
    BoardRows(Expr),
    /// `board { seeds EXPR [where COND] ... }`: the `seeds` lines of one board, in order (each
    /// expression may be a `Where`); the first whose condition holds for a pit gives its seeds.
    BoardSeeds(Vec<Expr>),
    /// `board { layout south [..] north [..] }`.
    BoardLayout(Vec<LayoutSide>),
    /// `board { layout shared [..] }`.
    BoardLayoutShared(Spanned<Vec<Expr>>),
    /// `board { middle row }`.
    BoardMiddle,
    /// `owned by halves` (every row), or the middle row's (`middle row owned by halves`).
    BoardHalves(crate::board::Halves),
    /// `board { ring EXPR [owned by halves|nobody] }`.
    BoardRing(Expr, RingOwner),
    /// `play from own|shared|any`.
    PlayFrom(PlayFrom),
    /// `board { stores ... }`.
    BoardStores(StoreMode),
    /// `board { reserve EXPR }`.
    BoardReserve(Expr),
    /// `board { store pit EXPR }`: that pit of each player's row is their store.
    BoardStorePit(Expr),
    /// `sow { from store EXPR }`.
    SowFromStore(Expr),
    /// `captures required`.
    CapturesRequired,
    /// `forbid "REASON" after move when COND`: a move is illegal when COND holds of what it did.
    ForbidAfter(Spanned<String>, Expr),
    /// `optional` (in a phase): the mover may choose the phase's rules while its condition holds.
    PhaseOptional,
    /// `pass when unable`.
    PassWhenUnable,
    /// `pass when COND`: while COND holds, the player to move may pass.
    PassWhen(Expr),
    /// `let NAME = EXPR`.
    Let(Spanned<String>, Expr),
    /// `first south|north`.
    First(PlayerLit),
    /// `sow { direction ... }`.
    SowDirection(Direction),
    /// `sow { track own|shared }`.
    SowTrack(TrackKind),
    /// `sow { skip origin }`.
    SowSkipOrigin,
    /// `sow { skip when COND }`.
    SowSkipWhen(Expr),
    /// `sow { into own store }` (false) / `sow { into both stores }` (true).
    SowIntoStore(bool),
    /// `sow { relay when COND }`.
    SowRelay(Expr),
    /// `sow { relay never }`.
    SowRelayNever,
    /// `sow { relay from PIT }`.
    SowRelayFrom(Expr),
    /// `sow { start in origin [when COND] }`.
    SowStartInOrigin(Option<Expr>),
    /// `lift N`: how many seeds the move's first lap takes from the pit played.
    SowLift(Expr),
    /// `sow { relay limit N }`.
    SowRelayLimit(Expr),
    /// `forbid "REASON" when COND`.
    Forbid(Spanned<String>, Expr),
    /// `feeding required` (None) or `feeding penalty remaining to PLAYER` (Some).
    Feeding(Option<Expr>),
    /// `grand slam ...`.
    GrandSlam(GrandSlam),
    /// `trigger "NAME" { ... }`.
    Trigger(RuleDef),
    /// `capture "NAME" { ... }`.
    Capture(RuleDef),
    /// `no captures`.
    NoCaptures,
    /// `no sowing` (in a phase): a move sows nothing; the phase's `after move` rules do what it does.
    NoSowing,
    /// `end "NAME" when COND [remaining MODE [from PITS]] [RESULT]`.
    End(Spanned<String>, Expr, Option<Remaining>, Option<Box<Expr>>, Option<EndResult>),
    /// `phase "NAME" when COND { ... }`.
    Phase(Spanned<String>, Expr, Vec<Item>),
    /// `rounds { match ends when COND }`.
    MatchEnds(Expr),
    /// `rounds { match winner most ... }`.
    MatchWinner(MatchMeasure),
    /// `rounds { setup fill N [OPTIONS] }`.
    SetupFill(Expr, Vec<Spanned<FillOption>>),
    /// `rounds { setup deal fewest }`.
    SetupDeal,
    /// `rounds { setup mirror }`.
    SetupMirror,
    /// `rounds { setup store N }`.
    SetupStore(Expr),
    /// `rounds { setup by moves }`: the players set up the pits with moves.
    SetupByMoves,
    /// `rounds { next round first RULE [else RULE] }`: who opens the next round, and after a tie.
    NextRoundFirst(RoundOpener, Option<Spanned<RoundOpener>>),
    /// `rounds { setup keep claims }`.
    SetupKeepClaims,
    /// An empty `rounds { }` still declares a match of rounds.
    Rounds,
    /// `drop KIND "NAME"`.
    Drop(DropKind, Spanned<String>),
    /// `memory { player NAME = START }` (one item per statement).
    Memory(MemorySlot),
    /// `after move "NAME" { ... }`.
    AfterMove(RuleDef),
    /// `at MOMENT "NAME" { ... }` for the moments without a word of their own.
    At(Moment, RuleDef),
    /// `track "NAME" = PIECES`: a track stated once, for `sow { track "NAME" }`.
    Track(Spanned<String>, Vec<TrackPiece>),
}

impl ItemKind {
    /// A statement of a `sow { }` block (which says how a phase's seeds are sown).
    pub fn is_sowing(&self) -> bool {
        matches!(
            self,
            ItemKind::SowDirection(_)
                | ItemKind::SowTrack(_)
                | ItemKind::SowSkipOrigin
                | ItemKind::SowSkipWhen(_)
                | ItemKind::SowIntoStore(_)
                | ItemKind::SowRelay(_)
                | ItemKind::SowRelayFrom(_)
                | ItemKind::SowRelayNever
                | ItemKind::SowStartInOrigin(_)
                | ItemKind::SowLift(_)
                | ItemKind::SowRelayLimit(_)
                | ItemKind::SowFromStore(_)
        )
    }
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `or`.
    Or,
    /// `and`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A whole number.
    Int(i64),
    /// A name: a parameter or a built-in.
    Name(String),
    /// `f(a, b)`.
    Call(Spanned<String>, Vec<Expr>),
    /// `VALUE as "WORD"`: an option of `choose(..)` with the word a move writes for it.
    Labelled(Box<Expr>, Spanned<String>),
    /// `e.field`.
    Field(Box<Expr>, Spanned<String>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `not e`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e in a..b`.
    InRange(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e in {a, b}`.
    InSet(Box<Expr>, Vec<Expr>),
    /// `e is even` (true) / `e is odd` (false).
    Parity(Box<Expr>, bool),
    /// `set where cond`.
    Where(Box<Expr>, Box<Expr>),
    /// `if cond then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `choose(LOW..HIGH)`: a number the mover chooses (`choose(A, B)` and `choose(SET)` are calls).
    ChooseRange(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The first answer `f` gives, looking at this expression and then at each part of it, left to
    /// right, depth first.
    pub fn find_map<'e, T>(&'e self, f: &mut impl FnMut(&'e Expr) -> Option<T>) -> Option<T> {
        if let Some(found) = f(self) {
            return Some(found);
        }
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Name(_) => None,
            ExprKind::Call(_, args) => args.iter().find_map(|a| a.find_map(f)),
            ExprKind::Labelled(a, _) => a.find_map(f),
            ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) | ExprKind::Parity(b, _) => b.find_map(f),
            ExprKind::Binary(_, a, b) | ExprKind::Where(a, b) | ExprKind::ChooseRange(a, b) => a.find_map(f).or_else(|| b.find_map(f)),
            ExprKind::InRange(a, b, c) | ExprKind::If(a, b, c) => a.find_map(f).or_else(|| b.find_map(f)).or_else(|| c.find_map(f)),
            ExprKind::InSet(a, items) => a.find_map(f).or_else(|| items.iter().find_map(|i| i.find_map(f))),
        }
    }
}
