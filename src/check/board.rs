//! The board's shape (rows, a middle row, a ring) and the tracks a file states piece by piece. The
//! compiler lays out its cells from the same [`Geometry`], so a track `check` accepts is the track the
//! engine sows.

use crate::board::PlayFrom;
use crate::board::{Cell, Geometry, Player};
use crate::diagnostic::{Diagnostic, Span};
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
