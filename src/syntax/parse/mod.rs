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
    "game", "extends", "param", "board", "first", "sow", "forbid", "feeding", "grand", "trigger", "capture", "captures", "no", "pass",
    "let", "end", "phase", "rounds", "drop", "memory", "after", "at",
];

/// How deeply brackets may nest, and how many prefix operators (`not`, `-`) may follow each other.
/// Deeper text is refused before pest sees it, so that nothing recurses without bound.
pub const MAX_NESTING: usize = 48;

/// How deep the tree of one expression may be; a chain such as `1 + 1 + ...` adds a level per operator.
pub const MAX_EXPR_DEPTH: usize = 200;

/// At most this many syntax errors are reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Parses one file's text; every syntax error of the file when it does not parse (see
/// [`parse_recovering`]); the unit tests' entry.
#[cfg(test)]
pub fn parse(text: &str, file: FileId) -> Result<File, Vec<Diagnostic>> {
    let r = parse_recovering(text, file);
    if r.errors.is_empty() { Ok(r.file) } else { Err(r.errors) }
}

/// A file parsed as far as it goes: the items that parsed, every syntax error, and the items left out.
#[derive(Debug, Clone)]
pub struct Recovered {
    /// The items that parsed (all of them when `errors` is empty).
    pub file: File,
    /// Every syntax error found, in the order found.
    pub errors: Vec<Diagnostic>,
    /// The items left out because they are broken.
    pub broken: Vec<Broken>,
    /// Every broken item was found and left out, so `file` holds exactly the other items: the
    /// checks can run on them. False when parsing gave up (too complex, too many errors).
    pub complete: bool,
}

/// An item left out because it does not parse.
#[derive(Debug, Clone)]
pub struct Broken {
    /// Its first word (`capture`, `param`, or a misspelt one).
    pub word: String,
    /// Its second word when that is a name (the parameter of a broken `param`).
    pub name: Option<String>,
}

/// Parses one file's text, going on after syntax errors: the broken item is blanked out and the rest
/// parsed again, so that every broken item is reported in one run (each once), and the items that
/// parse are returned for the checks.
pub fn parse_recovering(text: &str, file: FileId) -> Recovered {
    let gave_up = |errors: Vec<Diagnostic>, broken: Vec<Broken>| Recovered {
        file: File { items: Vec::new() },
        errors,
        broken,
        complete: false,
    };
    if text.len() > MAX_SOURCE_BYTES {
        return gave_up(vec![too_large(text.len() as u64, file)], vec![]);
    }
    if let Some(d) = nesting(text, file) {
        return gave_up(vec![d], vec![]);
    }
    // A second guard against deep recursion: pest counts calls and gives up.
    pest::set_call_limit(std::num::NonZeroUsize::new(5_000_000));
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut broken: Vec<Broken> = Vec::new();
    let mut masked: Option<String> = None;
    loop {
        let current = masked.as_deref().unwrap_or(text);
        match SowParser::parse(Rule::file, current) {
            Ok(mut pairs) => {
                let file_pair = pairs.next().expect("the file rule always produces one pair");
                let builder = Builder { file };
                let mut items = Vec::new();
                for pair in children(file_pair) {
                    if pair.as_rule() == Rule::EOI {
                        continue;
                    }
                    let span = builder.span(&pair);
                    match builder.items(pair) {
                        Ok(item) => items.extend(item),
                        Err(e) => {
                            errors.push(e);
                            broken.push(describe_broken(current, span));
                        }
                    }
                }
                return Recovered {
                    file: File { items },
                    errors,
                    broken,
                    complete: true,
                };
            }
            Err(error) => {
                let custom = matches!(error.variant, pest::error::ErrorVariant::CustomError { .. });
                let d = syntax_error(current, file, error);
                let at = d.labels.first().map_or(0, |l| l.span.start);
                errors.push(d);
                if custom || errors.len() >= MAX_SYNTAX_ERRORS {
                    return gave_up(errors, broken);
                }
                let Some((start, end)) = broken_item(current, at) else {
                    return gave_up(errors, broken);
                };
                broken.push(describe_broken(current, Span { file, start, end }));
                // Blank the broken item out; byte offsets (and so every span) stay the same.
                let mut bytes = current.as_bytes().to_vec();
                for b in &mut bytes[start..end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
                masked = Some(String::from_utf8(bytes).expect("blanking with ASCII spaces keeps UTF-8"));
            }
        }
    }
}

mod errors;
mod expr;
pub use errors::too_large;
use errors::*;

/// The children of a pair, without the keyword tokens (`when`, `and`, ...) that carry no value.
fn children(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_when
                | Rule::kw_in
                | Rule::kw_is
                | Rule::kw_and
                | Rule::kw_or
                | Rule::kw_not
                | Rule::kw_where
                | Rule::kw_set
                | Rule::kw_add
        )
    })
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

    /// The span of an expression without the blanks and comments pest lets it swallow at its end
    /// (so that a label underlines `last.count == 2`, not the lines up to the next statement).
    fn expr_span(&self, pair: &Pair<Rule>) -> Span {
        let mut span = self.span(pair);
        let mut text = pair.as_str();
        loop {
            text = text.trim_end();
            let line = text.rfind('\n').map_or(0, |i| i + 1);
            match text[line..].find('#') {
                // Expressions hold no `#`, so one starts a comment.
                Some(h) => text = &text[..line + h],
                None => break,
            }
        }
        span.end = span.start + text.len();
        span
    }

    /// The pieces of a stated track, in order.
    fn track_path(&self, path: Pair<Rule>) -> R<Vec<TrackPiece>> {
        path.into_inner()
            .map(|piece| {
                let span = self.expr_span(&piece);
                let mut parts = piece.into_inner();
                let whose = match parts.next().expect("whose").as_str() {
                    "mover" => TrackWhose::Mover,
                    "opponent" => TrackWhose::Opponent,
                    _ => TrackWhose::Shared,
                };
                let mut part = parts.next().expect("row, range or store");
                let row = if part.as_rule() == Rule::track_row {
                    let row = Spanned {
                        node: match part.as_str() {
                            "front" => TrackRow::Front,
                            "middle" => TrackRow::Middle,
                            _ => TrackRow::Back,
                        },
                        span: self.span(&part),
                    };
                    part = parts.next().expect("range");
                    Some(row)
                } else {
                    None
                };
                let range = if part.as_rule() == Rule::track_range {
                    let mut ends = Vec::new();
                    for end in part.into_inner() {
                        ends.push(if end.as_rule() == Rule::pit_ref {
                            TrackEnd::Named(Spanned {
                                node: end.as_str().to_string(),
                                span: self.span(&end),
                            })
                        } else {
                            TrackEnd::Number(self.expr(end)?)
                        });
                    }
                    let first = ends.remove(0);
                    let last = ends.pop().unwrap_or_else(|| first.clone());
                    Some((first, last))
                } else {
                    None
                };
                Ok(TrackPiece { whose, row, range, span })
            })
            .collect()
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
            Rule::board_item | Rule::sow_item | Rule::memory_item => Ok(self.block(pair)?),
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
        let mut items: Vec<Item> = Vec::new();
        for p in children(pair) {
            // `middle row owned by halves` is two settings: the row, and who owns it.
            let middle_halves = p.as_rule() == Rule::board_middle && p.clone().into_inner().any(|o| o.as_str() == "halves");
            let item = self.item(p)?;
            if middle_halves {
                items.push(Item {
                    kind: ItemKind::BoardHalves(crate::board::Halves::Middle),
                    span: item.span,
                });
            }
            // A board's `seeds` lines are one setting, read in order: they are kept together.
            if let ItemKind::BoardSeeds(more) = &item.kind
                && let Some(Item {
                    kind: ItemKind::BoardSeeds(lines),
                    span,
                }) = items.iter_mut().find(|i| matches!(i.kind, ItemKind::BoardSeeds(_)))
            {
                lines.extend(more.iter().cloned());
                *span = span.to(item.span);
                continue;
            }
            items.push(item);
        }
        Ok(items)
    }

    fn item(&self, pair: Pair<Rule>) -> R<Item> {
        // A track may end in a number expression, a `param` and `next round first` in optional words,
        // which swallow the blanks after them.
        let span = if matches!(
            pair.as_rule(),
            Rule::sow_track | Rule::next_round_first | Rule::param_item | Rule::board_middle
        ) {
            self.expr_span(&pair)
        } else {
            self.span(&pair)
        };
        let rule = pair.as_rule();
        let mut inner = children(pair);
        let kind = match rule {
            Rule::game_item => ItemKind::Game(self.string(inner.next().expect("name")).node),
            Rule::level_item => ItemKind::Level(inner.next().expect("the grammar gives a level").as_str().to_string()),
            Rule::word_item => ItemKind::Word(
                self.string(inner.next().expect("the grammar gives the word")),
                self.string(inner.next().expect("the grammar gives its meaning")).node,
            ),
            Rule::extends_item => ItemKind::Extends(self.string(inner.next().expect("path")).node),
            Rule::param_item => {
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                let default = self.int(inner.next().expect("default"))?;
                let (mut range, mut parity, mut values) = (None, None, None);
                let rest: Vec<Pair<Rule>> = inner.collect();
                match rest.as_slice() {
                    [set] if set.as_rule() == Rule::param_values => {
                        let span = self.span(set);
                        let list = children(set.clone()).map(|n| self.int(n)).collect::<R<Vec<_>>>()?;
                        values = Some(Spanned { node: list, span });
                    }
                    [lo, hi, more @ ..] => {
                        range = Some((self.int(lo.clone())?, self.int(hi.clone())?));
                        parity = more.first().map(|p| Spanned {
                            node: p.as_str() == "even",
                            span: self.span(p),
                        });
                    }
                    _ => {}
                }
                ItemKind::Param {
                    name,
                    default,
                    range,
                    parity,
                    values,
                }
            }
            Rule::board_pits => ItemKind::BoardPits(self.expr(inner.next().expect("expr"))?),
            Rule::board_rows => ItemKind::BoardRows(self.expr(inner.next().expect("expr"))?),
            Rule::board_seeds => ItemKind::BoardSeeds(vec![self.expr(inner.next().expect("expr"))?]),
            Rule::board_layout => {
                let mut rows = Vec::new();
                while let (Some(p), Some(list)) = (inner.next(), inner.next()) {
                    let player = self.player(p);
                    let lists: Vec<Pair<Rule>> = if list.as_rule() == Rule::row_lists {
                        children(list).collect()
                    } else {
                        vec![list]
                    };
                    let mut side = Vec::new();
                    for list in lists {
                        let lspan = self.span(&list);
                        let values = children(list).map(|e| self.expr(e)).collect::<R<Vec<_>>>()?;
                        side.push(Spanned { node: values, span: lspan });
                    }
                    rows.push((player, side));
                }
                ItemKind::BoardLayout(rows)
            }
            Rule::layout_shared => {
                let list = inner.next().expect("list");
                let lspan = self.span(&list);
                let values = children(list).map(|e| self.expr(e)).collect::<R<Vec<_>>>()?;
                ItemKind::BoardLayoutShared(Spanned { node: values, span: lspan })
            }
            Rule::board_reserve => ItemKind::BoardReserve(self.expr(inner.next().expect("expr"))?),
            Rule::board_store_pit => ItemKind::BoardStorePit(self.expr(inner.next().expect("expr"))?),
            Rule::sow_from_store => ItemKind::SowFromStore(self.expr(inner.next().expect("expr"))?),
            Rule::captures_required => ItemKind::CapturesRequired,
            Rule::phase_optional => ItemKind::PhaseOptional,
            Rule::pass_item => {
                let when = inner.next().expect("unable or a condition");
                if when.as_rule() == Rule::pass_unable {
                    ItemKind::PassWhenUnable
                } else {
                    ItemKind::PassWhen(self.expr(when)?)
                }
            }
            Rule::let_item => {
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                ItemKind::Let(name, self.expr(inner.next().expect("expr"))?)
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
                ItemKind::SowDirection(match d.as_str() {
                    "cw" => Direction::Cw,
                    "either" => Direction::Either,
                    _ => Direction::Ccw,
                })
            }
            Rule::sow_track => {
                let kind = inner.next().expect("kind");
                ItemKind::SowTrack(match kind.as_rule() {
                    Rule::track_path => TrackKind::Path(self.track_path(kind)?),
                    Rule::string => TrackKind::Named(self.string(kind)),
                    _ if kind.as_str() == "own" => TrackKind::Own,
                    _ => TrackKind::Shared,
                })
            }
            Rule::track_item => {
                let name = self.string(inner.next().expect("name"));
                ItemKind::Track(name, self.track_path(inner.next().expect("path"))?)
            }
            Rule::board_middle => ItemKind::BoardMiddle,
            Rule::board_halves => ItemKind::BoardHalves(crate::board::Halves::Board),
            Rule::board_ring => {
                let size = self.expr(inner.next().expect("expr"))?;
                ItemKind::BoardRing(
                    size,
                    match inner.next().map(|p| p.as_str()) {
                        Some("nobody") => RingOwner::Nobody,
                        _ => RingOwner::Halves,
                    },
                )
            }
            Rule::play_from_item => ItemKind::PlayFrom(match inner.next().expect("whose").as_str() {
                "owned" => PlayFrom::Owned,
                "shared" => PlayFrom::Shared,
                "any" => PlayFrom::Any,
                _ => PlayFrom::Own,
            }),
            Rule::sow_skip_origin => ItemKind::SowSkipOrigin,
            Rule::sow_skip_when => ItemKind::SowSkipWhen(self.expr(inner.next().expect("expr"))?),
            Rule::sow_into_store => ItemKind::SowIntoStore(inner.next().expect("stores").as_rule() == Rule::both_stores),
            Rule::sow_relay => ItemKind::SowRelay(self.expr(inner.next().expect("expr"))?),
            Rule::sow_relay_never => ItemKind::SowRelayNever,
            Rule::sow_relay_from => ItemKind::SowRelayFrom(self.expr(inner.next().expect("expr"))?),
            Rule::sow_start_origin => ItemKind::SowStartInOrigin(match inner.find(|p| p.as_rule() == Rule::expr) {
                Some(e) => Some(self.expr(e)?),
                None => None,
            }),
            Rule::sow_relay_limit => ItemKind::SowRelayLimit(self.expr(inner.next().expect("expr"))?),
            Rule::sow_lift => ItemKind::SowLift(self.expr(inner.next().expect("expr"))?),
            Rule::forbid_item => {
                let reason = self.string(inner.next().expect("reason"));
                let next = inner.next().expect("cond");
                if next.as_rule() == Rule::forbid_after {
                    ItemKind::ForbidAfter(reason, self.expr(inner.next().expect("cond"))?)
                } else {
                    ItemKind::Forbid(reason, self.expr(next)?)
                }
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
            Rule::after_move_item => ItemKind::AfterMove(self.rule_def(inner)?),
            Rule::moment_item => {
                let moment = inner.next().expect("moment");
                let def = self.rule_def(inner)?;
                match moment_words(moment.as_str()) {
                    MomentWords::At(m) => ItemKind::At(m, def),
                    MomentWords::EachSeed => ItemKind::Trigger(def),
                    MomentWords::MoveEnd => ItemKind::AfterMove(def),
                }
            }
            Rule::memory_slot => {
                let owner = inner.next().expect("owner");
                let owner = Spanned {
                    node: match owner.as_str() {
                        "pit" => MemoryOwner::Pit,
                        "game" => MemoryOwner::Game,
                        _ => MemoryOwner::Player,
                    },
                    span: self.span(&owner),
                };
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                ItemKind::Memory(MemorySlot {
                    owner,
                    name,
                    start: self.expr(inner.next().expect("start"))?,
                })
            }
            Rule::capture_item => ItemKind::Capture(self.rule_def(inner)?),
            Rule::no_captures => ItemKind::NoCaptures,
            Rule::no_sowing => ItemKind::NoSowing,
            Rule::end_item => {
                let name = self.string(inner.next().expect("name"));
                let cond = self.expr(inner.next().expect("cond"))?;
                let (remaining, from, result) = self.end_how(inner)?;
                ItemKind::End(name, cond, remaining, from, result)
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
            Rule::setup_fill => {
                let per_pit = self.expr(inner.next().expect("n"))?;
                let options = inner
                    .map(|o| {
                        let span = self.span(&o);
                        let option = children(o).next().expect("option");
                        let node = match option.as_rule() {
                            Rule::fill_made_up if children(option.clone()).next().is_some() => FillOption::RemainderMadeUpClaimed,
                            Rule::fill_made_up => FillOption::RemainderMadeUp,
                            Rule::fill_close => FillOption::CloseUnfilled,
                            Rule::fill_remainder => FillOption::RemainderNext,
                            Rule::fill_as_many => FillOption::AsManyAsOther,
                            Rule::fill_as_used => FillOption::AsManyAsUsed,
                            Rule::fill_right => FillOption::FromRight,
                            _ => FillOption::ClaimUnfilled,
                        };
                        Spanned { node, span }
                    })
                    .collect();
                ItemKind::SetupFill(per_pit, options)
            }
            Rule::setup_deal => ItemKind::SetupDeal,
            Rule::setup_by_moves => ItemKind::SetupByMoves,
            Rule::setup_mirror => ItemKind::SetupMirror,
            Rule::setup_store => ItemKind::SetupStore(self.expr(inner.next().expect("n"))?),
            Rule::next_round_first => {
                let opener = |p: &Pair<Rule>| match p.as_str().split_whitespace().next() {
                    Some("alternate") => RoundOpener::Alternate,
                    Some("loser") => RoundOpener::Loser,
                    Some("winner") => RoundOpener::Winner,
                    Some("fewer") => RoundOpener::FewerSeeds,
                    Some("other") => RoundOpener::OtherThanEnder,
                    _ => RoundOpener::Same,
                };
                let rule = opener(&inner.next().expect("opener"));
                let tie = inner.find(|p| p.as_rule() == Rule::round_opener).map(|p| Spanned {
                    node: opener(&p),
                    span: self.span(&p),
                });
                ItemKind::NextRoundFirst(rule, tie)
            }
            Rule::setup_keep_claims => ItemKind::SetupKeepClaims,
            Rule::drop_item => {
                let kind = inner.next().expect("kind");
                if kind.as_rule() == Rule::drop_board {
                    let key = children(kind).next().expect("key");
                    let name = Spanned {
                        node: key.as_str().split_whitespace().collect::<Vec<_>>().join(" "),
                        span: self.span(&key),
                    };
                    return Ok(Item {
                        kind: ItemKind::Drop(DropKind::Board, name),
                        span,
                    });
                }
                let kind = match kind.as_str() {
                    words if kind.clone().into_inner().next().is_some() => match moment_words(words) {
                        MomentWords::At(m) => DropKind::At(m),
                        MomentWords::EachSeed => DropKind::Trigger,
                        MomentWords::MoveEnd => DropKind::AfterMove,
                    },
                    "capture" => DropKind::Capture,
                    "trigger" => DropKind::Trigger,
                    "end" => DropKind::End,
                    "forbid" => DropKind::Forbid,
                    "phase" => DropKind::Phase,
                    "track" => DropKind::Track,
                    _ => DropKind::AfterMove,
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
                Rule::take_some_action => {
                    let count = self.expr(parts.next().expect("count"))?;
                    let pit = self.expr(parts.next().expect("pit"))?;
                    let receiver = match parts.next() {
                        None => None,
                        Some(p) if p.as_rule() == Rule::owner_kw => Some(Receiver::Owner),
                        Some(p) => Some(Receiver::Player(self.expr(p)?)),
                    };
                    Action::TakeSome(count, pit, receiver)
                }
                Rule::sow_from_action => {
                    let pit = self.expr(parts.next().expect("pit"))?;
                    let direction = parts.next().map(|part| Spanned {
                        span: self.span(&part),
                        node: match part.as_str() {
                            "cw" => Direction::Cw,
                            "either" => Direction::Either,
                            _ => Direction::Ccw,
                        },
                    });
                    Action::SowFrom(SowAgain {
                        pit: Some(pit),
                        after: true,
                        direction,
                    })
                }
                Rule::end_action => {
                    let whole_game = parts.next().expect("scope").as_str().ends_with("game");
                    let (remaining, from, result) = self.end_how(parts)?;
                    Action::End(EndAction {
                        whole_game,
                        remaining,
                        from,
                        result,
                    })
                }
                Rule::close_action => {
                    let closing = parts.next().expect("word").as_str() == "close";
                    Action::Close(self.pit_list(parts.next().expect("pits"))?, closing)
                }
                Rule::series_action => {
                    let dir = match parts.next().expect("dir").as_str() {
                        "forward" => SeriesDir::Forward,
                        "backward" => SeriesDir::Backward,
                        _ => SeriesDir::BothWays,
                    };
                    let mut every_other = false;
                    let mut with_stores = None;
                    let mut with_opposite = false;
                    let mut cond = None;
                    let mut cap = None;
                    for part in parts {
                        match part.as_rule() {
                            Rule::every_other => every_other = true,
                            Rule::with_stores => with_stores = Some(self.span(&part)),
                            Rule::with_opposite => with_opposite = true,
                            Rule::series_cap => {
                                let mut inner = children(part);
                                let n = self.expr(inner.next().expect("n"))?;
                                let unit = if inner.next().expect("unit").as_str() == "pits" {
                                    CapUnit::Pits
                                } else {
                                    CapUnit::Seeds
                                };
                                cap = Some((n, unit));
                            }
                            _ => cond = Some(self.expr(part)?),
                        }
                    }
                    Action::Series(SeriesDef {
                        dir,
                        every_other,
                        with_stores,
                        cond: cond.expect("the grammar asks for a condition"),
                        with_opposite,
                        cap,
                    })
                }
                Rule::move_action => {
                    let mut count = None;
                    let mut each = false;
                    let mut from = Vec::new();
                    let mut to = None;
                    for part in parts {
                        match part.as_rule() {
                            Rule::move_all => {}
                            Rule::each_of => each = true,
                            Rule::pit_list => from = self.pit_list(part)?,
                            _ if from.is_empty() => count = Some(self.expr(part)?),
                            _ => to = Some(self.expr(part)?),
                        }
                    }
                    Action::Move(MoveDef {
                        count,
                        each,
                        from,
                        to: to.expect("the grammar asks for a destination"),
                    })
                }
                Rule::claim_action => {
                    let pits = self.pit_list(parts.next().expect("pits"))?;
                    Action::Claim(pits, self.expr(parts.next().expect("player"))?)
                }
                Rule::sow_taken_action => {
                    let mut again = SowAgain {
                        pit: None,
                        after: false,
                        direction: None,
                    };
                    for part in parts {
                        match part.as_rule() {
                            Rule::sow_taken_from | Rule::sow_taken_after => {
                                again.after = part.as_rule() == Rule::sow_taken_after;
                                again.pit = Some(self.expr(children(part).next().expect("pit"))?);
                            }
                            _ => {
                                let span = self.span(&part);
                                let node = match part.as_str() {
                                    "cw" => Direction::Cw,
                                    "either" => Direction::Either,
                                    _ => Direction::Ccw,
                                };
                                again.direction = Some(Spanned { node, span });
                            }
                        }
                    }
                    Action::SowTaken(again)
                }
                Rule::set_action => {
                    let target = self.expr(parts.next().expect("target"))?;
                    Action::Set(target, self.expr(parts.next().expect("value"))?)
                }
                Rule::add_action => {
                    let amount = self.expr(parts.next().expect("amount"))?;
                    Action::Add(amount, self.expr(parts.next().expect("target"))?)
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

    /// `remaining MODE [from PITS]`: the mode, and the pits it is limited to.
    /// The `remaining MODE [from PITS]` and the result after an end rule's condition (or an `end`
    /// action's scope).
    #[allow(clippy::type_complexity)]
    fn end_how<'i>(&self, parts: impl Iterator<Item = Pair<'i, Rule>>) -> R<(Option<Remaining>, Option<Box<Expr>>, Option<EndResult>)> {
        let (mut remaining, mut from, mut result) = (None, None, None);
        for part in parts {
            if part.as_rule() == Rule::end_result {
                let r = children(part).next().expect("result");
                result = Some(match r.as_rule() {
                    Rule::result_winner => EndResult::Winner(self.expr(children(r).next().expect("player"))?),
                    Rule::result_loser => EndResult::Loser(self.expr(children(r).next().expect("player"))?),
                    _ => EndResult::Draw,
                });
            } else {
                let (mode, pits) = self.remaining(part)?;
                remaining = Some(mode);
                from = pits.map(Box::new);
            }
        }
        Ok((remaining, from, result))
    }

    fn remaining(&self, pair: Pair<Rule>) -> R<(Remaining, Option<Expr>)> {
        let mut parts = children(pair);
        let mode = children(parts.next().expect("mode")).next().expect("kind");
        let mode = match mode.as_rule() {
            Rule::remaining_owner => Remaining::Owner,
            Rule::remaining_to => Remaining::To(self.expr(children(mode).next().expect("player"))?),
            Rule::remaining_split => Remaining::Split,
            Rule::remaining_in_place => Remaining::InPlace,
            _ => Remaining::Uncounted,
        };
        let from = match parts.next() {
            Some(from) => Some(self.expr(children(from).next().expect("pits"))?),
            None => None,
        };
        Ok((mode, from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<&'static str> {
        match parse(text, FileId(0)) {
            Ok(_) => vec![],
            Err(diags) => diags.iter().map(|d| d.code).collect(),
        }
    }

    #[test]
    fn a_broken_line_is_blanked_up_to_the_next_statement() {
        let text = "a 1\n  b 2\nc 3\n";
        assert_eq!(broken_item(text, 6), Some((0, 10)));
        assert_eq!(broken_item(text, 11), Some((10, text.len())), "the last item runs to the end");
        assert_eq!(broken_item("   \n", 1), None, "nothing left to blank");
    }

    #[test]
    fn items_are_told_apart_when_indented_or_on_one_line() {
        // Issue 14: one broken item used to hide the items indented below it.
        let text = "game \"x\" board { pits 6 }\n  capture \"c\" { when 1 == 1 take last }\n  sow { skip origin }\n";
        let starts: Vec<&str> = item_starts(text).iter().map(|&i| &text[i..i + 4]).collect();
        assert_eq!(starts, ["game", "boar", "capt", "sow "]);
        // Item words inside braces, quotes and comments, or not followed by what the item needs, start nothing.
        let text = "grand slam capture nothing # end \"x\"\nphase \"end\" when ply < 2 { forbid \"f\" when 1 == 1 }\n";
        assert_eq!(item_starts(text).len(), 2);
    }

    #[test]
    fn an_item_left_open_is_the_broken_one() {
        // The error is reported at the next item's word; the item before it is the one to blank.
        let text = "game \"x\"\nboard { pits 6\ncapture \"c\" { when 1 == 1 take last }\n";
        let at = text.find("capture").expect("in the text");
        assert_eq!(broken_item(text, at), Some((text.find("board").expect("in the text"), at)));
    }

    #[test]
    fn the_items_that_parse_are_kept_after_a_syntax_error() {
        let text = "game \"x\"\n  board { pits 6 seeds }\n  capture \"c\" { when 1 = 1 take last }\n  end \"e\" when no_moves\n";
        let r = parse_recovering(text, FileId(0));
        assert!(r.complete);
        assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
        let words: Vec<&str> = r.broken.iter().map(|b| b.word.as_str()).collect();
        assert_eq!(words, ["board", "capture"]);
        assert_eq!(r.file.items.len(), 2, "the game's name and the end rule");
    }

    #[test]
    fn every_broken_item_is_reported_once() {
        let text = "game \"x\"\nbaord { pits 6 }\nsow { direktion cw }\nend \"e\" when no_moves\n";
        assert_eq!(codes(text), ["sow::syntax::unexpected_token"; 2]);
    }

    #[test]
    fn nesting_ignores_brackets_in_comments_and_names() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(nesting(&format!("# {deep}\ngame \"{deep}\"\n"), FileId(0)).is_none());
        assert!(nesting(&deep, FileId(0)).is_some());
        assert!(nesting(&"not ".repeat(MAX_NESTING + 1), FileId(0)).is_some());
        assert!(nesting(&"nothing ".repeat(MAX_NESTING + 1), FileId(0)).is_none());
    }

    #[test]
    fn a_long_chain_is_refused_before_it_gets_deep() {
        let text = format!("game \"x\"\nend \"e\" when ply > {}\n", vec!["1"; MAX_EXPR_DEPTH + 5].join(" + "));
        assert_eq!(codes(&text), ["sow::syntax::too_complex"]);
        let text = format!("game \"x\"\nend \"e\" when ply > {}\n", vec!["1"; MAX_EXPR_DEPTH / 2].join(" + "));
        assert_eq!(codes(&text), Vec::<&str>::new());
    }

    #[test]
    fn what_was_expected_is_never_cut() {
        // Every phrase is short enough that five of them, and a word cut to its longest, fit a message
        // whole (a message is cut only at `MAX_MESSAGE`, against the user's own long words).
        for &rule in Rule::all_rules() {
            assert!(phrase(rule).chars().count() <= 110, "{rule:?}: {}", phrase(rule));
        }
        // An unknown fill option: the options, the other statements and the expression's operators.
        let long = format!("game \"x\"\nrounds {{ setup fill 7 {} unfilled }}\n", "burn".repeat(30));
        for text in ["game \"x\"\nrounds { setup fill 7 burn unfilled }\n", long.as_str()] {
            let diags = parse(text, FileId(0)).expect_err("refused");
            assert!(
                diags[0].message.ends_with("(an operator such as `==`, `+` or `and`)"),
                "{}",
                diags[0].message
            );
            assert!(diags[0].message.contains("`claim unfilled`"), "{}", diags[0].message);
        }
    }

    #[test]
    fn a_way_written_in_full_is_told_its_short_word() {
        for (way, short) in [
            ("clockwise", "cw"),
            ("counterclockwise", "ccw"),
            ("anticlockwise", "ccw"),
            ("counter-clockwise", "ccw"),
        ] {
            let diags = parse(&format!("game \"x\"\nsow {{ direction {way} }}\n"), FileId(0)).expect_err("refused");
            let help = diags[0].help.as_deref().unwrap_or_default();
            assert!(help.starts_with(&format!("did you mean `{short}`?")), "{way}: {help}");
        }
        // Only where a way may stand: `clockwise` is a word of conditions too.
        let diags = parse("game \"x\"\nboard { pits 6 clockwise }\n", FileId(0)).expect_err("refused");
        assert!(
            !diags[0].help.as_deref().unwrap_or_default().contains("`cw`"),
            "{:?}",
            diags[0].help
        );
    }

    #[test]
    fn remaining_after_the_result_is_told_to_come_first() {
        let diags = parse("game \"x\"\nend \"e\" when no_moves loser to_move remaining owner\n", FileId(0)).expect_err("refused");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("`remaining` comes before the result: write `remaining owner loser to_move`")
        );
        let diags = parse("game \"x\"\nend \"e\" when no_moves draw remaining split # why\n", FileId(0)).expect_err("refused");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("`remaining` comes before the result: write `remaining split draw`")
        );
    }

    #[test]
    fn an_error_inside_a_word_shows_the_whole_word() {
        let diags = parse("grand slame forbidden\n", FileId(0)).expect_err("refused");
        assert_eq!(diags[0].message, "unexpected `slame`");
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `slam`?"));
    }
}
