//! Issue 22, fuzzing on a stable toolchain: the kept corpus of both fuzz targets (`fuzz/corpus/`) and a
//! fixed number of cheap mutants of it go through the same harness as the libFuzzer targets
//! (`fuzz/harness.rs`): nothing panics, every diagnostic is located, games conserve their seeds. The
//! dictionary holds every word of the grammar. `examples/fuzz.rs` runs the same for a given time.

#[path = "../fuzz/harness.rs"]
mod harness;
#[path = "../fuzz/mutate.rs"]
mod mutate;

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::support::root;

/// Runs `f` on a thread with the main thread's usual 8 MB stack, as libFuzzer runs its inputs (a test's
/// own thread has 2 MB).
fn on_a_main_sized_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

/// The input as text for a failure's message.
fn shown(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

#[test]
fn the_kept_corpus_passes_both_targets() {
    on_a_main_sized_stack(|| {
        let (mut loaded, mut played) = (0, 0);
        for (name, data) in mutate::corpus(root(), "parse_check") {
            let result = std::panic::catch_unwind(|| harness::parse_check(&data).is_some());
            loaded += usize::from(result.unwrap_or_else(|_| panic!("parse_check on {name} panicked")));
        }
        for (name, data) in mutate::corpus(root(), "play") {
            std::panic::catch_unwind(|| harness::play(&data)).unwrap_or_else(|_| panic!("play on {name} panicked"));
            played += 1;
        }
        // Seeded from every shipped game and test fixture: most of them load.
        assert!(loaded >= 20 && played >= 20, "{loaded} loaded, {played} played");
    });
}

#[test]
fn mutants_of_the_corpus_pass_both_targets() {
    on_a_main_sized_stack(|| {
        for (target, runs) in [("parse_check", 3000), ("play", 1000)] {
            let mut rng = StdRng::seed_from_u64(22);
            let mut loaded = 0;
            mutate::mutants(root(), target, runs, &mut rng, |input| {
                let outcome = std::panic::catch_unwind(|| match target {
                    "play" => {
                        harness::play(input);
                        false
                    }
                    _ => harness::parse_check(input).is_some(),
                });
                let loads = outcome.unwrap_or_else(|_| panic!("{target} panicked on this input:\n{}", shown(input)));
                loaded += usize::from(loads);
                true
            });
            // The mutator keeps files mostly well formed, and some still load (129 of 3000 when written:
            // the corpus has no comments to spend mutations on), so play is reached too.
            if target == "parse_check" {
                assert!(loaded * 40 > runs, "only {loaded} of {runs} mutants loaded");
            }
        }
    });
}

/// The cap on a game's work: a big board plays fewer plies, an empty one no more than the ply cap.
#[test]
fn games_are_capped_by_plies_and_by_work() {
    assert_eq!(harness::plies_allowed(1000, 48, 14), harness::PLY_CAP);
    assert_eq!(harness::plies_allowed(10, 48, 14), 10);
    assert_eq!(harness::plies_allowed(255, 9_986, 14), 2);
    assert_eq!(harness::plies_allowed(255, 0, 0), harness::PLY_CAP);
}

/// Every literal of the grammar (a keyword, an operator) is in the dictionary, so that the fuzzers
/// try every word of the language.
#[test]
fn the_dictionary_has_every_word_of_the_grammar() {
    let dict = mutate::dictionary(root());
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("grammar")).expect("grammar/") {
        let grammar = std::fs::read_to_string(entry.expect("entry").path()).expect("a grammar file");
        for (i, literal) in grammar.split('"').enumerate() {
            // Odd pieces lie between quotes; those with a space are not literals (`" ~ x ~ "`), nor
            // are the words of comments that quote a placeholder in capitals.
            let word = literal.as_bytes();
            if i % 2 == 1
                && !word.is_empty()
                && !literal.contains([' ', '\\'])
                && !literal.chars().all(|c| c.is_ascii_uppercase())
                && !dict.iter().any(|w| w == word)
            {
                missing.push(literal.to_string());
            }
        }
    }
    assert!(missing.is_empty(), "fuzz/sow.dict lacks {missing:?}");
}
