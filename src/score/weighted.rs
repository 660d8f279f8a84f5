//! Errors counted in weight ([`Errors`]) and the weight one counted error stands for on each
//! class ([`ClassUnits`]). A search that counts rows repeated by their weights' multiples of
//! one unit per class (see [`crate::data::Dataset::factored_by_class`]) finds points in units;
//! scaling each axis by its class's unit (a positive factor per axis, which keeps Pareto
//! dominance) gives the weighted errors, and the metrics of those are the weighted metrics.
//!
//! Weighted figures are written as JSON numbers that stay integers when they are whole
//! ([`whole_as_integer`]), so that unweighted reports read as before.

use serde::{Deserialize, Serialize, Serializer};

use crate::score::Point;

/// The weight of one counted error on each class: a false positive stands for `negative`, a
/// false negative for `positive` (1 and 1 when rows count as themselves).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClassUnits {
    pub negative: f64,
    pub positive: f64,
}

impl ClassUnits {
    /// Every counted row weighs 1.
    pub const ONE: ClassUnits = ClassUnits {
        negative: 1.0,
        positive: 1.0,
    };

    /// The units of a two-class problem from its per-class units (class 0 negative, class 1
    /// positive); [`ClassUnits::ONE`] for any other number of classes.
    pub fn of(units: &[f64]) -> ClassUnits {
        match units {
            [negative, positive] => ClassUnits {
                negative: *negative,
                positive: *positive,
            },
            _ => ClassUnits::ONE,
        }
    }

    /// The weighted errors of `point`, counted in these units.
    pub fn errors(self, point: Point) -> Errors {
        Errors {
            fp: f64::from(point.fp) * self.negative,
            fn_: f64::from(point.fn_) * self.positive,
        }
    }

    /// Whether both units are 1 (counts are weights).
    pub fn are_one(self) -> bool {
        self == ClassUnits::ONE
    }
}

/// The errors of a classifier in weight: the weight of the negatives predicted positive (`fp`)
/// and of the positives predicted negative (`fn_`); counts of rows without weights.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Errors {
    #[serde(serialize_with = "whole_as_integer")]
    pub fp: f64,
    #[serde(rename = "fn", serialize_with = "whole_as_integer")]
    pub fn_: f64,
}

impl Errors {
    /// Both kinds together.
    pub fn total(self) -> f64 {
        self.fp + self.fn_
    }
}

impl From<Point> for Errors {
    fn from(point: Point) -> Errors {
        ClassUnits::ONE.errors(point)
    }
}

/// The largest whole number written as a JSON integer (every integer up to it is exact in an
/// `f64`).
const LARGEST_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// Writes a whole `value` (within the exact integers) as an integer, any other as a number
/// with a fraction: counts of unweighted rows read `3`, not `3.0`.
pub fn whole_as_integer<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() <= LARGEST_EXACT_INTEGER {
        serializer.serialize_i64(*value as i64)
    } else {
        serializer.serialize_f64(*value)
    }
}

/// [`whole_as_integer`] for an optional value.
pub fn optional_whole_as_integer<S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => whole_as_integer(value, serializer),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_scale_each_axis_and_whole_figures_stay_integers() {
        let units = ClassUnits::of(&[0.5, 2.0 / 3.0]);
        let errors = units.errors(Point::new(3, 6));
        assert_eq!(errors.fp, 1.5);
        assert!((errors.fn_ - 4.0).abs() < 1e-15);
        let text = serde_json::to_string(&Errors { fp: 3.0, fn_: 0.25 }).expect("JSON");
        assert_eq!(text, r#"{"fp":3,"fn":0.25}"#);
        let back: Errors = serde_json::from_str(&text).expect("read back");
        assert_eq!(back, Errors { fp: 3.0, fn_: 0.25 });
        assert!(ClassUnits::of(&[1.0, 1.0, 1.0]).are_one());
    }
}
