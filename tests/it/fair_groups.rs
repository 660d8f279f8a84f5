//! The exact search under fairness with two and three groups, at depths 1 to 3, against the
//! exhaustive oracle over every tree that does not split on the group column and every
//! labelling of its leaves: under a parity bound, an opportunity bound and both, on one and two
//! threads, its objective is the oracle's optimum and its tree keeps the bounds by the rates
//! counted here (the gap of three groups is the largest difference of two groups' rates, as the
//! MILPs bound it); every kind of bound changes the optimum with two groups and with three.
//! Beside fairness, a count and a budget of features, the depths a feature may split at,
//! `max_leaves`, `max_leaf_rows`, `min_leaf_rows` and forbidden features hold and reach the
//! oracle's optimum, each changing it.
//! The front of errors against the gap of three groups is the oracle's, at depths 1 to 3.

use std::collections::{BTreeMap, HashMap};

use milptree::budget::Budget;
use milptree::constraints::fairness::{Fairness, FairnessKind};
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::fair::{front, FairProblem, FairStop};
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::oracle::each_routed_prediction;
use crate::side_constraints_fairness::{gap, grouped_dataset, spec};

/// The group column's index among the features.
const GROUP: usize = 2;

/// Tiny data for depth 3 (few candidate splits, so the oracle enumerates every tree): `x0` of
/// four levels, `x1` of two, the group column `g` of `groups` levels, the label leaning on the
/// group.
fn tiny(seed: u64, n: usize, groups: u32) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut rows, mut labels) = (Vec::new(), Vec::new());
    for i in 0..n {
        let g = (i as u32) % groups;
        let x0 = f64::from(rng.random_range(0..4u32));
        let x1 = f64::from(rng.random_range(0..2u32));
        let lean = [0.8, 0.3, 0.5][g as usize % 3];
        let positive = rng.random_bool(lean) ^ (x0 >= 2.0 && x1 > 0.0);
        rows.push(vec![x0, x1, f64::from(g)]);
        labels.push(usize::from(positive));
    }
    labels[0] = 0;
    labels[1] = 1;
    Dataset::from_parts(
        format!("tiny(seed={seed}, groups={groups})"),
        vec!["x0".into(), "x1".into(), "g".into()],
        vec!["c0".into(), "c1".into()],
        rows,
        labels,
    )
    .expect("valid tiny data")
}

/// The data of one depth: four-level features at depths 1 and 2, the tiny data at depth 3.
fn data_for(seed: u64, depth: usize, groups: u32) -> Dataset {
    if depth == 3 {
        tiny(seed, 12, groups)
    } else {
        grouped_dataset(seed, 12, groups)
    }
}

/// What a tree and a labelling give, as far as the constraints go: the features it splits on
/// (a bit each), the depths it splits on each (bit `4 d + j` for feature `j` at depth `d`), its
/// splits, its smallest and largest leaf (rows), and its gaps (rounded to 1e-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) features: u8,
    placed: u16,
    pub(crate) splits: usize,
    least_leaf: usize,
    most_leaf: usize,
    parity: i64,
    opportunity: i64,
}

/// A gap rounded to 1e-9, so that equal rates computed two ways are one key.
fn rounded(gap: f64) -> i64 {
    (gap * 1e9).round() as i64
}

/// The fewest (weighted) errors of every key over the trees of depth at most `depth` that do
/// not split on the group column, and every labelling of their leaves; on data with missing
/// values, each split with the missing rows on either side (leaves counted as they route).
pub(crate) fn oracle(data: &Dataset, depth: usize) -> HashMap<Key, f64> {
    let mut best: HashMap<Key, f64> = HashMap::new();
    // The smallest and largest leaf of the last routing seen (every labelling of a tree shares
    // it).
    let mut last: Option<(Vec<usize>, (usize, usize))> = None;
    each_routed_prediction(data, depth, &[GROUP], &mut |routed| {
        let tree = routed.tree;
        if last.as_ref().is_none_or(|(l, _)| l != routed.leaf_of) {
            let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
            for &leaf in routed.leaf_of {
                *sizes.entry(leaf).or_default() += 1;
            }
            let least = sizes.values().copied().min().unwrap_or(0);
            let most = sizes.values().copied().max().unwrap_or(0);
            last = Some((routed.leaf_of.to_vec(), (least, most)));
        }
        let (least_leaf, most_leaf) = last.as_ref().expect("set above").1;
        let key = Key {
            features: tree.iter().fold(0u8, |m, &(_, j, _)| m | (1 << j)),
            placed: tree.iter().fold(0u16, |m, &(node, j, _)| {
                m | (1 << (4 * node.ilog2() as usize + j))
            }),
            splits: tree.len(),
            least_leaf,
            most_leaf,
            parity: rounded(gap(data, routed.predicted, false)),
            opportunity: rounded(gap(data, routed.predicted, true)),
        };
        let at = best.entry(key).or_insert(f64::INFINITY);
        *at = at.min(routed.errors);
    });
    best
}

/// The feature costs of the budget tests (`x0`, `x1`).
pub(crate) const COSTS: [f64; 2] = [2.0, 1.0];

/// Whether a key meets `spec`'s bounds and every other kind it holds.
pub(crate) fn meets(key: &Key, spec: &ConstraintSpec) -> bool {
    let within = |bound: Option<f64>, gap: i64| bound.is_none_or(|b| gap <= rounded(b + 1e-9));
    let used: Vec<usize> = (0..2).filter(|j| key.features & (1 << j) != 0).collect();
    let cost: f64 = used.iter().map(|&j| COSTS[j]).sum();
    // Every split of a feature with listed depths is at one of them.
    let placed = |j: usize, depths: &[usize]| {
        (0..3).all(|d| key.placed & (1 << (4 * d + j)) == 0 || depths.contains(&d))
    };
    within(spec.max_parity_gap, key.parity)
        && within(spec.max_opportunity_gap, key.opportunity)
        && spec.max_features.is_none_or(|k| used.len() <= k)
        && spec.budget.is_none_or(|b| cost <= b)
        && spec.max_leaves.is_none_or(|l| key.splits < l)
        && spec.min_leaf_rows.is_none_or(|m| key.least_leaf >= m)
        && spec.max_leaf_rows.is_none_or(|m| key.most_leaf <= m)
        && spec
            .forbidden
            .iter()
            .all(|name| used.iter().all(|j| *name != format!("x{j}")))
        && spec
            .depths
            .iter()
            .all(|(name, depths)| (0..2).all(|j| *name != format!("x{j}") || placed(j, depths)))
}

/// The oracle's optimum under `spec`.
pub(crate) fn optimum(seen: &HashMap<Key, f64>, spec: &ConstraintSpec) -> Option<f64> {
    seen.iter()
        .filter(|(key, _)| meets(key, spec))
        .map(|(_, &errors)| errors)
        .min_by(f64::total_cmp)
}

fn dp(depth: usize) -> Method {
    Method::Dp(DpSearch {
        depth,
        params: DpParams::default(),
    })
}

/// Checks the search under `spec` on `data` at `depth` on one and two threads against the
/// oracle's `want`: its objective, its report's gaps and the bounds by the rates counted here.
fn check_search(data: &Dataset, depth: usize, spec: &ConstraintSpec, want: Option<f64>) {
    for threads in [1, 2] {
        let what = format!(
            "{}, depth {depth}, {threads} threads, {spec:?}",
            data.source()
        );
        let options = LearnOptions {
            budget: Budget::seconds(60.0),
            threads: Some(threads),
            constraints: Some(spec.clone()),
            ..LearnOptions::default()
        };
        let outcome = match (learn(&dp(depth), data, options), want) {
            (Ok(outcome), Some(_)) => outcome,
            (Err(error), None) => {
                assert_eq!(error.exit_code(), 2, "{what}: {error}");
                continue;
            }
            (got, _) => panic!("{what}: {:?}, oracle {want:?}", got.map(|o| o.report)),
        };
        let objective = outcome.report.objective.expect("an objective");
        assert_eq!(Some(objective), want, "{what}");
        assert_eq!(outcome.evaluated_objective, Some(objective), "{what}");
        assert_eq!(
            outcome.side_constraints["broken"],
            serde_json::json!([]),
            "{what}"
        );
        let tree = outcome.tree.as_ref().expect("a tree");
        let predicted = tree.predict(data.rows());
        for (bound, opportunity, key) in [
            (spec.max_parity_gap, false, "parity_gap"),
            (spec.max_opportunity_gap, true, "opportunity_gap"),
        ] {
            let gap = gap(data, &predicted, opportunity);
            assert!(bound.is_none_or(|b| gap <= b + 1e-9), "{what}: {key} {gap}");
            let reported = outcome.side_constraints["fairness"][key].as_f64();
            assert!(
                reported.is_some_and(|r| (r - gap).abs() < 1e-9),
                "{what}: {key}"
            );
        }
    }
}

#[test]
fn two_and_three_groups_at_depths_one_to_three_reach_the_oracle_optimum() {
    let specs = [
        spec(Some(0.0), None),
        spec(Some(0.15), None),
        spec(Some(0.3), None),
        spec(None, Some(0.0)),
        spec(None, Some(0.25)),
        spec(Some(0.2), Some(0.3)),
    ];
    // Whether each spec changes the optimum, for two groups and for three.
    let mut binds: BTreeMap<(u32, usize), bool> = BTreeMap::new();
    for (groups, seeds) in [(2, [9, 10]), (3, [3, 8])] {
        for seed in seeds {
            for depth in 1..=3 {
                let data = data_for(seed, depth, groups);
                let seen = oracle(&data, depth);
                let free = optimum(&seen, &ConstraintSpec::default()).expect("a leaf");
                for (i, spec) in specs.iter().enumerate() {
                    let want = optimum(&seen, spec);
                    *binds.entry((groups, i)).or_default() |= want.is_some_and(|w| w > free);
                    check_search(&data, depth, spec, want);
                }
            }
        }
    }
    let never: Vec<_> = binds.iter().filter(|(_, &b)| !b).collect();
    assert!(
        never.is_empty(),
        "(groups, spec) that never bind: {never:?}"
    );
}

/// Each other kind the searches take, for a tree of `depth` on 12 rows.
pub(crate) fn other_kinds(depth: usize) -> Vec<(&'static str, ConstraintSpec)> {
    let base = ConstraintSpec::default();
    vec![
        (
            "max_features",
            ConstraintSpec {
                max_features: Some(1),
                ..base.clone()
            },
        ),
        (
            "budget",
            ConstraintSpec {
                budget: Some(1.5),
                feature_costs: [("x0", COSTS[0]), ("x1", COSTS[1])]
                    .map(|(n, c)| (n.to_string(), c))
                    .into_iter()
                    .collect(),
                ..base.clone()
            },
        ),
        (
            "max_leaves",
            ConstraintSpec {
                max_leaves: Some(depth.max(2)),
                ..base.clone()
            },
        ),
        (
            "max_leaf_rows",
            ConstraintSpec {
                max_leaf_rows: Some([8, 4, 3][depth - 1]),
                ..base.clone()
            },
        ),
        (
            "min_leaf_rows",
            ConstraintSpec {
                min_leaf_rows: Some(3),
                ..base.clone()
            },
        ),
        (
            "depths",
            ConstraintSpec {
                depths: [("x0".to_string(), vec![1]), ("x1".to_string(), vec![0])]
                    .into_iter()
                    .collect(),
                ..base.clone()
            },
        ),
        // No split below the root.
        (
            "depths",
            ConstraintSpec {
                depths: [("x0".to_string(), vec![0]), ("x1".to_string(), vec![0])]
                    .into_iter()
                    .collect(),
                ..base.clone()
            },
        ),
        (
            "forbidden",
            ConstraintSpec {
                forbidden: vec!["x0".to_string()],
                ..base
            },
        ),
    ]
}

#[test]
fn fairness_beside_each_other_kind_reaches_the_oracle_optimum() {
    let mut changes: BTreeMap<&str, bool> = BTreeMap::new();
    for (seed, groups) in [(8, 3), (9, 2)] {
        for depth in 2..=3 {
            let data = data_for(seed, depth, groups);
            let seen = oracle(&data, depth);
            for fair in [spec(Some(0.15), None), spec(None, Some(0.25))] {
                let alone = optimum(&seen, &fair);
                for (name, other) in other_kinds(depth) {
                    let both = ConstraintSpec {
                        group_column: fair.group_column.clone(),
                        max_parity_gap: fair.max_parity_gap,
                        max_opportunity_gap: fair.max_opportunity_gap,
                        ..other
                    };
                    let want = optimum(&seen, &both);
                    *changes.entry(name).or_default() |= want != alone;
                    check_search(&data, depth, &both, want);
                }
            }
        }
    }
    let never: Vec<_> = changes.iter().filter(|(_, &c)| !c).collect();
    assert!(
        never.is_empty(),
        "kinds that never change the fair optimum: {never:?}"
    );
}

/// The search with and without its lower bounds (and depth 3's start from depth 2) reaches
/// the oracle's optimum under each bound, two and three groups, depths 1 to 3, with a leaf
/// minimum of 1 and 2.
#[test]
fn the_search_with_and_without_its_bounds_reaches_the_oracle_optimum() {
    let specs = [
        spec(Some(0.0), None),
        spec(Some(0.15), None),
        spec(None, Some(0.25)),
        spec(Some(0.2), Some(0.3)),
    ];
    for (groups, seed) in [(2, 9), (2, 10), (3, 8)] {
        for depth in 1..=3 {
            let data = data_for(seed, depth, groups);
            let seen = oracle(&data, depth);
            for given in &specs {
                let fairness = Fairness::resolve(given, &data)
                    .expect("valid")
                    .expect("fair");
                // The optimum under each leaf minimum, the same with bounds and without.
                let mut optima: HashMap<usize, f64> = HashMap::new();
                for (bounds, min_leaf) in [(true, 1), (false, 1), (true, 2), (false, 2)] {
                    let problem = FairProblem {
                        depth,
                        thresholds: milptree::data::ThresholdMode::All,
                        class_weights: vec![1.0, 1.0],
                        split_cost: 0.0,
                        min_leaf,
                        max_leaf: None,
                        max_splits: None,
                        forbidden: vec![false, false, true],
                        depths: Vec::new(),
                        bounds,
                    };
                    let what = format!(
                        "seed {seed}, {groups} groups, depth {depth}, {given:?}, bounds \
                         {bounds}, min_leaf {min_leaf}"
                    );
                    let found =
                        milptree::fair::solve(&data, &fairness, &problem, 1, &FairStop::never())
                            .expect(&what);
                    let evaluated = found
                        .tree
                        .predict(data.rows())
                        .iter()
                        .zip(data.labels())
                        .filter(|(p, l)| **p != **l)
                        .count() as f64;
                    assert_eq!(evaluated, found.objective, "{what}");
                    let first = *optima.entry(min_leaf).or_insert(found.objective);
                    assert_eq!(found.objective, first, "{what}");
                    if min_leaf == 1 {
                        assert_eq!(Some(found.objective), optimum(&seen, given), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_front_of_three_groups_is_the_oracle_s() {
    let mut longest = 0;
    for (seed, kind) in [(3, FairnessKind::Parity), (8, FairnessKind::Opportunity)] {
        for depth in 1..=3 {
            let data = data_for(seed, depth, 3);
            let opportunity = kind == FairnessKind::Opportunity;
            let given = match kind {
                FairnessKind::Parity => spec(Some(1.0), None),
                FairnessKind::Opportunity => spec(None, Some(1.0)),
            };
            let fairness = Fairness::resolve(&given, &data)
                .expect("valid")
                .expect("fair");
            // The oracle's front: the fewest errors at each gap, then those no smaller gap
            // matches.
            let mut at_gap: BTreeMap<i64, f64> = BTreeMap::new();
            for (key, errors) in oracle(&data, depth) {
                let gap = if opportunity {
                    key.opportunity
                } else {
                    key.parity
                };
                let at = at_gap.entry(gap).or_insert(f64::INFINITY);
                *at = at.min(errors);
            }
            let mut want: Vec<(f64, i64)> = Vec::new();
            for (gap, errors) in at_gap {
                if want.last().is_none_or(|&(e, _)| errors < e) {
                    want.push((errors, gap));
                }
            }
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
            for (threads, bounds) in [(1, true), (2, true), (1, false)] {
                let problem = FairProblem {
                    bounds,
                    ..problem.clone()
                };
                let found = front(&data, &fairness, &problem, threads, &FairStop::never())
                    .expect("a front");
                let what = format!(
                    "seed {seed}, {kind:?}, depth {depth}, {threads} threads, bounds {bounds}"
                );
                let got: Vec<(f64, i64)> = found
                    .points
                    .iter()
                    .map(|p| (p.objective, rounded(p.gap)))
                    .collect();
                assert_eq!(got, want, "{what}");
                for point in &found.points {
                    let predicted = point.tree.predict(data.rows());
                    let gap = gap(&data, &predicted, opportunity);
                    assert!(
                        (gap - point.gap).abs() < 1e-9,
                        "{what}: {gap} vs {}",
                        point.gap
                    );
                }
                longest = longest.max(got.len());
            }
        }
    }
    assert!(longest >= 3, "every front is short: {longest}");
}
