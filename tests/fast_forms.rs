//! The fast forms of rule shapes (`compile::shape`, `engine/kernel.rs`) play exactly like the general
//! engine: for every shipped game, random games played with the fast form and without it reach the
//! same position (board, stores, player to move, history, end and result) after every move, with the
//! same random numbers drawn.

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::support::shipped;

/// The shipped games whose rules have a shape with a fast form. A game leaving this list (a change of
/// the shapes recognised, or of the file) is a change of speed worth noticing.
const FAST: [&str; 8] = [
    "ayoayo",
    "jodu",
    "kalah",
    "kpo",
    "oware",
    "openspiel_kalah",
    "openspiel_oware",
    "tampoduo",
];

fn load(path: &std::path::Path) -> sowlang::Game {
    sowlang::load_game(path, &[])
        .unwrap_or_else(|_| panic!("{} loads", path.display()))
        .game
}

fn stem(path: &std::path::Path) -> String {
    path.file_stem().expect("a file name").to_string_lossy().into_owned()
}

#[test]
fn the_fast_shapes_are_recognised_in_the_games_expected() {
    let fast: Vec<String> = shipped()
        .into_iter()
        .filter(|p| load(p).has_fast_form())
        .map(|p| stem(&p))
        .collect();
    let mut expected: Vec<String> = FAST.iter().map(|s| s.to_string()).collect();
    expected.sort();
    let mut found = fast.clone();
    found.sort();
    assert_eq!(found, expected);
}

/// Plays `games` random games of `path` one move at a time, with and without the fast form, and
/// compares the positions after every move.
fn agree_move_by_move(path: &std::path::Path, games: u64) -> u64 {
    let fast = load(path);
    let general = fast.without_fast_form();
    let mut moves = 0;
    for seed in 0..games {
        let mut a = fast.initial(None);
        fast.settle_start(&mut a);
        let mut b = a.clone();
        let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
        for ply in 0..1500 {
            let pa = fast.random_playout(&mut a, &mut ra, 1);
            let pb = general.random_playout(&mut b, &mut rb, 1);
            assert_eq!(pa, pb, "{} game {seed} move {ply}: the playouts differ", path.display());
            assert_eq!(a, b, "{} game {seed} after move {ply}: the positions differ", path.display());
            moves += u64::from(pa.plies);
            if a.over || pa.plies == 0 {
                break;
            }
        }
        // The whole game in one playout (the fast form keeps its own position between moves).
        let mut a = fast.initial(None);
        fast.settle_start(&mut a);
        let mut b = a.clone();
        let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
        let pa = fast.random_playout(&mut a, &mut ra, 1500);
        let pb = general.random_playout(&mut b, &mut rb, 1500);
        assert_eq!((pa, &a), (pb, &b), "{} game {seed}, played in one playout", path.display());
        assert_eq!(
            rand::Rng::r#gen::<u64>(&mut ra),
            rand::Rng::r#gen::<u64>(&mut rb),
            "the same random numbers were drawn"
        );
    }
    moves
}

#[test]
fn every_shipped_game_plays_the_same_with_and_without_its_fast_form() {
    for path in shipped() {
        let games = if load(&path).has_fast_form() { 300 } else { 3 };
        let moves = agree_move_by_move(&path, games);
        assert!(moves > 0, "{}: no move played", path.display());
    }
}

/// Small invented boards with many seeds a pit (so that sowings go round the board several times) and
/// rule shapes the shipped games do not have (clockwise sowing, a forward series, parity tests, a rule
/// that ends the move, a rule that gives another move with a capture, a move-number end): each plays the
/// same with and without its fast form, which each has.
#[test]
fn invented_games_of_the_shape_play_the_same_with_and_without_it() {
    let games = [
        // Oware's rules on two pits a side with ten seeds in each.
        r#"game "a" board { pits 2 seeds 10 stores captures } first south
           sow { direction ccw skip origin }
           capture "two or three" { when last.side == opponent and last.count in 2..3  take last
             series backward while pit.side == opponent and pit.count in 2..3 }
           grand slam capture nothing
           feeding required
           end "repeated" when repeated remaining owner
           end "half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
           end "stuck" when no_moves remaining owner"#,
        // Kalah's rules on three pits a side with eight seeds in each.
        r#"game "b" board { pits 3 seeds 8 stores sown } first south
           sow { direction ccw into own store }
           capture "home" { when last == store(mover) then another move }
           capture "across" { when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
             take opposite(last), last }
           end "empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner"#,
        // Clockwise, a forward series of even counts, an end of the move, another move after a capture.
        r#"game "c" board { pits 4 seeds 5 stores captures } first north
           sow { direction cw }
           capture "even" { when last.side == opponent and last.count is even and last.count > 0  take last
             series forward while pit.side == opponent and pit.count is even and pit.count > 0  then end }
           capture "lone" { when last.side == mover and last.count == 1 and opposite(last).count is odd
             take opposite(last)  then another move }
           end "long" when ply >= 60 remaining owner
           end "starved" when seeds(to_move) == 0 remaining owner
           end "stuck" when no_moves remaining split"#,
    ];
    for text in games {
        let fast = crate::support::invented(text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        let general = fast.without_fast_form();
        for seed in 0..300 {
            let mut a = fast.initial(None);
            fast.settle_start(&mut a);
            let mut b = a.clone();
            let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
            for ply in 0..400 {
                let pa = fast.random_playout(&mut a, &mut ra, 1);
                let pb = general.random_playout(&mut b, &mut rb, 1);
                assert_eq!((pa, &a), (pb, &b), "game {seed} after move {ply} of:\n{text}");
                if a.over || pa.plies == 0 {
                    break;
                }
            }
        }
    }
}
