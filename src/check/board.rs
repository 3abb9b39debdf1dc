//! The board's shape (rows, a middle row, a ring, the cells' layout, the pits a move may start from)
//! and the tracks a file states piece by piece. The compiler lays out its cells from the same
//! [`Geometry`], so a track `check` accepts is the track the engine sows.

use super::{Statics, limits, moments::bounded};
use crate::board::{Cell, Geometry, Player};
use crate::diagnostic::{Diagnostic, Span, suggest};
use crate::syntax::ast::{Expr, FillOption, Item, ItemKind, PlayFrom, TrackKind};
use crate::syntax::ast::{RingOwner, TrackEnd, TrackPiece, TrackRow, TrackWhose};

impl Geometry {
    /// The geometry of a ring of `n` pits.
    pub fn ring(n: usize, owner: RingOwner) -> Geometry {
        let (columns, shared) = match owner {
            RingOwner::Halves => (n / 2, n % 2),
            RingOwner::Nobody => (0, n),
        };
        Geometry {
            columns,
            rows: 1,
            shared,
            ring: true,
            ..Geometry::default()
        }
    }

    /// The cells of a stated track for `mover`, in sowing order; a diagnostic on the first piece that
    /// names no pit of this board or runs across rows. Ends given as numbers are worked out with the
    /// parameters' values `params`.
    pub fn path(&self, pieces: &[TrackPiece], mover: Player, params: &[(String, i64)]) -> Result<Vec<Cell>, Diagnostic> {
        let mut cells = Vec::new();
        for piece in pieces {
            let player = match piece.whose {
                TrackWhose::Mover => Some(mover),
                TrackWhose::Opponent => Some(mover.other()),
                TrackWhose::Shared => None,
            };
            let Some((first, last)) = &piece.range else {
                let Some(player) = player else {
                    return Err(problem(
                        piece.span,
                        "the shared pits have no store",
                        "write `mover store` or `opponent store`",
                    ));
                };
                cells.push((self.pit_count() + player.index()) as Cell);
                continue;
            };
            let (row_a, a) = self.end(first, piece, params)?;
            let (row_b, b) = self.end(last, piece, params)?;
            if row_a != row_b {
                return Err(problem(
                    piece.span,
                    "a piece of track runs along one row",
                    "write one piece for each row, such as `mover b1..b8, mover a8..a1`",
                ));
            }
            let numbers: Vec<usize> = if a <= b { (a..=b).collect() } else { (b..=a).rev().collect() };
            for k in numbers {
                cells.push(match player {
                    Some(p) => (p.index() * self.side_pits() + row_a * self.columns + k - 1) as Cell,
                    // A middle row is numbered from the mover's left; a ring's shared pits in ring order.
                    None if self.ring || mover == Player::South => (2 * self.side_pits() + k - 1) as Cell,
                    None => (2 * self.side_pits() + self.shared - k) as Cell,
                });
            }
        }
        Ok(cells)
    }

    /// One end of `piece`: its row (0 the front) and number. A pit named as moves name it (`a3`, or
    /// `s3` for a shared pit), or a number worked out before the game on the row the piece's word
    /// names (`mover back 1..pits`), else on the only row there is.
    fn end(&self, end: &TrackEnd, piece: &TrackPiece, params: &[(String, i64)]) -> Result<(usize, usize), Diagnostic> {
        let shared = piece.whose == TrackWhose::Shared;
        let named = match end {
            // A parameter whose name reads like a pit (`n2`) is the parameter.
            TrackEnd::Named(text) if !params.iter().any(|(p, _)| *p == text.node) => Some(&text.node),
            _ => None,
        };
        if let (Some(text), Some(row)) = (named, &piece.row) {
            return Err(problem(
                row.span.to(end.span()),
                format!("`{text}` names its row, and so does `{}`", row_word(row.node)),
                format!("write the numbers alone after the row's word, as in `mover back 1..8`, or leave the word out: `{text}`"),
            ));
        }
        if shared && let Some(row) = &piece.row {
            return Err(problem(
                row.span,
                format!("the shared pits have no {} row", row_word(row.node)),
                "leave the word out: `shared 1..6`",
            ));
        }
        let (letter, number, shown) = match (named, end) {
            (Some(text), _) => {
                let mut chars = text.chars();
                let letter = chars.next().map(|c| c.to_ascii_lowercase());
                let number: i64 = chars.as_str().parse().unwrap_or(0);
                (letter, number, format!("`{text}`"))
            }
            (None, TrackEnd::Named(text)) => {
                let value = params.iter().find(|(p, _)| *p == text.node).map_or(0, |(_, v)| *v);
                (None, value, format!("the pit number {value}"))
            }
            (None, TrackEnd::Number(e)) => {
                let mut diags = Vec::new();
                let Some(value) = (super::Statics { params }).eval(e, &mut diags) else {
                    return Err(diags.remove(0));
                };
                let shown = match e.kind {
                    crate::syntax::ast::ExprKind::Int(_) => format!("`{value}`"),
                    _ => format!("the pit number {value}"),
                };
                (None, value, shown)
            }
        };
        let literal = matches!(end, TrackEnd::Number(e) if matches!(e.kind, crate::syntax::ast::ExprKind::Int(_)));
        // A pit named as written is shown in its piece; a number worked out, at the expression.
        let span = if named.is_some() || literal { piece.span } else { end.span() };
        let (row, limit) = match (shared, letter) {
            (true, None | Some('s')) => (0, self.shared),
            (true, Some(_)) => {
                return Err(problem(
                    span,
                    format!("{shown} is not a shared pit"),
                    "shared pits are numbered: `shared 1..6`",
                ));
            }
            (false, None) => match &piece.row {
                Some(row) if row.node == TrackRow::Back => (self.rows - 1, self.columns),
                Some(row) if row.node == TrackRow::Middle && self.rows == 3 => (1, self.columns),
                Some(row) if row.node == TrackRow::Middle => {
                    return Err(problem(
                        row.span,
                        format!("a side of {} rows has no middle row of its own", self.rows),
                        "`middle` names a player's row `b` on a side of three rows (`rows 3`); name the rows by letter (`mover b1..b8`)",
                    ));
                }
                Some(_) => (0, self.columns),
                None if self.rows == 1 => (0, self.columns),
                None => {
                    return Err(problem(
                        span,
                        format!("{shown} does not say which row"),
                        "on a board of several rows a player, name pits by row letter and number (`a1..a8`), or name \
                         the row with a word (`mover back 1..pits`)",
                    ));
                }
            },
            (false, Some(l)) => (usize::from(l as u8).wrapping_sub(usize::from(b'a')), self.columns),
        };
        if row >= self.rows || !(1..=limit as i64).contains(&number) {
            let (what, label) = match named {
                Some(text) => (format!("there is no pit `{text}` on this board"), "this track".to_string()),
                None if literal => (format!("there is no pit `{number}` on this board"), "this track".to_string()),
                None => (
                    format!("this end of the track works out to pit {number}, which this board does not have"),
                    format!("pit {number} here"),
                ),
            };
            return Err(Diagnostic::error("sow::check::bad_track", what, span, label).with_help(if shared {
                format!("the shared pits are 1 to {}", self.shared)
            } else {
                format!(
                    "a player's pits are {} with numbers 1 to {}",
                    if self.rows == 1 {
                        "one row".to_string()
                    } else {
                        format!("rows a to {}", char::from(b'a' + self.rows as u8 - 1))
                    },
                    self.columns
                )
            }));
        }
        Ok((row, number as usize))
    }

    /// Checks a stated track: it names real pits, passes each cell once, and reaches every pit a
    /// player may start a move from.
    pub fn check_path(
        &self,
        pieces: &[TrackPiece],
        span: Span,
        play_from: PlayFrom,
        params: &[(String, i64)],
        diags: &mut Vec<Diagnostic>,
    ) {
        let cells = match self.path(pieces, Player::South, params) {
            Ok(cells) => cells,
            Err(d) => return diags.push(d),
        };
        let mut seen = vec![false; self.pit_count() + 2];
        for (cell, piece) in cells
            .iter()
            .zip(pieces.iter().flat_map(|p| std::iter::repeat_n(p, piece_len(self, p, params))))
        {
            if std::mem::replace(&mut seen[*cell as usize], true) {
                diags.push(problem(
                    piece.span,
                    "this piece of track passes a pit the track already went through",
                    "a track goes through each pit once: its end leads back to its start",
                ));
                return;
            }
        }
        if cells.len() < 2 {
            diags.push(problem(span, "a track needs at least two pits", "list the pits the seeds go round"));
            return;
        }
        let playable = |c: usize| match play_from {
            // A pit anywhere may come to be owned (claimed, or half of a board owned by halves).
            PlayFrom::Owned => true,
            PlayFrom::Own => c < self.side_pits(),
            PlayFrom::Shared => (2 * self.side_pits()..self.pit_count()).contains(&c),
            PlayFrom::Any => c < self.side_pits() || (2 * self.side_pits()..self.pit_count()).contains(&c),
        };
        if let Some(missing) = (0..self.pit_count()).find(|&c| playable(c) && !seen[c]) {
            let name = if missing >= 2 * self.side_pits() {
                format!("the shared pit s{}", missing - 2 * self.side_pits() + 1)
            } else if self.rows == 1 {
                format!("the mover's pit {}", missing + 1)
            } else {
                format!(
                    "the mover's pit {}{}",
                    char::from(b'a' + (missing / self.columns) as u8),
                    missing % self.columns + 1
                )
            };
            diags.push(problem(
                span,
                format!("the track leaves out {name}, which a move may start from"),
                "a move sows along the track from the pit played: list every pit a player may play",
            ));
        }
    }
}

/// How many cells a piece of track stands for (already known to name real pits).
fn piece_len(g: &Geometry, piece: &TrackPiece, params: &[(String, i64)]) -> usize {
    g.path(std::slice::from_ref(piece), Player::South, params).map_or(0, |c| c.len())
}

fn row_word(row: TrackRow) -> &'static str {
    match row {
        TrackRow::Front => "front",
        TrackRow::Back => "back",
        TrackRow::Middle => "middle",
    }
}

fn problem(span: Span, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::error("sow::check::bad_track", message, span, "this track").with_help(help)
}

/// The size of a ring board (`ring N [owned by ..]`), when the board is one and its size is possible.
pub(super) fn ring_size(items: &[Item], statics: &Statics, diags: &mut Vec<Diagnostic>) -> Option<crate::board::Geometry> {
    let (e, owner) = items.iter().find_map(|i| match &i.kind {
        ItemKind::BoardRing(e, owner) => Some((e, *owner)),
        _ => None,
    })?;
    let n = bounded(
        statics,
        e,
        2..=limits::MAX_SIDE_PITS,
        |v| format!("a ring of {v} pits is not possible"),
        "pits round the ring",
        diags,
    )?;
    Some(crate::board::Geometry::ring(n as usize, owner))
}

/// On a ring owned by nobody a round is set up by the players filling its empty pits in turn
/// (`setup fill N`): the set-ups that fill a player's own pits, or pits counted from an end, have no
/// meaning there.
fn shared_ring_setup(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let mut refuse = |span: Span, word: &str| {
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                format!("`{word}` has no meaning on a ring owned by nobody"),
                span,
                "this set-up",
            )
            .with_help("on a ring owned by nobody the players fill its empty pits in turn: `setup fill N`, with `close unfilled` or `remainder next`"),
        )
    };
    for item in items {
        match &item.kind {
            ItemKind::SetupDeal => refuse(item.span, "setup deal"),
            ItemKind::SetupMirror => refuse(item.span, "setup mirror"),
            ItemKind::SetupByMoves => refuse(item.span, "setup by moves"),
            ItemKind::SetupFill(_, options) => {
                for option in options {
                    let word = match option.node {
                        FillOption::ClaimUnfilled => "claim unfilled",
                        FillOption::AsManyAsOther => "as many as the other",
                        FillOption::AsManyAsUsed => "as many as the other used",
                        FillOption::FromRight => "from right",
                        FillOption::RemainderMadeUp => "remainder made up",
                        FillOption::RemainderMadeUpClaimed => "remainder made up and claimed",
                        FillOption::CloseUnfilled | FillOption::RemainderNext => continue,
                    };
                    refuse(option.span, word);
                }
            }
            _ => {}
        }
    }
}

/// Which rows the board's `owned by halves` gives by halves: every row (the middle row too), or the
/// middle row only. A ring says it in its own words (`ring N owned by halves`).
pub(super) fn halves(items: &[Item], ring: bool, diags: &mut Vec<Diagnostic>) -> crate::board::Halves {
    use crate::board::Halves;
    let mut halves = Halves::None;
    for item in items {
        let ItemKind::BoardHalves(h) = item.kind else { continue };
        if ring && h == Halves::Board {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "a ring says who owns its pits in its own words",
                    item.span,
                    "owned by halves",
                )
                .with_help("write `ring N owned by halves`"),
            );
        }
        if halves != Halves::Board {
            halves = h;
        }
    }
    halves
}

/// A move may start from pits that exist, and the moves of a player fit the engine.
pub(super) fn check_play_from(items: &[Item], g: crate::board::Geometry, play_from: PlayFrom, diags: &mut Vec<Diagnostic>) {
    let item = items.iter().find(|i| matches!(i.kind, ItemKind::PlayFrom(_)));
    if let Some(item) = item {
        let none = match play_from {
            PlayFrom::Shared => (g.shared == 0).then_some("this board has no shared pits"),
            PlayFrom::Own | PlayFrom::Any => (g.side_pits() == 0).then_some("on this ring the players own no pits"),
            // On a ring owned by nobody a claim is the only way to own a pit: it may come.
            PlayFrom::Owned => None,
        };
        if let Some(why) = none {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!("no move could be made: {why}"),
                    item.span,
                    "pits played",
                )
                .with_help("shared pits come with `middle row` or `ring N owned by nobody`"),
            );
        }
    }
    // A middle row keeps its seeds from round to round; the one shared pit of an odd ring owned by
    // halves is not a row a set-up could leave alone.
    if g.shared > 0
        && g.ring
        && g.side_pits() > 0
        && let Some(rounds) = items.iter().find(|i| matches!(i.kind, ItemKind::Rounds))
    {
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                "a match of rounds is not played on a ring with shared pits",
                rounds.span,
                "rounds",
            )
            .with_help("a round's set-up fills each player's own pits from their store; shared pits have no owner to fill them (a board of rows may have a `middle row`)"),
        );
    }
    if g.ring && g.side_pits() == 0 {
        shared_ring_setup(items, diags);
    }
    // A set-up fills the players' rows: a half of the board or of the middle row would be left out.
    if g.halves != crate::board::Halves::None
        && let Some(rounds) = items.iter().find(|i| matches!(i.kind, ItemKind::Rounds))
    {
        let halves = items.iter().find(|i| matches!(i.kind, ItemKind::BoardHalves(_)));
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                "a match of rounds is not played on a board owned by halves",
                rounds.span,
                "rounds",
            )
            .with_label(halves.map_or(rounds.span, |h| h.span), "owned by halves")
            .with_help("a round's set-up fills each player's rows from their store, not the halves they own"),
        );
    }
    let move_pits = g.move_pits();
    // With `play from owned` the opponent's pits are moves too (when the mover owns them).
    let which = if g.plays_across {
        "a player's pits, the shared pits and the opponent's"
    } else {
        "a player's pits and the shared pits"
    };
    if move_pits as i64 > limits::MAX_SIDE_PITS {
        diags.push(
            Diagnostic::error(
                "sow::check::out_of_range",
                format!("{which} make {move_pits} moves, more than the engine plays"),
                item.map_or_else(
                    || {
                        items
                            .iter()
                            .find(|i| matches!(i.kind, ItemKind::BoardMiddle))
                            .map_or(Span::default(), |i| i.span)
                    },
                    |i| i.span,
                ),
                "the pits a move may name",
            )
            .with_help(format!("{which} may be at most {} together", limits::MAX_SIDE_PITS)),
        );
    }
    // A pass is a move of its own, numbered after the pits (and their ways).
    let phases = || {
        items.iter().chain(items.iter().flat_map(|i| match &i.kind {
            ItemKind::Phase(_, _, inner) => inner.as_slice(),
            _ => &[],
        }))
    };
    let ways = if phases().any(|i| matches!(i.kind, ItemKind::SowDirection(crate::syntax::ast::Direction::Either))) {
        2
    } else {
        1
    };
    if let Some(pass) = phases().find(|i| matches!(i.kind, ItemKind::PassWhen(_)))
        && (move_pits * ways + 1) as i64 > limits::MAX_SIDE_PITS
        && move_pits * ways <= limits::MAX_SIDE_PITS as usize
    {
        diags.push(
            Diagnostic::error(
                "sow::check::out_of_range",
                format!(
                    "a player's {} moves and the pass make {}, more than the engine plays",
                    move_pits * ways,
                    move_pits * ways + 1
                ),
                pass.span,
                "a move of its own",
            )
            .with_help(format!(
                "with a pass, a player's moves (one a pit, two when the direction is chosen) may be at most {}",
                limits::MAX_SIDE_PITS - 1
            )),
        );
    }
}

/// A shared track runs through one row a player and no middle row: other boards state their track
/// or use each player's own. A stated track names real pits, passes each once and reaches every pit
/// a move may start from. The first seed cannot both fall back into the pit played and pass it over.
pub(super) fn check_tracks(
    items: &[Item],
    geometry: Option<crate::board::Geometry>,
    play_from: PlayFrom,
    params: &[(String, i64)],
    diags: &mut Vec<Diagnostic>,
) {
    let skip = items.iter().find(|i| matches!(i.kind, ItemKind::SowSkipOrigin));
    let start = items.iter().find(|i| matches!(i.kind, ItemKind::SowStartInOrigin(_)));
    if let (Some(skip), Some(start)) = (skip, start) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "the sowing both starts in the pit played and passes it over",
                start.span,
                "starts in it",
            )
            .with_label(skip.span, "passes it over")
            .with_help("keep one of `start in origin` and `skip origin`"),
        );
    }
    // Tracks named by `track "NAME" = ...`: a reference to one is a stated track. A name that is
    // not declared is reported where it is used (and counts as stated, so nothing follows from it).
    let declared: Vec<&crate::syntax::ast::Spanned<String>> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Track(name, _) => Some(name),
            _ => None,
        })
        .collect();
    let stated = |kind: Option<&TrackKind>| matches!(kind, Some(TrackKind::Path(_) | TrackKind::Named(_)));
    let top_track = items.iter().find_map(|i| match &i.kind {
        ItemKind::SowTrack(kind) => Some(kind),
        _ => None,
    });
    let Some(g) = geometry else { return };
    let middle_row = g.shared > 0 && !g.ring;
    if middle_row && !stated(top_track) {
        let span = items
            .iter()
            .find(|i| matches!(i.kind, ItemKind::BoardMiddle))
            .map_or(Span::default(), |i| i.span);
        diags.push(
            Diagnostic::error(
                "sow::check::missing",
                "a board with a middle row needs a stated track",
                span,
                "middle row",
            )
            .with_help("say how the seeds go round, e.g. `sow { track mover 1..6, shared 6..1, opponent 6..1 }`"),
        );
    }
    let tracks = items.iter().flat_map(|i| match &i.kind {
        ItemKind::Phase(_, _, inner) => inner.iter().collect::<Vec<_>>(),
        _ => vec![i],
    });
    let own_track = |kind: Option<&TrackKind>| match kind {
        Some(TrackKind::Own) => true,
        Some(_) => false,
        None => g.rows > 1,
    };
    for item in tracks {
        match &item.kind {
            ItemKind::SowTrack(TrackKind::Shared) if g.rows > 1 || middle_row => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "a shared track goes through one row a player and no middle row, but this board has more",
                    item.span,
                    "shared track",
                )
                .with_help("write `track own` (each player sows around their own rows) or state the track piece by piece"),
            ),
            ItemKind::SowTrack(TrackKind::Own) if g.side_pits() == 0 => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "on this ring the players own no pits",
                    item.span,
                    "own track",
                )
                .with_help("the seeds go round the ring: leave out `track own`"),
            ),
            ItemKind::SowTrack(TrackKind::Path(pieces)) | ItemKind::Track(_, pieces) => {
                g.check_path(pieces, item.span, play_from, params, diags)
            }
            ItemKind::SowTrack(TrackKind::Named(name)) if !declared.iter().any(|d| d.node == name.node) => {
                let d = Diagnostic::error(
                    "sow::check::unknown_name",
                    format!("no track is named \"{}\"", name.node),
                    name.span,
                    "not declared",
                );
                diags.push(match suggest(&name.node, declared.iter().map(|d| d.node.as_str())) {
                    Some(s) => d.with_help(format!("did you mean \"{s}\"?")),
                    None if declared.is_empty() => {
                        d.with_help(format!("declare it once: `track \"{}\" = mover 1..6, opponent 1..6`", name.node))
                    }
                    None => d.with_help(format!(
                        "the tracks declared are: {}",
                        declared.iter().map(|d| format!("\"{}\"", d.node)).collect::<Vec<_>>().join(", ")
                    )),
                });
            }
            ItemKind::SowDirection(crate::syntax::ast::Direction::Either) if 2 * g.move_pits() as i64 > limits::MAX_SIDE_PITS => diags
                .push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        "with the direction chosen, a player's pits make more moves than the engine plays",
                        item.span,
                        "two moves a pit",
                    )
                    .with_help(format!(
                        "a player may have at most {} pits when the direction is chosen",
                        limits::MAX_SIDE_PITS / 2
                    )),
                ),
            ItemKind::SowIntoStore(true) if g.rows > 1 || g.shared > 0 => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "both stores are placed on the track of a board of one row a player and no shared pits",
                    item.span,
                    "both stores on the track",
                )
                .with_help("state the track with both stores in it, as pieces `mover store` and `opponent store`"),
            ),
            ItemKind::SowIntoStore(_) if g.side_pits() == 0 && !stated(top_track) => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "on a ring of shared pits a store has no place on the track of its own",
                    item.span,
                    "store on the track",
                )
                .with_help("state the track with the store in it: `track shared 1..8, mover store`"),
            ),
            ItemKind::PlayFrom(PlayFrom::Owned)
                if own_track(top_track)
                    || items.iter().any(|i| match &i.kind {
                        ItemKind::Phase(_, _, inner) => inner.iter().any(|i| matches!(i.kind, ItemKind::SowTrack(TrackKind::Own))),
                        _ => false,
                    }) =>
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::unsupported",
                        "a pit owned in the opponent's rows is not on a player's own track",
                        item.span,
                        "pits played wherever they lie",
                    )
                    .with_help("state the track through both players' rows (`track mover ..., opponent ...`), or play from `own`"),
                )
            }
            ItemKind::SowIntoStore(_) if own_track(top_track) && play_from != PlayFrom::Own => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "an own track with shared pits played has no place for the store",
                    item.span,
                    "store on the track",
                )
                .with_help("state the track with the store in it"),
            ),
            _ => {}
        }
    }
}

pub(super) fn layout(
    rows: &[crate::syntax::ast::LayoutSide],
    n: usize,
    board_rows: usize,
    span: Span,
    statics: &Statics,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u32>> {
    use crate::syntax::ast::PlayerLit;
    let side_pits = n * board_rows;
    let mut cells = vec![0u32; 2 * side_pits];
    let mut ok = true;
    let mut seen = [false; 2];
    for (player, side_rows) in rows {
        let side = usize::from(player.node == PlayerLit::North);
        if seen[side] {
            diags.push(
                Diagnostic::error("sow::check::duplicate", "this row's layout is given twice", player.span, "again")
                    .with_help("give each row once"),
            );
            ok = false;
        }
        if side_rows.len() != board_rows {
            let what = if board_rows == 1 {
                "one list of pits"
            } else {
                "a list of rows, the front row first"
            };
            diags.push(
                Diagnostic::error(
                    "sow::check::wrong_length",
                    format!(
                        "the layout gives {} row{} for {} but a player has {board_rows}",
                        side_rows.len(),
                        if side_rows.len() == 1 { "" } else { "s" },
                        if side == 0 { "south" } else { "north" }
                    ),
                    player.span,
                    "this player's layout",
                )
                .with_help(format!(
                    "give {what}: {board_rows} list{} of {n} numbers",
                    if board_rows == 1 { "" } else { "s" }
                )),
            );
            ok = false;
            seen[side] = true;
            continue;
        }
        seen[side] = true;
        for (r, values) in side_rows.iter().enumerate() {
            if !row_layout(values, side * side_pits + r * n, n, &mut cells, statics, diags) {
                ok = false;
            }
        }
    }
    // A row given twice is the root cause; the other row's absence only follows from it.
    if seen != [true, true] && rows.len() < 2 {
        diags.push(
            Diagnostic::error("sow::check::missing", "the layout must give both rows", span, "layout")
                .with_help("write `layout south [..] north [..]`"),
        );
        ok = false;
    }
    ok.then_some(cells)
}

/// One row of a layout, written into `cells` from `first`; false when it has a problem.
pub(super) fn row_layout(
    values: &crate::syntax::ast::Spanned<Vec<Expr>>,
    first: usize,
    n: usize,
    cells: &mut [u32],
    statics: &Statics,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if values.node.len() != n {
        diags.push(
            Diagnostic::error(
                "sow::check::wrong_length",
                format!("the layout gives {} pits but a row has {n}", values.node.len()),
                values.span,
                "this row",
            )
            .with_help(format!("give exactly {n} numbers, pit 1 first")),
        );
        return false;
    }
    let mut ok = true;
    for (i, e) in values.node.iter().enumerate() {
        match statics.eval(e, diags) {
            Some(v) if (0..=limits::MAX_SEEDS_PER_PIT).contains(&v) => cells[first + i] = v as u32,
            Some(v) => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("{v} seeds in a pit is not possible"),
                        e.span,
                        "seeds",
                    )
                    .with_help(format!("a pit starts with 0 to {} seeds", limits::MAX_SEEDS_PER_PIT)),
                );
                ok = false;
            }
            None => ok = false,
        }
    }
    ok
}
