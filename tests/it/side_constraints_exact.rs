//! Side constraints in the exact and sparse searches and in a MILP's start and certificate: on
//! small random data, `dp` and `sparse` under each kind they take (forbidden features,
//! `max_features`, `feature_costs` with `budget`, `depths`, `max_leaves`, `min_leaf_rows`,
//! `max_leaf_rows`), alone and two at a time, at depths 1 to 3, on one and two threads, reach
//! the optimum of the exhaustive oracle filtered tree by tree, return a tree over the data's
//! full feature indexing that meets them, and report it; where no tree meets them, both say so
//! (exit 2); each kind changes the
//! optimum on some data. A MILP under those kinds starts from the search's tree and gets a
//! certificate verdict (under a cap no tree meets, no start and a certificate that agrees with
//! the solver's finding none); the searches refuse the user's rows (the other kind) by name
//! (the certificate under rows: `user_rows_search`).

use milptree::budget::Budget;
use milptree::constraints::{evaluate, ConstraintSpec};
use milptree::data::Dataset;
use milptree::formulation::AnyFormulation;
use milptree::learn::certificate::Verdict;
use milptree::learn::sparse_search::{SparseObjective, SparseParams};
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method, WarmStartMode};
use milptree::solver::SolverKind;
use milptree::tree::Tree;

use crate::common::random_dataset;
use crate::oracle::{optimum_where, OracleSpec, OracleTree};

fn forbid(names: &[&str]) -> ConstraintSpec {
    ConstraintSpec {
        forbidden: names.iter().map(|n| n.to_string()).collect(),
        ..ConstraintSpec::default()
    }
}

pub(crate) fn options(spec: &ConstraintSpec) -> LearnOptions {
    LearnOptions {
        budget: Budget::seconds(60.0),
        constraints: Some(spec.clone()),
        ..LearnOptions::default()
    }
}

pub(crate) fn errors(tree: &Tree, data: &Dataset) -> usize {
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count()
}

/// The tree is over every feature of `data`, splits on none of the forbidden ones (feature
/// indices `banned`) by plain evaluation, and the report says so.
pub(crate) fn assert_clean(
    tree: &Tree,
    report: &serde_json::Value,
    data: &Dataset,
    spec: &ConstraintSpec,
) {
    assert_eq!(tree.features(), data.schema().features.as_slice());
    let constraints = spec.resolve(data).expect("valid constraints");
    let values = evaluate(&constraints, tree);
    assert!(values.broken.is_empty(), "{:?}", values.broken);
    assert_eq!(
        report["features_used"],
        serde_json::json!(values.features_used)
    );
    assert_eq!(report["broken"], serde_json::json!([]));
    for name in &spec.forbidden {
        assert!(!values.features_used.contains(name), "{name} used");
    }
}

#[test]
fn the_exact_search_under_forbidden_features_reaches_the_filtered_optimum() {
    let spec = forbid(&["x0", "x2"]);
    let mut binds = false;
    for seed in [11, 12, 13] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        for depth in [1, 2] {
            let oracle = OracleSpec::errors(&data, depth);
            let expected = optimum_where(&data, &oracle, &|t| t.iter().all(|&(_, j, _)| j == 1))
                .expect("a leaf meets it");
            let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
            binds |= free.errors < expected.errors;
            let method = Method::Dp(DpSearch {
                depth,
                params: DpParams::default(),
            });
            let outcome = learn(&method, &data, options(&spec)).expect("dp");
            let tree = outcome.tree.expect("a tree");
            assert_eq!(
                errors(&tree, &data),
                expected.errors,
                "seed {seed} depth {depth}"
            );
            assert_clean(&tree, &outcome.side_constraints, &data, &spec);
        }
    }
    assert!(binds, "forbidding the features never changes the optimum");
}

#[test]
fn the_sparse_search_under_forbidden_features_reaches_the_filtered_optimum() {
    let spec = forbid(&["x1"]);
    let penalty = 0.02;
    for seed in [11, 12] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        let n = data.n_rows() as f64;
        let search = SparseParams {
            leaf_penalty: penalty,
            ..SparseParams::default()
        }
        .check(Some(2))
        .expect("valid");
        let outcome = learn(&Method::Sparse(search), &data, options(&spec)).expect("sparse");
        let tree = outcome.tree.expect("a tree");
        assert_clean(&tree, &outcome.side_constraints, &data, &spec);
        let counted = errors(&tree, &data) as f64 / n + penalty * tree.leaves().len() as f64;
        let oracle = OracleSpec {
            split_cost: penalty * n,
            ..OracleSpec::errors(&data, 2)
        };
        let expected = optimum_where(&data, &oracle, &|t| t.iter().all(|&(_, j, _)| j != 1))
            .expect("a leaf meets it");
        // The oracle prices splits; a tree has one leaf more than its splits.
        let expected = (expected.objective + penalty * n) / n;
        assert!(
            (counted - expected).abs() < 1e-9,
            "seed {seed}: sparse {counted}, oracle {expected}"
        );
    }
}

#[test]
fn every_feature_forbidden_leaves_a_single_leaf() {
    let data = random_dataset(11, 14, 3, 2, 4);
    let spec = forbid(&["x0", "x1", "x2"]);
    let method = Method::Dp(DpSearch {
        depth: 2,
        params: DpParams::default(),
    });
    let outcome = learn(&method, &data, options(&spec)).expect("dp");
    let tree = outcome.tree.expect("a tree");
    assert_eq!(tree.n_splits(), 0);
    assert_eq!(
        errors(&tree, &data),
        data.n_rows() - *data.class_counts().iter().max().expect("a class")
    );
}

/// A kind the searches take, with its value for a tree of `depth` on data with features
/// `x0..x3`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Forbidden,
    MaxFeatures,
    Budget,
    Depths,
    MaxLeaves,
    MinLeafRows,
    MaxLeafRows,
}

pub(crate) const KINDS: [Kind; 7] = [
    Kind::Forbidden,
    Kind::MaxFeatures,
    Kind::Budget,
    Kind::Depths,
    Kind::MaxLeaves,
    Kind::MinLeafRows,
    Kind::MaxLeafRows,
];

/// The depths rule of [`Kind::Depths`]: `x1` only below the root, `x2` at the root and at
/// depth 2, `x3` only at depth 2 (nowhere in a tree of depth 1 or 2).
const DEPTHS: [(usize, &[usize]); 3] = [(1, &[1, 2]), (2, &[0, 2]), (3, &[2])];

const COSTS: [f64; 4] = [2.0, 1.0, 1.0, 3.0];

impl Kind {
    pub(crate) fn add_to(self, spec: &mut ConstraintSpec, depth: usize) {
        match self {
            Kind::Forbidden => spec.forbidden = vec!["x0".to_string()],
            Kind::MaxFeatures => spec.max_features = Some(1),
            Kind::Budget => {
                spec.budget = Some(2.0);
                spec.feature_costs = (0..4).map(|j| (format!("x{j}"), COSTS[j])).collect();
            }
            Kind::Depths => {
                spec.depths = DEPTHS
                    .iter()
                    .map(|&(j, at)| (format!("x{j}"), at.to_vec()))
                    .collect();
            }
            Kind::MaxLeaves => spec.max_leaves = Some(depth.max(2)),
            Kind::MinLeafRows => spec.min_leaf_rows = Some(4),
            // 16 rows: 10 binds one split, 6 two levels, 4 three (with a minimum of 4, every
            // leaf exactly 4 rows).
            Kind::MaxLeafRows => spec.max_leaf_rows = Some([10, 6, 4][depth - 1]),
        }
    }
}

/// The oracle's problem and filter for `spec` (features by index `x{j}`).
pub(crate) fn oracle_of(
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
    split_cost: f64,
) -> (OracleSpec, impl Fn(&OracleTree) -> bool) {
    let oracle = OracleSpec {
        split_cost,
        min_leaf: spec.min_leaf_rows.unwrap_or(1),
        max_leaf: spec.max_leaf_rows,
        max_splits: spec.max_leaves.map(|l| l - 1),
        ..OracleSpec::errors(data, depth)
    };
    let spec = spec.clone();
    let keep = move |tree: &OracleTree| {
        let mut used: Vec<usize> = tree.iter().map(|&(_, j, _)| j).collect();
        used.sort_unstable();
        used.dedup();
        let forbidden = used
            .iter()
            .any(|j| spec.forbidden.contains(&format!("x{j}")));
        let count = spec.max_features.is_some_and(|k| used.len() > k);
        let cost: f64 = used.iter().map(|&j| COSTS[j]).sum();
        let budget = spec.budget.is_some_and(|b| cost > b);
        // Node `i` (1-based, breadth first) lies at depth floor(log2(i)).
        let misplaced = tree.iter().any(|&(node, j, _)| {
            let at = node.ilog2() as usize;
            spec.depths
                .get(&format!("x{j}"))
                .is_some_and(|listed| !listed.contains(&at))
        });
        !(forbidden || count || budget || misplaced)
    };
    (oracle, keep)
}

/// Every set of one or two kinds.
pub(crate) fn kind_sets() -> Vec<Vec<Kind>> {
    let mut sets: Vec<Vec<Kind>> = KINDS.iter().map(|&k| vec![k]).collect();
    for (i, &a) in KINDS.iter().enumerate() {
        for &b in &KINDS[i + 1..] {
            sets.push(vec![a, b]);
        }
    }
    sets
}

/// Small data for `depth`: three values a feature at depths 1 and 2, two at depth 3 (so the
/// oracle enumerates every tree in time).
pub(crate) fn data_for(seed: u64, depth: usize) -> Dataset {
    random_dataset(seed, 16, 4, 2, if depth == 3 { 2 } else { 3 })
}

#[test]
fn the_searches_under_each_kind_and_each_pair_reach_the_filtered_optimum() {
    let penalty = 0.02;
    let mut changes = vec![false; KINDS.len()];
    for seed in [21, 22] {
        for depth in 1..=3 {
            let data = data_for(seed, depth);
            let n = data.n_rows() as f64;
            let free =
                optimum_where(&data, &OracleSpec::errors(&data, depth), &|_| true).expect("a leaf");
            for kinds in kind_sets() {
                let mut spec = ConstraintSpec::default();
                for kind in &kinds {
                    kind.add_to(&mut spec, depth);
                }
                let (oracle, keep) = oracle_of(&data, depth, &spec, 0.0);
                let expected = optimum_where(&data, &oracle, &keep);
                if let [kind] = kinds.as_slice() {
                    let i = KINDS.iter().position(|k| k == kind).expect("a kind");
                    changes[i] |= expected.is_none_or(|e| e.objective > free.objective);
                }
                let capped = kinds.contains(&Kind::MaxLeafRows);
                let (sparse_oracle, keep) = oracle_of(&data, depth, &spec, penalty * n);
                let sparse_expected = optimum_where(&data, &sparse_oracle, &keep)
                    .map(|o| (o.objective + penalty * n) / n);
                for threads in [1, 2] {
                    let context = format!("seed {seed} depth {depth} {kinds:?} threads {threads}");
                    let options = LearnOptions {
                        threads: Some(threads),
                        ..options(&spec)
                    };
                    let dp = Method::Dp(DpSearch {
                        depth,
                        params: DpParams::default(),
                    });
                    let found = learn(&dp, &data, options.clone());
                    let sparse = SparseParams {
                        leaf_penalty: penalty,
                        ..SparseParams::default()
                    }
                    .check(Some(depth))
                    .expect("valid");
                    let Some(expected) = expected else {
                        // Only a cap on the rows of a leaf leaves no tree.
                        assert!(capped, "{context}");
                        let sparse_found = learn(&Method::Sparse(sparse), &data, options);
                        for found in [found, sparse_found] {
                            let error = found.expect_err(&context);
                            assert_eq!(error.exit_code(), 2, "{context}: {error}");
                            assert!(
                                error.to_string().contains("proves that there is no tree"),
                                "{context}: {error}"
                            );
                        }
                        continue;
                    };
                    let outcome = found.expect(&context);
                    assert_eq!(
                        outcome.report.termination,
                        milptree::solver::Termination::Optimal,
                        "{context}"
                    );
                    let tree = outcome.tree.expect("a tree");
                    assert_clean(&tree, &outcome.side_constraints, &data, &spec);
                    assert_eq!(errors(&tree, &data), expected.errors, "dp {context}");
                    let found = learn(&Method::Sparse(sparse), &data, options);
                    let sparse_expected = sparse_expected.expect("a leaf meets it");
                    let outcome = found.expect(&context);
                    let tree = outcome.tree.expect("a tree");
                    assert_clean(&tree, &outcome.side_constraints, &data, &spec);
                    let counted =
                        errors(&tree, &data) as f64 / n + penalty * tree.leaves().len() as f64;
                    assert!(
                        (counted - sparse_expected).abs() < 1e-9,
                        "sparse {context}: {counted}, oracle {sparse_expected}"
                    );
                    let reported = outcome.report.objective.expect("an objective");
                    assert!((reported - counted).abs() < 1e-9, "sparse {context}");
                }
            }
        }
    }
    assert_eq!(
        changes,
        vec![true; KINDS.len()],
        "some kind never changes the optimum ({KINDS:?})"
    );
}

/// FlowOCT of depth 2 on HiGHS.
fn flowoct_on_highs() -> Method {
    Method::Milp {
        formulation: AnyFormulation::from_name(milptree::formulation::FormulationName::FlowOct, 2)
            .expect("flowoct"),
        solver: SolverKind::Highs,
    }
}

#[test]
fn a_milp_under_the_kinds_the_search_takes_starts_from_it_and_is_certified() {
    let data = random_dataset(12, 14, 4, 2, 3);
    let method = flowoct_on_highs();
    let run = |spec: &ConstraintSpec| {
        learn(
            &method,
            &data,
            LearnOptions {
                certify: Some(std::time::Duration::from_secs(30)),
                warm_start: WarmStartMode::Dp,
                ..options(spec)
            },
        )
        .expect("flowoct")
    };
    for spec in [
        forbid(&["x0", "x2"]),
        ConstraintSpec {
            max_leaves: Some(3),
            min_leaf_rows: Some(3),
            ..ConstraintSpec::default()
        },
        ConstraintSpec {
            max_features: Some(1),
            ..forbid(&["x1"])
        },
        ConstraintSpec {
            max_leaf_rows: Some(5),
            ..ConstraintSpec::default()
        },
        ConstraintSpec {
            max_leaf_rows: Some(6),
            min_leaf_rows: Some(3),
            max_features: Some(1),
            ..ConstraintSpec::default()
        },
        toml::from_str("[depths]\nx1 = [0]\nx2 = [1]\n").expect("toml"),
        ConstraintSpec {
            max_leaves: Some(3),
            ..toml::from_str("[depths]\nx0 = [1]\n").expect("toml")
        },
    ] {
        let outcome = run(&spec);
        let certificate = outcome.certificate.clone().expect("a certificate");
        assert_eq!(
            certificate.verdict,
            Verdict::Agrees,
            "{spec:?}: {}",
            certificate.message
        );
        let source = outcome.warm_start_source.clone().unwrap_or_default();
        assert!(source.starts_with("dp (optimal"), "{spec:?}: {source}");
        let tree = outcome.tree.expect("a tree");
        assert_clean(&tree, &outcome.side_constraints, &data, &spec);
        let (oracle, keep) = oracle_of(&data, 2, &spec, 0.0);
        let expected = optimum_where(&data, &oracle, &keep).expect("a leaf");
        assert_eq!(errors(&tree, &data), expected.errors, "{spec:?}");
    }
}

/// A cap no tree of the depth meets (four leaves of at most 3 of 14 rows): the MILP's warm
/// start has no tree to start from, and the certificate agrees with a solver that found none.
#[test]
fn a_milp_under_a_cap_no_tree_meets_is_certified_infeasible() {
    let data = random_dataset(12, 14, 4, 2, 3);
    let method = flowoct_on_highs();
    let spec = ConstraintSpec {
        max_leaf_rows: Some(3),
        ..ConstraintSpec::default()
    };
    let outcome = learn(
        &method,
        &data,
        LearnOptions {
            certify: Some(std::time::Duration::from_secs(30)),
            warm_start: WarmStartMode::Dp,
            ..options(&spec)
        },
    )
    .expect("a run without a tree");
    assert!(outcome.tree.is_none());
    let certificate = outcome.certificate.expect("a certificate");
    assert_eq!(
        certificate.verdict,
        Verdict::Agrees,
        "{}",
        certificate.message
    );
    assert!(
        certificate.message.contains("neither found a tree"),
        "{}",
        certificate.message
    );
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("the exact search returned no tree")),
        "{:?}",
        outcome.notes
    );
}

#[test]
fn other_kinds_are_refused_by_the_searches_with_their_names() {
    let data = random_dataset(11, 14, 4, 2, 4);
    let dp = Method::Dp(DpSearch {
        depth: 1,
        params: DpParams::default(),
    });
    let sparse = Method::Sparse(SparseParams::default().check(Some(1)).expect("valid"));
    let refused: [(&str, &str); 1] = [("rows", "rows = [\"used[j=1] <= 0\"]\n")];
    for (kind, text) in refused {
        let spec = ConstraintSpec {
            max_leaves: Some(2),
            ..toml::from_str(text).expect("toml")
        };
        for method in [&dp, &sparse] {
            let error = learn(method, &data, options(&spec)).expect_err("refused");
            assert_eq!(error.exit_code(), 2);
            let message = error.to_string();
            assert!(
                message.contains(&format!("do not take {kind}")),
                "{}: {message}",
                method.name()
            );
        }
    }
    // Fairness: both searches take it (tested in `fair_search`, `fair_groups` and
    // `fair_missing`), the sparse search within depth 3 only.
    let fair: ConstraintSpec =
        toml::from_str("group_column = \"x3\"\nmax_parity_gap = 0.1\n").expect("toml");
    let uncapped = Method::Sparse(SparseParams::default().check(None).expect("valid"));
    let error = learn(&uncapped, &data, options(&fair)).expect_err("refused");
    assert_eq!(error.exit_code(), 2);
    assert!(
        error.to_string().contains("sparse search under fairness"),
        "{error}"
    );
    // A loss of the whole leaf set takes forbidden features only.
    let f1 = SparseParams {
        objective: SparseObjective::F1,
        ..SparseParams::default()
    }
    .check(Some(1))
    .expect("valid");
    let leaves = ConstraintSpec {
        max_leaves: Some(2),
        ..ConstraintSpec::default()
    };
    let error = learn(&Method::Sparse(f1), &data, options(&leaves)).expect_err("refused");
    let message = error.to_string();
    assert!(
        message.contains(
            "invalid --constraints: --solver sparse with --objective f1 takes forbidden features \
             only, not max_leaves"
        ),
        "{message}"
    );
    let message = error.render(milptree::setting::Names::Python);
    assert!(
        message.contains(
            "invalid constraints: method='sparse' with objective='f1' takes forbidden features \
             only, not max_leaves"
        ),
        "{message}"
    );
    // The leaf minimum counts rows: with row weights the searches, which count copies, refuse it.
    let weighted = data
        .clone()
        .with_weights((0..data.n_rows()).map(|i| 1.0 + (i % 2) as f64).collect())
        .expect("weights");
    let spec = ConstraintSpec {
        min_leaf_rows: Some(3),
        ..ConstraintSpec::default()
    };
    for method in [&dp, &sparse] {
        let error = learn(method, &weighted, options(&spec)).expect_err("refused");
        assert_eq!(error.exit_code(), 2, "{error}");
    }
    // So does the cap on the rows of a leaf.
    let spec = ConstraintSpec {
        max_leaf_rows: Some(9),
        ..ConstraintSpec::default()
    };
    for method in [&dp, &sparse] {
        let error = learn(method, &weighted, options(&spec)).expect_err("refused");
        assert_eq!(error.exit_code(), 2, "{error}");
        assert!(error.to_string().contains("--max-leaf-rows"), "{error}");
    }
}

#[test]
fn a_tree_file_of_the_search_under_forbidden_features_predicts_the_original_data() {
    let data = random_dataset(12, 14, 3, 2, 4);
    let (dir, csv) = crate::common::temp_file("data.csv", &crate::common::to_csv(&data));
    let tree_file = dir.path().join("tree.json");
    let output = crate::common::milptree(&[
        "solve",
        crate::common::path_str(&csv),
        "--solver",
        "sparse",
        "--depth",
        "2",
        "--forbid-feature",
        "x0",
        "--output",
        crate::common::path_str(&tree_file),
        "--json",
        "--quiet",
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&output)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a report");
    let used = report["side_constraints"]["features_used"].clone();
    assert!(
        !used
            .as_array()
            .expect("features used")
            .contains(&"x0".into()),
        "{report}"
    );
    let tree = Tree::read(&tree_file).expect("a tree");
    assert_eq!(tree.features(), data.schema().features.as_slice());
    let predicted = crate::common::milptree(&[
        "predict",
        "--tree",
        crate::common::path_str(&tree_file),
        crate::common::path_str(&csv),
    ]);
    assert_eq!(
        predicted.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&predicted)
    );
}
