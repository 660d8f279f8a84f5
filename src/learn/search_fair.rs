//! Fairness in the exact search and in a MILP's `dp` start and certificate
//! ([`SearchConstraints::solve_fair`]): the search of [`crate::fair`] under the bounds, with
//! the split budget, the leaf minimum and the cap on a leaf's rows of the search's problem and
//! the forbidden features and the depths at which each feature may split of the set; under a count or a budget of features (and user rows
//! over the features used), the best of one search per largest feature set the rule allows
//! (after the search without the rule, which is optimal when its tree meets the rule). The
//! tree is checked by plain evaluation: its objective must be the one counted, its gaps within
//! the bounds.

use crate::constraints::fairness::Fairness;
use crate::data::Dataset;
use crate::dp::{self, DpOptions, DpOutcome, DpProblem, DpProgress, DpStats, FeatureRule};
use crate::error::{Error, Result};
use crate::fair::{self, FairOutcome, FairProblem, FairStop, MAX_FAIR_DEPTH};
use crate::search_core::Termination;

use super::search_constraints::SearchConstraints;

impl SearchConstraints {
    /// Why the search of [`crate::fair`] does not take the fairness of the set at `depth`
    /// (`None` without fairness, or when it does): a depth above [`MAX_FAIR_DEPTH`].
    pub fn fair_refusal(&self, depth: usize) -> Option<String> {
        self.constraints.fairness.as_ref()?;
        (depth > MAX_FAIR_DEPTH).then(|| {
            format!(
                "the exact search under fairness takes depths 1 to {MAX_FAIR_DEPTH}, not \
                 {depth}; the MILP formulations take deeper trees"
            )
        })
    }

    /// Under fairness, the search of [`crate::fair`] for `problem` on `data` (the rows the
    /// search sees, whole-number weights), its tree's objective and gaps checked by plain
    /// code; `None` without fairness. The set must be one [`SearchConstraints::fair_refusal`]
    /// accepts.
    pub fn solve_fair(
        &self,
        data: &Dataset,
        problem: &DpProblem,
        options: &DpOptions,
    ) -> Result<Option<DpOutcome>> {
        if self.constraints.fairness.is_none() {
            return Ok(None);
        }
        if let Some(why) = self.fair_refusal(problem.depth) {
            return Err(Error::parameter("--depth", why));
        }
        if !self.rule.origin.is_empty() && self.rule.binding() {
            // The feature sets would be over the missing values' copies, each counted apart.
            return Err(Error::parameter(
                "--max-features",
                "the exact search under fairness takes no count (max_features), budget \
                 (feature_costs with budget) or row over the features used on data with missing \
                 values; the MILP formulations take them on complete data",
            ));
        }
        let fairness = Fairness::resolve(&self.spec, data)?
            .ok_or_else(|| Error::Internal("fairness without a group column".into()))?;
        let stop = FairStop {
            start: std::time::Instant::now(),
            budget: options.budget.clone(),
        };
        let fair_problem = FairProblem::of(
            problem,
            self.rule.forbidden_over(data.n_features()),
            self.rule.depths_over(data.n_features()),
        );
        let threads = options.threads.max(1);
        let found = solve_ruled(data, &fairness, &fair_problem, &self.rule, threads, &stop)?;
        checked(&found, data, problem, &fairness)?;
        let lower_bound = match found.termination {
            Termination::Optimal => found.objective,
            _ => 0.0,
        };
        Ok(Some(DpOutcome {
            tree: found.tree,
            objective: found.objective,
            lower_bound,
            termination: found.termination,
            seconds: found.seconds,
            stats: DpStats::default(),
            trajectory: vec![DpProgress {
                seconds: found.seconds,
                incumbent: found.objective,
                bound: lower_bound,
            }],
        }))
    }
}

/// Refuses a tree whose plain evaluation differs from what the search counted, or that
/// breaks a bound.
fn checked(
    found: &FairOutcome,
    data: &Dataset,
    problem: &DpProblem,
    fairness: &Fairness,
) -> Result<()> {
    let evaluated = dp::objective_of(&found.tree, data, problem);
    let tol = 1e-9 * found.objective.abs().max(1.0);
    if evaluated.is_none_or(|e| (e - found.objective).abs() > tol) {
        return Err(Error::Internal(format!(
            "the fair search reports objective {}, but its tree evaluates to {evaluated:?}",
            found.objective
        )));
    }
    if let Some(broken) = fairness.values(&found.tree).broken.first() {
        return Err(Error::Internal(format!("the fair search's tree: {broken}")));
    }
    Ok(())
}

/// The fair search of `problem` under `rule`: without it when it does not bind or its tree
/// meets it, else the best of one search per largest feature set allowed (the first of the
/// cheapest, in the sets' order), until `stop` says so.
fn solve_ruled(
    data: &Dataset,
    fairness: &Fairness,
    problem: &FairProblem,
    rule: &FeatureRule,
    threads: usize,
    stop: &FairStop,
) -> Result<FairOutcome> {
    if !rule.satisfiable() {
        return Err(Error::parameter(
            "--constraints",
            "the rows over the features used exclude even the single leaf: no tree meets them",
        ));
    }
    let free = fair::solve(data, fairness, problem, threads, stop)?;
    let admitted = rule.admits_tree(&free.tree);
    if !rule.binding() || (admitted && free.termination == Termination::Optimal) {
        return Ok(free);
    }
    let n = data.n_features();
    let mut stopped = free.termination != Termination::Optimal;
    let mut root_splits = free.root_splits;
    let mut best = admitted.then_some(free);
    for set in rule.feature_sets(n)? {
        if stop.now() {
            stopped = true;
            break;
        }
        let within = FairProblem {
            forbidden: (0..n)
                .map(|j| problem.forbidden.get(j).copied().unwrap_or(false) || !set.contains(&j))
                .collect(),
            ..problem.clone()
        };
        let found = match fair::solve(data, fairness, &within, threads, stop) {
            Ok(found) => found,
            Err(Error::Infeasible(_)) => continue,
            Err(Error::NoTree(_)) => {
                stopped = true;
                break;
            }
            Err(error) => return Err(error),
        };
        root_splits += found.root_splits;
        stopped |= found.termination != Termination::Optimal;
        if best.as_ref().is_none_or(|b| found.objective < b.objective) {
            best = Some(found);
        }
    }
    let Some(best) = best else {
        let what = "a tree whose every leaf meets min_leaf_rows and max_leaf_rows within the \
                    rule on features (max_features, budget)";
        return Err(if stopped {
            Error::NoTree(format!(
                "the exact search under fairness stopped before it found {what}"
            ))
        } else {
            Error::Infeasible(format!(
                "the exact search under fairness proves that there is no {what} at depth {}",
                problem.depth
            ))
        });
    };
    Ok(FairOutcome {
        termination: if stopped {
            stop.termination()
        } else {
            Termination::Optimal
        },
        seconds: stop.start.elapsed().as_secs_f64(),
        root_splits,
        ..best
    })
}
