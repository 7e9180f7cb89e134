//! Files the app keeps for itself: readable by their owner only, and replaced
//! atomically, so that an app ended mid-write (or a full disk) leaves the old file
//! whole rather than a truncated one that stops the next start.

use std::io::Write;
use std::path::Path;

/// Writes `contents` to a file next to `path`, syncs it and renames it over `path`:
/// readers see the old file or the new one, never a part. Mode 0600 on Unix.
pub fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let written = (|| {
        let mut file = options.open(&partial)?;
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_file_is_replaced_whole_and_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.json");
        write_private(&path, "first").unwrap();
        write_private(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no partial file is left behind");
    }
}
