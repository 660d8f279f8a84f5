//! `milptree show`: render a saved tree as text, Graphviz DOT, JSON or an HTML page; a tree
//! file's provenance comes first, as a header (text) or comments (DOT), and beside the diagram
//! on the page, which can also embed rows to route (`--data`).

use crate::cli::args::{ShowArgs, ShowFormat};
use crate::cli::output::write_file;
use crate::cli::predict::apply_relabel_rule;
use crate::data::read_for_schema;
use crate::error::{Error, Result};
use crate::export::html::{tree_page, Rows};
use crate::export::{DotView, TextView};
use crate::tree::{Provenance, Tree};
use crate::{noteln, out};

pub fn run(args: ShowArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    if args.data.is_some() && args.format != ShowFormat::Html {
        return Err(Error::parameter("--data", "applies to --format html"));
    }
    let header = tree.provenance.as_ref().map(Provenance::lines);
    let text = match args.format {
        ShowFormat::Text => {
            let mut text = String::new();
            for line in header.iter().flatten() {
                text.push_str(&format!("{line}\n"));
            }
            if header.is_some() {
                text.push('\n');
            }
            text + &TextView(&tree).to_string()
        }
        ShowFormat::Dot => {
            let mut text = String::new();
            for line in header.iter().flatten() {
                text.push_str(&format!("// {}\n", line.replace(['\n', '\r'], " ")));
            }
            text + &DotView(&tree).to_string()
        }
        ShowFormat::Json => format!("{}\n", tree.to_json_string()),
        ShowFormat::Html => html(&args, &tree)?,
    };
    match &args.output {
        Some(path) => write_file(path, &text),
        None => out!("{text}"),
    }
}

/// The tree's page, with the rows of `--data` when given.
fn html(args: &ShowArgs, tree: &Tree) -> Result<String> {
    let Some(path) = &args.data else {
        return Ok(tree_page(tree, None));
    };
    let (mut observations, unseen) = read_for_schema(
        path,
        tree.schema(),
        tree.classes(),
        &args.delimiter.options(),
        &args.missing.options(),
    )?;
    apply_relabel_rule(tree, &mut observations);
    for category in &unseen {
        noteln!(
            "warning: column `{}`: value `{}` ({} rows) does not occur in the tree's training \
             data; those rows go the `!=` way at every split on that column",
            category.column,
            category.value,
            category.rows
        );
    }
    let source = format!("rows of {}", path.display());
    let rows = Rows {
        source: &source,
        values: &observations.rows,
        classes: &observations.classes,
        labels: observations.labels.as_deref(),
        weights: observations.weights.as_deref(),
    };
    Ok(tree_page(tree, Some(&rows)))
}
