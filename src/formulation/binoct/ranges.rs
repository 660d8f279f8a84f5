//! BinOCT's binary-search encoding of a threshold index (Algorithm 1 of Verwer & Zhang), and the
//! range rules that tie the search bits to the routing of rows.
//!
//! The candidate thresholds of a feature are numbered `1..=T` in increasing order. A row's *bin*
//! for the feature is the number of thresholds strictly below its value (`0..=T`); under
//! threshold `k` the row goes left (`x <= th(k)`) exactly when its bin is below `k`. Bin 0 (below
//! the smallest threshold) always goes left, bin `T` (above the largest) always right.
//!
//! The search over indices `lo..=hi` (`lo < hi`) has its node at search depth `d` (the root has
//! depth 1) split them at `s = lo + floor((hi - lo) / 2)`: bit `d` equal to 1 selects the lower
//! half `lo..=s`, 0 the upper half `s + 1..=hi`; a range of one index is a decision. A node is
//! identified by its split `s`: every `s` in `1..T` is the split of exactly one node. The bits a
//! feature needs are `ceil(log2 T)`; a node shares `ceil(log2 T_max)` bits among all features,
//! and a feature with fewer thresholds ignores the bits below its decisions, so several patterns
//! select the same index and every pattern selects one.
//!
//! A search node gives two rules (see `formulations/binoct.md` for the proof that together with
//! the extreme rule they force exactly the routing of the selected index, for every pattern):
//! - *no left*: rows in bins `s..=hi-1` cannot go left when bit `d` and the bits of the ancestors
//!   whose lower half holds the node are all 1;
//! - *no right*: rows in bins `lo..=s` cannot go right when bit `d` and the bits of the ancestors
//!   whose upper half holds the node are all 0.
//!
//! The extreme rule has no condition: bin `T` cannot go left and bin 0 cannot go right.

/// The side of a split a rule closes to some rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// One node of the binary search over threshold indices `lo..=hi` (1-based, `lo < hi`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchNode {
    pub lo: usize,
    pub hi: usize,
    /// The last index of the lower half.
    pub split: usize,
    /// The bit (1-based: the search depth) that decides at this node.
    pub bit: usize,
    /// Bits of the ancestors whose lower half (bit 1) holds this node.
    pub lower_of: Vec<usize>,
    /// Bits of the ancestors whose upper half (bit 0) holds this node.
    pub upper_of: Vec<usize>,
}

/// A set of rows (those in bins `first..=last`) that cannot go to `side`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closure {
    pub side: Side,
    pub first_bin: usize,
    pub last_bin: usize,
}

#[cfg(test)]
impl Closure {
    pub fn contains(&self, bin: usize) -> bool {
        (self.first_bin..=self.last_bin).contains(&bin)
    }
}

/// Which rule of a feature a [`RangeRule`] is (for row names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// The extreme rule (bins 0 and `T`).
    Extreme,
    /// The *no left* rule of the search node with this split.
    NoLeft { split: usize },
    /// The *no right* rule of the search node with this split.
    NoRight { split: usize },
}

/// A rule of one feature: the closures hold when the feature is selected, the bits in `ones` are
/// all 1 and the bits in `zeros` are all 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeRule {
    pub kind: RuleKind,
    pub closures: Vec<Closure>,
    pub ones: Vec<usize>,
    pub zeros: Vec<usize>,
}

#[cfg(test)]
impl RangeRule {
    /// Whether the rule's bit condition holds for `bits` (`bits[d - 1]` is bit `d`).
    pub fn is_active(&self, bits: &[bool]) -> bool {
        self.ones.iter().all(|&d| bits[d - 1]) && self.zeros.iter().all(|&d| !bits[d - 1])
    }
}

/// `ceil(log2 n_thresholds)`: the bits the search over `n_thresholds` indices needs (0 for 0 or 1).
pub fn bits_needed(n_thresholds: usize) -> usize {
    if n_thresholds <= 1 {
        0
    } else {
        (usize::BITS - (n_thresholds - 1).leading_zeros()) as usize
    }
}

/// The split of the search range `lo..=hi`: Algorithm 1's `lo + FLOOR((hi - lo) / 2)`.
fn split_of(lo: usize, hi: usize) -> usize {
    lo + (hi - lo) / 2
}

/// The search nodes over `1..=n_thresholds`, in pre-order (Algorithm 1's order).
pub fn search_nodes(n_thresholds: usize) -> Vec<SearchNode> {
    fn visit(
        lo: usize,
        hi: usize,
        bit: usize,
        lower_of: &mut Vec<usize>,
        upper_of: &mut Vec<usize>,
        out: &mut Vec<SearchNode>,
    ) {
        if lo >= hi {
            return;
        }
        let split = split_of(lo, hi);
        out.push(SearchNode {
            lo,
            hi,
            split,
            bit,
            lower_of: lower_of.clone(),
            upper_of: upper_of.clone(),
        });
        lower_of.push(bit);
        visit(lo, split, bit + 1, lower_of, upper_of, out);
        lower_of.pop();
        upper_of.push(bit);
        visit(split + 1, hi, bit + 1, lower_of, upper_of, out);
        upper_of.pop();
    }
    let mut out = Vec::new();
    if n_thresholds >= 2 {
        visit(
            1,
            n_thresholds,
            1,
            &mut Vec::new(),
            &mut Vec::new(),
            &mut out,
        );
    }
    out
}

/// The threshold index (`1..=n_thresholds`) that `bits` select by the binary search; bits below
/// the decision are ignored. `n_thresholds` must be at least 1 and `bits` at least
/// [`bits_needed`] long.
pub fn decode_index(n_thresholds: usize, bits: &[bool]) -> usize {
    let (mut lo, mut hi, mut bit) = (1, n_thresholds, 0);
    while lo < hi {
        let split = split_of(lo, hi);
        if bits[bit] {
            hi = split;
        } else {
            lo = split + 1;
        }
        bit += 1;
    }
    lo
}

/// The bits (`n_bits` of them) that select threshold `index` of `1..=n_thresholds`; bits the
/// search does not read are 0.
pub fn encode_index(n_thresholds: usize, index: usize, n_bits: usize) -> Vec<bool> {
    let mut bits = vec![false; n_bits];
    let (mut lo, mut hi, mut bit) = (1, n_thresholds, 0);
    while lo < hi {
        let split = split_of(lo, hi);
        if index <= split {
            bits[bit] = true;
            hi = split;
        } else {
            lo = split + 1;
        }
        bit += 1;
    }
    bits
}

/// The bin of `value` among increasing `thresholds`: how many thresholds lie strictly below it.
pub fn bin_of(value: f64, thresholds: &[f64]) -> usize {
    thresholds.partition_point(|&t| t < value)
}

/// Whether a row in `bin` goes left under threshold `index` (1-based).
pub fn goes_left(bin: usize, index: usize) -> bool {
    bin < index
}

/// Every rule of a feature with `n_thresholds >= 1` thresholds: the extreme rule, then the two
/// rules of each search node in pre-order.
pub fn range_rules(n_thresholds: usize) -> Vec<RangeRule> {
    let mut rules = vec![RangeRule {
        kind: RuleKind::Extreme,
        closures: vec![
            Closure {
                side: Side::Left,
                first_bin: n_thresholds,
                last_bin: n_thresholds,
            },
            Closure {
                side: Side::Right,
                first_bin: 0,
                last_bin: 0,
            },
        ],
        ones: Vec::new(),
        zeros: Vec::new(),
    }];
    for node in search_nodes(n_thresholds) {
        let mut ones = node.lower_of.clone();
        ones.push(node.bit);
        rules.push(RangeRule {
            kind: RuleKind::NoLeft { split: node.split },
            closures: vec![Closure {
                side: Side::Left,
                first_bin: node.split,
                last_bin: node.hi - 1,
            }],
            ones,
            zeros: Vec::new(),
        });
        let mut zeros = node.upper_of.clone();
        zeros.push(node.bit);
        rules.push(RangeRule {
            kind: RuleKind::NoRight { split: node.split },
            closures: vec![Closure {
                side: Side::Right,
                first_bin: node.lo,
                last_bin: node.split,
            }],
            ones: Vec::new(),
            zeros,
        });
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(value: usize, n_bits: usize) -> Vec<bool> {
        (0..n_bits)
            .map(|d| value >> (n_bits - 1 - d) & 1 == 1)
            .collect()
    }

    #[test]
    fn bits_needed_is_ceil_log2() {
        let expected = [0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4];
        for (n, &bits) in expected.iter().enumerate() {
            assert_eq!(bits_needed(n), bits, "T = {n}");
        }
        assert_eq!(bits_needed(1024), 10);
        assert_eq!(bits_needed(1025), 11);
    }

    /// The paper's Figure 1: four thresholds, t1 = 1 and t2 = 0 select th(2).
    #[test]
    fn figure_1_patterns() {
        assert_eq!(decode_index(4, &[true, true]), 1);
        assert_eq!(decode_index(4, &[true, false]), 2);
        assert_eq!(decode_index(4, &[false, true]), 3);
        assert_eq!(decode_index(4, &[false, false]), 4);
    }

    /// The paper's Example 2: the six search-node rules over four thresholds, with the rows of
    /// values 3..6 (bins 1, 1, 2, 3 under thresholds 2.5, 4.5, 5.5, 6.5).
    #[test]
    fn example_2_rules() {
        let rules = range_rules(4);
        let find = |kind| {
            rules
                .iter()
                .find(|r| r.kind == kind)
                .expect("the rule exists")
        };
        // l5,1 + l6,1 + 2 t1 <= 2: bins 2..3 not left when t1 = 1.
        let r = find(RuleKind::NoLeft { split: 2 });
        assert_eq!((r.closures[0].first_bin, r.closures[0].last_bin), (2, 3));
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![1], vec![]));
        // l3,2 + l4,2 + l5,2 - 3 t1 <= 0: bins 1..2 not right when t1 = 0.
        let r = find(RuleKind::NoRight { split: 2 });
        assert_eq!((r.closures[0].first_bin, r.closures[0].last_bin), (1, 2));
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![], vec![1]));
        // l3,1 + l4,1 + 2 t1 + 2 t2 <= 4: bin 1 not left when t1 = t2 = 1.
        let r = find(RuleKind::NoLeft { split: 1 });
        assert_eq!((r.closures[0].first_bin, r.closures[0].last_bin), (1, 1));
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![1, 2], vec![]));
        // l3,2 + l4,2 - 2 t2 <= 0: bin 1 not right when t2 = 0.
        let r = find(RuleKind::NoRight { split: 1 });
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![], vec![2]));
        // l6,1 + t2 <= 1: bin 3 not left when t2 = 1.
        let r = find(RuleKind::NoLeft { split: 3 });
        assert_eq!((r.closures[0].first_bin, r.closures[0].last_bin), (3, 3));
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![2], vec![]));
        // l6,2 - t1 - t2 <= 0: bin 3 not right when t1 = t2 = 0.
        let r = find(RuleKind::NoRight { split: 3 });
        assert_eq!((r.ones.clone(), r.zeros.clone()), (vec![], vec![1, 2]));
        assert_eq!(rules.len(), 7);
    }

    /// For every number of thresholds up to 17, every number of shared bits from the feature's
    /// own up to 5, and every bit pattern: the active rules close exactly the side each bin must
    /// not take under the decoded index, and nothing else. This is the exhaustive form of the
    /// proof in `formulations/binoct.md`.
    #[test]
    fn every_pattern_closes_exactly_the_wrong_side_of_every_bin() {
        for n_thresholds in 1..=17 {
            let rules = range_rules(n_thresholds);
            assert_eq!(rules.len(), 2 * n_thresholds - 1);
            for n_bits in bits_needed(n_thresholds)..=5 {
                for value in 0..1usize << n_bits {
                    let bits = pattern(value, n_bits);
                    let index = decode_index(n_thresholds, &bits);
                    assert!((1..=n_thresholds).contains(&index));
                    for bin in 0..=n_thresholds {
                        let closed: Vec<Side> = rules
                            .iter()
                            .filter(|r| r.is_active(&bits))
                            .flat_map(|r| r.closures.iter())
                            .filter(|c| c.contains(bin))
                            .map(|c| c.side)
                            .collect();
                        let wrong = if goes_left(bin, index) {
                            Side::Right
                        } else {
                            Side::Left
                        };
                        assert!(
                            !closed.is_empty() && closed.iter().all(|&s| s == wrong),
                            "T = {n_thresholds}, bits {bits:?} -> index {index}, bin {bin}: \
                             closed {closed:?}, must close only {wrong:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn encode_then_decode_is_the_identity() {
        for n_thresholds in 1..=33 {
            let n_bits = bits_needed(n_thresholds);
            for index in 1..=n_thresholds {
                let bits = encode_index(n_thresholds, index, n_bits);
                assert_eq!(decode_index(n_thresholds, &bits), index);
                // With extra shared bits the index is the same.
                let bits = encode_index(n_thresholds, index, n_bits + 2);
                assert_eq!(decode_index(n_thresholds, &bits), index);
            }
        }
    }

    #[test]
    fn every_split_belongs_to_one_search_node() {
        for n_thresholds in 1..=20 {
            let mut splits: Vec<usize> =
                search_nodes(n_thresholds).iter().map(|n| n.split).collect();
            splits.sort_unstable();
            assert_eq!(splits, (1..n_thresholds).collect::<Vec<_>>());
            let deepest = search_nodes(n_thresholds)
                .iter()
                .map(|n| n.bit)
                .max()
                .unwrap_or(0);
            assert_eq!(deepest, bits_needed(n_thresholds), "T = {n_thresholds}");
        }
    }

    #[test]
    fn bins_count_thresholds_strictly_below() {
        let thresholds = [2.5, 4.5, 5.5, 6.5];
        let bins: Vec<usize> = (0..9).map(|v| bin_of(f64::from(v), &thresholds)).collect();
        assert_eq!(bins, vec![0, 0, 0, 1, 1, 2, 3, 4, 4]);
        // A value equal to a threshold goes left under it (x <= t).
        assert_eq!(bin_of(4.5, &thresholds), 1);
        assert!(goes_left(bin_of(4.5, &thresholds), 2));
    }
}
