//! Files the commands write (game records, plots): what may be replaced, and how a file is put in place.
//! A command replaces only a plain file it wrote itself, known by its first line, never a rule file, a
//! link, a device or a FIFO (which would block the command), and writes through a temporary file in
//! the same folder and a rename, so that the file is always either the old one or the whole new one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why writing to `path` would destroy something this program did not write, or `None` when it may be
/// written: nothing is there, a folder (which the write refuses), or a plain file whose first line that is not blank or a `#` comment
/// starts with `first_line` (ignoring case).
pub fn would_clobber(path: &Path, first_line: &str) -> Option<String> {
    // Not followed: a link is refused as a link, whatever it points at.
    let meta = match path.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(format!("it cannot be looked at: {e}")),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Some("it is a symbolic link".into());
    }
    // A folder cannot be replaced by a rename: writing says why it failed.
    if kind.is_dir() {
        return None;
    }
    if !kind.is_file() {
        // Opening a FIFO would wait for a reader; a device is never ours.
        return Some("it is not a plain file (a device, a FIFO or a socket)".into());
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head));
    if let Err(e) = read {
        return Some(format!("it cannot be read: {e}"));
    }
    let text = String::from_utf8_lossy(&head);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    let ours = first.is_some_and(|l| l.get(..first_line.len()).is_some_and(|h| h.eq_ignore_ascii_case(first_line)));
    (!ours).then(|| "it was not written by sowlang".into())
}

/// The temporary file beside `path` that [`write_atomic`] writes first.
pub fn temp_beside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(folder.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id())))
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so that the file
/// at `path` is always either the old one or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "it is a folder"));
    }
    let tmp = temp_beside(path)?;
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_file_starting_with_the_line_may_be_replaced() {
        let dir = std::env::temp_dir().join(format!("sowlang-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let ours = dir.join("ours.txt");
        write_atomic(&ours, b"# a note\nSowlang Record 1\nmoves: 1\n").expect("written");
        assert_eq!(would_clobber(&ours, "sowlang record"), None);
        assert_eq!(would_clobber(&dir.join("absent.txt"), "sowlang record"), None);
        let theirs = dir.join("theirs.sow");
        std::fs::write(&theirs, "game \"x\"\n").expect("written");
        assert!(would_clobber(&theirs, "sowlang record").is_some());
        assert!(write_atomic(&dir, b"x").is_err());
        #[cfg(unix)]
        {
            let link = dir.join("link.txt");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&ours, &link).expect("a link");
            assert_eq!(would_clobber(&link, "sowlang record").as_deref(), Some("it is a symbolic link"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
