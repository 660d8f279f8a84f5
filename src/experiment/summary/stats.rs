//! The statistics the summary uses: medians, medians of paired ratios, and number formats.

/// The median of `values` (the mean of the two middle values for an even count); `None` for
/// no values.
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    })
}

/// The median of `a / b` over the pairs where both are known and `b > 0`, with the number of
/// pairs used.
pub fn median_ratio(pairs: &[(Option<f64>, Option<f64>)]) -> (Option<f64>, usize) {
    let ratios: Vec<f64> = pairs
        .iter()
        .filter_map(|pair| match *pair {
            (Some(a), Some(b)) if b > 0.0 && a.is_finite() && b.is_finite() => Some(a / b),
            _ => None,
        })
        .collect();
    let used = ratios.len();
    (median(ratios), used)
}

/// Seconds with three significant digits (`0.0123`, `1.23`, `123`), `–` when unknown.
pub fn seconds(value: Option<f64>) -> String {
    match value {
        None => "–".to_string(),
        Some(0.0) => "0".to_string(),
        Some(v) => {
            let digits = (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
            format!("{v:.digits$}")
        }
    }
}

/// A ratio as `0.53×`, `–` when unknown.
pub fn ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |v| format!("{v:.2}×"))
}

/// A fraction as a percentage with one decimal, `–` when unknown.
pub fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |v| format!("{:.1}%", 100.0 * v))
}

/// A plain number with up to four decimals, `–` when unknown.
pub fn number(value: Option<f64>) -> String {
    value.map_or_else(
        || "–".to_string(),
        |v| {
            let text = format!("{v:.4}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            text.to_string()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }

    #[test]
    fn median_ratios_skip_unknown_pairs() {
        let pairs = [
            (Some(1.0), Some(2.0)),
            (Some(3.0), Some(1.0)),
            (None, Some(1.0)),
            (Some(1.0), Some(0.0)),
            (Some(2.0), Some(2.0)),
        ];
        assert_eq!(median_ratio(&pairs), (Some(1.0), 3));
    }

    #[test]
    fn formats() {
        assert_eq!(seconds(Some(0.012345)), "0.0123");
        assert_eq!(seconds(Some(1.2345)), "1.23");
        assert_eq!(seconds(Some(123.45)), "123");
        assert_eq!(seconds(None), "–");
        assert_eq!(ratio(Some(0.5)), "0.50×");
        assert_eq!(percent(Some(0.1234)), "12.3%");
        assert_eq!(number(Some(0.5)), "0.5");
        assert_eq!(number(Some(2.0)), "2");
    }
}
