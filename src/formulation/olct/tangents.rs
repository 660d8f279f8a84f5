//! The piecewise-linear underestimator of the logistic loss `f(u) = log(1 + exp(-u))`: the
//! pointwise maximum of its tangent lines at the points of one of the paper's sets
//!
//! ```text
//! V0 = {0, +-inf}, V1 = V0 + {+-1.9}, V2 = V1 + {+-0.89, +-3.55},
//! V3 = V2 + {+-0.44, +-1.37, +-2.63, +-5.16}.
//! ```
//!
//! The tangent at `v` is `f(v) + f'(v) (u - v)`; at `+inf` it is the asymptote `0`, at `-inf`
//! the asymptote `-u`. `f` is convex, so each line, and their maximum, lies below `f`.

use std::fmt;

use crate::error::{Error, Result};
use crate::greedy::logistic_regression::{logistic_loss, logistic_loss_slope};

/// A set of tangent points, `V0` (the default) to `V3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TangentSet {
    #[default]
    V0,
    V1,
    V2,
    V3,
}

/// Where a tangent line touches the loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TangentPoint {
    Finite(f64),
    /// The asymptote `0` at `u -> +inf`.
    PlusInfinity,
    /// The asymptote `-u` at `u -> -inf`.
    MinusInfinity,
}

/// A tangent line `intercept + slope * u` of the logistic loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TangentLine {
    pub point: TangentPoint,
    pub intercept: f64,
    pub slope: f64,
}

impl TangentLine {
    /// The tangent at `point`.
    pub fn at(point: TangentPoint) -> TangentLine {
        match point {
            TangentPoint::Finite(v) => {
                let slope = logistic_loss_slope(v);
                TangentLine {
                    point,
                    intercept: logistic_loss(v) - slope * v,
                    slope,
                }
            }
            TangentPoint::PlusInfinity => TangentLine {
                point,
                intercept: 0.0,
                slope: 0.0,
            },
            TangentPoint::MinusInfinity => TangentLine {
                point,
                intercept: 0.0,
                slope: -1.0,
            },
        }
    }

    /// The line's value at margin `u`.
    pub fn value(&self, u: f64) -> f64 {
        self.intercept + self.slope * u
    }
}

impl fmt::Display for TangentPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TangentPoint::Finite(v) => write!(f, "{v}"),
            TangentPoint::PlusInfinity => f.write_str("+inf"),
            TangentPoint::MinusInfinity => f.write_str("-inf"),
        }
    }
}

impl TangentSet {
    /// The set numbered `index` (0 to 3), as the paper numbers them.
    pub fn from_index(index: usize) -> Result<TangentSet> {
        match index {
            0 => Ok(TangentSet::V0),
            1 => Ok(TangentSet::V1),
            2 => Ok(TangentSet::V2),
            3 => Ok(TangentSet::V3),
            _ => Err(Error::parameter(
                "--tangents",
                format!("{index} is not a tangent set: use 0, 1, 2 or 3 (V0 to V3)"),
            )),
        }
    }

    /// The set's number (0 to 3).
    pub fn index(&self) -> usize {
        match self {
            TangentSet::V0 => 0,
            TangentSet::V1 => 1,
            TangentSet::V2 => 2,
            TangentSet::V3 => 3,
        }
    }

    /// The finite tangent points, in increasing order.
    pub fn finite_points(&self) -> Vec<f64> {
        let magnitudes: &[f64] = match self {
            TangentSet::V0 => &[],
            TangentSet::V1 => &[1.9],
            TangentSet::V2 => &[0.89, 1.9, 3.55],
            TangentSet::V3 => &[0.44, 0.89, 1.37, 1.9, 2.63, 3.55, 5.16],
        };
        let mut points: Vec<f64> = magnitudes.iter().rev().map(|m| -m).collect();
        points.push(0.0);
        points.extend_from_slice(magnitudes);
        points
    }

    /// Every tangent line: the asymptote at `-inf`, the finite points in increasing order, and
    /// the asymptote at `+inf`.
    pub fn lines(&self) -> Vec<TangentLine> {
        std::iter::once(TangentPoint::MinusInfinity)
            .chain(self.finite_points().into_iter().map(TangentPoint::Finite))
            .chain(std::iter::once(TangentPoint::PlusInfinity))
            .map(TangentLine::at)
            .collect()
    }

    /// The underestimator at margin `u`: the largest tangent line there.
    pub fn surrogate(&self, u: f64) -> f64 {
        surrogate_of(&self.lines(), u)
    }
}

/// The largest of `lines` at `u`.
pub fn surrogate_of(lines: &[TangentLine], u: f64) -> f64 {
    lines
        .iter()
        .map(|line| line.value(u))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Written as `V0`..`V3`; read from that or from the number 0..3.
impl serde::Serialize for TangentSet {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TangentSet {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Given {
            Index(u64),
            Name(String),
        }
        let index = match Given::deserialize(deserializer)? {
            Given::Index(index) => usize::try_from(index).unwrap_or(usize::MAX),
            Given::Name(name) => name
                .strip_prefix('V')
                .or_else(|| name.strip_prefix('v'))
                .unwrap_or(&name)
                .parse()
                .unwrap_or(usize::MAX),
        };
        TangentSet::from_index(index).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for TangentSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "V{}", self.index())
    }
}
