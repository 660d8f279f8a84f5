//! How numbers are written to model and start files: integers without a decimal point, other
//! values as the shortest decimal that reads back to the same `f64` (exponent notation for very
//! small or large magnitudes), `-0` as `0`, infinities as `inf` / `-inf`.

use std::fmt;

/// Largest magnitude written as an integer literal.
const INTEGER_LIMIT: f64 = 1e15;

/// A number formatted for a file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        if value.is_infinite() {
            write!(f, "{}", if value > 0.0 { "inf" } else { "-inf" })
        } else if value == value.trunc() && value.abs() < INTEGER_LIMIT {
            // Exact: the value is an integer smaller than 2^53.
            write!(f, "{}", value as i64)
        } else {
            // Rust's shortest round-trip representation; exponent form outside 1e-5..1e16.
            write!(f, "{value:?}")
        }
    }
}
