//! The choice of solver: [`SolverKind`] (parsed from `highs` / `cbc`) and its [`Backend`].

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::cbc::Cbc;
use super::highs::Highs;
use super::Backend;
use crate::error::Error;

/// A supported solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// HiGHS, bundled with the `highs-sys` crate.
    Highs,
    /// COIN-OR CBC, the system library (the `cbc` feature; refused by name without it).
    Cbc,
}

impl SolverKind {
    /// Every supported solver.
    pub const ALL: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

    /// `highs` or `cbc`.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Highs => "highs",
            SolverKind::Cbc => "cbc",
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SolverKind {
    type Err = Error;

    fn from_str(text: &str) -> Result<SolverKind, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "highs" => Ok(SolverKind::Highs),
            "cbc" if cfg!(feature = "cbc") => Ok(SolverKind::Cbc),
            "cbc" => Err(cbc_missing()),
            _ => Err(Error::parameter(
                "solver",
                format!("unknown solver `{text}`; expected `highs` or `cbc`"),
            )),
        }
    }
}

/// Why `cbc` is refused by a milptree built without the `cbc` feature, and the remedy.
pub const CBC_MISSING: &str = "CBC is not built into this milptree (the wheel carries HiGHS \
     only); use solver `highs`, or build milptree with CBC: install CBC's development files \
     (Debian/Ubuntu: coinor-libcbc-dev) and run `pip install milptree --no-binary milptree`";

/// Whether this milptree has CBC built in (the `cbc` feature).
pub const CBC_BUILT_IN: bool = cfg!(feature = "cbc");

/// The refusal of `cbc` without the `cbc` feature: [`CBC_MISSING`], about the solver.
pub(crate) fn cbc_missing() -> Error {
    Error::parameter("solver", CBC_MISSING)
}

/// The backend of `kind`.
pub(crate) fn backend(kind: SolverKind) -> Box<dyn Backend> {
    match kind {
        SolverKind::Highs => Box::new(Highs),
        SolverKind::Cbc => Box::new(Cbc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cbc` is a solver when CBC is built in, and refused by name with the remedy otherwise
    /// (`cargo test --no-default-features` tests the refusal).
    #[test]
    fn cbc_is_parsed_only_when_built_in() {
        let parsed = "cbc".parse::<SolverKind>();
        if CBC_BUILT_IN {
            assert_eq!(parsed.unwrap(), SolverKind::Cbc);
        } else {
            let message = parsed.unwrap_err().to_string();
            assert_eq!(message, format!("invalid solver: {CBC_MISSING}"));
            assert!(message.contains("pip install milptree --no-binary milptree"));
        }
        assert_eq!(" HiGHS ".parse::<SolverKind>().unwrap(), SolverKind::Highs);
    }
}
