//! Every shipped rule file checks clean, through the library and through the real binary.

use std::path::Path;

use crate::support::shipped;

#[test]
fn the_ten_games_and_kalah_are_shipped() {
    let names: Vec<String> = shipped()
        .iter()
        .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
        .collect();
    for want in [
        "oware",
        "ouri",
        "kpo",
        "tampoduo",
        "ayoayo",
        "obridjie",
        "rio_kadalis",
        "layli_goobalay",
        "mangala",
        "ayo",
        "kalah",
    ] {
        assert!(names.iter().any(|n| n == want), "variants/{want}.sow is missing");
    }
}

#[test]
fn every_shipped_file_checks_clean() {
    for file in shipped() {
        match sowlang::load_game(&file, &[]) {
            Ok(l) => assert!(l.warnings.is_empty(), "{} has warnings: {:?}", file.display(), l.warnings),
            Err(f) => {
                let msgs: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
                panic!("{} does not check clean:\n{}", file.display(), msgs.join("\n"));
            }
        }
    }
}

#[test]
fn sowlang_check_on_all_variants_exits_zero() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .arg("check")
        .args(shipped())
        .output()
        .expect("run sowlang");
    assert!(
        out.status.success(),
        "sowlang check failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sow_blocks_in_the_docs_check_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["README.md", "docs/language.md", "docs/tutorial.md", "docs/tutorial-four-rows.md"] {
        let Ok(text) = std::fs::read_to_string(root.join(doc)) else {
            continue;
        };
        let mut rest = text.as_str();
        let mut n = 0;
        while let Some(start) = rest.find("```sow\n") {
            let body = &rest[start + 7..];
            let end = body.find("```").expect("closed block");
            let block = &body[..end];
            n += 1;
            // Fragments (a line or two showing one construct) are checked only when they name a game.
            if block.contains("game \"") {
                // Blocks are read as if they stood in variants/, so `extends "oware.sow"` finds the shipped game.
                let name = root.join("variants").join(format!("{}-block-{n}.sow", doc.replace('/', "-")));
                let result = sowlang::load_text(&name, block, &[]);
                if let Err(f) = result {
                    let msgs: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
                    panic!("block {n} of {doc} does not check:\n{}", msgs.join("\n"));
                }
            }
            rest = &body[end + 3..];
        }
    }
}

#[test]
fn docs_variants_lists_every_interpretation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/variants.md")).expect("docs/variants.md");
    let doc: String = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    for file in shipped() {
        let text = std::fs::read_to_string(&file).expect("variant");
        for line in text.lines() {
            let line = line.trim_start_matches('#').trim();
            for tag in ["interpretation:", "divergence:"] {
                if let Some(rest) = line.strip_prefix(tag) {
                    let words: Vec<&str> = rest.split_whitespace().take(8).collect();
                    let start = words.join(" ");
                    assert!(
                        doc.contains(&start),
                        "docs/variants.md does not list the {tag} of {} starting `{start}`",
                        file.display()
                    );
                }
            }
        }
    }
}
