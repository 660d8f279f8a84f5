//! Subproblem row sets as the search holds them: a [`View`] is, for each feature that still
//! splits its rows, the rows sorted by that feature's bin. Views live in per-level buffers of an
//! [`Arena`] allocated once: the children of a view at level `l` are written side by side into
//! level `l + 1`, so the search allocates nothing per node. A view also carries its class
//! counts (each row counted its multiplicity, [`Binned::multiplicities`]) and an
//! order-independent hash of its rows (the cache key).

use crate::search_core::binned::{Binned, Element};

/// A row set held in an arena level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct View {
    pub level: usize,
    /// Offset of the first feature's list in the level's element buffer.
    offset: usize,
    /// Number of rows.
    pub size: usize,
    /// Offset of the view's feature ids in the level's feature buffer.
    feature_offset: usize,
    /// Number of features that still split the rows.
    pub n_features: usize,
    /// Offset of the view's class counts in the level's count buffer.
    counts_offset: usize,
    /// Sum of the rows' random keys: equal row sets have equal hashes.
    pub hash: u64,
}

/// One level's buffers: room for every feature's list of every row, split between at most two
/// views.
#[derive(Debug, Default)]
struct Level {
    elements: Vec<Element>,
    features: Vec<u32>,
    counts: Vec<u32>,
}

/// The per-level buffers of the search, and the row keys and scratch shared by all levels.
#[derive(Debug)]
pub(crate) struct Arena {
    levels: Vec<Level>,
    n_rows: usize,
    n_features: usize,
    n_classes: usize,
    /// Random key of each row; a view's hash is the wrapping sum of its rows' keys.
    row_keys: Vec<u64>,
    /// Class index of every row.
    labels: Vec<u16>,
    /// How many times each row counts (empty: once each).
    multiplicities: Vec<u32>,
    /// Scratch: which side of the split being made each row goes to.
    side: Vec<u8>,
}

/// SplitMix64: a fixed, well-mixed key per row.
fn row_key(row: u64) -> u64 {
    let mut z = row
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).wrapping_add(row.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl Arena {
    pub fn new(data: &Binned) -> Arena {
        Arena {
            levels: Vec::new(),
            n_rows: data.n_rows,
            n_features: data.n_features(),
            n_classes: data.n_classes,
            row_keys: (0..data.n_rows as u64).map(row_key).collect(),
            labels: data.labels.clone(),
            multiplicities: data.multiplicities.clone(),
            side: vec![0; data.n_rows],
        }
    }

    /// Bytes held by the level buffers.
    pub fn bytes(&self) -> usize {
        self.levels
            .iter()
            .map(|l| {
                l.elements.capacity() * std::mem::size_of::<Element>()
                    + (l.features.capacity() + l.counts.capacity()) * 4
            })
            .sum::<usize>()
            + self.row_keys.len() * 8
            + self.multiplicities.len() * 4
            + self.side.len()
    }

    fn ensure_level(&mut self, level: usize) {
        while self.levels.len() <= level {
            self.levels.push(Level {
                elements: vec![Element::default(); self.n_features * self.n_rows],
                features: vec![0; 2 * self.n_features],
                counts: vec![0; 2 * self.n_classes],
            });
        }
    }

    /// The view of all rows, at level 0.
    pub fn root(&mut self, data: &Binned) -> View {
        self.ensure_level(0);
        let level = &mut self.levels[0];
        let n = self.n_rows;
        for (f, list) in data.sorted.iter().enumerate() {
            level.elements[f * n..(f + 1) * n].copy_from_slice(list);
            level.features[f] = f as u32;
        }
        level.counts.iter_mut().for_each(|c| *c = 0);
        for (row, &label) in data.labels.iter().enumerate() {
            level.counts[label as usize] += data.multiplicity(row);
        }
        View {
            level: 0,
            offset: 0,
            size: n,
            feature_offset: 0,
            n_features: if n == 0 { 0 } else { self.n_features },
            counts_offset: 0,
            hash: self.row_keys.iter().fold(0u64, |h, &k| h.wrapping_add(k)),
        }
    }

    /// The rows of `view` sorted by its `index`-th feature.
    #[inline]
    pub fn list(&self, view: &View, index: usize) -> &[Element] {
        let start = view.offset + index * view.size;
        &self.levels[view.level].elements[start..start + view.size]
    }

    /// The searched-feature id of the `index`-th feature of `view`.
    #[inline]
    pub fn feature(&self, view: &View, index: usize) -> u32 {
        self.levels[view.level].features[view.feature_offset + index]
    }

    /// The position of searched feature `feature` among the features of `view`, if it still
    /// splits the view's rows.
    pub fn feature_index(&self, view: &View, feature: u32) -> Option<usize> {
        let start = view.feature_offset;
        self.levels[view.level].features[start..start + view.n_features]
            .iter()
            .position(|&f| f == feature)
    }

    /// The class counts of `view`.
    #[inline]
    pub fn counts(&self, view: &View) -> &[u32] {
        &self.levels[view.level].counts[view.counts_offset..view.counts_offset + self.n_classes]
    }

    /// Splits `view` on its `index`-th feature: the first `position` rows of that feature's
    /// list go left. The two children are written into the next level, replacing what was
    /// there; features that no longer split a child are left out of it.
    pub fn split(&mut self, view: &View, index: usize, position: usize) -> (View, View) {
        let child_level = view.level + 1;
        self.ensure_level(child_level);
        let m = view.size;
        let left_size = position;
        let right_size = m - position;
        debug_assert!(left_size > 0 && right_size > 0);
        let (parents, children) = self.levels.split_at_mut(child_level);
        let parent = &parents[view.level];
        let child = &mut children[0];
        let side = &mut self.side;
        let list_of = |i: usize| &parent.elements[view.offset + i * m..view.offset + (i + 1) * m];
        let split_list = list_of(index);
        for e in &split_list[..position] {
            side[e.row as usize] = 0;
        }
        for e in &split_list[position..] {
            side[e.row as usize] = 1;
        }
        // Left child's lists from offset 0 (stride left_size), right child's from the end of
        // the room the left child could need (stride right_size).
        let right_base = view.n_features * left_size;
        let mut left_features = 0usize;
        let mut right_features = 0usize;
        let k = self.n_classes;
        let (left_counts, right_counts) = child.counts.split_at_mut(k);
        left_counts.iter_mut().for_each(|c| *c = 0);
        let mut left_hash = 0u64;
        let side: &[u8] = side;
        for i in 0..view.n_features {
            let list = list_of(i);
            let starts = [
                left_features * left_size,
                right_base + right_features * right_size,
            ];
            let out: &mut [Element] = &mut child.elements;
            let (mut to_left, mut to_right) = (starts[0], starts[1]);
            for &e in list {
                let right = side[e.row as usize] as usize;
                let at = if right == 0 { to_left } else { to_right };
                out[at] = e;
                to_left += 1 - right;
                to_right += right;
            }
            let left_list = &child.elements[starts[0]..starts[0] + left_size];
            if i == 0 {
                if self.multiplicities.is_empty() {
                    for e in left_list {
                        left_hash = left_hash.wrapping_add(self.row_keys[e.row as usize]);
                        left_counts[self.labels[e.row as usize] as usize] += 1;
                    }
                } else {
                    for e in left_list {
                        let row = e.row as usize;
                        left_hash = left_hash.wrapping_add(self.row_keys[row]);
                        left_counts[self.labels[row] as usize] += self.multiplicities[row];
                    }
                }
            }
            let feature = parent.features[view.feature_offset + i];
            if left_list[0].bin != left_list[left_size - 1].bin {
                child.features[left_features] = feature;
                left_features += 1;
            }
            let right_list = &child.elements[starts[1]..starts[1] + right_size];
            if right_list[0].bin != right_list[right_size - 1].bin {
                child.features[view.n_features + right_features] = feature;
                right_features += 1;
            }
        }
        let parent_counts = &parent.counts[view.counts_offset..view.counts_offset + k];
        for ((r, &p), &l) in right_counts
            .iter_mut()
            .zip(parent_counts)
            .zip(left_counts.iter())
        {
            *r = p - l;
        }
        let left = View {
            level: child_level,
            offset: 0,
            size: left_size,
            feature_offset: 0,
            n_features: left_features,
            counts_offset: 0,
            hash: left_hash,
        };
        let right = View {
            level: child_level,
            offset: right_base,
            size: right_size,
            feature_offset: view.n_features,
            n_features: right_features,
            counts_offset: k,
            hash: view.hash.wrapping_sub(left_hash),
        };
        (left, right)
    }
}
