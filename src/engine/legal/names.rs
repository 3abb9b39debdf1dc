//! How moves are named and read, and why a move is refused, in words.

use crate::board::PlayFrom;
use crate::compile::ir::Phase;
use crate::engine::choice::{CHOICE_SHIFT, Choices, move_base};
use crate::engine::turn::*;
use crate::engine::{Game, Position};

impl Game {
    /// The name of move `k` of `pos`: [`Game::move_name`], then each choice the move carries, in the
    /// order the move meets them, after a `:` (`a3R:a8:cw`).
    pub fn name_move(&self, pos: &Position, k: usize) -> String {
        if !self.uses_choose || self.is_pass(k) {
            // No bits past the pit: a larger number is named whole, as no move.
            return self.move_name(k);
        }
        let mut name = self.move_name(move_base(k));
        for label in self.choice_labels(pos, k) {
            name.push(':');
            name.push_str(&label);
        }
        name
    }

    /// The words for the choices move `k` of `pos` carries.
    pub(in crate::engine) fn choice_labels(&self, pos: &Position, k: usize) -> Vec<String> {
        if !self.uses_choose || pos.over || self.is_pass(k) {
            return Vec::new();
        }
        let choices = Choices::of_move(k).labelled();
        let _ = self.probe(pos, self.move_rules(pos, Hints::default()), k, Some(&choices), None);
        choices.labels()
    }

    /// Reads a move of `pos` as [`Game::name_move`] writes it (letters in either case). `None` when
    /// the text is no move of `pos`, such as a pit without the choices its moves carry; a pit with
    /// no legal move reads as the pit, so that [`Game::apply`] can say why it cannot be played.
    pub fn read_move(&self, pos: &Position, text: &str) -> Option<usize> {
        let text = text.trim();
        if !self.uses_choose {
            return self.parse_move(text);
        }
        let pit = text.split_once(':').map_or(text, |(p, _)| p);
        let base = self.parse_move(pit)?;
        if base >= 1 << CHOICE_SHIFT {
            // Its bits past the pit would be read as answers to choices (257 as pit 1 with an
            // answer): a number this large is no pit, nor any move.
            return None;
        }
        let listed = self.legal_moves(pos);
        let named = |k: usize| move_base(k) == base && self.name_move(pos, k).eq_ignore_ascii_case(text);
        if let Some(&k) = listed.iter().find(|&&k| named(k)) {
            return Some(k);
        }
        if !pos.over && pit.len() < text.len() {
            // A legal move the list leaves out because a listed one from the same pit does the same
            // (`a3R:cw` where `a3L:cw` is listed) is still a move of the rules: played as written.
            let rules = self.move_rules(pos, Hints::default());
            if let Some((k, _)) = self.all_choice_moves(pos, rules, false).into_iter().find(|&(k, _)| named(k)) {
                return Some(k);
            }
        }
        let from_pit = listed.iter().any(|&k| move_base(k) == base);
        (!from_pit && pit.len() == text.len()).then_some(base)
    }

    /// What a text that [`Game::read_move`] does not read as a move of `pos` could have meant, when it
    /// names a pit a move starts from: a pit written without its way (`b4` for `b4L` or `b4R`), a pit
    /// and way without the answers to the move's choices (`a5R` for `a5R:cw`), or with answers that
    /// are not this pit's. Returns the pit (1-based, with no way) and the legal moves of `pos` from it
    /// that agree with what the text does say (when the answers written agree with none, every legal
    /// move from the pit, and way if written), `L` before `R`; `None` when the text names no such pit.
    pub(crate) fn moves_meant(&self, pos: &Position, text: &str) -> Option<(usize, Vec<usize>)> {
        let text = text.trim();
        let (head, answers) = match text.split_once(':') {
            Some((head, rest)) => (head, rest.split(':').collect::<Vec<_>>()),
            None => (text, Vec::new()),
        };
        // The way, when written (a move number of one direction), else the pit alone.
        let (pit, way) = match self.parse_move(head).filter(|&k| (1..=self.move_count()).contains(&k)) {
            Some(k) => (self.move_parts(k).0, Some(k)),
            None => (self.parse_pit(head)?, None),
        };
        let from_pit: Vec<usize> = self
            .legal_moves(pos)
            .into_iter()
            .filter(|&k| self.move_parts(move_base(k)).0 == pit && way.is_none_or(|w| move_base(k) == w))
            .collect();
        let agreeing: Vec<usize> = from_pit
            .iter()
            .copied()
            .filter(|&k| {
                let labels = self.choice_labels(pos, k);
                answers.len() <= labels.len() && answers.iter().zip(&labels).all(|(a, l)| a.eq_ignore_ascii_case(l))
            })
            .collect();
        let mut moves = if agreeing.is_empty() { from_pit } else { agreeing };
        // `L` before `R`, each way's answers in the order the engine lists them.
        moves.sort_by_key(|&k| self.move_name(move_base(k)));
        Some((pit, moves))
    }

    /// Why a pit number as [`Game::parse_move`] reads it (not a move carrying choices) is no pit of
    /// the board, in words ("there is no pit 9; pits are numbered 1 to 6"), when it is none.
    pub(crate) fn no_such_pit(&self, pit: usize) -> Option<String> {
        (pit == 0 || pit > self.move_count()).then(|| self.refusal(self.phases.last().expect("the usual rules"), pit, Refusal::NoSuchPit))
    }

    /// A refusal in words.
    pub(in crate::engine) fn refusal(&self, phase: &Phase, k: usize, r: Refusal) -> String {
        match r {
            Refusal::NoSuchPit if self.side_pits() == 0 => {
                format!("there is no pit {}; pits are s1 to s{}", self.move_name(k), self.shared)
            }
            Refusal::NoSuchPit => format!(
                "there is no pit {}; pits are {}{} to {}{}",
                self.move_name(k),
                if self.rows == 1 { "numbered " } else { "" },
                self.pit_name(1),
                self.pit_name(self.side_pits()),
                if self.shared > 0 {
                    format!(", and the shared pits s1 to s{}", self.shared)
                } else {
                    String::new()
                }
            ),
            Refusal::CannotPass => "the rules let a player pass only while their `pass when` condition holds".into(),
            Refusal::NotPlayable => match self.play_from {
                PlayFrom::Shared => "a move starts from a shared pit".into(),
                PlayFrom::Owned => "a move starts from a pit the player owns".into(),
                _ => "a move starts from one of the player's own pits".into(),
            },
            Refusal::Closed => "it is closed for this round".into(),
            Refusal::StorePit => "it is the player's store".into(),
            Refusal::NoReserve => "there are no seeds left in the store to enter".into(),
            Refusal::MustCapture => "another move makes a capture, and a capture must be made".into(),
            Refusal::FixedDirection => {
                let way = if phase.sow.ccw { "counter-clockwise" } else { "clockwise" };
                format!("in this phase seeds are sown {way} only")
            }
            Refusal::Empty => "it is empty".into(),
            Refusal::Unchanged => "it would leave every seed where it is, and in this phase a move must move seeds".into(),
            Refusal::BadChoice => "its choices do not answer the ones the rules ask for".into(),
            Refusal::Forbidden(i) => phase.forbids[i].reason.clone(),
            Refusal::Endless(Endless::Limit { laps, stated, watched }) => format!(
                "its sowing never ends within {laps} laps, the most a move may sow ({}){}",
                if stated {
                    "`relay limit`"
                } else {
                    "the default; `relay limit N` sets another"
                },
                if watched {
                    "; it did not come back to a state it was in, so it might end later"
                } else {
                    "; the rules read `lap` or `taken` while sowing otherwise than against a number, so a sowing that \
                     goes round for ever cannot be told from one that ends later"
                }
            ),
            Refusal::Endless(Endless::Loop { lap, since }) => format!(
                "its sowing never ends: lap {lap} would start as lap {since} did (the same board, the same pit \
                 to go on from, the same seeds in hand and the same way), so it would go round for ever"
            ),
            Refusal::Endless(Endless::Nowhere { .. }) => {
                "its sowing never ends: every pit of the track is passed over, so the seeds in hand have nowhere to go".into()
            }
            Refusal::GrandSlam => "it would capture every seed of the opponent (a grand slam), which this game forbids".into(),
            Refusal::Starves => "the opponent has no seeds and this move gives them none; a move that feeds them must be played".into(),
        }
    }
}
