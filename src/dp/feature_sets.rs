//! The exact search under constraints on the features a tree uses ([`FeatureRule`]): features
//! it may not use at all, at most `K` distinct features, their summed cost within a budget,
//! and rows over the features used whose weights are not negative ([`FeatureRow`]; a MILP's
//! user rows over its `used[j=..]` indicators).
//!
//! A tree that splits on none of a set of features is a tree over the others, so the search
//! over the data without those columns is exact for it ([`KeptFeatures`]). Under a count or a
//! budget, every tree allowed uses a feature set the rule allows, and so lies within one of
//! the inclusion-largest sets the rule allows; the optimum is the best of the searches over
//! those sets ([`solve_under`]). The search over every allowed feature comes first: its lower
//! bound holds for every set, so its tree ends the search when it meets the rule and is
//! proven optimal, and the sets stop as soon as one reaches that bound. Trees are returned
//! over the data's own features. The rule's `depths` (where each feature may split) hold in
//! every one of these searches ([`super::solve_at_levels`]). On the copies of data with missing
//! values, the rule stays over the original features ([`FeatureRule::origin`]).

use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::search_core::{Progress as DpProgress, ProgressSink, Termination as DpTermination};
use crate::tree::kept_features::KeptFeatures;
use crate::tree::{NodeKind, Split, Tree};

use super::{DpOptions, DpOutcome, DpProblem, DpStats};

/// The most feature sets [`solve_under`] searches one by one.
pub const MAX_FEATURE_SETS: usize = 100_000;

/// Constraints on the features a tree uses, over the data's features.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FeatureRule {
    /// Whether each feature is forbidden (a feature beyond the list is allowed).
    pub forbidden: Vec<bool>,
    /// At most this many distinct features.
    pub max_features: Option<usize>,
    /// The cost of each feature (0 beyond the list).
    pub costs: Vec<f64>,
    /// The summed cost of the distinct features used is at most this.
    pub budget: Option<f64>,
    /// Rows over the distinct features used, each met by the tree.
    pub rows: Vec<FeatureRow>,
    /// The depths (root 0) at which each feature may split (`None`, or a feature beyond the
    /// list: every depth); every search under the rule keeps to them.
    pub depths: Vec<Option<Vec<usize>>>,
    /// The rule's feature each feature of the searched data stands for (empty: the same
    /// index): the fields above are over the rule's features, and the two copies of a feature
    /// with missing values ([`crate::tree::missing_copies`]) are one feature to the rule, both
    /// forbidden, counted and costed once, at the same depths.
    pub origin: Vec<usize>,
}

/// A row over the features a tree uses: the summed weights of its distinct features at most
/// `limit`. The weights are not negative, so a set the row allows allows each of its subsets,
/// as a count and a budget do.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureRow {
    /// The weight of each feature (0 beyond the list), each at least 0.
    pub weights: Vec<f64>,
    /// The largest summed weight allowed (tolerance included).
    pub limit: f64,
}

impl FeatureRow {
    fn admits(&self, set: &[usize]) -> bool {
        let sum: f64 = set
            .iter()
            .map(|&j| self.weights.get(j).copied().unwrap_or(0.0))
            .sum();
        sum <= self.limit
    }
}

impl FeatureRule {
    /// The rule's feature that feature `j` of the searched data stands for.
    fn origin_of(&self, j: usize) -> usize {
        self.origin.get(j).copied().unwrap_or(j)
    }

    /// The rule's features of the searched features `used`, sorted and distinct.
    fn origins_of(&self, used: &[usize]) -> Vec<usize> {
        let mut origins: Vec<usize> = used.iter().map(|&j| self.origin_of(j)).collect();
        origins.sort_unstable();
        origins.dedup();
        origins
    }

    /// The number of the rule's features behind `n` searched features.
    fn rule_features(&self, n: usize) -> usize {
        match self.origin.iter().max() {
            Some(&most) => most + 1,
            None => n,
        }
    }

    /// Whether each of the `n` searched features is forbidden.
    pub fn forbidden_over(&self, n: usize) -> Vec<bool> {
        (0..n).map(|j| !self.allowed(self.origin_of(j))).collect()
    }

    /// The depths at which each of the `n` searched features may split.
    pub fn depths_over(&self, n: usize) -> Vec<Option<Vec<usize>>> {
        (0..n)
            .map(|j| self.depths.get(self.origin_of(j)).cloned().flatten())
            .collect()
    }

    fn allowed(&self, j: usize) -> bool {
        !self.forbidden.get(j).copied().unwrap_or(false)
    }

    fn cost(&self, j: usize) -> f64 {
        self.costs.get(j).copied().unwrap_or(0.0)
    }

    /// Whether the distinct features `set` fit the count, the budget (with the tolerance the
    /// plain evaluation of side constraints gives it) and the rows.
    fn fits(&self, set: &[usize]) -> bool {
        let cost: f64 = set.iter().map(|&j| self.cost(j)).sum();
        self.max_features.is_none_or(|k| set.len() <= k)
            && self
                .budget
                .is_none_or(|b| cost <= b + 1e-9 * b.abs().max(1.0))
            && self.rows.iter().all(|row| row.admits(set))
    }

    /// Whether a tree's distinct features `used` meet the rule.
    fn admits(&self, used: &[usize]) -> bool {
        used.iter().all(|&j| self.allowed(j)) && self.fits(used)
    }

    /// Whether the distinct features `tree` (over the searched data) splits on meet the rule.
    pub fn admits_tree(&self, tree: &Tree) -> bool {
        self.admits(&self.origins_of(&features_used(tree)))
    }

    /// Whether the rule limits the features beyond forbidding some.
    pub fn binding(&self) -> bool {
        self.max_features.is_some() || self.budget.is_some() || !self.rows.is_empty()
    }

    /// Whether some tree meets the rule: the single leaf, which uses no feature, does.
    pub fn satisfiable(&self) -> bool {
        self.fits(&[])
    }

    /// The inclusion-largest sets of allowed features within the count and the budget, over
    /// `n` features, in lexicographic order; an error past [`MAX_FEATURE_SETS`].
    pub fn feature_sets(&self, n: usize) -> Result<Vec<Vec<usize>>> {
        let candidates: Vec<usize> = (0..n)
            .filter(|&j| self.allowed(j) && self.fits(&[j]))
            .collect();
        let mut sets = Vec::new();
        let mut chosen = Vec::new();
        let mut visits = 0usize;
        self.walk(&candidates, 0, &mut chosen, &mut sets, &mut visits)?;
        Ok(sets)
    }

    fn walk(
        &self,
        candidates: &[usize],
        i: usize,
        chosen: &mut Vec<usize>,
        sets: &mut Vec<Vec<usize>>,
        visits: &mut usize,
    ) -> Result<()> {
        *visits += 1;
        if sets.len() > MAX_FEATURE_SETS || *visits > 64 * MAX_FEATURE_SETS {
            return Err(Error::parameter(
                "--constraints",
                format!(
                    "max_features, budget and rows over the features used allow more than \
                     {MAX_FEATURE_SETS} feature sets here; the exact search searches each one \
                     (the MILP formulations take them)"
                ),
            ));
        }
        let Some(&j) = candidates.get(i) else {
            // Largest: no candidate left out can join.
            let largest = candidates
                .iter()
                .filter(|j| !chosen.contains(j))
                .all(|&j| !self.fits_with(chosen, j));
            if largest {
                sets.push(chosen.clone());
            }
            return Ok(());
        };
        if self.fits_with(chosen, j) {
            chosen.push(j);
            self.walk(candidates, i + 1, chosen, sets, visits)?;
            chosen.pop();
        }
        self.walk(candidates, i + 1, chosen, sets, visits)
    }

    /// Whether `chosen` with `j` fits the rule.
    fn fits_with(&self, chosen: &[usize], j: usize) -> bool {
        let mut set = chosen.to_vec();
        set.push(j);
        self.fits(&set)
    }
}

/// The distinct features a tree splits on (axis-aligned splits).
fn features_used(tree: &Tree) -> Vec<usize> {
    let mut used: Vec<usize> = tree
        .nodes()
        .filter_map(|(_, node)| match &node.kind {
            NodeKind::Split(Split::Axis { feature, .. }) => Some(*feature),
            _ => None,
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// A search under a [`FeatureRule`]: its outcome (the tree over the data's features) and the
/// feature sets searched one by one (0 without a count or budget).
#[derive(Debug, Clone)]
pub struct RuledOutcome {
    pub outcome: DpOutcome,
    pub feature_sets: usize,
}

/// The search of `problem` on `data` without the features `dropped`, each kept feature `j`
/// splitting only at the depths `depths[j]`, its tree over every feature of `data`.
fn solve_without(
    data: &Dataset,
    problem: &DpProblem,
    (dropped, depths): (&[bool], &[Option<Vec<usize>>]),
    options: &DpOptions,
) -> Result<DpOutcome> {
    if !dropped.iter().any(|&d| d) {
        return super::solve_at_levels(data, problem, depths, options);
    }
    let kept = KeptFeatures::of(data, dropped)?;
    let kept_depths: Vec<Option<Vec<usize>>> = (0..data.n_features())
        .filter(|&j| !dropped.get(j).copied().unwrap_or(false))
        .map(|j| depths.get(j).cloned().flatten())
        .collect();
    let mut found = super::solve_at_levels(kept.data(), problem, &kept_depths, options)?;
    found.tree = kept.original_tree(&found.tree, data)?;
    Ok(found)
}

/// The optimal tree of `problem` on `data` under `rule` (see the module documentation), or
/// the best within the limits of `options`, with a lower bound that holds for every tree the
/// rule allows.
pub fn solve_under(
    data: &Dataset,
    problem: &DpProblem,
    rule: &FeatureRule,
    options: &DpOptions,
) -> Result<RuledOutcome> {
    if !rule.satisfiable() {
        return Err(Error::parameter(
            "--constraints",
            "the rows over the features used exclude even the single leaf: no tree meets them",
        ));
    }
    let n = data.n_features();
    let forbidden = rule.forbidden_over(n);
    let depths = rule.depths_over(n);
    let binding = rule.binding();
    let free = solve_without(data, problem, (&forbidden, &depths), options)?;
    if !binding || (free.is_optimal() && rule.admits_tree(&free.tree)) {
        return Ok(RuledOutcome {
            outcome: free,
            feature_sets: 0,
        });
    }
    let sets = rule.feature_sets(rule.rule_features(n))?;
    let start = Instant::now();
    let elapsed_before = free.seconds;
    let tol = 1e-9 * free.objective.abs().max(1.0);
    let floor = free.lower_bound;
    let mut stats = free.stats.clone();
    let publish = |best: f64, bound: f64| options.progress.publish(best, bound);
    let mut best: Option<DpOutcome> = rule.admits_tree(&free.tree).then(|| free.clone());
    let mut least_bound = f64::INFINITY;
    let mut searched = 0;
    let mut stopped = None;
    for set in &sets {
        if best.as_ref().is_some_and(|b| b.objective <= floor + tol) {
            break;
        }
        let spent = elapsed_before + start.elapsed().as_secs_f64();
        let budget = options.budget.after(Duration::from_secs_f64(spent));
        if budget.duration() == Some(Duration::ZERO) {
            stopped = Some(DpTermination::TimeLimit);
            break;
        }
        let dropped: Vec<bool> = (0..n).map(|j| !set.contains(&rule.origin_of(j))).collect();
        let found = solve_without(
            data,
            problem,
            (&dropped, &depths),
            &DpOptions {
                budget,
                progress: ProgressSink::default(),
                upper_bound: None,
                ..options.clone()
            },
        );
        searched += 1;
        // Under a cap on the rows of a leaf, a set's features may split the data too coarsely.
        let found = match found {
            Err(Error::Infeasible(_)) => continue,
            found => found?,
        };
        stats.absorb(&found.stats);
        least_bound = least_bound.min(found.lower_bound);
        let termination = found.termination;
        if best
            .as_ref()
            .is_none_or(|b| found.objective < b.objective - tol)
        {
            best = Some(found);
        }
        if let Some(b) = &best {
            publish(b.objective, floor.min(least_bound));
        }
        if termination != DpTermination::Optimal {
            stopped = Some(termination);
            break;
        }
    }
    let best = match best {
        Some(best) => best,
        None if searched == sets.len() && stopped.is_none() => {
            return Err(Error::Infeasible(format!(
                "the exact search proves that there is no tree of depth {} whose every leaf \
                 holds at most {} training rows (max_leaf_rows) within the rule on features \
                 (max_features, budget)",
                problem.depth,
                problem.max_leaf.unwrap_or(usize::MAX)
            )));
        }
        None if problem.max_leaf.is_some_and(|m| m < data.n_rows()) => {
            return Err(Error::NoTree(
                "the exact search stopped before it found a tree that meets max_leaf_rows and \
                 the rule on features"
                    .into(),
            ));
        }
        // Nothing searched in time: the single leaf (no feature) meets every rule.
        None => solve_without(
            data,
            problem,
            (&vec![true; n], &[]),
            &DpOptions {
                budget: Budget::unlimited().with_interrupt(options.budget.interrupt().cloned()),
                progress: ProgressSink::default(),
                upper_bound: None,
                ..options.clone()
            },
        )?,
    };
    let seconds = elapsed_before + start.elapsed().as_secs_f64();
    let run = SetsRun {
        every_set: searched == sets.len(),
        least_bound,
        stopped,
    };
    Ok(RuledOutcome {
        outcome: settle(best, &free, &run, tol, seconds, stats),
        feature_sets: searched,
    })
}

/// What the searches over the feature sets found.
struct SetsRun {
    /// Whether every set was searched.
    every_set: bool,
    /// The least lower bound of the sets searched.
    least_bound: f64,
    /// How the set searched last stopped, when it stopped short.
    stopped: Option<DpTermination>,
}

/// `best`, the best tree of the sets (or of the search over every allowed feature, `free`),
/// as the outcome of the whole search: optimal when it reaches `free`'s bound (which holds for
/// every set) or every set was searched to the end; otherwise bounded by the least bound of the
/// sets searched and, when some were not, by `free`'s.
fn settle(
    mut best: DpOutcome,
    free: &DpOutcome,
    run: &SetsRun,
    tol: f64,
    seconds: f64,
    mut stats: DpStats,
) -> DpOutcome {
    let floor = free.lower_bound;
    let reached = best.objective <= floor + tol;
    let optimal = reached || (run.every_set && run.stopped.is_none());
    let bound = if run.every_set {
        run.least_bound
    } else {
        run.least_bound.min(floor)
    };
    best.lower_bound = if optimal {
        best.objective
    } else {
        bound.min(best.objective)
    };
    best.termination = if optimal {
        DpTermination::Optimal
    } else {
        run.stopped.unwrap_or(DpTermination::TimeLimit)
    };
    best.seconds = seconds;
    stats.initial_objective = free.stats.initial_objective;
    best.stats = stats;
    best.trajectory = vec![
        DpProgress {
            seconds: 0.0,
            incumbent: free.stats.initial_objective,
            bound: 0.0,
        },
        DpProgress {
            seconds,
            incumbent: best.objective,
            bound: best.lower_bound,
        },
    ];
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_sets_within_a_count_and_a_budget() {
        let count = FeatureRule {
            forbidden: vec![false, true, false, false],
            max_features: Some(2),
            ..FeatureRule::default()
        };
        assert_eq!(
            count.feature_sets(4).expect("few"),
            vec![vec![0, 2], vec![0, 3], vec![2, 3]]
        );
        let budget = FeatureRule {
            costs: vec![2.0, 1.0, 1.0, 5.0],
            budget: Some(3.0),
            ..FeatureRule::default()
        };
        assert_eq!(
            budget.feature_sets(4).expect("few"),
            vec![vec![0, 1], vec![0, 2], vec![1, 2]]
        );
        let none = FeatureRule {
            max_features: Some(0),
            ..FeatureRule::default()
        };
        assert_eq!(
            none.feature_sets(3).expect("one"),
            vec![Vec::<usize>::new()]
        );
    }
}
