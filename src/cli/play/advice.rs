//! `hint` and the words for what a move does: alpha-beta's ranking of the moves (or the endgame
//! database's exact values), and each move's captures, extra moves, feeding and end in a few words.

use super::*;

impl Session {
    /// What alpha-beta would play here, what every move does and its score, and how far it looked.
    pub(super) fn hint(&mut self) -> String {
        let game = &self.game;
        let pos = self.pos().clone();
        let limits = self.hint;
        let rng = &mut self.rng;
        let db = self.db.as_ref();
        let started = Instant::now();
        let found = thinking("thinking about a hint", || {
            alphabeta::search_with(game, &pos, limits, true, rng, db)
        });
        let elapsed = started.elapsed();
        let Some(found) = found else {
            return "there is no legal move\n".into();
        };
        if let Some(exact) = db.and_then(|d| d.moves(game, &pos)) {
            return self.exact_hint(&pos, found.pit, &exact);
        }
        let does = |k: usize| self.does(&pos, k);
        let best = does(found.pit);
        if self.quiet {
            let why = if best.is_empty() {
                String::new()
            } else {
                format!(" ({})", best.join(", "))
            };
            return format!("try {}{why}\n", crate::engine::pit_word(&record::move_text(game, &pos, found.pit)));
        }
        let decided = found.score.abs() >= search::DECIDED;
        let mut s = format!(
            "hint: {} looks best{}\n",
            crate::engine::pit_word(&record::move_text(game, &pos, found.pit)),
            if best.is_empty() {
                String::new()
            } else {
                format!(": {}", best.join(", "))
            }
        );
        let plies = if found.depth == 1 {
            "1 ply".to_string()
        } else {
            format!("{} plies", found.depth)
        };
        let how = match limits.time {
            Some(t) => format!("in {:.1} s (--hint-time allows {} s)", elapsed.as_secs_f64(), t.as_secs_f64()),
            None => "(the depth --hint-depth asks for)".to_string(),
        };
        let positions = if found.nodes == 1 {
            "1 position".to_string()
        } else {
            format!("{} positions", found.nodes)
        };
        s.push_str(&format!(
            "  alpha-beta looked {plies} ahead (a ply is one move by either player), {positions} {how}.\n"
        ));
        if decided {
            s.push_str("  It saw the end of the game along every line, so the best move's result holds with best play by both sides.\n");
        } else {
            s.push_str(
                "  A score is the lead in seeds it expects for you if both sides play their best for that many plies;\n  past that it only counts seeds, so it is a guess, not a promise.\n",
            );
        }
        s.push_str(&self.ranked(&pos, &found.scores, search::describe_score));
        s
    }

    /// What move `k` of `pos` does at once, in words ([`effects`]).
    pub(super) fn does(&self, pos: &Position, k: usize) -> Vec<String> {
        match record::play(&self.game, pos, &record::move_text(&self.game, pos, k)) {
            Ok(ply) => effects(&self.game, pos, &ply, &self.view),
            Err(_) => Vec::new(),
        }
    }

    /// The moves of a hint, best first, a line each: the move, its value in words (`describe`) and
    /// what it does at once.
    pub(super) fn ranked(&self, pos: &Position, scores: &[(usize, i32)], describe: fn(i32) -> String) -> String {
        let mut ranked = scores.to_vec();
        ranked.sort_by_key(|&(k, v)| (std::cmp::Reverse(v), k));
        let width = ranked.iter().map(|&(_, v)| describe(v).len()).max().unwrap_or(0);
        let mut s = String::new();
        for (k, v) in ranked {
            let what = self.does(pos, k);
            let what = if what.is_empty() {
                "no capture".to_string()
            } else {
                what.join(", ")
            };
            s.push_str(&format!(
                "  {:<7} {:<width$}  {what}\n",
                crate::engine::pit_word(&record::move_text(&self.game, pos, k)),
                describe(v)
            ));
        }
        s
    }

    /// The hint in a position of the endgame databases: every move's exact result with best play.
    pub(super) fn exact_hint(&self, pos: &Position, pit: usize, exact: &[(usize, i32)]) -> String {
        let game = &self.game;
        let does = |k: usize| self.does(pos, k);
        let value = |k: usize| exact.iter().find(|m| m.0 == k).map_or(0, |m| m.1);
        let best = does(pit);
        let name = record::move_text(game, pos, pit);
        if self.quiet {
            return format!("try pit {name}: it {}\n", endgame::describe_final(value(pit)));
        }
        let mut s = format!(
            "hint: pit {name} {}{}\n",
            endgame::describe_final(value(pit)),
            if best.is_empty() {
                String::new()
            } else {
                format!(": {}", best.join(", "))
            }
        );
        s.push_str("  The endgame databases hold this position: each result is exact, the final score difference\n  for you if both sides play their best from there.\n");
        s.push_str(&self.ranked(pos, exact, endgame::describe_final));
        s
    }
}

/// What a move does, in a few words each: captures, another move, feeding or starving the
/// opponent, a grand slam, the end of the game. Empty when it only sows.
pub(in crate::cli) fn effects(game: &Game, before: &Position, ply: &Ply, view: &View) -> Vec<String> {
    let me = ply.mover;
    let them = me.other();
    let mut captured = 0u32;
    let mut given = 0u32;
    let mut parts = Vec::new();
    let mut in_hand = 0u32;
    for e in &ply.events {
        match e {
            Event::Take { seeds, to, .. } if *to == me => captured += seeds,
            Event::Take { seeds, .. } => given += seeds,
            Event::TakeInHand { seeds, player, .. } if *player == me => in_hand += seeds,
            _ => {}
        }
    }
    let seeds = |n: u32| if n == 1 { "1 seed".to_string() } else { format!("{n} seeds") };
    // "the computer" reads better than a bare "computer" in the middle of a sentence.
    let call = |p: Player| match view.name(p) {
        "computer" => "the computer".to_string(),
        name => name.to_string(),
    };
    let laps = ply
        .events
        .iter()
        .filter(|e| matches!(e, Event::PickUp { .. } | Event::SowAgain { .. }))
        .count();
    if laps > 1 {
        parts.push(format!("sows {laps} laps"));
    }
    // In games whose stores are sown into, seeds sown into one's own store are gained too.
    let banked: usize = ply
        .events
        .iter()
        .map(|e| match e {
            Event::Sown { cells, .. } => cells.iter().filter(|&&c| c == game.store(me)).count(),
            _ => 0,
        })
        .sum();
    if banked > 0 {
        parts.push(format!("sows {} into the store", seeds(banked as u32)));
    }
    if captured > 0 {
        parts.push(format!("captures {}", seeds(captured)));
    }
    if in_hand > 0 {
        let pronoun = if in_hand == 1 { "it" } else { "them" };
        parts.push(format!("captures {} and sows {pronoun} again", seeds(in_hand)));
    }
    if given > 0 {
        parts.push(format!("gives {} {}", call(them), seeds(given)));
    }
    for e in &ply.events {
        match e {
            Event::AnotherMove { .. } => parts.push("moves again".to_string()),
            Event::GrandSlam { undone: true } => parts.push("a grand slam, so its captures go back".to_string()),
            Event::GrandSlam { undone: false } => parts.push("a grand slam: takes every seed of the opponent".to_string()),
            Event::FeedingPenalty { receiver, .. } => {
                parts.push(format!("does not feed the opponent, so the seeds left go to {}", call(*receiver)))
            }
            Event::Claim { cell, player, .. } => parts.push(format!("{} now belongs to {}", game.describe(*cell), call(*player))),
            Event::Close { cell, closing, .. } => parts.push(format!(
                "{} is {}",
                game.describe(*cell),
                if *closing { "closed" } else { "open again" }
            )),
            Event::GameEnds {
                round: Some(r), outcome, ..
            } if !ply.after.over => {
                let who = match outcome {
                    Outcome::South => format!("{} wins it", view.name(Player::South)),
                    Outcome::North => format!("{} wins it", view.name(Player::North)),
                    Outcome::Draw => "a draw".to_string(),
                };
                parts.push(format!("ends round {r}: {}", who.replace("you wins", "you win")));
            }
            _ => {}
        }
    }
    let after = &ply.after;
    let row = |pos: &Position, p: Player| game.row_seeds(&pos.board, p);
    let new_round = ply.events.iter().any(|e| matches!(e, Event::RoundSetup { .. }));
    if new_round {
        // The board was set up afresh: comparing rows before and after says nothing about the move.
    } else if !after.over {
        if row(before, them) == 0 && row(after, them) > 0 {
            parts.push(format!("feeds {}, whose row was empty", call(them)));
        } else if row(before, them) > 0 && row(after, them) == 0 {
            parts.push(format!("leaves {} no seeds", call(them)));
        }
    } else {
        let result = match after.winner {
            Some(Outcome::Draw) | None => "a draw".to_string(),
            Some(w) => {
                let p = if w == Outcome::South { Player::South } else { Player::North };
                let name = view.name(p);
                if name == "you" {
                    "you win".to_string()
                } else {
                    format!("{name} wins")
                }
            }
        };
        parts.push(format!("ends the game: {result}"));
    }
    parts
}
