//! Row weights as whole multiples. A row of whole-number weight `w` counts as `w` copies of
//! itself, so a learner that counts rows learns the weighted problem exactly on the copies
//! ([`Dataset::repeated_by_weight`]). A search that prices errors by class weights takes more:
//! weights that are whole multiples of one unit `u_k` per class `k` (scikit-learn's
//! `compute_sample_weight("balanced")`, alone or times whole numbers): a row of weight
//! `w = m u_k` counts as `m` rows and the unit joins its class's cost, since
//! `c_k w = (c_k u_k) m`. The exact search holds each row once with its multiple `m` as a
//! whole-number weight and counts weight ([`Dataset::multiplied_by_class`]); the sparse search
//! and its path, the front of false positives and false negatives (which counts each class's
//! errors in its unit) and the searches under fairness count rows, and run on the rows
//! repeated `m` times ([`Dataset::factored_by_class`]); the epsilon-constraint front takes
//! whole numbers. Other weights are refused, never rounded.

use std::borrow::Cow;

use crate::data::{short_number, Dataset};
use crate::error::{Error, Result};
use crate::setting::{Named, Reason, Setting, SettingError};

/// The most rows the copies may hold (the searches index rows with 32 bits and hold every
/// copy in memory).
pub const MAX_REPEATED_ROWS: f64 = 10_000_000.0;

/// The most the multiples of [`Dataset::multiplied_by_class`] may add up to: the exact search
/// counts weight in 32 bits.
pub const MAX_MULTIPLIED_WEIGHT: f64 = u32::MAX as f64;

/// The largest `d` of a class's unit `u = w_min / d`, `w_min` its least positive weight.
pub const MAX_UNIT_DENOMINATOR: u32 = 1000;

/// How far `w / u` may be from a whole number, relative to it, for `w` to be a multiple of `u`:
/// well above the rounding of a product of a unit and a whole number (a few 1e-16), far below
/// any error a tree could tell.
const MULTIPLE_TOLERANCE: f64 = 1e-12;

/// What the searches take as row weights: the words every refusal ends with.
pub const FACTORED_WEIGHTS: &str = "whole multiples of one unit per class, e.g. scikit-learn's \
    compute_sample_weight('balanced'), alone or times whole numbers";

/// Row weights factored per class ([`Dataset::factored_by_class`],
/// [`Dataset::multiplied_by_class`]).
#[derive(Debug, Clone)]
pub struct Factored<'a> {
    /// The rows the search holds (rows of weight 0 left out; the data itself when it has no
    /// weights): each repeated its weight's number of units, without weights
    /// ([`Dataset::factored_by_class`]), or each once with that number as its weight
    /// ([`Dataset::multiplied_by_class`]).
    pub rows: Cow<'a, Dataset>,
    /// Each class's unit: the weight one copy of its rows stands for (1 without weights, with
    /// whole-number weights, and for a class whose rows all weigh 0).
    pub units: Vec<f64>,
}

impl Factored<'_> {
    /// The class costs `class_weights` (one per class) on the copies: each times its unit, so
    /// that the copies' class-weighted errors are the weighted data's.
    pub fn scaled(&self, class_weights: &[f64]) -> Vec<f64> {
        class_weights
            .iter()
            .zip(&self.units)
            .map(|(cost, unit)| cost * unit)
            .collect()
    }

    /// Whether every unit is 1: the copies count weight (as [`Dataset::repeated_by_weight`]'s).
    pub fn units_are_one(&self) -> bool {
        self.units.iter().all(|&u| u == 1.0)
    }
}

/// Why a class's weights have no unit: two of its rows (the least weight's, and one that is no
/// whole multiple of any unit tried).
struct NoUnit {
    class: usize,
    rows: (usize, usize),
}

/// Whether `weight` is a whole multiple of `unit`, within [`MULTIPLE_TOLERANCE`].
fn is_multiple(weight: f64, unit: f64) -> bool {
    let quotient = weight / unit;
    (quotient - quotient.round()).abs() <= MULTIPLE_TOLERANCE * quotient
}

/// The unit of one class's positive weights (`(row, weight)`): its least weight divided by the
/// least `d` up to [`MAX_UNIT_DENOMINATOR`] of which every weight is a whole multiple; 1 for no
/// weight. `Err` the least weight's row and a row no unit tried divides.
fn class_unit(weights: &[(usize, f64)]) -> std::result::Result<f64, (usize, usize)> {
    let Some(&(least_row, least)) = weights.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Ok(1.0);
    };
    let mut other = least_row;
    for d in 1..=MAX_UNIT_DENOMINATOR {
        let unit = least / f64::from(d);
        if unit == 0.0 {
            // Past the smallest f64 (a least weight near 5e-324): no smaller unit exists.
            break;
        }
        match weights.iter().find(|&&(_, w)| !is_multiple(w, unit)) {
            None => return Ok(unit),
            Some(&(row, _)) => other = row,
        }
    }
    Err((least_row, other))
}

impl Dataset {
    /// Whether [`Dataset::repeated_by_weight`] takes these weights: no weights, or whole-number
    /// weights adding up to at most [`MAX_REPEATED_ROWS`].
    pub fn counts_as_rows(&self) -> bool {
        self.refuses_repeating(&Named::same("")).is_none()
    }

    /// Why the rows cannot be repeated by their weights (a weight that is not a whole number,
    /// or too many copies), as an error naming `--weight-column` and `method`; `None` when they
    /// can. Builds nothing.
    pub fn refuses_repeating(&self, method: &Named) -> Option<Error> {
        let weights = self.weights()?;
        if let Some((row, weight)) = weights.iter().enumerate().find(|(_, w)| w.fract() != 0.0) {
            return Some(weight_error(
                method,
                format!(
                    "takes whole-number row weights only (a row of weight w counts as \
                     w rows), but training row {row} weighs {}; the exact search (--solver \
                     dp, and its front) and the sparse search (additive losses, and its path) \
                     take {FACTORED_WEIGHTS}; CART and the MILP formulations any non-negative \
                     weight",
                    short_number(*weight)
                ),
            ));
        }
        too_many_units(weights.iter().sum(), MAX_REPEATED_ROWS, method)
    }

    /// Each class's unit (see [`Dataset::factored_by_class`]): all 1 when every weight is a
    /// whole number (or there are none).
    fn class_units(&self) -> std::result::Result<Vec<f64>, NoUnit> {
        let k = self.n_classes();
        let Some(weights) = self
            .weights()
            .filter(|w| w.iter().any(|w| w.fract() != 0.0))
        else {
            return Ok(vec![1.0; k]);
        };
        let mut by_class: Vec<Vec<(usize, f64)>> = vec![Vec::new(); k];
        for (row, (&weight, &label)) in weights.iter().zip(self.labels()).enumerate() {
            if weight > 0.0 {
                by_class[label].push((row, weight));
            }
        }
        by_class
            .iter()
            .enumerate()
            .map(|(class, rows)| class_unit(rows).map_err(|rows| NoUnit { class, rows }))
            .collect()
    }

    /// Each row's number of copies under `units`: its weight over its class's unit, rounded
    /// (within [`MULTIPLE_TOLERANCE`] of it by [`Dataset::class_units`]); 1 without weights.
    fn multiples(&self, units: &[f64]) -> Vec<f64> {
        (0..self.n_rows())
            .map(|row| (self.weight(row) / units[self.labels()[row]]).round())
            .collect()
    }

    /// Why the rows cannot be factored by class into copies ([`Dataset::factored_by_class`]): a
    /// class whose weights are no whole multiples of one unit, or too many copies; as an error
    /// naming `--weight-column` and `method`. `None` when they can.
    pub fn refuses_factoring(&self, method: &Named) -> Option<Error> {
        self.factored_units(method, MAX_REPEATED_ROWS).err()
    }

    /// Why the rows cannot be held once each with their multiples
    /// ([`Dataset::multiplied_by_class`]): a class whose weights are no whole multiples of one
    /// unit, or multiples adding up to more than [`MAX_MULTIPLIED_WEIGHT`]; as an error naming
    /// `--weight-column` and `method`. `None` when they can.
    pub fn refuses_multiplying(&self, method: &Named) -> Option<Error> {
        self.factored_units(method, MAX_MULTIPLIED_WEIGHT).err()
    }

    /// Each class's unit, or why the rows cannot be factored: a class without a common unit,
    /// or multiples adding up to more than `most` (the copies' cap, or the count type's).
    fn factored_units(&self, method: &Named, most: f64) -> Result<Vec<f64>> {
        if !self.is_weighted() {
            return Ok(vec![1.0; self.n_classes()]);
        }
        let units = self.class_units().map_err(|NoUnit { class, rows }| {
            weight_error(
                method,
                format!(
                    "takes row weights that are {FACTORED_WEIGHTS} (a row of weight \
                     m*u counts as m rows of cost u), but the weights of class `{}` have no \
                     common unit: training rows {} and {} weigh {} and {} (tried their least \
                     weight divided by 1 to {MAX_UNIT_DENOMINATOR}); weights are never rounded, \
                     and the MILP formulations take any non-negative weight",
                    self.classes()[class],
                    rows.0,
                    rows.1,
                    short_number(self.weight(rows.0)),
                    short_number(self.weight(rows.1)),
                ),
            )
        })?;
        match too_many_units(self.multiples(&units).iter().sum(), most, method) {
            Some(refusal) => Err(refusal),
            None => Ok(units),
        }
    }

    /// The rows factored by class: each class `k` gets a unit `u_k > 0` such that every weight
    /// of its rows is a whole multiple `m u_k` (within a relative 1e-12; whole-number weights
    /// keep the unit 1), and each row is repeated `m` times, without weights (rows of weight 0
    /// left out). Class costs `c_k` on the weighted rows are then `c_k u_k` on the copies
    /// ([`Factored::scaled`]), every class-weighted count of errors the same. `method` names
    /// the learner in the error when the weights do not factor or the copies are too many
    /// ([`Dataset::refuses_factoring`]).
    pub fn factored_by_class(&self, method: &Named) -> Result<Factored<'_>> {
        let units = self.factored_units(method, MAX_REPEATED_ROWS)?;
        if !self.is_weighted() {
            return Ok(Factored {
                rows: Cow::Borrowed(self),
                units,
            });
        }
        let indices: Vec<usize> = self
            .multiples(&units)
            .iter()
            .enumerate()
            .flat_map(|(row, &copies)| std::iter::repeat_n(row, copies as usize))
            .collect();
        Ok(Factored {
            rows: Cow::Owned(self.subset(&indices).without_weights()),
            units,
        })
    }

    /// The rows factored by class as [`Dataset::factored_by_class`] factors them, but each row
    /// held once, its multiple `m` its weight (a whole number; rows of weight 0 left out, and
    /// no weights when every multiple is 1): a learner that counts weight where it counted
    /// rows learns on them what it learns on the copies. `method` names the learner in the
    /// error when the weights do not factor or the multiples add up to more than
    /// [`MAX_MULTIPLIED_WEIGHT`] ([`Dataset::refuses_multiplying`]).
    pub fn multiplied_by_class(&self, method: &Named) -> Result<Factored<'_>> {
        let units = self.factored_units(method, MAX_MULTIPLIED_WEIGHT)?;
        if !self.is_weighted() {
            return Ok(Factored {
                rows: Cow::Borrowed(self),
                units,
            });
        }
        let multiples = self.multiples(&units);
        let kept: Vec<usize> = (0..self.n_rows())
            .filter(|&row| multiples[row] > 0.0)
            .collect();
        let held = self.subset(&kept).without_weights();
        let rows = if kept.iter().all(|&row| multiples[row] == 1.0) {
            held
        } else {
            held.with_weights(kept.iter().map(|&row| multiples[row]).collect())?
        };
        Ok(Factored {
            rows: Cow::Owned(rows),
            units,
        })
    }

    /// Whether a learner that holds the rows repeated by weight meets a leaf minimum of
    /// `min_leaf` rows on this data. `--min-leaf` counts rows (as OCT's model does, every row
    /// whatever its weight): on copies a row of `m` units would count `m` times, so a minimum
    /// above 1 is met on the copies only when each row is one copy.
    pub fn copies_count_leaf_rows(&self, min_leaf: usize) -> bool {
        min_leaf <= 1 || self.copies_count_rows()
    }

    /// Whether the copies of [`Dataset::factored_by_class`] are the rows themselves (no
    /// weights, or every weight its class's unit: every weight 1, or weights that are one
    /// value per class such as balanced ones), so that a count of rows on the copies (a cap on
    /// the rows of a leaf) is one on this data.
    pub fn copies_count_rows(&self) -> bool {
        match self.class_units() {
            Ok(units) => self.multiples(&units).iter().all(|&m| m == 1.0),
            Err(_) => false,
        }
    }

    /// The data with each row repeated its weight's number of times and no weights (rows of
    /// weight 0 are left out); the data itself when it has no weights. `method` names the
    /// learner in the error when a weight is not a whole number or the copies are too many
    /// (both refused with an error naming `--weight-column`, see
    /// [`Dataset::refuses_repeating`]).
    pub fn repeated_by_weight(&self, method: &Named) -> Result<Cow<'_, Dataset>> {
        if let Some(refusal) = self.refuses_repeating(method) {
            return Err(refusal);
        }
        Ok(self.factored_by_class(method)?.rows)
    }
}

/// The refusal of multiples adding up to `units`, more than `most`, naming `method`.
fn too_many_units(units: f64, most: f64, method: &Named) -> Option<Error> {
    (units > most).then(|| {
        weight_error(
            method,
            format!(
                "counts a row of weight w as w rows (w/u rows with a unit u per \
                 class); the weights add up to {} such rows, more than the \
                 {most:e} it holds",
                short_number(units)
            ),
        )
    })
}

/// A refusal of the row weights by `method`, `message` following its name.
fn weight_error(method: &Named, message: String) -> Error {
    SettingError {
        setting: Setting::RowWeights,
        reason: Reason::OfMethod {
            method: method.clone(),
            message,
        },
    }
    .into()
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
            plain
                .repeated_by_weight(&Named::same("x"))
                .expect("no weights"),
            Cow::Borrowed(_)
        ));
        let weighted = data().with_weights(vec![2.0, 0.0, 1.0]).expect("valid");
        let copies = weighted
            .repeated_by_weight(&Named::same("x"))
            .expect("whole");
        assert_eq!(copies.rows(), &[vec![1.0], vec![1.0], vec![3.0]]);
        assert_eq!(copies.labels(), &[0, 0, 0]);
        assert!(!copies.is_weighted());
        let real = data().with_weights(vec![1.5, 1.0, 1.0]).expect("valid");
        let error = real
            .repeated_by_weight(&Named::same("--solver dp"))
            .expect_err("refused");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        assert!(
            text.contains("--weight-column") && text.contains("row 0"),
            "{text}"
        );
    }

    fn three_classes(weights: Vec<f64>) -> Dataset {
        Dataset::from_parts(
            "test",
            vec!["x".into()],
            vec!["a".into(), "b".into(), "c".into()],
            (0..weights.len()).map(|i| vec![i as f64]).collect(),
            (0..weights.len()).map(|i| i % 3).collect(),
        )
        .expect("valid")
        .with_weights(weights)
        .expect("valid")
    }

    #[test]
    fn class_structured_weights_factor_into_units_and_copies() {
        // Class a: 0.4 and 0.8 (unit 0.4); b: 1/3, 2/3 and 1 (unit 1/3); c: 1.5 and 2.5 (unit
        // 0.5, the least divided by 3); a row of weight 0 is left out.
        let data = three_classes(vec![0.4, 1.0 / 3.0, 1.5, 0.8, 2.0 / 3.0, 2.5, 0.0, 1.0]);
        let factored = data.factored_by_class(&Named::same("x")).expect("factors");
        let expected = [0.4, 1.0 / 3.0, 0.5];
        for (unit, expected) in factored.units.iter().zip(expected) {
            assert!((unit - expected).abs() < 1e-15, "{unit} for {expected}");
        }
        let copies = &factored.rows;
        // Multiples 1, 1, 3, 2, 2, 5, 0, 3.
        assert_eq!(copies.n_rows(), 17);
        assert!(!copies.is_weighted());
        // Every class's weight is kept: its copies times its unit.
        let counts = copies.class_counts();
        for (k, total) in data.class_weight_totals().iter().enumerate() {
            let on_copies = counts[k] as f64 * factored.units[k];
            assert!((on_copies - total).abs() < 1e-12, "class {k}");
        }
        assert_eq!(factored.scaled(&[1.0, 2.0, 3.0])[1], 2.0 / 3.0);
        assert!(!data.copies_count_rows());
        // One weight per class (balanced weights): each row is one copy and counts as a row.
        let balanced = three_classes(vec![0.7, 1.9, 1.0 / 7.0, 0.7, 1.9, 1.0 / 7.0]);
        let factored = balanced
            .factored_by_class(&Named::same("x"))
            .expect("factors");
        assert_eq!(factored.rows.n_rows(), 6);
        assert!(balanced.copies_count_rows() && balanced.copies_count_leaf_rows(2));
        // Whole weights keep the unit 1 (the copies count weight).
        let whole = three_classes(vec![2.0, 4.0, 6.0]);
        let factored = whole.factored_by_class(&Named::same("x")).expect("factors");
        assert!(factored.units_are_one());
        assert_eq!(factored.rows.n_rows(), 12);
    }

    #[test]
    fn weights_without_a_common_unit_are_refused_by_name() {
        let data = three_classes(vec![1.0, 1.0, 1.0, std::f64::consts::PI, 1.0, 1.0]);
        let error = data
            .factored_by_class(&Named::same("--solver dp"))
            .expect_err("no unit");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        for needed in [
            "--weight-column",
            "--solver dp",
            "class `a`",
            "rows 0 and 3",
        ] {
            assert!(text.contains(needed), "{needed}: {text}");
        }
        assert!(data.refuses_factoring(&Named::same("x")).is_some() && !data.copies_count_rows());
        // Whole multiples only up to the bound: 1 and 1 + 1/1009 have the unit 1/1009 only.
        let fine = three_classes(vec![1.0, 1.0, 1.0, 1.0 + 1.0 / 1009.0, 1.0, 1.0]);
        assert!(fine.refuses_factoring(&Named::same("x")).is_some());
        let coarse = three_classes(vec![1.0, 1.0, 1.0, 1.0 + 1.0 / 997.0, 1.0, 1.0]);
        assert!(coarse.refuses_factoring(&Named::same("x")).is_none());
        // Too many copies: a unit of 1e-7 on rows of weight 1.
        let many = three_classes(vec![1e-7, 1.0, 1.0, 1.0, 1.0, 1.0]);
        assert!(many.refuses_factoring(&Named::same("x")).is_some());
        // The epsilon-constraint front takes whole numbers only, and says what the searches
        // take.
        let text = three_classes(vec![0.5, 1.0, 1.0])
            .repeated_by_weight(&Named::same("the epsilon-constraint front"))
            .expect_err("not whole")
            .to_string();
        assert!(
            text.contains("whole multiples of one unit per class"),
            "{text}"
        );
    }
}
