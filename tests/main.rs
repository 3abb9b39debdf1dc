//! One integration test binary; each module tests one promise of the project.

// Helpers the modules share.
mod support;

// Constructs of the language (if/then/else, let, passing) on tiny invented boards, results worked out by hand.
mod language;
// Boards of other shapes (a middle row, rings, stated tracks) on tiny invented games, worked out by hand.
mod boards;
// Sowing and captures on tiny invented boards (skip when, both stores, series variants, move from each pit), results worked out by hand.
mod sowing;
// Memory (player and pit values, `set`/`add`, `after move`), forced starts and converted pits, on tiny invented boards worked out by hand.
mod memory;
// Issue 26's one rule model: rules at every moment of a move, their actions and questions, on tiny invented boards worked out by hand.
mod moments;
// Stores as places of the circuit (taken, lifted, moved from and into) on tiny invented boards, worked out by hand.
mod stores;
// Pits owned as the rules give it (by halves, by claim, played wherever they lie) on tiny invented boards, worked out by hand.
mod owners;
// Traditional games written from their rules for issue 26 (tests/fixtures/traditional), hand-worked boards.
mod traditional;
// Choices during a move (`choose`, `lift`, `sow taken .. either`) on tiny invented games, worked out by hand.
mod choices;
// Openings on tiny invented games, worked out by hand: a phase's own `after move` rules, phases that sow nothing (rearranging), an opening in every round (`round_ply`), memory on the board.
mod openings;
// Set-ups, boards and parameters on tiny invented games, worked out by hand: parameters limited to a set or a parity, seeds by pit, `drop board`.
mod setups;
// Rounds on tiny invented boards, worked out by hand: who opens the next round, every set-up, counting stated pits, placing.
mod rounds;
// Golden scenarios: tests/scenarios/<variant>/<behaviour>.scn, expected boards worked out by hand.
mod scenarios;
// Every shipped rule file (and every `sow` block in the docs) checks clean.
mod variants;
// Seeds are conserved and moves end, over many random games of every variant; quick and narrated play agree.
mod random_games;
// The README transcripts are what the binary prints.
mod readme;
// Every OpenSpiel reference trace replays move for move against variants/reference/openspiel_*.sow.
mod conformance;
// The broken corpus: tests/diagnostics/{syntax,check,explore}/*.sow, one defect each, rendered reports snapshotted.
mod diagnostics;
// Bad command-line input (missing files, broken positions, bad moves): one clear error, never a panic; check's JSON and exit codes.
mod cli;
// analyze, solve, completions, man and check's summary as a user meets them: arguments checked first, Ctrl-C, honest figures.
mod commands;
// The games built into the program: `list`, a shipped game by name in every command and `extends`, a file on disk first.
mod shipped;
// `explain`: the rule sheet of every shipped game tells each of its rules; sentences of invented rules worked out by hand.
mod explain;
// The terminal game through a pipe: undo/redo, game records (save, --load, replay), input, boards, hints.
mod play;
// analyze --swap: seats exchanged every second game, the first player's score and Elo difference.
mod match_up;
// Game records and their rules: the rules' hash, `save --with-rules`, saving on leaving, new names.
mod records;
// Garbage in: every shipped variant mutated, hostile texts, and a proptest over random valid files; no panic, no hang.
mod garbage;
// Every accepted rule file (shipped with parameter settings, fixtures, mutants, generated) plays 100 random games soundly.
mod accepted_files;
// The kept fuzz corpus (fuzz/corpus) and mutants of it through the libFuzzer targets' harness, on a stable toolchain.
mod fuzz_corpus;
// Perft counts from the start position match the known counts for the OpenSpiel rule sets.
mod perft;
// The hand-written yardsticks in benches/ play exactly like the interpreter, so timing them is fair.
mod yardstick;
// Computer players beat weaker ones on every shipped variant; the exact solver's methods agree.
mod players;
// Endgame databases against exhaustive search; every shipped game served or refused with its reason; MTD(f) against the graph solver.
mod endgame;
// End rules that read only the stores end games exactly when they would if checked after every move.
mod end_rules;
// `sowlang serve`'s HTTP API: answers match the library; bad moves, malformed requests, unknown games and paths outside are refused with JSON errors.
mod serve;
// The fast forms of rule shapes play exactly like the general engine: every shipped game, move by move.
mod fast_forms;
// Issue 25: games that read `last.before` as its count less one play as their twins that keep the counts before.
mod counts_before;
// How far the fast form reaches: bench names the rule that keeps a file out; sums read as the board; rounds in the fast form.
mod fast_form_reach;
// Outputs never destroy or silently lose data: write errors exit non-zero, plots replace only plots, FIFOs never block.
mod outputs;
// Issue 26's defects and passes, each with the test that would catch it coming back: passes at the start of a turn and by choice, move numbers, move names, long relays, moves listed once, analyze, the trace, the variant files.
mod issue_26;
// Bao la Kiswahili: a thousand random games end by its rules with the 64 seeds kept; no two listed moves alike.
mod bao_la_kiswahili;
// Issue 25: the trials of a listing sown on a packed board play as the general sowing's.
mod packed_trials;
