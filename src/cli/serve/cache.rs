//! The served games, each checked once: when the server starts, and again only when one of the files
//! it was read from changes (size or modification time). Before, every request checked its file again,
//! so one hostile file in the folder made every listing slow, and the worst of them aborted the server.
//! A check runs on a thread of its own with a large stack, so that no rule file can overflow a worker's
//! stack, and a panic in it becomes a problem listed for that file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use crate::diagnostic::{Diagnostic, Sources};
use crate::{LoadFailure, Loaded};

/// The stack of the thread that checks a file: far more than any bounded rule file needs.
const LOADER_STACK: usize = 64 << 20;

/// A file that does not load is checked again at most this often even when nothing it read changed
/// (a parent it names may have been created since).
const RECHECK_FAILED: Duration = Duration::from_secs(5);

/// What checking a file gave.
pub type Checked = Result<Arc<Loaded>, Arc<LoadFailure>>;

/// What a file looked like on disk: its size and modification time, `None` when it could not be read.
type Stamp = Vec<(PathBuf, Option<(u64, SystemTime)>)>;

struct Entry {
    stamp: Stamp,
    at: Instant,
    checked: Checked,
}

/// The served games, by path, as last checked.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<PathBuf, Entry>>,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache").finish_non_exhaustive()
    }
}

fn stamp_of(paths: impl Iterator<Item = PathBuf>) -> Stamp {
    paths
        .map(|p| {
            let meta = std::fs::metadata(&p).ok().and_then(|m| Some((m.len(), m.modified().ok()?)));
            (p, meta)
        })
        .collect()
}

fn still_fresh(e: &Entry) -> bool {
    let now = stamp_of(e.stamp.iter().map(|(p, _)| p.clone()));
    now == e.stamp && (e.checked.is_ok() || e.at.elapsed() < RECHECK_FAILED)
}

impl Cache {
    /// The game at `path`, checked now only if it was never checked or a file it read has changed.
    pub fn get(&self, path: &Path) -> Checked {
        {
            let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(e) = entries.get(path)
                && still_fresh(e)
            {
                return e.checked.clone();
            }
        }
        let checked = check_apart(path);
        let sources = match &checked {
            Ok(l) => &l.sources,
            Err(f) => &f.sources,
        };
        let read = std::iter::once(path.to_path_buf()).chain(sources.files().map(|(p, _)| p.to_path_buf()));
        let entry = Entry {
            stamp: stamp_of(read),
            at: Instant::now(),
            checked: checked.clone(),
        };
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.to_path_buf(), entry);
        checked
    }
}

/// Loads `path` on a thread of its own with a large stack; a panic there is a problem of the file.
fn check_apart(path: &Path) -> Checked {
    let owned = path.to_path_buf();
    let thread = std::thread::Builder::new()
        .name("sowlang-check".into())
        .stack_size(LOADER_STACK)
        .spawn(move || crate::load_game(&owned, &[]));
    let failed = |message: String| {
        Err(Arc::new(LoadFailure {
            sources: Sources::default(),
            diagnostics: vec![Diagnostic::bare("sow::serve::internal", message)],
        }))
    };
    match thread.map(std::thread::JoinHandle::join) {
        Ok(Ok(Ok(loaded))) => Ok(Arc::new(loaded)),
        Ok(Ok(Err(failure))) => Err(Arc::new(failure)),
        Ok(Err(_)) => failed(format!("checking `{}` failed inside sowlang (a bug)", path.display())),
        Err(e) => failed(format!("cannot check `{}`: {e}", path.display())),
    }
}
