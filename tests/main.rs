//! One integration test binary; each module tests one promise of the project.

// Golden scenarios: tests/scenarios/<variant>/<behaviour>.scn, expected boards worked out by hand.
mod scenarios;
// Every shipped rule file (and every `sow` block in the docs) checks clean.
mod variants;
// Seeds are conserved and moves end, over many random games of every variant.
mod random_games;
// The README transcripts are what the binary prints.
mod readme;
// Every OpenSpiel reference trace replays move for move against variants/reference/openspiel_*.sow.
mod conformance;
