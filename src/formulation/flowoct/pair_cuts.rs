//! Pair cuts for FlowOCT (see `formulations/flowoct.md`, *Pair cuts*): two groups of rows of
//! different classes can both be classified correctly only in different leaves, so some split on
//! their common path must separate them. Given a solution of the LP relaxation, finds the pairs
//! whose rows the relaxation classifies correctly together without splits that separate them,
//! and adds the rows that forbid it.

use crate::mip::{Assignment, Expression, RowSense};

use super::model::FlowOctModel;

/// A violated pair cut: group `first` correct as class `first_class` and group `second`
/// correct as class `second_class`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCut {
    pub first: usize,
    pub first_class: usize,
    pub second: usize,
    pub second_class: usize,
    /// By how much the solution violates the cut.
    pub violation: f64,
}

impl FlowOctModel {
    /// The pair cuts `solution` (of the LP relaxation) violates by more than `min_violation`,
    /// most violated first, at most `limit` and at most `per_group` per group.
    pub fn violated_pair_cuts(
        &self,
        solution: &Assignment,
        min_violation: f64,
        limit: usize,
        per_group: usize,
    ) -> Vec<PairCut> {
        let n_groups = self.groups.len();
        let k = self.data.n_classes();
        // correct[g][c]: the flow of group g that leaves as class c.
        let correct: Vec<Vec<f64>> = (0..n_groups)
            .map(|g| {
                (0..k)
                    .map(|c| {
                        self.sink_vars[g]
                            .iter()
                            .filter_map(|by_class| by_class[c])
                            .map(|s| solution.value(s))
                            .sum()
                    })
                    .collect()
            })
            .collect();
        // left[g][i]: the value of the i-th (node, feature) suffix a group follows left.
        let left: Vec<Vec<f64>> = self
            .groups
            .iter()
            .map(|group| {
                self.chains
                    .iter()
                    .flatten()
                    .map(|chain| {
                        chain
                            .left_of(group.bins[chain.feature])
                            .map_or(0.0, |u| solution.value(u))
                    })
                    .collect()
            })
            .collect();
        let best_class = |g: usize| -> Vec<(usize, f64)> {
            let mut classes: Vec<(usize, f64)> = correct[g]
                .iter()
                .enumerate()
                .filter(|&(c, _)| self.groups[g].counts[c] > 0)
                .map(|(c, &v)| (c, v))
                .collect();
            classes.sort_by(|a, b| b.1.total_cmp(&a.1));
            classes.truncate(2);
            classes
        };
        let best: Vec<Vec<(usize, f64)>> = (0..n_groups).map(best_class).collect();
        let mut cuts = Vec::new();
        for g in 0..n_groups {
            for h in g + 1..n_groups {
                // The best pair of different classes.
                let mut top: Option<(usize, usize, f64)> = None;
                for &(a, va) in &best[g] {
                    for &(b, vb) in &best[h] {
                        if a != b && top.is_none_or(|(_, _, v)| va + vb > v) {
                            top = Some((a, b, va + vb));
                        }
                    }
                }
                let Some((a, b, together)) = top else {
                    continue;
                };
                if together <= 1.0 + min_violation {
                    continue;
                }
                let separated: f64 = left[g]
                    .iter()
                    .zip(&left[h])
                    .map(|(x, y)| (x - y).abs())
                    .sum();
                let violation = together - 1.0 - separated;
                if violation > min_violation {
                    cuts.push(PairCut {
                        first: g,
                        first_class: a,
                        second: h,
                        second_class: b,
                        violation,
                    });
                }
            }
        }
        cuts.sort_by(|x, y| y.violation.total_cmp(&x.violation));
        let mut used = vec![0usize; n_groups];
        let mut kept = Vec::new();
        for cut in cuts {
            if kept.len() >= limit {
                break;
            }
            if used[cut.first] < per_group && used[cut.second] < per_group {
                used[cut.first] += 1;
                used[cut.second] += 1;
                kept.push(cut);
            }
        }
        kept
    }

    /// Adds `cuts` as rows of the model.
    pub fn add_pair_cuts(&mut self, cuts: &[PairCut]) {
        for cut in cuts {
            let (g, h) = (cut.first, cut.second);
            let mut together = Expression::default();
            for by_class in &self.sink_vars[g] {
                if let Some(s) = by_class[cut.first_class] {
                    together += s;
                }
            }
            for by_class in &self.sink_vars[h] {
                if let Some(s) = by_class[cut.second_class] {
                    together += s;
                }
            }
            let mut separated = Expression::from(1.0);
            for chain in self.chains.iter().flatten() {
                let (bg, bh) = (
                    self.groups[g].bins[chain.feature],
                    self.groups[h].bins[chain.feature],
                );
                let (low, high) = if bg <= bh { (bg, bh) } else { (bh, bg) };
                if let Some(u) = chain.left_of(low) {
                    separated += u;
                }
                if let Some(u) = chain.left_of(high) {
                    separated -= u;
                }
            }
            self.mip.add_row(
                format!(
                    "pair[g={g},k={},h={h},k={}]",
                    cut.first_class, cut.second_class
                ),
                together,
                RowSense::Le,
                separated,
            );
        }
    }
}
