//! A tree's fairness as a key the set's counts carry ([`FairKey`]): what the leaves that predict
//! the positive class add to the groups' counts of the fair search's [`Gauge`], packed in one
//! integer that adds as the counts do, so that a subtree's trees are counted by objective and
//! key and a whole tree's gaps are read from the key at the root.
//!
//! With two groups and one bound the gauge's signature is one integer (`n_1 a_0 - n_0 a_1`),
//! which is the key; otherwise the signature's entries (each a count between 0 and its total
//! over the rows) are the digits of a mixed-radix number, which adds without carries since no
//! tree counts more than the rows hold. A key too large for 128 bits is refused.

use crate::constraints::fairness::Fairness;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::fair::gauge::Gauge;

/// The keys of one dataset's rows under one set of fairness bounds.
#[derive(Debug, Clone)]
pub struct FairKey {
    gauge: Gauge,
    /// The place value of each signature entry (empty when the signature is one integer).
    places: Vec<i128>,
    /// The key each row adds when a leaf predicts it positive.
    row_keys: Vec<i128>,
    /// The positive class.
    pub positive: usize,
}

impl FairKey {
    /// The keys of `fairness` (resolved on `data`) on the rows of `data`, whose weights must be
    /// whole numbers.
    pub fn new(fairness: &Fairness, data: &Dataset) -> Result<FairKey> {
        let weights = crate::fair::whole_weights(data, "the Rashomon set under fairness")?;
        let (gauge, shares) = Gauge::new(fairness, &weights);
        let places = if gauge.dims == 1 {
            Vec::new()
        } else {
            let mut totals = vec![0i128; gauge.dims];
            for share in &shares {
                for &(d, amount) in share {
                    totals[d] += i128::from(amount);
                }
            }
            let mut places = Vec::with_capacity(gauge.dims);
            let mut place: i128 = 1;
            for total in totals {
                places.push(place);
                place = place.checked_mul(total + 1).ok_or_else(|| {
                    Error::parameter(
                        "--group-column",
                        format!(
                            "the groups' counts ({} groups, {} bounds) are too many for the \
                             Rashomon set's fairness keys; bound one gap, or fewer groups",
                            fairness.groups.len(),
                            fairness.bounds().len()
                        ),
                    )
                })?;
            }
            places
        };
        let row_keys = shares
            .iter()
            .map(|share| {
                share
                    .iter()
                    .map(|&(d, amount)| i128::from(amount) * places.get(d).copied().unwrap_or(1))
                    .sum()
            })
            .collect();
        Ok(FairKey {
            gauge,
            places,
            row_keys,
            positive: fairness.positive,
        })
    }

    /// The key of a leaf of `rows` predicting `class`.
    pub fn leaf_key(&self, rows: &[u32], class: usize) -> i128 {
        if class == self.positive {
            rows.iter().map(|&i| self.row_keys[i as usize]).sum()
        } else {
            0
        }
    }

    /// The key row `i` adds when predicted positive.
    pub fn row_key(&self, i: usize) -> i128 {
        self.row_keys[i]
    }

    /// The gauge's signature of `key`.
    fn signature(&self, key: i128) -> Vec<i64> {
        if self.places.is_empty() {
            return vec![key as i64];
        }
        let mut out = vec![0i64; self.places.len()];
        let mut rest = key;
        for d in (0..self.places.len()).rev() {
            out[d] = (rest / self.places[d]) as i64;
            rest %= self.places[d];
        }
        out
    }

    /// Whether a whole tree of key `key` keeps every bound.
    pub fn keeps(&self, key: i128) -> bool {
        self.gauge.keeps(&self.signature(key))
    }

    /// The gap of the first bounded kind of rate of a whole tree of key `key`.
    pub fn gap(&self, key: i128) -> f64 {
        self.gauge.gap(&self.signature(key))
    }

    /// Whether `whole - part` is the key of counts (each entry of `part` at most `whole`'s).
    pub fn covers(&self, whole: i128, part: i128) -> bool {
        if self.places.is_empty() {
            return true;
        }
        let (w, p) = (self.signature(whole), self.signature(part));
        w.iter().zip(&p).all(|(a, b)| b <= a)
    }
}
