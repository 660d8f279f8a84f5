//! The certificate of a MILP result: the exact search's optimum of the same problem (see
//! [`super::counterpart`]), held against what the solver claims and what its tree is worth.
//!
//! Verdicts ([`Verdict`]), with `m` the plain evaluation of the MILP's tree, `c` and `b` the
//! solver's claimed objective and bound, `o` and `l` the search's objective and lower bound
//! (all in the formulation's units). Two equalities, because the figures are of two kinds:
//! - `≈`, for what the solver claims (`c`, `b`, and whether it is optimal), within a relative
//!   1e-6, the solvers' own accuracy: only a claim off by more is a contradiction;
//! - `=`, between plain evaluations of trees (`m`, `o`, `l`), within a quarter of the least cost
//!   of one error (`unit`) and never more than the relative 1e-6: trees a whole error apart are
//!   never equal, however large the class weights make the objective.
//!
//! The solver *proved* optimality when it says so and its bound meets its objective (`b ≈ c`);
//! a solver stopped by a relative gap (`--mip-gap`) says "optimal" with a bound short of it,
//! and counts as stopped at a limit.
//! - `CONTRADICTION` when something must be wrong with a solver or a model: the solver proved
//!   optimality and `o < m`, not `o ≈ m` (the search found a better tree than the solver's
//!   tolerances allow), or `c < l`, not `c ≈ l` (the solver claims an incumbent better than
//!   any tree can be), or `b > o`, not `b ≈ o` (the solver claims a bound above a tree the
//!   search found);
//! - `agrees`: the solver proved optimality and `m = o` with the search's optimum proven;
//! - `incumbent_optimal`: the solver stopped at a limit, but `m = l` (its tree is optimal; the
//!   gap was only the bound's);
//! - `incumbent_suboptimal`: the search's optimum is proven and `m > o`, by `difference` (the
//!   solver stopped short, or proved an optimum within its tolerances that is not exact);
//! - `unknown`: the search's budget was not enough to tell;
//! - `not_applicable`: the search does not solve this problem (row or class weights, see
//!   [`super::counterpart::search_lacks`]); no search is run and the message says why.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dp::DpTermination;
use crate::learn::objectives_agree;
use crate::tree::Tree;

/// The relative tolerance within which two objectives are the same: a solver's claims, and at
/// most, plain evaluations.
const TOLERANCE: f64 = 1e-6;

/// What the certificate concludes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Verdict {
    #[serde(rename = "agrees")]
    Agrees,
    #[serde(rename = "incumbent_optimal")]
    IncumbentOptimal,
    #[serde(rename = "incumbent_suboptimal")]
    IncumbentSuboptimal,
    #[serde(rename = "unknown")]
    Unknown,
    #[serde(rename = "CONTRADICTION")]
    Contradiction,
    #[serde(rename = "not_applicable")]
    NotApplicable,
}

impl Verdict {
    /// The verdict as reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::IncumbentOptimal => "incumbent_optimal",
            Verdict::IncumbentSuboptimal => "incumbent_suboptimal",
            Verdict::Unknown => "unknown",
            Verdict::Contradiction => "CONTRADICTION",
            Verdict::NotApplicable => "not_applicable",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the MILP run claims and what its tree is worth, in the formulation's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MilpClaim {
    /// The solver reported optimality (see [`MilpClaim::proven`] for what it proved).
    pub optimal: bool,
    /// The solver's objective of its incumbent.
    pub objective: Option<f64>,
    /// The solver's bound.
    pub bound: Option<f64>,
    /// The plain evaluation of the decoded tree.
    pub tree_objective: Option<f64>,
}

impl MilpClaim {
    /// Whether the solver proved optimality: it reported it, and its bound (when it gave one)
    /// meets its objective within its accuracy; a solver stopped by a relative gap did not.
    pub fn proven(&self) -> bool {
        self.optimal
            && match (self.objective, self.bound) {
                (Some(objective), Some(bound)) => {
                    bound >= objective || objectives_agree(objective, bound, TOLERANCE)
                }
                _ => true,
            }
    }
}

/// What the search found, in the formulation's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchResult {
    pub optimal: bool,
    pub objective: f64,
    pub bound: f64,
    /// The least cost of one error (the least positive class weight, scaled to the
    /// formulation's units): plain evaluations of trees this far apart are never equal.
    pub unit: f64,
}

/// A search run of the certificate, in the formulation's units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchFigures {
    pub termination: DpTermination,
    pub seconds: f64,
    pub objective: f64,
    pub bound: f64,
}

/// The certificate of one MILP result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    pub verdict: Verdict,
    /// The search on the same problem (none when not applicable).
    pub dp: Option<SearchFigures>,
    /// The MILP tree's objective minus the search's optimum (`incumbent_suboptimal`).
    pub difference: Option<f64>,
    /// The verdict in words.
    pub message: String,
    /// For a model over a reduced set of thresholds (BinOCT's class-boundary): the search's
    /// optimum over every midpoint, to show what the reduction cost.
    pub all_thresholds: Option<SearchFigures>,
    /// The search's tree (written next to the MILP's on a contradiction).
    #[serde(skip)]
    pub dp_tree: Option<Tree>,
}

impl Certificate {
    /// The certificate of a problem the search does not solve, saying `why`.
    pub fn not_applicable(why: String) -> Certificate {
        Certificate {
            verdict: Verdict::NotApplicable,
            dp: None,
            difference: None,
            message: why,
            all_thresholds: None,
            dp_tree: None,
        }
    }
}

/// Whether two plain evaluations of trees are the same objective: within a quarter of `unit`
/// (the least cost of one error) and never more than a relative 1e-6 apart.
pub fn evaluations_equal(a: f64, b: f64, unit: f64) -> bool {
    let relative = TOLERANCE * a.abs().max(b.abs()).max(1.0);
    (a - b).abs() <= relative.min(unit / 4.0)
}

/// The verdict on `milp` given `search`, the difference for a suboptimal incumbent, and the
/// verdict in words (see the module documentation).
pub fn verdict(milp: &MilpClaim, search: &SearchResult) -> (Verdict, Option<f64>, String) {
    // `≈`: a solver's claim, within its accuracy.
    let near = |a: f64, b: f64| objectives_agree(a, b, TOLERANCE);
    let below_claim = |a: f64, b: f64| a < b && !near(a, b);
    // `=`: plain evaluations, never a whole error apart.
    let same = |a: f64, b: f64| evaluations_equal(a, b, search.unit);
    let below = |a: f64, b: f64| a < b && !same(a, b);
    let proven = milp.proven();
    if let Some(tree) = milp.tree_objective {
        if proven && below_claim(search.objective, tree) {
            return (
                Verdict::Contradiction,
                Some(tree - search.objective),
                format!(
                    "the solver claims its tree ({tree}) is optimal, but the exact search found a \
                     strictly better one ({})",
                    search.objective
                ),
            );
        }
    }
    if let Some(claimed) = milp.objective {
        if below_claim(claimed, search.bound) {
            return (
                Verdict::Contradiction,
                None,
                format!(
                    "the solver claims an incumbent of {claimed}, below the exact search's proven \
                     lower bound {}",
                    search.bound
                ),
            );
        }
    }
    if let Some(bound) = milp.bound {
        if below_claim(search.objective, bound) {
            return (
                Verdict::Contradiction,
                None,
                format!(
                    "the solver claims a bound of {bound}, above a tree the exact search found \
                     ({})",
                    search.objective
                ),
            );
        }
    }
    let Some(tree) = milp.tree_objective else {
        return (
            Verdict::Unknown,
            None,
            "the solver returned no tree to certify".to_string(),
        );
    };
    if same(tree, search.bound) {
        return if proven {
            (
                Verdict::Agrees,
                None,
                "the solver's proven optimum is the exact search's".to_string(),
            )
        } else {
            (
                Verdict::IncumbentOptimal,
                None,
                "the solver stopped before proving it, but its tree is optimal: the gap was the \
                 bound's"
                    .to_string(),
            )
        };
    }
    if search.optimal && below(search.objective, tree) {
        return (
            Verdict::IncumbentSuboptimal,
            Some(tree - search.objective),
            format!(
                "the solver's tree ({tree}) is {} above the optimum ({})",
                tree - search.objective,
                search.objective
            ),
        );
    }
    (
        Verdict::Unknown,
        None,
        format!(
            "the exact search's budget was not enough to tell: its best tree {}, its bound {}",
            search.objective, search.bound
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(optimal: bool, objective: f64, bound: f64, tree: f64) -> MilpClaim {
        MilpClaim {
            optimal,
            objective: Some(objective),
            bound: Some(bound),
            tree_objective: Some(tree),
        }
    }

    fn proven(value: f64) -> SearchResult {
        SearchResult {
            optimal: true,
            objective: value,
            bound: value,
            unit: 1.0,
        }
    }

    #[test]
    fn each_verdict_on_hand_made_figures() {
        let v = |m: &MilpClaim, s: &SearchResult| verdict(m, s).0;
        assert_eq!(
            v(&claim(true, 5.0, 5.0, 5.0), &proven(5.0)),
            Verdict::Agrees
        );
        assert_eq!(
            v(&claim(false, 5.0, 3.0, 5.0), &proven(5.0)),
            Verdict::IncumbentOptimal
        );
        let (verdict_of, difference, _) = verdict(&claim(false, 7.0, 3.0, 7.0), &proven(5.0));
        assert_eq!(verdict_of, Verdict::IncumbentSuboptimal);
        assert_eq!(difference, Some(2.0));
        // Proven optimal by the solver, but the search has a better tree.
        assert_eq!(
            v(&claim(true, 7.0, 7.0, 7.0), &proven(5.0)),
            Verdict::Contradiction
        );
        // An incumbent below what any tree can reach.
        assert_eq!(
            v(&claim(false, 4.0, 3.0, 5.0), &proven(5.0)),
            Verdict::Contradiction
        );
        // A bound above a real tree.
        assert_eq!(
            v(&claim(false, 7.0, 6.0, 7.0), &proven(5.0)),
            Verdict::Contradiction
        );
        // The search stopped early: unknown, unless its bound already proves the tree optimal.
        let partial = SearchResult {
            optimal: false,
            objective: 6.0,
            bound: 4.0,
            unit: 1.0,
        };
        assert_eq!(v(&claim(false, 6.0, 2.0, 6.0), &partial), Verdict::Unknown);
        let tight = SearchResult {
            optimal: false,
            objective: 6.0,
            bound: 6.0,
            unit: 1.0,
        };
        assert_eq!(
            v(&claim(false, 6.0, 2.0, 6.0), &tight),
            Verdict::IncumbentOptimal
        );
        // Within the tolerance, equal.
        assert_eq!(
            v(&claim(true, 5.0, 5.0, 5.0 + 1e-9), &proven(5.0)),
            Verdict::Agrees
        );
        // No tree: nothing to certify.
        let none = MilpClaim {
            optimal: false,
            objective: None,
            bound: Some(1.0),
            tree_objective: None,
        };
        assert_eq!(v(&none, &proven(5.0)), Verdict::Unknown);
    }

    #[test]
    fn a_whole_error_is_never_within_the_tolerance() {
        // Objectives of about 1 where one error costs 1e-9 (a class weight 1e9 times the
        // other's, normalised by the baseline): a relative 1e-6 would merge a thousand errors.
        let unit = 1e-9;
        let search = SearchResult {
            optimal: true,
            objective: 1.0,
            bound: 1.0,
            unit,
        };
        let stopped = |tree: f64| claim(false, tree, 0.5, tree);
        assert_eq!(
            verdict(&stopped(1.0 + unit), &search).0,
            Verdict::IncumbentSuboptimal
        );
        assert_eq!(
            verdict(&stopped(1.0 + unit / 8.0), &search).0,
            Verdict::IncumbentOptimal
        );
        // A solver that proved an optimum within its own accuracy but a whole error off: not a
        // contradiction (its claim holds to 1e-6), not agreement either.
        assert_eq!(
            verdict(&claim(true, 1.0 + unit, 1.0 + unit, 1.0 + unit), &search).0,
            Verdict::IncumbentSuboptimal
        );
    }

    #[test]
    fn a_solver_stopped_by_a_relative_gap_has_not_proven_its_tree() {
        // `--mip-gap 1`: the solver says optimal with its bound far below its incumbent.
        let gap_stop = claim(true, 12.0, 1.0, 12.0);
        assert!(!gap_stop.proven());
        let (verdict_of, difference, _) = verdict(&gap_stop, &proven(10.0));
        assert_eq!(verdict_of, Verdict::IncumbentSuboptimal);
        assert_eq!(difference, Some(2.0));
        assert!(claim(true, 12.0, 12.0 - 1e-9, 12.0).proven());
    }
}
