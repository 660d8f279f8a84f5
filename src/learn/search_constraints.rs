//! Side constraints in the exact and sparse searches and in a MILP's `dp` warm start and
//! certificate: what the searches take ([`ConstraintTaker::Search`] in the table of
//! [`crate::constraints::kinds`]) becomes limits of the search's problem
//! ([`SearchConstraints`]): forbidden features, a count and a budget a [`FeatureRule`] (see
//! [`crate::dp::solve_under`]), `depths` the levels at which each feature may split (in the
//! same rule), `max_leaves` a split budget of `max_leaves - 1`,
//! `min_leaf_rows` the leaf minimum (the larger of it and `--min-leaf`), `max_leaf_rows` a cap
//! on the rows of a leaf, fairness the search
//! of [`crate::fair`] (alone or with forbidden features and the leaf minimum; depths 1 and 2,
//! two groups, one bound: [`SearchConstraints::fair_refusal`] says why not otherwise). Any
//! other kind is refused by name. The user's rows, which only the MILPs take, are refused by
//! the searches themselves; for a MILP's start and certificate ([`UserRows::OverFeaturesUsed`]),
//! rows over the model's `used[j=..]` indicators alone whose weights are not negative bound
//! the features a tree uses as a budget does, and join the [`FeatureRule`].

use crate::constraints::fairness::Fairness;
use crate::constraints::kinds::{self, ConstraintKind, ConstraintTaker};
use crate::constraints::user_row::used_feature;
use crate::constraints::{ConstraintSpec, SideConstraints};
use crate::data::Dataset;
use crate::dp::{
    self, DpOptions, DpOutcome, DpProblem, DpProgress, DpStats, FeatureRow, FeatureRule,
};
use crate::error::{Error, Result};
use crate::fair::{self, FairProblem, MAX_FAIR_DEPTH};
use crate::mip::FEASIBILITY_TOLERANCE;
use crate::search_core::Termination;
use crate::tree::Tree;

/// A set of side constraints the searches take, checked against the training data, as limits
/// of the search.
#[derive(Debug, Clone)]
pub struct SearchConstraints {
    /// The constraints as checked (what the returned tree is reported against).
    pub constraints: SideConstraints,
    /// Forbidden features, the count and the budget.
    pub rule: FeatureRule,
    /// At most this many splits (`max_leaves - 1`).
    pub max_splits: Option<usize>,
    /// Every leaf some row reaches holds at least this many rows.
    pub min_leaf_rows: Option<usize>,
    /// Every leaf holds at most this many rows.
    pub max_leaf_rows: Option<usize>,
    /// The kinds present.
    pub kinds: Vec<ConstraintKind>,
    /// The constraints as given (fairness is resolved again on the rows the search sees).
    pub spec: ConstraintSpec,
}

/// What the user's rows are to a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserRows {
    /// Refused, as every kind the searches do not take (`--solver dp`, `--solver sparse`).
    Refused,
    /// For a MILP's start and certificate: taken when each row bounds the features used
    /// ([`UserRow::over_features_used`](crate::constraints::UserRow::over_features_used)) and
    /// the model has the `used[j=..]` indicators (a count or a budget), refused otherwise.
    OverFeaturesUsed,
}

impl SearchConstraints {
    /// What `spec` is to a search on `train`: `Ok(limits)` when the searches take every kind
    /// it holds (the user's rows as `rows` says), `Err(kinds)` with the kinds they do not take
    /// otherwise. Constraints that do not fit the data are an error.
    pub fn of(
        spec: &ConstraintSpec,
        train: &Dataset,
        rows: UserRows,
    ) -> Result<std::result::Result<SearchConstraints, Vec<ConstraintKind>>> {
        let constraints = spec.resolve(train)?;
        let kinds = kinds::present(&constraints);
        let feature_rows = match rows {
            UserRows::Refused => None,
            UserRows::OverFeaturesUsed => rows_over_features_used(&constraints),
        };
        let refused: Vec<ConstraintKind> = ConstraintTaker::Search
            .refused(&kinds)
            .into_iter()
            .filter(|&k| !(k == ConstraintKind::Rows && feature_rows.is_some()))
            .collect();
        if !refused.is_empty() {
            return Ok(Err(refused));
        }
        // Every field, so that a new kind is a decision here too.
        let SideConstraints {
            feature_names: _,
            max_features,
            costs,
            budget,
            forbidden,
            depths,
            max_leaves,
            // Taken above as `feature_rows` or refused.
            rows: _,
            fairness: _,
            min_leaf_rows,
            max_leaf_rows,
        } = &constraints;
        let rule = FeatureRule {
            forbidden: forbidden.clone(),
            max_features: *max_features,
            costs: costs.clone(),
            budget: *budget,
            rows: feature_rows.unwrap_or_default(),
            depths: depths.clone(),
            origin: Vec::new(),
        };
        Ok(Ok(SearchConstraints {
            rule,
            max_splits: max_leaves.map(|l| l.saturating_sub(1)),
            min_leaf_rows: *min_leaf_rows,
            max_leaf_rows: *max_leaf_rows,
            kinds,
            constraints,
            spec: spec.clone(),
        }))
    }

    /// Whether `tree` meets the constraints: those plain code evaluates, and the user's rows
    /// the search takes (over the features used).
    pub fn meets(&self, tree: &Tree) -> bool {
        self.report(tree).1
    }

    /// The side constraints' report of `tree` (see [`crate::constraints::report`]), with each
    /// user row the search takes at its value on the features the tree uses, and whether the
    /// tree meets them all.
    pub fn report(&self, tree: &Tree) -> (serde_json::Value, bool) {
        let (mut report, mut ok) = crate::constraints::report(&self.constraints, tree);
        if self.rule.rows.is_empty() {
            return (report, ok);
        }
        let used = crate::constraints::evaluate(&self.constraints, tree).feature_indices;
        let value = |name: &str| used_feature(name).map(|j| f64::from(u8::from(used.contains(&j))));
        let rows: Vec<serde_json::Value> = self
            .constraints
            .rows
            .iter()
            .map(|row| {
                let activity = row.activity(value).unwrap_or(f64::NAN);
                let holds = row.holds(activity, FEASIBILITY_TOLERANCE);
                ok &= holds;
                serde_json::json!({ "row": row.text, "activity": activity, "holds": holds })
            })
            .collect();
        report["rows"] = rows.into();
        (report, ok)
    }

    /// Whether the set holds forbidden features alone (all a search over the front of a
    /// metric, or of a loss of the whole leaf set, takes).
    pub fn only_forbidden(&self) -> bool {
        self.kinds.iter().all(|&k| k == ConstraintKind::Forbidden)
    }

    /// The kinds beyond forbidden features, by name.
    pub fn beyond_forbidden(&self) -> String {
        let beyond: Vec<ConstraintKind> = self
            .kinds
            .iter()
            .copied()
            .filter(|&k| k != ConstraintKind::Forbidden)
            .collect();
        kinds::names(&beyond)
    }

    /// The limits for a search over the copies of data with missing values whose features
    /// come from the data's features `origins` ([`crate::tree::missing_copies`]): the rule on
    /// features stays over the data's features (both copies of a feature are that feature);
    /// the limits on rows are the same rows'.
    pub fn over_copies(&self, origins: Vec<usize>) -> SearchConstraints {
        let mut limits = self.clone();
        limits.rule.origin = origins;
        limits
    }

    /// `problem` under the split budget, the leaf minimum and the cap on the rows of a leaf
    /// (the tighter of each).
    pub fn limit(&self, problem: &mut DpProblem) {
        if let Some(rows) = self.max_leaf_rows {
            problem.max_leaf = Some(problem.max_leaf.map_or(rows, |m| m.min(rows)));
        }
        if let Some(splits) = self.max_splits {
            problem.max_splits = Some(problem.max_splits.map_or(splits, |m| m.min(splits)));
        }
        if let Some(rows) = self.min_leaf_rows {
            problem.min_leaf = problem.min_leaf.max(rows);
        }
    }
}

/// The user's rows of `constraints` as rows over the features used, when every row is one and
/// the model has the `used[j=..]` indicators they name (a count or a budget) and some tree
/// meets them; `None` otherwise (and without rows).
fn rows_over_features_used(constraints: &SideConstraints) -> Option<Vec<FeatureRow>> {
    let indicators = constraints.max_features.is_some() || constraints.budget.is_some();
    if constraints.rows.is_empty() || !indicators {
        return None;
    }
    let n = constraints.feature_names.len();
    let rows = constraints
        .rows
        .iter()
        .map(|row| {
            row.over_features_used(n, FEASIBILITY_TOLERANCE)
                .map(|(weights, limit)| FeatureRow { weights, limit })
        })
        .collect::<Option<Vec<FeatureRow>>>()?;
    let rule = FeatureRule {
        rows: rows.clone(),
        ..FeatureRule::default()
    };
    rule.satisfiable().then_some(rows)
}

impl SearchConstraints {
    /// Why the search of [`crate::fair`] does not take the fairness of the set at `depth`
    /// (`None` without fairness, or when it does): more than two groups, both bounds, a depth
    /// above [`MAX_FAIR_DEPTH`], or a kind besides forbidden features and the leaf minimum.
    pub fn fair_refusal(&self, depth: usize) -> Option<String> {
        let fairness = self.constraints.fairness.as_ref()?;
        match fair::bounded(fairness) {
            Err(Error::Parameter { message, .. }) => return Some(message),
            Err(error) => return Some(error.to_string()),
            Ok(_) => {}
        }
        if depth > MAX_FAIR_DEPTH {
            return Some(format!(
                "the exact search under fairness takes depths 1 to {MAX_FAIR_DEPTH}, not {depth}; \
                 the MILP formulations take deeper trees"
            ));
        }
        let others: Vec<ConstraintKind> = self
            .kinds
            .iter()
            .copied()
            .filter(|k| {
                !matches!(
                    k,
                    ConstraintKind::Fairness
                        | ConstraintKind::Forbidden
                        | ConstraintKind::MinLeafRows
                )
            })
            .collect();
        (!others.is_empty()).then(|| {
            format!(
                "the exact search takes fairness with forbidden features and min_leaf_rows \
                 only, not with {}; the MILP formulations take them together",
                kinds::names(&others)
            )
        })
    }

    /// Under fairness, the search of [`crate::fair`] for `problem` on `data` (the rows the
    /// search sees, whole-number weights), its tree's objective and gap checked by plain code;
    /// `None` without fairness. The set must be one [`SearchConstraints::fair_refusal`]
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
            return Err(Error::parameter("--group-column", why));
        }
        if problem
            .max_splits
            .is_some_and(|m| m < (1 << problem.depth) - 1)
        {
            return Err(Error::parameter(
                "--max-splits",
                "the exact search under fairness takes no split budget (max_leaves, \
                 --max-splits); the MILP formulations do",
            ));
        }
        let fairness = Fairness::resolve(&self.spec, data)?
            .ok_or_else(|| Error::Internal("fairness without a group column".into()))?;
        let found = fair::solve(
            data,
            &fairness,
            &FairProblem {
                depth: problem.depth,
                thresholds: problem.thresholds,
                class_weights: problem.class_weights.clone(),
                split_cost: problem.split_cost,
                min_leaf: problem.min_leaf,
                forbidden: self.rule.forbidden_over(data.n_features()),
            },
            options.threads.max(1),
            options.time_limit,
            options.interrupt.clone(),
        )?;
        let evaluated = dp::objective_of(&found.tree, data, problem);
        let tol = 1e-9 * found.objective.abs().max(1.0);
        if evaluated.is_none_or(|e| (e - found.objective).abs() > tol) {
            return Err(Error::Internal(format!(
                "the fair search reports objective {}, but its tree evaluates to {evaluated:?}",
                found.objective
            )));
        }
        let values = fairness.values(&found.tree);
        if let Some(broken) = values.broken.first() {
            return Err(Error::Internal(format!("the fair search's tree: {broken}")));
        }
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

/// The refusal of the kinds `refused` by the exact and sparse searches, naming them and what
/// the searches take.
pub fn refusal(refused: &[ConstraintKind]) -> Error {
    Error::parameter(
        "--constraints",
        format!(
            "the exact and sparse searches do not take {}: only the MILP formulations (oct, \
             binoct, flowoct) do (the searches take {})",
            kinds::names(refused),
            kinds::names(&ConstraintTaker::Search.taken())
        ),
    )
}
