//! `milptree rashomon`: every tree within a margin of the optimum: the count by objective, the
//! features the set uses, the rows it disagrees on, samples, and the trees in objective order.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use num_bigint::BigUint;
use num_traits::Zero;
use serde_json::{json, Value};

use crate::budget::Budget;
use crate::cli::data_args::DataArgs;
use crate::cli::output::{data_block, print_json};
use crate::data::{Dataset, ThresholdMode};
use crate::dp::DpProblem;
use crate::error::{Error, Result};
use crate::export::TextView;
use crate::rashomon::{approx, Limits, Margin, Ranked, RashomonSet};
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
    #[arg(long, value_name = "C", default_value_t = 0.0)]
    pub split_cost: f64,
    /// Every leaf has at least N training rows.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_leaf_rows: usize,
    /// Every leaf has at most N training rows.
    #[arg(long, value_name = "N")]
    pub max_leaf_rows: Option<usize>,
    /// Wall-clock limit of the exact search and the set's build, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    /// Cap on the memory of the set's graph, in MiB.
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    pub memory_limit: usize,
    /// Draw K trees uniformly from the set (with replacement) and list them.
    #[arg(long, value_name = "K")]
    pub sample: Option<usize>,
    /// Seed of `--sample`.
    #[arg(long = "sample-seed", value_name = "S", default_value_t = 0)]
    pub sample_seed: u64,
    /// Write the set's trees in objective order to this file, one JSON document a line
    /// (`rank`, `objective`, `variants`, `tree`), at most `--limit` of them.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// At most this many trees in `--out`.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub limit: usize,
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
    if !args.split_cost.is_finite() || args.split_cost < 0.0 {
        return Err(Error::parameter(
            "--split-cost",
            format!("{} is not a finite number of at least 0", args.split_cost),
        ));
    }
    let problem = DpProblem {
        depth: args.depth,
        max_splits: None,
        thresholds: ThresholdMode::All,
        class_weights: vec![1.0; data.n_classes()],
        split_cost: args.split_cost,
        min_leaf: args.min_leaf_rows,
        max_leaf: args.max_leaf_rows,
    };
    let time = args
        .time_limit
        .clone()
        .unwrap_or_else(Budget::unlimited)
        .with_interrupt(Some(crate::cli::interrupt::interrupt_flag()));
    let limits = Limits {
        time,
        memory_limit_mb: args.memory_limit,
    };
    let set = RashomonSet::build(data, &problem, margin, &limits)?;
    let samples = match args.sample {
        Some(k) => set.sample(k, args.sample_seed)?,
        None => Vec::new(),
    };
    let written = match &args.out {
        Some(path) => Some(write_trees(&set, path, args.limit)?),
        None => None,
    };
    let report = Report::of(&set, data)?;
    if args.json {
        let mut doc = report.json(&set);
        doc["command"] = json!("rashomon");
        doc["data"] = serde_json::to_value(data_block(&args.data, &sets))
            .map_err(|e| Error::Internal(format!("a report does not serialise: {e}")))?;
        doc["epsilon"] = json!(args.epsilon);
        doc["samples"] = samples.iter().map(ranked_json).collect();
        doc["written"] = json!(written);
        return print_json(&doc);
    }
    report.print(&set, &args, data)?;
    for tree in &samples {
        outln!(
            "\nsample: rank {}, objective {}, {} threshold variants",
            tree.rank,
            tree.objective,
            tree.shape.variants()
        )?;
        out!("{}", TextView(&tree.tree))?;
    }
    if let (Some(path), Some(n)) = (&args.out, written) {
        outln!("{n} trees written to {} (objective order)", path.display())?;
    }
    Ok(())
}

/// What the command reports of a set.
struct Report {
    count: BigUint,
    with_variants: BigUint,
    /// Per feature, the trees that split on it.
    feature_trees: Vec<BigUint>,
    /// Per training row, the share of the trees predicting each class.
    shares: Vec<Vec<f64>>,
    /// The first best tree's prediction of each training row.
    reference: Vec<usize>,
}

impl Report {
    fn of(set: &RashomonSet, data: &Dataset) -> Result<Report> {
        let count = set.count();
        let feature_trees = (0..data.n_features())
            .map(|j| &count - set.count_without(j))
            .collect();
        let votes = set.votes(data.rows())?;
        let shares = votes
            .iter()
            .map(|v| {
                let total = approx(&v.iter().sum());
                v.iter().map(|n| approx(n) / total).collect()
            })
            .collect();
        let reference = match set.tree(&BigUint::from(0u8))? {
            Some(best) => best.tree.predict(data.rows()),
            None => Vec::new(),
        };
        Ok(Report {
            with_variants: set.count_with_variants(),
            count,
            feature_trees,
            shares,
            reference,
        })
    }

    /// Rows on which some tree of the set differs from another.
    fn disputed(&self) -> Vec<usize> {
        (0..self.shares.len())
            .filter(|&i| self.shares[i].iter().all(|&s| s < 1.0))
            .collect()
    }

    /// Rows on which some tree of the set differs from the first best tree.
    fn ambiguous(&self) -> usize {
        self.reference
            .iter()
            .zip(&self.shares)
            .filter(|(&k, s)| s[k] < 1.0)
            .count()
    }

    fn json(&self, set: &RashomonSet) -> Value {
        let data = set.data();
        let (nodes, bytes) = set.graph_size();
        let features: Vec<Value> = data
            .schema()
            .features
            .iter()
            .zip(&self.feature_trees)
            .map(|(name, n)| {
                json!({ "feature": name, "trees": n.to_string(), "share": share(n, &self.count) })
            })
            .collect();
        let disputed = self.disputed();
        json!({
            "depth": set.problem().depth,
            "split_cost": set.problem().split_cost,
            "min_leaf_rows": set.problem().min_leaf,
            "max_leaf_rows": set.problem().max_leaf,
            "optimum": set.optimum(),
            "max_objective": set.max_objective(),
            "count": self.count.to_string(),
            "count_over_thresholds": self.with_variants.to_string(),
            "by_objective": set.by_objective().iter().map(|(c, n)| {
                json!({ "objective": c, "trees": n.to_string() })
            }).collect::<Vec<_>>(),
            "features": features,
            "rows": data.n_rows(),
            "disputed_rows": disputed,
            "ambiguity": if data.n_rows() == 0 { 0.0 } else {
                self.ambiguous() as f64 / data.n_rows() as f64
            },
            "row_sets": nodes,
            "memory_bytes": bytes,
            "seconds": set.seconds(),
            "complete": true,
        })
    }

    fn print(&self, set: &RashomonSet, args: &RashomonArgs, data: &Dataset) -> Result<()> {
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
            self.count,
            self.with_variants,
            set.seconds(),
            nodes,
            bytes / 1024
        )?;
        outln!("\nobjective  trees")?;
        for (cost, n) in set.by_objective() {
            outln!("{:<10} {n}", figure(cost))?;
        }
        let width = data
            .schema()
            .features
            .iter()
            .map(|f| f.len())
            .max()
            .unwrap_or(7)
            .max(7);
        outln!("\n{:<width$}  {:>6}  trees", "feature", "share")?;
        for (name, n) in data.schema().features.iter().zip(&self.feature_trees) {
            if !n.is_zero() {
                outln!(
                    "{name:<width$}  {:>5.1}%  {n}",
                    100.0 * share(n, &self.count)
                )?;
            }
        }
        let disputed = self.disputed();
        outln!(
            "\nrows the set disagrees on: {} of {}; rows some tree predicts unlike the first best: \
             {} ({:.1}%)",
            disputed.len(),
            data.n_rows(),
            self.ambiguous(),
            100.0 * self.ambiguous() as f64 / data.n_rows().max(1) as f64
        )?;
        Ok(())
    }
}

/// An objective for the text report, to six decimals (the margin's product reads 9.45, not
/// 9.450000000000001).
fn figure(x: f64) -> String {
    crate::data::short_number((x * 1e6).round() / 1e6)
}

fn share(part: &BigUint, whole: &BigUint) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        approx(part) / approx(whole)
    }
}

fn ranked_json(tree: &Ranked) -> Value {
    json!({
        "rank": tree.rank.to_string(),
        "objective": tree.objective,
        "variants": tree.shape.variants().to_string(),
        "tree": tree.tree.to_json_value(),
    })
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
