//! [`RashomonSet`]: every tree within a margin of the optimum, held as the graph of its row
//! sets, and the operations that read it without listing it: the count by objective, the trees
//! in objective order (by rank), uniform samples, and the count of trees left without a
//! feature.

use std::time::Instant;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::budget::Budget;
use crate::constraints::fairness::Fairness;
use crate::constraints::{kinds, ConstraintKind, SideConstraints};
use crate::data::{feature_thresholds, Dataset};
use crate::dp::{self, DpOptions, DpProblem};
use crate::error::{Error, Result};
use crate::fair::{self, FairProblem, FairStop};
use crate::rashomon::fair_key::FairKey;
use crate::rashomon::graph::{Graph, GraphInput, NodeId, SplitOption, Stop};
use crate::rashomon::profile::Profile;
use crate::search_core::Termination;
use crate::tree::missing_copies::MissingCopies;
use crate::tree::{NodeKind, Split, Tree, TreeBuilder};

/// How far above the optimum the set reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Margin {
    /// Every tree of objective at most `(1 + epsilon)` times the optimum.
    Relative(f64),
    /// Every tree of objective at most this value.
    Objective(f64),
}

/// The graph's default memory cap, in MiB.
pub const DEFAULT_MEMORY_LIMIT_MB: usize = 4096;

/// The time and memory a build may take.
#[derive(Debug, Clone)]
pub struct Limits {
    pub time: Budget,
    /// Cap on the graph's memory, in bytes (estimated from its nodes' sizes).
    pub memory_limit_bytes: usize,
}

impl Limits {
    /// `time`, and a cap of `mib` MiB on the graph's memory.
    pub fn new(time: Budget, mib: usize) -> Limits {
        Limits {
            time,
            memory_limit_bytes: mib.saturating_mul(1 << 20),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new(Budget::unlimited(), DEFAULT_MEMORY_LIMIT_MB)
    }
}

/// What the set's trees must keep, over the data's features: features no node may split on,
/// the depths (the root 0) at which a feature may split (`None`: every depth), and bounds on
/// the gaps between groups' rates (fairness).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Restriction {
    pub forbidden: Vec<bool>,
    pub depths: Vec<Option<Vec<usize>>>,
    pub fairness: Option<Fairness>,
}

impl Restriction {
    /// Whether a node at `depth` may split on `feature`.
    pub fn permits(&self, feature: usize, depth: usize) -> bool {
        crate::constraints::permits(&self.forbidden, &self.depths, feature, depth)
    }

    /// The restriction of the checked side constraints `constraints`: their forbidden features
    /// (the group column's among them unless it may split), depths and fairness bounds. Any
    /// other kind present but those of `also` (kinds the caller applies itself, such as the
    /// leaf rows of the problem) is refused by name: the set's counts per row set do not see
    /// constraints on the tree as a whole.
    pub fn of(constraints: &SideConstraints, also: &[ConstraintKind]) -> Result<Restriction> {
        let refused: Vec<ConstraintKind> = kinds::present(constraints)
            .into_iter()
            .filter(|kind| {
                !matches!(
                    kind,
                    ConstraintKind::Forbidden | ConstraintKind::Depths | ConstraintKind::Fairness
                ) && !also.contains(kind)
            })
            .collect();
        if !refused.is_empty() {
            return Err(Error::parameter(
                "--constraints",
                format!(
                    "the Rashomon set takes forbidden features, depths, fairness bounds{}, \
                     not {}",
                    if also.is_empty() {
                        String::new()
                    } else {
                        format!(" and {}", kinds::names(also))
                    },
                    kinds::names(&refused)
                ),
            ));
        }
        Ok(Restriction {
            forbidden: constraints.forbidden.clone(),
            depths: constraints.depths.clone(),
            fairness: constraints.fairness.clone(),
        })
    }

    /// Whether it restricts where trees split.
    pub fn is_empty(&self) -> bool {
        !self.forbidden.iter().any(|&f| f) && self.depths.iter().all(Option::is_none)
    }
}

/// One tree of the set, as its splits: a leaf and its class, or a split and its two subtrees.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Leaf {
        class: usize,
    },
    Split {
        feature: usize,
        threshold: f64,
        /// How many candidate thresholds send this node's training rows the same way.
        variants: u64,
        left: Box<Shape>,
        right: Box<Shape>,
    },
}

impl Shape {
    /// The product of the splits' variants: how many trees over every candidate threshold this
    /// one stands for.
    pub fn variants(&self) -> BigUint {
        match self {
            Shape::Leaf { .. } => BigUint::from(1u8),
            Shape::Split {
                variants,
                left,
                right,
                ..
            } => BigUint::from(*variants) * left.variants() * right.variants(),
        }
    }

    /// The features its splits use, each once, increasing.
    pub fn features(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.collect_features(&mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    fn collect_features(&self, out: &mut Vec<usize>) {
        if let Shape::Split {
            feature,
            left,
            right,
            ..
        } = self
        {
            out.push(*feature);
            left.collect_features(out);
            right.collect_features(out);
        }
    }
}

/// One tree of the set with its rank (0 is a best tree) and objective.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub rank: BigUint,
    pub objective: f64,
    pub shape: Shape,
    /// The tree, with its training counts; its objective re-evaluated by plain code equals
    /// `objective`.
    pub tree: Tree,
}

/// Every tree of depth at most the problem's whose objective is within the margin.
pub struct RashomonSet {
    graph: Graph,
    root: NodeId,
    /// The training data as given.
    data: Dataset,
    /// With missing values, the data over the copies of the features that have them
    /// ([`MissingCopies`]): the graph and the search work over the copies, and the trees taken
    /// from the set are mapped back to the data's features with each split's missing side.
    copies: Option<MissingCopies>,
    /// The data's feature each feature of the graph stands for (empty without copies).
    origins: Vec<usize>,
    restriction: Restriction,
    problem: DpProblem,
    optimum: f64,
    /// Every tree of objective at most this is in the set (the margin's bound, or less when
    /// the build stopped).
    max_objective: f64,
    asked_max_objective: f64,
    stop: Option<Stop>,
    seconds: f64,
}

impl RashomonSet {
    /// Builds the set of `problem` on `data` (no split limit): the exact search proves the
    /// optimum, then the graph holds every tree of objective at most the margin's bound. With
    /// missing values, a split sends them the side it learned (either side where some of its
    /// rows have the value missing, the left where none has).
    pub fn build(
        data: &Dataset,
        problem: &DpProblem,
        margin: Margin,
        limits: &Limits,
    ) -> Result<RashomonSet> {
        Self::build_restricted(data, problem, &Restriction::default(), margin, limits)
    }

    /// [`RashomonSet::build`], every tree's splits within `restriction`.
    pub fn build_restricted(
        data: &Dataset,
        problem: &DpProblem,
        restriction: &Restriction,
        margin: Margin,
        limits: &Limits,
    ) -> Result<RashomonSet> {
        let started = Instant::now();
        problem.check(data)?;
        let copies = MissingCopies::of(data)?;
        let work = copies.as_ref().map_or(data, MissingCopies::data);
        if problem.max_splits.is_some() {
            return Err(Error::parameter(
                "max splits",
                "the Rashomon set takes a depth, not a split limit",
            ));
        }
        let (Margin::Relative(e) | Margin::Objective(e)) = margin;
        if !e.is_finite() || e < 0.0 {
            return Err(Error::parameter(
                "margin",
                format!("{e} is not a finite number of at least 0"),
            ));
        }
        let origins = copies
            .as_ref()
            .map(MissingCopies::origins)
            .unwrap_or_default();
        let fair = match &restriction.fairness {
            Some(fairness) => Some(FairKey::new(fairness, data)?),
            None => None,
        };
        let optimum = proven_optimum(work, problem, restriction, &origins, limits, started)?;
        let max_objective = match margin {
            Margin::Relative(e) => optimum * (1.0 + e),
            Margin::Objective(v) => v,
        };
        let mut input = graph_input(work, problem, copies.as_ref());
        input.fair = fair;
        input.permits = (0..work.n_features())
            .map(|j| {
                let origin = origins.get(j).copied().unwrap_or(j);
                (0..problem.depth)
                    .map(|depth| restriction.permits(origin, depth))
                    .collect()
            })
            .collect();
        let tolerance = input.tolerance;
        let time = limits.time.left_since(started);
        let mut graph = Graph::new(input, problem.depth, time, limits.memory_limit_bytes);
        let (root, complete_upto, stop) = widen(
            &mut graph,
            problem.depth,
            optimum,
            max_objective,
            limits.time.limit_seconds().is_some(),
        )
        .map_err(|stop| stopped(stop, &graph, limits))?;
        if complete_upto >= optimum - tolerance {
            let keeps = |key| graph.input.fair.as_ref().is_none_or(|f| f.keeps(key));
            let least = graph.nodes[root]
                .profile
                .upto(f64::INFINITY, tolerance, keeps)
                .min();
            if least.is_none_or(|least| (least - optimum).abs() > tolerance) {
                return Err(Error::Internal(format!(
                    "the set's least objective ({least:?}) is not the exact search's optimum \
                     ({optimum})"
                )));
            }
        }
        Ok(RashomonSet {
            graph,
            root,
            data: data.clone(),
            copies,
            problem: problem.clone(),
            restriction: restriction.clone(),
            origins,
            optimum,
            max_objective: complete_upto,
            asked_max_objective: max_objective,
            stop,
            seconds: crate::budget::seconds_of(started.elapsed()),
        })
    }

    /// Why the build stopped before the margin asked, if it did: then the set holds every tree
    /// of objective at most [`RashomonSet::max_objective`], below
    /// [`RashomonSet::asked_max_objective`].
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// The largest objective the margin asked for (the set's own when it is complete).
    pub fn asked_max_objective(&self) -> f64 {
        self.asked_max_objective
    }

    /// The proven optimum.
    pub fn optimum(&self) -> f64 {
        self.optimum
    }

    /// The largest objective a tree of the set may have: every tree of objective at most this
    /// is in the set.
    pub fn max_objective(&self) -> f64 {
        self.max_objective
    }

    /// Wall-clock seconds of the build (the exact search's included).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Row sets (with their depths) the graph holds, and its estimated bytes.
    pub fn graph_size(&self) -> (usize, usize) {
        (self.graph.nodes.len(), self.graph.memory())
    }

    pub fn data(&self) -> &Dataset {
        &self.data
    }

    pub fn problem(&self) -> &DpProblem {
        &self.problem
    }

    pub fn restriction(&self) -> &Restriction {
        &self.restriction
    }

    fn tolerance(&self) -> f64 {
        self.graph.input.tolerance
    }

    /// Whether a whole tree of fairness key `key` keeps the fairness bounds (every tree
    /// without them).
    fn keeps(&self, key: i128) -> bool {
        self.graph.input.fair.as_ref().is_none_or(|f| f.keeps(key))
    }

    /// The trees of a root profile that are in the set: within its bound and fair.
    fn in_set(&self, root: &Profile) -> BigUint {
        root.total_upto(self.max_objective, self.tolerance(), |k| self.keeps(k))
    }

    fn root_profile(&self) -> Profile {
        self.graph.nodes[self.root]
            .profile
            .upto(self.max_objective, self.tolerance(), |k| self.keeps(k))
    }

    /// The number of trees in the set.
    pub fn count(&self) -> BigUint {
        self.in_set(&self.graph.nodes[self.root].profile)
    }

    /// Each objective the set's trees have, increasing, with how many have it.
    pub fn by_objective(&self) -> Vec<(f64, BigUint)> {
        self.root_profile().by_objective()
    }

    /// Under fairness bounds, for each objective of the set's trees (increasing), the least and
    /// the largest gap among them of the first bound's kind of rate; empty without fairness.
    pub fn gaps_by_objective(&self) -> Vec<(f64, f64, f64)> {
        let Some(fair) = &self.graph.input.fair else {
            return Vec::new();
        };
        let mut out: Vec<(f64, f64, f64)> = Vec::new();
        for (cost, key, _) in self.root_profile().entries() {
            let gap = fair.gap(*key);
            match out.last_mut() {
                Some((c, low, high)) if c == cost => {
                    *low = low.min(gap);
                    *high = high.max(gap);
                }
                _ => out.push((*cost, gap, gap)),
            }
        }
        out
    }

    /// The fairness bounds the set's trees keep, if any.
    pub fn fairness(&self) -> Option<&Fairness> {
        self.restriction.fairness.as_ref()
    }

    /// The tree of rank `rank` in objective order (ties in a fixed order), if the set has one.
    pub fn tree(&self, rank: &BigUint) -> Result<Option<Ranked>> {
        let mut index = rank.clone();
        for (cost, key, count) in self.root_profile().entries() {
            if index < *count {
                let shape = self.unrank(self.root, *cost, *key, index);
                let tree = self.checked_tree(&shape, *cost)?;
                return Ok(Some(Ranked {
                    rank: rank.clone(),
                    objective: *cost,
                    shape,
                    tree,
                }));
            }
            index -= count;
        }
        Ok(None)
    }

    /// The first `n` trees in objective order (fewer when the set has fewer).
    pub fn first(&self, n: usize) -> Result<Vec<Ranked>> {
        let mut trees = Vec::new();
        let mut rank = BigUint::from(0u8);
        while trees.len() < n {
            let Some(tree) = self.tree(&rank)? else {
                break;
            };
            trees.push(tree);
            rank += 1u8;
        }
        Ok(trees)
    }

    /// `k` trees drawn uniformly (with replacement) from the set, from seed `seed`.
    pub fn sample(&self, k: usize, seed: u64) -> Result<Vec<Ranked>> {
        let total = self.count();
        if total.is_zero() {
            return Ok(Vec::new());
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::with_capacity(k);
        for _ in 0..k {
            let rank = uniform_below(&total, &mut rng);
            if let Some(tree) = self.tree(&rank)? {
                out.push(tree);
            }
        }
        Ok(out)
    }

    /// The tree of exact objective `cost` and fairness key `key` numbered `index` among those
    /// `node` roots.
    fn unrank(&self, node: NodeId, cost: f64, key: i128, mut index: BigUint) -> Shape {
        let tolerance = self.tolerance();
        let n = &self.graph.nodes[node];
        for leaf in n.leaves() {
            if (leaf.cost - cost).abs() <= tolerance && leaf.key == key {
                if index.is_zero() {
                    return Shape::Leaf { class: leaf.class };
                }
                index -= 1u8;
            }
        }
        let covers = |part| {
            self.graph
                .input
                .fair
                .as_ref()
                .is_none_or(|f| f.covers(key, part))
        };
        let lambda = self.graph.input.split_cost;
        for split in &n.splits {
            let (pl, pr) = (
                &self.graph.nodes[split.left].profile,
                &self.graph.nodes[split.right].profile,
            );
            for (cl, kl, nl) in pl.entries() {
                let cr = cost - lambda - cl;
                if cr < -tolerance {
                    break;
                }
                if !covers(*kl) {
                    continue;
                }
                let kr = key - kl;
                let Some(nr) = pr.count_at(cr, kr, tolerance) else {
                    continue;
                };
                let block = nl * nr;
                if index < block {
                    let (li, ri) = (&index / nr, &index % nr);
                    return Shape::Split {
                        feature: split.feature,
                        threshold: split.threshold,
                        variants: split.variants,
                        left: Box::new(self.unrank(split.left, *cl, *kl, li)),
                        right: Box::new(self.unrank(split.right, cr, kr, ri)),
                    };
                }
                index -= block;
            }
        }
        // Ranks come from the node's own profile, which counts exactly the blocks above.
        Shape::Leaf {
            class: n.leaf.map_or(0, |l| l.class),
        }
    }

    /// The tree of `shape`, counted on the training rows, its objective checked by plain code.
    pub fn checked_tree(&self, shape: &Shape, objective: f64) -> Result<Tree> {
        let work = self.copies.as_ref().map_or(&self.data, MissingCopies::data);
        let mut builder = TreeBuilder::new(
            work.schema().clone(),
            work.classes().to_vec(),
            self.problem.depth,
        )?;
        place(&mut builder, shape, 1)?;
        let mut tree = builder.build()?;
        tree = match &self.copies {
            Some(copies) => copies.original_tree(&tree, &self.data)?,
            None => tree,
        };
        tree.recount_on(&self.data)?;
        if let Some((id, feature)) = tree.nodes().find_map(|(id, node)| match node.kind {
            NodeKind::Split(Split::Axis { feature, .. })
                if !self
                    .restriction
                    .permits(feature, crate::tree::node_depth(id)) =>
            {
                Some((id, feature))
            }
            _ => None,
        }) {
            return Err(Error::Internal(format!(
                "a tree of the set splits on feature {feature} at node {id}, which the \
                 restriction forbids"
            )));
        }
        if let Some(broken) = self
            .fairness()
            .and_then(|f| f.values(&tree).broken.first().cloned())
        {
            return Err(Error::Internal(format!(
                "a tree of the set breaks a fairness bound: {broken}"
            )));
        }
        let evaluated = dp::objective_of(&tree, &self.data, &self.problem);
        match evaluated {
            Some(value) if (value - objective).abs() <= self.tolerance() => Ok(tree),
            other => Err(Error::Internal(format!(
                "a tree of the set has objective {objective} in the set and {other:?} on the data"
            ))),
        }
    }

    /// The feature of the data a split of the graph is on (its copies' feature).
    fn origin(&self, feature: usize) -> usize {
        self.origins.get(feature).copied().unwrap_or(feature)
    }

    /// The features of the data `shape`'s splits use, each once, increasing.
    pub fn features_of(&self, shape: &Shape) -> Vec<usize> {
        let mut features: Vec<usize> = shape
            .features()
            .into_iter()
            .map(|j| self.origin(j))
            .collect();
        features.dedup();
        features
    }

    /// The number of trees of the set with no split on `feature` (of the data).
    pub fn count_without(&self, feature: usize) -> BigUint {
        let mut memo = vec![None; self.graph.nodes.len()];
        let profile = self.recount(self.root, &mut memo, &|s| {
            (self.origin(s.feature) != feature).then(|| BigUint::from(1u8))
        });
        self.in_set(&profile)
    }

    /// The number of trees over every candidate threshold (each tree times its variants).
    pub fn count_with_variants(&self) -> BigUint {
        let mut memo = vec![None; self.graph.nodes.len()];
        let profile = self.recount(self.root, &mut memo, &|s| Some(BigUint::from(s.variants)));
        self.in_set(&profile)
    }

    /// The node's profile with each split weighed by `weigh` (`None` leaves it out).
    fn recount(
        &self,
        node: NodeId,
        memo: &mut Vec<Option<Profile>>,
        weigh: &dyn Fn(&SplitOption) -> Option<BigUint>,
    ) -> Profile {
        if let Some(known) = &memo[node] {
            return known.clone();
        }
        let tolerance = self.tolerance();
        let n = &self.graph.nodes[node];
        let mut profile = Profile::default();
        for leaf in n.leaves().filter(|l| l.cost <= n.budget + tolerance) {
            profile.add(leaf.cost, leaf.key, 1u8.into(), tolerance);
        }
        for split in &n.splits {
            let Some(weight) = weigh(split) else {
                continue;
            };
            let left = self.recount(split.left, memo, weigh);
            let right = self.recount(split.right, memo, weigh);
            let mut joined = Profile::default();
            joined.add_product(
                &left,
                &right,
                self.graph.input.split_cost,
                n.budget,
                tolerance,
            );
            for (cost, key, count) in joined.entries() {
                profile.add(*cost, *key, count * &weight, tolerance);
            }
        }
        memo[node] = Some(profile.clone());
        profile
    }

    /// For each row of `rows` (the training data's features), the number of the set's trees
    /// predicting each class. A missing value goes the side each split learned; it is refused
    /// in a feature no training row misses (no split learned a side for it).
    pub fn votes(&self, rows: &[Vec<f64>]) -> Result<Vec<Vec<BigUint>>> {
        use rayon::prelude::*;
        let n_features = self.data.n_features();
        if let Some(i) = rows.iter().position(|r| r.len() != n_features) {
            return Err(Error::TreeMismatch(format!(
                "row {i} has {} values for {n_features} features",
                rows[i].len()
            )));
        }
        let learned: Vec<bool> = (0..n_features)
            .map(|j| self.data.feature_column(j).iter().any(|v| v.is_nan()))
            .collect();
        for row in rows {
            if let Some(j) = (0..n_features).find(|&j| row[j].is_nan() && !learned[j]) {
                return Err(Error::parameter(
                    "data",
                    format!(
                        "`{}` has a missing value, and no training row misses it: the set's \
                         splits learned no missing side for it",
                        self.data.schema().features[j]
                    ),
                ));
            }
        }
        Ok(rows
            .par_iter()
            .map(|row| {
                let encoded;
                let row = match &self.copies {
                    Some(copies) => {
                        encoded = copies.encode(row);
                        &encoded[..]
                    }
                    None => &row[..],
                };
                let mut memo = rustc_hash::FxHashMap::default();
                let per_class = self.class_profiles(self.root, row, &mut memo);
                per_class.iter().map(|p| self.in_set(p)).collect()
            })
            .collect())
    }

    /// Per class, the profile of the trees `node` roots that predict that class for `row`.
    fn class_profiles(
        &self,
        node: NodeId,
        row: &[f64],
        memo: &mut rustc_hash::FxHashMap<NodeId, Vec<Profile>>,
    ) -> Vec<Profile> {
        if let Some(known) = memo.get(&node) {
            return known.clone();
        }
        let tolerance = self.tolerance();
        let n = &self.graph.nodes[node];
        let mut out = vec![Profile::default(); self.data.n_classes()];
        for leaf in n.leaves().filter(|l| l.cost <= n.budget + tolerance) {
            out[leaf.class].add(leaf.cost, leaf.key, 1u8.into(), tolerance);
        }
        for split in &n.splits {
            let (near, far) = if row[split.feature] <= split.threshold {
                (split.left, split.right)
            } else {
                (split.right, split.left)
            };
            let near = self.class_profiles(near, row, memo);
            let far = &self.graph.nodes[far].profile;
            for (class, profile) in near.iter().enumerate() {
                out[class].add_product(
                    profile,
                    far,
                    self.graph.input.split_cost,
                    n.budget,
                    tolerance,
                );
            }
        }
        memo.insert(node, out.clone());
        out
    }
}

/// A big integer drawn uniformly from `0..bound` (`bound` above 0), by rejection.
fn uniform_below(bound: &BigUint, rng: &mut ChaCha8Rng) -> BigUint {
    let bits = bound.bits();
    let bytes = bits.div_ceil(8) as usize;
    loop {
        let mut buffer = vec![0u8; bytes];
        rng.fill_bytes(&mut buffer);
        let extra = (bytes as u64) * 8 - bits;
        if let Some(top) = buffer.last_mut() {
            *top &= 0xff >> extra;
        }
        let value = BigUint::from_bytes_le(&buffer);
        if value < *bound {
            return value;
        }
    }
}

fn place(builder: &mut TreeBuilder, shape: &Shape, id: usize) -> Result<()> {
    match shape {
        Shape::Leaf { class } => {
            builder.leaf(id, *class)?;
        }
        Shape::Split {
            feature,
            threshold,
            left,
            right,
            ..
        } => {
            builder.split(
                id,
                Split::Axis {
                    feature: *feature,
                    threshold: *threshold,
                },
            )?;
            place(builder, left, 2 * id)?;
            place(builder, right, 2 * id + 1)?;
        }
    }
    Ok(())
}

/// What the graph reads of `data` and `problem`; `copies` are the copies `data` is over, when
/// the training data has missing values.
fn graph_input(data: &Dataset, problem: &DpProblem, copies: Option<&MissingCopies>) -> GraphInput {
    let origins = copies.map(MissingCopies::origins).unwrap_or_default();
    // The second of a feature's two copies: the one after a copy of the same feature.
    let missing = (0..data.n_features())
        .map(|j| {
            let second = j > 0 && origins.get(j).is_some_and(|&o| origins[j - 1] == o);
            second.then(|| {
                let low = data.feature_column(j - 1);
                let high = data.feature_column(j);
                // A missing cell sits below every value in the first copy and above every
                // value in the second: the copies differ on exactly those rows.
                low.iter().zip(&high).map(|(a, b)| a != b).collect()
            })
        })
        .collect();
    let n_features = data.n_features();
    let values: Vec<Vec<f64>> = (0..n_features).map(|j| data.feature_column(j)).collect();
    let thresholds = feature_thresholds(data, problem.thresholds);
    let ranks = values
        .iter()
        .zip(&thresholds)
        .map(|(column, thresholds)| {
            column
                .iter()
                .map(|&v| thresholds.partition_point(|&t| t < v) as u32)
                .collect()
        })
        .collect();
    let row_costs: Vec<f64> = data
        .labels()
        .iter()
        .enumerate()
        .map(|(i, &label)| data.weight(i) * problem.class_weights[label])
        .collect();
    let total: f64 = row_costs.iter().sum();
    GraphInput {
        values,
        labels: data.labels().to_vec(),
        row_costs,
        n_classes: data.n_classes(),
        ranks,
        split_cost: problem.split_cost,
        min_leaf: problem.min_leaf.max(1),
        max_leaf: problem.max_leaf.unwrap_or(usize::MAX),
        tolerance: 1e-9 * total.max(1.0),
        missing,
        permits: vec![vec![true; problem.depth]; n_features],
        depth: problem.depth,
        data: data.clone(),
        problem: problem.clone(),
        fair: None,
    }
}

/// The optimum of `problem` on `work` (the data, or its copies with `origins`) under
/// `restriction`, proven by the exact search (the fair search under fairness bounds) within the
/// time limit, or why not.
fn proven_optimum(
    work: &Dataset,
    problem: &DpProblem,
    restriction: &Restriction,
    origins: &[usize],
    limits: &Limits,
    started: Instant,
) -> Result<f64> {
    let unproven = |best: f64, bound: String| {
        Error::NoTree(format!(
            "the exact search did not prove the optimum within the time limit ({} s; best \
             {best}, bound {bound}); the set is measured from the optimum: raise the time limit",
            crate::budget::seconds_of(started.elapsed()),
        ))
    };
    if let Some(fairness) = &restriction.fairness {
        let origin = |j: usize| origins.get(j).copied().unwrap_or(j);
        // Over the copies' features when the data has missing values.
        let fair_problem = FairProblem::of(
            problem,
            (0..work.n_features())
                .map(|j| {
                    restriction
                        .forbidden
                        .get(origin(j))
                        .copied()
                        .unwrap_or(false)
                })
                .collect(),
            (0..work.n_features())
                .map(|j| restriction.depths.get(origin(j)).cloned().flatten())
                .collect(),
        );
        let stop = FairStop {
            start: started,
            budget: limits.time.clone(),
        };
        let found = fair::solve(work, fairness, &fair_problem, 1, &stop)?;
        if found.termination != Termination::Optimal {
            return Err(unproven(found.objective, "unknown".to_string()));
        }
        return Ok(found.objective);
    }
    let options = DpOptions {
        budget: limits.time.left_since(started),
        ..DpOptions::default()
    };
    let exact = if restriction.is_empty() {
        dp::solve(work, problem, &options)?
    } else {
        let rule = dp::FeatureRule {
            forbidden: restriction.forbidden.clone(),
            depths: restriction.depths.clone(),
            origin: origins.to_vec(),
            ..dp::FeatureRule::default()
        };
        dp::solve_under(work, problem, &rule, &options)?.outcome
    };
    if !exact.is_optimal() {
        return Err(unproven(exact.objective, exact.lower_bound.to_string()));
    }
    Ok(exact.objective)
}

/// The bounds the build widens through when it has a time limit: the optimum (its trees
/// first), half the margin above it, then the whole margin; without a limit, the margin alone.
/// A build stopped at a pass keeps the last complete one's set. Each pass rebuilds the nodes
/// whose bound grew, so a pass costs about what the set of its bound alone would; when every
/// objective is a whole number (`integral`), bounds are taken down to whole numbers and a pass
/// that would hold the same trees as the next is left out.
fn passes(optimum: f64, max_objective: f64, limited: bool, integral: bool) -> Vec<f64> {
    let margin = max_objective - optimum;
    if margin <= 0.0 || !limited {
        return vec![max_objective];
    }
    let trees_of = |bound: f64| {
        if integral {
            (bound + 1e-9).floor()
        } else {
            bound
        }
    };
    let mut bounds: Vec<f64> = Vec::new();
    for bound in [optimum, optimum + margin / 2.0] {
        let bound = trees_of(bound);
        if trees_of(max_objective) > bound && bounds.last().is_none_or(|&b| b < bound) {
            bounds.push(bound);
        }
    }
    bounds.push(max_objective);
    bounds
}

/// Builds the root through [`passes`]: `(root, the last pass complete, why the next stopped)`,
/// or why the first stopped. A node rebuilt for a larger bound holds every tree the smaller
/// one held, so an interrupted pass leaves the last complete pass's nodes as they were.
fn widen(
    graph: &mut Graph,
    depth: usize,
    optimum: f64,
    max_objective: f64,
    limited: bool,
) -> std::result::Result<(NodeId, f64, Option<Stop>), Stop> {
    let mut done: Option<(NodeId, f64)> = None;
    for bound in passes(optimum, max_objective, limited, graph.input.integral()) {
        match graph.build_root(depth, bound) {
            Ok(root) => done = Some((root, bound)),
            Err(stop) => {
                return done
                    .map(|(root, upto)| (root, upto, Some(stop)))
                    .ok_or(stop)
            }
        }
    }
    // `passes` is never empty.
    done.map(|(root, upto)| (root, upto, None))
        .ok_or(Stop::Time)
}

fn stopped(stop: Stop, graph: &Graph, limits: &Limits) -> Error {
    let (what, remedy) = match stop {
        Stop::Time => (
            format!(
                "the time limit ({} s)",
                limits.time.limit_seconds().unwrap_or(0.0)
            ),
            "raise --time-limit",
        ),
        Stop::Memory => (
            format!(
                "the memory limit ({} MiB)",
                limits.memory_limit_bytes as f64 / f64::from(1u32 << 20)
            ),
            "raise --memory-limit",
        ),
        Stop::Interrupted => ("an interruption".to_string(), "let it run"),
    };
    Error::NoTree(format!(
        "the set was not complete at {what}, with {} row sets held; {remedy} or narrow the \
         margin",
        graph.nodes.len()
    ))
}

/// A count as a float (for shares), infinite past `f64`'s range.
pub fn approx(count: &BigUint) -> f64 {
    count.to_f64().unwrap_or(f64::INFINITY)
}
