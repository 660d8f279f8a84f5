//! Claims on runs: how several workers (processes, on one machine or on machines sharing the
//! results directory) share one grid without solving a run twice.
//!
//! A worker claims a run before solving it by taking an exclusive lock (`flock`, through
//! `fs4`) on `claims/<run key>.claim`, which it holds while it solves; the file names the
//! holder (host, process) for people looking. The run is recorded, then the claim file is
//! removed and the lock released. A worker that dies releases its lock with its process, so
//! the run's claim can be taken over by the next worker that tries; a claim held by a live
//! worker cannot. After taking a lock, the claimer checks that the file it locked is still the
//! one at that path (a holder removes the file before releasing it), or tries again.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use fs4::{FileExt, TryLockError};

use crate::error::{Error, Result};

/// A run claimed by this process: the locked claim file. Dropping it removes the file and
/// releases the lock.
#[derive(Debug)]
pub struct Claim {
    path: PathBuf,
    file: File,
}

impl Claim {
    /// Tries to claim the run whose claim file is `path`: `None` when a live worker holds it.
    pub(crate) fn try_take(path: &Path) -> Result<Option<Claim>> {
        loop {
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(path)
                .map_err(|e| output_error(path, e))?;
            match FileExt::try_lock(&file) {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(output_error(path, e)),
            }
            if same_file(&file, path) {
                let mut claim = Claim {
                    path: path.to_path_buf(),
                    file,
                };
                claim.write_holder()?;
                return Ok(Some(claim));
            }
            // The holder removed the file between our open and our lock: try the new one.
        }
    }

    /// Writes who holds the claim into its file (for people; the lock is what counts).
    fn write_holder(&mut self) -> Result<()> {
        let host = fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "unknown host".to_string());
        let text = format!("host {host}\nprocess {}\n", std::process::id());
        self.file
            .set_len(0)
            .and_then(|()| self.file.write_all(text.as_bytes()))
            .map_err(|e| output_error(&self.path, e))
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        // Removed before the lock goes (with the file handle), so that a worker that locks
        // this file afterwards sees it is gone and looks again.
        let _ = fs::remove_file(&self.path);
    }
}

/// Whether the open `file` is the file now at `path`.
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

fn output_error(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_claim_cannot_be_taken_and_a_released_one_can() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("run.claim");
        let held = Claim::try_take(&path).expect("no error").expect("claimed");
        assert!(path.exists());
        // Locks belong to open files: a second open, even in this process, is another worker.
        assert!(Claim::try_take(&path).expect("no error").is_none());
        drop(held);
        assert!(!path.exists());
        assert!(Claim::try_take(&path).expect("no error").is_some());
    }

    #[test]
    fn a_claim_left_by_a_dead_worker_is_taken_over() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("run.claim");
        // A claim file whose lock died with its process: the file is there, unlocked.
        fs::write(&path, "host elsewhere\nprocess 1\n").expect("written");
        let claim = Claim::try_take(&path)
            .expect("no error")
            .expect("taken over");
        let text = fs::read_to_string(&path).expect("readable");
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        drop(claim);
    }
}
