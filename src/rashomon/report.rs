//! What a Rashomon set reports, the same for the command line and Python: the count (by
//! objective and over every threshold), each feature's trees, the rows the set disagrees on and
//! its ambiguity, the graph's size and the time, as a JSON document; and a ranked tree as JSON.

use num_bigint::BigUint;
use num_traits::Zero;
use serde_json::{json, Value};

use crate::error::Result;
use crate::rashomon::importance::Importances;
use crate::rashomon::{approx, Ranked, RashomonSet};

/// What is reported of a set.
pub struct Report {
    pub count: BigUint,
    pub with_variants: BigUint,
    /// Per feature, the trees that split on it.
    pub feature_trees: Vec<BigUint>,
    /// Per training row, the share of the trees predicting each class.
    pub shares: Vec<Vec<f64>>,
    /// The first best tree's prediction of each training row.
    pub reference: Vec<usize>,
    /// Each feature's importance in every tree of the set, or in a uniform sample of them.
    pub importances: Importances,
}

impl Report {
    /// The report of `set`, its votes taken on its training rows, the importances over every
    /// tree when it has at most `importance_trees`, else over that many drawn from `seed`.
    pub fn of(set: &RashomonSet, importance_trees: usize, seed: u64) -> Result<Report> {
        let data = set.data();
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
            importances: Importances::of(set, importance_trees, seed)?,
            with_variants: set.count_with_variants(),
            count,
            feature_trees,
            shares,
            reference,
        })
    }

    /// Rows on which some tree of the set differs from another.
    pub fn disputed(&self) -> Vec<usize> {
        (0..self.shares.len())
            .filter(|&i| self.shares[i].iter().all(|&s| s < 1.0))
            .collect()
    }

    /// Rows on which some tree of the set differs from the first best tree.
    pub fn ambiguous(&self) -> usize {
        self.reference
            .iter()
            .zip(&self.shares)
            .filter(|(&k, s)| s[k] < 1.0)
            .count()
    }

    /// The report as JSON (counts as decimal strings: they can pass 2^53).
    pub fn json(&self, set: &RashomonSet) -> Value {
        let data = set.data();
        let (nodes, bytes) = set.graph_size();
        let features: Vec<Value> = data
            .schema()
            .features
            .iter()
            .zip(&self.feature_trees)
            .enumerate()
            .map(|(j, (name, n))| {
                let importance = self.importances.spread(j).map(|s| {
                    json!({ "mean": s.mean, "min": s.min, "q25": s.q25, "median": s.median,
                            "q75": s.q75, "max": s.max })
                });
                json!({ "feature": name, "trees": n.to_string(), "share": share(n, &self.count),
                        "importance": importance })
            })
            .collect();
        let disputed = self.disputed();
        let names = &data.schema().features;
        let restriction = set.restriction();
        let forbidden: Vec<&String> = names
            .iter()
            .zip(&restriction.forbidden)
            .filter(|(_, &f)| f)
            .map(|(name, _)| name)
            .collect();
        let depths: serde_json::Map<String, Value> = names
            .iter()
            .zip(&restriction.depths)
            .filter_map(|(name, d)| d.as_ref().map(|d| (name.clone(), json!(d))))
            .collect();
        json!({
            "depth": set.problem().depth,
            "split_cost": set.problem().split_cost,
            "min_leaf_rows": set.problem().min_leaf,
            "max_leaf_rows": set.problem().max_leaf,
            "forbidden": forbidden,
            "depths": depths,
            "fairness": restriction.fairness.as_ref().map(|f| f.to_json()),
            "gaps_by_objective": set.gaps_by_objective().iter().map(|(c, low, high)| {
                json!({ "objective": c, "least_gap": low, "largest_gap": high })
            }).collect::<Vec<_>>(),
            "optimum": set.optimum(),
            "max_objective": set.max_objective(),
            "count": self.count.to_string(),
            "count_over_thresholds": self.with_variants.to_string(),
            "by_objective": set.by_objective().iter().map(|(c, n)| {
                json!({ "objective": c, "trees": n.to_string() })
            }).collect::<Vec<_>>(),
            "features": features,
            "importance_trees": self.importances.per_tree.len(),
            "importance_over": if self.importances.whole_set { "every tree" } else {
                "uniform sample"
            },
            "importance_seed": self.importances.seed,
            "rows": data.n_rows(),
            "disputed_rows": disputed,
            "ambiguity": if data.n_rows() == 0 { 0.0 } else {
                self.ambiguous() as f64 / data.n_rows() as f64
            },
            "row_sets": nodes,
            "memory_bytes": bytes,
            "seconds": set.seconds(),
            "complete": set.stop().is_none(),
            "stopped": set.stop().map(|stop| stop.name()),
            "asked_max_objective": set.asked_max_objective(),
        })
    }
}

/// `part`'s share of `whole` (0 of nothing).
pub fn share(part: &BigUint, whole: &BigUint) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        approx(part) / approx(whole)
    }
}

/// A tree of the set as JSON: its rank, objective, threshold variants and tree.
pub fn ranked_json(tree: &Ranked) -> Value {
    json!({
        "rank": tree.rank.to_string(),
        "objective": tree.objective,
        "variants": tree.shape.variants().to_string(),
        "tree": tree.tree.to_json_value(),
    })
}
