//! The objectives of a set of trees without the trees: a [`Profile`] lists each objective value
//! the set reaches, in increasing order, with how many trees reach it (an exact big integer).
//! Two objectives closer than the set's tolerance are one value.

use num_bigint::BigUint;
use num_traits::Zero;

/// Objective values in increasing order, each with its number of trees (never zero).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    entries: Vec<(f64, BigUint)>,
}

impl Profile {
    /// The profile of a single tree of objective `cost`.
    pub fn single(cost: f64) -> Profile {
        Profile {
            entries: vec![(cost, BigUint::from(1u8))],
        }
    }

    /// `(objective, trees)` in increasing objective.
    pub fn entries(&self) -> &[(f64, BigUint)] {
        &self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The least objective, if the set holds a tree.
    pub fn min(&self) -> Option<f64> {
        self.entries.first().map(|(cost, _)| *cost)
    }

    /// Adds `count` trees of objective `cost`, merged with a value within `tolerance`.
    pub fn add(&mut self, cost: f64, count: BigUint, tolerance: f64) {
        if count.is_zero() {
            return;
        }
        let at = self.entries.partition_point(|(c, _)| *c < cost - tolerance);
        match self.entries.get_mut(at) {
            Some((c, n)) if (*c - cost).abs() <= tolerance => *n += count,
            _ => self.entries.insert(at, (cost, count)),
        }
    }

    /// Adds every pair of a tree of `left` and a tree of `right` joined under a split that costs
    /// `extra`, keeping the pairs of objective at most `budget`.
    pub fn add_product(
        &mut self,
        left: &Profile,
        right: &Profile,
        extra: f64,
        budget: f64,
        tolerance: f64,
    ) {
        for (cl, nl) in &left.entries {
            for (cr, nr) in &right.entries {
                let cost = cl + cr + extra;
                if cost > budget + tolerance {
                    // `right` is increasing: the rest cost more.
                    break;
                }
                self.add(cost, nl * nr, tolerance);
            }
        }
    }

    /// The number of trees of objective `cost` (within `tolerance`).
    pub fn count_at(&self, cost: f64, tolerance: f64) -> Option<&BigUint> {
        let at = self.entries.partition_point(|(c, _)| *c < cost - tolerance);
        self.entries
            .get(at)
            .filter(|(c, _)| (*c - cost).abs() <= tolerance)
            .map(|(_, n)| n)
    }

    /// The number of trees of objective at most `budget`.
    pub fn total_upto(&self, budget: f64, tolerance: f64) -> BigUint {
        self.entries
            .iter()
            .take_while(|(c, _)| *c <= budget + tolerance)
            .map(|(_, n)| n)
            .sum()
    }

    /// The profile cut at `budget`.
    pub fn upto(&self, budget: f64, tolerance: f64) -> Profile {
        Profile {
            entries: self
                .entries
                .iter()
                .take_while(|(c, _)| *c <= budget + tolerance)
                .cloned()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_count_pairs_within_the_budget() {
        let mut left = Profile::single(1.0);
        left.add(2.0, BigUint::from(3u8), 1e-9);
        let mut right = Profile::single(0.0);
        right.add(1.0, BigUint::from(2u8), 1e-9);
        let mut joined = Profile::default();
        joined.add_product(&left, &right, 0.5, 3.5, 1e-9);
        // 1+0: 1; 1+1: 2, 2+0: 3 (both 2.5); 2+1 = 3.5: 6.
        let got: Vec<(f64, u32)> = joined
            .entries()
            .iter()
            .map(|(c, n)| (*c, u32::try_from(n.clone()).unwrap()))
            .collect();
        assert_eq!(got, vec![(1.5, 1), (2.5, 5), (3.5, 6)]);
        assert_eq!(joined.total_upto(2.5, 1e-9), BigUint::from(6u8));
        assert_eq!(
            joined.count_at(2.5 + 1e-12, 1e-9),
            Some(&BigUint::from(5u8))
        );
        assert!(joined.count_at(3.0, 1e-9).is_none());
    }
}
