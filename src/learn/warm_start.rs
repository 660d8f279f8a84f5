//! Where a run's warm start comes from ([`WarmStartMode`]): the one name used by the command
//! line, the experiment grids, the reports and the run keys.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The warm start of a run.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum WarmStartMode {
    /// No warm start ("cold").
    None,
    /// The method's greedy tree (CART; the greedy logistic tree for OLCT): the default.
    #[default]
    Greedy,
    /// The exact search's tree of the same problem: optimal, or the best it finds within a
    /// tenth of the time limit.
    Dp,
    /// The better of the greedy tree and the exact search's tree within that budget; the
    /// greedy tree when the search's breaks side constraints the search does not take (user
    /// rows) and the greedy tree meets them.
    Best,
}

impl WarmStartMode {
    /// Every mode, cold first.
    pub const ALL: [WarmStartMode; 4] = [
        WarmStartMode::None,
        WarmStartMode::Greedy,
        WarmStartMode::Dp,
        WarmStartMode::Best,
    ];

    /// The modes a grid runs when it names none: cold and greedy.
    pub const DEFAULT_GRID: [WarmStartMode; 2] = [WarmStartMode::None, WarmStartMode::Greedy];

    /// `none`, `greedy`, `dp` or `best`.
    pub fn name(self) -> &'static str {
        match self {
            WarmStartMode::None => "none",
            WarmStartMode::Greedy => "greedy",
            WarmStartMode::Dp => "dp",
            WarmStartMode::Best => "best",
        }
    }

    /// Whether the mode runs the exact search.
    pub fn uses_search(self) -> bool {
        matches!(self, WarmStartMode::Dp | WarmStartMode::Best)
    }
}

impl fmt::Display for WarmStartMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WarmStartMode {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        WarmStartMode::ALL
            .into_iter()
            .find(|mode| mode.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = WarmStartMode::ALL.iter().map(|m| m.name()).collect();
                Error::parameter(
                    "--warm-start",
                    format!("`{text}` is not one of: {}", names.join(", ")),
                )
            })
    }
}
