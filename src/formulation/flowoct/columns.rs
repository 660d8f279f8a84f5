//! The columns of the FlowOCT model (see `formulations/flowoct.md`): the split variables
//! `b[n,j,t]` with their chains of suffix sums `u[n,j,r]`, the leaf and class variables
//! `p[n]`, `w[n,k]`, and each row group's flows `z[g,n]` and sinks `s[g,n,k]`, each named and
//! given its role.

use crate::data::Dataset;
use crate::error::Result;
use crate::formulation::binoct::candidates::Candidates;
use crate::formulation::VariableRole;
use crate::mip::{Expression, MipModel, RowSense, Variable};
use crate::tree::node_depth;

use super::features::NodeFeatures;
use super::groups::Group;

/// The split variables of one node on one feature, by increasing threshold, and their suffix
/// sums: `suffix[r] = sum_{s >= r} b[n, j, thresholds[s]]`. The last suffix is the last `b`
/// itself; the others are continuous columns `u[n,j,r]` tied by `u[n,j,r] = b[n,j,r] +
/// suffix[r + 1]`. A row `x_j` goes left of every threshold at or above its value, a suffix of
/// the list, so its routing rows need one term per feature instead of one per threshold.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    /// The feature `j`.
    pub(super) feature: usize,
    /// The binary feature (an index into `NodeFeatures::binary`) of each split variable.
    pub(super) binary: Vec<usize>,
    /// The candidate index of each split variable's threshold, increasing.
    pub(super) thresholds: Vec<usize>,
    /// The split variables, in the same order.
    pub(super) splits: Vec<Variable>,
    /// `suffix[r]`, the sum of `splits[r..]`.
    pub(super) suffix: Vec<Variable>,
}

impl Chain {
    /// The column whose value is the sum of the split variables a row in `bin` (the number of
    /// candidates below its value) follows to the left, if any.
    fn left_of(&self, bin: usize) -> Option<Variable> {
        let first = self.thresholds.partition_point(|&index| index <= bin);
        self.suffix.get(first).copied()
    }
}

/// The right-hand sides of a group's `left` and `right` rows at branch node `n` (1 when the
/// node splits and sends the group that way, 0 otherwise, in every integer solution), for the
/// group in `bins`, with `chains` the node's chains and `leaf_vars` every node's `p`.
pub(super) fn sides(
    chains: &[Chain],
    leaf_vars: &[Variable],
    bins: &[usize],
    n: usize,
) -> (Expression, Expression) {
    let mut left = Expression::default();
    for chain in chains {
        if let Some(suffix) = chain.left_of(bins[chain.feature]) {
            left += suffix;
        }
    }
    // What goes right is what splits and does not go left: the node's `node` row says the
    // splits sum to 1 minus its own and its ancestors' `p`.
    let mut right = Expression::from(1.0) - left.clone();
    let mut m = n;
    while m >= 1 {
        right -= leaf_vars[m - 1];
        m /= 2;
    }
    (left, right)
}

/// Every column of a FlowOCT model, indexed as [`super::FlowOctModel`] keeps them.
pub(super) struct Columns {
    /// `(f, b[n,f])` at `[n - 1]`, branch nodes only.
    pub(super) split_vars: Vec<Vec<(usize, Variable)>>,
    /// Per branch node, the chains of its features' split variables.
    pub(super) chains: Vec<Vec<Chain>>,
    /// `p[n]` at `[n - 1]`, every node.
    pub(super) leaf_vars: Vec<Variable>,
    /// `w[n,k]` at `[n - 1][k]`, every node.
    pub(super) class_vars: Vec<Vec<Variable>>,
    /// `z[g,n]` at `[g][n - 1]`.
    pub(super) flow_vars: Vec<Vec<Variable>>,
    /// `s[g,n,k]` at `[g][n - 1][k]`; `None` when the group has no row of class `k` and the
    /// flows are not forced.
    pub(super) sink_vars: Vec<Vec<Vec<Option<Variable>>>>,
}

/// Where the columns go: the model, the roles of its variables, and what names them.
pub(super) struct ColumnSink<'a> {
    pub(super) mip: &'a mut MipModel,
    pub(super) roles: &'a mut Vec<VariableRole>,
    pub(super) data: &'a Dataset,
    pub(super) candidates: &'a Candidates,
}

impl ColumnSink<'_> {
    /// A binary column named `name` with its role.
    fn binary(&mut self, name: String, node: usize, meaning: String) -> Variable {
        self.roles.push(VariableRole {
            name: name.clone(),
            node: Some(node),
            meaning,
        });
        self.mip.binary(name)
    }

    /// A column in `[0, 1]` named `name` with its role.
    fn unit(&mut self, name: String, node: usize, meaning: String) -> Variable {
        self.roles.push(VariableRole {
            name: name.clone(),
            node: Some(node),
            meaning,
        });
        self.mip.continuous(name, 0.0, 1.0)
    }

    /// Every column of the model of depth `depth`, the row groups `groups`, with sink arcs for
    /// every class when `forced` (under fairness constraints). Adds the `chain` rows that tie
    /// the suffix sums.
    pub(super) fn add_columns(
        &mut self,
        features: &NodeFeatures,
        groups: &[Group],
        depth: usize,
        forced: bool,
    ) -> Result<Columns> {
        let n_nodes = (1usize << (depth + 1)) - 1;
        let n_branch = (1usize << depth) - 1;
        let split_vars: Vec<_> = (1..=n_branch)
            .map(|n| self.split_columns(features, n))
            .collect();
        let chains = (1..=n_branch)
            .map(|n| self.chains(features, &split_vars[n - 1], n))
            .collect();
        let mut leaf_vars = Vec::with_capacity(n_nodes);
        let mut class_vars = Vec::with_capacity(n_nodes);
        for n in 1..=n_nodes {
            let (leaf, classes) = self.leaf_columns(n);
            leaf_vars.push(leaf);
            class_vars.push(classes);
        }
        let mut flow_vars = Vec::with_capacity(groups.len());
        let mut sink_vars = Vec::with_capacity(groups.len());
        for (g, group) in groups.iter().enumerate() {
            crate::mip::build_clock::check()?;
            let (flows, sinks) = self.flow_columns(g, group, n_nodes, forced);
            flow_vars.push(flows);
            sink_vars.push(sinks);
        }
        Ok(Columns {
            split_vars,
            chains,
            leaf_vars,
            class_vars,
            flow_vars,
            sink_vars,
        })
    }

    /// `b[n,j,t]` for every binary feature branch node `n` may split on.
    fn split_columns(&mut self, features: &NodeFeatures, n: usize) -> Vec<(usize, Variable)> {
        let data = self.data;
        let names = &data.schema().features;
        let allowed = &features.allowed[node_depth(n)];
        let mut by_feature = Vec::with_capacity(allowed.len());
        for &index in allowed {
            let f = &features.binary[index];
            let meaning = format!(
                "1 if node {n} splits on `{}` <= {}",
                names[f.feature],
                self.candidates.threshold(f.feature, f.index)
            );
            let b = self.binary(
                format!("b[n={n},j={},t={}]", f.feature, f.index),
                n,
                meaning,
            );
            by_feature.push((index, b));
        }
        by_feature
    }

    /// Node `n`'s split variables `splits` grouped into one chain per feature, each with its
    /// suffix sums and the rows that tie them.
    fn chains(
        &mut self,
        features: &NodeFeatures,
        splits: &[(usize, Variable)],
        n: usize,
    ) -> Vec<Chain> {
        let mut node_chains: Vec<Chain> = Vec::new();
        let mut last_feature = None;
        for &(index, b) in splits {
            let f = &features.binary[index];
            if last_feature != Some(f.feature) {
                node_chains.push(Chain {
                    feature: f.feature,
                    binary: Vec::new(),
                    thresholds: Vec::new(),
                    splits: Vec::new(),
                    suffix: Vec::new(),
                });
                last_feature = Some(f.feature);
            }
            if let Some(chain) = node_chains.last_mut() {
                chain.binary.push(index);
                chain.thresholds.push(f.index);
                chain.splits.push(b);
            }
        }
        for chain in &mut node_chains {
            chain.suffix = self.suffix_columns(chain, n);
        }
        node_chains
    }

    /// The suffix sums of `chain` at node `n`: its last split variable, then a column
    /// `u[n,j,r] = b[n,j,r] + suffix[r + 1]` for each earlier threshold.
    fn suffix_columns(&mut self, chain: &Chain, n: usize) -> Vec<Variable> {
        let j = chain.feature;
        let m = chain.splits.len();
        let data = self.data;
        let feature = &data.schema().features[j];
        let mut suffix = vec![chain.splits[m - 1]; m];
        for r in (0..m - 1).rev() {
            let threshold = chain.thresholds[r];
            let meaning = format!(
                "1 if node {n} splits on `{feature}` at a threshold of candidate {threshold} or above"
            );
            let u = self.unit(format!("u[n={n},j={j},r={threshold}]"), n, meaning);
            self.mip.add_row(
                format!("chain[n={n},j={j},r={threshold}]"),
                u,
                RowSense::Eq,
                Expression::from(chain.splits[r]) + suffix[r + 1],
            );
            suffix[r] = u;
        }
        suffix
    }

    /// `p[n]` and `w[n,k]` for every class `k`.
    fn leaf_columns(&mut self, n: usize) -> (Variable, Vec<Variable>) {
        let leaf = self.binary(format!("p[n={n}]"), n, format!("1 if node {n} is a leaf"));
        let data = self.data;
        let classes = data.classes();
        let by_class = classes
            .iter()
            .enumerate()
            .map(|(c, label)| {
                let meaning = format!("1 if node {n} is a leaf predicting `{label}`");
                self.binary(format!("w[n={n},k={c}]"), n, meaning)
            })
            .collect();
        (leaf, by_class)
    }

    /// Row group `g`'s flows `z[g,n]` into every node and its sinks `s[g,n,k]`, a sink only
    /// for a class the group has a row of unless `forced`.
    #[allow(clippy::type_complexity)]
    fn flow_columns(
        &mut self,
        g: usize,
        group: &Group,
        n_nodes: usize,
        forced: bool,
    ) -> (Vec<Variable>, Vec<Vec<Option<Variable>>>) {
        let data = self.data;
        let classes = data.classes();
        let mut flows = Vec::with_capacity(n_nodes);
        let mut sinks = Vec::with_capacity(n_nodes);
        for n in 1..=n_nodes {
            let meaning = format!("flow of row group {g} into node {n}");
            flows.push(self.unit(format!("z[g={g},n={n}]"), n, meaning));
            let mut by_class = Vec::with_capacity(group.counts.len());
            for (c, &count) in group.counts.iter().enumerate() {
                by_class.push((count > 0 || forced).then(|| {
                    let meaning = format!(
                        "flow of row group {g} leaving at node {n} classified `{}`",
                        classes[c]
                    );
                    self.unit(format!("s[g={g},n={n},k={c}]"), n, meaning)
                }));
            }
            sinks.push(by_class);
        }
        (flows, sinks)
    }
}
