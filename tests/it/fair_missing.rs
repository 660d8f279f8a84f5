//! The exact and sparse searches under fairness on data with missing values, with whole-number
//! row weights and with both, against the exhaustive oracle of `fair_groups` (every tree of
//! depth 1 or 2 that does not split on the group column, each split on a feature with missing
//! values tried with the missing rows on either side, every labelling of its leaves; errors and
//! rates weighted by the rows' weights): under a parity bound and an opportunity bound, between
//! two and three groups, on one and two threads, the objective is the oracle's optimum (`dp`:
//! the weighted errors; `sparse`: the weighted errors over the total weight plus the leaf
//! penalty per leaf, with a depth cap and with `max_leaves` alone), it equals the returned tree's
//! objective counted here by plain code, the tree keeps the bounds by the rates counted here and
//! routes each missing value to a side; each bound changes the optimum for each method and each
//! kind of data. Beside fairness, the other kinds hold there too, and those the searches refuse
//! there (a count or a budget of features on data with missing values, a leaf minimum or a cap
//! on a leaf's rows with row weights) are refused by name with exit 2.

use std::collections::{BTreeMap, HashMap};

use milptree::budget::Budget;
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::learn::sparse_search::SparseSearch;
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method, SparseParams};
use milptree::solver::Termination;
use milptree::tree::{NodeKind, Split, Tree};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::with_random_weights;
use crate::fair_groups::{meets, oracle, other_kinds, Key};
use crate::side_constraints_fairness::{gap, grouped_dataset, spec};

/// The group column's index among the features.
const GROUP: usize = 2;

/// The sparse search's penalty per leaf.
const LEAF_PENALTY: f64 = 0.05;

/// What the data carries besides its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Extra {
    Missing,
    Weights,
    Both,
}

impl Extra {
    const ALL: [Extra; 3] = [Extra::Missing, Extra::Weights, Extra::Both];

    fn missing(self) -> bool {
        self != Extra::Weights
    }

    fn weights(self) -> bool {
        self != Extra::Missing
    }
}

/// `data` with about a fifth of the cells of `x0` and `x1` missing (the group column whole),
/// each of the two with a missing value and an observed one.
pub(crate) fn with_missing_features(data: &Dataset, seed: u64) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0a11);
    let mut rows: Vec<Vec<f64>> = data.rows().to_vec();
    for row in rows.iter_mut() {
        for value in row.iter_mut().take(GROUP) {
            if rng.random_bool(0.2) {
                *value = f64::NAN;
            }
        }
    }
    // One missing cell of each feature at least, on rows of different groups.
    rows[2][0] = f64::NAN;
    rows[3][1] = f64::NAN;
    for j in 0..GROUP {
        assert!(rows.iter().any(|r| !r[j].is_nan()), "feature {j} observed");
    }
    Dataset::from_parts(
        format!("{} with missing cells", data.source()),
        data.schema().features.clone(),
        data.classes().to_vec(),
        rows,
        data.labels().to_vec(),
    )
    .expect("valid data with missing values")
}

/// Twelve rows of `groups` groups with what `extra` says.
fn data_of(extra: Extra, seed: u64, groups: u32) -> Dataset {
    let mut data = grouped_dataset(seed, 12, groups);
    if extra.missing() {
        data = with_missing_features(&data, seed);
    }
    if extra.weights() {
        data = with_random_weights(data, seed, true);
    }
    data
}

fn dp(depth: usize) -> Method {
    Method::Dp(DpSearch {
        depth,
        params: DpParams::default(),
    })
}

fn sparse(depth: Option<usize>) -> Method {
    Method::Sparse(SparseSearch {
        depth,
        params: SparseParams {
            leaf_penalty: LEAF_PENALTY,
            ..SparseParams::default()
        },
    })
}

fn options(spec: &ConstraintSpec, threads: usize) -> LearnOptions {
    LearnOptions {
        budget: Budget::seconds(60.0),
        threads: Some(threads),
        constraints: Some(spec.clone()),
        ..LearnOptions::default()
    }
}

/// The data's total weight.
fn total_weight(data: &Dataset) -> f64 {
    (0..data.n_rows()).map(|i| data.weight(i)).sum()
}

/// A method's objective of a tree of `splits` splits and `errors` weighted errors on `data`.
fn objective(method: &Method, data: &Dataset, splits: usize, errors: f64) -> f64 {
    match method {
        Method::Sparse(_) => errors / total_weight(data) + LEAF_PENALTY * (splits + 1) as f64,
        _ => errors,
    }
}

/// The oracle's optimum of `method` under `spec` (`None`: no tree meets it).
fn optimum(
    seen: &HashMap<Key, f64>,
    data: &Dataset,
    method: &Method,
    spec: &ConstraintSpec,
) -> Option<f64> {
    seen.iter()
        .filter(|(key, _)| meets(key, spec))
        .map(|(key, &errors)| objective(method, data, key.splits, errors))
        .min_by(f64::total_cmp)
}

/// Within a relative 1e-9.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// Checks the tree `method` learns under `spec` on `data` with `threads` threads against the
/// oracle's `want`: its objective, the objective counted here on its tree, its gaps, and the
/// side of each split on a feature with missing values.
fn check(data: &Dataset, method: &Method, spec: &ConstraintSpec, threads: usize, want: f64) {
    let what = format!(
        "{}, {} {:?}, {threads} threads, {spec:?}",
        data.source(),
        method.name(),
        match method {
            Method::Sparse(s) => s.depth,
            Method::Dp(d) => Some(d.depth),
            _ => None,
        }
    );
    let outcome = learn(method, data, options(spec, threads)).expect(&what);
    let got = outcome.report.objective.expect("an objective");
    assert!(close(got, want), "{what}: {got}, the oracle {want}");
    let evaluated = outcome.evaluated_objective.expect("re-evaluated");
    assert!(
        close(evaluated, got),
        "{what}: evaluated {evaluated}, reported {got}"
    );
    assert!(outcome.decode_mismatch.is_none(), "{what}");
    assert_eq!(outcome.report.termination, Termination::Optimal, "{what}");
    assert_eq!(
        outcome.side_constraints["broken"],
        serde_json::json!([]),
        "{what}"
    );
    let tree = outcome.tree.as_ref().expect("a tree");
    let predicted = tree.predict(data.rows());
    let errors: f64 = (0..data.n_rows())
        .filter(|&i| predicted[i] != data.labels()[i])
        .map(|i| data.weight(i))
        .sum();
    let counted = objective(method, data, tree.n_splits(), errors);
    assert!(
        close(counted, got),
        "{what}: counted {counted}, reported {got}"
    );
    for (bound, opportunity, key) in [
        (spec.max_parity_gap, false, "parity_gap"),
        (spec.max_opportunity_gap, true, "opportunity_gap"),
    ] {
        let gap = gap(data, &predicted, opportunity);
        assert!(bound.is_none_or(|b| gap <= b + 1e-9), "{what}: {key} {gap}");
        let reported = outcome.side_constraints["fairness"][key].as_f64();
        assert!(
            reported.is_some_and(|r| (r - gap).abs() < 1e-9),
            "{what}: {key} {reported:?} vs {gap}"
        );
    }
    assert_sides(tree, data, &what);
}

/// No split on the group column; a split on a feature with missing values has a side, one on
/// a feature without has none.
fn assert_sides(tree: &Tree, data: &Dataset, what: &str) {
    for (id, node) in tree.nodes() {
        if let NodeKind::Split(Split::Axis { feature, .. }) = node.kind {
            assert_ne!(feature, GROUP, "{what}: a split on the group column");
            let missing = data.rows().iter().any(|r| r[feature].is_nan());
            assert_eq!(
                tree.missing_side(id).is_some(),
                missing,
                "{what}: split {id} on feature {feature}"
            );
        }
    }
}

/// The methods checked at `depth`: the exact search, the sparse search capped at the depth,
/// and the sparse search without a cap under `max_leaves` (`Some`: the leaves given it).
fn methods(depth: usize) -> [(Method, Option<usize>); 3] {
    [
        (dp(depth), None),
        (sparse(Some(depth)), None),
        (sparse(None), Some(depth + 1)),
    ]
}

#[test]
fn both_searches_under_fairness_reach_the_oracle_on_missing_values_and_row_weights() {
    let bounds = [
        ("parity", spec(Some(0.0), None)),
        ("parity", spec(Some(0.15), None)),
        ("opportunity", spec(None, Some(0.0))),
        ("opportunity", spec(None, Some(0.25))),
    ];
    // Whether each bound changes the optimum, per (method, data, kind of bound).
    let mut binds: BTreeMap<(String, Extra, &str), bool> = BTreeMap::new();
    let mut runs = 0;
    for extra in Extra::ALL {
        for (groups, seeds) in [(2, [9, 10]), (3, [3, 8])] {
            for seed in seeds {
                let data = data_of(extra, seed, groups);
                for depth in [1, 2] {
                    let seen = oracle(&data, depth);
                    for (method, leaves) in methods(depth) {
                        let limited = |given: &ConstraintSpec| ConstraintSpec {
                            max_leaves: leaves,
                            ..given.clone()
                        };
                        let free = optimum(&seen, &data, &method, &limited(&spec(None, None)))
                            .expect("a leaf");
                        for (kind, bound) in &bounds {
                            let bound = limited(bound);
                            let want = optimum(&seen, &data, &method, &bound).expect("a fair leaf");
                            let name = format!("{} {}", method.name(), leaves.is_some());
                            *binds.entry((name, extra, kind)).or_default() |= !close(want, free);
                            for threads in [1, 2] {
                                check(&data, &method, &bound, threads, want);
                                runs += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    let never: Vec<_> = binds.iter().filter(|(_, &b)| !b).collect();
    assert!(never.is_empty(), "bounds that never bind: {never:?}");
    assert_eq!(binds.len(), 3 * 3 * 2);
    assert_eq!(runs, 3 * 4 * 2 * 3 * 4 * 2);
}

/// Whether the searches take `kind` beside fairness on data with `extra`: not a count or a
/// budget of features on data with missing values, not a leaf minimum or a cap on a leaf's rows
/// with row weights.
fn taken(kind: &str, extra: Extra) -> bool {
    match kind {
        "max_features" | "budget" => !extra.missing(),
        "min_leaf_rows" | "max_leaf_rows" => !extra.weights(),
        _ => true,
    }
}

#[test]
fn other_kinds_beside_fairness_hold_or_are_refused_by_name() {
    // Whether each kind taken changes the fair optimum, per kind of data.
    let mut changes: BTreeMap<(Extra, &str), bool> = BTreeMap::new();
    let mut refused = 0;
    for extra in Extra::ALL {
        for (seed, groups) in [(8, 3), (9, 2), (10, 2)] {
            let data = data_of(extra, seed, groups);
            let depth = 2;
            let seen = oracle(&data, depth);
            for fair in [spec(Some(0.15), None), spec(None, Some(0.25))] {
                for (method, _) in methods(depth).into_iter().take(2) {
                    let alone = optimum(&seen, &data, &method, &fair).expect("a fair leaf");
                    for (kind, other) in other_kinds(depth) {
                        let both = ConstraintSpec {
                            group_column: fair.group_column.clone(),
                            max_parity_gap: fair.max_parity_gap,
                            max_opportunity_gap: fair.max_opportunity_gap,
                            ..other
                        };
                        if !taken(kind, extra) {
                            let error =
                                learn(&method, &data, options(&both, 1)).expect_err("refused");
                            assert_eq!(error.exit_code(), 2, "{kind} on {extra:?}: {error}");
                            let message = error.to_string().replace('-', "_");
                            assert!(message.contains(kind), "{kind} on {extra:?}: {error}");
                            refused += 1;
                            continue;
                        }
                        let Some(want) = optimum(&seen, &data, &method, &both) else {
                            // No tree meets the kind with the bound: the search proves it.
                            let error = learn(&method, &data, options(&both, 1)).expect_err("none");
                            assert_ne!(error.exit_code(), 0, "{kind}: {error}");
                            continue;
                        };
                        *changes.entry((extra, kind)).or_default() |= !close(want, alone);
                        check(&data, &method, &both, 1, want);
                    }
                }
            }
        }
    }
    let never: Vec<_> = changes.iter().filter(|(_, &c)| !c).collect();
    assert!(
        never.is_empty(),
        "kinds that never change the fair optimum: {never:?}"
    );
    // Missing: count and budget; weights: minimum and cap; both: the four; for two methods,
    // three seeds and two bounds.
    assert_eq!(refused, (2 + 2 + 4) * 2 * 3 * 2);
}
