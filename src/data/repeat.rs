//! Whole-number row weights as repeated rows: a row of weight `w` counts as `w` copies of
//! itself, so a learner that counts rows learns the weighted problem exactly on the copies.
//! The searches over class counts (the exact search, the sparse search, the front of false
//! positives and false negatives) and CART take row weights this way. Weights that are not whole
//! numbers are refused, never rounded.

use std::borrow::Cow;

use crate::data::Dataset;
use crate::error::{Error, Result};

/// The most rows the copies may hold (the searches index rows with 32 bits and hold every
/// copy in memory).
pub const MAX_REPEATED_ROWS: f64 = 10_000_000.0;

impl Dataset {
    /// Whether [`Dataset::repeated_by_weight`] takes these weights: no weights, or whole-number
    /// weights adding up to at most [`MAX_REPEATED_ROWS`].
    pub fn counts_as_rows(&self) -> bool {
        self.refuses_repeating("").is_none()
    }

    /// Why the rows cannot be repeated by their weights (a weight that is not a whole number,
    /// or too many copies), as an error naming `--weight-column` and `method`; `None` when they
    /// can. Builds nothing.
    pub fn refuses_repeating(&self, method: &str) -> Option<Error> {
        let weights = self.weights()?;
        if let Some((row, weight)) = weights.iter().enumerate().find(|(_, w)| w.fract() != 0.0) {
            return Some(Error::parameter(
                "--weight-column",
                format!(
                    "{method} takes whole-number row weights only (a row of weight w counts as \
                     w rows), but training row {row} weighs {weight}"
                ),
            ));
        }
        let total: f64 = weights.iter().sum();
        (total > MAX_REPEATED_ROWS).then(|| {
            Error::parameter(
                "--weight-column",
                format!(
                    "{method} counts a row of weight w as w rows; the weights add up to {total}, \
                     more than the {MAX_REPEATED_ROWS:e} rows it holds"
                ),
            )
        })
    }

    /// Whether a learner that holds the rows repeated by weight meets a leaf minimum of
    /// `min_leaf` rows on this data. `--min-leaf` counts rows (as OCT's model does, every row
    /// whatever its weight): on copies a row of weight `w` would count `w` times, so a minimum
    /// above 1 is met on the copies only when every weight is 1.
    pub fn copies_count_leaf_rows(&self, min_leaf: usize) -> bool {
        min_leaf <= 1 || self.copies_count_rows()
    }

    /// Whether the copies of [`Dataset::repeated_by_weight`] are the rows themselves (no
    /// weights, or every weight 1), so that a count of rows on the copies (a cap on the rows
    /// of a leaf) is one on this data.
    pub fn copies_count_rows(&self) -> bool {
        self.weights().is_none_or(|w| w.iter().all(|&w| w == 1.0))
    }

    /// The data with each row repeated its weight's number of times and no weights (rows of
    /// weight 0 are left out); the data itself when it has no weights. `method` names the
    /// learner in the error when a weight is not a whole number or the copies are too many
    /// (both refused with an error naming `--weight-column`, see
    /// [`Dataset::refuses_repeating`]).
    pub fn repeated_by_weight(&self, method: &str) -> Result<Cow<'_, Dataset>> {
        let Some(weights) = self.weights() else {
            return Ok(Cow::Borrowed(self));
        };
        if let Some(refusal) = self.refuses_repeating(method) {
            return Err(refusal);
        }
        let indices: Vec<usize> = weights
            .iter()
            .enumerate()
            .flat_map(|(row, &weight)| std::iter::repeat_n(row, weight as usize))
            .collect();
        Ok(Cow::Owned(self.subset(&indices).without_weights()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Dataset {
        Dataset::from_parts(
            "test",
            vec!["x".into()],
            vec!["a".into(), "b".into()],
            vec![vec![1.0], vec![2.0], vec![3.0]],
            vec![0, 1, 0],
        )
        .expect("valid")
    }

    #[test]
    fn whole_weights_repeat_rows_and_others_are_refused() {
        let plain = data();
        assert!(matches!(
            plain.repeated_by_weight("x").expect("no weights"),
            Cow::Borrowed(_)
        ));
        let weighted = data().with_weights(vec![2.0, 0.0, 1.0]).expect("valid");
        let copies = weighted.repeated_by_weight("x").expect("whole");
        assert_eq!(copies.rows(), &[vec![1.0], vec![1.0], vec![3.0]]);
        assert_eq!(copies.labels(), &[0, 0, 0]);
        assert!(!copies.is_weighted());
        let real = data().with_weights(vec![1.5, 1.0, 1.0]).expect("valid");
        let error = real.repeated_by_weight("--solver dp").expect_err("refused");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        assert!(
            text.contains("--weight-column") && text.contains("row 0"),
            "{text}"
        );
    }
}
