//! The metrics of a binary classifier that a (false positives, false negatives) pair decides
//! once the class sizes are known ([`Metric`], [`Confusion`]).
//!
//! Every one of them is non-increasing in false positives and in false negatives (checked
//! exhaustively on small class sizes by the tests below), so its best value over all trees is
//! reached on the Pareto front of (FP, FN): a tree off the front is weakly dominated by one on
//! it, which scores at least as well.
//!
//! Definitions, with `TP = P - FN` and `TN = N - FP` for `P` positive and `N` negative rows,
//! and 0 for a ratio whose denominator is 0 (scikit-learn's conventions):
//! - accuracy `(TP + TN) / (P + N)`;
//! - balanced accuracy `(TP / P + TN / N) / 2` (the mean recall of the classes present);
//! - F1 `2 TP / (2 TP + FP + FN)`;
//! - Matthews correlation `(TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))`;
//! - Fowlkes-Mallows `TP / sqrt((TP + FP)(TP + FN))` (geometric mean of precision and recall).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::score::{ClassUnits, Errors, Point};

/// A metric of a binary classifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    Accuracy,
    BalancedAccuracy,
    F1,
    Mcc,
    FowlkesMallows,
}

impl Metric {
    /// Every metric, in the order reports list them.
    pub const ALL: [Metric; 5] = [
        Metric::Accuracy,
        Metric::BalancedAccuracy,
        Metric::F1,
        Metric::Mcc,
        Metric::FowlkesMallows,
    ];

    /// The name in files and on the command line (`f1`, `mcc`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Metric::Accuracy => "accuracy",
            Metric::BalancedAccuracy => "balanced-accuracy",
            Metric::F1 => "f1",
            Metric::Mcc => "mcc",
            Metric::FowlkesMallows => "fowlkes-mallows",
        }
    }

    /// The name as a CSV column or JSON key (`balanced_accuracy`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Metric::Accuracy => "accuracy",
            Metric::BalancedAccuracy => "balanced_accuracy",
            Metric::F1 => "f1",
            Metric::Mcc => "mcc",
            Metric::FowlkesMallows => "fowlkes_mallows",
        }
    }

    /// The value of the metric for `confusion`.
    pub fn value(self, confusion: Confusion) -> f64 {
        let Confusion { tp, fp, fn_, tn } = confusion;
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        match self {
            Metric::Accuracy => ratio(tp + tn, tp + fp + fn_ + tn),
            Metric::BalancedAccuracy => {
                let recalls: Vec<f64> = [(tp, tp + fn_), (tn, tn + fp)]
                    .into_iter()
                    .filter(|&(_, support)| support > 0.0)
                    .map(|(hit, support)| hit / support)
                    .collect();
                ratio(recalls.iter().sum(), recalls.len() as f64)
            }
            Metric::F1 => ratio(2.0 * tp, 2.0 * tp + fp + fn_),
            Metric::Mcc => ratio(
                tp * tn - fp * fn_,
                ((tp + fp) * (tp + fn_) * (tn + fp) * (tn + fn_)).sqrt(),
            ),
            Metric::FowlkesMallows => ratio(tp, ((tp + fp) * (tp + fn_)).sqrt()),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = Error;
    fn from_str(text: &str) -> Result<Metric> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name() == text || m.key() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
                Error::parameter(
                    "metric",
                    format!("`{text}` is not one of: {}", names.join(", ")),
                )
            })
    }
}

/// The confusion counts of a binary classifier: rows, or their weights.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Confusion {
    pub tp: f64,
    pub fp: f64,
    #[serde(rename = "fn")]
    pub fn_: f64,
    pub tn: f64,
}

impl Confusion {
    /// The counts of a classifier making the errors `point` on `positives` positive and
    /// `negatives` negative rows.
    pub fn of(point: Point, positives: u64, negatives: u64) -> Confusion {
        let (fp, fn_) = (u64::from(point.fp), u64::from(point.fn_));
        Confusion {
            tp: positives.saturating_sub(fn_) as f64,
            fp: fp as f64,
            fn_: fn_ as f64,
            tn: negatives.saturating_sub(fp) as f64,
        }
    }

    /// These counts with each class's rows weighing its unit: positives (TP, FN) times
    /// `units.positive`, negatives (FP, TN) times `units.negative`.
    pub fn scaled(self, units: ClassUnits) -> Confusion {
        Confusion {
            tp: self.tp * units.positive,
            fp: self.fp * units.negative,
            fn_: self.fn_ * units.positive,
            tn: self.tn * units.negative,
        }
    }

    /// The counts from predicted and actual classes (`positive` is the positive class's index).
    pub fn from_predictions(predicted: &[usize], actual: &[usize], positive: usize) -> Confusion {
        Confusion::weighted(predicted, actual, None, positive)
    }

    /// The weights from predicted and actual classes, row `i` weighing `weights[i]` (1 without
    /// weights; `positive` is the positive class's index).
    pub fn weighted(
        predicted: &[usize],
        actual: &[usize],
        weights: Option<&[f64]>,
        positive: usize,
    ) -> Confusion {
        let mut confusion = Confusion::default();
        for (i, (&p, &a)) in predicted.iter().zip(actual).enumerate() {
            let weight = weights.map_or(1.0, |w| w[i]);
            match (p == positive, a == positive) {
                (true, true) => confusion.tp += weight,
                (true, false) => confusion.fp += weight,
                (false, true) => confusion.fn_ += weight,
                (false, false) => confusion.tn += weight,
            }
        }
        confusion
    }

    /// The errors: false positives and false negatives.
    pub fn errors(self) -> Errors {
        Errors {
            fp: self.fp,
            fn_: self.fn_,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // TP 6, FP 2, FN 3, TN 9.
        let c = Confusion {
            tp: 6.0,
            fp: 2.0,
            fn_: 3.0,
            tn: 9.0,
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(Metric::Accuracy.value(c), 15.0 / 20.0));
        assert!(close(
            Metric::BalancedAccuracy.value(c),
            (6.0 / 9.0 + 9.0 / 11.0) / 2.0
        ));
        assert!(close(Metric::F1.value(c), 12.0 / 17.0));
        assert!(close(
            Metric::Mcc.value(c),
            (54.0 - 6.0) / (8.0f64 * 9.0 * 11.0 * 12.0).sqrt()
        ));
        assert!(close(
            Metric::FowlkesMallows.value(c),
            6.0 / (8.0f64 * 9.0).sqrt()
        ));
        let none_predicted = Confusion::of(Point::new(0, 5), 5, 7);
        assert_eq!(Metric::F1.value(none_predicted), 0.0);
        assert_eq!(Metric::Mcc.value(none_predicted), 0.0);
        assert_eq!(Metric::FowlkesMallows.value(none_predicted), 0.0);
    }

    /// The property the front rests on: more errors of either kind never score better.
    #[test]
    fn every_metric_is_non_increasing_in_both_error_counts() {
        for positives in 0..13u64 {
            for negatives in 0..13u64 {
                for fp in 0..=negatives as u32 {
                    for fn_ in 0..=positives as u32 {
                        let at = |fp, fn_| Confusion::of(Point::new(fp, fn_), positives, negatives);
                        for metric in Metric::ALL {
                            let value = metric.value(at(fp, fn_));
                            if u64::from(fp) < negatives {
                                assert!(metric.value(at(fp + 1, fn_)) <= value + 1e-12);
                            }
                            if u64::from(fn_) < positives {
                                assert!(metric.value(at(fp, fn_ + 1)) <= value + 1e-12);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn names_parse_back() {
        for metric in Metric::ALL {
            assert_eq!(metric.name().parse::<Metric>().ok(), Some(metric));
            assert_eq!(metric.key().parse::<Metric>().ok(), Some(metric));
        }
        assert!("precision".parse::<Metric>().is_err());
    }
}
