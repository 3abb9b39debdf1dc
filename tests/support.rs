//! What several test modules share.

use std::path::{Path, PathBuf};

/// Every shipped rule file: `variants/*.sow` and `variants/reference/*.sow`, sorted.
pub fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("reference")] {
        for entry in std::fs::read_dir(&dir).expect("variants dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "sow") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
