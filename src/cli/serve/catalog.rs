//! Which rule files `serve` offers, by id. An id is the file's path relative to the folder served
//! (with `/` between folders), or the file's name when one file is served. Requests name games only
//! by id and the server only opens the paths found by its own scan, so no request can make it read a
//! file outside what was served, whatever the id says.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Folders deeper than this are not scanned (a served folder is a teacher's games, not a disk).
const MAX_DEPTH: usize = 8;
/// At most this many rule files are offered; the chooser of a larger folder would be useless anyway.
pub const MAX_FILES: usize = 2000;

/// The rule files offered.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// What was served: a folder, or one file.
    pub root: PathBuf,
    /// One file was served rather than a folder.
    pub single: bool,
    /// Id -> path on disk.
    pub files: BTreeMap<String, PathBuf>,
    /// The scan stopped at [`MAX_FILES`].
    pub truncated: bool,
    /// Each file as last checked.
    pub cache: std::sync::Arc<super::cache::Cache>,
}

impl Catalog {
    /// The games built into the program, by their paths under `variants/`.
    pub fn shipped() -> Catalog {
        Catalog {
            root: PathBuf::from(crate::shipped::PREFIX),
            single: false,
            files: crate::shipped::all().map(|s| (s.path.to_string(), s.builtin_path())).collect(),
            truncated: false,
            cache: Default::default(),
        }
    }

    /// Scans `root` (a `.sow` file or a folder, or the name of a game built into the program when
    /// nothing on disk has that name). Err = a message for the user.
    pub fn scan(root: &Path) -> Result<Catalog, String> {
        if let Some(shipped) = crate::shipped::at(&crate::shipped::resolve(root)) {
            return Ok(Catalog {
                root: shipped.builtin_path(),
                single: true,
                files: BTreeMap::from([(format!("{}.sow", shipped.name()), shipped.builtin_path())]),
                truncated: false,
                cache: Default::default(),
            });
        }
        let meta = std::fs::metadata(root).map_err(|e| format!("cannot read `{}`: {e}", root.display()))?;
        let mut files = BTreeMap::new();
        if meta.is_file() {
            let id = root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .ok_or_else(|| format!("`{}` is not a file name", root.display()))?;
            files.insert(id, root.to_path_buf());
            return Ok(Catalog {
                root: root.to_path_buf(),
                single: true,
                files,
                truncated: false,
                cache: Default::default(),
            });
        }
        let mut truncated = false;
        walk(root, "", 0, &mut files, &mut truncated);
        Ok(Catalog {
            root: root.to_path_buf(),
            single: false,
            files,
            truncated,
            cache: Default::default(),
        })
    }

    /// The path of a game, if the id is one of the scanned files.
    pub fn path(&self, id: &str) -> Option<&Path> {
        self.files.get(id).map(PathBuf::as_path)
    }

    /// Whether `path` lies inside what was served.
    pub fn inside(&self, path: &Path) -> bool {
        let base = if self.single {
            self.root.parent().unwrap_or(Path::new(""))
        } else {
            self.root.as_path()
        };
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        canon(path).starts_with(canon(base))
    }

    /// A path read while loading a game (the file or one it `extends`), as the page shows it: relative
    /// to the folder served when inside it, else the file name only, so no machine path is shown.
    pub fn display(&self, path: &Path) -> String {
        if crate::shipped::is_builtin(path) {
            return crate::shipped::at(path).map_or_else(|| slashed(path), |s| s.path.to_string());
        }
        let base = if self.single {
            self.root.parent().unwrap_or(Path::new(""))
        } else {
            self.root.as_path()
        };
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        match canon(path).strip_prefix(canon(base)) {
            Ok(rel) if !rel.as_os_str().is_empty() => slashed(rel),
            _ => path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        }
    }
}

fn slashed(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn walk(dir: &Path, prefix: &str, depth: usize, files: &mut BTreeMap<String, PathBuf>, truncated: &mut bool) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(read) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = read.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        // Hidden folders and build output hold no games and may be huge.
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        // symlink_metadata: a link to a folder is not followed, so the scan cannot loop or leave the folder.
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        let id = format!("{prefix}{name}");
        if meta.is_dir() {
            walk(&entry.path(), &format!("{id}/"), depth + 1, files, truncated);
        } else if name.ends_with(".sow") && !meta.file_type().is_symlink() {
            if files.len() >= MAX_FILES {
                *truncated = true;
                return;
            }
            files.insert(id, entry.path());
        }
    }
}
