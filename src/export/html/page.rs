//! One page ([`Page`]): a title, facts (the provenance), notes, charts, a table and one or more
//! trees, written as a single HTML document whose script and styles are inline and whose
//! content-security policy forbids every request, so that it opens offline and makes none.

use serde::Serialize;

use crate::export::html::tree_model::{RowsModel, TreeModel};

/// The script that draws every page (plain JavaScript, inline SVG): its files in order, run
/// as one function.
const SCRIPT: [&str; 5] = [
    include_str!("script/common.js"),
    include_str!("script/router.js"),
    include_str!("script/tree_view.js"),
    include_str!("script/chart.js"),
    include_str!("script/page.js"),
];
/// The page's styles.
const STYLE: &str = include_str!("page.css");
/// No request of any kind: scripts and styles are inline, images are `data:` URLs at most.
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
                      style-src 'unsafe-inline'; img-src data:";

/// One fact of a page's provenance: `key` names it for programs, `label` for people.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fact {
    pub key: String,
    pub label: String,
    pub value: String,
}

impl Fact {
    pub fn new(key: &str, label: &str, value: impl Into<String>) -> Fact {
        Fact {
            key: key.to_string(),
            label: label.to_string(),
            value: value.into(),
        }
    }
}

/// One point of a chart's series; `tree` is the index of its tree in the page's trees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartPoint {
    pub x: f64,
    pub y: f64,
    /// Half the height of its error bar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub err: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<usize>,
    /// Shown when the point is pointed at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Marked as the chosen point.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chosen: bool,
}

impl ChartPoint {
    pub fn at(x: f64, y: f64) -> ChartPoint {
        ChartPoint {
            x,
            y,
            err: None,
            tree: None,
            label: None,
            chosen: false,
        }
    }
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesStyle {
    /// Markers only.
    Points,
    /// Markers joined by straight lines.
    Line,
    /// A staircase: each value holds until the next point (a solver's incumbent and bound).
    Step,
    /// A bar from 0 to each point.
    Bar,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    pub name: String,
    pub style: SeriesStyle,
    pub points: Vec<ChartPoint>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    /// Names the chart in the page (`front`, `trajectory`, ...).
    pub id: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Names of categories at x = 0, 1, ... (the axis then shows them instead of numbers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x_names: Option<Vec<String>>,
    pub series: Vec<Series>,
}

/// A table; a row with a `tree` shows that tree when clicked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<TableRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRow {
    pub cells: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<usize>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chosen: bool,
}

/// A tree of a page, with what it is and its own provenance.
#[derive(Debug, Clone, Serialize)]
pub struct TreeEntry {
    pub caption: String,
    pub facts: Vec<Fact>,
    pub model: TreeModel,
}

/// What a page shows.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// `tree`, `solve`, `front`, `tune` or `path`.
    pub kind: String,
    pub title: String,
    pub facts: Vec<Fact>,
    pub notes: Vec<String>,
    pub charts: Vec<Chart>,
    pub table: Option<Table>,
    pub trees: Vec<TreeEntry>,
    /// The tree shown first.
    pub selected: usize,
    /// Rows to route through the trees, when few enough to embed.
    pub rows: Option<RowsModel>,
    /// Why no rows are embedded, when some were given.
    pub rows_note: Option<String>,
    /// The version of milptree that wrote the page.
    pub version: String,
}

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Page {
    /// An empty page of kind `kind`.
    pub fn new(kind: &str, title: impl Into<String>) -> Page {
        Page {
            kind: kind.to_string(),
            title: title.into(),
            facts: Vec::new(),
            notes: Vec::new(),
            charts: Vec::new(),
            table: None,
            trees: Vec::new(),
            selected: 0,
            rows: None,
            rows_note: None,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// The page as one self-contained HTML document. The data travels as JSON in a script
    /// element that is never run (`<` escaped so that no text in it can close the element);
    /// `fallback` is shown when scripts are off (the tree as text).
    pub fn to_html(&self, fallback: Option<&str>) -> String {
        let data = serde_json::to_string(self)
            .expect("a page is plain data")
            .replace('<', "\\u003c");
        let script = format!(
            "(function () {{\n'use strict';\n{}}})();\n",
            SCRIPT.join("\n")
        );
        let fallback =
            fallback.map_or_else(String::new, |text| format!("<pre>{}</pre>", escape(text)));
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"milptree {version}\">\n\
             <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <main id=\"app\"><h1>{title}</h1><noscript><p>This page draws its trees and \
             charts with JavaScript, which is off.</p>{fallback}</noscript></main>\n\
             <script type=\"application/json\" id=\"milptree-data\">{data}</script>\n\
             <script>\n{script}</script>\n</body>\n</html>\n",
            version = escape(&self.version),
            title = escape(&self.title),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_text_of_the_data_can_close_the_script_or_the_title() {
        let hostile = "</script><script>alert(1)</script><!--";
        let mut page = Page::new("tree", format!("title {hostile}"));
        page.facts.push(Fact::new("method", hostile, hostile));
        page.notes.push(hostile.to_string());
        let html = page.to_html(Some(hostile));
        // The page's own two scripts, and nothing else opens or closes one.
        assert_eq!(html.matches("<script").count(), 2, "{html}");
        assert_eq!(html.matches("</script>").count(), 2, "{html}");
        assert!(!html.contains("<!--"));
        // The data still holds the text as given.
        let start = html.find("id=\"milptree-data\">").expect("the data") + 19;
        let end = start + html[start..].find("</script>").expect("its end");
        let data: serde_json::Value = serde_json::from_str(&html[start..end]).expect("JSON");
        assert_eq!(data["facts"][0]["value"], hostile);
        assert_eq!(data["notes"][0], hostile);
    }

    #[test]
    fn the_policy_forbids_every_request() {
        let html = Page::new("tree", "t").to_html(None);
        assert!(html.contains(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">"
        )));
        assert!(POLICY.starts_with("default-src 'none';"));
        for directive in [
            "connect-src",
            "font-src",
            "frame-src",
            "media-src",
            "object-src",
        ] {
            assert!(
                !POLICY.contains(directive),
                "{directive} is left to default-src"
            );
        }
    }
}
