//! The choices a mover makes during a move (`choose(...)`, `sow taken ... either`), carried by the
//! move's number.
//!
//! A move is a number: its low [`CHOICE_SHIFT`] bits name the pit (and the direction, where the mover
//! picks one with the move), and the bits above hold the choices made on the way, one after the
//! other in the order the move meets them. A choice among `n` options takes as many bits as `n - 1`
//! needs, so that most moves with a few two-way choices stay small numbers. The width of each choice
//! is known only when the move reaches it, which is why the legal moves are found by playing each
//! pit's move and branching at every choice it meets (see `Game::legal_moves`).

use std::cell::{Cell, RefCell};

/// The bits of a move number that name the pit and the direction; the choices lie above.
pub const CHOICE_SHIFT: u32 = 8;

/// How many bits of choices one move can carry.
pub(crate) const CHOICE_BITS: u32 = usize::BITS - CHOICE_SHIFT;

/// The part of a move number that names the pit and the direction.
pub fn move_base(k: usize) -> usize {
    k & ((1 << CHOICE_SHIFT) - 1)
}

/// The choices of one move as it is played (or tried).
#[derive(Debug)]
pub(crate) struct Choices {
    /// The choices made, lowest bits first.
    code: u64,
    /// How many bits of `code` are given; a choice past them is open (when finding the legal moves).
    known: u32,
    /// How many bits have been read.
    at: Cell<u32>,
    /// The options of the first choice met past the known bits (0: none met).
    open: Cell<u32>,
    /// A choice named an option that does not exist, or the move met more choices than it can carry.
    fault: Cell<bool>,
    /// The words for the options chosen, kept when the move is named.
    labels: Option<RefCell<Vec<String>>>,
    /// The laps the move's trial sowed (what finding the legal moves spends).
    laps: Cell<u32>,
    /// The choices met past the given bits, in order (each its options and the bit where it
    /// starts, packed as `options << 8 | bit`, and the paused sowing its other answers go on from,
    /// or [`NONE`]), up to [`POINTS`] of them: the move played with every later answer 0 is the
    /// same move whichever of them are given as 0 ([`Choices::point`]).
    points: [Cell<(u32, u32)>; POINTS],
    /// How many choices were met past the given bits (more than [`POINTS`] are counted, not kept).
    met: Cell<u32>,
    /// The trial's sowing is paused before each capture rule fires, for the trials of other answers
    /// to go on from ([`crate::engine::pause`]).
    pub(super) pausing: bool,
    /// The paused sowing this trial goes on from, if any.
    pub(super) resume: Option<u32>,
    /// The sowing paused before the rule firing now, until a choice past the given bits takes it.
    pending: Cell<u32>,
}

/// No paused sowing.
const NONE: u32 = u32::MAX;

/// The choices a trial met past its given bits, copied out of its [`Choices`] ([`Choices::met`]).
#[derive(Clone, Copy)]
pub(crate) struct Met {
    points: [(u32, u32); POINTS],
    met: u32,
}

impl Met {
    /// [`Choices::point`] of the choices copied.
    #[inline]
    pub(crate) fn point(&self, i: usize) -> Option<Option<(usize, u32, Option<u32>)>> {
        point(self.met, i, || self.points.get(i).copied())
    }
}

/// The `i`th of `met` choices met, kept as `kept` reads it ([`Choices::point`]).
#[inline(always)]
fn point(met: u32, i: usize, kept: impl FnOnce() -> Option<(u32, u32)>) -> Option<Option<(usize, u32, Option<u32>)>> {
    if i >= met as usize {
        return Some(None);
    }
    let (p, paused) = kept()?;
    Some(Some(((p >> 8) as usize, p & 0xff, (paused != NONE).then_some(paused))))
}

/// How many of the choices a move meets past its given bits are kept ([`Choices::point`]).
pub(crate) const POINTS: usize = 16;

impl Choices {
    /// The choices of the complete move `k`.
    pub fn of_move(k: usize) -> Choices {
        Choices::given((k >> CHOICE_SHIFT) as u64, CHOICE_BITS)
    }

    /// Choices of which only the first `known` bits are given.
    pub fn given(code: u64, known: u32) -> Choices {
        Choices {
            code,
            known,
            at: Cell::new(0),
            open: Cell::new(0),
            fault: Cell::new(false),
            labels: None,
            laps: Cell::new(0),
            points: [const { Cell::new((0, NONE)) }; POINTS],
            met: Cell::new(0),
            pausing: false,
            resume: None,
            pending: Cell::new(NONE),
        }
    }

    /// The same, keeping the words for the options chosen.
    pub fn labelled(mut self) -> Choices {
        self.labels = Some(RefCell::new(Vec::new()));
        self
    }

    /// The option (0-based) chosen among `options`; `label` names an option when the move is
    /// being named. With one option no bit is read, but the answer is still named, so that a move
    /// is written with one answer for each choice it meets whatever the count of options (`1:1`
    /// for a pit whose choice has one value, as `2:1` for one whose has two).
    pub fn pick(&self, options: usize, label: impl Fn(usize) -> String) -> usize {
        if options <= 1 {
            if options == 1
                && let Some(labels) = &self.labels
            {
                labels.borrow_mut().push(label(0));
            }
            return 0;
        }
        let width = width(options);
        let at = self.at.get();
        self.at.set(at + width);
        if at + width > CHOICE_BITS {
            self.fault.set(true);
            return 0;
        }
        if at + width > self.known {
            if self.open.get() == 0 {
                self.open.set(options as u32);
            }
            let met = self.met.get();
            // Only the first choice past the given bits after the pause can go on from it: the
            // answers to the rule's choices before it are then all given.
            let paused = self.pending.replace(NONE);
            if let Some(point) = self.points.get(met as usize) {
                point.set(((options as u32) << 8 | at, paused));
            }
            self.met.set(met + 1);
            return 0;
        }
        let chosen = ((self.code >> at) & ((1 << width) - 1)) as usize;
        if chosen >= options {
            self.fault.set(true);
            return 0;
        }
        if let Some(labels) = &self.labels {
            labels.borrow_mut().push(label(chosen));
        }
        chosen
    }

    /// Refuses the move: a choice offered more options than a move may choose among.
    pub fn refuse(&self) {
        self.fault.set(true);
    }

    /// The options of the first choice met past the given bits, with the bit where it starts.
    pub fn open(&self) -> Option<(usize, u32)> {
        let options = self.open.get() as usize;
        (options > 0).then_some((options, self.known))
    }

    /// The `i`th choice met past the given bits (its options and the bit where it starts): `Some(None)`
    /// when fewer were met, `None` when it was met but not kept. The first is [`Choices::open`].
    /// With it, the paused sowing its other answers go on from, if one was kept.
    pub fn point(&self, i: usize) -> Option<Option<(usize, u32, Option<u32>)>> {
        point(self.met.get(), i, || self.points.get(i).map(Cell::get))
    }

    /// Every choice met past the given bits, as [`Choices::point`] reads them, copied out (what a
    /// walk keeps of a trial that others share).
    #[inline]
    pub(crate) fn met(&self) -> Met {
        Met {
            points: std::array::from_fn(|i| self.points[i].get()),
            met: self.met.get(),
        }
    }

    /// A sowing paused before a capture rule fires (`id`), for the first choice past the given bits
    /// its actions meet.
    pub(super) fn paused(&self, id: u32) {
        self.pending.set(id);
    }

    /// The rule has fired: the sowing paused before it, unless a choice took it.
    pub(super) fn fired(&self) -> Option<u32> {
        let id = self.pending.replace(NONE);
        (id != NONE).then_some(id)
    }

    /// Forgets what a trial read and met, as before it started (its given bits and the pause it
    /// goes on from stay): a packed trial that hands its move to the general sowing
    /// (`engine::packed`) has it tried again from the start.
    pub(super) fn restart(&self) {
        self.at.set(0);
        self.open.set(0);
        self.fault.set(false);
        if let Some(labels) = &self.labels {
            labels.borrow_mut().clear();
        }
        self.laps.set(0);
        for p in &self.points {
            p.set((0, NONE));
        }
        self.met.set(0);
        self.pending.set(NONE);
    }

    /// The trial goes on from a paused sowing, where `at` bits had been read.
    pub(super) fn resumed_at(&self, at: u32) {
        self.at.set(at);
    }

    /// Did a choice name an option that does not exist, or were there more than a move can carry?
    pub fn fault(&self) -> bool {
        self.fault.get()
    }

    /// Notes the laps the move's trial sowed, whether it ended or was refused.
    pub fn sowed(&self, laps: u32) {
        self.laps.set(laps);
    }

    /// The laps the move's trial sowed, once tried (at least one: a trial that sowed nothing still
    /// cost one).
    pub fn laps(&self) -> u32 {
        self.laps.get().max(1)
    }

    /// Are some of the given bits still unread (so that the next choice met is a given one)?
    #[inline]
    pub(super) fn given_ahead(&self) -> bool {
        self.at.get() < self.known
    }

    /// How many bits the move's choices took.
    pub fn used(&self) -> u32 {
        self.at.get()
    }

    /// The words for the options chosen, in order.
    pub fn labels(self) -> Vec<String> {
        self.labels.map(RefCell::into_inner).unwrap_or_default()
    }
}

/// The width in bits of a choice among `options`.
pub(crate) fn width(options: usize) -> u32 {
    usize::BITS - (options.max(2) - 1).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_back_in_order_with_the_width_of_their_options() {
        // Three choices: option 1 of 2 (1 bit), option 4 of 5 (3 bits), option 0 of 2 (1 bit).
        let code = 1 | (4 << 1);
        let c = Choices::given(code, 5);
        assert_eq!(c.pick(2, |i| i.to_string()), 1);
        assert_eq!(c.pick(5, |i| i.to_string()), 4);
        assert_eq!(c.pick(2, |i| i.to_string()), 0);
        assert!(!c.fault());
        assert_eq!(c.open(), None);
        assert_eq!(c.used(), 5);
    }

    #[test]
    fn a_choice_past_the_known_bits_is_open_and_a_missing_option_is_a_fault() {
        let c = Choices::given(1, 1);
        assert_eq!(c.pick(2, |_| String::new()), 1);
        assert_eq!(c.pick(3, |_| String::new()), 0);
        assert_eq!(c.open(), Some((3, 1)));
        let bad = Choices::given(3, 2);
        bad.pick(3, |_| String::new());
        assert!(bad.fault(), "option 3 of 3 does not exist");
        assert_eq!(width(2), 1);
        assert_eq!(width(3), 2);
        assert_eq!(width(4), 2);
        assert_eq!(width(5), 3);
    }

    /// Issue 25: the choices met copied out of a trial's `Choices` (what a walk's shared trial
    /// keeps) read as the trial's own: each point met with its options, bit and pause, none past
    /// the last met, and those past the kept ones unknown.
    #[test]
    fn the_choices_met_copied_out_read_as_the_trials() {
        for count in 0..POINTS + 4 {
            let c = Choices::given(0, 0);
            for j in 0..count {
                if j % 3 == 1 {
                    c.paused(100 + j as u32);
                }
                c.pick(2 + j % 3, |_| String::new());
            }
            let met = c.met();
            for i in 0..POINTS + 6 {
                assert_eq!(met.point(i), c.point(i), "{count} met, point {i}");
            }
            assert_eq!(met.point(count.min(POINTS)).is_none(), count > POINTS, "{count} met");
        }
    }
}
