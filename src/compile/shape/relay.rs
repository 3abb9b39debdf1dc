//! A relay game's tables in fast form ([`FastRelay`]): the relay rule's bit sets per mover, cell
//! and count of `last`, the laps from any cell of the mover's track, and whether a mover's track is
//! kept apart as a block of its own.

use super::{
    ACROSS, FastCapture, FastForm, FastRelay, GO, HOME_PLACES, LOOK, Lanes, PLACES, STOP, WATCH_FROM, boxed, cell_tests, has_count,
};
use crate::board::Player;
use crate::compile::ir::{Game, Reg, Track};
use crate::compile::shape::CellCond;

/// The relay rule in fast form (a rule that never holds when the laps come only from seeds sown
/// again), if its condition is made of one-step tests of `last`, with the tables of laps that start
/// anywhere on the mover's track (`ff` has the first laps' already).
pub(super) fn relay<B: Lanes, const L: usize>(
    game: &Game,
    ff: &FastForm<B, L>,
    phase: &crate::compile::ir::Phase,
    tracks: &[Track; 2],
) -> Option<Box<FastRelay<B, L>>> {
    let sow = &phase.sow;
    let mut when = match &sow.relay {
        Some(code) => cell_tests(game, code, Reg::Last)?,
        None => CellCond::NOWHERE,
    };
    // The engine goes on only from a pit that holds seeds.
    for at in &mut when.at {
        *at &= (1 << ff.pits) - 1;
    }
    when.count[0] &= !1;
    let when = when.with_shapes();
    // Whether the relay rule holds of a count, when the answer is the same for every count from 63
    // up (the tables' last bit stands for all of them); `None` when it is not.
    let count_holds = |k: u32| {
        let holds = has_count(&when.count, k);
        (k < 63 || (63..256).all(|n| has_count(&when.count, n) == holds)).then_some(holds)
    };
    let (every_across, no_across) = (when.across == [u64::MAX; 4], when.across == [0; 4]);
    let mut go = [[0u64; L]; 2];
    let mut stop = [[0u64; L]; 2];
    let mut relays = [[0u64; L]; 2];
    let mut ends = [[0u64; L]; 2];
    for m in 0..2 {
        for c in 0..ff.pits + 2 {
            for k in 0..64u32 {
                let at = when.at[m] >> c & 1 != 0;
                relays[m][c] |= u64::from(at && every_across && count_holds(k) == Some(true)) << k;
                // The relay rule fails whatever the pit across holds: the move ends here unless
                // a capture sows seeds again (`FastRelay::ends`, finished once the captures are read).
                ends[m][c] |= u64::from(!at || no_across || count_holds(k) == Some(false)) << k;
                let (Some(count), false) = (count_holds(k), ff.capture_at[m][c] >> k & 1 != 0) else {
                    continue;
                };
                let holds = when.at[m] >> c & 1 != 0 && count;
                go[m][c] |= u64::from(holds && every_across) << k;
                stop[m][c] |= u64::from(!holds || no_across) << k;
            }
        }
    }
    for (ends, stop) in ends.iter_mut().zip(&stop) {
        for (e, s) in ends.iter_mut().zip(stop) {
            *e |= s;
        }
    }
    let mut relay = Box::new(FastRelay {
        when,
        limit: sow.lap_cap,
        go,
        stop,
        relays,
        ends,
        partial: boxed(|| [[B::ZERO; PLACES]; L]),
        last: [[[0; PLACES]; L]; 2],
        skip_at: [[0xFF; L]; L],
        skips: sow.skip_origin,
        unit: std::array::from_fn(|c| B::at(c, 1)),
        home: [0xFF; 2],
        home_laps: Box::new([[0; HOME_PLACES]; 2]),
        home_last: [[0; HOME_PLACES]; 2],
        home_step: Box::new([[LOOK; 16 * 256]; 2]),
        in_place: [0xFF; 2],
        short: std::array::from_fn(|c| if sow.skip_origin { 0 } else { ff.lap[c] }),
        careful: sow.lap_cap.min(WATCH_FROM),
        stores_fixed: false,
    });
    for p in Player::BOTH {
        let m = p.index();
        let track = &tracks[m];
        for &start in &track.cells {
            let start = start as usize;
            // A lap from `start` along the whole track: the last place is a full round, back into
            // `start` itself.
            let mut add = B::ZERO;
            let mut c = start;
            for r in 1..=track.cells.len() {
                c = track.next[c] as usize;
                add = add + B::at(c, 1);
                relay.partial[m][start][r] = add;
                relay.last[m][start][r] = c as u8;
                if sow.skip_origin && game.side_codes[c] == m as u8 && c < ff.pits && c != start {
                    relay.skip_at[c][start] = r as u8;
                }
            }
            if sow.skip_origin && start < ff.pits && game.side_codes[start] == m as u8 {
                // A lap from the origin itself (the first) never reaches it again within a round.
                relay.skip_at[start][start] = track.cells.len() as u8;
            }
        }
        let block = track.cells.first().map_or(0, |&c| c as usize / 16);
        if track.cells.iter().all(|&c| c as usize / 16 == block) {
            relay.home[m] = block as u8;
            for &start in &track.cells {
                let start = start as usize;
                for r in 0..PLACES {
                    let add = relay.partial[m][start][r].block(block);
                    let place = start % 16 * PLACES + r;
                    relay.home_laps[m][place] = add.wrapping_sub((r as u128) << (8 * (start % 16)));
                    relay.home_last[m][place] = relay.last[m][start][r];
                }
            }
        }
    }
    Some(relay)
}

/// Fills `relay.home_step` for each mover with a home block: per place and count of `last`, what
/// `go` and `stop` say of a lap's end there, or else whether the game's one capture rule holds
/// there but for its test of the pit across (`ACROSS`, where `capture_at` says it may hold and
/// its tests of place and count hold), or else that the rules are read one by one (`LOOK`).
pub(super) fn home_steps<B: Lanes, const L: usize>(relay: &mut FastRelay<B, L>, captures: &[FastCapture<L>], capture_at: &[[u64; L]; 2]) {
    for (m, may) in capture_at.iter().enumerate() {
        if relay.home[m] == 0xFF {
            continue;
        }
        let block = usize::from(relay.home[m]);
        for (i, step) in relay.home_step[m].iter_mut().enumerate() {
            let (c, n) = ((16 * block + i / 256) & (L - 1), i % 256);
            let k = n.min(63);
            *step = match captures {
                _ if relay.go[m][c] >> k & 1 != 0 => GO,
                _ if relay.stop[m][c] >> k & 1 != 0 => STOP,
                [only] if may[c] >> k & 1 != 0 && only.when.at[m] >> c & 1 != 0 && has_count(&only.when.count, n as u32) => ACROSS,
                _ => LOOK,
            };
        }
    }
}

/// Do the rules read and change no cell of the home block `home` of a mover but the cell a lap
/// ends in, whichever cell of their track (`on_track`) it is: the pit across and the pits taken lie
/// outside it, no series walks, and seeds taken go to the hand or to a store (`store`, the mover's)
/// and from an opponent's row (`row`, read by a grand slam) outside it. The engine then keeps the
/// home block apart from the board for a whole move.
pub(super) fn apart<const L: usize>(
    captures: &[FastCapture<L>],
    across: &[u8; L],
    on_track: u64,
    store: usize,
    row: u64,
    home: u8,
) -> bool {
    let outside = |c: u8| c == 0xFF || c / 16 != home;
    // Sets of pits are read and taken anywhere on the board.
    if captures.iter().any(FastCapture::reads_sets) {
        return false;
    }
    let to_store = captures.iter().any(|r| !r.sows_again && !r.takes.is_empty());
    let row_outside = (0..64).all(|c| row >> c & 1 == 0 || outside(c as u8));
    (0..L).filter(|&c| on_track >> c & 1 != 0).all(|c| {
        outside(across[c])
            && captures
                .iter()
                .all(|r| r.series.is_none() && r.takes.iter().all(|map| outside(map[c])))
    }) && (!to_store || (outside(store as u8) && row_outside))
}

/// [`FastRelay::ends`] once the captures are read: `stop` alone where a capture rule may sow seeds
/// again (its seeds in hand go on with another lap, whatever the relay rule says). Else a capture
/// that holds takes seeds (the count in `last` stays or becomes 0, and a relay needs seeds) and
/// then ends the move, gives another, or leaves the relay rule to decide, which holds with none
/// of the counts `ends` keeps beyond `stop`, whatever the pit across holds.
pub(super) fn finish_ends<B: Lanes, const L: usize>(relay: &mut FastRelay<B, L>, captures: &[FastCapture<L>]) {
    if captures.iter().any(|r| r.takes_any && r.sows_again) {
        relay.ends = relay.stop;
    }
}

#[cfg(test)]
mod tests {
    use super::super::Fast;

    /// The home blocks of an invented relay game on a wide board.
    fn homes(text: &str) -> [u8; 2] {
        let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), text, &[]) else {
            panic!("the invented game checks:\n{text}");
        };
        let game = loaded.game;
        match game.fast.as_deref() {
            Some(Fast::Wide(ff)) => ff.relay.as_ref().expect("a relay game").home,
            _ => panic!("no wide fast form:\n{text}"),
        }
    }

    /// A mover's track is kept apart as one block exactly when it lies in one block of 16 cells and
    /// the rules read and change no other cell of that block.
    #[test]
    fn own_tracks_in_blocks_of_their_own_are_kept_apart() {
        let game = |board: &str, take: &str| {
            format!(
                r#"game "g" board {{ {board} seeds 2 stores captures }} first south
                   sow {{ direction ccw track own relay when last.before > 0 }}
                   capture "pull" {{ when last.before > 1 and opposite(last).count > 0  take {take}  sow taken }}
                   end "stuck" when no_moves loser to_move"#
            )
        };
        // Sixteen pits a player, in cells 0..15 and 16..31: taken across, from the other block.
        assert_eq!(homes(&game("rows 2 pits 8", "opposite(last)")), [0, 1]);
        assert_eq!(homes(&game("pits 16", "opposite(last)")), [0, 1]);
        // A capture of the mover's own pit behind the one across (two rows): in the mover's block.
        assert_eq!(homes(&game("rows 2 pits 8", "behind(last)")), [0xFF, 0xFF]);
        // Ten pits a player: south's in block 0 with north's first six (the pits across), north's
        // across two blocks.
        assert_eq!(homes(&game("rows 2 pits 5", "opposite(last)")), [0xFF, 0xFF]);
        // Four rows with a forbid of the origin, a test of the landing's row, and both pits across
        // taken (the other player's block): kept apart.
        let four_rows = r#"game "g" board { rows 2 pits 8 seeds 2 stores captures } first south
            sow { direction ccw track own relay when last.before > 0 }
            forbid "single" when origin.count == 1
            capture "pull" {
              when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
              take opposite(last), behind(opposite(last))
              sow taken
            }
            end "stuck" when no_moves loser to_move
            end "round" when repeated draw"#;
        assert_eq!(homes(four_rows), [0, 1]);
    }

    /// Issue 25: a relay game's stores are fixed within a move (`FastRelay::stores_fixed`: the
    /// playouts' loop compares them no more) exactly when no track passes a store, every capture
    /// sows its seeds again and no trigger takes a pit.
    #[test]
    fn stores_are_fixed_where_no_seed_reaches_them_in_a_move() {
        let fixed = |board: &str, sow: &str, rules: &str| {
            let text = format!(
                r#"game "g" board {{ {board} seeds 3 }} first south
                   sow {{ direction ccw {sow} relay when last.before > 0 }}
                   {rules}
                   end "stuck" when no_moves loser to_move
                   end "round" when repeated draw"#
            );
            let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), &text, &[]) else {
                panic!("the invented game checks:\n{text}");
            };
            match loaded.game.fast.as_deref() {
                Some(Fast::Narrow(ff)) => ff.relay.as_ref().expect("a relay game").stores_fixed,
                Some(Fast::Wide(ff)) => ff.relay.as_ref().expect("a relay game").stores_fixed,
                None => panic!("no fast form:\n{text}"),
            }
        };
        let sown_again = r#"capture "pull" { when last.before > 0 and opposite(last).count > 0  take opposite(last)  sow taken }"#;
        let stored = r#"capture "pull" { when last.before > 0 and opposite(last).count > 0  take opposite(last) }"#;
        let four = r#"trigger "four" { when pit.count == 4 and not final  take pit to owner }"#;
        let got = [
            fixed("pits 6 stores captures", "", sown_again),
            fixed("rows 2 pits 8 stores captures", "track own", sown_again),
            fixed("pits 6 stores captures", "", ""),
            // Captured seeds go to the store, the track passes the stores, a trigger takes a pit.
            fixed("pits 6 stores captures", "", stored),
            fixed("pits 6 stores sown", "into own store", ""),
            fixed("pits 6 stores captures", "", four),
        ];
        assert_eq!(got, [true, true, true, false, false, false]);
    }
}
