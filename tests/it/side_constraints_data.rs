//! Side constraints in the exact and sparse searches on data with missing values and on data
//! with whole-number row weights: under each kind the searches take, alone and two at a time,
//! `dp` and `sparse` on one and two threads reach the optimum of the exhaustive oracle filtered
//! tree by tree (each split with the missing rows on either side; each row's error at its
//! weight), and return a tree over the data's features that meets them. On missing values,
//! every kind is taken (the two copies of a feature are that one feature to the rule:
//! forbidden, counted, costed and placed once), at depths 1 and 2 for every set and at depth 3
//! for each kind alone; under row weights, the kinds that count rows (`min_leaf_rows`,
//! `max_leaf_rows`) are refused by name and the others taken, at depths 1 to 3, and with
//! missing values too at depths 1 and 2.

use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::learn::sparse_search::SparseParams;
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method};

use crate::common::{random_dataset, with_random_weights};
use crate::oracle::{optimum_where, OracleOptimum};
use crate::side_constraints_exact::{
    assert_clean, data_for, errors, kind_sets, options, oracle_of, Kind, KINDS,
};

const PENALTY: f64 = 0.02;

/// `data` with the cells of `features` missing in about one row of four (fixed by `seed`).
pub(crate) fn with_missing(data: Dataset, seed: u64, features: &[usize]) -> Dataset {
    let rows: Vec<Vec<f64>> = data
        .rows()
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut row = row.clone();
            for &j in features {
                if (i as u64 * 7 + j as u64 * 3 + seed) % 4 == 0 {
                    row[j] = f64::NAN;
                }
            }
            row
        })
        .collect();
    Dataset::from_parts(
        "missing",
        data.schema().features.clone(),
        data.classes().to_vec(),
        rows,
        data.labels().to_vec(),
    )
    .expect("valid data with missing values")
}

/// The filtered oracle's optima at `depth` under `spec` on `data`: `dp`'s (weighted errors)
/// and `sparse`'s (its objective); `None` when no tree meets `spec`.
fn expected(data: &Dataset, depth: usize, spec: &ConstraintSpec) -> Option<(OracleOptimum, f64)> {
    let total: f64 = (0..data.n_rows()).map(|i| data.weight(i)).sum();
    let (oracle, keep) = oracle_of(data, depth, spec, 0.0);
    let expected = optimum_where(data, &oracle, &keep)?;
    let (sparse_oracle, keep) = oracle_of(data, depth, spec, PENALTY * total);
    let sparse_expected = optimum_where(data, &sparse_oracle, &keep)
        .map(|o| (o.objective + PENALTY * total) / total)?;
    Some((expected, sparse_expected))
}

/// `dp` and `sparse` at `depth` under `spec` on `data`, on one and two threads, against the
/// oracle's optima (see [`expected`]).
fn check_both(
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
    (expected, sparse_expected): (OracleOptimum, f64),
    context: &str,
) {
    for threads in [1, 2] {
        let context = format!("{context} threads {threads}");
        check_on(
            data,
            depth,
            spec,
            (expected, sparse_expected),
            threads,
            &context,
        );
    }
}

/// [`check_both`] on `threads`.
fn check_on(
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
    (expected, sparse_expected): (OracleOptimum, f64),
    threads: usize,
    context: &str,
) {
    let options = LearnOptions {
        threads: Some(threads),
        ..options(spec)
    };
    let dp = Method::Dp(DpSearch {
        depth,
        params: DpParams::default(),
    });
    let outcome = learn(&dp, data, options.clone()).expect(context);
    let tree = outcome.tree.expect("a tree");
    assert_clean(&tree, &outcome.side_constraints, data, spec);
    let objective = outcome.report.objective.expect("an objective");
    assert!(
        (objective - expected.objective).abs() < 1e-9,
        "dp {context}: {objective}, oracle {}",
        expected.objective
    );
    if !data.is_weighted() {
        assert_eq!(errors(&tree, data), expected.errors, "dp {context}");
    }
    let sparse = SparseParams {
        leaf_penalty: PENALTY,
        ..SparseParams::default()
    }
    .check(Some(depth))
    .expect("valid");
    let outcome = learn(&Method::Sparse(sparse), data, options).expect(context);
    let tree = outcome.tree.expect("a tree");
    assert_clean(&tree, &outcome.side_constraints, data, spec);
    let objective = outcome.report.objective.expect("an objective");
    assert!(
        (objective - sparse_expected).abs() < 1e-9,
        "sparse {context}: {objective}, oracle {sparse_expected}"
    );
}

/// Both searches at `depth` under `spec` on `data` prove that no tree meets it (exit 2).
fn refused_by_both(data: &Dataset, depth: usize, spec: &ConstraintSpec) {
    let dp = Method::Dp(DpSearch {
        depth,
        params: DpParams::default(),
    });
    let sparse = Method::Sparse(SparseParams::default().check(Some(depth)).expect("valid"));
    for method in [&dp, &sparse] {
        let error = learn(method, data, options(spec)).expect_err("no tree");
        assert_eq!(error.exit_code(), 2, "{error}");
        assert!(
            error.to_string().contains("proves that there is no tree"),
            "{error}"
        );
    }
}

/// The spec of the kinds `kinds` at `depth`.
fn spec_of(kinds: &[Kind], depth: usize) -> ConstraintSpec {
    let mut spec = ConstraintSpec::default();
    for kind in kinds {
        kind.add_to(&mut spec, depth);
    }
    spec
}

#[test]
fn the_searches_take_every_kind_on_data_with_missing_values() {
    for seed in [31, 32] {
        // Depth 3 enumerates many more trees: one seed, one feature with missing values, and
        // each kind alone.
        for depth in (1..=3).filter(|&d| d < 3 || seed == 31) {
            let (missing, sets): (&[usize], Vec<Vec<Kind>>) = if depth == 3 {
                (&[1], KINDS.iter().map(|&k| vec![k]).collect())
            } else {
                (&[1, 2], kind_sets())
            };
            let data = with_missing(data_for(seed, depth), seed, missing);
            assert!(data.has_missing());
            for kinds in sets {
                let spec = spec_of(&kinds, depth);
                let Some(optima) = expected(&data, depth, &spec) else {
                    // Only a cap on the rows of a leaf leaves no tree: both searches prove it.
                    assert!(kinds.contains(&Kind::MaxLeafRows), "{kinds:?}");
                    refused_by_both(&data, depth, &spec);
                    continue;
                };
                let context = format!("seed {seed} depth {depth} {kinds:?}");
                check_both(&data, depth, &spec, optima, &context);
            }
        }
    }
}

#[test]
fn the_searches_take_the_kinds_that_do_not_count_rows_under_row_weights() {
    for seed in [41, 42] {
        for depth in 1..=3 {
            let data = with_random_weights(data_for(seed, depth), seed, true);
            for kinds in kind_sets() {
                let spec = spec_of(&kinds, depth);
                let counts_rows = kinds
                    .iter()
                    .any(|k| matches!(k, Kind::MinLeafRows | Kind::MaxLeafRows));
                if counts_rows {
                    continue;
                }
                let optima = expected(&data, depth, &spec).expect("a leaf meets it");
                let context = format!("seed {seed} depth {depth} {kinds:?}");
                check_both(&data, depth, &spec, optima, &context);
            }
        }
    }
}

#[test]
fn the_searches_take_row_weights_and_missing_values_together() {
    for depth in 1..=2 {
        let data = with_random_weights(with_missing(data_for(44, depth), 44, &[1, 2]), 44, true);
        for kind in KINDS {
            if matches!(kind, Kind::MinLeafRows | Kind::MaxLeafRows) {
                continue;
            }
            let spec = spec_of(&[kind], depth);
            let optima = expected(&data, depth, &spec).expect("a leaf meets it");
            check_both(
                &data,
                depth,
                &spec,
                optima,
                &format!("depth {depth} {kind:?}"),
            );
        }
    }
}

#[test]
fn under_row_weights_the_kinds_that_count_rows_are_refused_by_name() {
    let data = with_random_weights(random_dataset(43, 16, 4, 2, 3), 43, true);
    assert!(!data.copies_count_rows());
    let dp = Method::Dp(DpSearch {
        depth: 2,
        params: DpParams::default(),
    });
    let sparse = Method::Sparse(SparseParams::default().check(Some(2)).expect("valid"));
    for (kind, name) in [
        (Kind::MinLeafRows, "min_leaf_rows"),
        (Kind::MaxLeafRows, "max_leaf_rows"),
    ] {
        for method in [&dp, &sparse] {
            let error = learn(method, &data, options(&spec_of(&[kind], 2))).expect_err("refused");
            assert_eq!(error.exit_code(), 2, "{error}");
            assert!(
                error.to_string().replace('-', "_").contains(name),
                "{}: {error}",
                method.name()
            );
        }
    }
}

#[test]
fn fairness_with_a_count_of_features_on_data_with_missing_values_is_refused_by_name() {
    let mut csv = String::from("a,b,g,class\n");
    for i in 0..40 {
        let a = if i % 5 == 0 {
            String::new()
        } else {
            (i % 7).to_string()
        };
        csv.push_str(&format!("{a},{},{},{}\n", i % 3, i % 2, (i / 3) % 2));
    }
    let (_dir, path) = crate::common::temp_file("fair_missing.csv", &csv);
    let path = crate::common::path_str(&path);
    crate::common::assert_usage_error(
        &[
            "solve",
            path,
            "--solver",
            "dp",
            "--depth",
            "2",
            "--group-column",
            "g",
            "--max-parity-gap",
            "0.2",
            "--max-features",
            "1",
        ],
        "--max-features",
    );
}
