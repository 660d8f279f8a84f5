//! `milptree rashomon`: every tree within a margin of the optimum: the count by objective, the
//! features the set uses, the rows it disagrees on, samples, and the trees in objective order.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use num_bigint::BigUint;
use num_traits::Zero;
use serde_json::json;

use crate::budget::Budget;
use crate::cli::data_args::DataArgs;
use crate::cli::model_args::{objective_values, ClassWeightArgs};
use crate::cli::output::{data_block, print_json};
use crate::cli::pages::rashomon_page;
use crate::constraints::ConstraintSpec;
use crate::data::Sets;
use crate::data::{read_for_schema, Dataset};
use crate::dp::DpProblem;
use crate::error::{Error, Result};
use crate::export::html::Rows;
use crate::export::TextView;
use crate::learn::capability::MethodKind;
use crate::learn::objective::ObjectiveName;
use crate::learn::rashomon_problem::{rashomon_problem, RASHOMON_OBJECTIVES};
use crate::learn::settings::{Depth, Settings};
use crate::rashomon::report::{ranked_json, share, Report};
use crate::rashomon::{Limits, Margin, Ranked, RashomonSet, Restriction};
use crate::{out, outln};

#[derive(Debug, Args)]
pub struct RashomonArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Maximum depth of the trees (number of split levels, at least 1).
    #[arg(long)]
    pub depth: usize,
    /// Every tree of objective at most (1 + E) times the optimum.
    #[arg(long, value_name = "E", required_unless_present = "max_errors")]
    pub epsilon: Option<f64>,
    /// Every tree of objective (weighted errors plus split costs) at most N.
    #[arg(long, value_name = "N", conflicts_with = "epsilon")]
    pub max_errors: Option<f64>,
    /// Cost added to the objective for every split node.
    #[arg(long, value_name = "C", conflicts_with = "alpha")]
    pub split_cost: Option<f64>,
    /// Cost of every split node in units of the baseline's (weighted) errors, as `solve`'s
    /// and the estimator's `alpha`.
    #[arg(long, value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// What an error costs: every error the same (accuracy), or errors on each class in
    /// inverse proportion to its rows (balanced).
    #[arg(long, value_parser = objective_values(&RASHOMON_OBJECTIVES))]
    pub objective: Option<ObjectiveName>,
    #[command(flatten)]
    pub class_weights: ClassWeightArgs,
    /// Every leaf has at least N training rows.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_leaf_rows: usize,
    /// Every leaf has at most N training rows.
    #[arg(long, value_name = "N")]
    pub max_leaf_rows: Option<usize>,
    /// A feature no node may split on (repeatable).
    #[arg(long, value_name = "NAME")]
    pub forbid_feature: Vec<String>,
    /// The column whose values are the groups of the fairness bounds (two or more, two
    /// classes); not a feature unless --allow-group-as-feature.
    #[arg(long, value_name = "NAME")]
    pub group_column: Option<String>,
    /// Let the trees split on the group column.
    #[arg(long, requires = "group_column")]
    pub allow_group_as_feature: bool,
    /// Every tree of the set keeps statistical parity: any two groups' rates of positive
    /// predictions differ by at most DELTA on the training rows (the positive class is the
    /// second, or --positive-class). Under a fairness bound a leaf takes either
    /// class, each labelling a tree of its own; the margin is from the fair optimum.
    #[arg(long, value_name = "DELTA")]
    pub max_parity_gap: Option<f64>,
    /// Every tree of the set keeps equal opportunity: any two groups' rates of positive
    /// predictions on their rows of the positive class differ by at most DELTA.
    #[arg(long, value_name = "DELTA")]
    pub max_opportunity_gap: Option<f64>,
    /// The class whose rates the fairness bounds compare (default: the second class).
    #[arg(long, value_name = "LABEL", requires = "group_column")]
    pub positive_class: Option<String>,
    /// A TOML file of side constraints; the set takes `forbidden`, `depths` (features allowed
    /// only at the listed depths, root 0), the leaf rows (`min_leaf_rows`, `max_leaf_rows`)
    /// and the fairness keys (`group_column`, `positive_class`, `max_parity_gap`,
    /// `max_opportunity_gap`), and refuses the other kinds by name.
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
    /// Wall-clock limit of the exact search and the set's build, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    /// Cap on the memory of the set's graph, in MiB.
    #[arg(long, value_name = "MB", default_value_t = crate::rashomon::DEFAULT_MEMORY_LIMIT_MB)]
    pub memory_limit: usize,
    /// Draw K trees uniformly from the set (with replacement) and list them.
    #[arg(long, value_name = "K")]
    pub sample: Option<usize>,
    /// Feature importances over every tree of the set when it has at most K, else over K
    /// drawn uniformly (from `--sample-seed`); 0 leaves them out.
    #[arg(long, value_name = "K", default_value_t = 1000)]
    pub importance_trees: usize,
    /// Seed of `--sample` and of the importances' sample.
    #[arg(long = "sample-seed", value_name = "S", default_value_t = 0)]
    pub sample_seed: u64,
    /// Write the set's trees in objective order to this file, one JSON document a line
    /// (`rank`, `objective`, `variants`, `tree`), at most `--limit` of them.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// At most this many trees in `--out`.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub limit: usize,
    /// Rows (a CSV file with the training file's feature columns; a label column is not
    /// needed) to take the set's votes on: how many of them the set disagrees on, and how many
    /// some tree predicts unlike the first best.
    #[arg(long, value_name = "FILE")]
    pub votes_on: Option<PathBuf>,
    /// Write the votes on `--votes-on`'s rows to this CSV file: per row, the share of the set's
    /// trees predicting each class and whether they all agree.
    #[arg(long, value_name = "FILE", requires = "votes_on")]
    pub votes_out: Option<PathBuf>,
    /// Write the set's page to this file: the trees by objective, each feature's use and
    /// importance across the set, and a browser of its first trees (and of `--sample`'s).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Trees in the page's browser, the first in objective order.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub html_trees: usize,
    /// Print one JSON document on stdout instead of text (counts are decimal strings, exact).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: RashomonArgs) -> Result<()> {
    let sets = args.data.load()?;
    let data = &sets.train;
    let margin = match (args.epsilon, args.max_errors) {
        (Some(e), _) => Margin::Relative(e),
        (None, Some(n)) => Margin::Objective(n),
        (None, None) => {
            return Err(Error::parameter(
                "--epsilon",
                "give --epsilon E or --max-errors N",
            ))
        }
    };
    let (problem, restriction) = problem(&args, data)?;
    let time = args
        .time_limit
        .clone()
        .unwrap_or_else(Budget::unlimited)
        .with_interrupt(Some(crate::cli::interrupt::interrupt_flag()));
    let limits = Limits::new(time, args.memory_limit);
    let set = RashomonSet::build_restricted(data, &problem, &restriction, margin, &limits)?;
    let samples = match args.sample {
        Some(k) => set.sample(k, args.sample_seed)?,
        None => Vec::new(),
    };
    let written = match &args.out {
        Some(path) => Some(write_trees(&set, path, args.limit)?),
        None => None,
    };
    let report = Report::of(&set, args.importance_trees, args.sample_seed)?;
    if let Some(page) = &args.html {
        write_page(&args, &sets, &set, &report, &samples, page)?;
    }
    let new_rows = match &args.votes_on {
        Some(path) => Some(votes_on(&args, &set, path)?),
        None => None,
    };
    if args.json {
        let mut doc = report.json(&set);
        doc["command"] = json!("rashomon");
        doc["data"] = serde_json::to_value(data_block(&args.data, &sets))
            .map_err(|e| Error::Internal(format!("a report does not serialise: {e}")))?;
        doc["epsilon"] = json!(args.epsilon);
        doc["samples"] = samples.iter().map(ranked_json).collect();
        doc["written"] = json!(written);
        doc["votes_on"] = json!(new_rows);
        return print_json(&doc);
    }
    print(&report, &set, &args, data)?;
    for tree in &samples {
        outln!(
            "\nsample: rank {}, objective {}, {} threshold variants",
            tree.rank,
            tree.objective,
            tree.shape.variants()
        )?;
        out!("{}", TextView(&tree.tree))?;
    }
    if let Some(votes) = &new_rows {
        outln!(
            "\nvotes on {}: the set disagrees on {} of {} rows; some tree predicts unlike the \
             first best on {} ({:.1}%)",
            votes.path,
            votes.disputed,
            votes.rows,
            votes.ambiguous,
            100.0 * votes.ambiguous as f64 / votes.rows.max(1) as f64
        )?;
    }
    if let (Some(path), Some(n)) = (&args.out, written) {
        outln!("{n} trees written to {} (objective order)", path.display())?;
    }
    Ok(())
}

/// The command's text report of `set`.
fn print(report: &Report, set: &RashomonSet, args: &RashomonArgs, data: &Dataset) -> Result<()> {
    let margin = match args.epsilon {
        Some(e) => format!(", epsilon {e}"),
        None => String::new(),
    };
    outln!(
        "Rashomon set, depth {}: every tree of objective at most {} (optimum {}{margin}): {} \
             ({} training rows, {} features, {} classes)",
        set.problem().depth,
        figure(set.max_objective()),
        figure(set.optimum()),
        args.data.data.display(),
        data.n_rows(),
        data.n_features(),
        data.n_classes()
    )?;
    let (nodes, bytes) = set.graph_size();
    outln!(
        "trees: {} ({} over every candidate threshold), in {:.2} s, {} row sets held ({} KiB)",
        report.count,
        report.with_variants,
        set.seconds(),
        nodes,
        bytes / 1024
    )?;
    if let Some(stop) = set.stop() {
        outln!(
            "stopped ({}): the set is complete up to objective {} of the {} asked; it holds \
             every tree up to that objective and none above",
            stop.name().replace('_', " "),
            figure(set.max_objective()),
            figure(set.asked_max_objective())
        )?;
    }
    if let Some(fairness) = set.fairness() {
        outln!(
            "fairness: every tree keeps {}; a leaf takes either class",
            fairness.describe()
        )?;
    }
    let gaps = set.gaps_by_objective();
    if gaps.is_empty() {
        outln!("\nobjective  trees")?;
        for (cost, n) in set.by_objective() {
            outln!("{:<10} {n}", figure(cost))?;
        }
    } else {
        let rows: Vec<(String, String)> = set
            .by_objective()
            .into_iter()
            .map(|(cost, n)| (figure(cost), n.to_string()))
            .collect();
        let wide = rows.iter().map(|(_, n)| n.len()).max().unwrap_or(0).max(5);
        outln!("\nobjective  {:<wide$}  gap (least to largest)", "trees")?;
        for ((cost, n), (_, low, high)) in rows.iter().zip(gaps) {
            outln!("{cost:<10} {n:<wide$}  {low:.4} to {high:.4}")?;
        }
    }
    let width = data
        .schema()
        .features
        .iter()
        .map(|f| f.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let importances = &report.importances;
    outln!(
        "\n{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  trees",
        "feature",
        "share",
        "imp",
        "min",
        "median",
        "max"
    )?;
    for (j, (name, n)) in data
        .schema()
        .features
        .iter()
        .zip(&report.feature_trees)
        .enumerate()
    {
        if n.is_zero() {
            continue;
        }
        let spread = match importances.spread(j) {
            Some(s) => format!(
                "{:>6.3}  {:>6.3}  {:>6.3}  {:>6.3}",
                s.mean, s.min, s.median, s.max
            ),
            None => format!("{:>6}  {:>6}  {:>6}  {:>6}", "-", "-", "-", "-"),
        };
        outln!(
            "{name:<width$}  {:>5.1}%  {spread}  {n}",
            100.0 * share(n, &report.count)
        )?;
    }
    if !importances.per_tree.is_empty() {
        outln!(
            "(share: of the trees splitting on the feature; imp: its mean share of a tree's \
             error decrease, with min, median and max, over {})",
            importances.over()
        )?;
    }
    let disputed = report.disputed();
    outln!(
        "\nrows the set disagrees on: {} of {}; rows some tree predicts unlike the first best: \
             {} ({:.1}%)",
        disputed.len(),
        data.n_rows(),
        report.ambiguous(),
        100.0 * report.ambiguous() as f64 / data.n_rows().max(1) as f64
    )?;
    Ok(())
}

/// An objective for the text report, to six decimals (the margin's product reads 9.45, not
/// 9.450000000000001).
fn figure(x: f64) -> String {
    crate::data::short_number((x * 1e6).round() / 1e6)
}

/// Writes at most `limit` trees in objective order to `path`, one JSON document a line.
fn write_trees(set: &RashomonSet, path: &PathBuf, limit: usize) -> Result<usize> {
    let failed = |source| Error::Output {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::create(path).map_err(failed)?;
    let mut writer = std::io::BufWriter::new(file);
    let mut written = 0;
    let mut rank = BigUint::from(0u8);
    while written < limit {
        let Some(tree) = set.tree(&rank)? else {
            break;
        };
        writeln!(writer, "{}", ranked_json(&tree)).map_err(failed)?;
        written += 1;
        rank += 1u8;
    }
    writer.flush().map_err(failed)?;
    Ok(written)
}

/// Writes the set's page to `path`.
fn write_page(
    args: &RashomonArgs,
    sets: &Sets,
    set: &RashomonSet,
    report: &Report,
    samples: &[Ranked],
    path: &Path,
) -> Result<()> {
    let first = set.first(args.html_trees)?;
    let source = format!("training rows of {}", args.data.data.display());
    let training = crate::cli::output::training_rows(&args.data, &sets.train);
    let page = rashomon_page(
        set,
        report,
        &first,
        samples,
        &Rows::of(&sets.train, &source),
        &args.data.data.display().to_string(),
        &training.fingerprint,
    );
    crate::cli::pages::write_page(path, &page)
}

/// The exact search's problem and what the trees must keep, from the command's options as
/// [`Settings`] (the estimator's settings: depth, `--alpha`, `--objective`, `--class-weight`,
/// leaf rows, `--forbid-feature`, the fairness options and `--constraints`, whose `forbidden`,
/// `depths`, leaf rows and fairness keys the set takes; any other kind is refused by name),
/// with `--split-cost` as an absolute cost per split.
fn problem(args: &RashomonArgs, data: &Dataset) -> Result<(DpProblem, Restriction)> {
    let mut settings = Settings::new(MethodKind::Dp);
    settings.depth = Some(Depth::Levels(args.depth));
    settings.alpha = args.alpha;
    settings.objective = args.objective;
    settings
        .class_weight
        .clone_from(&args.class_weights.class_weight);
    settings.min_leaf = Some(args.min_leaf_rows);
    settings.max_leaf_rows = args.max_leaf_rows;
    settings.positive_class.clone_from(&args.positive_class);
    settings.forbidden_features.clone_from(&args.forbid_feature);
    settings.group_column.clone_from(&args.group_column);
    settings.allow_group_as_feature = args.allow_group_as_feature;
    settings.max_parity_gap = args.max_parity_gap;
    settings.max_opportunity_gap = args.max_opportunity_gap;
    if let Some(path) = &args.constraints {
        settings.constraints = Some(ConstraintSpec::from_file(path)?);
    }
    let (mut problem, restriction) = rashomon_problem(&settings, data)?;
    if let Some(cost) = args.split_cost {
        if !cost.is_finite() || cost < 0.0 {
            return Err(Error::parameter(
                "--split-cost",
                format!("{cost} is not a finite number of at least 0"),
            ));
        }
        problem.split_cost = cost;
    }
    Ok((problem, restriction))
}

/// What the set's votes on other rows say.
#[derive(Debug, serde::Serialize)]
struct NewRows {
    path: String,
    rows: usize,
    /// Rows no class has every tree's vote on.
    disputed: usize,
    /// Rows some tree predicts unlike the first best tree.
    ambiguous: usize,
    /// Where the votes were written (`--votes-out`).
    written: Option<String>,
}

/// The set's votes on the rows of `path`, written to `--votes-out` when given.
fn votes_on(args: &RashomonArgs, set: &RashomonSet, path: &Path) -> Result<NewRows> {
    let data = set.data();
    let (observations, unseen) = read_for_schema(
        path,
        data.schema(),
        data.classes(),
        &args.data.columns.options(),
        &args.data.missing.options(),
    )?;
    for category in &unseen {
        crate::noteln!(
            "warning: column `{}`: value `{}` ({} rows) does not occur in the training data; \
             those rows go the `!=` way at every split on that column",
            category.column,
            category.value,
            category.rows
        );
    }
    let rows = &observations.rows;
    let votes = set.votes(rows)?;
    let best = set
        .tree(&BigUint::from(0u8))?
        .map(|ranked| ranked.tree.predict(rows));
    let mut disputed = 0;
    let mut ambiguous = 0;
    let classes = data.classes();
    let mut csv = String::from("row");
    for class in classes {
        csv.push_str(&format!(",share_{class}"));
    }
    csv.push_str(",agree\n");
    for (i, vote) in votes.iter().enumerate() {
        let total: BigUint = vote.iter().sum();
        let all_agree = vote.contains(&total);
        disputed += usize::from(!all_agree);
        if let Some(best) = &best {
            ambiguous += usize::from(vote[best[i]] != total);
        }
        csv.push_str(&i.to_string());
        for n in vote {
            csv.push_str(&format!(",{}", share(n, &total)));
        }
        csv.push_str(if all_agree { ",1\n" } else { ",0\n" });
    }
    if let Some(out) = &args.votes_out {
        crate::cli::output::write_file(out, &csv)?;
    }
    Ok(NewRows {
        path: path.display().to_string(),
        rows: rows.len(),
        disputed,
        ambiguous,
        written: args.votes_out.as_ref().map(|p| p.display().to_string()),
    })
}
