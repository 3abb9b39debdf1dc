//! Name resolution and typing of expressions. Each place an expression may appear has a [`Scope`]
//! saying which of the words of the language (`last`, `pit`, `final`, ...) mean something there.

mod names;

pub use names::{BUILTIN_NAMES, CONVENTIONAL_PARAMS, MemoryDecl, undeclared_help};
pub(crate) use names::{FIELDS, FUNCTIONS};

use crate::diagnostic::{Diagnostic, suggest};
use crate::syntax::ast::{BinOp, Expr, ExprKind};

/// The types of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A whole number.
    Int,
    /// True or false.
    Bool,
    /// South or north.
    Player,
    /// One pit (or store).
    Pit,
    /// A set of pits.
    Set,
}

impl Ty {
    fn word(self) -> &'static str {
        match self {
            Ty::Int => "a number",
            Ty::Bool => "a condition (true or false)",
            Ty::Player => "a player",
            Ty::Pit => "a pit",
            Ty::Set => "a set of pits",
        }
    }
}

/// Which context-dependent words are available.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    last: bool,
    pit: bool,
    origin: bool,
    in_trigger: bool,
    in_sowing: bool,
    after_move: bool,
    /// Choosing a phase: the engine picks the phase before the mover names a pit, so there is no
    /// origin yet (it would silently read as a pit numbered 0).
    choosing_phase: bool,
    /// What a rule does, or how many seeds a move lifts: the mover may be asked to `choose`. A
    /// condition never may, since the engine reads conditions as often as it needs.
    choosing: bool,
    /// How the move's first lap starts (`lift`, `start in origin when`): read before any seed is
    /// picked up.
    before_lifting: bool,
}

impl Scope {
    /// A `forbid` or `phase` condition: before the move.
    pub fn move_start() -> Self {
        Scope {
            last: false,
            pit: false,
            origin: true,
            in_trigger: false,
            in_sowing: false,
            after_move: false,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// How the first lap starts (`lift N`, `start in origin when COND`): before the move's seeds are
    /// picked up.
    pub fn before_lifting() -> Self {
        Scope {
            before_lifting: true,
            ..Self::move_start()
        }
    }
    /// A `seeds N where COND` of the board: each pit, before the game.
    pub fn setup() -> Self {
        Scope {
            last: false,
            pit: true,
            origin: false,
            in_trigger: false,
            in_sowing: false,
            after_move: false,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// A trigger: as a seed falls.
    pub fn trigger() -> Self {
        Scope {
            last: false,
            pit: true,
            origin: true,
            in_trigger: true,
            in_sowing: true,
            after_move: false,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// A `skip when` condition: each pit a seed would fall into, during the sowing.
    pub fn skipping() -> Self {
        Scope {
            last: false,
            pit: true,
            origin: true,
            in_trigger: false,
            in_sowing: true,
            after_move: false,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// A capture or relay rule: at the end of a lap.
    pub fn lap_end() -> Self {
        Scope {
            last: true,
            pit: false,
            origin: true,
            in_trigger: false,
            in_sowing: true,
            after_move: false,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// An end rule: after the move.
    pub fn after_move() -> Self {
        Scope {
            last: false,
            pit: false,
            origin: false,
            in_trigger: false,
            in_sowing: false,
            after_move: true,
            choosing_phase: false,
            choosing: false,
            before_lifting: false,
        }
    }
    /// A `pass when` condition: at the start of a turn, before any pit is named (`mover` is the
    /// player who may pass).
    pub fn turn_start() -> Self {
        Scope {
            origin: false,
            ..Self::move_start()
        }
    }
    /// A `phase ... when` condition: before the move, when the pit it starts from is not yet known.
    pub fn phase_choice() -> Self {
        Scope {
            origin: false,
            choosing_phase: true,
            ..Self::move_start()
        }
    }
    /// An `after move` rule: once the move's sowing and captures are over, `last` is where its
    /// last lap ended.
    pub fn after_sowing() -> Self {
        Self::lap_end()
    }
    /// The same with `pit` bound: a condition on each pit of a set or a series, where no choice is
    /// made.
    pub fn with_pit(mut self) -> Self {
        self.pit = true;
        self.choosing = false;
        self
    }
    /// The same in what a rule does (or a move's `lift`), where the mover may `choose`.
    pub fn choosing(mut self) -> Self {
        self.choosing = true;
        self
    }
}

/// Walks expressions, collecting diagnostics.
pub struct TypeChecker<'a> {
    /// Parameter values.
    pub params: &'a [(String, i64)],
    /// Problems found.
    pub diags: Vec<Diagnostic>,
    /// Pits in a row, when the board's size is known (named in help about `pits`).
    pub board_pits: Option<usize>,
    /// Rows of pits each player has, when the board is known.
    pub board_rows: Option<usize>,
    /// The game's `memory { }`.
    pub memory: Vec<MemoryDecl>,
    /// The words naming choices' options (`1 as "stop"`), for the game's `word`s to be said in.
    pub options: Vec<String>,
    /// Comparisons of `lap` with numbers known before the game, written `lap OP N` (the whole
    /// comparison's place, OP, N): one that holds only for laps past the relay limit never holds
    /// (checked in `check::lap_numbers`).
    pub lap_numbers: Vec<(crate::diagnostic::Span, BinOp, i64)>,
}

impl TypeChecker<'_> {
    /// Checks that `e` has type `want`.
    pub fn expect(&mut self, e: &Expr, want: Ty, scope: Scope) {
        let got = self.ty(e, scope);
        self.expect_typed(e, got, want);
    }

    /// Checks that `e`, of type `got` (`None` when already reported), has type `want`.
    fn expect_typed(&mut self, e: &Expr, got: Option<Ty>, want: Ty) {
        if let Some(got) = got
            && got != want
        {
            let help = match (want, got) {
                (Ty::Bool, Ty::Int) => "compare it with something, e.g. `... > 0`".to_string(),
                (Ty::Int, Ty::Pit) => "use `.count` for the seeds in a pit".to_string(),
                (Ty::Bool, Ty::Set) => "use `any(...)` to ask whether the set has a pit".to_string(),
                (Ty::Bool, Ty::Pit) => "ask something about the pit, e.g. `last.count > 0` or `last.side == opponent`".to_string(),
                _ => format!("write {} here", want.word()),
            };
            self.diags.push(
                Diagnostic::error(
                    "sow::check::type_mismatch",
                    format!("expected {}, found {}", want.word(), got.word()),
                    e.span,
                    format!("this is {}", got.word()),
                )
                .with_help(help),
            );
        }
    }

    /// Checks the pits a `take`, `claim` or `move` lists (`verb` is how the list is introduced, as
    /// `take`): each a pit or a set of pits. Pits joined by `and` or `or` (`take opposite(last) and
    /// last`) are told once that a list is written with commas, rather than as three mismatches.
    pub fn expect_pit_list(&mut self, items: &[Expr], scope: Scope, verb: &str) {
        for e in items {
            let mut joined = Vec::new();
            let mut word = "and";
            if let ExprKind::Binary(op @ (BinOp::And | BinOp::Or), ..) = &e.kind {
                word = if *op == BinOp::And { "and" } else { "or" };
                leaves(e, &mut joined);
            }
            if joined.len() > 1 && joined.iter().all(|leaf| self.is_pits(leaf, scope)) {
                let shown: Option<Vec<String>> = joined.iter().map(|leaf| shown(leaf)).collect();
                let help = match shown {
                    Some(names) => format!("write `{verb} {}`", names.join(", ")),
                    None => format!("write the pits after `{verb}` separated by commas"),
                };
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::type_mismatch",
                        format!("pits are listed with commas, not joined by `{word}`"),
                        e.span,
                        "pits joined as if they were conditions",
                    )
                    .with_help(help),
                );
                continue;
            }
            self.expect_pits(e, scope);
        }
    }

    /// Is `e` a pit or a set of pits? Asked without reporting anything.
    fn is_pits(&mut self, e: &Expr, scope: Scope) -> bool {
        let reported = self.diags.len();
        let pits = matches!(self.ty(e, scope), Some(Ty::Pit | Ty::Set));
        self.diags.truncate(reported);
        pits
    }

    /// Checks a `take` or `claim` target: a pit or a set of pits.
    pub fn expect_pits(&mut self, e: &Expr, scope: Scope) {
        if let Some(got) = self.ty(e, scope)
            && got != Ty::Pit
            && got != Ty::Set
        {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::type_mismatch",
                    format!("expected a pit or a set of pits, found {}", got.word()),
                    e.span,
                    "not pits",
                )
                .with_help("name pits, such as `last`, `opposite(last)` or `board where pit.count == 4`"),
            );
        }
    }

    fn mismatch(&mut self, e: &Expr, message: String, help: &str) -> Option<Ty> {
        self.diags
            .push(Diagnostic::error("sow::check::type_mismatch", message, e.span, "here").with_help(help));
        None
    }

    /// The type of `e`, or `None` after reporting a problem.
    pub fn ty(&mut self, e: &Expr, scope: Scope) -> Option<Ty> {
        match &e.kind {
            ExprKind::Int(_) => Some(Ty::Int),
            ExprKind::Name(n) => self.name(e, n, scope),
            ExprKind::Call(name, args) => self.call(e, &name.node, name.span, args, scope),
            ExprKind::Field(base, field) if matches!(&base.kind, ExprKind::Name(n) if n == "game") => {
                match self.memory.iter().find(|m| m.name == field.node && m.whole_game) {
                    Some(m) => Some(m.ty()),
                    None => {
                        let names: Vec<&str> = self.memory.iter().filter(|m| m.whole_game).map(|m| m.name.as_str()).collect();
                        let d = Diagnostic::error(
                            "sow::check::unknown_name",
                            format!("the game keeps no memory `{}` for the whole game", field.node),
                            field.span,
                            "not a `game` value of `memory { }`",
                        );
                        self.diags.push(match suggest(&field.node, names.iter().copied()) {
                            Some(s) => d.with_help(format!("did you mean `{s}`?")),
                            None => d.with_help(format!("declare it: `memory {{ game {} = 0 }}`", field.node)),
                        });
                        None
                    }
                }
            }
            ExprKind::Field(base, field) => {
                let bt = self.ty(base, scope)?;
                let memory = self.memory.iter().find(|m| m.name == field.node).cloned();
                if let Some(m) = memory.as_ref().filter(|m| m.whole_game) {
                    self.diags.push(
                        Diagnostic::error(
                            "sow::check::type_mismatch",
                            format!("`{}` is kept once for the whole game, not for {}", m.name, bt.word()),
                            base.span,
                            format!("this is {}", bt.word()),
                        )
                        .with_help(format!("read it as `game.{}`", m.name)),
                    );
                    return None;
                }
                if bt == Ty::Player && !self.memory.iter().any(|m| !m.per_pit) && memory.is_none() {
                    return self.mismatch(
                        base,
                        format!("`.{}` needs a pit, but this is {}", field.node, bt.word()),
                        "fields such as `.count` belong to pits: `last.count`",
                    );
                }
                if bt != Ty::Pit && bt != Ty::Player {
                    return self.mismatch(
                        base,
                        format!("`.{}` needs a pit, but this is {}", field.node, bt.word()),
                        "fields such as `.count` belong to pits: `last.count`",
                    );
                }
                if let Some(m) = memory {
                    if m.per_pit == (bt == Ty::Pit) {
                        return Some(m.ty());
                    }
                    let example = if m.per_pit {
                        format!("read it of a pit, such as `last.{}`", m.name)
                    } else {
                        format!("read it of a player, such as `mover.{0}` or `last.owner.{0}`", m.name)
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "sow::check::type_mismatch",
                            format!("`{}` is kept for {}, but this is {}", m.name, m.owner_word(), bt.word()),
                            base.span,
                            format!("this is {}", bt.word()),
                        )
                        .with_label(field.span, format!("kept for {}", m.owner_word()))
                        .with_help(example),
                    );
                    return None;
                }
                if bt == Ty::Player {
                    let names: Vec<&str> = self.memory.iter().filter(|m| !m.per_pit).map(|m| m.name.as_str()).collect();
                    let mut d = Diagnostic::error(
                        "sow::check::unknown_name",
                        format!("a player has no memory `{}`", field.node),
                        field.span,
                        "not in `memory { }`",
                    );
                    d = match suggest(&field.node, names.iter().copied()) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help(format!("the memory kept for each player is: {}", names.join(", "))),
                    };
                    self.diags.push(d);
                    return None;
                }
                match field.node.as_str() {
                    "count" | "before" | "number" | "row" => Some(Ty::Int),
                    "side" | "owner" => Some(Ty::Player),
                    "claimed" | "closed" | "store" | "shared" => Some(Ty::Bool),
                    other => {
                        let mut d = Diagnostic::error(
                            "sow::check::unknown_name",
                            format!("a pit has no field `{other}`"),
                            field.span,
                            "unknown field",
                        );
                        let pit_memory = self.memory.iter().filter(|m| m.per_pit).map(|m| m.name.as_str());
                        d = match suggest(other, FIELDS.iter().copied().chain(pit_memory)) {
                            Some(s) => d.with_help(format!("did you mean `{s}`?")),
                            None => d.with_help(format!("a pit's fields are: {}", FIELDS.join(", "))),
                        };
                        self.diags.push(d);
                        None
                    }
                }
            }
            ExprKind::Neg(x) => {
                self.expect(x, Ty::Int, scope);
                Some(Ty::Int)
            }
            ExprKind::Not(x) => {
                self.expect(x, Ty::Bool, scope);
                Some(Ty::Bool)
            }
            ExprKind::Binary(op, a, b) => match op {
                BinOp::Or | BinOp::And => {
                    self.expect(a, Ty::Bool, scope);
                    self.expect(b, Ty::Bool, scope);
                    Some(Ty::Bool)
                }
                BinOp::Eq | BinOp::Ne => {
                    self.note_lap(e.span, *op, a, b);
                    let (ta, tb) = (self.ty(a, scope), self.ty(b, scope));
                    if let (Some(ta), Some(tb)) = (ta, tb)
                        && (ta != tb || ta == Ty::Set)
                    {
                        let help = if ta == Ty::Pit && tb == Ty::Int {
                            "compare the seeds in it: `... .count == N`"
                        } else {
                            "compare two values of the same kind"
                        };
                        self.diags.push(
                            Diagnostic::error(
                                "sow::check::type_mismatch",
                                format!("cannot compare {} with {}", ta.word(), tb.word()),
                                a.span,
                                format!("this is {}", ta.word()),
                            )
                            .with_label(b.span, format!("this is {}", tb.word()))
                            .with_help(help),
                        );
                        return None;
                    }
                    Some(Ty::Bool)
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    self.note_lap(e.span, *op, a, b);
                    self.expect(a, Ty::Int, scope);
                    self.expect(b, Ty::Int, scope);
                    Some(Ty::Bool)
                }
                // The left side typed once: typing it again at every level of `a + 1 + 1 ...` took
                // time exponential in the length of the chain (issue 22).
                BinOp::Add | BinOp::Sub => {
                    let ta = self.ty(a, scope);
                    // `PIT + k`: the pit k places further along the track.
                    let pit = ta == Some(Ty::Pit);
                    if !pit {
                        self.expect_typed(a, ta, Ty::Int);
                    }
                    self.expect(b, Ty::Int, scope);
                    Some(if pit { Ty::Pit } else { Ty::Int })
                }
                _ => {
                    self.expect(a, Ty::Int, scope);
                    self.expect(b, Ty::Int, scope);
                    Some(Ty::Int)
                }
            },
            ExprKind::InRange(x, lo, hi) => {
                self.expect(x, Ty::Int, scope);
                self.expect(lo, Ty::Int, scope);
                self.expect(hi, Ty::Int, scope);
                if let (ExprKind::Int(l), ExprKind::Int(h)) = (&lo.kind, &hi.kind)
                    && l > h
                {
                    self.diags.push(
                        Diagnostic::error(
                            "sow::check::empty_range",
                            format!("range `{l}..{h}` is empty, so this can never hold"),
                            lo.span.to(hi.span),
                            "upper bound is below the lower one",
                        )
                        .with_help(format!("write the smaller bound first: `{h}..{l}`")),
                    );
                }
                Some(Ty::Bool)
            }
            ExprKind::InSet(x, items) => {
                self.expect(x, Ty::Int, scope);
                for i in items {
                    self.expect(i, Ty::Int, scope);
                }
                Some(Ty::Bool)
            }
            ExprKind::Parity(x, _) => {
                self.expect(x, Ty::Int, scope);
                Some(Ty::Bool)
            }
            ExprKind::If(c, a, b) => {
                self.expect(c, Ty::Bool, scope);
                let (ta, tb) = (self.ty(a, scope)?, self.ty(b, scope)?);
                if ta != tb || ta == Ty::Set {
                    let help = if ta == Ty::Set || tb == Ty::Set {
                        "`if` chooses between two values, not two sets of pits".to_string()
                    } else {
                        format!("make both {}", ta.word())
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "sow::check::type_mismatch",
                            format!("`if` gives {} on one side and {} on the other", ta.word(), tb.word()),
                            a.span,
                            format!("this is {}", ta.word()),
                        )
                        .with_label(b.span, format!("this is {}", tb.word()))
                        .with_help(help),
                    );
                    return None;
                }
                Some(ta)
            }
            ExprKind::Where(set, cond) => {
                self.expect(set, Ty::Set, scope);
                self.expect(cond, Ty::Bool, scope.with_pit());
                Some(Ty::Set)
            }
            ExprKind::Labelled(_, word) => {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::misplaced",
                        format!("`as \"{}\"` names an option of `choose`, and this is not one", word.node),
                        e.span,
                        "not an option of `choose`",
                    )
                    .with_help("name the options of a choice: `choose(1 as \"stop\", 0 as \"go_on\")`"),
                );
                None
            }
            ExprKind::ChooseRange(lo, hi) => {
                self.may_choose(e, scope);
                self.expect(lo, Ty::Int, scope);
                self.expect(hi, Ty::Int, scope);
                if let (ExprKind::Int(l), ExprKind::Int(h)) = (&lo.kind, &hi.kind) {
                    if h < l {
                        self.diags.push(
                            Diagnostic::error(
                                "sow::check::out_of_range",
                                "nothing to choose: the upper bound is below the lower one",
                                lo.span.to(hi.span),
                                "no number lies here",
                            )
                            .with_help(format!("write the smaller bound first: `choose({h}..{l})`")),
                        );
                    } else if h - l >= crate::board::MAX_RANGE_CHOICE {
                        self.diags.push(
                            Diagnostic::error(
                                "sow::check::out_of_range",
                                format!("a choice among more than {} numbers", crate::board::MAX_RANGE_CHOICE),
                                lo.span.to(hi.span),
                                format!("{} numbers", h - l + 1),
                            )
                            .with_help("a move may choose among at most 256 numbers, so that its legal moves can be listed"),
                        );
                    }
                }
                Some(Ty::Int)
            }
        }
    }

    /// Refuses `choose` where the mover is not asked: in a condition, or outside a move.
    fn may_choose(&mut self, e: &Expr, scope: Scope) {
        if !scope.choosing {
            self.diags.push(
                Diagnostic::error("sow::check::misplaced", "the mover cannot choose here", e.span, "a choice in a condition")
                    .with_help("`choose` may stand in what a rule does (`take`, `sow taken from`, `set`, ...) or in `lift`; a condition is read as often as the engine needs, so it cannot ask the mover"),
            );
        }
    }

    /// `choose(A, B, ..)` (pits or numbers, all of one type) or `choose(SET)`.
    fn choose(&mut self, e: &Expr, args: &[Expr], scope: Scope) -> Option<Ty> {
        self.may_choose(e, scope);
        let Some(first) = args.first() else {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::wrong_arguments",
                    "`choose` needs something to choose from",
                    e.span,
                    "no options",
                )
                .with_help("write `choose(A, B)` (pits or numbers), `choose(SET)` or `choose(LOW..HIGH)`"),
            );
            return None;
        };
        self.option_words(args);
        let first = unlabelled(first);
        let ty = self.ty(first, scope)?;
        if ty == Ty::Set {
            if args.len() > 1 {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::wrong_arguments",
                        "`choose` takes one set of pits",
                        args[1].span,
                        "a second argument",
                    )
                    .with_help("choose from one set (`choose(row(mover) where pit.count > 0)`) or list pits (`choose(A, B)`)"),
                );
            }
            return Some(Ty::Pit);
        }
        if ty != Ty::Pit && ty != Ty::Int {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::type_mismatch",
                    format!("the mover chooses pits or numbers, not {}", ty.word()),
                    first.span,
                    format!("this is {}", ty.word()),
                )
                .with_help("list pits (`choose(leftmost(S), rightmost(S))`) or numbers (`choose(1, 2)`, `choose(1..origin.count)`)"),
            );
            return None;
        }
        for a in &args[1..] {
            self.expect(unlabelled(a), ty, scope);
        }
        Some(ty)
    }

    /// `lap` compared with a number or a parameter: noted as `lap OP N`.
    fn note_lap(&mut self, span: crate::diagnostic::Span, op: BinOp, a: &Expr, b: &Expr) {
        let number = |n: &Expr| match &n.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Name(p) => self.params.iter().find(|(q, _)| q == p).map(|&(_, v)| v),
            _ => None,
        };
        let is_lap = |x: &Expr| matches!(&x.kind, ExprKind::Name(l) if l == "lap");
        let noted = if is_lap(a) {
            number(b).map(|v| (op, v))
        } else if is_lap(b) {
            // `N < lap` is `lap > N`.
            let mirrored = match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Le => BinOp::Ge,
                BinOp::Gt => BinOp::Lt,
                BinOp::Ge => BinOp::Le,
                other => other,
            };
            number(a).map(|v| (mirrored, v))
        } else {
            None
        };
        if let Some((op, v)) = noted {
            self.lap_numbers.push((span, op, v));
        }
    }

    /// The words of a choice's named options (`choose(1 as "stop", 0 as "go_on")`): every option named
    /// or none, each a word a move can carry after its `:` (letters, digits, `_`, `-`), no two alike
    /// (moves are read whatever the case).
    fn option_words(&mut self, args: &[Expr]) {
        let words: Vec<&crate::syntax::ast::Spanned<String>> = args
            .iter()
            .filter_map(|a| match &a.kind {
                ExprKind::Labelled(_, w) => Some(w),
                _ => None,
            })
            .collect();
        if words.is_empty() {
            return;
        }
        self.options.extend(words.iter().map(|w| w.node.clone()));
        if let Some(bare) = args.iter().find(|a| !matches!(a.kind, ExprKind::Labelled(..))) {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::wrong_arguments",
                    "name every option of this choice, or none",
                    bare.span,
                    "no name",
                )
                .with_help("write `VALUE as \"WORD\"` for this option too"),
            );
        }
        for (i, w) in words.iter().enumerate() {
            let word_like = !w.node.is_empty() && w.node.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !word_like {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::wrong_arguments",
                        format!("`{}` cannot be written in a move", w.node),
                        w.span,
                        "not one word",
                    )
                    .with_help("use letters, digits, `_` and `-` only (`go_on`)"),
                );
            } else if let Some(first) = words[..i].iter().find(|v| v.node.eq_ignore_ascii_case(&w.node)) {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::duplicate",
                        format!("two options are named `{}`", w.node),
                        w.span,
                        "again",
                    )
                    .with_label(first.span, "first"),
                );
            }
        }
    }
}

/// The operands of a chain of `and` or `or` (`a and b or c`), left to right.
fn leaves<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            leaves(a, out);
            leaves(b, out);
        }
        _ => out.push(e),
    }
}

/// An option of `choose` without the word it may be named by.
fn unlabelled(a: &Expr) -> &Expr {
    match &a.kind {
        ExprKind::Labelled(value, _) => value,
        _ => a,
    }
}

/// A pit expression as written, for advice (`opposite(last)`, `next(origin)`, `last + 2`); `None` for
/// the forms not shown (sets with a condition, `if`).
fn shown(e: &Expr) -> Option<String> {
    Some(match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Call(name, args) => {
            let args: Option<Vec<String>> = args.iter().map(shown).collect();
            format!("{}({})", name.node, args?.join(", "))
        }
        ExprKind::Field(base, field) => format!("{}.{}", shown(base)?, field.node),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            format!("{} {} {}", shown(a)?, if *op == BinOp::Add { "+" } else { "-" }, shown(b)?)
        }
        _ => return None,
    })
}
