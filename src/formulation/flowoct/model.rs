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

use super::columns::{sides, Chain, ColumnSink, Columns};
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
        let groups = groups(data, &candidates, &costs.rows);
        let forced = constraints.is_some_and(|c| c.fairness.is_some());
        let node_features = NodeFeatures::new(data, &candidates, &groups, depth, constraints);
        let mut mip = MipModel::new(format!("flowoct_depth{depth}"));
        let mut roles = Vec::new();
        let columns = ColumnSink {
            mip: &mut mip,
            roles: &mut roles,
            data,
            candidates: &candidates,
        }
        .add_columns(&node_features, &groups, depth, forced)?;
        let n_branch = (1usize << depth) - 1;
        add_structure_rows(&mut mip, &columns, n_branch);
        // Symmetry: a split whose two children are leaves of one class is the leaf of that
        // class; only the leaf is kept. Not under bounds on the rows per leaf, where such a
        // split may be what keeps its leaves within them.
        let alike = !constraints.is_some_and(SideConstraints::bounds_leaf_rows);
        if alike {
            add_alike_rows(&mut mip, &columns.class_vars, n_branch);
        }
        add_flow_rows(&mut mip, &columns, &groups, n_branch)?;
        if forced {
            for (g, flows) in columns.flow_vars.iter().enumerate() {
                mip.add_row(format!("source[g={g}]"), flows[0], RowSense::Eq, 1.0);
            }
        }
        mip.set_objective(objective(&groups, &columns.sink_vars));

        let Columns {
            split_vars,
            chains,
            leaf_vars,
            class_vars,
            flow_vars,
            sink_vars,
        } = columns;
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

    /// The node's `b[n,j,t]`, each a split at a candidate threshold, and its `p[n]`: the
    /// `node[n]` row makes exactly one of them 1 (below a split parent).
    fn node_choices(&self, node: usize) -> Option<RootSplits> {
        let splits = self.split_vars.get(node.checked_sub(1)?)?;
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
            leaf: self.leaf_vars.get(node - 1).map(|&p| Expression::from(p)),
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
    /// they would look for, and on this model their time is better spent on nodes. With a
    /// start the exact search proved optimal, HiGHS solves its root LP by the interior point
    /// method (later LPs by the simplex method from its basis, as always): what is left is the
    /// bound, and the dual simplex method stalls on the root LP of 500 rows or more (both
    /// measured in `formulations/flowoct.md`).
    fn solver_options(&self, solver: SolverKind, start: StartKind) -> Vec<(String, String)> {
        match (solver, start) {
            (SolverKind::Cbc, StartKind::Heuristic | StartKind::Optimal) => {
                cbc_without_cuts_and_heuristics()
            }
            (SolverKind::Highs, StartKind::Optimal) => {
                vec![("mip_lp_solver".to_string(), "ipx".to_string())]
            }
            _ => Vec::new(),
        }
    }
}

/// Structure: every node is split, a leaf, or below a leaf (`node[n]`); a leaf predicts one
/// class (`predict[n]`).
fn add_structure_rows(mip: &mut MipModel, columns: &Columns, n_branch: usize) {
    let leaf_vars = &columns.leaf_vars;
    for n in 1..=leaf_vars.len() {
        let mut covered = Expression::from(leaf_vars[n - 1]);
        let mut ancestor = n / 2;
        while ancestor >= 1 {
            covered += leaf_vars[ancestor - 1];
            ancestor /= 2;
        }
        if n <= n_branch {
            for &(_, b) in &columns.split_vars[n - 1] {
                covered += b;
            }
        }
        mip.add_row(format!("node[n={n}]"), covered, RowSense::Eq, 1.0);
        let classes: Expression = columns.class_vars[n - 1]
            .iter()
            .map(|&w| Expression::from(w))
            .sum();
        mip.add_row(
            format!("predict[n={n}]"),
            classes,
            RowSense::Eq,
            leaf_vars[n - 1],
        );
    }
}

/// `alike[n,k]`: the two children of branch node `n` are not both leaves of class `k`.
fn add_alike_rows(mip: &mut MipModel, class_vars: &[Vec<Variable>], n_branch: usize) {
    for n in 1..=n_branch {
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
}

/// Flow: conservation at every node, routing by the split, leaving only as the leaf's class.
fn add_flow_rows(
    mip: &mut MipModel,
    columns: &Columns,
    groups: &[Group],
    n_branch: usize,
) -> Result<()> {
    let Columns {
        chains,
        leaf_vars,
        class_vars,
        flow_vars,
        sink_vars,
        ..
    } = columns;
    for (g, group) in groups.iter().enumerate() {
        crate::mip::build_clock::check()?;
        for n in 1..=leaf_vars.len() {
            let mut out = Expression::default();
            for &sink in sink_vars[g][n - 1].iter().flatten() {
                out += sink;
            }
            if n <= n_branch {
                out += flow_vars[g][2 * n - 1];
                out += flow_vars[g][2 * n];
                let (left, right) = sides(&chains[n - 1], leaf_vars, &group.bins, n);
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
    Ok(())
}

/// Objective: the summed error costs of the rows minus those of the rows classified correctly
/// (a group's flow to a sink of class c is worth its class-c rows' costs).
fn objective(groups: &[Group], sink_vars: &[Vec<Vec<Option<Variable>>>]) -> Expression {
    let total: f64 = groups.iter().flat_map(|group| &group.costs).sum();
    let mut objective = Expression::from(total);
    for (group, sinks) in groups.iter().zip(sink_vars) {
        for node_sinks in sinks {
            for (c, sink) in node_sinks.iter().enumerate() {
                if let Some(sink) = sink {
                    if group.costs[c] != 0.0 {
                        objective -= group.costs[c] * *sink;
                    }
                }
            }
        }
    }
    objective
}
