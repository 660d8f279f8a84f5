//! Renderings of a tree: indented text in the style of scikit-learn's `export_text`
//! ([`TextView`]) and Graphviz DOT ([`DotView`]), both borrowed `Display` views, and
//! self-contained HTML pages of trees, fronts and runs ([`html`]); the JSON rendering is the
//! tree file format itself (`Tree::to_json_string`).

mod dot;
pub mod html;
mod text;

pub use dot::DotView;
pub use text::TextView;

use crate::tree::{MissingSide, Split, Tree};

/// Formats `x` with about `digits` significant digits, without trailing zeros.
pub fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A split as a left-hand side and a threshold, `lhs <= rhs` going left, in original units.
/// Oblique weights `w` over standardised features become `w_j / scale_j` over the original
/// features, and the bias moves to the right-hand side.
pub fn split_condition(tree: &Tree, split: &Split) -> (String, String) {
    match split {
        Split::Axis { feature, threshold } => {
            (tree.features()[*feature].clone(), format!("{threshold}"))
        }
        Split::Oblique { weights, bias } => {
            let scaling = tree
                .standardisation()
                .expect("a validated tree with an oblique split has a standardisation");
            let mut lhs = String::new();
            let mut rhs = -bias;
            for (j, w) in weights.iter().enumerate() {
                if *w == 0.0 {
                    continue;
                }
                let original = w / scaling.scale[j];
                rhs += original * scaling.mean[j];
                let magnitude = significant(original.abs(), 4);
                let name = &tree.features()[j];
                if lhs.is_empty() {
                    let sign = if original < 0.0 { "-" } else { "" };
                    lhs = format!("{sign}{magnitude}*{name}");
                } else {
                    let sign = if original < 0.0 { "-" } else { "+" };
                    lhs.push_str(&format!(" {sign} {magnitude}*{name}"));
                }
            }
            if lhs.is_empty() {
                lhs = "0".to_string();
            }
            (lhs, significant(rhs, 6))
        }
    }
}

/// For a split whose condition holds or fails whatever the row (an oblique split with every
/// weight zero, as refinement leaves on a pure node), the side every row goes to.
pub fn constant_side(split: &Split) -> Option<&'static str> {
    match split {
        Split::Oblique { weights, bias } if weights.iter().all(|w| *w == 0.0) => {
            Some(if *bias <= 0.0 { "left" } else { "right" })
        }
        _ => None,
    }
}

/// The note shown next to a constant split's condition.
pub fn constant_note(side: &str) -> String {
    format!("no feature weighted: every row goes {side}")
}

/// The learned missing side of split `id` as `missing: left` (none when it learned none, or
/// when its conditions say it: `column is missing`, see [`worded_conditions`]).
pub fn missing_note(tree: &Tree, id: usize) -> Option<String> {
    if tree.missing_test(id).is_some() {
        return None;
    }
    tree.missing_side(id)
        .map(|side| format!("missing: {}", side.name()))
}

/// The conditions of split `id` (`split`) in words, left and right, when they read as words:
/// `column != value` and `column = value` for a split on one category of a categorical column,
/// `column is missing` and `column is present` (on the sides they go) for a split of the rows
/// missing a categorical column from the rest ([`Tree::missing_test`]); `None` for a threshold
/// on a numeric feature and an oblique split.
pub fn worded_conditions(tree: &Tree, id: usize, split: &Split) -> Option<(String, String)> {
    if let Some((column, side)) = tree.missing_test(id) {
        let missing = format!("{column} is missing");
        let present = format!("{column} is present");
        return Some(match side {
            MissingSide::Left => (missing, present),
            MissingSide::Right => (present, missing),
        });
    }
    tree.category_split(split).map(|(column, value)| {
        (
            format!("{column} != {value}"),
            format!("{column} = {value}"),
        )
    })
}

/// The counts as `[a, b, c]`.
pub fn counts_list(counts: &[usize]) -> String {
    let items: Vec<String> = counts.iter().map(usize::to_string).collect();
    format!("[{}]", items.join(", "))
}
