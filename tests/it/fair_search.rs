//! The exact search under fairness (`--solver dp` with a bound on the parity or opportunity
//! gap between two groups) against the exhaustive oracle over every tree and every labelling
//! of its leaves: on random small data, under several bounds, at depths 1 and 2, on one and two
//! threads, with and without whole-number row weights, with forbidden features and a leaf
//! minimum besides, its objective is the oracle's optimum,
//! its tree meets the bound by the rates counted here and the report gives that gap; the bound
//! changes the optimum. What it does not take is refused by name, and a MILP under fairness
//! starts from its tree and gets a certificate that agrees; with a leaf penalty (OCT's, the
//! sparse search's objective), from the sparse search's tree, the oracle's optimum. (Three
//! groups, depth 3, both bounds and the other kinds beside fairness: `fair_groups`; missing
//! values and row weights, the sparse search against the oracle: `fair_missing`.)

use milptree::budget::Budget;
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::AnyFormulation;
use milptree::learn::certificate::Verdict;
use milptree::learn::sparse_search::SparseParams;
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method, WarmStartMode};
use milptree::solver::SolverKind;

use crate::common::with_random_weights;
use crate::side_constraints_fairness::{expected, gap, grouped_dataset, spec};

fn dp(depth: usize) -> Method {
    Method::Dp(DpSearch {
        depth,
        params: DpParams::default(),
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

/// For every instance, bound and depth (1 and 2) and on one and two threads, the search's
/// objective is the oracle's optimum and its tree meets the bound; `true` when some bound
/// changes the optimum.
fn check(instances: &[Dataset], specs: &[ConstraintSpec]) -> bool {
    let mut binds = false;
    for data in instances {
        for spec in specs {
            for depth in [1, 2] {
                let want = expected(data, depth, spec).expect("a constant tree is fair");
                let free = expected(
                    data,
                    depth,
                    &crate::side_constraints_fairness::spec(None, None),
                )
                .expect("a leaf");
                binds |= free < want - 1e-9;
                for threads in [1, 2] {
                    let what = format!(
                        "{}, depth {depth}, {threads} threads, {spec:?}",
                        data.source()
                    );
                    let outcome = learn(&dp(depth), data, options(spec, threads)).expect(&what);
                    let tree = outcome.tree.as_ref().expect("a tree");
                    let objective = outcome.report.objective.expect("an objective");
                    assert!(
                        (objective - want).abs() < 1e-9,
                        "{what}: {objective}, oracle {want}"
                    );
                    assert_eq!(outcome.evaluated_objective, Some(objective), "{what}");
                    assert!(outcome.decode_mismatch.is_none(), "{what}");
                    assert_eq!(
                        outcome.report.termination,
                        milptree::solver::Termination::Optimal,
                        "{what}"
                    );
                    let predicted = tree.predict(data.rows());
                    for (bound, opportunity, key) in [
                        (spec.max_parity_gap, false, "parity_gap"),
                        (spec.max_opportunity_gap, true, "opportunity_gap"),
                    ] {
                        let gap = gap(data, &predicted, opportunity);
                        if let Some(bound) = bound {
                            assert!(gap <= bound + 1e-9, "{what}: {key} {gap} > {bound}");
                        }
                        let reported = outcome.side_constraints["fairness"][key]
                            .as_f64()
                            .expect("the reported gap");
                        assert!(
                            (reported - gap).abs() < 1e-9,
                            "{what}: {key} {reported} vs {gap}"
                        );
                    }
                }
            }
        }
    }
    binds
}

#[test]
fn a_parity_bound_reaches_the_oracle_optimum() {
    let instances = [
        grouped_dataset(1, 10, 2),
        grouped_dataset(2, 10, 2),
        grouped_dataset(21, 11, 2),
    ];
    let specs = [
        spec(Some(0.0), None),
        spec(Some(0.1), None),
        spec(Some(0.3), None),
    ];
    assert!(
        check(&instances, &specs),
        "no parity bound changes the optimum"
    );
}

#[test]
fn an_opportunity_bound_reaches_the_oracle_optimum() {
    let instances = [
        grouped_dataset(3, 10, 2),
        grouped_dataset(4, 10, 2),
        grouped_dataset(22, 11, 2),
    ];
    let specs = [
        spec(None, Some(0.0)),
        spec(None, Some(0.2)),
        spec(None, Some(0.5)),
    ];
    assert!(
        check(&instances, &specs),
        "no opportunity bound changes the optimum"
    );
}

#[test]
fn whole_row_weights_weigh_the_rates_and_others_are_refused() {
    let instances = [
        with_random_weights(grouped_dataset(6, 10, 2), 6, true),
        with_random_weights(grouped_dataset(7, 10, 2), 7, true),
    ];
    assert!(
        check(&instances, &[spec(Some(0.0), None), spec(Some(0.1), None)]),
        "no bound changes the weighted optimum"
    );
    let fractional = with_random_weights(grouped_dataset(6, 10, 2), 6, false);
    let error = learn(&dp(1), &fractional, options(&spec(Some(0.1), None), 1))
        .expect_err("fractional weights")
        .to_string();
    assert!(error.contains("weight"), "{error}");
}

#[test]
fn what_the_fair_search_does_not_take_is_refused_by_name() {
    let two = grouped_dataset(1, 10, 2);
    let refused = |data: &Dataset, method: &Method, spec: &ConstraintSpec, named: &str| {
        let error = learn(method, data, options(spec, 1))
            .expect_err(named)
            .to_string();
        assert!(error.contains(named), "{named}: {error}");
    };
    refused(&two, &dp(4), &spec(Some(0.1), None), "depths 1 to 3");
    // The sparse search under fairness is the fair search's: a depth (or max_leaves) of at
    // most 3, never reduced.
    for depth in [Some(4), None] {
        let sparse = Method::Sparse(milptree::learn::sparse_search::SparseSearch {
            depth,
            params: SparseParams::default(),
        });
        refused(
            &two,
            &sparse,
            &spec(Some(0.1), None),
            "set a depth of at most 3",
        );
    }
}

#[test]
fn a_milp_under_fairness_starts_from_the_search_and_is_certified() {
    for (seed, spec) in [(1, spec(Some(0.1), None)), (3, spec(None, Some(0.2)))] {
        let data = grouped_dataset(seed, 14, 2);
        let want = expected(&data, 2, &spec).expect("a constant tree is fair");
        let searched = learn(&dp(2), &data, options(&spec, 1)).expect("dp");
        assert_eq!(searched.report.objective, Some(want));
        let formulation =
            AnyFormulation::from_name(milptree::formulation::FormulationName::FlowOct, 2)
                .expect("FlowOCT");
        let method = Method::Milp {
            formulation,
            solver: SolverKind::Highs,
        };
        let outcome = learn(
            &method,
            &data,
            LearnOptions {
                warm_start: WarmStartMode::Dp,
                certify: Some(std::time::Duration::from_secs(30)),
                ..options(&spec, 1)
            },
        )
        .expect("FlowOCT under fairness");
        let what = format!("seed {seed}, {spec:?}");
        assert!(
            outcome
                .warm_start_source
                .as_deref()
                .is_some_and(|s| s.starts_with("dp (optimal")),
            "{what}: {:?}",
            outcome.warm_start_source
        );
        assert_eq!(outcome.warm_start_objective, Some(want), "{what}");
        assert_eq!(outcome.evaluated_objective, Some(want), "{what}");
        let certificate = outcome.certificate.expect("a certificate");
        assert!(
            matches!(
                certificate.verdict,
                Verdict::Agrees | Verdict::IncumbentOptimal
            ),
            "{what}: {certificate:?}"
        );
        assert_eq!(certificate.dp.map(|d| d.objective), Some(want), "{what}");
    }
}

#[test]
fn forbidden_features_and_a_leaf_minimum_hold_beside_the_bound() {
    use crate::oracle::{leaf_sizes, optimum_over_predictions, OracleTree};
    let mut binds = false;
    for seed in [31, 32, 33] {
        let data = grouped_dataset(seed, 12, 2);
        for depth in [1, 2] {
            let spec = ConstraintSpec {
                forbidden: vec!["x1".into()],
                min_leaf_rows: Some(3),
                ..spec(Some(0.1), None)
            };
            // Splits on `x0` alone, every leaf that receives rows receiving three or more.
            let keep = |tree: &OracleTree, predicted: &[usize], bounded: bool| {
                tree.iter().all(|&(_, j, _)| j == 0)
                    && leaf_sizes(&data, tree).values().all(|&n| n >= 3)
                    && (!bounded || gap(&data, predicted, false) <= 0.1 + 1e-9)
            };
            let want =
                optimum_over_predictions(&data, depth, &|t, p| keep(t, p, true)).expect("a leaf");
            let free =
                optimum_over_predictions(&data, depth, &|t, p| keep(t, p, false)).expect("a leaf");
            binds |= free < want - 1e-9;
            for threads in [1, 2] {
                let outcome = learn(&dp(depth), &data, options(&spec, threads)).expect("dp");
                let what = format!("seed {seed}, depth {depth}, {threads} threads");
                assert_eq!(outcome.report.objective, Some(want), "{what}");
                assert_eq!(
                    outcome.side_constraints["broken"],
                    serde_json::json!([]),
                    "{what}"
                );
                let used = &outcome.side_constraints["features_used"];
                assert!(
                    used.as_array().is_some_and(|u| u.iter().all(|f| f == "x0")),
                    "{what}: {used}"
                );
            }
        }
    }
    assert!(
        binds,
        "the bound never changes the optimum under the other two kinds"
    );
}

#[test]
fn the_front_of_errors_against_the_gap_is_the_oracle_s() {
    use milptree::constraints::fairness::{Fairness, FairnessKind};
    use milptree::fair::{front, FairProblem, FairStop};
    let mut binds = false;
    for (seed, kind) in [(1, FairnessKind::Parity), (3, FairnessKind::Opportunity)] {
        let data = grouped_dataset(seed, 10, 2);
        let opportunity = kind == FairnessKind::Opportunity;
        let given = match kind {
            FairnessKind::Parity => spec(Some(1.0), None),
            FairnessKind::Opportunity => spec(None, Some(1.0)),
        };
        let fairness = Fairness::resolve(&given, &data)
            .expect("valid")
            .expect("fairness");
        for depth in [1, 2] {
            let problem = FairProblem {
                depth,
                thresholds: milptree::data::ThresholdMode::All,
                class_weights: vec![1.0, 1.0],
                split_cost: 0.0,
                min_leaf: 1,
                max_leaf: None,
                max_splits: None,
                forbidden: vec![false, false, true],
                depths: Vec::new(),
                bounds: true,
            };
            let optimum_within = |bound: f64| {
                let bounded = match kind {
                    FairnessKind::Parity => spec(Some(bound), None),
                    FairnessKind::Opportunity => spec(None, Some(bound)),
                };
                expected(&data, depth, &bounded).expect("a leaf")
            };
            for threads in [1, 2] {
                let found = front(&data, &fairness, &problem, threads, &FairStop::never())
                    .expect("a front");
                assert_eq!(
                    found.termination,
                    milptree::search_core::Termination::Optimal
                );
                let points = found.points;
                let what = format!("seed {seed}, {kind:?}, depth {depth}, {threads} threads");
                assert_eq!(points[0].gap, 0.0, "{what}");
                binds |= points.len() >= 2;
                for (i, point) in points.iter().enumerate() {
                    let predicted = point.tree.predict(data.rows());
                    let gap = gap(&data, &predicted, opportunity);
                    assert!(
                        (gap - point.gap).abs() < 1e-9,
                        "{what}: {gap} vs {}",
                        point.gap
                    );
                    assert_eq!(optimum_within(point.gap), point.objective, "{what}");
                    if i > 0 {
                        assert!(point.objective < points[i - 1].objective, "{what}");
                        assert_eq!(
                            optimum_within(point.gap - 1e-7),
                            points[i - 1].objective,
                            "{what}: a tree between points {} and {i}",
                            i - 1
                        );
                    }
                }
                let last = points.last().expect("a point");
                assert_eq!(optimum_within(1.0), last.objective, "{what}");
            }
        }
    }
    assert!(binds, "every front has one point");
}

/// OCT with a leaf penalty minimises the sparse search's objective (in other units): under
/// fairness its `dp` start and its certificate are the fair search with the penalty a cost per
/// split, and its tree, counted here as weighted errors over the total weight plus the penalty
/// per leaf, is the sparse search's optimum and the oracle's.
#[test]
fn oct_with_a_leaf_penalty_under_fairness_starts_from_the_sparse_optimum() {
    use crate::fair_groups::{meets, oracle};
    use milptree::formulation::oct::Oct;
    use milptree::learn::sparse_search::SparseSearch;
    let penalty = 0.05;
    for (seed, spec) in [(1, spec(Some(0.1), None)), (3, spec(None, Some(0.2)))] {
        let data = grouped_dataset(seed, 14, 2);
        let what = format!("seed {seed}, {spec:?}");
        let total = data.n_rows() as f64;
        let sparse_objective = |tree: &milptree::tree::Tree| {
            let predicted = tree.predict(data.rows());
            let errors = (0..data.n_rows())
                .filter(|&i| predicted[i] != data.labels()[i])
                .count() as f64;
            errors / total + penalty * tree.leaves().len() as f64
        };
        let want = oracle(&data, 2)
            .iter()
            .filter(|(key, _)| meets(key, &spec))
            .map(|(key, errors)| errors / total + penalty * (key.splits + 1) as f64)
            .min_by(f64::total_cmp)
            .expect("a fair leaf");
        let sparse = Method::Sparse(SparseSearch {
            depth: Some(2),
            params: SparseParams {
                leaf_penalty: penalty,
                ..SparseParams::default()
            },
        });
        let searched = learn(&sparse, &data, options(&spec, 1)).expect("sparse");
        let found = searched.report.objective.expect("an objective");
        assert!(
            (found - want).abs() < 1e-9,
            "{what}: {found}, oracle {want}"
        );
        let method = Method::Milp {
            formulation: AnyFormulation::Oct(Oct {
                leaf_penalty: penalty,
                ..Oct::new(2)
            }),
            solver: SolverKind::Highs,
        };
        let outcome = learn(
            &method,
            &data,
            LearnOptions {
                warm_start: WarmStartMode::Dp,
                certify: Some(std::time::Duration::from_secs(30)),
                ..options(&spec, 1)
            },
        )
        .expect("OCT under fairness");
        assert!(
            outcome
                .warm_start_source
                .as_deref()
                .is_some_and(|s| s.starts_with("dp (optimal")),
            "{what}: {:?}",
            outcome.warm_start_source
        );
        let certificate = outcome.certificate.expect("a certificate");
        assert!(
            matches!(
                certificate.verdict,
                Verdict::Agrees | Verdict::IncumbentOptimal
            ),
            "{what}: {certificate:?}"
        );
        for (name, tree) in [
            ("the start", outcome.warm_start_tree.as_ref()),
            ("the MILP's tree", outcome.tree.as_ref()),
        ] {
            let counted = sparse_objective(tree.expect("a tree"));
            assert!(
                (counted - want).abs() < 1e-9,
                "{what}: {name} {counted}, oracle {want}"
            );
        }
    }
}

/// The rule on where a feature may split (`depths`) holds under fairness in every search and
/// in the MILPs' start and certificate: on the table where `x1` alone separates the classes but
/// may split at depth 1 only, a stump must split on `x0` (3 errors at best); the exact and
/// sparse searches prove 3, the MILPs prove 3 and their certificate agrees, whichever bound.
/// On random data the MILP's start and certificate are the oracle's optimum under both rules.
#[test]
fn the_depths_a_feature_may_split_at_hold_under_fairness_everywhere() {
    use crate::common::{milptree_json, path_str, temp_file};
    use crate::fair_groups::{meets, oracle};
    let csv = "x0,x1,grp,class\n1,1,g1,a\n2,2,g2,a\n3,3,g1,a\n1,4,g2,b\n2,5,g1,b\n3,6,g2,b\n";
    let (dir, data) = temp_file("dep.csv", csv);
    let rules = dir.path().join("dep.toml");
    std::fs::write(&rules, "[depths]\nx1 = [1]\n").expect("the constraints file");
    for bound in ["--max-parity-gap", "--max-opportunity-gap"] {
        for method in [
            &["--solver", "dp"][..],
            &["--solver", "sparse", "--leaf-penalty", "0"],
            &["--formulation", "oct"],
            &["--formulation", "flowoct"],
        ] {
            let mut args = vec!["solve", path_str(&data), "--depth", "1", "--json"];
            args.extend_from_slice(method);
            args.extend([
                "--constraints",
                path_str(&rules),
                "--group-column",
                "grp",
                bound,
                "1",
            ]);
            let report = milptree_json(&args);
            let what = format!("{args:?}");
            assert_eq!(report["errors"], 3.0, "{what}");
            assert_eq!(report["termination"], "optimal", "{what}");
            assert_eq!(
                report["side_constraints"]["broken"],
                serde_json::json!([]),
                "{what}"
            );
            if method[0] == "--formulation" {
                let verdict = report["certificate"]["verdict"].as_str().unwrap_or("");
                assert!(
                    ["agrees", "incumbent_optimal"].contains(&verdict),
                    "{what}: {verdict}"
                );
            }
        }
    }
    // Random data, depth 2: `x0` below the root only and `x1` at the root only, or no split
    // below the root.
    let rules = [[vec![1], vec![0]], [vec![0], vec![0]]].map(|[x0, x1]| ConstraintSpec {
        depths: [("x0".to_string(), x0), ("x1".to_string(), x1)]
            .into_iter()
            .collect(),
        ..spec(Some(0.1), None)
    });
    let mut binds = false;
    for (seed, rule) in [1, 3, 5]
        .into_iter()
        .flat_map(|s| rules.iter().map(move |r| (s, r)))
    {
        let data = grouped_dataset(seed, 12, 2);
        let seen = oracle(&data, 2);
        let best = |spec: &ConstraintSpec| {
            seen.iter()
                .filter(|(key, _)| meets(key, spec))
                .map(|(_, &errors)| errors)
                .min_by(f64::total_cmp)
                .expect("a fair leaf")
        };
        let want = best(rule);
        binds |= want > best(&spec(Some(0.1), None));
        let searched = learn(&dp(2), &data, options(rule, 1)).expect("dp");
        assert_eq!(searched.report.objective, Some(want), "seed {seed}");
        let formulation =
            AnyFormulation::from_name(milptree::formulation::FormulationName::Oct, 2).expect("OCT");
        let outcome = learn(
            &Method::Milp {
                formulation,
                solver: SolverKind::Highs,
            },
            &data,
            LearnOptions {
                warm_start: WarmStartMode::Dp,
                certify: Some(std::time::Duration::from_secs(30)),
                ..options(rule, 1)
            },
        )
        .expect("OCT under fairness and depths");
        let what = format!("seed {seed}");
        let errors = |tree: &milptree::tree::Tree| {
            let predicted = tree.predict(data.rows());
            (0..data.n_rows())
                .filter(|&i| predicted[i] != data.labels()[i])
                .count() as f64
        };
        let start = outcome.warm_start_tree.as_ref().expect("the dp start");
        assert_eq!(errors(start), want, "{what}: the start");
        assert_eq!(
            errors(outcome.tree.as_ref().expect("a tree")),
            want,
            "{what}"
        );
        let certificate = outcome.certificate.expect("a certificate");
        assert!(
            matches!(
                certificate.verdict,
                Verdict::Agrees | Verdict::IncumbentOptimal
            ),
            "{what}: {certificate:?}"
        );
    }
    assert!(binds, "the depths never change the fair optimum");
}
