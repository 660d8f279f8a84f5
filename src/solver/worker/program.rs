//! Which program runs the solver workers: [`worker_program`].

use std::env;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::{Error, Result};

/// The environment variable naming the milptree binary that runs solves.
pub const WORKER_ENV: &str = "MILPTREE_WORKER";

/// The name of the milptree binary.
const BINARY: &str = "milptree";

/// This process's executable, when the milptree command line runs it (whatever its name).
static COMMAND_LINE: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Declares that this process is the milptree command line, so that its own executable runs
/// the solver workers. Called by `milptree`'s `main`.
pub fn workers_run_this_program() {
    COMMAND_LINE.get_or_init(|| env::current_exe().ok());
}

/// The milptree binary that runs solves, the first of:
/// 1. the path in the environment variable `MILPTREE_WORKER`;
/// 2. this process's own executable when it is the milptree command line (see
///    [`workers_run_this_program`]) or is called `milptree`;
/// 3. `milptree` next to this executable, or one directory up: where Cargo puts the binary
///    for the test programs it builds in `target/<profile>/deps/`.
pub fn worker_program() -> Result<PathBuf> {
    if let Some(path) = env::var_os(WORKER_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    if let Some(Some(path)) = COMMAND_LINE.get() {
        return Ok(path.clone());
    }
    let current = env::current_exe().map_err(|e| not_found(&format!("({e})")))?;
    if is_milptree(&current) {
        return Ok(current);
    }
    let directory = current.parent();
    directory
        .into_iter()
        .chain(directory.and_then(Path::parent))
        .map(|dir| dir.join(format!("{BINARY}{}", env::consts::EXE_SUFFIX)))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| not_found(&format!("(this program is {})", current.display())))
}

fn is_milptree(path: &Path) -> bool {
    path.file_stem().is_some_and(|stem| stem == BINARY)
}

fn not_found(detail: &str) -> Error {
    Error::Solver {
        solver: "worker".to_string(),
        message: format!(
            "HiGHS and CBC solves run in a milptree child process, and no milptree binary was \
             found {detail}: set {WORKER_ENV} to its path"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_the_milptree_binary() {
        assert!(is_milptree(Path::new("/x/target/release/milptree")));
        assert!(!is_milptree(Path::new(
            "/x/target/debug/deps/milptree-0a1b2c"
        )));
        assert!(!is_milptree(Path::new("/x/target/debug/deps/it-0a1b2c")));
    }
}
