//! The walk over the moves of a game with choices on the way ([`Game::walk_choice_moves`]): each
//! pit's move is tried and branches at every choice it meets; the children that answer 0 along a
//! trial's made-up answers share its outcome instead of being sown again.

use super::*;

/// The outcome of a trial with choices past its given bits ([`Game::walk_choice_moves`]), which the
/// children answering 0 along its made-up answers share.
struct Shared {
    tried: Result<u32, Refusal>,
    fault: bool,
    laps: u32,
    /// Whether the mover moves again, when the sowing was allowed.
    another: Option<bool>,
    /// The choices the trial met past its given bits, in order (the first is its open choice),
    /// as [`Choices::point`] reads them: with each, the sowing paused before the rule whose
    /// actions met it, if kept; from the first met but not kept on, the children are sown again.
    met: Met,
}

impl Shared {
    /// Is the `i`th choice met known (or known not met)?
    fn known(&self, i: usize) -> bool {
        self.met.point(i).is_some()
    }
}

impl Game {
    /// The most laps the trial sowings of one listing of the moves of `rules` may sow: a move refused
    /// as never ending sows up to its `relay limit` before it is refused, and a few of those must
    /// not use up the listing.
    fn choice_laps(rules: MoveRules) -> u64 {
        MAX_CHOICE_LAPS.max(64 * u64::from(rules.phase.sow.lap_cap))
    }

    /// Tries each pit's moves of a game with choices on the way, branching at every choice met, and
    /// hands each complete legal move to `found` (its number, the seeds it took and, with `keep`, what
    /// it leaves), which says how the walk goes on. Within [`MAX_CHOICE_TRIES`] tries a pit and
    /// [`Game::choice_laps`] laps of trial sowing in all.
    pub(super) fn walk_choice_moves(
        &self,
        pos: &Position,
        rules: MoveRules,
        keep: bool,
        mut found: impl FnMut(usize, u32, Option<(Landing, bool)>) -> Walk,
    ) -> bool {
        let (mut laps, budget) = (0u64, Self::choice_laps(rules));
        let mut cut = false;
        // Every trial of the walk sows on this one board, a copy of the position's (kept on the
        // thread from one walk to the next).
        let mut trial = Trial::for_walk(&pos.board, keep);
        // Where the phase's rules allow, the trials sow on the position's board packed a byte a
        // cell, not on `trial.board` (`engine::packed`).
        trial.packed = self.packed_trials(pos, rules).map(|b| (b, std::ptr::from_ref(rules.phase)));
        // A trial plays every choice past its given bits as option 0, so the child of its first
        // open choice that answers 0 is the same move played again, as is that child's child
        // answering 0, and so on along every choice the trial met: their outcome is the trial's,
        // taken from `last` without sowing again. Where the phase's `after move` rules would change
        // the board a complete move leaves, each is sown.
        let shares = rules.phase.after_moves.is_empty() && !rules.phase.sows_nothing && !tests::sow_every_trial();
        // A trial of another answer goes on from where the trial before it paused, whatever the
        // `after move` rules do: they are read after the sowing, which is the same.
        let pausing = !tests::sow_every_trial();
        // The tests before a move's sowing read nothing its answers change: where no phase is
        // chosen with the move (its first answer), they are asked once a pit, and a pit they
        // refuse is not tried.
        let once_a_pit = !self.phases.iter().any(|p| p.optional) && !tests::ask_every_trial();
        // Where none of them reads the way either, a pit's second way is refused exactly where
        // its first was: the pits (up to 64) whose first way's tests refused them.
        let ways_share = once_a_pit && self.ways_share_tests(rules);
        let mut refused_first = 0u64;
        let mut last: Option<Shared> = None;
        // Choices known so far, how many of their bits, and for a child that shares the last
        // trial's outcome, which of the choices that trial met comes next; for a child answering
        // otherwise, the sowing paused before the rule whose actions met the choice, to go on from.
        let mut unanswered: Vec<(u64, u32, Option<usize>, Option<u32>)> = Vec::new();
        // The sowings paused by this walk's trials are kept above this.
        let floor = super::super::pause::floor();
        let pits = self.move_pits();
        'pits: for base in 1..=self.move_count() {
            super::super::pause::truncate(floor);
            // The move's pit and chosen way: the first block of numbers is each pit's first way,
            // the second (where the mover chooses the way) each pit's other.
            let parts = if base <= pits { (base, false) } else { (base - pits, true) };
            // The pit's origin and way where its tests passed once for all its trials (`None`:
            // each trial asks them).
            let tested = once_a_pit.then(|| match parts {
                (pit, true) if ways_share && pit <= 64 => {
                    if refused_first >> (pit - 1) & 1 != 0 {
                        Err(Refusal::Empty)
                    } else {
                        Ok(Some((self.pit(pos.to_move, pit), true)))
                    }
                }
                (pit, cw) => {
                    let tested = self.before_sowing_parts(pos, rules, parts, false);
                    if tested.is_err() && !cw && pit <= 64 {
                        refused_first |= 1 << (pit - 1);
                    }
                    tested
                }
            });
            let set_up = match tested {
                Some(Ok(set_up)) => set_up,
                Some(Err(_)) => {
                    // Refused before its sowing: no trial of it finds a move. The bounds are asked
                    // as its first trial asked them, and it counts the lap a trial that sowed
                    // nothing counts.
                    if laps > budget {
                        cut = true;
                        break 'pits;
                    }
                    laps += 1;
                    TRIAL_LAPS.set(TRIAL_LAPS.get() + 1);
                    continue;
                }
                None => None,
            };
            unanswered.clear();
            unanswered.push((0u64, 0u32, None, None));
            let mut tries = 0;
            while let Some((code, known, next, paused)) = unanswered.pop() {
                tries += 1;
                if tries > MAX_CHOICE_TRIES {
                    cut = true;
                    continue 'pits;
                }
                if laps > budget {
                    cut = true;
                    break 'pits;
                }
                let (tried, open, fault, trial_laps, landing) = match (next, &last) {
                    (Some(i), Some(shared)) => {
                        tests::note_shared();
                        let open = shared.met.point(i).flatten();
                        let landing = (open.is_none() && !shared.fault && keep).then_some(shared.another).flatten();
                        (
                            shared.tried,
                            open.map(|(options, at, paused)| (options, at, i + 1, paused)),
                            shared.fault,
                            shared.laps,
                            landing,
                        )
                    }
                    _ => {
                        if paused.is_some() {
                            tests::note_resumed();
                        }
                        let mut choices = Choices::given(code, known);
                        (choices.pausing, choices.resume) = (pausing, paused);
                        let tried = match set_up {
                            Some(at) => {
                                trial.forget();
                                self.probe_trial(pos, rules, Some(&choices), at, paused.is_some(), &mut trial)
                            }
                            None => self.probe(pos, rules, base, Some(&choices), Some(&mut trial)),
                        };
                        let open = choices.point(0).flatten().map(|(options, at, paused)| (options, at, 1, paused));
                        if shares && open.is_some() {
                            last = Some(Shared {
                                tried,
                                fault: choices.fault(),
                                laps: choices.laps(),
                                another: trial.another,
                                met: choices.met(),
                            });
                        }
                        (tried, open, choices.fault(), choices.laps(), trial.kept)
                    }
                };
                laps += u64::from(trial_laps);
                TRIAL_LAPS.set(TRIAL_LAPS.get() + u64::from(trial_laps));
                if let Some((options, at, following, paused)) = open {
                    // The rest of the move was played with made-up answers: only its next choice
                    // counts. The options are pushed last first, so that they come out in order;
                    // option 0 shares this trial's outcome where it was kept.
                    for o in (1..options as u64).rev() {
                        unanswered.push((code | o << at, at + choice_width(options), None, paused));
                    }
                    let share = (shares && last.as_ref().is_some_and(|l| l.known(following))).then_some(following);
                    unanswered.push((code, at + choice_width(options), share, None));
                } else if let (Ok(taken), false) = (tried, fault) {
                    let landing = landing.and_then(|another| Some((trial.landing(pos)?, another)));
                    match found(base | (code as usize) << CHOICE_SHIFT, taken, landing) {
                        Walk::On => {}
                        Walk::NextPit => continue 'pits,
                        Walk::Stop => {
                            cut = true;
                            break 'pits;
                        }
                    }
                }
            }
        }
        super::super::pause::truncate(floor);
        trial.give_back();
        cut
    }
}

impl Game {
    /// Do the tests before a move's sowing ([`Game::before_sowing_parts`]) of `rules` answer the
    /// same for a pit's two ways, but for the way they hand back? Where the mover chooses the way
    /// of every move, each move is sown to be judged (so that whether it may be stuck is not
    /// asked), and every `forbid` rule read before the sowing is answered by its table alone
    /// without a test of the way.
    fn ways_share_tests(&self, rules: MoveRules) -> bool {
        let phase = rules.phase;
        self.choices == 2
            && phase.sow.either
            && (rules.must_feed || rules.sow_always)
            && phase
                .forbids
                .iter()
                .all(|f| f.after || f.when.lap.as_deref().is_some_and(|t| t.whole && t.way.is_none()))
    }
}

/// A switch for the tests: every trial sown, none shared; and the trials shared so far.
#[cfg(not(test))]
mod tests {
    #[inline(always)]
    pub(super) fn sow_every_trial() -> bool {
        false
    }

    #[inline(always)]
    pub(super) fn ask_every_trial() -> bool {
        false
    }

    #[inline(always)]
    pub(super) fn note_shared() {}

    #[inline(always)]
    pub(super) fn note_resumed() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    thread_local! {
        static SOW_EVERY_TRIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        static ASK_EVERY_TRIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        static SHARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static RESUMED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    pub(super) fn note_resumed() {
        RESUMED.set(RESUMED.get() + 1);
    }

    pub(super) fn sow_every_trial() -> bool {
        SOW_EVERY_TRIAL.get()
    }

    pub(super) fn note_shared() {
        SHARED.set(SHARED.get() + 1);
    }

    pub(super) fn ask_every_trial() -> bool {
        ASK_EVERY_TRIAL.get()
    }

    /// An invented game named `name` on a `board` whose moves relay, a capture across the front
    /// row sowing the seeds taken on from a front pit the mover chooses either way, with `rules`
    /// (phases, `captures required`) between the sowing and the capture.
    fn pulling_across(name: &str, board: &str, rules: &str) -> String {
        format!(
            r#"game "{name}"
               board {{ {board} }}
               sow {{ direction either  track own  relay when last.before > 0 }}
               {rules}
               capture "pull across" {{
                 when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
                 take opposite(last)
                 sow taken from choose(row(mover) where pit.row == front and pit.count < 3) either
               }}
               end "cannot move" when no_moves loser to_move
               end "going round" when repeated draw"#
        )
    }

    use crate::shipped::invented as game;

    /// A listing of `pos`'s moves, both ways (every move, and each landing once), with what its
    /// trials sowed, and how many trials it shared.
    /// Every move and each landing once, whether a bound cut the walk, the laps counted, the
    /// trials shared and the trials that went on from a paused one.
    type Listings = (Vec<(usize, u32)>, Vec<(usize, u32)>, bool, u64, u64, u64);

    fn listings(g: &Game, pos: &Position) -> Listings {
        let rules = g.move_rules(pos, Hints::default());
        let (laps, shared, resumed) = (trial_laps(), SHARED.get(), RESUMED.get());
        let (every, cut) = g.all_choice_moves_cut(pos, rules, false);
        let distinct = g.all_choice_moves(pos, rules, true);
        (
            every,
            distinct,
            cut,
            trial_laps() - laps,
            SHARED.get() - shared,
            RESUMED.get() - resumed,
        )
    }

    /// Issue 25: the children of a trial's open choice that answer 0 take the trial's outcome
    /// (its seeds taken, its landing, its laps, the choices it met further on) instead of being
    /// sown again, the others go on from where the trial paused before the capture whose actions
    /// met the choice, and the listing is what sowing every one from its start gives: the same
    /// moves in the same order, the same landings left out, the same laps counted towards the
    /// bounds. A capture asks for a pit among one to four (no bit, one, or two bits with a fourth answer that names
    /// nothing) and a way, and a move may capture many times, each way.
    #[test]
    fn children_answering_0_share_the_trial_and_list_what_sowing_each_lists() {
        let capture = r#"capture "pull across" {
                 when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
                 take opposite(last)
                 sow taken from choose(row(mover) where pit.row == front and pit.count < 3) either
               }"#;
        // Where the file has no `choose`, a capture meets one choice (its way) at most, and a trial
        // whose given answers are not all read keeps no pause before it: it is a given one.
        let by_way = r#"capture "pull across" {
                 when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
                 take opposite(last)
                 sow taken from (if clockwise then leftmost(row(mover) where pit.row == front) else rightmost(row(mover) where pit.row == front)) either
               }"#;
        // Counts before the latest seed read of a pit no lap of the mover sows: its count when the
        // sowing began, which a trial going on from a pause must read as the trial before it did.
        let before_across = r#"capture "pull across" {
                 when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0 and opposite(last).before > 1
                 take opposite(last)
                 sow taken from choose(row(mover) where pit.row == front and pit.count < 3) either
               }"#;
        let text = |capture: &str, after: &str| {
            format!(
                r#"game "Deep choices"
                   board {{ rows 2  pits 4  seeds 2  stores captures }}
                   sow {{ direction either  track own  relay when last.before > 0 }}
                   captures required
                   {capture}
                   {after}
                   end "cannot move" when no_moves loser to_move
                   end "going round" when repeated draw"#
            )
        };
        // Without `after move` rules, trials are shared and paused; with one (which changes the
        // board a complete move leaves), only paused.
        for (capture, after, shares) in [
            (capture, "", true),
            (
                capture,
                r#"after move "a tall pit is taxed" { when last.count > 4  take last }"#,
                false,
            ),
            (by_way, "", true),
            (before_across, "", true),
        ] {
            let g = game(&text(capture, after));
            let one_choice = g.phases.last().is_some_and(|p| p.captures.iter().all(|r| r.one_choice));
            assert_eq!(
                one_choice,
                capture == by_way,
                "a capture meets one choice where the file has no `choose`"
            );
            // Three captures or more: a choice of a pit and a way takes three bits, a way one.
            let deep_bits = if one_choice { 0x3 } else { 0xff };
            let mut rng = StdRng::seed_from_u64(25);
            let (mut positions, mut shared, mut resumed, mut deep) = (0, 0, 0, 0);
            for _ in 0..12 {
                let mut pos = g.initial(None);
                while !pos.over && pos.ply < 60 {
                    SOW_EVERY_TRIAL.set(true);
                    let sown = listings(&g, &pos);
                    SOW_EVERY_TRIAL.set(false);
                    let walked = listings(&g, &pos);
                    assert_eq!((sown.4, sown.5), (0, 0));
                    assert_eq!(walked.0, sown.0, "every move, at ply {}", pos.ply);
                    assert_eq!(walked.1, sown.1, "each landing once, at ply {}", pos.ply);
                    assert_eq!((walked.2, walked.3), (sown.2, sown.3), "the bounds and laps, at ply {}", pos.ply);
                    positions += 1;
                    shared += walked.4;
                    resumed += walked.5;
                    deep += usize::from(walked.0.iter().any(|&(k, _)| k >> CHOICE_SHIFT > deep_bits));
                    let moves = g.legal_moves(&pos);
                    let k = moves[crate::engine::draw(&mut rng, moves.len())];
                    g.apply(&mut pos, k).expect("a listed move");
                }
            }
            assert!(positions > 100 && deep > 10, "{positions} positions, {deep} deep");
            assert_eq!(shared > 1000, shares, "{shared} shared");
            assert!(resumed > 1000, "{resumed} went on from a paused trial");
        }
    }

    /// Issue 25: the tests before a move's sowing (the pit's seeds, the reserve, `forbid` rules)
    /// asked once a pit list what asking them at every trial lists: the same moves, landings,
    /// bounds and laps (a pit refused counts the lap its trial counted), in a game whose usual
    /// rules forbid some pits and enter from the store (a pit's second way refused where its
    /// first was: no test reads the way), in one whose mover may choose a phase that forbids
    /// others (its tests are then asked at every trial, the phase being the move's first answer),
    /// and in one whose `forbid` reads the way (each way asks its own).
    #[test]
    fn the_tests_before_the_sowing_asked_once_a_pit_list_what_each_trial_lists() {
        let rules = |phases: &str| {
            pulling_across(
                "Tests once a pit",
                "rows 2  pits 4  seeds 2  reserve 3  stores captures",
                &format!("captures required\n{phases}"),
            )
        };
        let entering = r#"phase "entering" when captured(to_move) > 0 {
                            sow { from store 1 }
                            forbid "front only" when origin.row != front
                          }
                          phase "sowing" when captured(to_move) == 0 {
                            forbid "two or more" when origin.count < 2
                          }"#;
        let chosen = r#"phase "short" when true {
                          optional
                          forbid "small pits only" when origin.count > 2
                        }
                        phase "usual" when true {
                          forbid "two or more" when origin.count < 2
                        }"#;
        // A `forbid` that reads the way: a pit's two ways ask their tests apart.
        let by_way = r#"phase "sowing" when true {
                          forbid "a small pit goes clockwise" when origin.count < 3 and not clockwise
                        }"#;
        for phases in [entering, chosen, by_way] {
            let g = game(&rules(phases));
            let mut rng = StdRng::seed_from_u64(26);
            let (mut positions, mut refused) = (0, 0);
            for _ in 0..12 {
                let mut pos = g.initial(None);
                while !pos.over && pos.ply < 60 {
                    ASK_EVERY_TRIAL.set(true);
                    let asked = listings(&g, &pos);
                    ASK_EVERY_TRIAL.set(false);
                    let once = listings(&g, &pos);
                    assert_eq!(once.0, asked.0, "every move, at ply {}", pos.ply);
                    assert_eq!(once.1, asked.1, "each landing once, at ply {}", pos.ply);
                    assert_eq!(
                        (once.2, once.3, once.4, once.5),
                        (asked.2, asked.3, asked.4, asked.5),
                        "the bounds, laps and trials shared, at ply {}",
                        pos.ply
                    );
                    positions += 1;
                    let rules = g.move_rules(&pos, Hints::default());
                    refused += (1..=g.move_count())
                        .filter(|&k| g.before_sowing(&pos, rules, k, false).is_err())
                        .count();
                    let moves = g.legal_moves(&pos);
                    let k = moves[crate::engine::draw(&mut rng, moves.len())];
                    g.apply(&mut pos, k).expect("a listed move");
                }
            }
            assert!(positions > 100 && refused > 500, "{positions} positions, {refused} pits refused");
        }
    }

    /// Issue 25: whether the player to move has a move, answered by the walk stopped at the first
    /// complete move ([`Hints::first_only`], what `apply` asks), is what every pit's first move
    /// answers, in positions with moves and without.
    #[test]
    fn the_first_move_answers_whether_there_is_one() {
        let g = game(
            r#"game "First moves"
               board { rows 2  pits 4  seeds 2  stores captures }
               sow { direction either  track own  relay when last.before > 0 }
               captures required
               capture "pull across" {
                 when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
                 take opposite(last)
                 sow taken from choose(row(mover) where pit.row == front and pit.count < 3) either
               }
               end "cannot move" when no_moves loser to_move
               end "going round" when repeated draw"#,
        );
        let mut rng = StdRng::seed_from_u64(11);
        let mut answers = [0; 2];
        for _ in 0..40 {
            let mut pos = g.initial(None);
            loop {
                let rules = g.move_rules(&pos, Hints::default());
                let none = g.choice_pits(&pos, rules).is_empty();
                assert_eq!(g.choice_first(&pos, rules).is_empty(), none, "at ply {}", pos.ply);
                answers[usize::from(none)] += 1;
                if pos.over || pos.ply >= 200 {
                    break;
                }
                let moves = g.legal_moves(&pos);
                let k = moves[crate::engine::draw(&mut rng, moves.len())];
                g.apply(&mut pos, k).expect("a listed move");
            }
        }
        assert!(answers[0] > 100 && answers[1] > 5, "{answers:?}");
    }

    /// Issue 25: whether some move takes seeds (what `captures required` asks of a move that takes
    /// none) is the walk stopped at the first move that does, and answers as the whole listing
    /// does, with and without the rule.
    #[test]
    fn some_move_takes_as_the_whole_listing_says() {
        for required in ["captures required", ""] {
            let g = game(&pulling_across(
                "Taking choices",
                "rows 2  pits 4  seeds 2  stores captures",
                required,
            ));
            let mut rng = StdRng::seed_from_u64(7);
            let mut answers = [0; 2];
            for _ in 0..12 {
                let mut pos = g.initial(None);
                while !pos.over && pos.ply < 60 {
                    let rules = g.move_rules(&pos, Hints::default());
                    let listed = g.all_choice_moves(&pos, rules, false).iter().any(|m| m.1 > 0);
                    assert_eq!(g.some_choice_move_takes(&pos, rules), listed, "at ply {}", pos.ply);
                    answers[usize::from(listed)] += 1;
                    let moves = g.legal_moves(&pos);
                    let k = moves[crate::engine::draw(&mut rng, moves.len())];
                    g.apply(&mut pos, k).expect("a listed move");
                }
            }
            assert!(answers[0] > 20 && answers[1] > 20, "{answers:?}");
        }
    }
}
