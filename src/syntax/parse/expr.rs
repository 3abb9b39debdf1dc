//! Expressions: pest's pairs folded into [`Expr`] nodes, their depth bounded so that a long chain
//! is refused before it makes the tree deep.

use super::*;

impl Builder {
    pub(super) fn expr(&self, pair: Pair<Rule>) -> R<Expr> {
        self.node(pair).map(|(e, _)| e)
    }

    /// Refuses a node deeper than [`MAX_EXPR_DEPTH`]; every node is checked as it is made, so no tree
    /// that later stages walk recursively is ever deeper than that.
    fn deep(&self, depth: usize, span: Span) -> R<usize> {
        if depth > MAX_EXPR_DEPTH {
            return Err(Diagnostic::error(
                "sow::syntax::too_complex",
                format!("this expression is more than {MAX_EXPR_DEPTH} operations deep"),
                span,
                "too many operations in one expression",
            )
            .with_help("split it into several rules, or use sets and `sum(...)` instead of long chains"));
        }
        Ok(depth)
    }

    /// An expression and the depth of its tree.
    fn node(&self, pair: Pair<Rule>) -> R<(Expr, usize)> {
        let span = self.expr_span(&pair);
        match pair.as_rule() {
            Rule::expr => {
                let mut inner = children(pair);
                let (set, ds) = self.node(inner.next().expect("or_expr"))?;
                match inner.next() {
                    Some(cond) => {
                        let (cond, dc) = self.node(cond)?;
                        let d = self.deep(ds.max(dc) + 1, span)?;
                        Ok((
                            Expr {
                                kind: ExprKind::Where(Box::new(set), Box::new(cond)),
                                span,
                            },
                            d,
                        ))
                    }
                    None => Ok((set, ds)),
                }
            }
            Rule::or_expr => self.fold(pair, BinOp::Or),
            Rule::and_expr => self.fold(pair, BinOp::And),
            Rule::not_expr => {
                let mut inner = children(pair);
                let first = inner.next().expect("operand");
                if first.as_rule() == Rule::not_expr {
                    let (x, d) = self.node(first)?;
                    let d = self.deep(d + 1, span)?;
                    Ok((
                        Expr {
                            kind: ExprKind::Not(Box::new(x)),
                            span,
                        },
                        d,
                    ))
                } else {
                    self.node(first)
                }
            }
            Rule::comparison => {
                let mut inner = children(pair);
                let (left, dl) = self.node(inner.next().expect("left"))?;
                let Some(op) = inner.next() else { return Ok((left, dl)) };
                let (kind, d) = match op.as_rule() {
                    Rule::compare_op => {
                        let (right, dr) = self.node(inner.next().expect("right"))?;
                        let op = match op.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<" => BinOp::Lt,
                            "<=" => BinOp::Le,
                            ">" => BinOp::Gt,
                            _ => BinOp::Ge,
                        };
                        (ExprKind::Binary(op, Box::new(left), Box::new(right)), dl.max(dr))
                    }
                    Rule::range => {
                        let mut r = children(op);
                        let (lo, d1) = self.node(r.next().expect("lo"))?;
                        let (hi, d2) = self.node(r.next().expect("hi"))?;
                        (ExprKind::InRange(Box::new(left), Box::new(lo), Box::new(hi)), dl.max(d1).max(d2))
                    }
                    Rule::int_set => {
                        let mut items = Vec::new();
                        let mut d = dl;
                        for e in children(op) {
                            let (e, de) = self.node(e)?;
                            d = d.max(de);
                            items.push(e);
                        }
                        (ExprKind::InSet(Box::new(left), items), d)
                    }
                    _ => (ExprKind::Parity(Box::new(left), op.as_str() == "even"), dl),
                };
                let d = self.deep(d + 1, span)?;
                Ok((Expr { kind, span }, d))
            }
            Rule::sum | Rule::product => {
                let mut inner = children(pair);
                let (mut acc, mut d) = self.node(inner.next().expect("operand"))?;
                while let (Some(op), Some(rhs)) = (inner.next(), inner.next()) {
                    let op = match op.as_str() {
                        "+" => BinOp::Add,
                        "-" => BinOp::Sub,
                        "*" => BinOp::Mul,
                        "/" => BinOp::Div,
                        _ => BinOp::Rem,
                    };
                    let (rhs, dr) = self.node(rhs)?;
                    let s = acc.span.to(rhs.span);
                    d = self.deep(d.max(dr) + 1, s)?;
                    acc = Expr {
                        kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
                        span: s,
                    };
                }
                Ok((acc, d))
            }
            Rule::unary => {
                let mut inner = children(pair);
                let first = inner.next().expect("operand");
                if first.as_rule() == Rule::neg {
                    let (operand, d) = self.node(inner.next().expect("operand"))?;
                    let d = self.deep(d + 1, span)?;
                    Ok((
                        Expr {
                            kind: ExprKind::Neg(Box::new(operand)),
                            span,
                        },
                        d,
                    ))
                } else {
                    self.node(first)
                }
            }
            Rule::postfix => {
                let mut inner = children(pair);
                let (mut acc, mut d) = self.node(inner.next().expect("primary"))?;
                for field in inner {
                    let fspan = self.span(&field);
                    let s = acc.span.to(fspan);
                    d = self.deep(d + 1, s)?;
                    acc = Expr {
                        kind: ExprKind::Field(
                            Box::new(acc),
                            Spanned {
                                node: field.as_str().to_string(),
                                span: fspan,
                            },
                        ),
                        span: s,
                    };
                }
                Ok((acc, d))
            }
            Rule::primary => self.node(children(pair).next().expect("primary")),
            Rule::choose_range => {
                let range = children(pair).next().expect("range");
                let mut r = children(range);
                let (lo, d1) = self.node(r.next().expect("lo"))?;
                let (hi, d2) = self.node(r.next().expect("hi"))?;
                let d = self.deep(d1.max(d2) + 1, span)?;
                Ok((
                    Expr {
                        kind: ExprKind::ChooseRange(Box::new(lo), Box::new(hi)),
                        span,
                    },
                    d,
                ))
            }
            Rule::if_expr => {
                // The keywords are tokens of their own; the three expressions are the rest.
                let parts: Vec<Pair<Rule>> = children(pair).filter(|p| p.as_rule() == Rule::expr).collect();
                let mut d = 0;
                let mut exprs = Vec::new();
                for p in parts {
                    let (e, de) = self.node(p)?;
                    d = d.max(de);
                    exprs.push(Box::new(e));
                }
                let d = self.deep(d + 1, span)?;
                let mut exprs = exprs.into_iter();
                let (c, a, b) = (
                    exprs.next().expect("condition"),
                    exprs.next().expect("then"),
                    exprs.next().expect("else"),
                );
                Ok((
                    Expr {
                        kind: ExprKind::If(c, a, b),
                        span,
                    },
                    d,
                ))
            }
            Rule::int => Ok((
                Expr {
                    kind: ExprKind::Int(self.int(pair)?.node),
                    span,
                },
                1,
            )),
            Rule::ident => Ok((
                Expr {
                    kind: ExprKind::Name(pair.as_str().to_string()),
                    span,
                },
                1,
            )),
            Rule::labelled => {
                let mut inner = children(pair);
                let (value, d) = self.node(inner.next().expect("value"))?;
                let word = self.string(inner.next().expect("word"));
                Ok((
                    Expr {
                        kind: ExprKind::Labelled(Box::new(value), word),
                        span,
                    },
                    d,
                ))
            }
            Rule::call => {
                let mut inner = children(pair);
                let name = inner.next().expect("name");
                let name = Spanned {
                    node: name.as_str().to_string(),
                    span: self.span(&name),
                };
                let mut args = Vec::new();
                let mut d = 0;
                for e in inner {
                    let (e, de) = self.node(e)?;
                    d = d.max(de);
                    args.push(e);
                }
                let d = self.deep(d + 1, span)?;
                Ok((
                    Expr {
                        kind: ExprKind::Call(name, args),
                        span,
                    },
                    d,
                ))
            }
            other => unreachable!("the grammar produces no expression {other:?}"),
        }
    }

    fn fold(&self, pair: Pair<Rule>, op: BinOp) -> R<(Expr, usize)> {
        let mut inner = children(pair);
        let (mut acc, mut d) = self.node(inner.next().expect("operand"))?;
        for rhs in inner {
            let (rhs, dr) = self.node(rhs)?;
            let s = acc.span.to(rhs.span);
            d = self.deep(d.max(dr) + 1, s)?;
            acc = Expr {
                kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
                span: s,
            };
        }
        Ok((acc, d))
    }
}
