//! The words of the language an expression may name (built-in names, parameters, memory, pit fields)
//! and the functions it may call, resolved and typed.

use super::{Scope, Ty, TypeChecker};
use crate::diagnostic::{Diagnostic, suggest};
use crate::syntax::ast::{Expr, ExprKind};

/// Every built-in name, for "did you mean" and to keep parameters from hiding them.
pub const BUILTIN_NAMES: &[&str] = &[
    "south",
    "north",
    "mover",
    "opponent",
    "to_move",
    "last",
    "origin",
    "pit",
    "board",
    "total",
    "ply",
    "round",
    "round_ply",
    "lap",
    "final",
    "no_moves",
    "can_feed",
    "repeated",
    "front",
    "back",
    "taken",
    "lifted",
    "in_hand",
    "lap_start",
    "first_lap_end",
    "clockwise",
    "starter",
    "no_pit",
    "true",
    "false",
];

/// Names that files conventionally declare as parameters (`param pits = 6`); the language itself
/// does not define them.
pub const CONVENTIONAL_PARAMS: &[&str] = &["pits", "seeds"];

/// Help for a conventional parameter name used without its `param`.
pub fn undeclared_help(n: &str, board_pits: Option<usize>) -> String {
    let example = match (n, board_pits) {
        ("pits", Some(p)) => format!("`param pits = {p}`, or write the number ({p}: this board's pits a row)"),
        ("pits", None) => "`param pits = 6`, or write the number".to_string(),
        _ => format!("`param {n} = 4`, or write the number"),
    };
    format!("there is no parameter `{n}`: declare it with {example}")
}

pub(crate) const FUNCTIONS: &[&str] = &[
    "can_move",
    "opposite",
    "behind",
    "in_front",
    "next",
    "previous",
    "store",
    "pit",
    "other",
    "row",
    "any",
    "size",
    "sum",
    "leftmost",
    "choose",
    "rightmost",
    "seeds",
    "captured",
    "rounds_won",
];

/// The fields every pit has; memory may not take their names.
pub(crate) const FIELDS: &[&str] = &[
    "count", "before", "number", "row", "side", "owner", "claimed", "closed", "store", "shared",
];

/// A value of `memory { }`, as expressions read it.
#[derive(Debug, Clone)]
pub struct MemoryDecl {
    /// Its name.
    pub name: String,
    /// Kept for each pit (else for each player).
    pub per_pit: bool,
    /// Kept once for the whole game (`game.NAME`).
    pub whole_game: bool,
    /// It holds a pit (else a number).
    pub holds_pit: bool,
}

impl MemoryDecl {
    pub(super) fn ty(&self) -> Ty {
        if self.holds_pit { Ty::Pit } else { Ty::Int }
    }
    pub(super) fn owner_word(&self) -> &'static str {
        match (self.per_pit, self.whole_game) {
            (true, _) => "each pit",
            (_, true) => "the whole game",
            _ => "each player",
        }
    }
}

impl TypeChecker<'_> {
    pub(super) fn name(&mut self, e: &Expr, n: &str, scope: Scope) -> Option<Ty> {
        let unavailable = |what: &str| -> Option<String> { Some(format!("`{n}` has no meaning here: {what}")) };
        let (ty, problem) = match n {
            "south" | "north" | "mover" | "opponent" | "to_move" | "starter" => (Ty::Player, None),
            "no_pit" => (Ty::Pit, None),
            "true" | "false" => (Ty::Bool, None),
            "last" => (
                Ty::Pit,
                if scope.last {
                    None
                } else {
                    unavailable("there is a last pit only when a lap has ended (in `capture` and `relay`)")
                },
            ),
            "origin" => (
                Ty::Pit,
                if scope.origin {
                    None
                } else if scope.choosing_phase {
                    unavailable("the phase is chosen before the mover names the pit the move starts from")
                } else {
                    unavailable("there is an origin only during a move")
                },
            ),
            "pit" => (
                Ty::Pit,
                if scope.pit {
                    None
                } else {
                    unavailable("`pit` is the pit looked at in a trigger, a `series` or after `where`")
                },
            ),
            "final" => (
                Ty::Bool,
                if scope.in_trigger {
                    None
                } else {
                    unavailable("`final` belongs in a trigger")
                },
            ),
            "lap" => (
                Ty::Int,
                // In a `forbid`, `lap` reads the laps the move sowed (judged after the move).
                if scope.in_sowing || scope.origin {
                    None
                } else {
                    unavailable("laps are counted during sowing")
                },
            ),
            "board" => (Ty::Set, None),
            "total" | "ply" | "round" | "round_ply" | "front" | "back" => (Ty::Int, None),
            "clockwise" => (
                Ty::Bool,
                if scope.origin {
                    None
                } else {
                    unavailable("a move's direction is known only during the move")
                },
            ),
            "taken" => (
                Ty::Int,
                if scope.in_sowing || scope.origin {
                    None
                } else {
                    unavailable("seeds are taken during a move")
                },
            ),
            "lifted" => (
                Ty::Int,
                if scope.before_lifting {
                    unavailable("it is read before the move picks up its first seeds")
                } else if scope.in_sowing || scope.origin {
                    None
                } else {
                    unavailable("seeds are picked up during a move")
                },
            ),
            "in_hand" => (
                Ty::Int,
                if scope.in_trigger {
                    None
                } else {
                    unavailable("seeds are in hand only while they are sown, in a trigger")
                },
            ),
            "lap_start" | "first_lap_end" => (
                Ty::Pit,
                if scope.in_sowing {
                    None
                } else {
                    unavailable("laps start and end during a move")
                },
            ),
            "no_moves" | "can_feed" | "repeated" => (
                Ty::Bool,
                if scope.after_move {
                    None
                } else {
                    // An `after move` rule runs after the move too, but before what these read is
                    // settled: its actions may change it, and the turn has not passed yet.
                    unavailable(match n {
                        "no_moves" => {
                            "whether the player to move has a legal move is known only once the move is over, \
                             its `after move` rules included, and the turn has passed: only an `end` rule reads it"
                        }
                        "can_feed" => {
                            "whether the player to move can give the other player seeds is known only once the \
                             move is over, its `after move` rules included, and the turn has passed: only an `end` \
                             rule reads it"
                        }
                        _ => {
                            "whether the position came before is known only once the move is over, its `after \
                             move` rules included, and the turn has passed: only an `end` rule reads it"
                        }
                    })
                },
            ),
            _ => {
                if self.params.iter().any(|(p, _)| p == n) {
                    return Some(Ty::Int);
                }
                // Parameters first: on a tie the first candidate wins, and a parameter is the likelier meaning.
                let candidates = self.params.iter().map(|(p, _)| p.as_str()).chain(BUILTIN_NAMES.iter().copied());
                let mut d = Diagnostic::error(
                    "sow::check::unknown_name",
                    format!("unknown name `{n}`"),
                    e.span,
                    "not a parameter or a word of the language",
                );
                d = match suggest(n, candidates) {
                    // `pits` and `seeds` are parameters by convention, not words of the language:
                    // suggesting the built-in `pit` for them would mislead.
                    Some(s) if CONVENTIONAL_PARAMS.contains(&n) && !self.params.iter().any(|(p, _)| p == s) => {
                        d.with_help(undeclared_help(n, self.board_pits))
                    }
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None if FUNCTIONS.contains(&n) => d.with_help(format!("`{n}` is a function: write `{n}(...)`")),
                    None => d.with_help("see the list of expressions in docs/language.md"),
                };
                self.diags.push(d);
                return None;
            }
        };
        if let Some(message) = problem {
            self.diags.push(
                Diagnostic::error("sow::check::unavailable", message, e.span, "not available here").with_help(
                    if n == "origin" && scope.choosing_phase {
                        "a phase's condition reads the position only; to restrict the pits a move may start from \
                         in this phase, write a `forbid` rule inside the phase, where `origin` is known"
                    } else {
                        "see docs/language.md, \"Expressions\""
                    },
                ),
            );
            return None;
        }
        Some(ty)
    }

    /// The memory value a `set` or `add` changes, checked: a player's or a pit's memory, as
    /// declared. `None` after reporting a problem.
    pub fn memory_target(&mut self, target: &Expr, scope: Scope) -> Option<MemoryDecl> {
        let ExprKind::Field(_, field) = &target.kind else {
            self.ty(target, scope)?;
            self.diags.push(
                Diagnostic::error(
                    "sow::check::type_mismatch",
                    "only memory can be set or added to",
                    target.span,
                    "not a memory value",
                )
                .with_help("name a value of `memory { }` and whose it is, such as `mover.opened` or `last.emptied`"),
            );
            return None;
        };
        let Some(m) = self.memory.iter().find(|m| m.name == field.node).cloned() else {
            let names: Vec<&str> = self.memory.iter().map(|m| m.name.as_str()).collect();
            let mut d = Diagnostic::error(
                "sow::check::unknown_name",
                format!("`{}` is not kept in memory, so it cannot be set", field.node),
                field.span,
                "not in `memory { }`",
            );
            d = match suggest(&field.node, names.iter().copied()) {
                _ if FIELDS.contains(&field.node.as_str()) => d.with_help(format!(
                    "`{}` is a pit's own: seeds change only by sowing, `take` and `move`, owners by `claim`",
                    field.node
                )),
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None if names.is_empty() => d.with_help("declare it first: `memory { player opened = 0 }`"),
                None => d.with_help(format!("the game's memory is: {}", names.join(", "))),
            };
            self.diags.push(d);
            return None;
        };
        self.ty(target, scope)?;
        Some(m)
    }

    pub(super) fn call(&mut self, e: &Expr, name: &str, name_span: crate::diagnostic::Span, args: &[Expr], scope: Scope) -> Option<Ty> {
        if name == "choose" {
            return self.choose(e, args, scope);
        }
        // `next(PIT where COND)`: the first pit after PIT along the track for which COND holds.
        if let ("next" | "previous", [arg]) = (name, args)
            && let ExprKind::Where(from, cond) = &arg.kind
        {
            self.expect(from, Ty::Pit, scope);
            self.expect(cond, Ty::Bool, scope.with_pit());
            return Some(Ty::Pit);
        }
        // `next(PIT, any)`: the track's next cell closed or not (plain `next` passes over closed
        // pits); any other second word would be a meaning the engine does not have.
        if matches!(name, "next" | "previous") && args.len() == 2 {
            if !matches!(&args[1].kind, ExprKind::Name(w) if w == "any") {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::wrong_arguments",
                        format!("the second argument of `{name}` can only be `any`"),
                        args[1].span,
                        "not `any`",
                    )
                    .with_help(format!(
                        "write `{name}(last)` (open pits only) or `{name}(last, any)` (closed pits too)"
                    )),
                );
                return None;
            }
            return self.call(e, name, name_span, &args[..1], scope);
        }
        let (params, result): (&[Ty], Ty) = match name {
            // `pit(P, N)` on the front row (the only one of a two-row board), `pit(P, ROW, N)`.
            "pit" if args.len() == 3 => (&[Ty::Player, Ty::Int, Ty::Int], Ty::Pit),
            "pit" => (&[Ty::Player, Ty::Int], Ty::Pit),
            "opposite" | "behind" | "in_front" | "next" | "previous" => (&[Ty::Pit], Ty::Pit),
            "store" => (&[Ty::Player], Ty::Pit),
            "other" => (&[Ty::Player], Ty::Player),
            "row" => (&[Ty::Player], Ty::Set),
            "any" => (&[Ty::Set], Ty::Bool),
            "size" | "sum" => (&[Ty::Set], Ty::Int),
            "leftmost" | "rightmost" => (&[Ty::Set], Ty::Pit),
            "seeds" | "captured" | "rounds_won" => (&[Ty::Player], Ty::Int),
            "can_move" => (&[Ty::Player], Ty::Bool),
            other => {
                let mut d = Diagnostic::error(
                    "sow::check::unknown_name",
                    format!("unknown function `{other}`"),
                    name_span,
                    "not a function of the language",
                );
                d = match suggest(other, FUNCTIONS.iter().copied()) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("the functions are: {}", FUNCTIONS.join(", "))),
                };
                self.diags.push(d);
                return None;
            }
        };
        if name == "pit" && !(2..=3).contains(&args.len()) {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::wrong_arguments",
                    format!(
                        "`pit` takes a player and a pit number, or a player, a row and a pit number, not {} arguments",
                        args.len()
                    ),
                    e.span,
                    "here",
                )
                .with_help("write `pit(mover, 3)` (the front row) or `pit(mover, back, 3)`"),
            );
            return None;
        }
        if args.len() != params.len() {
            self.diags.push(
                Diagnostic::error(
                    "sow::check::wrong_arguments",
                    format!(
                        "`{name}` takes {} argument{}, not {}",
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                    e.span,
                    "here",
                )
                .with_help(format!(
                    "write `{name}({})`",
                    params.iter().map(|t| t.word()).collect::<Vec<_>>().join(", ")
                )),
            );
            return None;
        }
        for (a, t) in args.iter().zip(params) {
            self.expect(a, *t, scope);
        }
        if name == "pit" {
            self.pit_in_range(args);
        }
        Some(result)
    }

    /// `pit(P, [ROW,] N)` with a row or number known before the game that the board does not have.
    fn pit_in_range(&mut self, args: &[Expr]) {
        let known = |e: &Expr| match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Name(n) if n == "front" => Some(1),
            ExprKind::Name(n) if n == "back" => self.board_rows.map(|r| r as i64),
            ExprKind::Name(n) => self.params.iter().find(|(p, _)| p == n).map(|(_, v)| *v),
            _ => None,
        };
        let (row, number) = match args {
            [_, row, number] => (Some(row), number),
            [_, number] => (None, number),
            _ => return,
        };
        let mut out = |e: &Expr, most: usize, what: &str| {
            if let Some(n) = known(e)
                && !(1..=most as i64).contains(&n)
            {
                self.diags.push(
                    Diagnostic::error(
                        "sow::check::no_such_pit",
                        format!("there is no {what} {n}: a player's {what}s are numbered 1 to {most}"),
                        e.span,
                        format!("no {what} {n}"),
                    )
                    .with_help(format!("use a {what} from 1 to {most}")),
                );
            }
        };
        if let (Some(row), Some(rows)) = (row, self.board_rows) {
            out(row, rows, "row");
        }
        if let Some(pits) = self.board_pits {
            out(number, pits, "pit");
        }
    }
}
