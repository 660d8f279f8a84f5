//! The column of a `good_lp` variable.
//!
//! A model's columns are its variables in creation order, and `good_lp` numbers the variables
//! of a problem the same way (its `Variable` is nothing but that index), so a variable's column
//! *is* its `good_lp` index: no map is needed. `good_lp` keeps the index private
//! (`Variable::index` is `pub(super)`), but `Variable` derives `Hash`, which writes exactly that
//! one `usize`; [`index_of`] reads it with a [`Hasher`] that records what it is given. The
//! test below holds this against `good_lp`'s documented debug naming (`v0`, `v1`, ...), so a
//! `good_lp` that changed either would be caught.

use std::hash::{Hash, Hasher};

use good_lp::Variable;

/// A hasher that keeps the one `usize` it is fed, and nothing when fed anything else.
#[derive(Default)]
struct IndexCapture {
    index: Option<usize>,
    other: bool,
}

impl Hasher for IndexCapture {
    fn finish(&self) -> u64 {
        0
    }

    fn write(&mut self, _: &[u8]) {
        self.other = true;
    }

    fn write_usize(&mut self, index: usize) {
        if self.index.replace(index).is_some() {
            self.other = true;
        }
    }
}

/// The `good_lp` index of `variable`: its position among the variables of the problem (here:
/// the model) that created it.
pub(crate) fn index_of(variable: Variable) -> usize {
    let mut capture = IndexCapture::default();
    variable.hash(&mut capture);
    match capture.index {
        Some(index) if !capture.other => index,
        _ => unreachable!("good_lp's Variable hashes as its index and nothing else"),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use good_lp::variable::FormatWithVars;
    use good_lp::{variable, ProblemVariables};

    use super::*;

    /// `good_lp`'s documented debug rendering of a variable: `v` and its index.
    struct Debug(Variable);

    impl fmt::Display for Debug {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.format_debug(f)
        }
    }

    #[test]
    fn a_variable_index_is_its_creation_order_and_its_debug_name() {
        let mut problem = ProblemVariables::new();
        for expected in 0..50 {
            let v = problem.add(variable().min(0.0));
            assert_eq!(index_of(v), expected);
            assert_eq!(Debug(v).to_string(), format!("v{expected}"));
        }
    }
}
