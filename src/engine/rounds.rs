//! Rounds: who opens the next one and how its board is set up from the seeds each player holds.

use super::trace::Narrate;
use super::{Board, Game, Outcome, Player, Position};
use crate::compile::ir::{Fill, Opener, Rounds, Rule};

impl Game {
    /// The rules of a round's start or end (`rules`), in order, each that holds carried out on the
    /// board the ones before it left; `mover` is the player who moved last (at the end) or who opens
    /// the round (at the start).
    #[cold]
    #[inline(never)]
    pub(super) fn round_rules(&self, pos: &mut Position, rules: &[Rule], mover: Player, log: &mut impl Narrate) {
        let phase = self.phases.last().expect("the usual rules");
        for rule in rules {
            // The rule's actions read the position as it was when it fired.
            let frozen = pos.clone();
            let ctx = self.ctx_at(&frozen, mover);
            if ctx.bool(&rule.when) {
                self.act(
                    &mut pos.board,
                    &frozen.board,
                    &rule.actions,
                    &rule.name,
                    phase,
                    false,
                    ctx,
                    None,
                    log,
                );
            }
        }
    }

    /// Who opens the round after one that ended with `outcome`, whose last move `ender` made. Every
    /// seed is in a store by now. A drawn round, or equal seeds, leave it to alternation.
    pub(super) fn next_opener(&self, pos: &Position, rounds: &Rounds, outcome: Outcome, ender: Player) -> Player {
        let Some(rule) = rounds.opener else {
            return self.first;
        };
        let alternate = pos.opener.other();
        self.opener_by(rule, pos, outcome, ender)
            .or_else(|| rounds.tie.and_then(|tie| self.opener_by(tie, pos, outcome, ender)))
            .unwrap_or(alternate)
    }

    /// The player `rule` names to open the next round, or `None` on a tie (a drawn round for
    /// `winner` and `loser`, equal seeds for `fewer seeds`).
    fn opener_by(&self, rule: Opener, pos: &Position, outcome: Outcome, ender: Player) -> Option<Player> {
        match (rule, outcome) {
            (Opener::Alternate, _) => Some(pos.opener.other()),
            (Opener::Same, _) => Some(pos.opener),
            (Opener::OtherThanEnder, _) => Some(ender.other()),
            (Opener::Winner | Opener::Loser, Outcome::Draw) => None,
            (Opener::Winner, Outcome::South) | (Opener::Loser, Outcome::North) => Some(Player::South),
            (Opener::Winner, Outcome::North) | (Opener::Loser, Outcome::South) => Some(Player::North),
            (Opener::FewerSeeds, _) => {
                let [south, north] = self.stores(&pos.board);
                match south.cmp(&north) {
                    std::cmp::Ordering::Less => Some(Player::South),
                    std::cmp::Ordering::Greater => Some(Player::North),
                    std::cmp::Ordering::Equal => None,
                }
            }
        }
    }

    /// Sets up the next round from the seeds in the stores (the board is empty): seeds move from the
    /// stores into pits, never otherwise, so every seed is kept.
    pub(super) fn setup_round(&self, pos: &mut Position, rounds: &Rounds, opener: Player) {
        let n = self.side_pits();
        pos.round += 1;
        pos.round_start = pos.ply;
        if !rounds.keep_claims {
            pos.board.claimed.iter_mut().for_each(|c| *c = None);
        }
        // The seeds each player sets up with, in hand: all but those kept in the store.
        let mut hand = [Player::South, Player::North].map(|p| {
            let store = self.store(p) as usize;
            let held = pos.board.cells[store].saturating_sub(rounds.kept_in_store);
            pos.board.cells[store] -= held;
            held
        });
        // With `mirror`, the player with more seeds copies the other's pits (equal seeds: the player
        // who does not open the round copies).
        let copier = rounds.mirror.then(|| match hand[0].cmp(&hand[1]) {
            std::cmp::Ordering::Less => Player::North,
            std::cmp::Ordering::Greater => Player::South,
            std::cmp::Ordering::Equal => opener.other(),
        });
        if let Some(fill) = rounds.fill {
            if self.side_pits() == 0 {
                self.fill_shared_ring(&mut pos.board, fill, &mut hand, opener);
            } else {
                self.fill_pits(&mut pos.board, fill, &mut hand, copier);
            }
        }
        if rounds.deal {
            let fewest = hand.iter().copied().min().unwrap_or(0);
            for p in Player::BOTH {
                let open: Vec<usize> = self.row(p).filter(|&c| !pos.board.closed[c]).collect();
                if open.is_empty() || Some(p) == copier {
                    continue;
                }
                hand[p.index()] -= fewest;
                for i in 0..fewest as usize {
                    pos.board.cells[open[i % open.len()]] += 1;
                }
            }
        }
        if let Some(copier) = copier {
            for c in self.row(copier.other()) {
                let m = self.mirror_cell(c);
                let seeds = pos.board.cells[c].min(hand[copier.index()]);
                pos.board.cells[m] = seeds;
                pos.board.closed[m] = pos.board.closed[c];
                hand[copier.index()] -= seeds;
            }
        }
        // The pits a set-up fills: the players' rows, or a ring owned by nobody.
        let filled = if n == 0 { self.shared_pits() } else { 0..2 * n };
        if rounds.fill.is_some_and(|f| f.close_unfilled) {
            for c in filled {
                pos.board.closed[c] = pos.board.cells[c] == 0;
            }
        }
        for p in Player::BOTH {
            pos.board.cells[self.store(p) as usize] += hand[p.index()];
        }
        debug_assert!(pos.board.cells.len() == self.pit_count() + 2);
        pos.to_move = opener;
        pos.opener = opener;
        pos.history.clear();
        if self.uses_repeated {
            let h = self.hash(pos);
            pos.history.push(h);
        }
    }

    /// `setup fill N`: each player (but the one who copies, with `mirror`) fills their pits, pit 1
    /// first, with N seeds from their hand; then, with `claim unfilled`, a player who filled all of
    /// their own pits fills the other's empty pits with what is left, and claims them.
    pub(super) fn fill_pits(&self, board: &mut Board, fill: Fill, hand: &mut [u32; 2], copier: Option<Player>) {
        let per = fill.per_pit;
        board.closed.iter_mut().for_each(|c| *c = false);
        let whole = |h: u32| ((h / per) as usize).min(self.side_pits());
        let as_many = whole(hand[0]).min(whole(hand[1]));
        let remainder = fill.remainder_next || fill.made_up.is_some();
        // Fills the pits `cells` in order while the hand allows; returns how many took seeds.
        let put = |board: &mut Board, hand: &mut u32, cells: &[usize], limit: usize, claim: Option<Player>| {
            let mut filled = 0;
            for &c in cells.iter().take(limit) {
                let seeds = if *hand >= per {
                    per
                } else if remainder {
                    *hand
                } else {
                    0
                };
                if seeds == 0 {
                    break;
                }
                *hand -= seeds;
                board.cells[c] = seeds;
                if let Some(p) = claim {
                    board.claimed[c] = Some(p);
                }
                filled += 1;
            }
            filled
        };
        // With `as many as the other used`, the player with fewer seeds fills first (south with equal
        // seeds, who fill alike), and the other only as many pits as they used.
        let order = if fill.as_many_as_used && hand[1] < hand[0] {
            [Player::North, Player::South]
        } else {
            Player::BOTH
        };
        let mut used = None;
        for p in order {
            if Some(p) == copier {
                continue;
            }
            let own = self.fill_order(p, fill.from_right);
            let limit = match used {
                Some(k) if fill.as_many_as_used => k,
                _ if fill.as_many_as_other => as_many,
                _ => own.len(),
            };
            used = Some(put(board, &mut hand[p.index()], &own, limit, None));
        }
        if let Some(claimed) = fill.made_up {
            // A pit short of a whole one is made up by the other player from what their own pits left
            // them (all they have, when that is less).
            for p in Player::BOTH {
                let Some(c) = self.row(p).find(|&c| board.cells[c] > 0 && board.cells[c] < per) else {
                    continue;
                };
                let lender = p.other();
                let seeds = (per - board.cells[c]).min(hand[lender.index()]);
                if seeds == 0 {
                    continue;
                }
                hand[lender.index()] -= seeds;
                board.cells[c] += seeds;
                if claimed {
                    board.claimed[c] = Some(lender);
                }
            }
        }
        if fill.claim_unfilled {
            for p in Player::BOTH {
                let full = self.row(p).all(|c| board.cells[c] > 0);
                if !full || hand[p.index()] == 0 {
                    continue;
                }
                let empty: Vec<usize> = self
                    .fill_order(p.other(), fill.from_right)
                    .into_iter()
                    .filter(|&c| board.cells[c] == 0)
                    .collect();
                put(board, &mut hand[p.index()], &empty, empty.len(), Some(p));
            }
        }
    }

    /// `setup fill N` on a ring owned by nobody: the round's opener fills the ring's empty pits in
    /// ring order, from `s1`, N seeds each while their hand allows, and the other player goes on from
    /// the next empty pit. Pits that kept seeds from the round before are left as they are.
    fn fill_shared_ring(&self, board: &mut Board, fill: Fill, hand: &mut [u32; 2], opener: Player) {
        board.closed.iter_mut().for_each(|c| *c = false);
        let empty: Vec<usize> = self.shared_pits().filter(|&c| board.cells[c] == 0).collect();
        let mut empty = empty.into_iter();
        for p in [opener, opener.other()] {
            let hand = &mut hand[p.index()];
            while *hand > 0 && (*hand >= fill.per_pit || fill.remainder_next) {
                let Some(c) = empty.next() else { return };
                let seeds = (*hand).min(fill.per_pit);
                *hand -= seeds;
                board.cells[c] = seeds;
            }
        }
    }

    /// A player's pits in the order a fill reaches them: front row first, each row from its owner's
    /// left (pit 1 first), or from its right with `from right`.
    fn fill_order(&self, p: Player, from_right: bool) -> Vec<usize> {
        let mut cells: Vec<usize> = self.row(p).collect();
        if from_right {
            cells.chunks_mut(self.columns.max(1)).for_each(<[usize]>::reverse);
        }
        cells
    }

    /// The pit mirroring `c` across the middle of the board: the other player's pit in the same row,
    /// counted from the other end (so the two face each other on a board of one row a player).
    pub(super) fn mirror_cell(&self, c: usize) -> usize {
        let n = self.side_pits();
        let (side, at) = (c / n, c % n);
        let (row, number) = (at / self.columns, at % self.columns);
        (1 - side) * n + row * self.columns + (self.columns - 1 - number)
    }
}
