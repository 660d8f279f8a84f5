//! Split budgets: how many splits a tree of a given depth holds, and every way a node shares
//! what is left of its budget between its two children (MurTree's budget split).

/// The number of split nodes of a complete tree of depth `depth`.
#[inline]
pub(crate) fn full(depth: usize) -> usize {
    (1usize << depth.min(usize::BITS as usize - 2)) - 1
}

/// Every way to share `budget - 1` splits between two children of depth `depth - 1`, into
/// `out` (cleared first).
pub(crate) fn budget_distributions(depth: usize, budget: usize, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let child_full = full(depth - 1);
    if budget > 2 * child_full {
        out.push((child_full, child_full));
        return;
    }
    let rest = budget - 1;
    let low = rest.saturating_sub(child_full);
    let high = rest.min(child_full);
    for left in low..=high {
        out.push((left, rest - left));
    }
}

#[cfg(test)]
mod tests {
    use super::{budget_distributions, full};

    #[test]
    fn budgets_are_shared_every_way_the_children_allow() {
        let mut out = Vec::new();
        budget_distributions(3, 7, &mut out);
        assert_eq!(out, vec![(3, 3)]);
        budget_distributions(3, 4, &mut out);
        assert_eq!(out, vec![(0, 3), (1, 2), (2, 1), (3, 0)]);
        budget_distributions(3, 6, &mut out);
        assert_eq!(out, vec![(2, 3), (3, 2)]);
        assert_eq!((full(0), full(1), full(3)), (0, 1, 7));
    }
}
