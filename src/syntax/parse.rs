//! pest → AST. The grammar decides what parses; this file only builds nodes and turns pest's errors
//! into our own diagnostics.

use pest::Parser;
use pest::iterators::Pair;

use super::ast::*;
use super::names::phrase;
use crate::diagnostic::{Diagnostic, FileId, Span, suggest};

/// The pest parser generated from `grammar/sow.pest`.
#[allow(missing_docs)]
mod generated {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/sow.pest"]
    pub struct SowParser;
}

pub use generated::Rule as GrammarRule;
use generated::{Rule, SowParser};

/// The longest file we read; larger ones are refused before parsing.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Words an item may start with, for "did you mean".
const ITEM_WORDS: &[&str] = &[
    "game", "extends", "param", "board", "first", "sow", "forbid", "feeding", "grand", "trigger", "capture", "no", "end", "phase",
    "rounds", "drop",
];

/// Parses one file's text.
pub fn parse(text: &str, file: FileId) -> Result<File, Vec<Diagnostic>> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(vec![
            Diagnostic::error(
                "sow::syntax::too_large",
                format!(
                    "the file is {} bytes long, more than the {} a rule file may have",
                    text.len(),
                    MAX_SOURCE_BYTES
                ),
                Span { file, start: 0, end: 0 },
                "this file",
            )
            .with_help("a rule file is a few hundred lines at most: is this the right file?"),
        ]);
    }
    // Deeply nested expressions must not exhaust the stack: pest counts calls and gives up.
    pest::set_call_limit(std::num::NonZeroUsize::new(5_000_000));
    match SowParser::parse(Rule::file, text) {
        Ok(mut pairs) => {
            let file_pair = pairs.next().expect("the file rule always produces one pair");
            let builder = Builder { file };
            let mut items = Vec::new();
            let mut errors = Vec::new();
            for pair in children(file_pair) {
                if pair.as_rule() == Rule::EOI {
                    continue;
                }
                match builder.items(pair) {
                    Ok(item) => items.extend(item),
                    Err(e) => errors.push(e),
                }
            }
            if errors.is_empty() { Ok(File { items }) } else { Err(errors) }
        }
        Err(error) => Err(vec![syntax_error(text, file, error)]),
    }
}

fn syntax_error(text: &str, file: FileId, error: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let start = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &error.variant {
        return Diagnostic::error(
            "sow::syntax::too_complex",
            message.clone(),
            Span { file, start, end: start },
            "here",
        )
        .with_help("split the expression into simpler rules");
    }
    let word_end = text[start..]
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(text.len(), |(i, _)| start + i);
    let (end, found) = if word_end > start {
        (word_end, format!("`{}`", &text[start..word_end]))
    } else if let Some(c) = text[start..].chars().next() {
        (start + c.len_utf8(), format!("`{}`", c.escape_default()))
    } else {
        (start, "the end of the file".to_string())
    };
    let mut expected: Vec<&'static str> = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.iter().map(|r| phrase(*r)).collect(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    expected.sort();
    expected.dedup();
    let shown: Vec<&str> = expected.iter().take(5).copied().collect();
    let mut message = format!("unexpected {found}");
    if !shown.is_empty() {
        message.push_str(&format!(", expected {}", join_or(&shown)));
    }
    let mut diag = Diagnostic::error(
        "sow::syntax::unexpected_token",
        message,
        Span { file, start, end },
        "not expected here",
    );
    if word_end > start {
        let word = &text[start..word_end];
        if let Some(s) = suggest(
            word,
            ITEM_WORDS.iter().copied().chain(super::names::STATEMENT_WORDS.iter().copied()),
        ) {
            diag = diag.with_help(format!("did you mean `{s}`?"));
        }
    }
    if diag.help.is_none() {
        diag = diag.with_help("see docs/language.md for what may be written here");
    }
    diag
}

/// The children of a pair, without the keyword tokens (`when`, `and`, ...) that carry no value.
fn children(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_when | Rule::kw_in | Rule::kw_is | Rule::kw_and | Rule::kw_or | Rule::kw_not | Rule::kw_where
        )
    })
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

struct Builder {
    file: FileId,
}

type R<T> = Result<T, Diagnostic>;

impl Builder {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span {
            file: self.file,
            start: s.start(),
            end: s.end(),
        }
    }

    fn string(&self, pair: Pair<Rule>) -> Spanned<String> {
        let span = self.span(&pair);
        let inner = children(pair).next().expect("string has inner text");
        Spanned {
            node: inner.as_str().to_string(),
            span,
        }
    }

    fn int(&self, pair: Pair<Rule>) -> R<Spanned<i64>> {
        let span = self.span(&pair);
        pair.as_str().parse::<i64>().map(|n| Spanned { node: n, span }).map_err(|_| {
            Diagnostic::error(
                "sow::syntax::number_too_large",
                format!("`{}` is too large a number", pair.as_str()),
                span,
                "this number",
            )
            .with_help("numbers in a rule file are small: pits, seeds, counts")
        })
    }

    fn player(&self, pair: Pair<Rule>) -> Spanned<PlayerLit> {
        let span = self.span(&pair);
        let node = if pair.as_str() == "south" {
            PlayerLit::South
        } else {
            PlayerLit::North
        };
        Spanned { node, span }
    }

    /// One item; a block (`board { }`, `sow { }`, `rounds { }`) gives one item per statement, and an
    /// empty `rounds { }` still declares a match.
    fn items(&self, pair: Pair<Rule>) -> R<Vec<Item>> {
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::board_item | Rule::sow_item => Ok(self.block(pair)?),
            Rule::rounds_item => {
                let mut all = vec![Item {
                    kind: ItemKind::Rounds,
                    span,
                }];
                all.extend(self.block(pair)?);
                Ok(all)
            }
            _ => Ok(vec![self.item(pair)?]),
        }
    }

    fn block(&self, pair: Pair<Rule>) -> R<Vec<Item>> {
        children(pair).map(|p| self.item(p)).collect()
    }

    fn item(&self, pair: Pair<Rule>) -> R<Item> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = children(pair);
        let kind = match rule {
            Rule::game_item => ItemKind::Game(self.string(inner.next().expect("name")).node),
            Rule::extends_item => ItemKind::Extends(self.string(inner.next().expect("path")).node),
            Rule::param_item => {
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                let default = self.int(inner.next().expect("default"))?;
                let range = match (inner.next(), inner.next()) {
                    (Some(lo), Some(hi)) => Some((self.int(lo)?, self.int(hi)?)),
                    _ => None,
                };
                ItemKind::Param { name, default, range }
            }
            Rule::board_pits => ItemKind::BoardPits(self.expr(inner.next().expect("expr"))?),
            Rule::board_rows => ItemKind::BoardRows(self.expr(inner.next().expect("expr"))?),
            Rule::board_seeds => ItemKind::BoardSeeds(self.expr(inner.next().expect("expr"))?),
            Rule::board_layout => {
                let mut rows = Vec::new();
                while let (Some(p), Some(list)) = (inner.next(), inner.next()) {
                    let player = self.player(p);
                    let lspan = self.span(&list);
                    let values = children(list).map(|e| self.expr(e)).collect::<R<Vec<_>>>()?;
                    rows.push((player, Spanned { node: values, span: lspan }));
                }
                ItemKind::BoardLayout(rows)
            }
            Rule::board_stores => {
                let mode = inner.next().expect("mode");
                ItemKind::BoardStores(if mode.as_str() == "sown" {
                    StoreMode::Sown
                } else {
                    StoreMode::Captures
                })
            }
            Rule::first_item => ItemKind::First(self.player(inner.next().expect("player")).node),
            Rule::sow_direction => {
                let d = inner.next().expect("direction");
                ItemKind::SowDirection(if d.as_str() == "cw" { Direction::Cw } else { Direction::Ccw })
            }
            Rule::sow_skip_origin => ItemKind::SowSkipOrigin,
            Rule::sow_into_store => ItemKind::SowIntoStore,
            Rule::sow_relay => ItemKind::SowRelay(self.expr(inner.next().expect("expr"))?),
            Rule::sow_relay_limit => ItemKind::SowRelayLimit(self.expr(inner.next().expect("expr"))?),
            Rule::forbid_item => {
                let reason = self.string(inner.next().expect("reason"));
                ItemKind::Forbid(reason, self.expr(inner.next().expect("cond"))?)
            }
            Rule::feeding_item => {
                let policy = inner.next().expect("policy");
                match policy.as_rule() {
                    Rule::feeding_required => ItemKind::Feeding(None),
                    _ => ItemKind::Feeding(Some(self.expr(children(policy).next().expect("player"))?)),
                }
            }
            Rule::grand_slam_item => {
                let policy = inner.next().expect("policy");
                ItemKind::GrandSlam(match policy.as_rule() {
                    Rule::slam_capture_nothing => GrandSlam::CaptureNothing,
                    Rule::slam_forbidden => GrandSlam::Forbidden,
                    _ => GrandSlam::Allowed(children(policy).next().is_some()),
                })
            }
            Rule::trigger_item => ItemKind::Trigger(self.rule_def(inner)?),
            Rule::capture_item => ItemKind::Capture(self.rule_def(inner)?),
            Rule::no_captures => ItemKind::NoCaptures,
            Rule::end_item => {
                let name = self.string(inner.next().expect("name"));
                let cond = self.expr(inner.next().expect("cond"))?;
                let remaining = match inner.next() {
                    Some(r) => Some(self.remaining(r)?),
                    None => None,
                };
                ItemKind::End(name, cond, remaining)
            }
            Rule::phase_item => {
                let name = self.string(inner.next().expect("name"));
                let cond = self.expr(inner.next().expect("cond"))?;
                let mut items = Vec::new();
                for p in inner {
                    items.extend(self.items(p)?);
                }
                ItemKind::Phase(name, cond, items)
            }
            Rule::match_ends => ItemKind::MatchEnds(self.expr(inner.next().expect("cond"))?),
            Rule::match_winner => {
                let m = inner.next().expect("measure");
                ItemKind::MatchWinner(if m.as_str() == "rounds" {
                    MatchMeasure::Rounds
                } else {
                    MatchMeasure::Seeds
                })
            }
            Rule::setup_fill => ItemKind::SetupFill(self.expr(inner.next().expect("n"))?),
            Rule::setup_deal => ItemKind::SetupDeal,
            Rule::setup_keep_claims => ItemKind::SetupKeepClaims,
            Rule::drop_item => {
                let kind = inner.next().expect("kind");
                let kind = match kind.as_str() {
                    "capture" => DropKind::Capture,
                    "trigger" => DropKind::Trigger,
                    "end" => DropKind::End,
                    "forbid" => DropKind::Forbid,
                    _ => DropKind::Phase,
                };
                ItemKind::Drop(kind, self.string(inner.next().expect("name")))
            }
            other => unreachable!("the grammar produces no item {other:?}"),
        };
        Ok(Item { kind, span })
    }

    fn rule_def<'i>(&self, mut inner: impl Iterator<Item = Pair<'i, Rule>>) -> R<RuleDef> {
        let name = self.string(inner.next().expect("name"));
        let mut body = children(inner.next().expect("body"));
        let when = self.expr(children(body.next().expect("when")).next().expect("cond"))?;
        let mut actions = Vec::new();
        for action in body {
            let span = self.span(&action);
            let rule = action.as_rule();
            let mut parts = children(action);
            let node = match rule {
                Rule::take_action => {
                    let pits = self.pit_list(parts.next().expect("pits"))?;
                    let receiver = match parts.next() {
                        None => None,
                        Some(p) if p.as_rule() == Rule::owner_kw => Some(Receiver::Owner),
                        Some(p) => Some(Receiver::Player(self.expr(p)?)),
                    };
                    Action::Take(pits, receiver)
                }
                Rule::series_action => {
                    let dir = parts.next().expect("dir");
                    let dir = if dir.as_str() == "forward" {
                        SeriesDir::Forward
                    } else {
                        SeriesDir::Backward
                    };
                    Action::Series(dir, self.expr(parts.next().expect("cond"))?)
                }
                Rule::move_action => {
                    let n = self.expr(parts.next().expect("n"))?;
                    let from = self.expr(parts.next().expect("from"))?;
                    let to = self.expr(parts.next().expect("to"))?;
                    Action::Move(n, from, to)
                }
                Rule::claim_action => {
                    let pits = self.pit_list(parts.next().expect("pits"))?;
                    Action::Claim(pits, self.expr(parts.next().expect("player"))?)
                }
                Rule::then_action => {
                    let kind = parts.next().expect("kind");
                    Action::Then(match kind.as_str() {
                        "end" => Then::End,
                        "continue" => Then::Continue,
                        _ => Then::AnotherMove,
                    })
                }
                other => unreachable!("the grammar produces no action {other:?}"),
            };
            actions.push(Spanned { node, span });
        }
        Ok(RuleDef { name, when, actions })
    }

    fn pit_list(&self, pair: Pair<Rule>) -> R<Vec<Expr>> {
        children(pair).map(|e| self.expr(e)).collect()
    }

    fn remaining(&self, pair: Pair<Rule>) -> R<Remaining> {
        let mode = children(children(pair).next().expect("mode")).next().expect("kind");
        Ok(match mode.as_rule() {
            Rule::remaining_owner => Remaining::Owner,
            Rule::remaining_to => Remaining::To(self.expr(children(mode).next().expect("player"))?),
            Rule::remaining_split => Remaining::Split,
            Rule::remaining_in_place => Remaining::InPlace,
            _ => Remaining::Uncounted,
        })
    }

    fn expr(&self, pair: Pair<Rule>) -> R<Expr> {
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::expr => {
                let mut inner = children(pair);
                let set = self.expr(inner.next().expect("or_expr"))?;
                match inner.next() {
                    Some(cond) => {
                        let cond = self.expr(cond)?;
                        Ok(Expr {
                            kind: ExprKind::Where(Box::new(set), Box::new(cond)),
                            span,
                        })
                    }
                    None => Ok(set),
                }
            }
            Rule::or_expr => self.fold(pair, BinOp::Or),
            Rule::and_expr => self.fold(pair, BinOp::And),
            Rule::not_expr => {
                let mut inner = children(pair);
                let first = inner.next().expect("operand");
                if first.as_rule() == Rule::not_expr {
                    Ok(Expr {
                        kind: ExprKind::Not(Box::new(self.expr(first)?)),
                        span,
                    })
                } else {
                    self.expr(first)
                }
            }
            Rule::comparison => {
                let mut inner = children(pair);
                let left = self.expr(inner.next().expect("left"))?;
                let Some(op) = inner.next() else { return Ok(left) };
                let kind = match op.as_rule() {
                    Rule::compare_op => {
                        let right = self.expr(inner.next().expect("right"))?;
                        let op = match op.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<" => BinOp::Lt,
                            "<=" => BinOp::Le,
                            ">" => BinOp::Gt,
                            _ => BinOp::Ge,
                        };
                        ExprKind::Binary(op, Box::new(left), Box::new(right))
                    }
                    Rule::range => {
                        let mut r = children(op);
                        let lo = self.expr(r.next().expect("lo"))?;
                        let hi = self.expr(r.next().expect("hi"))?;
                        ExprKind::InRange(Box::new(left), Box::new(lo), Box::new(hi))
                    }
                    Rule::int_set => ExprKind::InSet(Box::new(left), children(op).map(|e| self.expr(e)).collect::<R<_>>()?),
                    _ => ExprKind::Parity(Box::new(left), op.as_str() == "even"),
                };
                Ok(Expr { kind, span })
            }
            Rule::sum | Rule::product => {
                let mut inner = children(pair);
                let mut acc = self.expr(inner.next().expect("operand"))?;
                while let (Some(op), Some(rhs)) = (inner.next(), inner.next()) {
                    let op = match op.as_str() {
                        "+" => BinOp::Add,
                        "-" => BinOp::Sub,
                        "*" => BinOp::Mul,
                        "/" => BinOp::Div,
                        _ => BinOp::Rem,
                    };
                    let rhs = self.expr(rhs)?;
                    let s = acc.span.to(rhs.span);
                    acc = Expr {
                        kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
                        span: s,
                    };
                }
                Ok(acc)
            }
            Rule::unary => {
                let mut inner = children(pair);
                let first = inner.next().expect("operand");
                if first.as_rule() == Rule::neg {
                    let operand = self.expr(inner.next().expect("operand"))?;
                    Ok(Expr {
                        kind: ExprKind::Neg(Box::new(operand)),
                        span,
                    })
                } else {
                    self.expr(first)
                }
            }
            Rule::postfix => {
                let mut inner = children(pair);
                let mut acc = self.expr(inner.next().expect("primary"))?;
                for field in inner {
                    let fspan = self.span(&field);
                    let s = acc.span.to(fspan);
                    acc = Expr {
                        kind: ExprKind::Field(
                            Box::new(acc),
                            Spanned {
                                node: field.as_str().to_string(),
                                span: fspan,
                            },
                        ),
                        span: s,
                    };
                }
                Ok(acc)
            }
            Rule::primary => self.expr(children(pair).next().expect("primary")),
            Rule::int => Ok(Expr {
                kind: ExprKind::Int(self.int(pair)?.node),
                span,
            }),
            Rule::ident => Ok(Expr {
                kind: ExprKind::Name(pair.as_str().to_string()),
                span,
            }),
            Rule::call => {
                let mut inner = children(pair);
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                let args = inner.map(|e| self.expr(e)).collect::<R<_>>()?;
                Ok(Expr {
                    kind: ExprKind::Call(name, args),
                    span,
                })
            }
            other => unreachable!("the grammar produces no expression {other:?}"),
        }
    }

    fn fold(&self, pair: Pair<Rule>, op: BinOp) -> R<Expr> {
        let mut inner = children(pair);
        let mut acc = self.expr(inner.next().expect("operand"))?;
        for rhs in inner {
            let rhs = self.expr(rhs)?;
            let s = acc.span.to(rhs.span);
            acc = Expr {
                kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
                span: s,
            };
        }
        Ok(acc)
    }
}
