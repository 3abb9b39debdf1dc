//! The report as text for a person: the seats' results with their intervals, how the games ended,
//! their lengths, the rules that fired and the choices a player had.

use super::*;

/// The whole report, as `analyze` prints it without `--json`.
pub(super) fn human(r: &Report) -> String {
    let mut s = String::new();
    if r.interrupted {
        s.push_str(&format!(
            "partial report: interrupted after {} of {} games; every figure below covers those {} games only\n",
            r.games, r.games_requested, r.games
        ));
    }
    s.push_str(&format!(
        "{} ({}): {} games, {}, seed {}{}, {:.1} s\n",
        r.game,
        r.file,
        r.games,
        seats_text(r),
        r.seed,
        if r.random_opening > 0 {
            format!(", {} random opening plies", r.random_opening)
        } else {
            String::new()
        },
        r.seconds
    ));
    s.push_str(&format!("{:<22}{:>7}{:>9}   95% interval\n", "", "games", "share"));
    for (name, sh) in [
        ("south wins", &r.win_rate.south),
        ("north wins", &r.win_rate.north),
        ("draws", &r.draw_rate),
    ] {
        s.push_str(&format!(
            "{name:<22}{:>7}{:>9}   {} to {}\n",
            sh.count,
            pct(sh.rate),
            pct(sh.ci95[0]),
            pct(sh.ci95[1])
        ));
    }
    if r.unfinished > 0 {
        s.push_str(&format!(
            "{:<22}{:>7}{:>9}   (length cap {} plies{}: {}, no legal move: {})\n",
            "unfinished",
            r.unfinished,
            pct(r.unfinished as f64 / r.games as f64),
            r.max_plies,
            if r.max_plies_over == "match" {
                " a match, every round counted"
            } else {
                ""
            },
            r.capped,
            r.stuck
        ));
    }
    if let Some(sw) = &r.swap {
        s.push_str(&swap_text(sw));
    }
    if !r.ended_by.is_empty() {
        let list: Vec<String> = r.ended_by.iter().map(|(k, v)| format!("\"{k}\" {v}")).collect();
        s.push_str(&format!("ended by rule: {}\n", list.join(", ")));
    }
    if let Some(n) = r.repetition {
        s.push_str(&format!("ended by repetition: {n}\n"));
    }
    s.push_str(&format!(
        "length (plies): mean {:.1}, median {:.1}, p90 {}, min {}, max {}\n",
        r.length.mean, r.length.median, r.length.p90, r.length.min, r.length.max
    ));
    if let (Some(moves), Some(seeds)) = (r.captures_per_game, r.seeds_captured_per_game) {
        s.push_str(&format!("captures per game: {moves:.2} moves capturing {seeds:.1} seeds\n"));
    }
    if !r.rules.is_empty() {
        s.push_str("rules fired:\n");
    }
    for (name, st) in &r.rules {
        let name = name.strip_prefix("end: ").unwrap_or(name);
        s.push_str(&format!(
            "  {:<8} {:<40} {:>9.2} per game, in {} of games\n",
            st.kind,
            format!("\"{name}\""),
            st.per_game,
            pct(st.games)
        ));
    }
    let e = &r.events;
    let mut events = Vec::new();
    if let Some(x) = e.relay_laps_per_game {
        events.push(format!("relay laps per game: {x:.2}"));
    }
    if let Some(x) = e.another_moves_per_game {
        events.push(format!("another move per game: {x:.2}"));
    }
    match (e.grand_slams, e.grand_slams_undone) {
        (Some(n), Some(undone)) => events.push(format!("grand slams: {n} ({undone} undone)")),
        (Some(n), None) => events.push(format!("grand slams: {n}")),
        _ => {}
    }
    if let Some(n) = e.feeding_penalties {
        events.push(format!("feeding penalties: {n}"));
    }
    if let Some(x) = e.rounds_per_game {
        events.push(format!("rounds per match: {x:.2}"));
    }
    if !events.is_empty() {
        s.push_str(&format!("{}\n", events.join("; ")));
    }
    s.push_str(&format!(
        "mean branching factor: {:.2}; distinct games: {} of {}\n",
        r.branching, r.distinct_games, r.games
    ));
    if let Some(e) = &r.won_endgames {
        s.push_str(&endgame_line(e));
    }
    s
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Who played where, for the report's first line.
pub(super) fn seats_text(r: &Report) -> String {
    match &r.swap {
        Some(sw) => format!("{} vs {}, seats exchanged every second game", sw.a, sw.b),
        None => format!("{} (south) vs {} (north)", r.players.south, r.players.north),
    }
}

/// The `--swap` lines of the human report.
pub(super) fn swap_text(r: &SwapReport) -> String {
    let mut s = format!("{} against {}: {} wins, {} losses, {} draws", r.a, r.b, r.a_wins, r.b_wins, r.draws);
    if r.unfinished > 0 {
        s.push_str(&format!(", {} unfinished (left out)", r.unfinished));
    }
    let bound = |b: Option<f64>, infinite: &str| b.map_or(infinite.to_string(), |x| format!("{x:+.0}"));
    match r.elo {
        Some(elo) => s.push_str(&format!(
            "\n  score {}, Elo difference {elo:+.0} (95% interval {} to {})\n",
            pct(r.a_score),
            bound(r.elo_ci95[0], "-infinity"),
            bound(r.elo_ci95[1], "+infinity")
        )),
        None if r.scored == 0 => s.push_str("\n  no game ended: no Elo difference\n"),
        None => s.push_str(&format!(
            "\n  score {}: one player won every game that ended, so the Elo difference has no finite estimate\n",
            pct(r.a_score)
        )),
    }
    s
}

/// The report's line on won endgames, when the databases judged the moves.
pub(super) fn endgame_line(r: &EndgameReport) -> String {
    let side = |w: &WonEndgames| {
        if w.moves == 0 {
            "never stood in a won endgame".to_string()
        } else {
            format!("left {} of {} ({})", w.left, w.moves, pct(w.left as f64 / w.moves as f64))
        }
    };
    format!(
        "won endgames left (moves from a won position with at most {} seeds on the board after which it is no longer won): south {}, north {}\n",
        r.seeds,
        side(&r.south),
        side(&r.north)
    )
}
