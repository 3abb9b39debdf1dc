//! Expressions in words: players, pits, sets of pits, numbers and conditions as a sheet says them,
//! or as written (in backticks) where no wording fits.

use super::*;

impl Words<'_> {
    /// A player expression as words.
    pub(super) fn player(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Name(n) => match n.as_str() {
                "mover" => "the mover".into(),
                "opponent" => "the opponent".into(),
                "to_move" => "the player to move".into(),
                "south" => "South".into(),
                "north" => "North".into(),
                "starter" => "the player who began".into(),
                _ => self.written(e),
            },
            ExprKind::Call(f, args) if f.node == "other" && args.len() == 1 => format!("the opponent of {}", self.player(&args[0])),
            ExprKind::Field(p, f) if f.node == "owner" => format!("the owner of {}", self.pit(p)),
            _ => self.written(e),
        }
    }

    /// A pit expression as words.
    pub(super) fn pit(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Name(n) => match n.as_str() {
                "last" => "the pit where the last seed fell".into(),
                "origin" => "the pit played".into(),
                "pit" => "the pit looked at".into(),
                _ => self.written(e),
            },
            ExprKind::Call(f, args) if args.len() == 1 => match f.node.as_str() {
                "opposite" => format!("the pit facing {}", self.pit(&args[0])),
                "behind" => format!("the pit behind {}", self.pit(&args[0])),
                "store" => format!("the store of {}", self.player(&args[0])),
                "leftmost" => format!("the leftmost pit of {}", self.pits(&args[0]).trim_start_matches("the pits of ")),
                "rightmost" => format!("the rightmost pit of {}", self.pits(&args[0]).trim_start_matches("the pits of ")),
                _ => self.written(e),
            },
            // A pit chosen among several that the file names (`let candidate = if .. then .. else ..`)
            // is told by its name: written out, it would be read once for every time it is used.
            ExprKind::If(..) if let Some(name) = self.let_named(e) => format!("`{name}`"),
            ExprKind::If(c, a, b) => format!("{} if {}, else {}", self.pit(a), self.cond(c), self.pit(b)),
            _ => self.written(e),
        }
    }

    /// The name of the `let` whose value `e` is, where it is one.
    pub(super) fn let_named(&self, e: &Expr) -> Option<&str> {
        self.checked.program.items.iter().find_map(|i| match &i.kind {
            ItemKind::Let(name, value) if value.span == e.span => Some(name.node.as_str()),
            _ => None,
        })
    }

    /// A set of pits (or one pit) as words.
    pub(super) fn pits(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Name(n) if n == "board" => "every pit of the board".into(),
            ExprKind::Call(f, args) if f.node == "row" && args.len() == 1 => format!("the pits of {}", self.player(&args[0])),
            ExprKind::Where(set, c) => {
                if let (ExprKind::Call(f, args), ExprKind::Binary(BinOp::Eq, l, r)) = (&set.kind, &c.kind)
                    && f.node == "row"
                    && args.len() == 1
                    && matches!(&l.kind, ExprKind::Field(p, field) if field.node == "row" && matches!(&p.kind, ExprKind::Name(n) if n == "pit"))
                    && let ExprKind::Name(which) = &r.kind
                {
                    return format!("the {which} row of {}", self.player(&args[0]));
                }
                let t = self.cond(c);
                let t = t
                    .strip_prefix("the pit looked at ")
                    .unwrap_or(&t)
                    .replace("the pit looked at", "it");
                format!("{} that {t}", self.pits(set))
            }
            _ => self.pit(e),
        }
    }

    /// A number as words.
    pub(super) fn number(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Name(n) => match n.as_str() {
                "total" => format!("all {} seeds", self.game.total),
                "ply" => "the number of moves played".into(),
                "lap" => "the number of the lap being sown".into(),
                "taken" => "the number of seeds the move has taken".into(),
                "lifted" => "the number of seeds the lap picked up".into(),
                "round" => "the number of the round".into(),
                _ => self.param(n).map_or_else(|| self.written(e), |v| v.to_string()),
            },
            ExprKind::Binary(BinOp::Div, a, b) if matches!(b.kind, ExprKind::Int(2)) => format!("half of {}", self.number(a)),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                if let (Some(x), Some(y)) = (self.constant(a), self.constant(b)) {
                    return if *op == BinOp::Add { x + y } else { x - y }.to_string();
                }
                format!(
                    "{} {} {}",
                    self.number(a),
                    if *op == BinOp::Add { "plus" } else { "minus" },
                    self.number(b)
                )
            }
            ExprKind::Call(f, args) if args.len() == 1 => match f.node.as_str() {
                "seeds" => format!("the seeds in the pits of {}", self.player(&args[0])),
                "captured" if self.hand() => format!("the seeds in {}'s store", self.player(&args[0])),
                "captured" => format!("the seeds {} has captured", self.player(&args[0])),
                "sum" => format!("the seeds in {}", self.pits(&args[0])),
                "count" => format!("the number of {}", self.pits(&args[0])),
                _ => self.written(e),
            },
            ExprKind::Field(p, f) => match f.node.as_str() {
                "count" => format!("the seeds in {}", self.pit(p)),
                "number" => format!("the number of {}", self.pit(p)),
                _ => self.written(e),
            },
            _ => self.written(e),
        }
    }

    /// A number known before the game (a literal or a parameter, with + and -).
    pub(super) fn constant(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Name(n) => self.param(n),
            ExprKind::Binary(BinOp::Add, a, b) => Some(self.constant(a)? + self.constant(b)?),
            ExprKind::Binary(BinOp::Sub, a, b) => Some(self.constant(a)? - self.constant(b)?),
            _ => None,
        }
    }

    /// A number of seeds: `4 seeds`, `half of all 48 seeds`.
    pub(super) fn amount(&self, e: &Expr) -> String {
        match self.constant(e) {
            Some(n) => plural(n, "seed", "seeds"),
            None => self.number(e),
        }
    }

    /// Who holds seeds, and how they are counted, for `SUBJECT holds N seeds`.
    /// Returns the subject, its verb and what follows the amount.
    pub(super) fn holder(&self, e: &Expr) -> Option<(String, &'static str, &'static str)> {
        match &e.kind {
            ExprKind::Field(p, f) if f.node == "count" => Some((self.pit(p), "holds", "")),
            ExprKind::Field(p, f) if f.node == "before" => Some((self.pit(p), "held", " before the seed fell")),
            ExprKind::Call(f, args) if args.len() == 1 && f.node == "seeds" => {
                Some((format!("the pits of {}", self.player(&args[0])), "hold", ""))
            }
            ExprKind::Call(f, args) if args.len() == 1 && f.node == "captured" && self.hand() => {
                Some((self.player(&args[0]), "has", " in their store"))
            }
            ExprKind::Call(f, args) if args.len() == 1 && f.node == "captured" => Some((self.player(&args[0]), "has captured", "")),
            ExprKind::Call(f, args) if args.len() == 1 && f.node == "sum" => Some((self.pits(&args[0]), "hold", "")),
            ExprKind::Binary(BinOp::Add, a, b)
                if [a, b]
                    .iter()
                    .all(|x| matches!(&x.kind, ExprKind::Call(f, args) if f.node == "seeds" && args.len() == 1)) =>
            {
                Some(("the pits of both players together".into(), "hold", ""))
            }
            _ => None,
        }
    }

    /// A condition as a clause.
    pub(super) fn cond(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                let (first, second) = (self.cond(a), self.cond(b));
                // One subject for both halves: "X is on the opponent's side and holds 2 or 3 seeds".
                match (last_subject(self, a), clause_subject(self, b)) {
                    (Some(x), Some(y)) if x == y => match second.strip_prefix(&format!("{y} ")) {
                        Some(rest) => format!("{first} and {rest}"),
                        None => format!("{first} and {second}"),
                    },
                    _ => format!("{first} and {second}"),
                }
            }
            ExprKind::Binary(BinOp::Or, a, b) => format!("{}, or {}", self.cond(a), self.cond(b)),
            ExprKind::Not(inner) => match &inner.kind {
                ExprKind::Field(p, f) if f.node == "claimed" => format!("{} is not claimed", self.pit(p)),
                ExprKind::Field(p, f) if f.node == "store" => format!("{} is not a store", self.pit(p)),
                ExprKind::Name(n) if n == "clockwise" => "the sowing goes counter-clockwise".into(),
                ExprKind::Name(n) if n == "final" => "it is not the move's last seed".into(),
                ExprKind::Name(n) if n == "can_feed" => "the player to move cannot give the opponent any seeds".into(),
                ExprKind::Call(f, args) if f.node == "can_move" && args.len() == 1 => {
                    format!("{} would have no move to make", self.player(&args[0]))
                }
                _ => format!("it is not so that {}", self.cond(inner)),
            },
            ExprKind::Name(n) => match n.as_str() {
                "no_moves" => "the player to move cannot move".into(),
                "repeated" => "a position comes back (the same seeds everywhere and the same player to move)".into(),
                "final" => "it is the move's last seed".into(),
                "clockwise" => "the sowing goes clockwise".into(),
                "can_feed" => "the player to move can give the opponent seeds".into(),
                _ => self.written(e),
            },
            ExprKind::Field(p, f) => match f.node.as_str() {
                "claimed" => format!("{} is claimed", self.pit(p)),
                "store" => format!("{} is a store", self.pit(p)),
                _ => self.written(e),
            },
            ExprKind::Call(f, args) if f.node == "any" && args.len() == 1 => format!("there is a pit among {}", self.pits(&args[0])),
            ExprKind::Call(f, args) if f.node == "can_move" && args.len() == 1 => {
                format!("{} would have a move to make", self.player(&args[0]))
            }
            ExprKind::Parity(x, even) => match self.holder(x) {
                Some((who, one, after)) => format!("{who} {one} an {} number of seeds{after}", if *even { "even" } else { "odd" }),
                None => format!("{} is {}", self.number(x), if *even { "even" } else { "odd" }),
            },
            ExprKind::InRange(x, lo, hi) => {
                let range = match (self.constant(lo), self.constant(hi)) {
                    (Some(a), Some(b)) if b == a + 1 => format!("{a} or {b}"),
                    (Some(a), Some(b)) => format!("{a} to {b}"),
                    _ => format!("{} to {}", self.number(lo), self.number(hi)),
                };
                match self.holder(x) {
                    Some((who, one, after)) => format!("{who} {one} {range} seeds{after}"),
                    None => format!("{} is {range}", self.number(x)),
                }
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                self.compare(*op, a, b, e)
            }
            _ => self.written(e),
        }
    }

    pub(super) fn compare(&self, op: BinOp, a: &Expr, b: &Expr, whole: &Expr) -> String {
        let not = if op == BinOp::Ne { "not " } else { "" };
        // Where a pit lies.
        if let ExprKind::Field(p, f) = &a.kind {
            let value = match &b.kind {
                ExprKind::Name(n) => n.as_str(),
                _ => "",
            };
            match (f.node.as_str(), value) {
                ("side", "mover") => return format!("{} is {not}on the mover's own side", self.pit(p)),
                ("side", "opponent") => return format!("{} is {not}on the opponent's side", self.pit(p)),
                ("row", "front") => return format!("{} is {not}in a front row", self.pit(p)),
                ("row", "back") => return format!("{} is {not}in a back row", self.pit(p)),
                _ => {}
            }
        }
        let is_pit = |x: &Expr| {
            matches!(&x.kind, ExprKind::Name(n) if n == "last" || n == "origin" || n == "pit")
                || matches!(&x.kind, ExprKind::Call(f, _) if ["opposite", "behind", "store", "leftmost", "rightmost"].contains(&f.node.as_str()))
        };
        if matches!(op, BinOp::Eq | BinOp::Ne) && is_pit(a) && is_pit(b) {
            if matches!(&a.kind, ExprKind::Name(n) if n == "last") {
                let falls = if not.is_empty() { "falls" } else { "does not fall" };
                return format!("the last seed {falls} in {}", self.pit(b));
            }
            return format!("{} is {not}{}", self.pit(a), self.pit(b));
        }
        if let Some((who, one, after)) = self.holder(a) {
            let amount = match (op, self.constant(b)) {
                (BinOp::Eq, Some(0)) => "no seeds".to_string(),
                (BinOp::Gt, Some(0)) | (BinOp::Ge, Some(1)) => "some seeds".to_string(),
                (BinOp::Eq, _) => self.amount(b),
                (BinOp::Ne, _) => {
                    let verb = match one {
                        "holds" => "does not hold",
                        "hold" => "do not hold",
                        "held" => "did not hold",
                        "has" => "does not have",
                        _ => "has not captured",
                    };
                    return format!("{who} {verb} exactly {}{after}", self.amount(b));
                }
                (BinOp::Gt, _) => format!("more than {}", self.amount(b)),
                (BinOp::Ge, _) => format!("at least {}", self.amount(b)),
                (BinOp::Lt, _) => format!("fewer than {}", self.amount(b)),
                (BinOp::Le, _) => format!("at most {}", self.amount(b)),
                _ => return self.written(whole),
            };
            return format!("{who} {one} {amount}{after}");
        }
        let rel = match op {
            BinOp::Eq => "is",
            BinOp::Ne => "is not",
            BinOp::Lt => "is less than",
            BinOp::Le => "is at most",
            BinOp::Gt => "is more than",
            BinOp::Ge => "is at least",
            _ => return self.written(whole),
        };
        format!("{} {rel} {}", self.number(a), self.number(b))
    }
}
