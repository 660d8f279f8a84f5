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
    /// COIN-OR CBC, the system library.
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
            "cbc" => Ok(SolverKind::Cbc),
            _ => Err(Error::parameter(
                "solver",
                format!("unknown solver `{text}`; expected `highs` or `cbc`"),
            )),
        }
    }
}

/// The backend of `kind`.
pub(crate) fn backend(kind: SolverKind) -> Box<dyn Backend> {
    match kind {
        SolverKind::Highs => Box::new(Highs),
        SolverKind::Cbc => Box::new(Cbc),
    }
}
