//! The area under the ROC curve of scores against two-class labels: the probability that a
//! random positive row scores above a random negative one, ties counting one half (the
//! Mann-Whitney statistic, as scikit-learn's `roc_auc_score`), computed from average ranks.

/// The AUC of `scores` for the rows whose `positive` flag is set; `None` when the lengths
/// differ, a score is NaN, or either class has no row.
pub fn auc(scores: &[f64], positive: &[bool]) -> Option<f64> {
    if scores.len() != positive.len() || scores.iter().any(|s| s.is_nan()) {
        return None;
    }
    let positives = positive.iter().filter(|&&p| p).count();
    let negatives = positive.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    // Sum of the (1-based, tie-averaged) ranks of the positive rows.
    let mut rank_sum = 0.0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && scores[order[end + 1]] == scores[order[start]] {
            end += 1;
        }
        let average_rank = (start + end) as f64 / 2.0 + 1.0;
        let tied_positives = order[start..=end].iter().filter(|&&i| positive[i]).count();
        rank_sum += average_rank * tied_positives as f64;
        start = end + 1;
    }
    let (p, n) = (positives as f64, negatives as f64);
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * n))
}
