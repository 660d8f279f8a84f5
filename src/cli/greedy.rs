//! `milptree greedy`: grow a CART tree and report it.

use serde_json::json;

use crate::cli::args::GreedyArgs;
use crate::cli::output::{
    data_block, one_sided, one_sided_note, print_json, summary_line, train_test, write_file,
};
use crate::error::Result;
use crate::export::TextView;
use crate::greedy::{cart, CartParams};
use crate::tree::Provenance;
use crate::{out, outln};

pub fn run(args: GreedyArgs) -> Result<()> {
    let data = args.data.load()?;
    let params = CartParams {
        depth: args.depth,
        min_leaf: args.min_leaf,
        ..CartParams::new(args.depth)
    };
    let mut tree = crate::learn::missing::with_copies(
        &data.train,
        |train| cart(train, &params),
        |tree, map| map(&tree),
    )?;
    let errors = tree
        .evaluate(data.train.rows(), data.train.labels(), data.train.classes())?
        .misclassified;
    tree.provenance = Some(Provenance {
        method: "cart".to_string(),
        parameters: json!({ "depth": args.depth, "min_leaf": args.min_leaf }),
        solver: "cart".to_string(),
        termination: "completed".to_string(),
        tree_source: None,
        objective: Some(errors as f64),
        bound: None,
        gap: None,
        // The same command writes the same file: no clock.
        seconds: None,
        time_limit: None,
        milptree_version: Provenance::this_version(),
        training: crate::cli::output::training_rows(&args.data, &data.train),
        certificate: None,
        side_constraints: None,
    });
    if let Some(path) = &args.output {
        write_file(path, &tree.to_json_string())?;
    }
    let (train, test) = train_test(&tree, &data)?;
    // One scale with `solve`: the training errors (weighted where rows are), which are also the
    // tree's objective in the exact search's units at its defaults (accuracy, no split cost).
    let weighted = crate::learn::document::weighted_errors(&tree, &data.train);
    if args.json {
        return print_json(&json!({
            "command": "greedy",
            "method": "cart",
            "data": data_block(&args.data, &data),
            "depth": args.depth,
            "min_leaf": args.min_leaf,
            "errors": weighted,
            "dp_objective": weighted,
            "train": train,
            "test": test,
            "one_sided_splits": one_sided(&tree),
            "tree": tree.to_json_value(),
        }));
    }
    outln!(
        "CART (Gini), depth {}, min leaf {}: {} ({} training rows, {} features, {} classes)",
        args.depth,
        args.min_leaf,
        args.data.data.display(),
        data.train.n_rows(),
        data.train.n_features(),
        data.train.n_classes()
    )?;
    outln!("{}", summary_line("train", &train))?;
    if let Some(test) = &test {
        outln!("{}", summary_line("test", test))?;
    }
    if let Some(note) = one_sided_note(&tree) {
        outln!("{note}")?;
    }
    if let Some(path) = &args.output {
        outln!("tree written to {}", path.display())?;
    }
    out!("{}", TextView(&tree))?;
    Ok(())
}
