//! The transcripts in README.md are real: each `$ sowlang ...` line of a `console` block is run from
//! the repository root and its output (stdout then stderr) must be the lines shown under it.

use std::path::Path;

#[test]
fn readme_transcripts_are_true() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let mut checked = 0;
    for block in readme.split("```console\n").skip(1) {
        let block = &block[..block.find("```").expect("closed block")];
        let mut commands: Vec<(String, String)> = Vec::new();
        for line in block.lines() {
            match line.strip_prefix("$ ") {
                Some(cmd) => commands.push((cmd.to_string(), String::new())),
                None => {
                    let last = commands.last_mut().expect("output follows a command");
                    last.1.push_str(line);
                    last.1.push('\n');
                }
            }
        }
        for (cmd, want) in commands {
            let args: Vec<&str> = cmd.split_whitespace().collect();
            assert_eq!(args[0], "sowlang", "README commands start with sowlang");
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_sowlang"))
                .env("SOWLANG_DATABASES", super::support::no_databases())
                .args(&args[1..])
                .current_dir(root)
                .env("NO_COLOR", "1")
                .output()
                .expect("run sowlang");
            let got = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert_eq!(got.trim_end(), want.trim_end(), "README transcript of `{cmd}` differs");
            checked += 1;
        }
    }
    assert!(checked >= 3, "the README shows at least three commands");
}
