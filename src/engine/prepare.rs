//! The last step of loading a game: what the compiler leaves to be worked out by playing the rules
//! themselves on the starting board (each pit's seeds by the board's `seeds` lines, the `skip when` answers that
//! depend only on where a pit lies), then the fast form of the whole. The compiler cannot do this
//! without running the engine, which stands above it.

use super::{Board, Cell, Game, Player, Slots, holds_for_pit, holds_for_pit_of};
use crate::compile::ir::{Code, Op, Skip};

/// Makes a compiled game ready to play.
pub fn prepare(mut game: Game) -> Game {
    let cases = std::mem::take(&mut game.seeds_cases);
    if !cases.is_empty() {
        start_by_pit(&mut game, &cases);
    }
    answer_skips(&mut game);
    // The fast form lays out pits and stores as cells apart; a store in a pit's place is not one.
    let fast = if game.store_pit.is_some() {
        Err("a store lies in a pit's place (`store pit`)".to_string())
    } else {
        crate::compile::shape::recognise(&game)
    };
    (game.fast, game.general_because) = match fast {
        Ok(fast) => (Some(std::sync::Arc::new(fast)), None),
        Err(why) => (None, Some(why)),
    };
    game
}

/// Answers before the game every `skip when` condition that reads only where a pit lies and who
/// moves, so that sowing looks the answer up instead of testing the condition for every seed; a
/// phase whose rule could pass over every cell of a track sows each move on a copy first, so that
/// such a move is refused rather than sown forever.
fn answer_skips(game: &mut Game) {
    let board = Board {
        cells: Slots::from_slice(&game.initial),
        claimed: Slots::from_elem(None, game.pit_count()),
        closed: Slots::from_elem(false, game.pit_count()),
        memory: game.memory_start.clone(),
    };
    let cells = game.pit_count() + 2;
    let mut tables = Vec::new();
    for phase in &game.phases {
        tables.push(match &phase.sow.skip {
            Some(Skip::Each(cond)) if reads_only_geometry(cond) => Some(Player::BOTH.map(|mover| {
                (0..cells)
                    .map(|c| holds_for_pit_of(game, &board, cond, c as Cell, mover))
                    .collect::<Vec<bool>>()
            })),
            _ => None,
        });
    }
    for (phase, table) in game.phases.iter_mut().zip(tables) {
        if let Some(table) = table {
            // A lap is stuck when every cell of its track is passed over: with `skip origin`, every
            // cell but one may be too few.
            let spare = if phase.sow.skip_origin { 1 } else { 0 };
            phase.sows_to_judge |= Player::BOTH.iter().any(|p| {
                phase.tracks[p.index()]
                    .cells
                    .iter()
                    .filter(|&&c| !table[p.index()][c as usize])
                    .count()
                    <= spare
            });
            phase.sow.skip = Some(Skip::Table(table));
        } else if phase.sow.skip.is_some() {
            // Read as the seeds fall, the condition may pass over every cell at some point.
            phase.sows_to_judge = true;
        }
    }
}

/// Does the condition read nothing but the pit `pit`'s place on the board, the mover and fixed
/// values (no seeds, claims, closures, `origin`, `last` or state of the move)? As
/// [`Code::reads_only_places`], but for the player to move, which a table built per mover cannot
/// know.
fn reads_only_geometry(code: &Code) -> bool {
    code.reads_only_places() && !code.ops.contains(&Op::ToMove)
}

/// Gives each pit the seeds of the first of `cases` whose condition holds for it, none when none
/// does (the `seeds` lines of a board read by pit).
fn start_by_pit(game: &mut Game, cases: &[(u32, Option<Code>)]) {
    let board = Board {
        cells: Slots::from_slice(&game.initial),
        claimed: Slots::from_elem(None, game.pit_count()),
        closed: Slots::from_elem(false, game.pit_count()),
        memory: game.memory_start.clone(),
    };
    let seeds: Vec<u32> = (0..game.pit_count())
        .map(|c| {
            // The pit a store stands in for never holds a seed.
            if game.is_store_pit(c as Cell) {
                return 0;
            }
            cases
                .iter()
                .find(|(_, when)| when.as_ref().is_none_or(|cond| holds_for_pit(game, &board, cond, c as Cell)))
                .map_or(0, |(n, _)| *n)
        })
        .collect();
    game.initial[..seeds.len()].copy_from_slice(&seeds);
    game.total = game.initial.iter().sum();
}

#[cfg(test)]
mod tests {
    use crate::compile::ir::Skip;

    /// A `skip when` that reads only where a pit lies is answered before the game, one table per
    /// mover; one that reads the board is asked as each seed falls.
    #[test]
    fn a_skip_on_where_a_pit_lies_becomes_a_table() {
        let table = crate::test_game(
            "game \"t\"\nparam pits = 3 in 2..6\nboard { pits pits  layout south [0, 0, 4] north [0, 0, 5] }\n\
             sow { direction ccw  skip when pit.side == opponent and pit.number == pits }\nend \"no move\" when no_moves\n",
        );
        assert!(matches!(table.phases[0].sow.skip, Some(Skip::Table(_))));
        let each = crate::test_game(
            "game \"t\"\nboard { pits 3  layout south [0, 0, 7] north [2, 0, 0] }\n\
             sow { direction ccw  skip when pit.count >= 3 }\nend \"no move\" when no_moves\n",
        );
        assert!(matches!(each.phases[0].sow.skip, Some(Skip::Each(_))));
    }
}
