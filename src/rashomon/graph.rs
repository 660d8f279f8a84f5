//! The set as a graph: one node per row set and depth left, holding its leaf, every split of
//! its rows that begins a tree within the node's budget (each pointing at its two children) and
//! the [`Profile`] of the trees it roots. The graph is built top-down with budgets: a child gets
//! what its parent's budget leaves after its sibling's least objective, so a split whose two
//! sides cannot fit is never opened, and a row set met again is read from the table (or rebuilt
//! with a larger budget).
//!
//! Bounds between neighbouring split positions (without leaf rules): along a feature's sorted
//! rows the left side grows, and a tree's least objective never falls when rows are added, nor
//! rises by more than the weight of the rows added (MurTree's similarity bound), so most
//! positions are passed over without building their sides.

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::dp::DpProblem;
use crate::rashomon::fair_key::FairKey;
use crate::rashomon::least::{self, Gap};
use crate::rashomon::profile::Profile;

pub type NodeId = usize;

/// A leaf: its objective, its class (the best one, the first on a tie, or under fairness the
/// other too) and its fairness key (0 without fairness).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leaf {
    pub cost: f64,
    pub class: usize,
    pub key: i128,
}

/// One split of a node's rows: `x[feature] <= threshold` goes left; `variants` is how many of
/// the data's candidate thresholds send the node's rows the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplitOption {
    pub feature: usize,
    pub threshold: f64,
    pub variants: u64,
    pub left: NodeId,
    pub right: NodeId,
}

/// A row set with `depth` split levels left.
#[derive(Debug, Clone)]
pub struct GraphNode {
    /// Its rows (none for a leaf node: one stands for every leaf of its class and objective).
    pub rows: Box<[u32]>,
    /// The leaf, when the leaf rules allow one here.
    pub leaf: Option<Leaf>,
    /// Under fairness, the leaf of the other class (a tree of its own: a leaf labelled
    /// against its rows can be what makes a tree fair).
    pub relabel: Option<Leaf>,
    pub splits: Vec<SplitOption>,
    /// The trees of objective at most `budget` this node roots.
    pub profile: Profile,
    /// The budget the node was built for (infinite for a node of depth 0: it is complete).
    pub budget: f64,
    /// A lower bound on the least objective of the node's trees (whatever the budget): exact at
    /// depths 0 and 1, the budget when the node holds no tree within it.
    pub least: f64,
}

impl GraphNode {
    /// Its leaves: the best, and under fairness the other class's.
    pub fn leaves(&self) -> impl Iterator<Item = &Leaf> {
        self.leaf.iter().chain(self.relabel.iter())
    }
}

/// Why a build stopped before the set was complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Time,
    Memory,
    /// The budget's interrupt flag was set (Ctrl-C).
    Interrupted,
}

impl Stop {
    /// The report's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Time => "time_limit",
            Stop::Memory => "memory_limit",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// What the builder reads of the data and the problem.
pub struct GraphInput {
    /// `values[feature][row]`.
    pub values: Vec<Vec<f64>>,
    pub labels: Vec<usize>,
    /// What an error on each row costs: its weight times its class's weight.
    pub row_costs: Vec<f64>,
    pub n_classes: usize,
    /// `ranks[feature][row]`: how many of the feature's candidate thresholds lie below the
    /// row's value.
    pub ranks: Vec<Vec<u32>>,
    pub split_cost: f64,
    pub min_leaf: usize,
    pub max_leaf: usize,
    pub tolerance: f64,
    /// Per feature, for the second copy of a feature with missing values (missing values
    /// above every value), which rows have the value missing; `None` for any other feature.
    pub missing: Vec<Option<Vec<bool>>>,
    /// `permits[feature][depth]`: whether a node at `depth` (the root 0) may split on
    /// `feature` (forbidden features and the depths a feature may split at).
    pub permits: Vec<Vec<bool>>,
    /// The depth of the trees (the root's levels).
    pub depth: usize,
    /// The data and problem, for the exact search's bounds on the splits of deep nodes.
    pub data: Dataset,
    pub problem: DpProblem,
    /// Under fairness bounds, the rows' keys: every leaf then takes either class.
    pub fair: Option<FairKey>,
}

impl GraphInput {
    /// Whether a node of the rows `ids` with `levels` split levels left passes over
    /// `feature`: the feature may not split at the node's depth, or its splits of those rows
    /// are another feature's (on rows with no missing value, the two copies of a feature part
    /// them alike, and only the first, missing values left, is kept).
    pub fn skips(&self, feature: usize, ids: &[u32], levels: usize) -> bool {
        let depth = self.depth.saturating_sub(levels);
        !self.permits[feature].get(depth).copied().unwrap_or(true)
            || self.missing[feature]
                .as_ref()
                .is_some_and(|missing| !ids.iter().any(|&i| missing[i as usize]))
    }

    /// A leaf of rows whose error costs per class sum to `sums` and whose key when predicted
    /// positive is `positive_key`: the best, and under fairness the other class's.
    pub fn labelled(&self, sums: &[f64], positive_key: i128) -> (Leaf, Option<Leaf>) {
        let mut best = leaf_of_sums(sums);
        let Some(fair) = &self.fair else {
            return (best, None);
        };
        let key = |class: usize| {
            if class == fair.positive {
                positive_key
            } else {
                0
            }
        };
        best.key = key(best.class);
        let total: f64 = sums.iter().sum();
        let class = 1 - best.class;
        let other = Leaf {
            cost: (total - sums[class]).max(0.0),
            class,
            key: key(class),
        };
        (best, Some(other))
    }

    /// The key of `rows` predicted positive (0 without fairness).
    pub fn positive_key(&self, rows: &[u32]) -> i128 {
        self.fair
            .as_ref()
            .map_or(0, |fair| fair.leaf_key(rows, fair.positive))
    }

    /// Whether every objective is a whole number (whole error costs and split cost).
    pub fn integral(&self) -> bool {
        let whole = |x: f64| x.fract() == 0.0;
        whole(self.split_cost) && self.row_costs.iter().all(|&c| whole(c))
    }
}

/// A row set's rows in row order and sorted by each feature.
pub struct Lists {
    pub ids: Vec<u32>,
    pub by_feature: Vec<Vec<u32>>,
}

pub struct Graph {
    pub input: GraphInput,
    pub nodes: Vec<GraphNode>,
    index: Vec<FxHashMap<Box<[u32]>, NodeId>>,
    /// The midpoints of the value pairs split so far, by their bits.
    midpoints: FxHashMap<(u64, u64), f64>,
    /// The leaf nodes, by their leaves' class, objective and key.
    leaves: FxHashMap<[(usize, u64, i128); 2], NodeId>,
    /// Least objectives of row sets (per depth) computed before any node of theirs was built.
    optima: Vec<FxHashMap<Box<[u32]>, f64>>,
    stamp: Vec<u32>,
    stamp_now: u32,
    time: Budget,
    started: Instant,
    memory_limit: usize,
    memory: usize,
    steps: u64,
}

impl Graph {
    pub fn new(input: GraphInput, depth: usize, time: Budget, memory_limit: usize) -> Graph {
        let n = input.labels.len();
        Graph {
            input,
            nodes: Vec::new(),
            index: vec![FxHashMap::default(); depth + 1],
            optima: vec![FxHashMap::default(); depth + 1],
            leaves: FxHashMap::default(),
            midpoints: FxHashMap::default(),
            stamp: vec![0; n],
            stamp_now: 0,
            time,
            started: Instant::now(),
            memory_limit,
            memory: 0,
            steps: 0,
        }
    }

    /// Builds the node of every row, `depth` levels, for trees of objective at most `budget`.
    pub fn build_root(&mut self, depth: usize, budget: f64) -> Result<NodeId, Stop> {
        let n = self.input.labels.len();
        let ids: Vec<u32> = (0..n as u32).collect();
        let by_feature = self
            .input
            .values
            .iter()
            .map(|column| {
                let mut order = ids.clone();
                order.sort_by(|&a, &b| column[a as usize].total_cmp(&column[b as usize]));
                order
            })
            .collect();
        self.ensure(&Lists { ids, by_feature }, depth, budget)
    }

    /// Bytes the graph holds (an estimate from its nodes' sizes).
    pub fn memory(&self) -> usize {
        self.memory
    }

    fn check(&mut self) -> Result<(), Stop> {
        self.steps += 1;
        if self.memory > self.memory_limit {
            return Err(Stop::Memory);
        }
        if self.steps % 256 == 0 && self.time.spent_since(self.started) {
            return Err(if self.time.interrupted() {
                Stop::Interrupted
            } else {
                Stop::Time
            });
        }
        Ok(())
    }

    /// The leaf of `ids`, and under fairness the other class's, if the leaf rules allow them.
    fn leaf_of(&self, ids: &[u32]) -> (Option<Leaf>, Option<Leaf>) {
        if ids.len() < self.input.min_leaf || ids.len() > self.input.max_leaf {
            return (None, None);
        }
        let mut sums = vec![0.0; self.input.n_classes];
        for &i in ids {
            sums[self.input.labels[i as usize]] += self.input.row_costs[i as usize];
        }
        let (best, other) = self.input.labelled(&sums, self.input.positive_key(ids));
        (Some(best), other)
    }

    /// The node of `lists` at `depth`, built for at least `budget`.
    fn ensure(&mut self, lists: &Lists, depth: usize, budget: f64) -> Result<NodeId, Stop> {
        let tolerance = self.input.tolerance;
        let known = self.index[depth].get(&lists.ids[..]).copied();
        if let Some(id) = known {
            if self.nodes[id].budget >= budget - tolerance {
                return Ok(id);
            }
        }
        self.check()?;
        let (leaf, relabel) = self.leaf_of(&lists.ids);
        let mut profile = Profile::default();
        let node_budget = if depth == 0 { f64::INFINITY } else { budget };
        for l in leaf.iter().chain(&relabel) {
            if l.cost <= node_budget + tolerance {
                profile.add(l.cost, l.key, 1u8.into(), tolerance);
            }
        }
        let mut splits = Vec::new();
        let mut least = leaf.map_or(f64::INFINITY, |l| l.cost);
        if depth > 0 && lists.ids.len() >= 2 {
            if depth == 1 {
                least = least.min(self.depth_one(lists, budget, &mut splits, &mut profile)?);
            } else if self.input.split_cost <= budget + tolerance {
                self.deeper(lists, depth, budget, &mut splits, &mut profile)?;
            }
        }
        let least = match profile.min() {
            Some(min) => min,
            None if depth <= 1 => least,
            None => least.min(budget),
        };
        let node = GraphNode {
            rows: lists.ids.clone().into_boxed_slice(),
            leaf,
            relabel,
            splits,
            profile,
            budget: node_budget,
            least,
        };
        let size = node_size(&node);
        self.memory += size;
        Ok(match known {
            Some(id) => {
                self.memory = self.memory.saturating_sub(node_size(&self.nodes[id]));
                self.nodes[id] = node;
                id
            }
            None => {
                let id = self.nodes.len();
                self.index[depth].insert(node.rows.clone(), id);
                self.memory += lists.ids.len() * 4 + 48;
                self.nodes.push(node);
                id
            }
        })
    }

    /// Depth one: every split whose two leaves fit the budget, by one scan per feature; returns
    /// the least objective of a split (whatever the budget).
    fn depth_one(
        &mut self,
        lists: &Lists,
        budget: f64,
        splits: &mut Vec<SplitOption>,
        profile: &mut Profile,
    ) -> Result<f64, Stop> {
        self.check()?;
        let mut within = Vec::new();
        let least = least::depth_one(
            &self.input,
            &lists.ids,
            &lists.by_feature,
            budget,
            &mut within,
        );
        let tolerance = self.input.tolerance;
        for split in within {
            let left = self.ensure_leaf(split.left, split.left_other);
            let right = self.ensure_leaf(split.right, split.right_other);
            splits.push(SplitOption {
                feature: split.feature,
                threshold: self.threshold(&split.gap),
                variants: split.gap.variants,
                left,
                right,
            });
            if self.input.fair.is_none() {
                profile.add(split.cost, 0, 1u8.into(), tolerance);
            } else {
                let (pl, pr) = (&self.nodes[left].profile, &self.nodes[right].profile);
                let lambda = self.input.split_cost;
                profile.add_product(pl, pr, lambda, budget, tolerance);
            }
        }
        Ok(least)
    }

    /// The threshold of a split at `gap` (the midpoint of its values, computed once a pair).
    fn threshold(&mut self, gap: &Gap) -> f64 {
        *self
            .midpoints
            .entry((gap.low.to_bits(), gap.high.to_bits()))
            .or_insert_with(|| gap.threshold())
    }

    fn mark(&mut self, rows: &[u32]) {
        self.stamp_now = self.stamp_now.wrapping_add(1);
        if self.stamp_now == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp_now = 1;
        }
        for &i in rows {
            self.stamp[i as usize] = self.stamp_now;
        }
    }

    /// The depth-0 node of a leaf (and under fairness the other class's): one node per
    /// class, objective and key, whatever its rows (a leaf's trees, class, objective and key
    /// are all the graph reads of it).
    fn ensure_leaf(&mut self, leaf: Leaf, relabel: Option<Leaf>) -> NodeId {
        let part = |l: &Leaf| (l.class, l.cost.to_bits(), l.key);
        let key = [
            part(&leaf),
            relabel.as_ref().map_or((usize::MAX, 0, 0), part),
        ];
        if let Some(&id) = self.leaves.get(&key) {
            return id;
        }
        let mut profile = Profile::single(leaf.cost, leaf.key);
        if let Some(other) = &relabel {
            profile.add(other.cost, other.key, 1u8.into(), self.input.tolerance);
        }
        let id = self.nodes.len();
        self.memory += 160;
        self.leaves.insert(key, id);
        self.nodes.push(GraphNode {
            rows: Box::default(),
            leaf: Some(leaf),
            relabel,
            splits: Vec::new(),
            profile,
            budget: f64::INFINITY,
            least: leaf.cost,
        });
        id
    }

    /// The lists of the rows of `lists` marked (`marked`) or not, in the same orders.
    fn side(&self, lists: &Lists, marked: bool) -> Lists {
        let now = self.stamp_now;
        let keep = |i: &&u32| (self.stamp[**i as usize] == now) == marked;
        Lists {
            ids: lists.ids.iter().filter(keep).copied().collect(),
            by_feature: lists
                .by_feature
                .iter()
                .map(|sorted| sorted.iter().filter(keep).copied().collect())
                .collect(),
        }
    }

    /// The least objective of the trees of `lists` at `depth` (whatever the budget): read from
    /// the table when it is known there, else computed ([`crate::rashomon::least`]) and kept.
    fn least(&mut self, lists: &Lists, depth: usize) -> Result<f64, Stop> {
        if let Some(&id) = self.index[depth].get(&lists.ids[..]) {
            let node = &self.nodes[id];
            if depth <= 1 || !node.profile.is_empty() {
                return Ok(node.least);
            }
        }
        if let Some(&least) = self.optima[depth].get(&lists.ids[..]) {
            return Ok(least);
        }
        self.check()?;
        let least = match depth {
            0 => self.leaf_of(&lists.ids).0.map_or(f64::INFINITY, |l| l.cost),
            1 => {
                let leaf = self.leaf_of(&lists.ids).0.map_or(f64::INFINITY, |l| l.cost);
                let none = f64::NEG_INFINITY;
                let split = least::depth_one(
                    &self.input,
                    &lists.ids,
                    &lists.by_feature,
                    none,
                    &mut Vec::new(),
                );
                leaf.min(split)
            }
            _ => least::exact(&self.input, &lists.ids, depth, &self.time, self.started),
        };
        // Depths 0 and 1 cost a scan: kept only for the searches of depth two or more.
        if depth >= 2 {
            self.memory += lists.ids.len() * 4 + 64;
            self.optima[depth].insert(lists.ids.clone().into_boxed_slice(), least);
        }
        Ok(least)
    }

    /// Depth two or more: every split whose sides' least objectives fit the budget, each side
    /// built with what its sibling's least objective leaves.
    fn deeper(
        &mut self,
        lists: &Lists,
        depth: usize,
        budget: f64,
        splits: &mut Vec<SplitOption>,
        profile: &mut Profile,
    ) -> Result<(), Stop> {
        let tolerance = self.input.tolerance;
        let lambda = self.input.split_cost;
        let monotone = self.input.min_leaf <= 1 && self.input.max_leaf == usize::MAX;
        let fits = |l: f64, r: f64| l + r + lambda <= budget + tolerance;
        let split_bounds = least::split_bounds(
            &self.input,
            &lists.ids,
            depth,
            budget - lambda + 4.0 * tolerance,
            &self.time,
            self.started,
        );
        for feature in 0..self.input.values.len() {
            if self.input.skips(feature, &lists.ids, depth) {
                continue;
            }
            let sorted = lists.by_feature[feature].clone();
            let gaps = least::gaps(&self.input, feature, &sorted);
            // The least objectives of the previous position's sides, and the cost of the rows
            // moved from its right side to its left since.
            let (mut bound_left, mut bound_right, mut moved) = (0.0f64, 0.0f64, 0.0f64);
            let mut next = 0;
            for gap in gaps {
                let (p, variants) = (gap.position, gap.variants);
                self.check()?;
                while next <= p {
                    moved += self.input.row_costs[sorted[next] as usize];
                    next += 1;
                }
                let (lb_left, lb_right) = if monotone {
                    (bound_left, (bound_right - moved).max(0.0))
                } else {
                    (0.0, 0.0)
                };
                moved = 0.0;
                bound_left = lb_left;
                bound_right = lb_right;
                if !fits(lb_left, lb_right) {
                    continue;
                }
                let split_bound = split_bounds.as_ref().and_then(|b| b.at(feature, p + 1));
                if split_bound
                    .flatten()
                    .is_some_and(|b| b + lambda > budget + tolerance)
                {
                    continue;
                }
                // The sides' optima, where the bounds' search solved them.
                let (known_left, known_right) = split_bounds
                    .as_ref()
                    .map_or((None, None), |b| b.children_optima(feature, p + 1));
                self.mark(&sorted[..=p]);
                let left_lists = self.side(lists, true);
                let right_lists = self.side(lists, false);
                let opt_left = match known_left {
                    Some(known) => known,
                    None => self.least(&left_lists, depth - 1)?,
                };
                bound_left = opt_left;
                if !fits(opt_left, lb_right) {
                    continue;
                }
                let opt_right = match known_right {
                    Some(known) => known,
                    None => self.least(&right_lists, depth - 1)?,
                };
                bound_right = opt_right;
                if !fits(opt_left, opt_right) {
                    continue;
                }
                let l = self.ensure(&left_lists, depth - 1, budget - lambda - opt_right)?;
                drop(left_lists);
                let r = self.ensure(&right_lists, depth - 1, budget - lambda - opt_left)?;
                splits.push(SplitOption {
                    feature,
                    threshold: self.threshold(&gap),
                    variants,
                    left: l,
                    right: r,
                });
                let (pl, pr) = (&self.nodes[l].profile, &self.nodes[r].profile);
                profile.add_product(pl, pr, lambda, budget, tolerance);
            }
        }
        Ok(())
    }
}

/// The best leaf of rows whose error costs per class sum to `sums`.
pub fn leaf_of_sums(sums: &[f64]) -> Leaf {
    let mut class = 0;
    for (k, &s) in sums.iter().enumerate() {
        if s > sums[class] {
            class = k;
        }
    }
    let total: f64 = sums.iter().sum();
    Leaf {
        cost: (total - sums[class]).max(0.0),
        class,
        key: 0,
    }
}

fn node_size(node: &GraphNode) -> usize {
    node.splits.len() * std::mem::size_of::<SplitOption>()
        + node.profile.entries().len() * 48
        + std::mem::size_of::<GraphNode>()
}
