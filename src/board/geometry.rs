//! The board's shape: each player's rows of pits, the shared pits (a middle row, a ring's), the two
//! stores, and every relation between cells that depends on the shape alone.

use super::{Cell, Halves, NO_PIT, Player};

/// The cells of a board: each player's pits (rows × columns, front row first, each row from its
/// owner's left), the shared pits, then south's store and north's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Geometry {
    /// Pits in each row of a player.
    pub(crate) columns: usize,
    /// Rows each player has.
    pub(crate) rows: usize,
    /// Pits that belong to nobody: a middle row between the players' front rows, or a ring's shared
    /// pits. They are the cells after both players' pits, before the stores.
    pub(crate) shared: usize,
    /// The board is a ring: its shared pits follow one another round it, and have no left or right.
    pub(crate) ring: bool,
    /// Which rows are owned by halves rather than by the player whose row they are.
    pub(crate) halves: Halves,
    /// A move may start from a pit of the opponent's rows (`play from owned`: a pit claimed there, or
    /// the mover's half of a board owned by halves). Those moves come as a third block of move
    /// numbers, after the player's own pits and the shared ones: the opponent's pit `j` is move
    /// `side_pits + shared + j`, written `j'` as a chosen pit is.
    pub(crate) plays_across: bool,
    /// `store pit N`: the column (0 from its owner's left) of the pit of each player's row that is
    /// their store. That pit's cell never holds a seed: the store's cell stands in its place on every
    /// track, and a rule naming the pit names the store.
    pub(crate) store_pit: Option<usize>,
}

impl Geometry {
    /// Pits of one player, every row (rows × columns).
    #[inline]
    pub(crate) fn side_pits(&self) -> usize {
        self.columns * self.rows
    }

    /// The player whose row (or store) the cell is in; `None` for a shared pit.
    pub(crate) fn side_of(&self, c: Cell) -> Option<Player> {
        let (c, n) = (c as usize, self.side_pits());
        match c {
            c if c < n => Some(Player::South),
            c if c < 2 * n => Some(Player::North),
            c if c < self.pit_count() => None,
            c if c == self.pit_count() => Some(Player::South),
            _ => Some(Player::North),
        }
    }

    /// The player whose part of the board the cell is in, which is the owner of a pit nobody has
    /// claimed: the player whose row (or store) it is, or on a board owned by halves the player the
    /// half on whose left lies the pit (of an odd row, the middle pit keeps its row's player, or
    /// nobody in a middle row); `None` for a shared pit of nobody's.
    pub(crate) fn part_of(&self, c: Cell) -> Option<Player> {
        let row_player = self.side_of(c);
        let split = match self.halves {
            Halves::None => false,
            Halves::Middle => self.is_shared(c),
            Halves::Board => !self.is_store(c),
        };
        let column = if split && !self.ring { self.across(c) } else { None };
        match column {
            Some(col) if 2 * col <= self.columns => Some(Player::South),
            Some(col) if 2 * col > self.columns + 1 => Some(Player::North),
            _ => row_player,
        }
    }

    /// Number of pits on the board: every row of both players, then the shared pits.
    #[inline]
    pub(crate) fn pit_count(&self) -> usize {
        2 * self.side_pits() + self.shared
    }

    /// The cell of a player's store.
    pub(crate) fn store(&self, p: Player) -> Cell {
        (self.pit_count() + p.index()) as Cell
    }

    /// The pit whose place a player's store takes (`store pit N`), if the board has one.
    #[inline]
    pub(crate) fn store_pit_of(&self, p: Player) -> Option<Cell> {
        self.store_pit.map(|column| (p.index() * self.side_pits() + column) as Cell)
    }

    /// Is `c` the pit whose place a store takes (a cell that never holds a seed)?
    #[inline]
    pub(crate) fn is_store_pit(&self, c: Cell) -> bool {
        self.store_pit.is_some() && (self.store_pit_of(Player::South) == Some(c) || self.store_pit_of(Player::North) == Some(c))
    }

    /// Where `c` lies on the board: the pit whose place a store takes, for that store; else `c`.
    #[inline]
    pub(crate) fn place_of(&self, c: Cell) -> Cell {
        match self.store_pit {
            Some(_) if c == self.store(Player::South) => self.store_pit_of(Player::South).unwrap_or(c),
            Some(_) if c == self.store(Player::North) => self.store_pit_of(Player::North).unwrap_or(c),
            _ => c,
        }
    }

    /// The cell a rule means when it names `c`: the store, for the pit whose place it takes.
    #[inline]
    pub(crate) fn in_place(&self, c: Cell) -> Cell {
        match self.store_pit {
            Some(_) if self.store_pit_of(Player::South) == Some(c) => self.store(Player::South),
            Some(_) if self.store_pit_of(Player::North) == Some(c) => self.store(Player::North),
            _ => c,
        }
    }

    /// Player `p`'s pit `number` of row `row` (1 the front row), or [`NO_PIT`] when the board has
    /// no such pit (`pit(P, ROW, N)` in the rules).
    pub(crate) fn pit_at(&self, p: Player, row: i64, number: i64) -> Cell {
        let (rows, columns) = (self.rows as i64, self.columns as i64);
        if !(1..=rows).contains(&row) || !(1..=columns).contains(&number) || self.side_pits() == 0 {
            return NO_PIT;
        }
        self.pit(p, ((row - 1) * columns + number) as usize)
    }

    /// The cell of a player's pit `k` (1-based): pit `k` of the front row on a board of one row a
    /// player; on larger boards `k - 1 = row * columns + number - 1`, rows counted from the middle.
    /// Past the player's own pits, `side_pits + j` is shared pit `j`, the same cell for both players;
    /// past those, where moves reach across, the opponent's pit `j` (see [`Geometry::plays_across`]).
    pub(crate) fn pit(&self, p: Player, k: usize) -> Cell {
        let n = self.side_pits();
        if k > n + self.shared {
            (p.other().index() * n + k - n - self.shared - 1) as Cell
        } else if k > n {
            (2 * n + k - n - 1) as Cell
        } else {
            (p.index() * n + k - 1) as Cell
        }
    }

    /// The pits a move may name: a player's own, then the shared ones, then, where moves reach
    /// across, the opponent's.
    pub(crate) fn move_pits(&self) -> usize {
        self.side_pits() + self.shared + if self.plays_across { self.side_pits() } else { 0 }
    }

    /// The pit (1-based, as [`Geometry::pit`] reads it) a move starts from, and whether it sows clockwise
    /// by the mover's choice.
    pub(crate) fn move_parts(&self, k: usize) -> (usize, bool) {
        let k = k.max(1) - 1;
        let pits = self.move_pits();
        (k % pits + 1, k >= pits)
    }

    /// Is the cell one of the pits that belong to nobody?
    pub(crate) fn is_shared(&self, c: Cell) -> bool {
        (2 * self.side_pits()..self.pit_count()).contains(&(c as usize))
    }

    /// Where a cell lies left to right as south sees the board (1 = south's leftmost column), for
    /// naming directions; `None` on a ring's shared pits and the stores, which have no such place.
    pub(crate) fn across(&self, c: Cell) -> Option<usize> {
        let c = c as usize;
        let n = self.side_pits();
        if c < n {
            Some(c % self.columns + 1)
        } else if c < 2 * n {
            Some(self.columns - (c - n) % self.columns)
        } else if c < self.pit_count() && !self.ring {
            Some(c - 2 * n + 1)
        } else {
            None
        }
    }

    /// The pit's number in its row (1-based, from its row's owner's left), or a shared pit's number
    /// (from south's left, or in ring order); 0 for a store.
    pub(crate) fn number(&self, c: Cell) -> usize {
        let c = c as usize;
        let n = self.side_pits();
        if c < 2 * n {
            c % self.columns + 1
        } else if c < self.pit_count() {
            c - 2 * n + 1
        } else {
            0
        }
    }

    /// The pit's row, 1 for the front row (nearest the middle of the board) up to `rows`; 0 for a
    /// shared pit or a store.
    pub(crate) fn row_of(&self, c: Cell) -> usize {
        let c = c as usize;
        if c >= 2 * self.side_pits() {
            0
        } else {
            c % self.side_pits() / self.columns + 1
        }
    }

    /// The move (1-based, as [`Geometry::pit`] reads it) that starts from the pit `c`: a pit of its
    /// row's player, or a shared pit.
    pub(crate) fn move_of(&self, c: Cell) -> usize {
        let n = self.side_pits();
        if c as usize >= 2 * n {
            c as usize - n + 1
        } else {
            c as usize % n + 1
        }
    }

    /// Is the cell a store?
    pub(crate) fn is_store(&self, c: Cell) -> bool {
        c as usize >= self.pit_count()
    }

    /// The pit facing `c` across the middle of the board: the other player's front-row pit in the
    /// same column (a store's opposite is the other store). A ring shared by nobody faces across
    /// its centre; a middle row's pit and an odd ring's shared pit face nothing ([`NO_PIT`]).
    pub(crate) fn opposite(&self, c: Cell) -> Cell {
        let side = self.side_pits();
        let c = c as usize;
        let pits = self.pit_count();
        if c >= pits {
            return (pits + (c - pits + 1) % 2) as Cell;
        }
        if c >= 2 * side {
            let n = self.shared;
            return if self.ring && side == 0 && n.is_multiple_of(2) {
                ((c + n / 2) % n) as Cell
            } else {
                NO_PIT
            };
        }
        if self.rows == 1 {
            // One row each: the rows run opposite ways round the board, so the cells mirror.
            return (2 * side - 1 - c) as Cell;
        }
        // Numbered from each owner's left, the columns run opposite ways on the two sides.
        let other_base = if c < side { side } else { 0 };
        (other_base + self.columns - self.number(c as Cell)) as Cell
    }

    /// The pit behind `c` in the same column, one row further from the middle; `None` for a back-row
    /// pit, a shared pit or a store.
    pub(crate) fn behind(&self, c: Cell) -> Option<Cell> {
        let row = self.row_of(c);
        (row != 0 && row < self.rows).then(|| c + self.columns as Cell)
    }

    /// The pit in front of `c` in the same column, one row nearer the middle: from a front-row pit,
    /// the middle row's pit when the board has one. `None` for a front-row pit of a board without a
    /// middle row, a shared pit or a store.
    pub(crate) fn in_front(&self, c: Cell) -> Option<Cell> {
        match self.row_of(c) {
            0 => None,
            1 if self.shared > 0 && !self.ring => {
                let across = self.across(c).expect("a pit of a row");
                Some((2 * self.side_pits() + across - 1) as Cell)
            }
            1 => None,
            _ => Some(c - self.columns as Cell),
        }
    }

    /// A player's pits, every row, front row first.
    pub(crate) fn row(&self, p: Player) -> std::ops::Range<usize> {
        p.index() * self.side_pits()..(p.index() + 1) * self.side_pits()
    }

    /// The shared pits' cells.
    pub(crate) fn shared_pits(&self) -> std::ops::Range<usize> {
        2 * self.side_pits()..self.pit_count()
    }

    /// The name of a player's pit `k` (1-based, as [`Geometry::pit`] reads it): its number on a board of
    /// one row a player, else its row letter (`a` the front row) and number; `s` and the number for
    /// a shared pit.
    pub(crate) fn pit_name(&self, k: usize) -> String {
        let across = self.side_pits() + self.shared;
        if k > across && k <= self.move_pits() {
            return format!("{}'", self.pit_name(k - across));
        }
        if k > self.side_pits() && k <= across {
            return format!("s{}", k - self.side_pits());
        }
        if self.rows == 1 || k == 0 || k > self.side_pits() {
            return k.to_string();
        }
        let letter = char::from(b'a' + ((k - 1) / self.columns) as u8);
        format!("{letter}{}", (k - 1) % self.columns + 1)
    }

    /// Reads a pit a move may start from, named as [`Geometry::pit_name`] writes it (`3`, `b3`, `s2`;
    /// letters in either case), with no way after it: its number (1-based, as [`Geometry::pit`] reads it),
    /// or `None` when the text names no such pit of the board.
    pub(crate) fn parse_pit(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        if let Some(theirs) = text.strip_suffix('\'') {
            let k = self.parse_pit(theirs).filter(|&k| k <= self.side_pits())?;
            return self.plays_across.then(|| self.side_pits() + self.shared + k);
        }
        let first = text.chars().next()?;
        if self.rows == 1 && first.is_ascii_digit() {
            let pit: usize = text.parse().ok()?;
            return (1..=self.columns).contains(&pit).then_some(pit);
        }
        if !first.is_ascii_alphabetic() {
            return None;
        }
        let letter = first.to_ascii_lowercase();
        let number: usize = text[1..].parse().ok()?;
        if letter == 's' {
            (1..=self.shared).contains(&number).then(|| self.side_pits() + number)
        } else {
            let row = usize::from(letter as u8 - b'a');
            (row < self.rows && (1..=self.columns).contains(&number)).then(|| row * self.columns + number)
        }
    }
}
