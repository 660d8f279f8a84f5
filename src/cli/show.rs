//! `milptree show`: render a saved tree as text, Graphviz DOT or JSON; a tree file's provenance
//! comes first, as a header (text) or comments (DOT).

use crate::cli::args::{ShowArgs, ShowFormat};
use crate::error::Result;
use crate::export::{DotView, TextView};
use crate::tree::{Provenance, Tree};
use crate::{out, outln};

pub fn run(args: ShowArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    let header = tree.provenance.as_ref().map(Provenance::lines);
    match args.format {
        ShowFormat::Text => {
            for line in header.iter().flatten() {
                outln!("{line}")?;
            }
            if header.is_some() {
                outln!("")?;
            }
            out!("{}", TextView(&tree))
        }
        ShowFormat::Dot => {
            for line in header.iter().flatten() {
                outln!("// {}", line.replace(['\n', '\r'], " "))?;
            }
            out!("{}", DotView(&tree))
        }
        ShowFormat::Json => outln!("{}", tree.to_json_string()),
    }
}
