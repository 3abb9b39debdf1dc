//! Garbage in, diagnostics out. Every shipped variant is mutated (a token dropped, a line duplicated,
//! the file cut short, two tokens swapped) and each mutant is loaded: nothing may panic, each load
//! must finish in bounded time, and every diagnostic must point at a span inside its file. A mutant
//! that still loads is played for a while, seeds counted. A proptest then writes random *valid* rule
//! files from the constructs of docs/language.md and plays them.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Generous, for a debug build on a busy machine; a hang would take far longer.
const BOUND: Duration = Duration::from_secs(10);

use crate::support::shipped;

/// Loads `text` as if it were the file `name`; asserts the promises; plays it if it loads.
fn load_and_play(name: &Path, text: &str, what: &str, rng: &mut StdRng) {
    let started = Instant::now();
    match sowlang::load_text(name, text, &[]) {
        Err(failure) => {
            assert!(!failure.diagnostics.is_empty(), "{what}: refused without a reason");
            for d in &failure.diagnostics {
                assert!(!d.labels.is_empty(), "{what}: no span on {d:?}");
                for l in &d.labels {
                    let len = failure.sources.text(l.span.file).len();
                    assert!(
                        l.span.start <= l.span.end && l.span.end <= len,
                        "{what}: span outside the file: {d:?}"
                    );
                }
                let _ = d.render(&failure.sources, false);
            }
        }
        Ok(loaded) => play(&loaded.game, what, rng, 40),
    }
    assert!(started.elapsed() < BOUND, "{what}: took {:?}", started.elapsed());
}

/// A random game of at most `moves` moves: every listed move can be played, seeds are conserved.
fn play(game: &sowlang::Game, what: &str, rng: &mut StdRng, moves: usize) {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let total = game.seed_total(&pos);
    for _ in 0..moves {
        let legal = game.legal_moves(&pos);
        if pos.is_over() || legal.is_empty() {
            break;
        }
        let k = legal[rng.gen_range(0..legal.len())];
        game.apply(&mut pos, k)
            .unwrap_or_else(|e| panic!("{what}: listed move {k} refused: {e}"));
        assert_eq!(game.seed_total(&pos), total, "{what}: seeds created or destroyed");
    }
}

/// Byte ranges of the whitespace-separated tokens of `text`.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// At most `n` indices spread over `0..len`.
fn sample(len: usize, n: usize) -> impl Iterator<Item = usize> {
    let step = len.div_ceil(n.max(1)).max(1);
    (0..len).step_by(step)
}

#[test]
fn mutated_variants_never_panic_or_hang() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut mutants = 0;
    for path in shipped() {
        let text = std::fs::read_to_string(&path).expect("variant");
        let file = path.file_name().expect("name").to_string_lossy().into_owned();
        // Read as if it stood beside the original, so that `extends` still finds its parent.
        let name = path.with_file_name(format!("mutant-{file}"));
        let toks = tokens(&text);
        for i in sample(toks.len(), 60) {
            let (s, e) = toks[i];
            let m = format!("{}{}", &text[..s], &text[e..]);
            load_and_play(&name, &m, &format!("{file} without token {i} `{}`", &text[s..e]), &mut rng);
            mutants += 1;
        }
        for i in sample(toks.len().saturating_sub(1), 20) {
            let ((s1, e1), (s2, e2)) = (toks[i], toks[i + 1]);
            let m = format!("{}{}{}{}{}", &text[..s1], &text[s2..e2], &text[e1..s2], &text[s1..e1], &text[e2..]);
            load_and_play(&name, &m, &format!("{file} with tokens {i} and {} swapped", i + 1), &mut rng);
            mutants += 1;
        }
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for i in sample(lines.len(), 25) {
            let mut m: String = lines[..=i].concat();
            m.push_str(lines[i]);
            m.push_str(&lines[i + 1..].concat());
            load_and_play(&name, &m, &format!("{file} with line {} twice", i + 1), &mut rng);
            mutants += 1;
        }
        for cut in sample(text.len(), 25) {
            if text.is_char_boundary(cut) {
                load_and_play(&name, &text[..cut], &format!("{file} cut at byte {cut}"), &mut rng);
                mutants += 1;
            }
        }
    }
    assert!(mutants > 500, "only {mutants} mutants");
}

#[test]
fn hostile_texts_are_refused_quickly() {
    let mut rng = StdRng::seed_from_u64(5);
    let name = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/hostile.sow");
    let long_name = "a".repeat(200_000);
    let cases: Vec<(&str, String)> = vec![
        ("empty", String::new()),
        ("only spaces", " \n\t ".repeat(1000)),
        ("one very long name", format!("game \"x\"\nboard {{ pits {long_name} seeds 4 }}\n")),
        ("one very long line", format!("game \"{}\"\n", "x".repeat(900_000))),
        ("a huge number", format!("game \"x\"\nboard {{ pits {} seeds 4 }}\n", "9".repeat(5000))),
        ("ten thousand brackets", format!("game \"x\"\nend \"e\" when {}ply{}\n", "(".repeat(10_000), ")".repeat(10_000))),
        ("ten thousand nots", format!("game \"x\"\nend \"e\" when {}no_moves\n", "not ".repeat(10_000))),
        ("a long sum", format!("game \"x\"\nend \"e\" when ply > {}\n", vec!["1"; 50_000].join(" + "))),
        ("a long conjunction", format!("game \"x\"\nend \"e\" when {}\n", vec!["no_moves"; 20_000].join(" and "))),
        ("a long field chain", format!("game \"x\"\nend \"e\" when last{} == 1\n", ".count".repeat(5000))),
        ("a wide set", format!("game \"x\"\nend \"e\" when ply in {{{}}}\n", vec!["1"; 50_000].join(", "))),
        ("many items", "end \"e\" when no_moves\n".repeat(5_000)),
        ("many broken items", "baord { }\n".repeat(5_000)),
        ("many rules", (0..5_000).map(|i| format!("capture \"c{i}\" {{ when last.count == {} take last }}\n", i % 50)).collect()),
        ("the smallest number", "game \"x\"\nparam p = -9223372036854775808\nboard { pits 6 seeds 4 }\nend \"e\" when ply > (0 - 9223372036854775807 - 1) / -1\n".into()),
        ("division of the smallest number", "game \"x\"\nparam p = 1\nboard { pits 6 / (0 - 9223372036854775807 - 1 + p - p) seeds 4 }\nend \"e\" when no_moves\n".into()),
    ];
    for (what, text) in cases {
        load_and_play(&name, &text, what, &mut rng);
    }
}

/// A condition for a capture rule, valid for a board of `pits` pits.
fn capture_condition() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..6i64, 0..4i64).prop_map(|(lo, d)| format!("last.count in {lo}..{}", lo + d)),
        (1..5i64).prop_map(|n| format!("last.side == opponent and last.count == {n}")),
        (1..5i64).prop_map(|n| format!("last.count == {n} and opposite(last).count > 0")),
        Just("last.count is even and last.side == opponent".to_string()),
        Just("last.before == 0 and last.side == mover and opposite(last).count > 0".to_string()),
        (1..4i64).prop_map(|n| format!("last.count in {{{n}, {}}}", n + 2)),
    ]
}

fn capture_action() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("take last".to_string()),
        Just("take last, opposite(last)".to_string()),
        Just("take opposite(last) to mover".to_string()),
        Just("take last  series backward while pit.side == opponent and pit.count in 2..3".to_string()),
        Just("take last  then end".to_string()),
        Just("take opposite(last)  then another move".to_string()),
        Just("claim last for mover".to_string()),
        (1..3i64).prop_map(|n| format!("move {n} from last to opposite(last)")),
    ]
}

prop_compose! {
    pub(crate) fn valid_file()(
        pits in 1..8i64,
        seeds in 1..6i64,
        cw in any::<bool>(),
        skip in any::<bool>(),
        sown in any::<bool>(),
        relay in prop::option::of(prop_oneof![
            Just("last.before > 0".to_string()),
            Just("last.count > 1 and last.count < 5".to_string()),
            Just("lap < 4 and last.count > 1".to_string()),
        ]),
        limit in 1..50i64,
        captures in prop::collection::vec((capture_condition(), capture_action()), 0..4),
        trigger in prop::option::of((1..6i64).prop_map(|n| format!("when pit.count == {n} and not final  take pit to owner"))),
        feeding in 0..3u8,
        slam in 0..4u8,
        forbid in any::<bool>(),
    ) -> String {
        let mut f = format!("game \"Random\"\nparam pits = {pits} in 1..12\nboard {{ pits pits seeds {seeds} stores {} }}\n",
            if sown { "sown" } else { "captures" });
        f.push_str(&format!("sow {{ direction {}{}{} }}\n",
            if cw { "cw" } else { "ccw" },
            if skip { "  skip origin" } else { "" },
            if sown { "  into own store" } else { "" }));
        if let Some(r) = relay {
            f.push_str(&format!("sow {{ relay when {r}  relay limit {limit} }}\n"));
        }
        for (i, (when, action)) in captures.iter().enumerate() {
            f.push_str(&format!("capture \"c{i}\" {{ when {when}  {action} }}\n"));
        }
        if let Some(t) = trigger {
            f.push_str(&format!("trigger \"t\" {{ {t} }}\n"));
        }
        f.push_str(match feeding { 0 => "", 1 => "feeding required\n", _ => "feeding penalty remaining to opponent\n" });
        f.push_str(match slam { 0 => "", 1 => "grand slam capture nothing\n", 2 => "grand slam forbidden\n", _ => "grand slam allowed then another move\n" });
        if forbid {
            f.push_str("forbid \"singles stay\" when origin.count == 1 and any(row(mover) where pit.count > 1)\n");
        }
        f.push_str("end \"repeated\" when repeated remaining split\nend \"half\" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner\nend \"no move\" when no_moves remaining owner\n");
        f
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random valid files load without errors, and random games of them conserve seeds and end or go on
    /// without a panic.
    #[test]
    fn random_valid_files_load_and_play(text in valid_file(), seed in any::<u64>()) {
        let name = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/random.sow");
        let loaded = match sowlang::load_text(&name, &text, &[]) {
            Ok(l) => l,
            Err(f) => {
                let msgs: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
                panic!("a valid file was refused:\n{text}\n{}", msgs.join("\n"));
            }
        };
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..3 {
            play(&loaded.game, &text, &mut rng, 300);
        }
    }
}

/// Runs `f` on a thread with a worker's small stack (as `serve` has) and fails when it takes longer
/// than [`BOUND`]: a test of a hang must fail, not hang.
fn within_bound<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("a thread");
    rx.recv_timeout(BOUND)
        .unwrap_or_else(|e| panic!("{what}: no answer within {BOUND:?} ({e})"))
}

/// The codes `text` is refused with, worked out on a small stack within the bound.
fn codes_of(what: &str, text: String) -> Vec<&'static str> {
    within_bound(what, move || {
        let name = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/hostile.sow");
        match sowlang::load_text(&name, &text, &[]) {
            Ok(_) => vec![],
            Err(f) => f.diagnostics.iter().map(|d| d.code).collect(),
        }
    })
}

const HEAD: &str = "game \"x\"\nboard { pits 6 seeds 4 }\nend \"e\" when no_moves remaining owner\n";

// Issue 22, 1: `let`s that each use the one before twice grew exponentially when written out (24
// lines took 4 GB); refused where used, before anything is copied.
#[test]
fn issue_22_doubling_lets_are_refused_where_used() {
    let lets: String = (1..=40).map(|i| format!("let a{i} = a{} + a{}\n", i - 1, i - 1)).collect();
    let text = format!("{HEAD}let a0 = ply\n{lets}end \"big\" when a40 > 3\n");
    assert_eq!(codes_of("forty doubling lets", text), ["sow::check::too_complex"]);
    // Many uses of a name each within the bound, too many in all.
    let lets: String = (1..=12).map(|i| format!("let a{i} = a{} + a{}\n", i - 1, i - 1)).collect();
    let uses: String = (0..40).map(|i| format!("end \"e{i}\" when a12 > {i}\n")).collect();
    let text = format!("{HEAD}let a0 = ply\n{lets}{uses}");
    let codes = codes_of("many uses of a long let", text);
    assert!(
        !codes.is_empty() && codes.iter().all(|c| *c == "sow::check::too_complex"),
        "{codes:?}"
    );
}

// Issue 22, 2: each `let` may be 200 operations deep, and written out they overflowed the stack (32
// lines on the main thread, 12 on a server worker); the depth is checked after they are written out.
#[test]
fn issue_22_deep_lets_are_refused_on_a_small_stack() {
    let terms = vec!["1"; 190].join(" + ");
    let lets: String = (1..=40).map(|i| format!("let b{i} = b{} + {terms}\n", i - 1)).collect();
    let text = format!("{HEAD}let b0 = 1\n{lets}end \"deep\" when b40 > 3\n");
    assert_eq!(codes_of("forty deep lets", text), ["sow::check::too_complex"]);
    // A long chain of names standing for names adds no depth and is taken.
    let lets: String = (0..20_000).map(|i| format!("let a{i} = a{}\n", i + 1)).collect();
    let text = format!("{HEAD}let a20000 = ply\n{lets}end \"c\" when a0 > 1\n");
    assert_eq!(codes_of("a long chain of names", text), Vec::<&str>::new());
    // A cycle is still one, and a name using it is not blamed for it.
    let text = format!("{HEAD}let a = b\nlet b = a\nlet c = a + 1\nend \"c\" when c > 1\n");
    assert_eq!(codes_of("a cycle", text), ["sow::check::cyclic_let", "sow::check::cyclic_let"]);
}

// Issue 22, 3: the left side of `+` was typed twice at every level, so 30 terms took over 20 s.
#[test]
fn issue_22_long_sums_are_typed_in_linear_time() {
    let text = format!("{HEAD}end \"t\" when last.count + {} > 1000\n", vec!["1"; 150].join(" + "));
    assert_eq!(codes_of("a long sum in an end rule", text), ["sow::check::unavailable"]);
    let text = format!("{HEAD}end \"t\" when ply + {} > 1000\n", vec!["1"; 150].join(" + "));
    assert_eq!(codes_of("a long sum", text), Vec::<&str>::new());
}

// Issue 22, 4: a broken item starting with a character of several bytes panicked in error recovery.
#[test]
fn issue_22_broken_items_starting_with_wide_characters_are_reported() {
    for wide in ['\u{feff}', '€', '—', '👍'] {
        let text = format!("{HEAD}{wide}capture \"c\" {{ when x take }}\nparam{wide} p = 3\n{wide}");
        let codes = codes_of(&format!("an item after {wide:?}"), text);
        assert!(codes.contains(&"sow::syntax::unexpected_token"), "{codes:?}");
    }
    // Every shipped file, with such a character at the start of a line or before a token.
    let mut rng = StdRng::seed_from_u64(22);
    for path in shipped() {
        let text = std::fs::read_to_string(&path).expect("variant");
        let name = path.with_file_name("mutant.sow");
        let toks = tokens(&text);
        for i in sample(toks.len(), 12) {
            for wide in ["\u{feff}", "€", "—"] {
                let (s, _) = toks[i];
                let m = format!("{}{wide}{}", &text[..s], &text[s..]);
                load_and_play(&name, &m, &format!("{} with {wide:?} before token {i}", path.display()), &mut rng);
            }
        }
    }
}

// Issue 22, 4 (the leftover): a file starting with a UTF-8 byte-order mark, as some editors save one,
// was refused with "only plain ASCII signs are operators". The mark at the very start is passed over
// (tests/fixtures/byte_order_mark.sow); anywhere else it is a stray character, refused where it stands.
#[test]
fn issue_22_a_byte_order_mark_at_the_start_is_passed_over() {
    let fixture = crate::support::root().join("tests/fixtures/byte_order_mark.sow");
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    assert!(text.starts_with('\u{feff}'), "the fixture lost its mark");
    let with = sowlang::load_game(&fixture, &[]).unwrap_or_else(|f| panic!("{f}"));
    let without = sowlang::load_text(&fixture, &text['\u{feff}'.len_utf8()..], &[]).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(format!("{:?}", with.game), format!("{:?}", without.game));
    for path in shipped() {
        let text = format!("\u{feff}{}", std::fs::read_to_string(&path).expect("variant"));
        assert!(sowlang::load_text(&path, &text, &[]).is_ok(), "{} with a mark", path.display());
    }
    // A second mark, or one after the first line, is refused at its place.
    for (text, at) in [(format!("\u{feff}\u{feff}{HEAD}"), 3), (format!("{HEAD}\u{feff}"), HEAD.len())] {
        let failure = sowlang::load_text(Path::new("marked.sow"), &text, &[]).expect_err("a stray mark");
        let d = &failure.diagnostics[0];
        assert_eq!((d.code, d.labels[0].span.start), ("sow::syntax::unexpected_token", at), "{failure}");
    }
}
