//! A capture's actions in a form the engine carries out without the evaluator ([`Rule::quick`]).

use super::{Action, Code, Op, PitsExpr, Receiver, Reg, Rule};

/// A capture's action carried out without the evaluator ([`Rule::quick`]): it reads only where
/// `last` or `origin` lies, who moves and the way, so it needs no context nor copy of the board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuickAct {
    /// `take` of the pit in a register (`last`, `origin`), or of the pit across from it.
    Take {
        /// The register.
        reg: Reg,
        /// The pit across from the register's.
        across: bool,
        /// Who gets the seeds.
        to: QuickTo,
    },
    /// The rule's action of this index, a `sow taken` whose pit (if it names one) reads only the
    /// mover, the player to move and the way ([`Code::reads_only_way`]).
    SowTaken(usize),
}

/// Who gets the seeds of a [`QuickAct::Take`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuickTo {
    /// The mover's hand, to be sown again.
    Hand,
    /// The pit's owner.
    Owner,
    /// The mover.
    Mover,
    /// The mover's opponent.
    Opponent,
}

impl Rule {
    /// The actions as [`QuickAct`] steps, in the order written, when each is a take of pits named
    /// by `last` or `origin` (or the pits across from them) without a series, to the hand, the owner,
    /// the mover or the opponent, or a `sow taken` from a pit named by the way; `None` otherwise.
    pub fn quick_actions(actions: &[Action]) -> Option<Box<[QuickAct]>> {
        let mut quick = Vec::new();
        for (i, action) in actions.iter().enumerate() {
            match action {
                Action::Take { pits, to, series: None } => {
                    let to = match to {
                        Receiver::Hand => QuickTo::Hand,
                        Receiver::Owner => QuickTo::Owner,
                        Receiver::Player(c) => match c.ops.as_slice() {
                            [Op::Mover] if c.sets.is_empty() => QuickTo::Mover,
                            [Op::Opponent] if c.sets.is_empty() => QuickTo::Opponent,
                            _ => return None,
                        },
                    };
                    for p in pits {
                        let PitsExpr::Pit(c) = p else { return None };
                        let (reg, across) = match c.ops.as_slice() {
                            [Op::Reg(r)] => (*r, false),
                            [Op::Reg(r), Op::Opposite] => (*r, true),
                            _ => return None,
                        };
                        // `pit` names nothing where a capture's actions start.
                        if reg == Reg::Pit || !c.sets.is_empty() {
                            return None;
                        }
                        quick.push(QuickAct::Take { reg, across, to });
                    }
                }
                Action::SowTaken { pit, .. } if pit.as_ref().is_none_or(Code::reads_only_way) => quick.push(QuickAct::SowTaken(i)),
                _ => return None,
            }
        }
        Some(quick.into_boxed_slice())
    }
}
