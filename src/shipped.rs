//! The games shipped with sowlang, built into the program (`build.rs` includes every `.sow` file under
//! `variants/`), so that a copy of the binary alone can play, check and serve them.
//!
//! A shipped game is named by its file name without `.sow` (`oware`, `openspiel_oware`). Inside the
//! program its path is a made-up one under [`PREFIX`] (`<built-in>/reference/openspiel_oware.sow`),
//! which keeps the folders of `variants/` so that the `extends` between shipped files resolve as they
//! do on disk. A file on disk always wins: a path is read as a shipped game only when nothing is there.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// The first component of the path of every shipped file inside the program. Angle brackets keep it
/// from looking like a folder a user made.
pub const PREFIX: &str = "<built-in>";

/// One shipped rule file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shipped {
    /// Its path under `variants/`, folders separated by `/` (`reference/openspiel_oware.sow`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

static FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

impl Shipped {
    /// The name a command takes: the file name without `.sow`.
    pub fn name(&self) -> &'static str {
        let file = self.path.rsplit('/').next().unwrap_or(self.path);
        file.strip_suffix(".sow").unwrap_or(file)
    }

    /// Its path inside the program, under [`PREFIX`].
    pub(crate) fn builtin_path(&self) -> PathBuf {
        let mut p = PathBuf::from(PREFIX);
        p.extend(self.path.split('/'));
        p
    }

    /// Where the game is played, as the file's first line says it: the convention of the shipped
    /// files is a first line `# NAME (WHERE): ...`, NAME being the name of its `game` line.
    pub fn played_in(&self) -> Option<&'static str> {
        let first = self.text.lines().next()?.strip_prefix('#')?;
        let (before, after) = first.split_once('(')?;
        let (inside, _) = after.split_once(')')?;
        let name = self
            .text
            .lines()
            .find_map(|l| l.trim().strip_prefix("game \"")?.split('"').next())?;
        let letters = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
        (letters(before) == letters(name)).then(|| inside.trim())
    }
}

#[cfg(test)]
impl Shipped {
    /// The game compiled from its file under `variants/`, for the tests that go over every shipped
    /// game.
    pub(crate) fn game(&self) -> crate::Game {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(self.path);
        crate::load_game(&path, &[]).expect("a shipped game loads").game
    }
}

/// The game of an invented rule text, for the tests that need a game none of the shipped files
/// plays.
#[cfg(test)]
pub(crate) fn invented(text: &str) -> crate::Game {
    match crate::load_text(Path::new("invented.sow"), text, &[]) {
        Ok(loaded) => loaded.game,
        Err(_) => panic!("the invented game checks:\n{text}"),
    }
}

/// Every shipped rule file, sorted by path.
pub fn all() -> impl Iterator<Item = Shipped> {
    FILES.iter().map(|&(path, text)| Shipped { path, text })
}

/// The shipped file a name means: `oware`, `oware.sow` or `reference/openspiel_oware.sow`.
pub fn find(name: &str) -> Option<Shipped> {
    let name = name.strip_suffix(".sow").unwrap_or(name);
    all().find(|s| s.name() == name || s.path.strip_suffix(".sow") == Some(name))
}

/// Is `path` inside the program (under [`PREFIX`])?
pub fn is_builtin(path: &Path) -> bool {
    path.components().next().is_some_and(|c| c.as_os_str() == PREFIX)
}

/// The shipped file at a path under [`PREFIX`], `..` and `.` resolved (as `extends "../oware.sow"`
/// from a shipped file writes it).
pub fn at(path: &Path) -> Option<Shipped> {
    if !is_builtin(path) {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for c in path.components().skip(1) {
        match c {
            Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    let joined = parts.join("/");
    all().find(|s| s.path == joined)
}

/// The path a rule file is read from: `path` itself when something is there on disk (a file on disk
/// always wins), or `path.sow` when `path` has no extension and that is on disk, else the shipped
/// game its file name names, else `path` (whose reading then fails with the usual message).
pub fn resolve(path: &Path) -> Cow<'_, Path> {
    if is_builtin(path) {
        return match at(path) {
            Some(s) => Cow::Owned(s.builtin_path()),
            None => Cow::Borrowed(path),
        };
    }
    if path.symlink_metadata().is_ok() {
        return Cow::Borrowed(path);
    }
    // A game named without `.sow` (`extends "oware"`) is first looked for as a file beside.
    if path.extension().is_none() {
        let with = path.with_extension("sow");
        if with.symlink_metadata().is_ok() {
            return Cow::Owned(with);
        }
    }
    match path.file_name().and_then(|n| n.to_str()).and_then(find) {
        Some(s) => Cow::Owned(s.builtin_path()),
        None => Cow::Borrowed(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let mut names: Vec<&str> = all().map(|s| s.name()).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "two shipped files share a name");
        for s in all() {
            assert_eq!(find(s.name()), Some(s));
            assert_eq!(at(&s.builtin_path()), Some(s));
        }
    }

    #[test]
    fn paths_inside_resolve_parent_folders() {
        let first = all().next().expect("some file is shipped");
        let mut p = PathBuf::from(PREFIX);
        p.push("some_folder");
        p.push("..");
        p.extend(first.path.split('/'));
        assert_eq!(at(&p), Some(first));
        assert_eq!(at(Path::new("<built-in>/../x.sow")), None);
        assert_eq!(at(Path::new("<built-in>/no_such_game.sow")), None);
    }
}
