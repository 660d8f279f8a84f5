//! The one plain-code evaluator used everywhere: confusion matrix, misclassified count,
//! accuracy, balanced accuracy and per-class precision, recall and F1; on two classes, the F1
//! and Matthews correlation of the second class (the positive one, scikit-learn's convention).
//!
//! Conventions (those of scikit-learn): balanced accuracy is the mean recall over the classes
//! present in the true labels; a precision or recall with an empty denominator is 0.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::score::{Confusion, Metric};

/// Precision, recall and F1 of one class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassMetrics {
    pub label: String,
    /// Rows whose true class this is.
    pub support: usize,
    /// Rows predicted as this class.
    pub predicted: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

/// The headline figures that reports carry as `"train"` and `"test"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub rows: usize,
    pub misclassified: usize,
    pub accuracy: f64,
    pub balanced_accuracy: f64,
    /// With two classes: the second class (the positive one of F1 and MCC); `null` otherwise.
    #[serde(default)]
    pub positive_class: Option<String>,
    /// With two classes: F1 of the positive class.
    #[serde(default)]
    pub f1: Option<f64>,
    /// With two classes: Matthews correlation coefficient.
    #[serde(default)]
    pub mcc: Option<f64>,
    /// With row weights: the weight of the misclassified rows (absent without weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted_misclassified: Option<f64>,
    /// With row weights: the weight of the rows predicted right over the total weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted_accuracy: Option<f64>,
}

impl Summary {
    /// The same figures with the weighted ones of `predicted` against `actual` under row
    /// `weights` (none without weights; an accuracy of 0 when every weight is 0).
    pub fn with_row_weights(
        mut self,
        predicted: &[usize],
        actual: &[usize],
        weights: Option<&[f64]>,
    ) -> Summary {
        if let Some(weights) = weights {
            let (mut wrong, mut total) = (0.0, 0.0);
            for ((&p, &a), &w) in predicted.iter().zip(actual).zip(weights) {
                total += w;
                if p != a {
                    wrong += w;
                }
            }
            self.weighted_misclassified = Some(wrong);
            self.weighted_accuracy = Some(if total > 0.0 {
                (total - wrong) / total
            } else {
                0.0
            });
        }
        self
    }
}

/// Everything the evaluator computes for one set of predictions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    pub rows: usize,
    pub misclassified: usize,
    pub accuracy: f64,
    pub balanced_accuracy: f64,
    /// The class labels indexing the confusion matrix.
    pub classes: Vec<String>,
    /// `confusion[true][predicted]` row counts.
    pub confusion: Vec<Vec<usize>>,
    pub per_class: Vec<ClassMetrics>,
}

impl Evaluation {
    /// The headline figures.
    pub fn summary(&self) -> Summary {
        let binary = self.binary();
        Summary {
            rows: self.rows,
            misclassified: self.misclassified,
            accuracy: self.accuracy,
            balanced_accuracy: self.balanced_accuracy,
            positive_class: binary.map(|_| self.classes[1].clone()),
            f1: binary.map(|c| Metric::F1.value(c)),
            mcc: binary.map(|c| Metric::Mcc.value(c)),
            weighted_misclassified: None,
            weighted_accuracy: None,
        }
    }

    /// With two classes, the confusion counts of the second (positive) class.
    pub fn binary(&self) -> Option<Confusion> {
        if self.classes.len() != 2 {
            return None;
        }
        let c = &self.confusion;
        let count = |t: usize, p: usize| c[t][p] as f64;
        Some(Confusion {
            tp: count(1, 1),
            fp: count(0, 1),
            fn_: count(1, 0),
            tn: count(0, 0),
        })
    }
}

fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 {
        0.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// Evaluates `predicted` against `actual` class indices, both indexing `classes`. Fails when
/// they differ in length or hold an index that is not one of `classes`.
pub fn evaluate(predicted: &[usize], actual: &[usize], classes: &[String]) -> Result<Evaluation> {
    if predicted.len() != actual.len() {
        return Err(Error::parameter(
            "predictions",
            format!(
                "{} predictions for {} labelled rows",
                predicted.len(),
                actual.len()
            ),
        ));
    }
    let k = classes.len();
    let outside = |indices: &[usize]| indices.iter().copied().find(|&c| c >= k);
    if let Some((what, class)) = outside(predicted)
        .map(|c| ("prediction", c))
        .or_else(|| outside(actual).map(|c| ("label", c)))
    {
        return Err(Error::parameter(
            "classes",
            format!("a {what} is class {class}, but there are {k} classes"),
        ));
    }
    let mut confusion = vec![vec![0usize; k]; k];
    for (&p, &a) in predicted.iter().zip(actual) {
        confusion[a][p] += 1;
    }
    Ok(from_square_confusion(confusion, classes))
}

/// Computes every figure from a confusion matrix `confusion[true][predicted]` over `classes`.
/// Fails unless the matrix is square with one row and one column per class.
pub fn from_confusion(confusion: Vec<Vec<usize>>, classes: &[String]) -> Result<Evaluation> {
    let k = classes.len();
    if confusion.len() != k || confusion.iter().any(|row| row.len() != k) {
        let shape: Vec<String> = confusion.iter().map(|row| row.len().to_string()).collect();
        return Err(Error::parameter(
            "confusion",
            format!(
                "a confusion matrix over {k} classes needs {k} rows of {k} counts, not rows of \
                 [{}] counts",
                shape.join(", ")
            ),
        ));
    }
    Ok(from_square_confusion(confusion, classes))
}

/// [`from_confusion`] for a matrix known to be `k x k`, `k` the number of classes.
pub(crate) fn from_square_confusion(confusion: Vec<Vec<usize>>, classes: &[String]) -> Evaluation {
    let k = classes.len();
    debug_assert!(confusion.len() == k && confusion.iter().all(|row| row.len() == k));
    let rows: usize = confusion.iter().flatten().sum();
    let correct: usize = (0..k).map(|c| confusion[c][c]).sum();
    let per_class: Vec<ClassMetrics> = (0..k)
        .map(|c| {
            let support: usize = confusion[c].iter().sum();
            let predicted: usize = confusion.iter().map(|row| row[c]).sum();
            let precision = ratio(confusion[c][c], predicted);
            let recall = ratio(confusion[c][c], support);
            let f1 = if precision + recall > 0.0 {
                2.0 * precision * recall / (precision + recall)
            } else {
                0.0
            };
            ClassMetrics {
                label: classes[c].clone(),
                support,
                predicted,
                precision,
                recall,
                f1,
            }
        })
        .collect();
    let present: Vec<&ClassMetrics> = per_class.iter().filter(|m| m.support > 0).collect();
    let balanced_accuracy = if present.is_empty() {
        0.0
    } else {
        present.iter().map(|m| m.recall).sum::<f64>() / present.len() as f64
    };
    Evaluation {
        rows,
        misclassified: rows - correct,
        accuracy: ratio(correct, rows),
        balanced_accuracy,
        classes: classes.to_vec(),
        confusion,
        per_class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("c{i}")).collect()
    }

    #[test]
    fn figures_match_a_hand_computed_example() {
        // true:      0 0 0 0 1 1 2
        // predicted: 0 0 1 2 1 1 1
        let actual = [0, 0, 0, 0, 1, 1, 2];
        let predicted = [0, 0, 1, 2, 1, 1, 1];
        let e = evaluate(&predicted, &actual, &labels(3)).expect("fits");
        assert_eq!(
            e.confusion,
            vec![vec![2, 1, 1], vec![0, 2, 0], vec![0, 1, 0]]
        );
        assert_eq!(e.misclassified, 3);
        assert!((e.accuracy - 4.0 / 7.0).abs() < 1e-15);
        // recalls 0.5, 1, 0 -> balanced 0.5
        assert!((e.balanced_accuracy - 0.5).abs() < 1e-15);
        // class 1: precision 2/4, recall 1, f1 = 2/3
        assert!((e.per_class[1].precision - 0.5).abs() < 1e-15);
        assert!((e.per_class[1].f1 - 2.0 / 3.0).abs() < 1e-15);
        // class 2 never predicted correctly: precision 0 (empty denominator is 0 too)
        assert_eq!(e.per_class[2].precision, 0.0);
        assert_eq!(e.per_class[2].f1, 0.0);
    }

    #[test]
    fn two_classes_report_f1_and_mcc_of_the_second() {
        // true:      0 0 0 1 1 1 1
        // predicted: 0 1 0 1 1 0 1   TP 3, FP 1, FN 1, TN 2
        let e = evaluate(&[0, 1, 0, 1, 1, 0, 1], &[0, 0, 0, 1, 1, 1, 1], &labels(2)).expect("fits");
        let summary = e.summary();
        assert_eq!(summary.positive_class.as_deref(), Some("c1"));
        assert!((summary.f1.expect("two classes") - 6.0 / 8.0).abs() < 1e-15);
        let mcc = (3.0 * 2.0 - 1.0) / (4.0f64 * 4.0 * 3.0 * 3.0).sqrt();
        assert!((summary.mcc.expect("two classes") - mcc).abs() < 1e-15);
        assert_eq!(e.per_class[1].f1, summary.f1.expect("two classes"));
        assert_eq!(
            evaluate(&[0, 1, 2], &[0, 1, 1], &labels(3))
                .expect("fits")
                .summary()
                .f1,
            None
        );
    }

    #[test]
    fn balanced_accuracy_ignores_classes_absent_from_the_truth() {
        let e = evaluate(&[0, 1, 2], &[0, 1, 1], &labels(3)).expect("fits");
        assert!((e.balanced_accuracy - 0.75).abs() < 1e-15);
    }
}
