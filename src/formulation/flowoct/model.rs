//! The FlowOCT mixed-integer model (see `formulations/flowoct.md`): its variables and rows, the
//! assignment of a tree (the warm start) and the tree of a solution.

use crate::constraints::SideConstraints;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::binoct::candidates::Candidates;
use crate::formulation::costs::ErrorCosts;
use crate::formulation::leaf_rows::{LeafRowSource, RoutedGroup, Routing};
use crate::formulation::{
    cbc_without_cuts_and_heuristics, BuiltModel, FeatureUse, RootSplit, RootSplits, StartKind,
    VariableRole,
};
use crate::mip::{Assignment, Expression, MipModel, RowSense, Variable};
use crate::solver::SolverKind;
use crate::tree::{node_depth, NodeKind, Split, Tree, TreeBuilder};

use super::features::{BinaryFeature, NodeFeatures};
use super::groups::{groups, Group};

/// A built FlowOCT model, with the training data and binarisation it was built on.
#[derive(Debug)]
pub struct FlowOctModel {
    pub(super) mip: MipModel,
    pub(super) data: Dataset,
    pub(super) depth: usize,
    pub(super) candidates: Candidates,
    /// The cost of an error on each row.
    pub(super) costs: ErrorCosts,
    pub(super) groups: Vec<Group>,
    /// The binary features and those each level may split on.
    pub(super) features: NodeFeatures,
    /// `(f, b[n,f])` at `[n - 1]` for every binary feature `f` (an index into
    /// `features.binary`) node `n` may split on; branch nodes only.
    split_vars: Vec<Vec<(usize, Variable)>>,
    /// Per branch node (at `[n - 1]`), the chains of its features' split variables, from which
    /// each group's routing rows take one term per feature.
    chains: Vec<Vec<Chain>>,
    /// `p[n]` at `[n - 1]`, every node.
    leaf_vars: Vec<Variable>,
    /// `w[n,k]` at `[n - 1][k]`, every node.
    class_vars: Vec<Vec<Variable>>,
    /// `z[g,n]`, the flow of group `g` into node `n`, at `[g][n - 1]`.
    flow_vars: Vec<Vec<Variable>>,
    /// `s[g,n,k]`, the flow of group `g` from node `n` to the sink as class `k`, at
    /// `[g][n - 1][k]`; `None` when the group has no row of class `k` (and the flows are not
    /// forced).
    sink_vars: Vec<Vec<Vec<Option<Variable>>>>,
    roles: Vec<VariableRole>,
    /// Under fairness constraints: every group sends its unit of flow to the sink at its leaf
    /// (`source[g]`), through the arc of the class the leaf predicts, which every group has.
    forced: bool,
    /// Whether the model has the `alike` rows (not under bounds on the rows per leaf).
    pub(super) alike: bool,
}

/// The split variables of one node on one feature, by increasing threshold, and their suffix
/// sums: `suffix[r] = sum_{s >= r} b[n, j, thresholds[s]]`. The last suffix is the last `b`
/// itself; the others are continuous columns `u[n,j,r]` tied by `u[n,j,r] = b[n,j,r] +
/// suffix[r + 1]`. A row `x_j` goes left of every threshold at or above its value, a suffix of
/// the list, so its routing rows need one term per feature instead of one per threshold.
#[derive(Debug, Clone)]
struct Chain {
    /// The feature `j`.
    feature: usize,
    /// The binary feature (an index into `NodeFeatures::binary`) of each split variable.
    binary: Vec<usize>,
    /// The candidate index of each split variable's threshold, increasing.
    thresholds: Vec<usize>,
    /// The split variables, in the same order.
    splits: Vec<Variable>,
    /// `suffix[r]`, the sum of `splits[r..]`.
    suffix: Vec<Variable>,
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
fn sides(
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

impl FlowOctModel {
    /// Number of nodes of the complete tree (branch nodes and leaves).
    fn n_nodes(&self) -> usize {
        (1usize << (self.depth + 1)) - 1
    }

    /// Number of branch nodes.
    fn n_branch(&self) -> usize {
        (1usize << self.depth) - 1
    }

    /// Rows before and after grouping.
    pub fn rows_and_groups(&self) -> (usize, usize) {
        (self.data.n_rows(), self.groups.len())
    }

    /// Builds the model of depth `depth` over `candidates` of `data`, with the cost `costs` of
    /// an error on each row.
    pub(super) fn build(
        data: &Dataset,
        depth: usize,
        candidates: Candidates,
        costs: ErrorCosts,
        constraints: Option<&SideConstraints>,
    ) -> Result<FlowOctModel> {
        let n_nodes = (1usize << (depth + 1)) - 1;
        let n_branch = (1usize << depth) - 1;
        let k = data.n_classes();
        let features = &data.schema().features;
        let groups = groups(data, &candidates, &costs.rows);
        let forced = constraints.is_some_and(|c| c.fairness.is_some());
        let node_features = NodeFeatures::new(data, &candidates, &groups, depth, constraints);
        let binary = &node_features.binary;
        let mut mip = MipModel::new(format!("flowoct_depth{depth}"));
        let mut roles = Vec::new();

        let mut split_vars = Vec::with_capacity(n_branch);
        for n in 1..=n_branch {
            let allowed = &node_features.allowed[node_depth(n)];
            let mut by_feature = Vec::with_capacity(allowed.len());
            for &index in allowed {
                let f = &binary[index];
                let name = format!("b[n={n},j={},t={}]", f.feature, f.index);
                roles.push(VariableRole {
                    name: name.clone(),
                    node: Some(n),
                    meaning: format!(
                        "1 if node {n} splits on `{}` <= {}",
                        features[f.feature],
                        candidates.threshold(f.feature, f.index)
                    ),
                });
                by_feature.push((index, mip.binary(name)));
            }
            split_vars.push(by_feature);
        }
        let mut chains: Vec<Vec<Chain>> = Vec::with_capacity(n_branch);
        for n in 1..=n_branch {
            let mut node_chains: Vec<Chain> = Vec::new();
            let mut last_feature = None;
            for &(index, b) in &split_vars[n - 1] {
                let f = &binary[index];
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
                let j = chain.feature;
                let m = chain.splits.len();
                let mut suffix = vec![chain.splits[m - 1]; m];
                for r in (0..m - 1).rev() {
                    let name = format!("u[n={n},j={j},r={}]", chain.thresholds[r]);
                    roles.push(VariableRole {
                        name: name.clone(),
                        node: Some(n),
                        meaning: format!(
                            "1 if node {n} splits on `{}` at a threshold of candidate {} or above",
                            features[j], chain.thresholds[r]
                        ),
                    });
                    let u = mip.continuous(name.clone(), 0.0, 1.0);
                    mip.add_row(
                        format!("chain[n={n},j={j},r={}]", chain.thresholds[r]),
                        u,
                        RowSense::Eq,
                        Expression::from(chain.splits[r]) + suffix[r + 1],
                    );
                    suffix[r] = u;
                }
                chain.suffix = suffix;
            }
            chains.push(node_chains);
        }
        let mut leaf_vars = Vec::with_capacity(n_nodes);
        let mut class_vars = Vec::with_capacity(n_nodes);
        for n in 1..=n_nodes {
            let name = format!("p[n={n}]");
            roles.push(VariableRole {
                name: name.clone(),
                node: Some(n),
                meaning: format!("1 if node {n} is a leaf"),
            });
            leaf_vars.push(mip.binary(name));
            let mut by_class = Vec::with_capacity(k);
            for (c, label) in data.classes().iter().enumerate() {
                let name = format!("w[n={n},k={c}]");
                roles.push(VariableRole {
                    name: name.clone(),
                    node: Some(n),
                    meaning: format!("1 if node {n} is a leaf predicting `{label}`"),
                });
                by_class.push(mip.binary(name));
            }
            class_vars.push(by_class);
        }
        let mut flow_vars = Vec::with_capacity(groups.len());
        let mut sink_vars = Vec::with_capacity(groups.len());
        for (g, group) in groups.iter().enumerate() {
            crate::mip::build_clock::check()?;
            let mut flows = Vec::with_capacity(n_nodes);
            let mut sinks = Vec::with_capacity(n_nodes);
            for n in 1..=n_nodes {
                let name = format!("z[g={g},n={n}]");
                roles.push(VariableRole {
                    name: name.clone(),
                    node: Some(n),
                    meaning: format!("flow of row group {g} into node {n}"),
                });
                flows.push(mip.continuous(name, 0.0, 1.0));
                let mut by_class = Vec::with_capacity(k);
                for (c, &count) in group.counts.iter().enumerate() {
                    by_class.push((count > 0 || forced).then(|| {
                        let name = format!("s[g={g},n={n},k={c}]");
                        roles.push(VariableRole {
                            name: name.clone(),
                            node: Some(n),
                            meaning: format!(
                                "flow of row group {g} leaving at node {n} classified `{}`",
                                data.classes()[c]
                            ),
                        });
                        mip.continuous(name, 0.0, 1.0)
                    }));
                }
                sinks.push(by_class);
            }
            flow_vars.push(flows);
            sink_vars.push(sinks);
        }

        // Structure: every node is split, a leaf, or below a leaf; a leaf predicts one class.
        for n in 1..=n_nodes {
            let mut covered = Expression::from(leaf_vars[n - 1]);
            let mut ancestor = n / 2;
            while ancestor >= 1 {
                covered += leaf_vars[ancestor - 1];
                ancestor /= 2;
            }
            if n <= n_branch {
                for &(_, b) in &split_vars[n - 1] {
                    covered += b;
                }
            }
            mip.add_row(format!("node[n={n}]"), covered, RowSense::Eq, 1.0);
            let classes: Expression = class_vars[n - 1].iter().map(|&w| Expression::from(w)).sum();
            mip.add_row(
                format!("predict[n={n}]"),
                classes,
                RowSense::Eq,
                leaf_vars[n - 1],
            );
        }

        // Symmetry: a split whose two children are leaves of one class is the leaf of that
        // class; only the leaf is kept. Not under bounds on the rows per leaf, where such a
        // split may be what keeps its leaves within them.
        let alike = !constraints.is_some_and(SideConstraints::bounds_leaf_rows);
        for n in (1..=n_branch).filter(|_| alike) {
            let children = class_vars[2 * n - 1].iter().zip(&class_vars[2 * n]);
            for (c, (&left, &right)) in children.enumerate() {
                mip.add_row(
                    format!("alike[n={n},k={c}]"),
                    Expression::from(left) + right,
                    RowSense::Le,
                    1.0,
                );
            }
        }

        // Flow: conservation at every node, routing by the split, leaving only as the leaf's class.
        for (g, group) in groups.iter().enumerate() {
            crate::mip::build_clock::check()?;
            for n in 1..=n_nodes {
                let mut out = Expression::default();
                for &sink in sink_vars[g][n - 1].iter().flatten() {
                    out += sink;
                }
                if n <= n_branch {
                    out += flow_vars[g][2 * n - 1];
                    out += flow_vars[g][2 * n];
                    let (left, right) = sides(&chains[n - 1], &leaf_vars, &group.bins, n);
                    mip.add_row(
                        format!("left[g={g},n={n}]"),
                        flow_vars[g][2 * n - 1],
                        RowSense::Le,
                        left,
                    );
                    mip.add_row(
                        format!("right[g={g},n={n}]"),
                        flow_vars[g][2 * n],
                        RowSense::Le,
                        right,
                    );
                }
                mip.add_row(
                    format!("flow[g={g},n={n}]"),
                    flow_vars[g][n - 1],
                    RowSense::Eq,
                    out,
                );
                for (c, sink) in sink_vars[g][n - 1].iter().enumerate() {
                    if let Some(sink) = sink {
                        mip.add_row(
                            format!("sink[g={g},n={n},k={c}]"),
                            *sink,
                            RowSense::Le,
                            class_vars[n - 1][c],
                        );
                    }
                }
            }
        }

        if forced {
            for (g, flows) in flow_vars.iter().enumerate() {
                mip.add_row(format!("source[g={g}]"), flows[0], RowSense::Eq, 1.0);
            }
        }

        // Objective: the summed error costs of the rows minus those of the rows classified
        // correctly (a group's flow to a sink of class c is worth its class-c rows' costs).
        let total: f64 = groups.iter().flat_map(|group| &group.costs).sum();
        let mut objective = Expression::from(total);
        for (g, group) in groups.iter().enumerate() {
            for sinks in &sink_vars[g] {
                for (c, sink) in sinks.iter().enumerate() {
                    if let Some(sink) = sink {
                        if group.costs[c] != 0.0 {
                            objective -= group.costs[c] * *sink;
                        }
                    }
                }
            }
        }
        mip.set_objective(objective);

        Ok(FlowOctModel {
            mip,
            data: data.clone(),
            depth,
            candidates,
            costs,
            groups,
            features: node_features,
            split_vars,
            chains,
            leaf_vars,
            class_vars,
            flow_vars,
            sink_vars,
            roles,
            forced,
            alike,
        })
    }

    /// The assignment of a tree whose splits all use candidate thresholds (a snapped tree):
    /// its structure, and each group's flow along its path to its leaf when the leaf predicts a
    /// class the group has rows of (no flow otherwise).
    pub(super) fn assignment_of(&self, tree: &Tree) -> Result<Assignment> {
        let mut start = self.mip.start();
        for n in 1..=self.n_nodes() {
            let node = tree.node(n).map(|node| &node.kind);
            if n <= self.n_branch() {
                let chosen = match node {
                    Some(NodeKind::Split(Split::Axis { feature, threshold })) => {
                        let index =
                            self.candidates
                                .index_of(*feature, *threshold)
                                .ok_or_else(|| {
                                    Error::Internal(format!(
                                        "node {n}: {threshold} is not a candidate threshold"
                                    ))
                                })?;
                        Some(BinaryFeature {
                            feature: *feature,
                            index,
                        })
                    }
                    Some(NodeKind::Split(Split::Oblique { .. })) => {
                        return Err(Error::parameter(
                            "warm start",
                            format!("node {n} is an oblique split; FlowOCT splits on one feature"),
                        ))
                    }
                    _ => None,
                };
                if let Some(chosen) = chosen {
                    let allowed = self.split_vars[n - 1]
                        .iter()
                        .any(|&(index, _)| self.features.binary[index] == chosen);
                    if !allowed {
                        return Err(Error::Internal(format!(
                            "node {n}: the split on feature {} at candidate {} is not one the \
                             model's level may use",
                            chosen.feature, chosen.index
                        )));
                    }
                }
                for &(index, b) in &self.split_vars[n - 1] {
                    let on = chosen == Some(self.features.binary[index]);
                    start.set(b, f64::from(u8::from(on)));
                }
                for chain in &self.chains[n - 1] {
                    let mut sum = 0.0;
                    for r in (0..chain.splits.len()).rev() {
                        let on = chosen == Some(self.features.binary[chain.binary[r]]);
                        sum += f64::from(u8::from(on));
                        if chain.suffix[r] != chain.splits[r] {
                            start.set(chain.suffix[r], sum);
                        }
                    }
                }
            }
            let class = match node {
                Some(NodeKind::Leaf { class }) => Some(*class),
                _ => None,
            };
            start.set(self.leaf_vars[n - 1], f64::from(u8::from(class.is_some())));
            for (c, &w) in self.class_vars[n - 1].iter().enumerate() {
                start.set(w, f64::from(u8::from(class == Some(c))));
            }
        }
        for (g, group) in self.groups.iter().enumerate() {
            let mut path = vec![1usize];
            let mut n = 1;
            let class = loop {
                match tree.node(n).map(|node| &node.kind) {
                    Some(NodeKind::Split(Split::Axis { feature, threshold })) => {
                        let index = self.candidates.index_of(*feature, *threshold).unwrap_or(0);
                        n = if group.bins[*feature] < index {
                            2 * n
                        } else {
                            2 * n + 1
                        };
                        path.push(n);
                    }
                    Some(NodeKind::Leaf { class }) => break Some(*class),
                    _ => break None,
                }
            };
            let flowing = class.is_some_and(|c| self.forced || group.counts[c] > 0);

            for m in 1..=self.n_nodes() {
                let on_path = flowing && path.contains(&m);
                start.set(self.flow_vars[g][m - 1], f64::from(u8::from(on_path)));
                for (c, sink) in self.sink_vars[g][m - 1].iter().enumerate() {
                    if let Some(sink) = sink {
                        let leaves_here = on_path && m == n && class == Some(c);
                        start.set(*sink, f64::from(u8::from(leaves_here)));
                    }
                }
            }
        }
        start.finish()
    }

    /// The tree of a solution: from the root, a node with `p = 1` is a leaf of the class with
    /// `w = 1`; otherwise it splits on the binary feature with `b = 1`.
    pub(super) fn tree_of(&self, solution: &Assignment) -> Result<Tree> {
        let on = |v: Variable| solution.value(v) > 0.5;
        let mut builder = TreeBuilder::new(
            self.data.schema().clone(),
            self.data.classes().to_vec(),
            self.depth,
        )?;
        let mut stack = vec![1usize];
        while let Some(n) = stack.pop() {
            let split = (n <= self.n_branch() && !on(self.leaf_vars[n - 1]))
                .then(|| {
                    self.split_vars[n - 1]
                        .iter()
                        .find(|&&(_, b)| on(b))
                        .map(|&(index, _)| self.features.binary[index])
                })
                .flatten();
            match split {
                Some(f) => {
                    builder.split(
                        n,
                        Split::Axis {
                            feature: f.feature,
                            threshold: self.candidates.threshold(f.feature, f.index),
                        },
                    )?;
                    stack.push(2 * n);
                    stack.push(2 * n + 1);
                }
                None => {
                    let class = self.class_vars[n - 1]
                        .iter()
                        .position(|&w| on(w))
                        .ok_or_else(|| {
                            Error::Internal(format!(
                                "node {n} (depth {}) neither splits nor predicts a class",
                                node_depth(n)
                            ))
                        })?;
                    builder.leaf(n, class)?;
                }
            }
        }
        let mut tree = builder.build()?;
        tree.recount(self.data.rows(), self.data.labels())?;
        Ok(tree)
    }
}

impl BuiltModel for FlowOctModel {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    /// Node `n` splits on feature `j` when one of its `b[n,j,t]` is 1: their sum, the chain's
    /// first suffix.
    fn feature_usage(&self) -> Option<Vec<FeatureUse>> {
        Some(
            self.chains
                .iter()
                .enumerate()
                .flat_map(|(m, chains)| {
                    chains.iter().map(move |chain| FeatureUse {
                        node: m + 1,
                        feature: chain.feature,
                        expression: Expression::from(chain.suffix[0]),
                    })
                })
                .collect(),
        )
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        self.roles.clone()
    }

    /// The root's `b[1,j,t]`, each a split at a candidate threshold, and its `p[1]`: the
    /// `node[n=1]` row makes exactly one of them 1.
    fn root_splits(&self) -> Option<RootSplits> {
        let splits = self.split_vars.first()?;
        Some(RootSplits {
            splits: splits
                .iter()
                .map(|&(index, b)| {
                    let f = &self.features.binary[index];
                    let split = RootSplit::Threshold {
                        feature: f.feature,
                        threshold: self.candidates.threshold(f.feature, f.index),
                    };
                    (split, Expression::from(b))
                })
                .collect(),
            leaf: self.leaf_vars.first().map(|&p| Expression::from(p)),
        })
    }

    /// With forced flows, a group is predicted `class` when its flow leaves through an arc of
    /// that class: `sum_n s[g,n,class]`.
    fn class_predictions(
        &self,
        class: usize,
    ) -> Option<Vec<crate::formulation::predictions::ClassPrediction>> {
        use crate::formulation::predictions::{ClassPrediction, PredictionTerms};
        if !self.forced {
            return None;
        }
        Some(
            self.groups
                .iter()
                .zip(&self.sink_vars)
                .map(|(group, sinks)| ClassPrediction {
                    rows: group.rows.clone(),
                    terms: PredictionTerms::Linear(
                        sinks
                            .iter()
                            .filter_map(|by_class| by_class[class])
                            .map(Expression::from)
                            .sum(),
                    ),
                })
                .collect(),
        )
    }

    /// The flow carries only the rows a leaf classifies correctly, so the rows per leaf need a
    /// routing of every group: the sides of its `left` and `right` rows and every node's `p`.
    fn leaf_rows(&self) -> Option<LeafRowSource> {
        let groups = self
            .groups
            .iter()
            .map(|group| {
                let (left, right) = (1..=self.n_branch())
                    .map(|n| sides(&self.chains[n - 1], &self.leaf_vars, &group.bins, n))
                    .unzip();
                RoutedGroup {
                    rows: group.counts.iter().sum::<usize>() as f64,
                    left,
                    right,
                }
            })
            .collect();
        Some(LeafRowSource::Routed(Routing {
            depth: self.depth,
            leaf: self
                .leaf_vars
                .iter()
                .map(|&p| Expression::from(p))
                .collect(),
            groups,
        }))
    }

    /// With a warm start, CBC runs without its cuts and heuristics: the start is the incumbent
    /// they would look for, and on this model their time is better spent on nodes (measured in
    /// `formulations/flowoct.md`).
    fn solver_options(&self, solver: SolverKind, start: StartKind) -> Vec<(String, String)> {
        if solver == SolverKind::Cbc && start != StartKind::None {
            cbc_without_cuts_and_heuristics()
        } else {
            Vec::new()
        }
    }
}
