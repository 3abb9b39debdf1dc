//! Issue 25: where a game reads `before` only as `last.before` at a lap's end, the engine reads it as
//! `last.count - 1` and keeps no counts before the latest seed (`compile::before`). Each such game
//! plays exactly as its twin that keeps them (the same rules with a `forbid` that reads
//! `origin.before` and never holds): the same moves listed in every position, the same position after
//! every move of random games, both on the general engine.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::support::shipped;

/// Makes a game read `before` where `last.count - 1` cannot answer it: the counts are kept.
pub(crate) const KEEPS_BEFORE: &str = "\nforbid \"never\" when origin.before < 0\n";

pub(crate) fn load(path: &std::path::Path, text: &str) -> sowlang::Game {
    sowlang::load_text(path, text, &[])
        .unwrap_or_else(|_| panic!("{} loads", path.display()))
        .game
}

/// A Bao-like game on a small board: seeds entered from the store, captures required, the taken seeds
/// sown on from an end of the front row either way.
pub(crate) const ENTERING: &str = r#"game "entering" board { rows 2 pits 4 layout south [[0, 2, 2, 0], [0, 0, 0, 0]] north [[0, 2, 2, 0], [0, 0, 0, 0]] reserve 6 stores captures }
    first south
    sow { direction either track own relay when last.before > 0 }
    captures required
    phase "entering" when captured(to_move) > 0 {
      sow { from store 1 }
      forbid "the front row" when origin.row != front
    }
    phase "sowing" when captured(to_move) == 0 {
      forbid "two or more" when origin.count < 2
    }
    capture "pull across" {
      when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
      take opposite(last)
      sow taken from (if clockwise then leftmost(row(mover) where pit.row == front) else rightmost(row(mover) where pit.row == front)) either
    }
    end "cannot move" when no_moves loser to_move
    end "going round" when repeated draw"#;

/// Plays `games` random games of `read` (which keeps no counts before) and of `kept` (which does)
/// move by move, comparing the moves listed and the positions; returns the moves played.
fn agree(read: &sowlang::Game, kept: &sowlang::Game, games: u64, what: &str) -> u64 {
    assert!(!read.keeps_counts_before(), "{what}: reads `last.before` as the count less one");
    assert!(kept.keeps_counts_before(), "{what}: its twin keeps the counts before");
    let (read, kept) = (read.without_fast_form(), kept.without_fast_form());
    let mut moves = 0;
    for seed in 0..games {
        let mut a = read.initial(None);
        read.settle_start(&mut a);
        let mut b = kept.initial(None);
        kept.settle_start(&mut b);
        let mut rng = StdRng::seed_from_u64(seed);
        for ply in 0..400 {
            let listed = read.legal_moves(&a);
            assert_eq!(
                listed,
                kept.legal_moves(&b),
                "{what}: game {seed} move {ply}: the moves listed differ"
            );
            if a.is_over() || listed.is_empty() {
                break;
            }
            let k = listed[rng.gen_range(0..listed.len())];
            read.apply(&mut a, k).expect("a listed move is legal");
            kept.apply(&mut b, k).expect("a listed move is legal");
            assert_eq!(a, b, "{what}: game {seed} after move {ply}: the positions differ");
            moves += 1;
        }
    }
    moves
}

/// The shipped games whose rules read `before` only so ([`EXPECTED`]): relays while the last seed
/// falls into a loaded pit, captures into an empty pit or a loaded one; Omweso's capture condition,
/// not a plain list of tests (`behind(opposite(last))`), is run by the evaluator.
#[test]
fn issue_25_shipped_games_reading_last_before_as_its_count_play_as_their_twins() {
    let mut read_so = Vec::new();
    for path in shipped() {
        let text = std::fs::read_to_string(&path).expect("a shipped file");
        let reads_before = text.lines().any(|l| !l.trim_start().starts_with('#') && l.contains(".before"));
        let game = load(&path, &text);
        if !reads_before || game.keeps_counts_before() {
            continue;
        }
        let twin = load(&path, &format!("{text}{KEEPS_BEFORE}"));
        let wide = game.initial(None).seeds().len() > 16;
        let moves = agree(&game, &twin, if wide { 20 } else { 100 }, &path.display().to_string());
        assert!(moves > 0, "{}: no move played", path.display());
        read_so.push(path.file_stem().expect("a name").to_string_lossy().into_owned());
    }
    assert_eq!(read_so, EXPECTED);
}

/// Invented games on small boards, each on the way the rewrite must hold: a Bao-like game (seeds
/// entered from the store, captures required, the taken seeds sown on from an end of the front row
/// either way), a relay whose capture ends the move, a relay whose capture sows on from `last`, and
/// captures into an empty pit with no relay (into the store, another move from it).
#[test]
fn issue_25_invented_games_reading_last_before_as_its_count_play_as_their_twins() {
    let games = [
        ENTERING,
        r#"game "ends" board { pits 5 seeds 3 stores captures } first south
           sow { direction ccw relay when last.before > 0 }
           capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last)  then end }
           end "stuck" when no_moves remaining owner
           end "going round" when repeated draw"#,
        r#"game "sown on" board { rows 2 pits 3 seeds 2 stores captures } first north
           sow { direction either track own relay when last.before > 1 }
           capture "pull" { when last.side == mover and last.row == front and last.before in 1..2 and opposite(last).count > 0
             take opposite(last)  sow taken }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        // Conditions the evaluator runs, reading `last.before` in a sum and beside a pit across the
        // pit across.
        r#"game "run" board { rows 2 pits 4 seeds 2 stores captures } first south
           sow { direction either track own relay when last.before + 1 > 1 }
           capture "pull" { when last.side == mover and last.row == front and last.before + last.count > 2
             and behind(opposite(last)).count >= 0 and opposite(last).count > 0
             take opposite(last)  sow taken after origin either }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        r#"game "no relay" board { pits 4 seeds 3 stores sown } first south
           sow { direction ccw into own store }
           capture "home" { when last == store(mover) then another move }
           capture "across" { when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
             take opposite(last), last }
           end "empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner"#,
    ];
    for text in games {
        let path = std::path::Path::new("invented.sow");
        let moves = agree(&load(path, text), &load(path, &format!("{text}{KEEPS_BEFORE}")), 200, text);
        assert!(moves > 1000, "{text}: {moves} moves played");
    }
}

const EXPECTED: &[&str] = &["bao", "continued_play", "hus", "jodu", "kalah", "mangala", "moruba", "omweso"];
