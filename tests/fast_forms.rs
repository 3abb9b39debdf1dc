//! The fast forms of rule shapes (`compile::shape`, `engine/kernel.rs`) play exactly like the general
//! engine: for every shipped game, random games played with the fast form and without it reach the
//! same position (board, stores, player to move, history, end and result) after every move, with the
//! same random numbers drawn. Invented games on small boards cover shapes the shipped games do not
//! have, relay sowing among them (with a position whose legal moves are worked out by hand).

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::support::shipped;

/// The shipped games whose rules have a shape with a fast form. A game leaving this list (a change of
/// the shapes recognised, or of the file) is a change of speed worth noticing: J'odu left it with issue
/// 26, when it took its source's feeding rule, a forfeit (`feeding penalty`), for oware.sow's `feeding
/// required`, and came back with issue 25, whose fast forms hand such moves to the general engine (as
/// Pratt's Ayoayo, `ayo`, joined it).
/// Hus, Mefuvha and Moruba (four rows) joined it with issue 25, on boards of up to 64 cells; Ouri too,
/// when `forbid` rules could test sets of pits and a grand slam give another move; Ba-awa and Obridjie
/// with triggers (laps sown a seed at a time) and `sum(board)` read by end rules; Continued Play with
/// `forbid` rules read after a relay move and `pass when unable`; Mangala with its opening phase handed to
/// the general engine and sets of pits taken (`take board where ...`).
const FAST: [&str; 18] = [
    "ayo",
    "ayoayo",
    "ba_awa",
    "continued_play",
    "hus",
    "jodu",
    "kalah",
    "kpo",
    "mangala",
    "mefuvha",
    "moruba",
    "obridjie",
    "oware",
    "rio_kadalis",
    "openspiel_kalah",
    "openspiel_oware",
    "ouri",
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
    agree(&load(path), games, 1500, &path.display().to_string())
}

/// Plays `games` random games of `fast` (`what` names it in failures), one move at a time and then
/// each whole in one playout of at most `plies` moves, with and without its fast form, comparing the
/// positions after every move and the random numbers drawn; returns the moves played one at a time.
pub(crate) fn agree(fast: &sowlang::Game, games: u64, plies: u32, what: &str) -> u64 {
    let general = fast.without_fast_form();
    let mut moves = 0;
    for seed in 0..games {
        let mut a = fast.initial(None);
        fast.settle_start(&mut a);
        let mut b = a.clone();
        let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
        for ply in 0..plies {
            let pa = fast.random_playout(&mut a, &mut ra, 1);
            let pb = general.random_playout(&mut b, &mut rb, 1);
            assert_eq!(pa, pb, "{what}: game {seed} move {ply}: the playouts differ");
            assert_eq!(a, b, "{what}: game {seed} after move {ply}: the positions differ");
            moves += u64::from(pa.plies);
            if a.is_over() || pa.plies == 0 {
                break;
            }
        }
        // The whole game in one playout (the fast form keeps its own position between moves).
        let mut a = fast.initial(None);
        fast.settle_start(&mut a);
        let mut b = a.clone();
        let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
        let pa = fast.random_playout(&mut a, &mut ra, plies);
        let pb = general.random_playout(&mut b, &mut rb, plies);
        assert_eq!((pa, &a), (pb, &b), "{what}: game {seed}, played in one playout");
        assert_eq!(
            rand::Rng::r#gen::<u64>(&mut ra),
            rand::Rng::r#gen::<u64>(&mut rb),
            "{what}: the same random numbers were drawn"
        );
    }
    moves
}

#[test]
fn every_shipped_game_plays_the_same_with_and_without_its_fast_form() {
    for path in shipped() {
        let game = load(&path);
        // Fewer games on the wide boards (four rows), whose general engine is slow in a debug build.
        let games = match (game.has_fast_form(), game.initial(None).seeds().len() <= 16) {
            (true, true) => 300,
            (true, false) => 100,
            (false, _) => 3,
        };
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
        invented_agree(text);
    }
}

/// Plays 300 random games of the invented game `text` with and without its fast form (which it must
/// have), one move at a time and then whole, comparing the positions after every move and the random
/// numbers drawn.
pub(crate) fn invented_agree(text: &str) {
    let fast = crate::support::invented(text);
    assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
    agree(&fast, 300, 400, text);
}

/// A fast form hands to the general engine the positions it cannot judge, and takes the game back
/// after that engine's move: under a feeding penalty, a move whose opponent has no seeds (the
/// penalty reads the moves the mover had); and an end rule it reads only in part (`... and not
/// can_feed`), wherever the part it reads holds. Small boards with few seeds, where both come often:
/// each game plays the same with and without its fast form, and the positions handed over are counted
/// (the general engine's games), so that the test cannot pass without them.
#[test]
fn issue_25_positions_handed_to_the_general_engine_and_back_play_the_same() {
    use crate::support::penalty::{ALONE, CANNOT_FEED, ONE_LAP, RELAY};
    let games = [
        (2, 2, ONE_LAP, CANNOT_FEED),
        (3, 2, ONE_LAP, CANNOT_FEED),
        (4, 3, ONE_LAP, CANNOT_FEED),
        (2, 2, RELAY, CANNOT_FEED),
        (3, 1, RELAY, CANNOT_FEED),
        (4, 2, RELAY, CANNOT_FEED),
        (3, 2, ONE_LAP, ALONE),
        (3, 2, RELAY, ALONE),
    ];
    for (pits, seeds, sowing, rules) in games {
        let text = crate::support::penalty::game(pits, seeds, sowing, rules);
        let fast = crate::support::invented(&text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        agree(&fast, 300, 400, &text);
        // In the general engine's games: moves whose opponent had no seeds, and positions after a
        // move where the player to move's opponent has none (the guard of "cannot feed").
        let general = fast.without_fast_form();
        let (mut starving, mut guarded) = (0, 0);
        for seed in 0..300 {
            let mut pos = general.initial(None);
            general.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            while !pos.is_over() {
                let to_move = usize::from(pos.to_move() != sowlang::Player::South);
                let row = |p: usize| pos.seeds()[p * pits..(p + 1) * pits].iter().sum::<u32>();
                starving += u32::from(row(1 - to_move) == 0);
                if general.random_playout(&mut pos, &mut rng, 1).plies == 0 {
                    break;
                }
                let to_move = usize::from(pos.to_move() != sowlang::Player::South);
                let row = |p: usize| pos.seeds()[p * pits..(p + 1) * pits].iter().sum::<u32>();
                guarded += u32::from(row(1 - to_move) == 0);
            }
        }
        assert!(
            starving > 50 && guarded > 50,
            "{pits} pits of {seeds}: {starving} moves starving, {guarded} guarded"
        );
    }
}

/// The rules of the invented relay games "relay" and "limit": the origin passed over in every lap, a
/// lap going on from a pit it leaves with two seeds or more, a capture that ends the move (which may
/// be mid-relay), one that gives another move, and one after which the relay goes on.
const RELAY_RULES: &str = r#"
    capture "end on two" { when last.side == opponent and last.count == 2  take last  then end }
    capture "lone" { when last.side == mover and last.count == 1 and opposite(last).count > 0
      take opposite(last)  then another move }
    capture "four" { when last.count == 4  take opposite(last) }
    feeding required
    end "repeated" when repeated remaining owner
    end "half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
    end "stuck" when no_moves remaining owner"#;

/// Relay games on small boards: each plays the same with and without its fast form.
#[test]
fn invented_relay_games_play_the_same_with_and_without_it() {
    let relay = format!(
        r#"game "relay" board {{ pits 3 seeds 5 stores captures }} first south
           sow {{ direction ccw skip origin relay when last.count > 1 relay limit 12 }} {RELAY_RULES}"#
    );
    invented_agree(&relay);
    // The same rules with at most three laps a move, from a position worked by hand below.
    invented_agree(&limit_game(3));
    invented_agree(&limit_game(4));
    // Tracks that differ between the players (each sows into their own store), clockwise, no pit
    // passed over, relay and capture tests of the count before the last seed and of the pit across,
    // many seeds (laps round the board), and end rules on the move number and on rows of one seed.
    invented_agree(
        r#"game "own stores" board { pits 4 seeds 6 stores sown } first north
           sow { direction cw into own store relay when last.before > 0 and opposite(last).count is even relay limit 30 }
           capture "home" { when last == store(mover)  then another move }
           capture "across" { when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
             take opposite(last), last }
           end "long" when ply >= 80 remaining owner
           end "two left" when seeds(south) == 1 and seeds(north) == 1 remaining owner
           end "empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner"#,
    );
}

/// The "relay" game's rules from south [1, 3, 1], north [2, 2, 2], at most `laps` laps a move.
fn limit_game(laps: u32) -> String {
    format!(
        r#"game "limit" board {{ pits 3 layout south [1, 3, 1] north [2, 2, 2] stores captures }} first south
           sow {{ direction ccw skip origin relay when last.count > 1 relay limit {laps} }} {RELAY_RULES}"#
    )
}

/// The "relay" game's random games (general engine, narrated) meet what the test above is meant to
/// cover: many laps, a capture that ends the move in a relay lap, another move after a relay lap, and
/// a pit that holds seeds but whose move is not legal (its relay goes on past twelve laps).
#[test]
fn the_invented_relay_game_meets_long_relays_captures_that_end_them_and_endless_moves() {
    use sowlang::Event;
    let game = crate::support::invented(&format!(
        r#"game "relay" board {{ pits 3 seeds 5 stores captures }} first south
           sow {{ direction ccw skip origin relay when last.count > 1 relay limit 12 }} {RELAY_RULES}"#
    ));
    let (mut most_laps, mut ended_in_relay, mut again_in_relay, mut endless) = (0, 0, 0, 0);
    for seed in 0..100 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        while !pos.is_over() {
            let legal = game.legal_moves(&pos);
            let filled = (1..=3).filter(|&k| pos.seeds()[pos.to_move() as usize * 3 + k - 1] > 0).count();
            // Moves left out for starving the opponent are not counted.
            if pos.seeds()[(1 - pos.to_move() as usize) * 3..][..3].iter().sum::<u32>() > 0 {
                endless += filled - legal.len();
            }
            let Some(&k) = legal.get(rand::Rng::gen_range(&mut rng, 0..legal.len().max(1))) else {
                break;
            };
            let events = game.apply_traced(&mut pos, k).expect("a legal move");
            let laps = events.iter().filter(|e| matches!(e, Event::PickUp { .. })).count();
            most_laps = most_laps.max(laps);
            // "end on two" ends the move where it takes: after a relay lap when the move had two.
            let capture_ends = events.iter().any(|e| matches!(e, Event::Take { rule, .. } if rule == "end on two"));
            ended_in_relay += usize::from(laps > 1 && capture_ends);
            again_in_relay += usize::from(laps > 1 && events.iter().any(|e| matches!(e, Event::AnotherMove { .. })));
        }
    }
    assert!(most_laps >= 8, "most laps in a move: {most_laps}");
    assert!(
        ended_in_relay > 0 && again_in_relay > 0 && endless > 0,
        "{ended_in_relay} {again_in_relay} {endless}"
    );
}

/// South [1, 3, 1], north [2, 2, 2], south to move; seeds go counter-clockwise (south 1, 2, 3, north 1,
/// 2, 3), passing over the pit played in every lap.
///
/// - South 1 (1 seed): south 2 gets its fourth seed, "four" takes north 2 (2; store 2), and the relay
///   goes on: south 2's 4 to south 3 (2), north 1 (3), north 2 (1), north 3 (3); north 3's 3, passing
///   over south 1, to south 2 (1), south 3 (3), north 1 (4): "four" takes south 3 (3; store 5) and the
///   relay goes on, a fourth lap: north 1's 4 to north 2 (2), north 3 (1), south 2 (2), south 3 (1),
///   which ends it ("lone" sees north 1 empty). Four laps.
/// - South 2 (3 seeds): south 3 (2), north 1 (3), north 2 (3); north 2's 3 to north 3 (3), south 1 (2),
///   south 3 (3), passing over south 2; south 3's 3 to north 1 (4), north 2 (1), north 3 (4): "four"
///   takes south 1 (2; store 2) and the relay goes on, a fourth lap: north 3's 4 to south 1 (1), south 3
///   (1), north 1 (5), north 2 (2), where "end on two" takes north 2 (store 4) and ends the move.
/// - South 3 (1 seed): north 1 (3); north 1's 3 to north 2 (3), north 3 (3), south 1 (2); south 1's 2
///   to south 2 (4), passing over south 3, and north 1 (1), which ends it. Three laps.
///
/// With at most three laps, only south 3 may be played; with four, every pit.
#[test]
fn a_move_whose_relay_goes_past_the_limit_is_not_legal_in_the_fast_form_either() {
    let after = |south: [u32; 3], north: [u32; 3], stores: [u32; 2]| -> Vec<u32> { south.into_iter().chain(north).chain(stores).collect() };
    let by_pit = [
        after([0, 2, 1], [0, 2, 1], [5, 0]),
        after([1, 0, 1], [5, 0, 0], [4, 0]),
        after([0, 4, 0], [1, 3, 3], [0, 0]),
    ];
    for (laps, legal) in [(3, vec![3]), (4, vec![1, 2, 3])] {
        let fast = crate::support::invented(&limit_game(laps));
        assert!(fast.has_fast_form());
        let general = fast.without_fast_form();
        let mut start = fast.initial(None);
        fast.settle_start(&mut start);
        assert_eq!(general.legal_moves(&start), legal, "{laps} laps");
        for &k in &legal {
            let mut pos = start.clone();
            general.apply(&mut pos, k).expect("legal");
            assert_eq!(pos.seeds(), &by_pit[k - 1][..], "south {k}, {laps} laps");
        }
        // The fast form's random moves from the position are the legal ones, each drawn.
        let mut reached = Vec::new();
        for seed in 0..64 {
            let mut pos = start.clone();
            fast.random_playout(&mut pos, &mut StdRng::seed_from_u64(seed), 1);
            let cells = pos.seeds().to_vec();
            let k = by_pit.iter().position(|b| *b == cells).expect("a board worked out above") + 1;
            if !reached.contains(&k) {
                reached.push(k);
            }
        }
        reached.sort();
        assert_eq!(reached, legal, "{laps} laps");
    }
}

/// Issue 26: without a `relay limit` (the default one), a relay that comes back to a board and pit it
/// started a lap from goes round for ever, and is refused at once by both engines alike; one that ends
/// is played, however long. The "relay" game's rules with no limit of their own.
#[test]
fn issue_26_relays_with_the_default_limit_play_the_same_with_and_without_it() {
    invented_agree(&format!(
        r#"game "relay" board {{ pits 3 seeds 5 stores captures }} first south
           sow {{ direction ccw skip origin relay when last.count > 1 }} {RELAY_RULES}"#
    ));
    invented_agree(&format!(
        r#"game "relay" board {{ pits 4 seeds 6 stores captures }} first south
           sow {{ direction ccw relay when last.count > 1 }} {RELAY_RULES}"#
    ));
}

/// Perft in fast form (positions packed, each line kept for the move number and the repetition
/// rule) counts what the general engine counts: every shipped game with a fast form from its start,
/// and small Oware boards deep enough for lines to end by repetition ("endless chasing") and by
/// every other end rule.
#[test]
fn perft_counts_the_same_with_and_without_the_fast_form() {
    let mut compared = 0;
    for path in shipped() {
        let game = load(&path);
        if !game.has_fast_form() {
            continue;
        }
        let general = game.without_fast_form();
        let start = game.initial(None);
        // Less deep on the wide boards (four rows, issue 25), whose general engine is slow in a
        // debug build.
        let depth = if start.seeds().len() > 16 { 4 } else { 6 };
        assert_eq!(game.perft(&start, depth), general.perft(&start, depth), "{}", stem(&path));
        compared += 1;
    }
    assert_eq!(compared, FAST.len());
    let oware = crate::support::root().join("variants/oware.sow");
    for (pits, seeds, depth) in [(2, 1, 16), (2, 2, 14), (3, 1, 14)] {
        let game = sowlang::load_game(&oware, &crate::support::board_sets(pits, seeds))
            .unwrap_or_else(|_| panic!("oware loads"))
            .game;
        assert!(game.has_fast_form());
        let start = game.initial(None);
        let (fast, slow) = (game.perft(&start, depth), game.without_fast_form().perft(&start, depth));
        assert_eq!(fast, slow, "oware {pits}x{seeds}");
        // From positions with a history of their own before the count.
        let mut pos = start.clone();
        let mut rng = StdRng::seed_from_u64(pits as u64 * 10 + seeds as u64);
        for played in 1..=6 {
            game.random_playout(&mut pos, &mut rng, 1);
            if pos.is_over() {
                break;
            }
            let depth = depth - 4;
            assert_eq!(
                game.perft(&pos, depth),
                game.without_fast_form().perft(&pos, depth),
                "oware {pits}x{seeds} after {played}"
            );
        }
    }
}

/// Issue 25: boards wider than one `u128` (more than 16 cells) and the shapes four-row games brought
/// to the fast form, on invented rules: a forbid rule of the origin, a one-step test of `pit.row`,
/// pits taken found from `last` by `opposite` and `behind`, captured seeds sown again (`sow taken`),
/// with relays and without, on a wide board and on a narrow one. Each has its fast form and plays the
/// same with and without it.
#[test]
fn issue_25_wide_boards_forbids_and_seeds_sown_again_play_the_same_with_and_without_it() {
    let games = [
        // Oware's single laps on nine pits a side (20 cells): the wide board without relays, with a
        // series, a grand slam, feeding and a forbid of single seeds where the opponent has more
        // than two.
        r#"game "wide oware" board { pits 9 seeds 3 stores captures } first south
           sow { direction ccw skip origin }
           forbid "no singles" when origin.count == 1 and origin.side == mover
           capture "two or three" { when last.side == opponent and last.count in 2..3  take last
             series backward while pit.side == opponent and pit.count in 2..3 }
           grand slam capture nothing
           feeding required
           end "repeated" when repeated remaining owner
           end "half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
           end "stuck" when no_moves remaining owner"#,
        // Four rows of five (22 cells), each player round their own rows: a pull-across capture
        // from the front row whose seeds are sown on, relays on a loaded pit, no single seeds.
        r#"game "pull" board { rows 2 pits 5 seeds 2 stores captures } first south
           sow { direction ccw track own relay when last.before > 0 relay limit 60 }
           forbid "single" when origin.count == 1
           capture "pull across" {
             when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last), behind(opposite(last))
             sow taken
           }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        // The same with at most four laps a move, laps of seeds sown again counted: moves past it
        // are not legal.
        r#"game "pull short" board { rows 2 pits 5 seeds 2 stores captures } first south
           sow { direction ccw track own relay when last.before > 0 relay limit 4 }
           capture "pull across" {
             when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last), behind(opposite(last))
             sow taken
           }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        // The same capture from the back row (`last.row == back`), taking the pit across and the
        // pit in front of it, with single laps only: seeds sown again are laps of their own even
        // where nothing relays, on a narrow board.
        r#"game "pull back" board { rows 2 pits 3 seeds 3 stores captures } first north
           sow { direction cw track own }
           capture "pull" {
             when last.row == back and last.count > 1 and opposite(last).count > 0
             take opposite(last), in_front(opposite(last))
             sow taken
           }
           end "stuck" when no_moves loser to_move
           end "long" when ply >= 120 draw"#,
    ];
    for text in games {
        invented_agree(text);
    }
}

/// Issue 25: games whose players sow round their own pits only (`track own`), each player's pits a
/// block of 16 cells of their own and captures that read and take the other player's pits, so that
/// the fast form keeps the mover's block apart for the whole move (`FastRelay::home`): with another
/// row count than Hus's (one row of 16 a player), clockwise, the origin passed over with laps of more
/// than a round, captures into the store that let the relay go on or give another move, seeds sown
/// again from the hand, and the opponent fed; and moves refused past a relay limit of three laps
/// after a capture took seeds (the fast form writes a move in place and puts the board back). Each
/// plays the same with and without its fast form.
#[test]
fn issue_25_own_tracks_kept_apart_play_the_same_with_and_without_it() {
    let games = [
        // Two rows of eight a player (34 cells), many seeds in the back rows: laps go round the
        // player's 15 other pits, the pit across is taken into the store and the relay goes on.
        r#"game "own rounds" board { rows 2 pits 8 seeds 6 where pit.row == back stores captures } first south
           sow { direction ccw track own skip origin relay when last.count > 1 relay limit 40 }
           capture "across" { when last.side == mover and last.row == front and last.count > 3 and opposite(last).count > 0
             take opposite(last) }
           capture "lone" { when last.count == 1 and opposite(last).count > 1  take opposite(last)  then another move }
           feeding required
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw
           end "long" when ply >= 150 draw"#,
        // One row of sixteen a player, clockwise: the pit across is taken into the hand and sown on.
        r#"game "one row" board { pits 16 seeds 2 stores captures } first north
           sow { direction cw track own relay when last.before > 0 relay limit 30 }
           forbid "single" when origin.count == 1
           capture "pull" { when last.before > 1 and opposite(last).count > 0  take opposite(last)  sow taken }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw
           end "long" when ply >= 150 draw"#,
        // Hus's rows with at most three laps a move: a move that pulls seeds across and sows them
        // on is often refused at its fourth lap, after the capture emptied the pits across; the
        // next candidate is drawn on the board as it was.
        r#"game "pulled back" board { rows 2 pits 8 seeds 2 where pit.row == back or pit.number > 4 stores captures } first south
           sow { direction ccw track own relay when last.before > 0 relay limit 3 }
           capture "pull across" {
             when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last), behind(opposite(last))
             sow taken
           }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw
           end "long" when ply >= 150 draw"#,
    ];
    for text in games {
        let fast = crate::support::invented(text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        let moves = agree(&fast, 60, 150, text);
        assert!(moves > 600, "{moves} moves played:\n{text}");
    }
}

/// A random playout of a game whose moves must be sown to be judged draws among the moves that pass
/// the tests before the sowing (`Game::playout_candidates`), and draws again, without the move, when
/// the one drawn is not legal; both engines alike. From the "limit" position with three laps at most,
/// south 1 and 2 are candidates but not legal (their relays go on past the limit): every move drawn
/// is south 3, after one, two or three numbers drawn (`draw` of 3, then of 2, then of 1).
#[test]
fn a_random_playout_draws_again_when_the_candidate_drawn_is_not_legal() {
    use rand::RngCore;
    let fast = crate::support::invented(&limit_game(3));
    let general = fast.without_fast_form();
    let mut start = fast.initial(None);
    fast.settle_start(&mut start);
    assert_eq!(general.playout_candidates(&start), [1, 2, 3]);
    assert_eq!(general.legal_moves(&start), [3]);
    let draw = |rng: &mut StdRng, n: u64| ((u64::from(rng.next_u32()) * n) >> 32) as usize;
    let mut numbers_drawn = [0; 4];
    for seed in 0..40 {
        // By hand: the candidates left, one number drawn for each candidate dropped.
        let mut rng = StdRng::seed_from_u64(seed);
        let mut left = vec![1, 2, 3];
        let mut drawn = 0;
        loop {
            let k = left[draw(&mut rng, left.len() as u64)];
            drawn += 1;
            if k == 3 {
                break;
            }
            left.retain(|&c| c != k);
        }
        numbers_drawn[drawn] += 1;
        let next = rng.next_u32();
        for game in [&fast, &general] {
            let mut pos = start.clone();
            let mut rng = StdRng::seed_from_u64(seed);
            game.random_playout(&mut pos, &mut rng, 1);
            assert_eq!(pos.seeds(), [0, 4, 0, 1, 3, 3, 0, 0], "seed {seed}");
            assert_eq!(rng.next_u32(), next, "seed {seed}: {drawn} numbers drawn");
        }
    }
    assert!(
        numbers_drawn[1] > 0 && numbers_drawn[2] > 0 && numbers_drawn[3] > 0,
        "{numbers_drawn:?}"
    );
}

/// Issue 25: a random playout that stops after the first move leaving fewer than a floor of seeds
/// in the pits (`random_playout_above`, what MCTS plays its playouts with when the endgame databases
/// hold the positions of few seeds) stops where a playout played one move at a time first goes
/// below it, with the same random numbers drawn, in the fast form (narrow and wide, relays among
/// them) and in the general engine.
#[test]
fn issue_25_a_playout_stops_at_the_first_position_below_a_floor_of_seeds_in_the_pits() {
    use rand::Rng;
    let mut compared = 0;
    for path in shipped() {
        let fast = load(&path);
        if !fast.has_fast_form() {
            continue;
        }
        let general = fast.without_fast_form();
        let pits = fast.pit_count();
        let on_board = |pos: &sowlang::Position| pos.seeds()[..pits].iter().sum::<u32>();
        // Fewer games on the wide boards, whose general engine is slow in a debug build.
        let games = if pits > 14 { 3 } else { 20 };
        for seed in 0..games {
            let mut start = fast.initial(None);
            fast.settle_start(&mut start);
            let floor = on_board(&start) * 2 / 3;
            for game in [&fast, &general] {
                let (mut a, mut b) = (start.clone(), start.clone());
                let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
                let stopped = game.random_playout_above(&mut a, &mut ra, 400, floor);
                let mut plies = 0;
                while !b.is_over() && plies < 400 && on_board(&b) >= floor {
                    let one = game.random_playout(&mut b, &mut rb, 1);
                    if one.plies == 0 {
                        break;
                    }
                    plies += one.plies;
                }
                let what = format!("{} game {seed}, fast form {}", stem(&path), game.has_fast_form());
                assert_eq!((stopped.plies, &a), (plies, &b), "{what}");
                assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>(), "{what}: the same random numbers drawn");
                compared += usize::from(!a.is_over() && on_board(&a) < floor);
            }
        }
    }
    // Most playouts stopped at the floor, not at the end of the game.
    assert!(compared > 100, "{compared}");
}

/// Issue 25: `forbid` rules that test sets of pits (`any(row(mover) where pit.count > 1)`, `not any(...)`,
/// the whole `board`) and a grand slam that gives another move, in the fast form (Ouri's shape), on
/// small boards where both come often. Each game plays the same with and without its fast form; in the
/// general engine's games the grand slams (the mover to move again, the opponent's row empty) and the
/// moves a set's test forbade are counted, so that the test cannot pass without them.
#[test]
fn issue_25_forbids_of_sets_and_grand_slams_with_another_move_play_the_same() {
    let capture = r#"sow { direction ccw skip origin }
        capture "two or three" { when last.side == opponent and last.count in 2..3  take last
          series backward while pit.side == opponent and pit.count in 2..3 }
        feeding required
        end "half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
        end "stuck" when no_moves remaining owner
        end "long" when ply >= 200 remaining owner"#;
    let games = [
        (
            2,
            3,
            "forbid \"single seeds stay\" when origin.count == 1 and any(row(mover) where pit.count > 1)",
        ),
        (
            4,
            2,
            "forbid \"single seeds stay\" when origin.count == 1 and any(row(mover) where pit.count > 1)",
        ),
        (
            3,
            3,
            "forbid \"small sowings while the opponent has no big pit\" when origin.count < 3 and not any(row(opponent) where pit.count > 4)",
        ),
        (
            4,
            2,
            "forbid \"single seeds wait\" when origin.count == 1 and any(board where pit.count is even and pit.count > 0)",
        ),
    ];
    for (pits, seeds, forbid) in games {
        let text = format!(
            r#"game "slams" board {{ pits {pits} seeds {seeds} stores captures }} first south {capture}
               grand slam allowed then another move
               {forbid}"#
        );
        let fast = crate::support::invented(&text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        agree(&fast, 300, 300, &text);
        let general = fast.without_fast_form();
        let free = crate::support::invented(&text.replace(forbid, ""));
        let (mut slams, mut forbidden) = (0, 0);
        for seed in 0..300 {
            let mut pos = general.initial(None);
            general.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            while !pos.is_over() {
                let mover = pos.to_move();
                forbidden += free.legal_moves(&pos).len() - general.legal_moves(&pos).len();
                if general.random_playout(&mut pos, &mut rng, 1).plies == 0 {
                    break;
                }
                let opponent = usize::from(mover == sowlang::Player::South);
                let row: u32 = pos.seeds()[opponent * pits..(opponent + 1) * pits].iter().sum();
                slams += u32::from(!pos.is_over() && pos.to_move() == mover && row == 0);
            }
        }
        assert!(
            slams > 10 && forbidden > 500,
            "{pits} pits of {seeds}: {slams} grand slams, {forbidden} moves forbidden\n{text}"
        );
    }
}

/// Issue 25: triggers in the fast form, whose relay laps are then sown a seed at a time: a trigger
/// on the lap's last seed only, on the others only, or on any; to the mover or to the pit's owner;
/// two triggers read in turn; one reading the pit across; the origin passed over; capture rules beside
/// triggers that never fire on a last seed; a wide board. Each game plays the same with and without
/// its fast form; in the general engine's games each trigger's takes are counted (from the move's
/// events), so that the test cannot pass without them.
#[test]
fn issue_25_triggers_play_the_same_with_and_without_the_fast_form() {
    let ends = r#"
        end "few left" when sum(board) < 3 remaining uncounted
        end "stuck" when no_moves remaining owner
        end "round" when repeated remaining owner"#;
    let games = [
        (
            r#"board { pits 3 seeds 3 stores captures } first south
               sow { direction ccw relay when last.before > 0 and last.before != 2 }
               trigger "three to its owner" { when pit.count == 3 and not final  take pit to owner }
               trigger "the last three to the sower" { when pit.count == 3 and final  take pit }"#,
            ["three to its owner", "the last three to the sower"],
        ),
        (
            r#"board { pits 4 seeds 2 stores captures } first north
               sow { direction cw skip origin relay when last.before > 0 }
               trigger "a pair of the opponent's" { when pit.count == 2 and pit.side == opponent  take pit }
               trigger "five to its owner" { when pit.count == 5 and not final  take pit to owner }"#,
            ["a pair of the opponent's", "five to its owner"],
        ),
        (
            r#"board { pits 4 seeds 3 stores captures } first south
               sow { direction ccw relay when last.before > 0 }
               trigger "four facing seeds" { when pit.count == 4 and opposite(pit).count > 0 and not final  take pit to owner }
               trigger "six" { when pit.count == 6 and not final  take pit }
               capture "the last four" { when last.count == 4  take last  then end }"#,
            ["four facing seeds", "the last four"],
        ),
        (
            r#"board { rows 2 pits 4 seeds 2 stores captures } first south
               sow { direction ccw relay when last.before > 0 }
               trigger "four to its owner" { when pit.count == 4 and not final  take pit to owner }
               trigger "the last four to the sower" { when pit.count == 4 and final  take pit }"#,
            ["four to its owner", "the last four to the sower"],
        ),
    ];
    for (rules, fired) in games {
        let text = format!(r#"game "triggers" {rules} {ends}"#);
        let fast = crate::support::invented(&text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        agree(&fast, 200, 300, &text);
        let general = fast.without_fast_form();
        let mut takes = std::collections::HashMap::new();
        for seed in 0..100 {
            let mut pos = general.initial(None);
            general.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..300 {
                let moves = general.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                let k = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
                for event in general.apply_traced(&mut pos, k).expect("a legal move") {
                    if let sowlang::Event::Take { rule, seeds, .. } = event {
                        *takes.entry(rule).or_insert(0) += u32::from(seeds > 0);
                    }
                }
            }
        }
        for rule in fired {
            let n = takes.get(rule).copied().unwrap_or(0);
            assert!(n > 20, "{rule}: {n} takes\n{text}");
        }
    }
}

/// Issue 25: `forbid` rules read after a relay move (`lap`, the seeds of a row the move left) and `pass
/// when unable` in the fast form: relay games on narrow and wide boards, with a relay limit that makes
/// other moves illegal, and a single-lap game that passes. Each plays the same with and without its
/// fast form (random games move by move, perft, alpha-beta from positions along a game); in the general
/// engine's games the passes and the moves the after-move rules forbid are counted, so that the test
/// cannot pass without them.
#[test]
fn issue_25_forbids_after_the_move_and_passes_play_the_same() {
    use sowlang::search::alphabeta::{self, Limits};
    let ends = r#"
        pass when unable
        end "clear" when sum(board) == 0
        end "stuck" when no_moves remaining owner
        end "round" when repeated remaining owner"#;
    let specific = r#"capture "specific" { when last.side == opponent and last.before in 0..2  take last  then end }"#;
    let games = [
        (
            format!(
                r#"board {{ pits 3 seeds 3 stores captures }} first south
                   sow {{ direction ccw relay when last.before > 0 }} {specific}
                   forbid "no relay empties the opponent" when lap > 1 and seeds(opponent) == 0"#
            ),
            "forbid \"no relay empties the opponent\" when lap > 1 and seeds(opponent) == 0",
        ),
        (
            format!(
                r#"board {{ pits 4 seeds 2 stores captures }} first north
                   sow {{ direction cw relay when last.before > 0 relay limit 5 }} {specific}
                   forbid "long moves keep two" when lap in 2..4 and seeds(mover) < 2 and seeds(south) > 0"#
            ),
            "forbid \"long moves keep two\" when lap in 2..4 and seeds(mover) < 2 and seeds(south) > 0",
        ),
        (
            format!(
                r#"board {{ pits 9 seeds 2 stores captures }} first south
                   sow {{ direction ccw relay when last.before > 0 relay limit 8 }} {specific}
                   forbid "no relay empties the opponent" when lap > 1 and seeds(opponent) == 0"#
            ),
            "forbid \"no relay empties the opponent\" when lap > 1 and seeds(opponent) == 0",
        ),
        (
            r#"board { pits 3 seeds 2 stores captures } first south
               sow { direction ccw }
               capture "two or three" { when last.side == opponent and last.count in 2..3  take last }
               forbid "not from a single seed" when origin.count == 1 and any(row(mover) where pit.count > 2)"#
                .to_string(),
            "forbid \"not from a single seed\" when origin.count == 1 and any(row(mover) where pit.count > 2)",
        ),
    ];
    for (rules, forbid) in games {
        let text = format!(r#"game "passes" {rules} {ends}"#);
        let fast = crate::support::invented(&text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        agree(&fast, 200, 300, &text);
        let general = fast.without_fast_form();
        let free = crate::support::invented(&text.replace(forbid, ""));
        let (mut passes, mut forbidden, mut perfts, mut searches) = (0, 0, 0, 0);
        for seed in 0..100 {
            let mut pos = general.initial(None);
            general.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            for ply in 0..300 {
                let moves = general.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                forbidden += free.legal_moves(&pos).len() - moves.len();
                if seed < 4 && ply % 5 == 0 {
                    let depth = 4;
                    assert_eq!(
                        fast.perft(&pos, depth),
                        general.perft(&pos, depth),
                        "perft, game {seed} move {ply}\n{text}"
                    );
                    perfts += 1;
                    let limits = Limits { depth: 4, time: None };
                    let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
                    let a = alphabeta::search_with(&fast, &pos, limits, true, &mut ra, None);
                    let b = alphabeta::search_with(&general, &pos, limits, true, &mut rb, None);
                    assert_eq!(a, b, "alpha-beta, game {seed} move {ply}\n{text}");
                    searches += 1;
                }
                let k = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
                for event in general.apply_traced(&mut pos, k).expect("a legal move") {
                    passes += u32::from(matches!(event, sowlang::Event::Pass { chosen: false, .. }));
                }
            }
        }
        assert!(
            passes > 100 && forbidden > 10 && perfts > 10 && searches > 10,
            "{passes} passes, {forbidden} moves forbidden, {perfts} perfts, {searches} searches\n{text}"
        );
    }
}

/// Issue 25: an opening phase (`when ply < N`) whose moves the fast form hands to the general engine,
/// and capture rules that test and take sets of pits (`any(board where ...)`, `take board where ...`,
/// one-step tests of `pit` and the pit across) in the fast form: relay and single-lap games. Each plays
/// the same with and without its fast form (random games move by move, perft and alpha-beta from
/// positions along games, past the opening and within it); in the general engine's games each set
/// capture's takes are counted, so that the test cannot pass without them.
#[test]
fn issue_25_openings_handed_over_and_sets_of_pits_taken_play_the_same() {
    use sowlang::search::alphabeta::{self, Limits};
    let pairs = "pit.count > 0 and pit.count is even and opposite(pit).count > 0 and opposite(pit).count is even";
    let ends = r#"
        end "no seeds" when seeds(to_move) == 0 remaining uncounted
        end "no move" when no_moves remaining uncounted
        end "going around" when repeated remaining uncounted"#;
    let games = [
        (
            format!(
                r#"board {{ pits 3 layout south [0, 2, 7] north [0, 2, 7] stores captures }} first south
                   sow {{ direction cw relay when last.count is even }}
                   phase "opening" when ply < 2 {{
                     forbid "the rightmost filled pit" when origin != rightmost(row(mover) where pit.count > 0)
                     sow {{ relay when last.before > 0 }}
                     no captures
                   }}
                   capture "even pair" {{
                     when last.count > 0 and last.count is even and opposite(last).count > 0 and opposite(last).count is even
                     take board where {pairs}
                     then end
                   }}
                   capture "other pairs" {{ when any(board where {pairs})  take board where {pairs}  then continue }}"#
            ),
            vec!["even pair", "other pairs"],
        ),
        (
            r#"board { pits 4 seeds 3 stores captures } first north
               sow { direction ccw relay when last.before > 0 relay limit 9 }
               phase "first moves" when ply < 3 { sow { direction cw } no captures }
               capture "odd rows" {
                 when last.side == opponent and last.before in 0..1 and any(row(opponent) where pit.count is odd)
                 take row(opponent) where pit.count is odd and pit.count < 4, last
                 then end
               }"#
            .to_string(),
            vec!["odd rows"],
        ),
        (
            r#"board { pits 4 seeds 2 stores captures } first south
               sow { direction ccw skip origin }
               capture "twos and threes" {
                 when last.side == opponent and last.count in 2..3
                 take board where pit.count in 2..3 and opposite(pit).count < 2
               }
               capture "a lonely seed" { when last.count == 1 and not any(row(mover) where pit.count > 3)  take opposite(last) }"#
                .to_string(),
            vec!["twos and threes", "a lonely seed"],
        ),
    ];
    for (rules, fired) in games {
        let text = format!(r#"game "sets" {rules} {ends}"#);
        let fast = crate::support::invented(&text);
        assert!(fast.has_fast_form(), "the invented game has the shape:\n{text}");
        agree(&fast, 200, 300, &text);
        let general = fast.without_fast_form();
        let (mut takes, mut perfts) = (std::collections::HashMap::new(), 0);
        for seed in 0..100 {
            let mut pos = general.initial(None);
            general.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            for ply in 0..300 {
                let moves = general.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                if seed < 4 && ply % 3 == 0 {
                    assert_eq!(fast.perft(&pos, 4), general.perft(&pos, 4), "perft, game {seed} move {ply}\n{text}");
                    let limits = Limits { depth: 4, time: None };
                    let (mut ra, mut rb) = (StdRng::seed_from_u64(seed), StdRng::seed_from_u64(seed));
                    let a = alphabeta::search_with(&fast, &pos, limits, true, &mut ra, None);
                    let b = alphabeta::search_with(&general, &pos, limits, true, &mut rb, None);
                    assert_eq!(a, b, "alpha-beta, game {seed} move {ply}\n{text}");
                    perfts += 1;
                }
                let k = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
                for event in general.apply_traced(&mut pos, k).expect("a legal move") {
                    if let sowlang::Event::Take { rule, seeds, .. } = event {
                        *takes.entry(rule).or_insert(0) += u32::from(seeds > 0);
                    }
                }
            }
        }
        assert!(perfts > 10, "{perfts} perfts\n{text}");
        for rule in fired {
            let n = takes.get(rule).copied().unwrap_or(0);
            eprintln!("COUNT {rule} {n}");
            assert!(n > 20, "{rule}: {n} takes\n{text}");
        }
    }
}
