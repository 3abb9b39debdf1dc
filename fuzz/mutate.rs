//! The stable driver's mutator: cheap edits of the kept corpus (`fuzz/corpus/`) that keep a rule
//! file mostly well formed, so that most mutants reach `check` and many reach play. libFuzzer does the
//! same and more on nightly (`fuzz/run.sh`); this one lets a stable toolchain and CI fuzz too.

use std::path::Path;

use rand::Rng;

/// The kept corpus of one target (`fuzz/corpus/NAME/*`), sorted by name.
pub fn corpus(root: &Path, target: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("fuzz/corpus").join(target)).expect("the kept corpus") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        out.push((name, std::fs::read(&path).expect("a corpus file")));
    }
    out.sort();
    out
}

/// The words of `fuzz/sow.dict` (libFuzzer's format: one `"word"` a line, `\"`, `\\` and `\xNN`
/// escapes, `#` comments).
pub fn dictionary(root: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(root.join("fuzz/sow.dict")).expect("the dictionary");
    let mut words = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let Some(quoted) = line.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else {
            continue;
        };
        let bytes = quoted.as_bytes();
        let mut word = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match (bytes[i], bytes.get(i + 1)) {
                (b'\\', Some(b'x')) if i + 3 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("ascii");
                    word.push(u8::from_str_radix(hex, 16).expect("a \\xNN escape"));
                    i += 4;
                }
                (b'\\', Some(&c)) => {
                    word.push(c);
                    i += 2;
                }
                (c, _) => {
                    word.push(c);
                    i += 1;
                }
            }
        }
        words.push(word);
    }
    words
}

/// Numbers worth trying: edges of the board's and the counters' types.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "64",
    "255",
    "256",
    "1000",
    "65536",
    "4294967296",
    "-1",
    "9223372036854775807",
];

/// Byte offsets in `data` where a token may start or end: after whitespace, or at its ends.
fn boundaries(data: &[u8]) -> Vec<usize> {
    let mut out = vec![0, data.len()];
    out.extend((1..data.len()).filter(|&i| data[i - 1].is_ascii_whitespace() != data[i].is_ascii_whitespace()));
    out
}

/// Line starts of `data`, and its end.
fn line_starts(data: &[u8]) -> Vec<usize> {
    let mut out = vec![0];
    out.extend(data.iter().enumerate().filter(|&(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    if *out.last().expect("one") != data.len() {
        out.push(data.len());
    }
    out
}

fn pick<'a, T>(rng: &mut impl Rng, items: &'a [T]) -> &'a T {
    &items[rng.gen_range(0..items.len())]
}

/// One to four edits of `data`, the `skip` bytes at its start (the play target's moves) aside, with
/// words from `dict` and lines from `others`.
pub fn mutate(data: &[u8], skip: usize, dict: &[Vec<u8>], others: &[(String, Vec<u8>)], rng: &mut impl Rng) -> Vec<u8> {
    let skip = skip.min(data.len());
    let (head, body) = data.split_at(skip);
    let mut head = head.to_vec();
    let mut text = body.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let cuts = boundaries(&text);
        let lines = line_starts(&text);
        match rng.gen_range(0..9) {
            // A word of the language, where a token may stand or anywhere.
            0 | 1 => {
                let at = if rng.gen_bool(0.8) {
                    *pick(rng, &cuts)
                } else {
                    rng.gen_range(0..=text.len())
                };
                let mut word = pick(rng, dict).clone();
                if rng.gen_bool(0.5) {
                    word.push(b' ');
                }
                text.splice(at..at, word);
            }
            // A token replaced by a word of the language.
            2 => {
                let a = *pick(rng, &cuts);
                let b = cuts.iter().copied().filter(|&c| c > a).min().unwrap_or(a);
                text.splice(a..b, pick(rng, dict).clone());
            }
            // A number replaced by an edge.
            3 => {
                let digits: Vec<usize> = (0..text.len()).filter(|&i| text[i].is_ascii_digit()).collect();
                if digits.is_empty() {
                    continue;
                }
                let mut a = *pick(rng, &digits);
                while a > 0 && text[a - 1].is_ascii_digit() {
                    a -= 1;
                }
                let b = (a..text.len()).find(|&i| !text[i].is_ascii_digit()).unwrap_or(text.len());
                text.splice(a..b, pick(rng, NUMBERS).bytes());
            }
            // A range of bytes or a line dropped.
            4 => {
                if text.is_empty() {
                    continue;
                }
                let a = rng.gen_range(0..text.len());
                let b = (a + rng.gen_range(1..16)).min(text.len());
                text.drain(a..b);
            }
            5 => {
                if lines.len() < 2 {
                    continue;
                }
                let i = rng.gen_range(0..lines.len() - 1);
                text.drain(lines[i]..lines[i + 1]);
            }
            // A line repeated, or one from another file put in.
            6 | 7 => {
                let (source, slines) = if rng.gen_bool(0.5) || lines.len() < 2 {
                    let other = &pick(rng, others).1;
                    (other.clone(), line_starts(other))
                } else {
                    (text.clone(), lines.clone())
                };
                if slines.len() < 2 {
                    continue;
                }
                let i = rng.gen_range(0..slines.len() - 1);
                let line = source[slines[i]..slines[i + 1]].to_vec();
                let at = *pick(rng, &lines);
                text.splice(at..at, line);
            }
            // A byte changed: the play target's moves, or the text.
            _ => {
                if !head.is_empty() && rng.gen_bool(0.5) {
                    let i = rng.gen_range(0..head.len());
                    head[i] = rng.r#gen();
                } else if !text.is_empty() {
                    let i = rng.gen_range(0..text.len());
                    text[i] = *pick(rng, b" \n{}()=.,+-0123456789abcdefghijklmnopqrstuvwxyz\"#");
                }
            }
        }
    }
    head.extend(text);
    head
}

/// Runs `each` on `runs` mutants of the corpus of `target` (the play target's first byte and moves
/// kept apart from its text), then returns how many ran. Each call with the same `rng` state runs the
/// same inputs.
pub fn mutants(root: &Path, target: &str, runs: usize, rng: &mut impl Rng, mut each: impl FnMut(&[u8]) -> bool) -> usize {
    let corpus = corpus(root, target);
    let dict = dictionary(root);
    for n in 0..runs {
        let (_, seed) = pick(rng, &corpus);
        let skip = if target == "play" {
            seed.first().map_or(0, |&c| 1 + usize::from(c))
        } else {
            0
        };
        let input = mutate(seed, skip, &dict, &corpus, rng);
        if !each(&input) {
            return n + 1;
        }
    }
    runs
}
