//! The problem the front is computed for ([`ParetoProblem`]), and the two-class view of the
//! data it needs ([`binary_data`]: the positive class second, the others together first).

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::tree::MAX_DEPTH;

/// Every tree of depth at most `depth` (and at most `max_splits` split nodes) whose splits are
/// `x_j <= t` with `t` a candidate threshold of feature `j`, each leaf predicting either class;
/// a tree is scored by its false positives and false negatives on two-class data whose class 1
/// is the positive one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParetoProblem {
    /// Number of split levels, `1..=`[`MAX_DEPTH`].
    pub depth: usize,
    /// At most this many split nodes (`None`: only the depth limits them).
    pub max_splits: Option<usize>,
    /// Which midpoints are candidate thresholds (computed once on the whole data).
    pub thresholds: ThresholdMode,
}

impl ParetoProblem {
    /// Depth `depth`, no split limit, every midpoint a candidate.
    pub fn new(depth: usize) -> ParetoProblem {
        ParetoProblem {
            depth,
            max_splits: None,
            thresholds: ThresholdMode::All,
        }
    }

    /// Checks the problem against `data`: a depth in range, two classes, and a size the search
    /// represents.
    pub fn check(&self, data: &Dataset) -> Result<()> {
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return Err(Error::parameter(
                "--depth",
                format!(
                    "{} is not between 1 and {MAX_DEPTH} (the deepest tree milptree represents)",
                    self.depth
                ),
            ));
        }
        if data.n_classes() != 2 {
            return Err(Error::input(
                data.source(),
                format!(
                    "the front of false positives and false negatives needs two classes, the \
                     data has {} (name the positive class with --positive-class)",
                    data.n_classes()
                ),
            ));
        }
        if u32::try_from(data.n_rows()).is_err() {
            return Err(Error::input(
                data.source(),
                format!("{} rows: the search handles fewer than 2^32", data.n_rows()),
            ));
        }
        Ok(())
    }
}

fn class_list(data: &Dataset) -> String {
    data.classes()
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `data` as two classes with the positive one second (index 1), as the front's counts assume:
/// with more than two classes, `positive` against the rest (`not <positive>`, which must then
/// be named); with two, the classes swapped when `positive` is the first one; otherwise as it
/// is (the second class is positive, scikit-learn's convention).
pub fn binary_data(data: &Dataset, positive: Option<&str>) -> Result<Dataset> {
    let k = data.n_classes();
    if k < 2 {
        return Err(Error::input(
            data.source(),
            format!(
                "two classes are needed, the data has {k} ({})",
                class_list(data)
            ),
        ));
    }
    let Some(label) = positive else {
        if k == 2 {
            return Ok(data.clone());
        }
        return Err(Error::parameter(
            "--positive-class",
            format!(
                "the data has {k} classes ({}): name the positive class, the others are then \
                 counted together as `not <class>`",
                class_list(data)
            ),
        ));
    };
    let Some(index) = data.classes().iter().position(|c| c == label) else {
        return Err(Error::parameter(
            "--positive-class",
            format!(
                "`{label}` is not a class of the data; the classes are {}",
                class_list(data)
            ),
        ));
    };
    if k == 2 && index == 1 {
        return Ok(data.clone());
    }
    let negative = if k == 2 {
        data.classes()[1 - index].clone()
    } else {
        format!("not {label}")
    };
    let labels = data
        .labels()
        .iter()
        .map(|&l| usize::from(l == index))
        .collect();
    data.relabelled(vec![negative, label.to_string()], labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three_classes() -> Dataset {
        Dataset::from_parts(
            "t",
            vec!["x".into()],
            vec!["a".into(), "b".into(), "c".into()],
            vec![vec![1.0], vec![2.0], vec![3.0], vec![4.0]],
            vec![0, 1, 2, 1],
        )
        .expect("valid")
    }

    #[test]
    fn the_positive_class_ends_up_second() {
        let data = three_classes();
        let binary = binary_data(&data, Some("b")).expect("b is a class");
        assert_eq!(binary.classes(), ["not b", "b"]);
        assert_eq!(binary.labels(), [0, 1, 0, 1]);
        assert!(binary_data(&data, None).is_err());
        assert!(binary_data(&data, Some("z")).is_err());
        let two = binary_data(&data, Some("a"))
            .and_then(|d| binary_data(&d, Some("not a")))
            .expect("two classes");
        assert_eq!(two.classes(), ["a", "not a"]);
        assert_eq!(two.labels(), [0, 1, 1, 1]);
    }
}
