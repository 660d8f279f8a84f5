//! The equivalent-points bound (the seed's Theorem B.9): rows that no candidate split tells
//! apart (the same bin on every searched feature) always share a leaf, so within any row set
//! each such group costs at least the weight of its rows outside its heaviest class, whatever
//! the tree. [`Equivalence`] numbers the groups once and sums that floor over a row set.

use rustc_hash::FxHashMap;

use crate::search_core::binned::{Binned, Element};

/// The groups of rows that share every bin, and the scratch to bound a row set with them.
#[derive(Debug, Clone)]
pub(crate) struct Equivalence {
    /// Group of every row.
    group_of: Vec<u32>,
    /// Class of every row.
    labels: Vec<u16>,
    weights: Vec<f64>,
    n_classes: usize,
    /// Number of groups.
    pub groups: usize,
    /// Scratch: per group and class, rows counted so far.
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Equivalence {
    pub fn new(data: &Binned, weights: &[f64]) -> Equivalence {
        let n = data.n_rows;
        let mut bins = vec![vec![0u32; data.n_features()]; n];
        for (f, list) in data.sorted.iter().enumerate() {
            for e in list {
                bins[e.row as usize][f] = e.bin;
            }
        }
        let mut ids: FxHashMap<&[u32], u32> = FxHashMap::default();
        let mut group_of = Vec::with_capacity(n);
        for row in &bins {
            let next = ids.len() as u32;
            group_of.push(*ids.entry(row.as_slice()).or_insert(next));
        }
        let groups = ids.len();
        let k = data.n_classes;
        Equivalence {
            group_of,
            labels: data.labels.clone(),
            weights: weights.to_vec(),
            n_classes: k,
            groups,
            counts: vec![0; groups * k],
            touched: Vec::new(),
        }
    }

    /// The least weight of errors any tree makes on `rows`: per group, the weight of its rows
    /// outside its heaviest class.
    pub fn floor(&mut self, rows: &[Element]) -> f64 {
        let k = self.n_classes;
        for e in rows {
            let group = self.group_of[e.row as usize] as usize;
            let slot = group * k + self.labels[e.row as usize] as usize;
            if self.counts[group * k..(group + 1) * k]
                .iter()
                .all(|&c| c == 0)
            {
                self.touched.push(group as u32);
            }
            self.counts[slot] += 1;
        }
        let mut floor = 0.0;
        for &group in &self.touched {
            let counts = &mut self.counts[group as usize * k..(group as usize + 1) * k];
            let (mut total, mut heaviest) = (0.0, 0.0f64);
            for (c, w) in counts.iter_mut().zip(&self.weights) {
                let weight = f64::from(*c) * w;
                total += weight;
                heaviest = heaviest.max(weight);
                *c = 0;
            }
            floor += total - heaviest;
        }
        self.touched.clear();
        floor
    }

    /// The group of `row`.
    pub fn group(&self, row: usize) -> u32 {
        self.group_of[row]
    }

    pub fn bytes(&self) -> usize {
        self.group_of.len() * 6 + self.counts.len() * 4 + self.touched.capacity() * 4
    }
}
