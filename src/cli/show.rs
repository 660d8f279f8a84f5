//! `milptree show`: render a saved tree as text, Graphviz DOT or JSON.

use crate::cli::args::{ShowArgs, ShowFormat};
use crate::error::Result;
use crate::export::{DotView, TextView};
use crate::tree::Tree;
use crate::{out, outln};

pub fn run(args: ShowArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    match args.format {
        ShowFormat::Text => out!("{}", TextView(&tree)),
        ShowFormat::Dot => out!("{}", DotView(&tree)),
        ShowFormat::Json => outln!("{}", tree.to_json_string()),
    }
}
