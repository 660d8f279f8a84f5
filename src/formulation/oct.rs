//! OCT: the axis-aligned optimal classification tree model of Bertsimas & Dunn (2017), as
//! stated in `formulations/oct.md`: build the model, encode a tree as a complete warm start,
//! decode a solution into a tree, and compute the model's objective of a tree by plain code.
//!
//! Features are min-max scaled to [0, 1] on the training rows. Branch node `m` splits on the
//! feature `j` with `a[j,m] = 1` when `d[m] = 1`: a row goes left when
//! `x_j + eps_j <= b[m]`, right when `x_j >= b[m]`. A node with `d[m] = 0` does not split and
//! every row reaching it goes right. Rows are assigned to leaves by `z[i,t]`; a leaf with
//! `l[t] = 1` predicts the class `k` with `c[k,t] = 1`, and `L[t]` counts its (weighted) errors.
//! The objective is `sum_t L[t] / L^ + alpha * sum_t d[t]`, `L^` the (weighted) errors of the
//! majority-class baseline.

use serde_json::json;

use crate::data::{candidate_thresholds, Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::formulation::{BuiltModel, Decoded, Encoded, Formulation, Objective, VariableRole};
use crate::greedy::{cart, check_depth, majority, CartParams};
use crate::mip::{Assignment, Expression, MipModel, Variable};
use crate::tree::{node_depth, NodeKind, Split, Tree, TreeBuilder};

/// The deepest OCT model milptree builds (the model has `n * 2^D` routing binaries).
pub const OCT_MAX_DEPTH: usize = 8;

/// OCT's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Oct {
    pub depth: usize,
    /// Cost of each split, in units of the normalised error (`--alpha`, default 0).
    pub alpha: f64,
    /// Minimum rows in a leaf that is used (`--min-leaf`, default 1, which restricts nothing).
    pub min_leaf: usize,
    pub objective: Objective,
}

impl Oct {
    pub fn new(depth: usize) -> Oct {
        Oct {
            depth,
            alpha: 0.0,
            min_leaf: 1,
            objective: Objective::Accuracy,
        }
    }

    fn validate(&self, data: &Dataset) -> Result<()> {
        check_depth(self.depth, OCT_MAX_DEPTH)?;
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return Err(Error::parameter(
                "--alpha",
                format!("{} is not a finite non-negative number", self.alpha),
            ));
        }
        if self.min_leaf == 0 || self.min_leaf > data.n_rows() {
            return Err(Error::parameter(
                "--min-leaf",
                format!(
                    "{} is not between 1 and the number of training rows ({})",
                    self.min_leaf,
                    data.n_rows()
                ),
            ));
        }
        Ok(())
    }
}

/// One feature as the model sees it.
#[derive(Debug, Clone)]
struct ScaledFeature {
    min: f64,
    range: f64,
    /// Smallest gap between consecutive distinct scaled values (None for a constant feature,
    /// which the model cannot split on).
    epsilon: Option<f64>,
    /// The distinct training values, increasing, in original units.
    values: Vec<f64>,
    /// The candidate thresholds (midpoints of consecutive distinct values).
    thresholds: Vec<f64>,
}

impl ScaledFeature {
    fn scale(&self, x: f64) -> f64 {
        if self.range > 0.0 {
            (x - self.min) / self.range
        } else {
            0.0
        }
    }
}

/// The built OCT model with its variables and the data it was built on.
#[derive(Debug, Clone)]
pub struct OctModel {
    mip: MipModel,
    data: Dataset,
    depth: usize,
    features: Vec<ScaledFeature>,
    class_weights: Vec<f64>,
    baseline: f64,
    /// a[j][m]: None for constant features.
    a: Vec<Vec<Option<Variable>>>,
    d: Vec<Variable>,
    b: Vec<Variable>,
    /// z[i][leaf index]
    z: Vec<Vec<Variable>>,
    l: Vec<Variable>,
    /// c[k][leaf index]
    c: Vec<Vec<Variable>>,
    n_kt: Vec<Vec<Variable>>,
    n_t: Vec<Variable>,
    loss: Vec<Variable>,
}

impl OctModel {
    fn n_branch(&self) -> usize {
        (1 << self.depth) - 1
    }

    fn n_leaves(&self) -> usize {
        1 << self.depth
    }

    /// Tree node id of leaf index `t` (0-based).
    fn leaf_id(&self, t: usize) -> usize {
        self.n_leaves() + t
    }

    /// The baseline errors `L^` the objective is normalised by.
    pub fn baseline(&self) -> f64 {
        self.baseline
    }
}

impl BuiltModel for OctModel {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        let mut roles: Vec<Option<VariableRole>> = vec![None; self.mip.vars().len()];
        let mut put = |var: Variable, node: usize, meaning: String| {
            let column = self.mip.col(var);
            roles[column] = Some(VariableRole {
                name: self.mip.vars()[column].name.clone(),
                node: Some(node),
                meaning,
            });
        };
        for m in 0..self.n_branch() {
            let id = m + 1;
            for (j, var) in self.a.iter().enumerate() {
                if let Some(var) = var[m] {
                    let feature = &self.data.schema().features[j];
                    put(var, id, format!("1 if node {id} splits on `{feature}`"));
                }
            }
            put(self.d[m], id, format!("1 if node {id} splits"));
            put(
                self.b[m],
                id,
                format!("threshold of node {id} on the [0,1]-scaled feature"),
            );
        }
        for t in 0..self.n_leaves() {
            let id = self.leaf_id(t);
            for (i, row) in self.z.iter().enumerate() {
                put(
                    row[t],
                    id,
                    format!("1 if training row {} reaches leaf {id}", i + 1),
                );
            }
            put(self.l[t], id, format!("1 if leaf {id} is used"));
            for (k, label) in self.data.classes().iter().enumerate() {
                put(
                    self.c[k][t],
                    id,
                    format!("1 if leaf {id} predicts `{label}`"),
                );
                put(
                    self.n_kt[k][t],
                    id,
                    format!("(weighted) rows of class `{label}` in leaf {id}"),
                );
            }
            put(self.n_t[t], id, format!("(weighted) rows in leaf {id}"));
            put(self.loss[t], id, format!("(weighted) errors of leaf {id}"));
        }
        roles.into_iter().flatten().collect()
    }
}

/// The ancestors of leaf index `t` (0-based) in a depth-`depth` tree, root first, each with
/// whether the path to the leaf goes left there. Branch nodes are 0-based (`id - 1`).
fn ancestors(depth: usize, t: usize) -> Vec<(usize, bool)> {
    let mut id = (1 << depth) + t;
    let mut path = Vec::with_capacity(depth);
    while id > 1 {
        let parent = id / 2;
        path.push((parent - 1, id % 2 == 0));
        id = parent;
    }
    path.reverse();
    path
}

fn scaled_features(data: &Dataset) -> Vec<ScaledFeature> {
    (0..data.n_features())
        .map(|j| {
            let column = data.feature_column(j);
            let mut values = column.clone();
            values.sort_by(f64::total_cmp);
            values.dedup();
            let min = values[0];
            let range = values[values.len() - 1] - min;
            let scaled: Vec<f64> = values
                .iter()
                .map(|v| if range > 0.0 { (v - min) / range } else { 0.0 })
                .collect();
            let epsilon = scaled
                .windows(2)
                .map(|w| w[1] - w[0])
                .filter(|gap| *gap > 0.0)
                .min_by(f64::total_cmp);
            ScaledFeature {
                min,
                range,
                epsilon,
                thresholds: candidate_thresholds(&column, data.labels(), ThresholdMode::All),
                values,
            }
        })
        .collect()
}

impl Formulation for Oct {
    type Built = OctModel;

    fn name(&self) -> &'static str {
        "oct"
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn parameters(&self) -> serde_json::Value {
        json!({
            "depth": self.depth,
            "alpha": self.alpha,
            "min_leaf": self.min_leaf,
            "objective": self.objective.to_string(),
        })
    }

    fn build(&self, data: &Dataset) -> Result<OctModel> {
        self.validate(data)?;
        let n = data.n_rows();
        let k = data.n_classes();
        let features = scaled_features(data);
        let class_weights = self.objective.class_weights(data);
        let weighted_counts: Vec<f64> = data
            .class_counts()
            .iter()
            .zip(&class_weights)
            .map(|(&count, w)| count as f64 * w)
            .collect();
        let total_weight: f64 = weighted_counts.iter().sum();
        let baseline = total_weight - weighted_counts.iter().copied().fold(0.0, f64::max);
        if baseline <= 0.0 {
            return Err(Error::input(
                data.source(),
                "the majority-class baseline makes no error, so OCT's objective (normalised by it) is undefined",
            ));
        }
        let epsilon_max = features
            .iter()
            .filter_map(|f| f.epsilon)
            .fold(0.0, f64::max);
        let depth = self.depth;
        let n_branch = (1 << depth) - 1;
        let n_leaves = 1 << depth;
        let mut mip = MipModel::new(format!("oct_depth{depth}"));

        // Variables, node by node.
        let mut a = vec![vec![None; n_branch]; data.n_features()];
        let mut d = Vec::with_capacity(n_branch);
        let mut b = Vec::with_capacity(n_branch);
        for m in 0..n_branch {
            let id = m + 1;
            for (j, (feature, by_node)) in features.iter().zip(a.iter_mut()).enumerate() {
                if feature.epsilon.is_some() {
                    by_node[m] = Some(mip.binary(format!("a[f={j},n={id}]")));
                }
            }
            d.push(mip.binary(format!("d[n={id}]")));
            b.push(mip.continuous(format!("b[n={id}]"), 0.0, 1.0));
        }
        let mut z = vec![Vec::with_capacity(n_leaves); n];
        let mut l = Vec::with_capacity(n_leaves);
        let mut c = vec![Vec::with_capacity(n_leaves); k];
        let mut n_kt = vec![Vec::with_capacity(n_leaves); k];
        let mut n_t = Vec::with_capacity(n_leaves);
        let mut loss = Vec::with_capacity(n_leaves);
        for t in 0..n_leaves {
            let id = n_leaves + t;
            for (i, row) in z.iter_mut().enumerate() {
                row.push(mip.binary(format!("z[i={i},l={id}]")));
            }
            l.push(mip.binary(format!("l[l={id}]")));
            for (class, by_leaf) in c.iter_mut().enumerate() {
                by_leaf.push(mip.binary(format!("c[k={class},l={id}]")));
            }
            for (class, by_leaf) in n_kt.iter_mut().enumerate() {
                by_leaf.push(mip.continuous(format!("Nk[k={class},l={id}]"), 0.0, f64::INFINITY));
            }
            n_t.push(mip.continuous(format!("N[l={id}]"), 0.0, f64::INFINITY));
            loss.push(mip.continuous(format!("L[l={id}]"), 0.0, f64::INFINITY));
        }

        // Leaf accounting.
        let big = total_weight;
        for t in 0..n_leaves {
            let id = n_leaves + t;
            for class in 0..k {
                mip.add_constraint(
                    format!("loss_lb[k={class},l={id}]"),
                    (loss[t] - n_t[t] + n_kt[class][t] - big * c[class][t]).geq(-big),
                );
                mip.add_constraint(
                    format!("loss_ub[k={class},l={id}]"),
                    (loss[t] - n_t[t] + n_kt[class][t] - big * c[class][t]).leq(0.0),
                );
                let mut members = Expression::from(n_kt[class][t]);
                for i in (0..n).filter(|&i| data.labels()[i] == class) {
                    members -= class_weights[class] * z[i][t];
                }
                mip.add_constraint(format!("count[k={class},l={id}]"), members.eq(0.0));
            }
            let mut all = Expression::from(n_t[t]);
            for (i, row) in z.iter().enumerate() {
                all -= class_weights[data.labels()[i]] * row[t];
            }
            mip.add_constraint(format!("count[l={id}]"), all.eq(0.0));
            let chosen: Expression = (0..k).map(|class| Expression::from(c[class][t])).sum();
            mip.add_constraint(format!("predict[l={id}]"), (chosen - l[t]).eq(0.0));
            let reached: Expression = z.iter().map(|row| Expression::from(row[t])).sum();
            mip.add_constraint(
                format!("min_leaf[l={id}]"),
                (reached - self.min_leaf as f64 * l[t]).geq(0.0),
            );
            for (i, row) in z.iter().enumerate() {
                mip.add_constraint(format!("used[i={i},l={id}]"), (row[t] - l[t]).leq(0.0));
            }
        }

        // Routing.
        for (i, row) in z.iter().enumerate() {
            let one: Expression = row.iter().map(|&v| Expression::from(v)).sum();
            mip.add_constraint(format!("assign[i={i}]"), one.eq(1.0));
        }
        for t in 0..n_leaves {
            let id = n_leaves + t;
            for (m, goes_left) in ancestors(depth, t) {
                let node = m + 1;
                if goes_left {
                    // A leaf under the left branch of m is usable only when m splits.
                    mip.add_constraint(
                        format!("left_needs_split[n={node},l={id}]"),
                        (l[t] - d[m]).leq(0.0),
                    );
                }
                for (i, row) in z.iter().enumerate() {
                    let mut lhs = Expression::default();
                    for (j, feature) in features.iter().enumerate() {
                        if let (Some(var), Some(eps)) = (a[j][m], feature.epsilon) {
                            let x = feature.scale(data.rows()[i][j]);
                            let coefficient = if goes_left { x + eps } else { x };
                            if coefficient != 0.0 {
                                lhs += coefficient * var;
                            }
                        }
                    }
                    if goes_left {
                        let lhs = lhs - b[m] + (1.0 + epsilon_max) * row[t];
                        mip.add_constraint(
                            format!("left[i={i},n={node},l={id}]"),
                            lhs.leq(1.0 + epsilon_max),
                        );
                    } else {
                        let lhs = lhs - b[m] - row[t];
                        mip.add_constraint(format!("right[i={i},n={node},l={id}]"), lhs.geq(-1.0));
                    }
                }
            }
        }

        // Tree structure.
        for m in 0..n_branch {
            let id = m + 1;
            let chosen: Expression = a
                .iter()
                .filter_map(|var| var[m].map(Expression::from))
                .sum();
            mip.add_constraint(format!("one_feature[n={id}]"), (chosen - d[m]).eq(0.0));
            mip.add_constraint(format!("threshold_off[n={id}]"), (b[m] - d[m]).leq(0.0));
            if m > 0 {
                let parent = (id / 2) - 1;
                mip.add_constraint(format!("hierarchy[n={id}]"), (d[m] - d[parent]).leq(0.0));
            }
        }

        let mut objective = Expression::default();
        for &var in &loss {
            objective += (1.0 / baseline) * var;
        }
        if self.alpha > 0.0 {
            for &var in &d {
                objective += self.alpha * var;
            }
        }
        mip.set_objective(objective);

        Ok(OctModel {
            mip,
            data: data.clone(),
            depth,
            features,
            class_weights,
            baseline,
            a,
            d,
            b,
            z,
            l,
            c,
            n_kt,
            n_t,
            loss,
        })
    }

    fn greedy_tree(&self, data: &Dataset) -> Result<Tree> {
        cart(
            data,
            &CartParams {
                depth: self.depth,
                min_leaf: self.min_leaf,
                thresholds: ThresholdMode::All,
            },
        )
    }

    fn encode(&self, built: &OctModel, tree: &Tree) -> Result<Encoded> {
        if tree.actual_depth() > built.depth {
            return Err(Error::parameter(
                "warm start",
                format!(
                    "the tree has depth {}, deeper than the model's {}",
                    tree.actual_depth(),
                    built.depth
                ),
            ));
        }
        let data = &built.data;
        let mut start = built.mip.start();
        let splits = |m: usize| match tree.node(m + 1).map(|n| &n.kind) {
            Some(NodeKind::Split(split)) => Some(split),
            _ => None,
        };
        for m in 0..built.n_branch() {
            let id = m + 1;
            let (feature, b_value) = match splits(m) {
                None => (None, 0.0),
                Some(Split::Oblique { .. }) => {
                    return Err(Error::parameter(
                        "warm start",
                        format!("node {id} is an oblique split; OCT encodes axis-aligned trees"),
                    ))
                }
                Some(Split::Axis { feature, threshold }) => {
                    let scaled = &built.features[*feature];
                    if scaled.epsilon.is_none() {
                        return Err(Error::parameter(
                            "warm start",
                            format!("node {id} splits on a feature that is constant in the training data"),
                        ));
                    }
                    // b is the scaled value of the smallest training value above the threshold.
                    let Some(&above) = scaled.values.iter().find(|&&v| v > *threshold) else {
                        return Err(Error::parameter(
                            "warm start",
                            format!(
                                "node {id} sends the largest value of `{}` left, which OCT cannot represent",
                                data.schema().features[*feature]
                            ),
                        ));
                    };
                    (Some(*feature), scaled.scale(above))
                }
            };
            for (j, var) in built.a.iter().enumerate() {
                if let Some(var) = var[m] {
                    start.set(var, f64::from(u8::from(feature == Some(j))));
                }
            }
            start.set(built.d[m], f64::from(u8::from(feature.is_some())));
            start.set(built.b[m], b_value);
        }
        // The model's leaves predict a (weighted) majority class of their rows: relabel the
        // tree's leaves that predict another class.
        let mut encoded = tree.clone();
        let mut notes = Vec::new();
        let mut leaf_weights: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
        for (i, row) in data.rows().iter().enumerate() {
            let weights = leaf_weights
                .entry(tree.leaf_of(row))
                .or_insert_with(|| vec![0.0; data.n_classes()]);
            weights[data.labels()[i]] += built.class_weights[data.labels()[i]];
        }
        for (&id, weights) in &leaf_weights {
            let best = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let Some(NodeKind::Leaf { class }) = tree.node(id).map(|n| n.kind.clone()) else {
                continue;
            };
            if weights[class] < best - 1e-9 {
                let majority_class = weights
                    .iter()
                    .position(|&w| w >= best - 1e-9)
                    .unwrap_or(class);
                encoded.set_leaf_class(id, majority_class)?;
                notes.push(format!(
                    "leaf {id} predicted `{}`, but OCT's leaves predict a{} majority class of \
                     their rows: encoded as `{}`",
                    data.classes()[class],
                    if self.objective == Objective::Balanced {
                        " (class-weighted)"
                    } else {
                        ""
                    },
                    data.classes()[majority_class]
                ));
            }
        }
        encoded.recount(data.rows(), data.labels())?;
        let tree = &encoded;
        // Route every row: at a split follow the tree; at a leaf (or below) go right.
        let leaf_class = |id: usize| -> Option<usize> {
            let mut node = id;
            // The leaf of the tree that covers model leaf `id`: its deepest present ancestor.
            while node >= 1 {
                if let Some(n) = tree.node(node) {
                    return match n.kind {
                        NodeKind::Leaf { class } => Some(class),
                        NodeKind::Split(_) => None,
                    };
                }
                node /= 2;
            }
            None
        };
        let mut leaf_rows = vec![Vec::new(); built.n_leaves()];
        for (i, row) in data.rows().iter().enumerate() {
            let mut id = 1;
            for _ in 0..built.depth {
                id = match tree.node(id).map(|n| &n.kind) {
                    Some(NodeKind::Split(split)) if tree.goes_left(split, row) => 2 * id,
                    _ => 2 * id + 1,
                };
            }
            leaf_rows[id - built.n_leaves()].push(i);
        }
        for t in 0..built.n_leaves() {
            let rows = &leaf_rows[t];
            let used = !rows.is_empty();
            let class = leaf_class(built.leaf_id(t));
            for (i, row) in built.z.iter().enumerate() {
                start.set(row[t], f64::from(u8::from(rows.contains(&i))));
            }
            start.set(built.l[t], f64::from(u8::from(used)));
            let mut weighted = vec![0.0; data.n_classes()];
            for &i in rows {
                weighted[data.labels()[i]] += built.class_weights[data.labels()[i]];
            }
            let total: f64 = weighted.iter().sum();
            let predicted = if used {
                Some(class.ok_or_else(|| {
                    Error::Internal(format!(
                        "leaf {} receives rows but has no class",
                        built.leaf_id(t)
                    ))
                })?)
            } else {
                None
            };
            for (class_index, &weight) in weighted.iter().enumerate() {
                start.set(
                    built.c[class_index][t],
                    f64::from(u8::from(predicted == Some(class_index))),
                );
                start.set(built.n_kt[class_index][t], weight);
            }
            start.set(built.n_t[t], total);
            start.set(
                built.loss[t],
                predicted.map_or(0.0, |p| total - weighted[p]),
            );
        }
        Ok(Encoded {
            assignment: start.finish()?,
            tree: encoded,
            notes,
        })
    }

    fn decode(&self, built: &OctModel, solution: &Assignment) -> Result<Decoded> {
        let data = &built.data;
        let on = |v: Variable| solution.value(v) > 0.5;
        let mut notes = Vec::new();
        // Each row's leaf, from z.
        let row_leaf: Vec<usize> = built
            .z
            .iter()
            .map(|row| {
                row.iter()
                    .position(|&v| on(v))
                    .map_or(0, |t| built.leaf_id(t))
            })
            .collect();
        let mut builder =
            TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), built.depth)?;
        let mut stack = vec![1usize];
        while let Some(id) = stack.pop() {
            let depth = node_depth(id);
            let splits = depth < built.depth && on(built.d[id - 1]);
            if splits {
                let m = id - 1;
                let feature = built
                    .a
                    .iter()
                    .position(|var| var[m].is_some_and(on))
                    .ok_or_else(|| Error::Internal(format!("node {id} splits on no feature")))?;
                let threshold =
                    self.decode_threshold(built, solution, id, feature, &row_leaf, &mut notes);
                builder.split(id, Split::Axis { feature, threshold })?;
                stack.push(2 * id);
                stack.push(2 * id + 1);
            } else {
                // Every row reaching `id` goes right to the rightmost model leaf below it.
                let mut leaf = id;
                while node_depth(leaf) < built.depth {
                    leaf = 2 * leaf + 1;
                }
                let t = leaf - built.n_leaves();
                let class = (0..data.n_classes()).find(|&k| on(built.c[k][t]));
                let class = match class {
                    Some(class) => class,
                    None => {
                        // No row reaches this leaf: predict the parent's majority.
                        let parent_rows: Vec<usize> = (0..data.n_rows())
                            .filter(|&i| is_descendant(row_leaf[i], (id / 2).max(1)))
                            .map(|i| data.labels()[i])
                            .collect();
                        majority(&crate::data::count_classes(&parent_rows, data.n_classes()))
                    }
                };
                builder.leaf(id, class)?;
            }
        }
        let mut tree = builder.build()?;
        tree.recount(data.rows(), data.labels())?;
        tree.learned_by = Some(json!({ "method": "oct", "parameters": self.parameters() }));
        Ok(Decoded { tree, notes })
    }

    fn objective_of(&self, built: &OctModel, tree: &Tree) -> Result<f64> {
        let data = &built.data;
        let predicted = tree.predict(data.rows());
        let errors: f64 = predicted
            .iter()
            .zip(data.labels())
            .filter(|(p, a)| p != a)
            .map(|(_, &a)| built.class_weights[a])
            .sum();
        Ok(errors / built.baseline + self.alpha * tree.n_splits() as f64)
    }
}

/// Whether node `id` is `ancestor` or below it.
fn is_descendant(mut id: usize, ancestor: usize) -> bool {
    while id > ancestor {
        id /= 2;
    }
    id == ancestor
}

impl Oct {
    /// The threshold (original units) of node `id` splitting on `feature`: the candidate
    /// midpoint that routes the rows reaching the node as the solution's `z` does; when several
    /// candidates do (values no row at the node takes lie between the two sides), the one that
    /// `b` points to; when none does (solver tolerances), the one `b` points to, with a note.
    fn decode_threshold(
        &self,
        built: &OctModel,
        solution: &Assignment,
        id: usize,
        feature: usize,
        row_leaf: &[usize],
        notes: &mut Vec<String>,
    ) -> f64 {
        let scaled = &built.features[feature];
        let b = solution.value(built.b[id - 1]);
        let eps = scaled.epsilon.unwrap_or(0.0);
        // How many distinct values lie left of b (robust to tolerances: halfway into the gap).
        let by_b = scaled
            .values
            .iter()
            .filter(|&&v| scaled.scale(v) < b - eps / 2.0)
            .count();
        let mut max_left = None::<f64>;
        let mut min_right = None::<f64>;
        for (i, &leaf) in row_leaf.iter().enumerate() {
            let value = built.data.rows()[i][feature];
            if is_descendant(leaf, 2 * id) {
                max_left = Some(max_left.map_or(value, |m: f64| m.max(value)));
            } else if is_descendant(leaf, 2 * id + 1) {
                min_right = Some(min_right.map_or(value, |m: f64| m.min(value)));
            }
        }
        // Range of "number of distinct values going left" consistent with z.
        let lowest = max_left.map_or(0, |m| scaled.values.iter().filter(|&&v| v <= m).count());
        let highest = min_right.map_or(scaled.values.len(), |m| {
            scaled.values.iter().filter(|&&v| v < m).count()
        });
        let count = if lowest <= highest {
            by_b.clamp(lowest, highest)
        } else {
            notes.push(format!(
                "node {id}: the solution routes rows on `{}` inconsistently with any threshold \
                 (solver tolerance on the epsilon constraints); the threshold follows b = {b}",
                built.data.schema().features[feature]
            ));
            by_b
        };
        match count {
            0 => scaled.values[0] - 1.0,
            k if k >= scaled.values.len() => scaled.values[scaled.values.len() - 1],
            k => scaled.thresholds[k - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ancestors;

    #[test]
    fn ancestors_of_leaves_go_left_then_right() {
        // depth 2: leaves 4,5,6,7 = indices 0..3; node 1 = branch 0, node 2 = 1, node 3 = 2.
        assert_eq!(ancestors(2, 0), vec![(0, true), (1, true)]);
        assert_eq!(ancestors(2, 1), vec![(0, true), (1, false)]);
        assert_eq!(ancestors(2, 2), vec![(0, false), (2, true)]);
        assert_eq!(ancestors(2, 3), vec![(0, false), (2, false)]);
    }
}
