//! How far the fast form reaches (issue 25): which rule keeps a file from it, as `bench` tells an
//! author; rules written another way that mean the same; a match of rounds played in it, with the
//! pits a round's set-up closed or without.

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::fast_forms::{agree, invented_agree};

/// A game the general engine plays says why: the first rule the fast form cannot play, named as the
/// file names it, so that an author can keep a variant fast. An invented game of the shape, then the
/// same game with one rule added or changed at a time.
#[test]
fn the_general_engine_says_which_rule_keeps_a_game_from_the_fast_form() {
    let base = r#"game "b" board { pits 3 seeds 8 stores sown } first south
        sow { direction ccw into own store }
        capture "home" { when last == store(mover) then another move }
        capture "across" { when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
          take opposite(last), last }
        end "empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner"#;
    assert_eq!(crate::support::invented(base).why_general_engine(), None);
    let changed = [
        (
            format!("{base}\ncapture \"late\" {{ when ply > 6 and last.count == 2 take last }}"),
            "capture \"late\": its condition or its actions are not ones the fast form reads",
        ),
        (
            format!("{base}\nforbid \"greedy\" when origin.count > captured(mover)"),
            "forbid \"greedy\": its condition is not one the fast form reads",
        ),
        (
            format!("{base}\nend \"level\" when captured(south) == captured(north) + seeds(north) remaining owner"),
            "end \"level\": its condition is not one the fast form reads",
        ),
        (
            base.replace("into own store }", "into own store skip when pit.count > 9 }"),
            "a `skip when` rule",
        ),
        // Rules that make every move be sown to be judged are named.
        (format!("{base}\ncaptures required"), "`captures required`"),
        (
            format!("{base}\nforbid \"long\" after move when lap > 1"),
            "forbid \"long\" reads what the move did, in a game whose moves do not relay",
        ),
    ];
    for (text, why) in changed {
        let game = crate::support::invented(&text);
        assert_eq!(game.why_general_engine(), Some(why), "{text}");
        assert!(!game.has_fast_form());
    }
}

/// `seeds(south) + seeds(north)` is the board's seeds where every pit is a player's, and the fast form
/// reads it; on a board with a middle row of nobody's pits it is only the rows' seeds.
#[test]
fn both_rows_seeds_keep_the_fast_form_and_leave_out_a_middle_row() {
    let two_rows = r#"game "b" board { pits 3 seeds 8 stores sown } first south
        sow { direction ccw into own store }
        capture "home" { when last == store(mover) then another move }
        end "clear" when seeds(south) + seeds(north) == 0 remaining owner
        end "cleared by the mover" when seeds(mover) + seeds(opponent) < 2 remaining owner"#;
    let game = crate::support::invented(two_rows);
    assert_eq!(game.why_general_engine(), None);
    invented_agree(two_rows);
    // Twelve pits of two seeds: 24 on the board, 16 in the rows. The end rules are read at the start.
    let middle = |end: &str| {
        format!(
            r#"game "Three rows" board {{ pits 4  middle row  seeds 2 }}
               play from any
               sow {{ track mover 1..4, shared 4..1, opponent 4..1 }}
               end "all" when {end}
               end "no move" when no_moves"#
        )
    };
    for (end, over) in [("seeds(south) + seeds(north) == 24", false), ("sum(board) == 24", true)] {
        let game = crate::support::invented(&middle(end));
        assert_eq!(crate::support::played(&game, &[]).is_over(), over, "{end}");
    }
}

/// The rounds of an invented match: `setup`, then three rounds won.
fn rounds(setup: &str) -> String {
    format!(
        r#"rounds {{
             setup {setup}
             match ends when rounds_won(south) == 3 or rounds_won(north) == 3
             next round first alternate
           }}"#
    )
}

/// An invented relay game with triggers (Obridjie's rules, renamed) on `board`, in `rounds`.
fn relays(board: &str, rounds: &str) -> String {
    format!(
        r#"game "relays" board {{ {board} stores captures }} first south
           sow {{ direction ccw relay when last.before > 0 and last.before != 3 }}
           trigger "fours to the owner" {{ when pit.count == 4 and not final  take pit to owner }}
           trigger "the last four to the sower" {{ when pit.count == 4 and final  take pit }}
           end "no move" when no_moves remaining owner
           end "going around" when repeated remaining owner
           {rounds}"#
    )
}

/// Each position of `games` random games of `game` that is not over, played one move at a time
/// (so that the fast form, where it takes a position, plays its move).
fn each_position_of_random_games(game: &sowlang::Game, games: u64, mut visit: impl FnMut(&sowlang::Position)) {
    for seed in 0..games {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let mut rng = StdRng::seed_from_u64(seed);
        while !pos.is_over() && game.random_playout(&mut pos, &mut rng, 1).plies == 1 {
            if !pos.is_over() {
                visit(&pos);
            }
        }
    }
}

/// A match of rounds: the fast form plays the positions with no pit closed, in any round, and the
/// general engine a round's end and set-up. Rounds set up without closing a pit, so that the fast
/// form takes the game back in later rounds: single laps with captures, and relays with triggers;
/// each plays the same with and without the fast form, and the positions of later rounds with every
/// pit open are counted (one move at a time, the fast form plays each of them), so that the test
/// cannot pass without them.
#[test]
fn rounds_play_the_same_with_and_without_the_fast_form_in_every_round() {
    let games = [
        format!(
            r#"game "single laps" board {{ pits 4 seeds 3 stores captures }} first south
               sow {{ direction ccw skip origin }}
               capture "two or three" {{ when last.side == opponent and last.count in 2..3  take last }}
               end "no move" when no_moves remaining owner
               end "again" when repeated remaining owner
               {}"#,
            rounds("fill 3")
        ),
        relays("pits 4 seeds 4", &rounds("deal fewest")),
    ];
    for text in &games {
        let game = crate::support::invented(text);
        assert!(game.has_fast_form(), "{text}");
        agree(&game, 60, 3000, text);
        let mut later = 0;
        each_position_of_random_games(&game, 60, |pos| {
            later += u32::from(pos.round() > 1 && !pos.closed().contains(&true));
        });
        assert!(later > 1000, "{later} positions of later rounds with every pit open:\n{text}");
    }
}

/// Rounds whose set-ups close the pits a player cannot fill: the fast form is built again for each
/// set of closed pits, its tracks passing over them. Single laps with captures across (a closed pit
/// across holds nothing), and relays with triggers; each plays the same with and without the fast
/// form, and the later rounds' positions with a pit closed that the fast form takes are counted, so
/// that the test cannot pass without them.
#[test]
fn rounds_with_closed_pits_play_the_same_in_the_fast_form() {
    let rounds = rounds("fill 3 close unfilled");
    let games = [
        format!(
            r#"game "single laps" board {{ pits 5 seeds 3 stores captures }} first south
               sow {{ direction ccw skip origin }}
               capture "two or three" {{ when last.side == opponent and last.count in 2..3  take last }}
               capture "across" {{ when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }}
               end "no move" when no_moves remaining owner
               end "again" when repeated remaining owner
               {rounds}"#
        ),
        relays("pits 5 seeds 3", &rounds),
    ];
    for text in &games {
        let game = crate::support::invented(text);
        assert!(game.has_fast_form(), "{text}");
        agree(&game, 60, 3000, text);
        let (mut closed, mut taken) = (0, 0);
        each_position_of_random_games(&game, 60, |pos| {
            if pos.closed().contains(&true) {
                closed += 1;
                taken += u32::from(game.fast_form_takes(pos));
            }
        });
        assert!(
            closed > 500 && taken == closed,
            "{taken} of {closed} positions with a pit closed taken:\n{text}"
        );
    }
}
