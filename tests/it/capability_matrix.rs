//! Every method against every objective, every kind of side constraint, every kind of row
//! weights and missing values: each combination is either taken or refused by name, and what
//! is taken does something.
//!
//! - The methods are the formulations ([`FormulationName::ALL`]) and the two searches, the
//!   objectives [`ObjectiveName::ALL`] (which the command line offers, all of them), the kinds
//!   [`ConstraintKind::ALL`]. Whether a method takes an objective or a kind is the library's
//!   tables' ([`ObjectiveName::taken_by`], [`ConstraintTaker::takes`]), and the run must agree.
//! - A combination is run through the library as the command line builds it
//!   ([`solve_settings`], then [`learn`]): it returns a tree whose objective, evaluated again by
//!   plain code, is the one reported; or it fails with a usage error (exit 2) that names the
//!   method or the option at fault.
//! - Taken means used: on some seed, the objective's optimum is not optimal for accuracy, the
//!   kind's optimum is worse than the unconstrained one, and the weighted optimum is not optimal
//!   without the weights. A method that silently dropped any of them fails here.
//!
//! The product is covered two dimensions at a time beside the method (objective × kind,
//! objective × data, kind × data; the data: plain, whole-number weights, fractional weights,
//! missing values, weights and missing values), on 16 rows at depth 2 (OLCT at depth 1).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, OnceLock};

use milptree::budget::Budget;
use milptree::cli::embed::solve_settings;
use milptree::constraints::kinds::{ConstraintKind, ConstraintTaker};
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::FormulationName;
use milptree::learn::learn;
use milptree::learn::objective::ObjectiveName;
use milptree::tree::Tree;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{milptree, stdout};
use crate::side_constraints_data::with_missing;

/// The sparse search's leaf penalty in every run.
const PENALTY: f64 = 0.02;
/// The seeds tried for a change of the optimum.
const SEEDS: std::ops::Range<u64> = 0..24;
const ROWS: usize = 16;

/// A method as the command line chooses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Learner {
    Formulation(FormulationName),
    Dp,
    Sparse,
}

impl Learner {
    fn all() -> Vec<Learner> {
        let mut all: Vec<Learner> = FormulationName::ALL
            .into_iter()
            .map(Learner::Formulation)
            .collect();
        all.extend([Learner::Dp, Learner::Sparse]);
        all
    }

    /// The method's words and its depth.
    fn words(self) -> Vec<String> {
        let words: Vec<&str> = match self {
            Learner::Formulation(FormulationName::Olct) => {
                vec!["--formulation", "olct", "--depth", "1"]
            }
            Learner::Formulation(name) => vec!["--formulation", name.name(), "--depth", "2"],
            Learner::Dp => vec!["--solver", "dp", "--depth", "2"],
            Learner::Sparse => vec![
                "--solver",
                "sparse",
                "--depth",
                "2",
                "--leaf-penalty",
                "0.02",
            ],
        };
        words.into_iter().map(str::to_string).collect()
    }

    /// The name a refusal gives the method.
    fn name(self) -> &'static str {
        match self {
            Learner::Formulation(name) => name.name(),
            Learner::Dp => "dp",
            Learner::Sparse => "sparse",
        }
    }

    /// The method's column of the capability table of side constraints.
    fn taker(self) -> ConstraintTaker {
        match self {
            Learner::Formulation(FormulationName::Olct) => ConstraintTaker::Olct,
            Learner::Formulation(
                FormulationName::Oct | FormulationName::BinOct | FormulationName::FlowOct,
            ) => ConstraintTaker::Milp,
            Learner::Dp => ConstraintTaker::Dp,
            Learner::Sparse => ConstraintTaker::Sparse,
        }
    }

    /// What the method minimises for accuracy, of `tree` on `data`: the weighted errors,
    /// over the total weight plus the leaf penalty for the sparse search.
    fn accuracy_cost(self, tree: &Tree, data: &Dataset) -> f64 {
        let errors = weighted_errors(tree, data);
        match self {
            Learner::Sparse => {
                let total: f64 = (0..data.n_rows()).map(|i| data.weight(i)).sum();
                errors / total + PENALTY * tree.leaves().len() as f64
            }
            _ => errors,
        }
    }
}

/// The data a combination runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DataKind {
    Plain,
    WholeWeights,
    FractionalWeights,
    Missing,
    WeightsAndMissing,
}

const DATA_KINDS: [DataKind; 5] = [
    DataKind::Plain,
    DataKind::WholeWeights,
    DataKind::FractionalWeights,
    DataKind::Missing,
    DataKind::WeightsAndMissing,
];

/// Two classes (about one row in three positive, labels from `x0` and `x1` with noise) on four
/// features of three values.
fn plain_data(seed: u64) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xca9a_b111);
    let rows: Vec<Vec<f64>> = (0..ROWS)
        .map(|_| {
            (0..4)
                .map(|_| f64::from(rng.random_range(0..3u32)))
                .collect()
        })
        .collect();
    let labels: Vec<usize> = rows
        .iter()
        .map(|row| {
            let rule = row[0] + row[1] >= 3.0;
            usize::from(rule != rng.random_bool(0.2))
        })
        .collect();
    let mut labels = labels;
    labels[0] = 0;
    labels[1] = 1;
    Dataset::from_parts(
        format!("matrix(seed={seed})"),
        (0..4).map(|j| format!("x{j}")).collect(),
        vec!["no".to_string(), "yes".to_string()],
        rows,
        labels,
    )
    .expect("valid random data")
}

fn data(kind: DataKind, seed: u64) -> Dataset {
    let plain = plain_data(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x3e16_0a7f);
    let mut weights = |choices: &[f64]| -> Vec<f64> {
        let mut weights: Vec<f64> = (0..ROWS)
            .map(|_| choices[rng.random_range(0..choices.len())])
            .collect();
        weights[0] = 1.0;
        weights
    };
    match kind {
        DataKind::Plain => Ok(plain),
        DataKind::WholeWeights => plain.with_weights(weights(&[1.0, 1.0, 2.0, 5.0])),
        DataKind::FractionalWeights => plain.with_weights(weights(&[0.3, 1.0, 1.7, 4.1])),
        DataKind::Missing => Ok(with_missing(plain, seed, &[1])),
        DataKind::WeightsAndMissing => {
            with_missing(plain, seed, &[1]).with_weights(weights(&[1.0, 3.0]))
        }
    }
    .expect("valid weights")
}

/// The weight of the rows `tree` misclassifies on `data`, by plain evaluation.
fn weighted_errors(tree: &Tree, data: &Dataset) -> f64 {
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .enumerate()
        .filter(|(_, (p, l))| p != l)
        .map(|(i, _)| data.weight(i))
        .sum()
}

/// A constraint of `kind` that binds on most of the data above (the unconstrained optimum
/// splits on `x0` and `x1`).
fn constraint(kind: ConstraintKind) -> ConstraintSpec {
    let mut spec = ConstraintSpec::default();
    match kind {
        ConstraintKind::Forbidden => spec.forbidden = vec!["x0".to_string()],
        ConstraintKind::MaxFeatures => spec.max_features = Some(1),
        ConstraintKind::Budget => {
            spec.budget = Some(1.0);
            spec.feature_costs = [("x0", 1.0), ("x1", 1.0)]
                .into_iter()
                .map(|(name, cost)| (name.to_string(), cost))
                .collect();
        }
        ConstraintKind::Depths => {
            spec.depths = [("x0".to_string(), vec![1]), ("x1".to_string(), vec![1])]
                .into_iter()
                .collect();
        }
        ConstraintKind::MaxLeaves => spec.max_leaves = Some(2),
        ConstraintKind::MinLeafRows => spec.min_leaf_rows = Some(5),
        ConstraintKind::MaxLeafRows => spec.max_leaf_rows = Some(5),
        ConstraintKind::Rows => {
            // `used[j]` exists in every model once features are counted; a count of 4 of 4
            // features binds nothing, the row forbids `x1`.
            spec.max_features = Some(4);
            spec.rows = vec!["used[j=1] <= 0".to_string()];
        }
        ConstraintKind::Fairness => {
            spec.group_column = Some("x3".to_string());
            spec.allow_group_as_feature = true;
            spec.max_parity_gap = Some(0.0);
        }
    }
    spec
}

/// A combination's tree and objective on one seed (`None`: refused by name).
type Run = Option<(Tree, f64)>;

/// One combination: the method, `--objective` (none: the default, accuracy), the kind.
#[derive(Debug, Clone, Copy)]
struct Combination {
    learner: Learner,
    objective: Option<&'static str>,
    kind: Option<ConstraintKind>,
    data: DataKind,
}

impl Combination {
    fn plain(learner: Learner) -> Combination {
        Combination {
            learner,
            objective: None,
            kind: None,
            data: DataKind::Plain,
        }
    }

    fn context(&self, seed: u64) -> String {
        format!(
            "{} --objective {} kind {:?} data {:?} seed {seed}",
            self.learner.name(),
            self.objective.unwrap_or("(default)"),
            self.kind.map(ConstraintKind::name),
            self.data
        )
    }

    /// The combination's tree on its data of `seed`, or `None` when it is refused by name.
    fn tree(&self, seed: u64) -> Option<Tree> {
        self.outcome(seed).map(|(tree, _)| tree)
    }

    /// The combination's tree and objective (as plain evaluation gives it) on its data of
    /// `seed`, or `None` when it is refused by name; anything else (a failed run, a refusal
    /// naming nothing, a reported objective that plain evaluation does not give) fails the
    /// test. Runs once per combination and seed.
    fn outcome(&self, seed: u64) -> Option<(Tree, f64)> {
        static RUNS: OnceLock<Mutex<HashMap<String, Run>>> = OnceLock::new();
        let context = self.context(seed);
        let runs = RUNS.get_or_init(Default::default);
        if let Some(known) = runs
            .lock()
            .expect("no test panicked holding it")
            .get(&context)
        {
            return known.clone();
        }
        let tree = self.run(seed, &context);
        runs.lock()
            .expect("no test panicked holding it")
            .insert(context, tree.clone());
        tree
    }

    fn run(&self, seed: u64, context: &str) -> Option<(Tree, f64)> {
        let mut words = self.learner.words();
        if let Some(objective) = self.objective {
            words.extend(["--objective".to_string(), objective.to_string()]);
            if objective == "weighted" {
                words.extend(["--class-weight".to_string(), "yes=3".to_string()]);
            }
        }
        let train = data(self.data, seed);
        let outcome = solve_settings(&words).and_then(|(method, mut options)| {
            options.budget = Budget::seconds(60.0);
            options.constraints = self.kind.map(constraint);
            learn(&method, &train, options)
        });
        match outcome {
            Ok(outcome) => {
                if let (Some(reported), Some(evaluated)) =
                    (outcome.report.objective, outcome.evaluated_objective)
                {
                    assert!(
                        (reported - evaluated).abs() <= 1e-6 * reported.abs().max(1.0),
                        "{context}: reported {reported}, evaluated again {evaluated}"
                    );
                }
                let objective = outcome
                    .evaluated_objective
                    .or(outcome.report.objective)
                    .unwrap_or_else(|| panic!("{context}: taken, but no objective"));
                let tree = outcome
                    .tree
                    .unwrap_or_else(|| panic!("{context}: taken, but no tree"));
                Some((tree, objective))
            }
            Err(error) => {
                let text = error.to_string();
                assert_eq!(error.exit_code(), 2, "{context}: not a usage error: {text}");
                let named = [self.learner.name(), "--objective", "--weight-column"]
                    .iter()
                    .any(|name| text.contains(name))
                    || self.kind.is_some_and(|kind| text.contains(kind.name()));
                assert!(
                    named,
                    "{context}: the refusal names neither the method nor the option: {text}"
                );
                None
            }
        }
    }

    /// Whether, on some seed, the combination's optimum differs from `baseline`'s (the same
    /// objective on the same data): what it adds changes the optimum.
    fn changes_optimum_of(&self, baseline: Combination) -> bool {
        SEEDS.clone().any(|seed| {
            let (Some((_, value)), Some((_, base))) = (self.outcome(seed), baseline.outcome(seed))
            else {
                return false;
            };
            (value - base).abs() > 1e-9 * base.abs().max(1.0)
        })
    }

    /// Whether, on some seed, the combination's tree costs more for accuracy (on the same
    /// data) than `baseline`'s optimum: what it adds changes the optimum.
    fn changes_from(&self, baseline: Combination) -> bool {
        SEEDS.clone().any(|seed| {
            let (Some(tree), Some(base)) = (self.tree(seed), baseline.tree(seed)) else {
                return false;
            };
            let data = data(self.data, seed);
            self.learner.accuracy_cost(&tree, &data)
                > self.learner.accuracy_cost(&base, &data) + 1e-9
        })
    }
}

/// The objectives `solve --help` lists, each with the methods its help names in brackets
/// (none: every method that counts errors).
fn objectives() -> Vec<(String, Vec<String>)> {
    let help = stdout(&milptree(&["solve", "--help"]));
    let section = help
        .split("--objective <OBJECTIVE>")
        .nth(1)
        .and_then(|rest| rest.split("Possible values:").nth(1))
        .expect("solve --help lists the objective's values");
    section
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("--"))
        .filter_map(|line| line.strip_prefix("- "))
        .filter_map(|line| line.split_once(':'))
        .map(|(name, help)| {
            let methods = help
                .trim()
                .strip_prefix('[')
                .and_then(|tagged| tagged.split_once(']'))
                .map_or_else(
                    || vec!["oct", "binoct", "flowoct", "dp", "sparse"],
                    |(tag, _)| tag.split(", ").collect(),
                );
            (
                name.to_string(),
                methods.into_iter().map(str::to_string).collect(),
            )
        })
        .collect()
}

fn takes_objective(learner: Learner, objective: ObjectiveName) -> bool {
    objective.taken_by(learner.taker())
}

/// The command line offers every objective of the library's table, and no other, and its
/// help names the methods the table gives each.
#[test]
fn the_command_line_offers_every_objective_of_the_table() {
    let offered = objectives();
    let names: BTreeSet<&str> = offered.iter().map(|(name, _)| name.as_str()).collect();
    let known: BTreeSet<&str> = ObjectiveName::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names, known);
    for (name, methods) in &offered {
        let objective = ObjectiveName::parse(name).expect("known");
        let table: Vec<String> = Learner::all()
            .into_iter()
            .filter(|&learner| takes_objective(learner, objective))
            .map(|learner| learner.name().to_string())
            .collect();
        assert_eq!(
            methods, &table,
            "--objective {name}: the help against the table"
        );
    }
}

/// Each method under each objective and each kind of data: on plain data taken exactly where
/// the table says, elsewhere taken only there (or refused by name); a taken objective other
/// than accuracy changes the optimum on some seed.
#[test]
fn each_objective_is_taken_and_used_or_refused_by_name() {
    for learner in Learner::all() {
        for objective in ObjectiveName::ALL {
            for kind_of_data in DATA_KINDS {
                let combination = Combination {
                    objective: Some(objective.name()),
                    data: kind_of_data,
                    ..Combination::plain(learner)
                };
                let context = combination.context(0);
                let taken = combination.tree(0).is_some();
                let table = takes_objective(learner, objective);
                if kind_of_data == DataKind::Plain {
                    assert_eq!(taken, table, "{context}: the table says {table}");
                } else {
                    assert!(!taken || table, "{context}: taken against the table");
                }
                if taken && objective != ObjectiveName::Accuracy {
                    let baseline = Combination {
                        data: kind_of_data,
                        ..Combination::plain(learner)
                    };
                    assert!(
                        combination.changes_from(baseline),
                        "{context}: never changes the optimum"
                    );
                }
            }
        }
    }
}

/// Each method under each kind of side constraint and each kind of data: on plain data taken
/// exactly where the capability table says, elsewhere taken only there (or refused by name); a
/// taken kind changes the optimum on some seed.
#[test]
fn each_constraint_kind_is_taken_and_used_or_refused_by_name() {
    for learner in Learner::all() {
        for kind in ConstraintKind::ALL {
            for kind_of_data in DATA_KINDS {
                let combination = Combination {
                    kind: Some(kind),
                    data: kind_of_data,
                    ..Combination::plain(learner)
                };
                let context = combination.context(0);
                let taken = combination.tree(0).is_some();
                let table = learner.taker().takes(kind);
                if kind_of_data == DataKind::Plain {
                    assert_eq!(taken, table, "{context}: the table says {table}");
                } else {
                    assert!(!taken || table, "{context}: taken against the table");
                }
                if taken {
                    let baseline = Combination {
                        data: kind_of_data,
                        ..Combination::plain(learner)
                    };
                    assert!(
                        combination.changes_optimum_of(baseline),
                        "{context}: never changes the optimum"
                    );
                }
            }
        }
    }
}

/// Each method on weighted data: taken (then the weights change the optimum on some seed:
/// the weighted optimum is not optimal without them) or refused by name.
#[test]
fn row_weights_are_taken_and_used_or_refused_by_name() {
    for learner in Learner::all() {
        for (weighted_data, unweighted) in [
            (DataKind::WholeWeights, DataKind::Plain),
            (DataKind::FractionalWeights, DataKind::Plain),
            (DataKind::WeightsAndMissing, DataKind::Missing),
        ] {
            let weighted = Combination {
                data: weighted_data,
                ..Combination::plain(learner)
            };
            let changes = SEEDS.clone().any(|seed| {
                let (Some(tree), Some(base)) = (
                    weighted.tree(seed),
                    Combination {
                        data: unweighted,
                        ..weighted
                    }
                    .tree(seed),
                ) else {
                    return false;
                };
                let plain = data(unweighted, seed);
                learner.accuracy_cost(&tree, &plain) > learner.accuracy_cost(&base, &plain) + 1e-9
            });
            let taken = weighted.tree(0).is_some();
            assert!(
                !taken || changes,
                "{}: the weights never change the optimum",
                weighted.context(0)
            );
        }
    }
}

/// Each objective under each kind, on plain data: taken only where both are, or refused by
/// name; a taken kind still changes the objective's optimum on some seed.
#[test]
fn each_objective_under_each_kind_is_taken_and_used_or_refused_by_name() {
    for learner in Learner::all() {
        for objective in ObjectiveName::ALL {
            for kind in ConstraintKind::ALL {
                let combination = Combination {
                    objective: Some(objective.name()),
                    kind: Some(kind),
                    ..Combination::plain(learner)
                };
                let context = combination.context(0);
                let taken = combination.tree(0).is_some();
                let table = takes_objective(learner, objective) && learner.taker().takes(kind);
                assert!(!taken || table, "{context}: taken against the table");
                if taken {
                    let baseline = Combination {
                        kind: None,
                        ..combination
                    };
                    assert!(
                        combination.changes_optimum_of(baseline),
                        "{context}: never changes the optimum"
                    );
                }
            }
        }
    }
}
