//! The fair search's measure of a subtree's fairness ([`Gauge`]): the integer signature each
//! row adds when predicted positive, and whether a whole tree's signature keeps the bounds.
//!
//! For each bounded kind of rate (parity, opportunity) and each group `g`, the signature holds
//! `a_g`, the (whole-number weighted) rows of `g` that count in the rate and are predicted
//! positive; with `n_g` those rows in all, the gap between groups `g` and `h` is
//! `|a_g n_h - a_h n_g| / (n_g n_h)`, and the gap of a tree is the largest over every pair of
//! groups, as the MILPs bound it (one row per ordered pair). A tree keeps a bound when every
//! pair's integer `|a_g n_h - a_h n_g|` is within its limit, `floor((bound + tolerance) n_g
//! n_h)`. With two groups and one bound, the signature is the one difference `n_1 a_0 - n_0 a_1`
//! (so menus pair by a sliding window). [`Gauge::tighten_below`] moves the limits just below a
//! tree's gap, for the front's epsilon-constraint method: `gap < p / q` is
//! `|x_gh| <= floor((p n_g n_h - 1) / q)` on integers.

use crate::constraints::fairness::{Fairness, FairnessKind, GAP_TOLERANCE};

/// One bounded kind of rate: where its groups' counts sit in a signature, the groups'
/// counted sizes, and each pair's limit on `|a_g n_h - a_h n_g|`.
#[derive(Debug, Clone)]
struct KindGauge {
    kind: FairnessKind,
    offset: usize,
    sizes: Vec<i64>,
    /// `limits[g * k + h]` for `g < h`.
    limits: Vec<i128>,
}

impl KindGauge {
    /// The pair differences `(g, h, |x_gh|)` of `sig`.
    fn pairs<'a>(&'a self, sig: &'a [i64]) -> impl Iterator<Item = (usize, usize, i128)> + 'a {
        let k = self.sizes.len();
        (0..k).flat_map(move |g| {
            (g + 1..k).map(move |h| {
                let (a, b) = (
                    i128::from(sig[self.offset + g]),
                    i128::from(sig[self.offset + h]),
                );
                let x = a * i128::from(self.sizes[h]) - b * i128::from(self.sizes[g]);
                (g, h, x.abs())
            })
        })
    }

    /// The largest pair gap of `sig` as a fraction `(p, q)`.
    fn gap(&self, sig: &[i64]) -> (i128, i128) {
        let mut best = (0i128, 1i128);
        for (g, h, x) in self.pairs(sig) {
            let q = i128::from(self.sizes[g]) * i128::from(self.sizes[h]);
            if x * best.1 > best.0 * q {
                best = (x, q);
            }
        }
        best
    }
}

/// How the fair search measures fairness: the signature's dimension, and the bounds.
#[derive(Debug, Clone)]
pub(crate) struct Gauge {
    pub dims: usize,
    /// With two groups and one bound: the limit on `|n_1 a_0 - n_0 a_1|`, the signature's one
    /// entry, and the two sizes.
    one: Option<(i64, i64, i64)>,
    kinds: Vec<KindGauge>,
}

/// The limit on an integer pair difference for `bound` between groups of `n_g` and `n_h`.
fn pair_limit(bound: f64, n_g: i64, n_h: i64) -> i128 {
    ((bound + GAP_TOLERANCE) * n_g as f64 * n_h as f64).floor() as i128
}

impl Gauge {
    /// The gauge of the bounds of `fairness` on rows of whole-number `weights`, and what each
    /// row adds to a signature when predicted positive (`(index, amount)` pairs).
    pub fn new(fairness: &Fairness, weights: &[i64]) -> (Gauge, Vec<Vec<(usize, i64)>>) {
        let bounds = fairness.bounds();
        let k = fairness.groups.len();
        let sizes_of = |kind: FairnessKind| -> Vec<i64> {
            let mut sizes = vec![0i64; k];
            for (i, &w) in weights.iter().enumerate() {
                if fairness.counts(kind, i) {
                    sizes[fairness.row_group[i]] += w;
                }
            }
            sizes
        };
        if let ([(kind, bound)], 2) = (bounds.as_slice(), k) {
            let sizes = sizes_of(*kind);
            let (n0, n1) = (sizes[0], sizes[1]);
            let shares = (0..weights.len())
                .map(
                    |i| match (fairness.counts(*kind, i), fairness.row_group[i]) {
                        (false, _) => Vec::new(),
                        (true, 0) => vec![(0, weights[i] * n1)],
                        (true, _) => vec![(0, -weights[i] * n0)],
                    },
                )
                .collect();
            let limit = i64::try_from(pair_limit(*bound, n0, n1)).unwrap_or(i64::MAX);
            let kinds = vec![Self::kind_gauge(*kind, *bound, 0, sizes)];
            let gauge = Gauge {
                dims: 1,
                one: Some((limit, n0, n1)),
                kinds,
            };
            return (gauge, shares);
        }
        let kinds: Vec<KindGauge> = bounds
            .iter()
            .enumerate()
            .map(|(j, &(kind, bound))| Self::kind_gauge(kind, bound, j * k, sizes_of(kind)))
            .collect();
        let shares = (0..weights.len())
            .map(|i| {
                kinds
                    .iter()
                    .filter(|kg| fairness.counts(kg.kind, i))
                    .map(|kg| (kg.offset + fairness.row_group[i], weights[i]))
                    .collect()
            })
            .collect();
        let gauge = Gauge {
            dims: kinds.len() * k,
            one: None,
            kinds,
        };
        (gauge, shares)
    }

    fn kind_gauge(kind: FairnessKind, bound: f64, offset: usize, sizes: Vec<i64>) -> KindGauge {
        let k = sizes.len();
        let mut limits = vec![0i128; k * k];
        for g in 0..k {
            for h in g + 1..k {
                limits[g * k + h] = pair_limit(bound, sizes[g], sizes[h]);
            }
        }
        KindGauge {
            kind,
            offset,
            sizes,
            limits,
        }
    }

    /// With two groups and one bound, the limit on the signature's one entry.
    pub fn one_limit(&self) -> Option<i64> {
        self.one.map(|(limit, _, _)| limit)
    }

    /// Whether a tree of signature `sig` keeps every bound.
    pub fn keeps(&self, sig: &[i64]) -> bool {
        if let Some((limit, _, _)) = self.one {
            return sig[0].abs() <= limit;
        }
        self.kinds.iter().all(|kg| {
            let k = kg.sizes.len();
            kg.pairs(sig).all(|(g, h, x)| x <= kg.limits[g * k + h])
        })
    }

    /// Whether the sum of `a` and `b` keeps every bound.
    pub fn keeps_sum(&self, a: &[i64], b: &[i64], scratch: &mut Vec<i64>) -> bool {
        if let Some((limit, _, _)) = self.one {
            return (a[0] + b[0]).abs() <= limit;
        }
        scratch.clear();
        scratch.extend(a.iter().zip(b).map(|(x, y)| x + y));
        self.keeps(scratch)
    }

    /// The gap of the first bounded kind of a tree of signature `sig`, as a fraction.
    pub(crate) fn gap_fraction(&self, sig: &[i64]) -> (i128, i128) {
        if let Some((_, n0, n1)) = self.one {
            return (i128::from(sig[0].abs()), i128::from(n0) * i128::from(n1));
        }
        self.kinds.first().map_or((0, 1), |kg| kg.gap(sig))
    }

    /// The gap of the first bounded kind of a tree of signature `sig`.
    pub fn gap(&self, sig: &[i64]) -> f64 {
        let (p, q) = self.gap_fraction(sig);
        p as f64 / q as f64
    }

    /// Limits the first bounded kind to gaps strictly below that of `sig`; `false` when that
    /// gap is 0 (no tree is below it).
    pub fn tighten_below(&mut self, sig: &[i64]) -> bool {
        let (p, q) = self.gap_fraction(sig);
        if p == 0 {
            return false;
        }
        if let Some((limit, _, _)) = self.one.as_mut() {
            *limit = sig[0].abs() - 1;
            return true;
        }
        if let Some(kg) = self.kinds.first_mut() {
            let k = kg.sizes.len();
            for g in 0..k {
                for h in g + 1..k {
                    let scale = i128::from(kg.sizes[g]) * i128::from(kg.sizes[h]);
                    kg.limits[g * k + h] = (p * scale - 1).div_euclid(q);
                }
            }
        }
        true
    }
}
