//! The objectives of a set of trees without the trees: a [`Profile`] lists each objective value
//! the set reaches, in increasing order, with how many trees reach it (an exact big integer).
//! Two objectives closer than the set's tolerance are one value.
//!
//! Under fairness bounds each entry also carries a key ([`crate::rashomon::fair_key`]): what the
//! trees' positive predictions add to the groups' counts, so that a tree's fairness is read at
//! the root from the sum of its subtrees' keys. Entries of one objective are ordered by key;
//! without fairness every key is 0.

use num_bigint::BigUint;
use num_traits::Zero;

/// One entry: an objective, a key, and the number of trees with both (never zero).
pub type Entry = (f64, i128, BigUint);

/// Entries in increasing objective, then key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    entries: Vec<Entry>,
}

impl Profile {
    /// The profile of a single tree of objective `cost` and key `key`.
    pub fn single(cost: f64, key: i128) -> Profile {
        Profile {
            entries: vec![(cost, key, BigUint::from(1u8))],
        }
    }

    /// `(objective, key, trees)` in increasing objective, then key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The least objective, if the set holds a tree.
    pub fn min(&self) -> Option<f64> {
        self.entries.first().map(|(cost, _, _)| *cost)
    }

    /// Where the entry of `cost` (within `tolerance`) and `key` is or would go, and the
    /// objective it is stored under (an entry within `tolerance` lends its own).
    fn locate(&self, cost: f64, key: i128, tolerance: f64) -> (usize, f64) {
        let at = self.entries.partition_point(|e| e.0 < cost - tolerance);
        let cost = match self.entries.get(at) {
            Some(e) if (e.0 - cost).abs() <= tolerance => e.0,
            _ => cost,
        };
        let within = self.entries[at..].partition_point(|e| e.0 == cost && e.1 < key);
        (at + within, cost)
    }

    /// Adds `count` trees of objective `cost` and key `key`, merged with an entry of the key
    /// whose objective is within `tolerance`.
    pub fn add(&mut self, cost: f64, key: i128, count: BigUint, tolerance: f64) {
        if count.is_zero() {
            return;
        }
        let (at, cost) = self.locate(cost, key, tolerance);
        match self.entries.get_mut(at) {
            Some(e) if e.0 == cost && e.1 == key => e.2 += count,
            _ => self.entries.insert(at, (cost, key, count)),
        }
    }

    /// Adds every pair of a tree of `left` and a tree of `right` joined under a split that costs
    /// `extra`, keeping the pairs of objective at most `budget` (their keys add).
    pub fn add_product(
        &mut self,
        left: &Profile,
        right: &Profile,
        extra: f64,
        budget: f64,
        tolerance: f64,
    ) {
        for (cl, kl, nl) in &left.entries {
            for (cr, kr, nr) in &right.entries {
                let cost = cl + cr + extra;
                if cost > budget + tolerance {
                    // `right` is increasing: the rest cost more.
                    break;
                }
                self.add(cost, kl + kr, nl * nr, tolerance);
            }
        }
    }

    /// The number of trees of objective `cost` (within `tolerance`) and key `key`.
    pub fn count_at(&self, cost: f64, key: i128, tolerance: f64) -> Option<&BigUint> {
        let (at, cost) = self.locate(cost, key, tolerance);
        self.entries
            .get(at)
            .filter(|e| e.0 == cost && e.1 == key)
            .map(|e| &e.2)
    }

    /// The number of trees of objective at most `budget` whose key passes `keeps`.
    pub fn total_upto(&self, budget: f64, tolerance: f64, keeps: impl Fn(i128) -> bool) -> BigUint {
        self.entries
            .iter()
            .take_while(|(c, _, _)| *c <= budget + tolerance)
            .filter(|(_, k, _)| keeps(*k))
            .map(|(_, _, n)| n)
            .sum()
    }

    /// The profile cut at `budget`, keeping the entries whose key passes `keeps`.
    pub fn upto(&self, budget: f64, tolerance: f64, keeps: impl Fn(i128) -> bool) -> Profile {
        Profile {
            entries: self
                .entries
                .iter()
                .take_while(|(c, _, _)| *c <= budget + tolerance)
                .filter(|(_, k, _)| keeps(*k))
                .cloned()
                .collect(),
        }
    }

    /// The number of trees of each objective, keys merged, in increasing objective.
    pub fn by_objective(&self) -> Vec<(f64, BigUint)> {
        let mut out: Vec<(f64, BigUint)> = Vec::new();
        for (cost, _, n) in &self.entries {
            match out.last_mut() {
                Some((c, total)) if c == cost => *total += n,
                _ => out.push((*cost, n.clone())),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(profile: &Profile) -> Vec<(f64, i128, u32)> {
        profile
            .entries()
            .iter()
            .map(|(c, k, n)| {
                (
                    (c * 1e6).round() / 1e6,
                    *k,
                    u32::try_from(n.clone()).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn products_count_pairs_within_the_budget() {
        let mut left = Profile::single(1.0, 0);
        left.add(2.0, 0, BigUint::from(3u8), 1e-9);
        let mut right = Profile::single(0.0, 0);
        right.add(1.0, 0, BigUint::from(2u8), 1e-9);
        let mut joined = Profile::default();
        joined.add_product(&left, &right, 0.5, 3.5, 1e-9);
        // 1+0: 1; 1+1: 2, 2+0: 3 (both 2.5); 2+1 = 3.5: 6.
        assert_eq!(small(&joined), vec![(1.5, 0, 1), (2.5, 0, 5), (3.5, 0, 6)]);
        assert_eq!(joined.total_upto(2.5, 1e-9, |_| true), BigUint::from(6u8));
        assert_eq!(
            joined.count_at(2.5 + 1e-12, 0, 1e-9),
            Some(&BigUint::from(5u8))
        );
        assert!(joined.count_at(3.0, 0, 1e-9).is_none());
    }

    #[test]
    fn keys_add_and_keep_entries_of_one_objective_apart() {
        let mut left = Profile::single(1.0, 3);
        left.add(1.0, 0, BigUint::from(2u8), 1e-9);
        let mut right = Profile::single(0.0, 5);
        right.add(1.0 + 1e-12, 0, BigUint::from(1u8), 1e-9);
        let mut joined = Profile::default();
        joined.add_product(&left, &right, 0.0, 10.0, 1e-9);
        // Keys 0 and 3 at 1 with key 5: 5 (2 trees), 8 (1); at 2 with key 0: 0 (2), 3 (1).
        assert_eq!(
            small(&joined),
            vec![(1.0, 5, 2), (1.0, 8, 1), (2.0, 0, 2), (2.0, 3, 1)]
        );
        assert_eq!(joined.count_at(2.0, 3, 1e-9), Some(&BigUint::from(1u8)));
        assert!(joined.count_at(2.0, 5, 1e-9).is_none());
        // Even keys: 8 (1 tree) and 0 (2 trees).
        assert_eq!(
            joined.total_upto(5.0, 1e-9, |k| k % 2 == 0),
            BigUint::from(3u8)
        );
        assert_eq!(
            joined.total_upto(1.5, 1e-9, |k| k % 2 == 0),
            BigUint::from(1u8)
        );
        let merged: Vec<(f64, u32)> = joined
            .by_objective()
            .into_iter()
            .map(|(c, n)| ((c * 1e6).round() / 1e6, u32::try_from(n).unwrap()))
            .collect();
        assert_eq!(merged, vec![(1.0, 3), (2.0, 3)]);
    }
}
