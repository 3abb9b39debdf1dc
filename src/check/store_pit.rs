//! `store pit N`: pit N of each player's row is their store. The store is a place of the row's track,
//! sown into as the pit it is; its seeds are the player's store (`captured(P)`, the score). Refused
//! on the boards and with the words whose meaning it would leave open.

use super::{Statics, bounded};
use crate::board::Geometry;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{Item, ItemKind, PlayFrom};

/// The column (0 from the owner's left) of the store pit, if the board has one and it is possible.
pub(super) fn store_pit(
    items: &[Item],
    statics: &Statics,
    geometry: Option<Geometry>,
    play_from: PlayFrom,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let item = items.iter().find(|i| matches!(i.kind, ItemKind::BoardStorePit(_)))?;
    let ItemKind::BoardStorePit(e) = &item.kind else { return None };
    let g = geometry?;
    let refuse = |why: &str, help: &str, diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                format!("a store that is a pit of the row {why}"),
                item.span,
                "this store pit",
            )
            .with_help(help.to_string()),
        );
    };
    if g.ring || g.shared > 0 {
        refuse(
            "is played on two rows only",
            "leave out `store pit`, or play on a board of two rows without a middle row",
            diags,
        );
        return None;
    }
    if g.rows > 1 {
        refuse(
            "is played on one row a player only",
            "leave out `rows`, or leave out `store pit`",
            diags,
        );
        return None;
    }
    if g.halves != crate::board::Halves::None {
        refuse(
            "belongs to the player whose row it is in, not to a half of the board",
            "leave out `owned by halves`, or leave out `store pit`",
            diags,
        );
        return None;
    }
    if play_from != PlayFrom::Own {
        refuse(
            "is played on a board whose players play their own row's pits",
            "leave out `play from`, or leave out `store pit`",
            diags,
        );
        return None;
    }
    let mut ok = true;
    for_each_item(items, &mut |i| match i.kind {
        ItemKind::SowIntoStore(_) => {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "the store is a pit of the row, on the track already",
                    i.span,
                    "a store put on the track again",
                )
                .with_label(item.span, "the store is this pit")
                .with_help("leave out `into own store` / `into both stores`: every sowing that passes the store pit sows into it"),
            );
        }
        ItemKind::Rounds => {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "a match of rounds is not played on a board whose store is a pit of the row",
                    i.span,
                    "rounds",
                )
                .with_label(item.span, "the store is this pit")
                .with_help("a round's set-up fills the pits of the rows, and it is not said what it does with a store pit"),
            );
        }
        _ => {}
    });
    let column = bounded(
        statics,
        e,
        1..=g.columns as i64,
        |v| format!("pit {v} is not a pit of a row of {} pits", g.columns),
        "the store's pit",
        diags,
    )?;
    // A layout that puts seeds in the store pit's place would lose them without a word.
    for i in items {
        let ItemKind::BoardLayout(sides) = &i.kind else { continue };
        for (_, rows) in sides {
            let Some(seeds) = rows.first().and_then(|front| front.node.get(column as usize - 1)) else {
                continue;
            };
            if statics.eval(seeds, &mut Vec::new()).is_some_and(|v| v != 0) {
                ok = false;
                diags.push(
                    Diagnostic::error(
                        "sow::check::conflict",
                        format!("the layout puts seeds in pit {column}, which is the store"),
                        seeds.span,
                        "seeds in the store's place",
                    )
                    .with_label(item.span, "the store is this pit")
                    .with_help("write 0 there: a store pit starts with the `reserve`"),
                );
            }
        }
    }
    ok.then_some(column as usize - 1)
}

/// Every item, those inside phases too.
fn for_each_item<'a>(items: &'a [Item], f: &mut impl FnMut(&'a Item)) {
    for i in items {
        f(i);
        if let ItemKind::Phase(_, _, inner) = &i.kind {
            for_each_item(inner, f);
        }
    }
}
