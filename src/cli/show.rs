//! `milptree show`: render a saved tree as text, Graphviz DOT or JSON.

use crate::cli::args::{ShowArgs, ShowFormat};
use crate::error::Result;
use crate::export::{DotView, TextView};
use crate::tree::Tree;

pub fn run(args: ShowArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    match args.format {
        ShowFormat::Text => print!("{}", TextView(&tree)),
        ShowFormat::Dot => print!("{}", DotView(&tree)),
        ShowFormat::Json => println!("{}", tree.to_json_string()),
    }
    Ok(())
}
