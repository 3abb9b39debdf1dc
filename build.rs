//! Builds the shipped games into the program: every `.sow` file under `variants/` becomes an entry
//! of `$OUT_DIR/shipped.rs` (its path under `variants/` and its text), so a copy
//! of the binary plays them with no repository beside it. Cargo reruns this when anything under
//! `variants/` changes, so a new or edited game is never left out of a build.

use std::path::{Path, PathBuf};

fn main() {
    // Read when the script runs, not when it was built: a build script compiled for one checkout
    // (its `target/` copied to another worktree) would otherwise keep reading the first one's games.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("variants");
    println!("cargo:rerun-if-changed=variants");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        let rel: Vec<String> = path
            .strip_prefix(&root)
            .expect("found under variants/")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        // The text itself, not an `include_str!` of its path: the generated file outlives the folder
        // it was made from when cargo does not rerun this script (a target/ shared by a copy that
        // is gone, as `.ci/run`'s).
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.push_str(&format!("    ({:?}, {:?}),\n", rel.join("/"), text));
    }
    out.push_str("]\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "sow") {
            files.push(path);
        }
    }
}
