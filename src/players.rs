//! Computer players that work for any game: they only use the engine's legal moves and `apply`.
//! A [`Spec`] names a player as the command line does (`random`, `greedy`, `alphabeta:6`,
//! `alphabeta:500ms`, `mcts:2000`, `mcts:2s`); [`choose`] asks it for a move, and [`play_game`]
//! plays one game between two of them. Every choice draws its randomness from the generator it is
//! given, so a game with depth or playout limits is the same for the same seed; a time limit makes
//! the result depend on the machine.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::engine::{Event, Game, Player, Position};
use crate::search::endgame::{self, Endgames};
use crate::search::{self, alphabeta, mcts};

/// Alpha-beta depth when none is given.
pub const DEFAULT_DEPTH: u32 = 6;
/// Alpha-beta depth cap under a time limit.
pub const MAX_DEPTH: u32 = 64;
/// MCTS playouts when none are given.
pub const DEFAULT_PLAYOUTS: u32 = 1000;

/// A computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    /// Uniformly random among the legal moves.
    Random,
    /// The move that gains the most at once (score difference after the move), ties at random.
    Greedy,
    /// Alpha-beta search.
    AlphaBeta(alphabeta::Limits),
    /// Monte Carlo tree search.
    Mcts(mcts::Budget),
}

impl Spec {
    /// The strongest player this crate has for a hint within about `time`.
    pub fn strongest(time: Duration) -> Spec {
        Spec::AlphaBeta(alphabeta::Limits {
            depth: MAX_DEPTH,
            time: Some(time),
        })
    }
}

/// The longest time a computer player may think about one move: a longer one is almost surely a
/// slip of the keyboard, and would make `analyze` or `play` seem to hang.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(60);

/// Parses `1.5s`, `500ms`: a duration with its unit. `Ok(None)`: not a duration; `Err`: a
/// duration out of range.
fn parse_duration(s: &str) -> Result<Option<Duration>, String> {
    let (number, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        return Ok(None);
    };
    let Ok(v) = number.parse::<f64>() else {
        return Ok(None);
    };
    let seconds = v * scale;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("`{s}` is not a time to think: give more than 0, e.g. `500ms` or `2s`"));
    }
    if seconds > MAX_MOVE_TIME.as_secs_f64() {
        return Err(format!(
            "`{s}` is too long to think about one move: at most {}s",
            MAX_MOVE_TIME.as_secs()
        ));
    }
    Ok(Some(Duration::from_secs_f64(seconds)))
}

fn duration_text(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        let s = s.trim();
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a.trim())),
            None => (s, None),
        };
        let usage = "players are `random`, `greedy`, `alphabeta[:DEPTH|:TIME]` or `mcts[:PLAYOUTS|:TIME]`, e.g. `alphabeta:6`, `mcts:2s`";
        match (name.trim().to_ascii_lowercase().as_str(), arg) {
            ("random", None) => Ok(Spec::Random),
            ("greedy", None) => Ok(Spec::Greedy),
            ("alphabeta" | "ab", None) => Ok(Spec::AlphaBeta(alphabeta::Limits {
                depth: DEFAULT_DEPTH,
                time: None,
            })),
            ("alphabeta" | "ab", Some(a)) => {
                if let Some(t) = parse_duration(a).map_err(|e| format!("{e}; {usage}"))? {
                    Ok(Spec::AlphaBeta(alphabeta::Limits {
                        depth: MAX_DEPTH,
                        time: Some(t),
                    }))
                } else {
                    match a.parse::<u32>() {
                        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(Spec::AlphaBeta(alphabeta::Limits { depth: d, time: None })),
                        _ => Err(format!(
                            "`{a}` is not a search depth (1 to {MAX_DEPTH}) or a time (`500ms`, `2s`); {usage}"
                        )),
                    }
                }
            }
            ("mcts", None) => Ok(Spec::Mcts(mcts::Budget {
                playouts: DEFAULT_PLAYOUTS,
                time: None,
            })),
            ("mcts", Some(a)) => {
                if let Some(t) = parse_duration(a).map_err(|e| format!("{e}; {usage}"))? {
                    Ok(Spec::Mcts(mcts::Budget {
                        playouts: 0,
                        time: Some(t),
                    }))
                } else {
                    match a.parse::<u32>() {
                        Ok(p) if p >= 1 => Ok(Spec::Mcts(mcts::Budget { playouts: p, time: None })),
                        _ => Err(format!("`{a}` is not a number of playouts or a time (`500ms`, `2s`); {usage}")),
                    }
                }
            }
            _ => Err(format!("`{s}` is not a player; {usage}")),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Random => write!(f, "random"),
            Spec::Greedy => write!(f, "greedy"),
            Spec::AlphaBeta(alphabeta::Limits { time: Some(t), .. }) => write!(f, "alphabeta:{}", duration_text(*t)),
            Spec::AlphaBeta(l) => write!(f, "alphabeta:{}", l.depth),
            Spec::Mcts(mcts::Budget {
                time: Some(t),
                playouts: 0,
            }) => write!(f, "mcts:{}", duration_text(*t)),
            Spec::Mcts(b) => write!(f, "mcts:{}", b.playouts),
        }
    }
}

/// A chosen move and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The pit to play.
    pub pit: usize,
    /// The player's reason in words: its score and how it got it.
    pub why: String,
    /// Every legal move with the player's score for it, in words, when the player has scores.
    pub scores: Vec<(usize, String)>,
}

/// Chooses a move for the player to move, or `None` when there is none. With `all_scores`, search
/// players give an exact score to every move (slower; for hints).
pub fn choose(game: &Game, pos: &Position, spec: Spec, all_scores: bool, rng: &mut StdRng) -> Option<Choice> {
    choose_with(game, pos, spec, all_scores, rng, None)
}

/// [`choose`], the search players (alpha-beta and MCTS) reading the exact value of every position
/// in the endgame databases `db`: in such a position they play a best move, exactly.
pub fn choose_with(game: &Game, pos: &Position, spec: Spec, all_scores: bool, rng: &mut StdRng, db: Option<&Endgames>) -> Option<Choice> {
    choose_among(game, pos, &game.legal_moves(pos), spec, all_scores, rng, db)
}

/// [`choose_with`] among `moves`, the legal moves of `pos` as [`Game::legal_moves`] lists them (a
/// caller that has listed them already, as [`play_game`] has, does not list them again: in a game
/// with choices on the way, a listing is most of a random player's move).
fn choose_among(
    game: &Game,
    pos: &Position,
    moves: &[usize],
    spec: Spec,
    all_scores: bool,
    rng: &mut StdRng,
    db: Option<&Endgames>,
) -> Option<Choice> {
    if moves.is_empty() {
        return None;
    }
    match spec {
        Spec::Random => Some(Choice {
            pit: moves[rng.gen_range(0..moves.len())],
            why: "a random legal move".into(),
            scores: Vec::new(),
        }),
        Spec::Greedy => {
            let me = pos.to_move;
            let scored: Vec<(i64, usize)> = moves
                .iter()
                .map(|&k| {
                    let mut next = pos.clone();
                    let gain = match game.apply(&mut next, k) {
                        Ok(()) => margin(game, &next, me),
                        Err(_) => i64::MIN,
                    };
                    (gain, k)
                })
                .collect();
            let best = scored.iter().map(|(g, _)| *g).max()?;
            let ties: Vec<usize> = scored.iter().filter(|(g, _)| *g == best).map(|(_, k)| *k).collect();
            Some(Choice {
                pit: ties[rng.gen_range(0..ties.len())],
                why: format!("the largest lead right after the move ({best:+} seeds)"),
                scores: scored.iter().map(|&(g, k)| (k, format!("{g:+} seeds"))).collect(),
            })
        }
        Spec::AlphaBeta(limits) => {
            let s = alphabeta::search_with(game, pos, limits, all_scores, rng, db)?;
            if let Some(exact) = known(game, pos, s.pit, db) {
                return Some(exact);
            }
            Some(Choice {
                pit: s.pit,
                why: format!(
                    "{} with best play, looking {} plies ahead ({} positions)",
                    search::describe_score(s.score),
                    s.depth,
                    s.nodes
                ),
                scores: s.scores.iter().map(|&(k, v)| (k, search::describe_score(v))).collect(),
            })
        }
        Spec::Mcts(budget) => {
            let s = mcts::search_with(game, pos, budget, rng, db)?;
            if let Some(exact) = known(game, pos, s.pit, db) {
                return Some(exact);
            }
            Some(Choice {
                pit: s.pit,
                why: format!("won {:.0}% of {} random playouts", 100.0 * s.win_rate, s.playouts),
                scores: s
                    .moves
                    .iter()
                    .map(|&(k, n, r)| (k, format!("{:.0}% of {n} playouts", 100.0 * r)))
                    .collect(),
            })
        }
    }
}

/// The choice of `pit` in words when `pos` is in the endgame databases: its exact final score
/// difference and every move's.
fn known(game: &Game, pos: &Position, pit: usize, db: Option<&Endgames>) -> Option<Choice> {
    let moves = db?.moves(game, pos)?;
    let value = moves.iter().find(|m| m.0 == pit)?.1;
    Some(Choice {
        pit,
        why: format!("{} (the endgame databases)", endgame::describe_final(value)),
        scores: moves.iter().map(|&(k, v)| (k, endgame::describe_final(v))).collect(),
    })
}

/// A player's score minus the other's.
pub fn margin(game: &Game, pos: &Position, me: Player) -> i64 {
    let s = game.scores(pos);
    i64::from(s[me.index()]) - i64::from(s[me.other().index()])
}

/// How a self-play game is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// South's player, then north's.
    pub players: [Spec; 2],
    /// Seed of the game's random choices.
    pub seed: u64,
    /// Plies played at random before the players take over.
    pub random_opening: u32,
    /// Plies after which the game is stopped unfinished.
    pub max_plies: u32,
}

/// How a self-play game ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// The final position.
    pub pos: Position,
    /// The moves played.
    pub moves: Vec<usize>,
    /// Stopped at the length cap.
    pub capped: bool,
    /// Stopped because the player to move had no legal move and no rule ended the game.
    pub stuck: bool,
}

/// Plays one game between two players. `observe` sees every move: the position before it, the
/// number of legal moves there, and what happened (the engine's trace).
pub fn play_game(game: &Game, m: &Match, mut observe: impl FnMut(&Position, usize, &[Event])) -> Played {
    let mut rng = StdRng::seed_from_u64(m.seed);
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let mut moves = Vec::new();
    let (mut capped, mut stuck) = (false, false);
    // The legal moves of the position to move from: listed once, or handed on by the move before
    // where its end rules listed them (`Game::apply_listed_traced`).
    let mut listed = None;
    while !pos.over {
        if pos.ply >= m.max_plies {
            capped = true;
            break;
        }
        let legal = listed.take().unwrap_or_else(|| game.legal_moves(&pos));
        if legal.is_empty() {
            stuck = true;
            break;
        }
        let spec = if (moves.len() as u32) < m.random_opening {
            Spec::Random
        } else {
            m.players[pos.to_move.index()]
        };
        let pit = choose_among(game, &pos, &legal, spec, false, &mut rng, None)
            .expect("there is a legal move")
            .pit;
        let before = pos.clone();
        let (events, next) = game.apply_listed_traced(&mut pos, pit);
        listed = next;
        observe(&before, legal.len(), &events);
        moves.push(pit);
    }
    Played { pos, moves, capped, stuck }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25: `play_game` lists each position's moves once (handed on by the move before where
    /// its end rules listed them: `Game::apply_listed_traced`) and plays the game that listing them
    /// again for the player and applying each move with its checks plays: the same moves, the same
    /// number of legal moves and the same events at every move, the same last position, for every
    /// shipped game (a random player and an alpha-beta one).
    #[test]
    fn a_game_played_from_one_listing_a_ply_is_the_game_listed_for_the_player_again() {
        for shipped in crate::shipped::all() {
            let game = shipped.game();
            for (seed, players) in [
                (1, [Spec::Random, Spec::Random]),
                (2, [Spec::AlphaBeta(alphabeta::Limits { depth: 1, time: None }), Spec::Random]),
            ] {
                let m = Match {
                    players,
                    seed,
                    random_opening: 0,
                    max_plies: 80,
                };
                let mut seen = Vec::new();
                let played = play_game(&game, &m, |_, legal, events| seen.push((legal, events.to_vec())));
                let mut rng = StdRng::seed_from_u64(seed);
                let mut pos = game.initial(None);
                game.settle_start(&mut pos);
                let mut listed_twice = Vec::new();
                while !pos.over && pos.ply < m.max_plies {
                    let legal = game.legal_moves(&pos);
                    if legal.is_empty() {
                        break;
                    }
                    let spec = m.players[pos.to_move.index()];
                    let pit = choose(&game, &pos, spec, false, &mut rng).expect("a legal move").pit;
                    let events = game.apply_traced(&mut pos, pit).expect("a legal move");
                    listed_twice.push((legal.len(), events));
                }
                let differ = seen.iter().zip(&listed_twice).position(|(a, b)| a != b);
                assert!(
                    differ.is_none() && seen.len() == listed_twice.len(),
                    "{} (seed {seed}): the games differ at move {differ:?} ({} and {} moves)",
                    shipped.path,
                    seen.len(),
                    listed_twice.len()
                );
                assert_eq!(played.pos, pos, "{} (seed {seed})", shipped.path);
            }
        }
    }

    #[test]
    fn specs_read_and_print_the_same() {
        for s in [
            "random",
            "greedy",
            "alphabeta:6",
            "alphabeta:500ms",
            "alphabeta:2s",
            "mcts:300",
            "mcts:2s",
        ] {
            assert_eq!(s.parse::<Spec>().map(|p| p.to_string()), Ok(s.to_string()));
        }
        assert_eq!(
            "alphabeta".parse::<Spec>().map(|p| p.to_string()),
            Ok(format!("alphabeta:{DEFAULT_DEPTH}"))
        );
        assert_eq!(
            "mcts".parse::<Spec>().map(|p| p.to_string()),
            Ok(format!("mcts:{DEFAULT_PLAYOUTS}"))
        );
    }

    #[test]
    fn bad_specs_are_refused_with_the_list() {
        for s in ["alphabeta:0", "alphabeta:x", "mcts:0", "mcts:-1s", "minimax", "random:3"] {
            let e = s.parse::<Spec>().expect_err(s);
            assert!(e.contains("players are"), "{s}: {e}");
        }
    }
}
