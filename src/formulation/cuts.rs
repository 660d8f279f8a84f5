//! Strengthenings a model may take up front (`--cuts`): which ones a formulation is built with.
//! HiGHS has no callback for cuts or lazy rows, so whatever strengthens a model is written into
//! it before the solve.

use serde::{Deserialize, Serialize};

/// The strengthenings added to a model when it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cuts {
    /// The model as published.
    #[default]
    None,
    /// Equivalent points (rows identical on every feature, which every tree routes alike) share
    /// their leaf-assignment variables: the equalities `z[i,t] = z[j,t]` of equivalent rows `i`,
    /// `j`, applied by substitution, so each set of such rows has one set of routing rows.
    EquivalentPoints,
}

impl Cuts {
    /// The name as the command line and the grid file spell it.
    pub fn name(self) -> &'static str {
        match self {
            Cuts::None => "none",
            Cuts::EquivalentPoints => "equivalent-points",
        }
    }
}

impl std::fmt::Display for Cuts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
