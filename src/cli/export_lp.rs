//! `milptree export-lp`: write the exact model `solve` would build as an LP or MPS file (by
//! the output's extension) for external solvers, with a JSON map from variable names to tree
//! nodes and, with a warm start, the start as a `.mst` file (Gurobi's MIP start format) and a
//! `.sol` file HiGHS reads. With `--dp-bounds` the model has the exact search's rows that bound
//! its objective ([`crate::learn::search_rows`]), named, checked before the file is written
//! against the search's tree and the warm start, each evaluated by plain code.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::cli::args::ExportLpArgs;
use crate::cli::model_args::ModelArgs;
use crate::cli::output::print_json;
use crate::constraints::SideConstraints;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::{AnyBuilt, AnyFormulation};
use crate::learn::milp_method::search_rows_alone;
use crate::learn::search_rows::{DpBounds, SearchRowSource, SearchRows, SearchRowsReport};
use crate::learn::WarmStartMode;
use crate::mip::MipModel;
use crate::outln;
use crate::pareto::binary_data;
use crate::tree::Tree;

pub fn run(args: ExportLpArgs) -> Result<()> {
    let formulation = args.model.formulation()?;
    if args.max_fp.is_some() {
        refuse_objective_options(&args.model)?;
        if args.dp_bounds != DpBounds::None {
            return Err(Error::parameter(
                "--dp-bounds",
                "does not apply with --max-fp, whose objective the exact search does not have",
            ));
        }
    }
    export_with(&formulation, &args)
}

/// Test-only: set to a number of errors, this raises every row of the exact search by it
/// (making the rows wrong), so that tests see the check refuse them.
pub const RAISE_DP_BOUNDS_FOR_TESTS: &str = "MILPTREE_TEST_RAISE_DP_BOUNDS";

/// The exact search's rows for `built` (`--dp-bounds`), checked against the trees `built`
/// evaluated (the search's tree first, then the greedy warm start): a row above a tree's
/// plain evaluation is an error, and nothing is written.
fn checked_rows(source: &SearchRowSource, built: &AnyBuilt) -> Result<SearchRows> {
    let rows = SearchRows::make(source, &built.mip, built.root_splits.clone())?;
    for evaluated in &built.evaluated {
        let what = match evaluated.index {
            0 => "the exact search's tree",
            _ => "the greedy warm start",
        };
        rows.check(
            &built.mip,
            &evaluated.assignment,
            evaluated.objective,
            built.objective_tolerance,
            what,
        )?;
    }
    Ok(rows)
}

/// Fails when an option that sets the objective is given with `--max-fp`, whose objective is
/// `(N + 1) FN + FP` whatever they say.
fn refuse_objective_options(model: &ModelArgs) -> Result<()> {
    let given = [
        ("--objective", model.errors.objective.is_some()),
        ("--alpha", model.oct.alpha.is_some()),
        ("--leaf-penalty", model.leaf.leaf_penalty.is_some()),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((option, _)) => Err(Error::parameter(
            *option,
            "does not apply with --max-fp, whose objective is (negatives + 1) * false negatives \
             + false positives",
        )),
        None => Ok(()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModelFormat {
    Lp,
    Mps,
}

fn format_of(path: &Path) -> Result<ModelFormat> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("lp") => Ok(ModelFormat::Lp),
        Some("mps") => Ok(ModelFormat::Mps),
        _ => Err(Error::parameter(
            "--output",
            format!("{}: the file name must end in .lp or .mps", path.display()),
        )),
    }
}

fn with_extension(path: &Path, extension: &str) -> PathBuf {
    path.with_extension(extension)
}

/// Writes a file through `write`, mapping I/O errors to output errors naming the file.
fn write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let output_error = |source| Error::Output {
        path: path.display().to_string(),
        source,
    };
    let file = File::create(path).map_err(output_error)?;
    let mut out = BufWriter::new(file);
    write(&mut out).map_err(output_error)?;
    out.flush().map_err(output_error)
}

fn export_with(formulation: &AnyFormulation, args: &ExportLpArgs) -> Result<()> {
    let format = format_of(&args.output)?;
    let loaded = args.data.load()?;
    loaded.train.refuse_missing("export-lp")?;
    // A front model counts errors on one class against the rest, as `pareto` does.
    let data = match args.max_fp {
        Some(_) => {
            let positive = args.model.positive.positive_class.as_deref();
            loaded.map(|set| binary_data(&set, positive))?
        }
        None => loaded.map(|set| formulation.prepare(set))?,
    };
    let spec = args.model.constraints.spec()?;
    let constraints = spec.map(|s| s.resolve(&data.train)).transpose()?;
    // The start written is the greedy tree's under every mode but `none`: the exact search's
    // start (`dp`, `best`) is `solve`'s.
    let mode = args.model.warm_start();
    let greedy = mode != WarmStartMode::None;
    let mut notes = Vec::new();
    if matches!(mode, WarmStartMode::Dp | WarmStartMode::Best) {
        notes.push(format!(
            "--warm-start {mode}: export-lp writes the greedy tree as the start (the exact \
             search's start is solve's)"
        ));
    }
    let search = search_rows(
        formulation,
        &data.train,
        args.dp_bounds,
        &constraints,
        &mut notes,
    )?;
    // The trees the rows are checked against: the search's, then the warm start.
    let mut checked: Vec<Tree> = search.iter().map(|(_, tree)| tree.clone()).collect();
    if search.is_some() && greedy {
        checked.push(formulation.greedy_tree(&data.train)?);
    }
    let built = match (args.max_fp, &constraints) {
        (Some(_), Some(_)) => {
            return Err(Error::parameter(
                "--constraints",
                "does not apply with --max-fp (the front's model takes no side constraints)",
            ))
        }
        (Some(max_fp), None) => formulation.build_with_max_false_positives(&data.train, max_fp)?,
        (None, _) => {
            formulation.build_constrained(&data.train, greedy, constraints.as_ref(), &checked)?
        }
    };
    let rows = match &search {
        Some((source, _)) => Some(checked_rows(source, &built)?),
        None => None,
    };
    let with_rows = rows.as_ref().map(|rows| rows.added_to(&built.mip));
    let mip = with_rows.as_ref().unwrap_or(&built.mip);
    write_with(&args.output, |out| match format {
        ModelFormat::Lp => mip.write_lp(out),
        ModelFormat::Mps => mip.write_mps(out),
    })?;
    let map_path = with_extension(&args.output, "vars.json");
    write_variable_map(&map_path, formulation, &built, mip)?;
    let mut written = vec![args.output.clone(), map_path];
    let start_report = write_start(&args.output, &built, mip, &mut written)?;
    let size = mip.size();
    if args.json {
        print_json(&json!({
            "command": "export-lp",
            "formulation": formulation.name(),
            "parameters": formulation.parameters(),
            "model_size": size,
            "max_fp": args.max_fp,
            "positive_class": args.max_fp.map(|_| &data.train.classes()[1]),
            "integrality_tolerance": built.integrality_tolerance,
            "files": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "warm_start": start_report,
            "search_rows": rows.as_ref().map(|rows| &rows.report),
            "notes": notes,
        }))?;
    } else {
        print_summary(formulation, args.max_fp, &data.train, (mip, rows.as_ref()))?;
        for note in &notes {
            outln!("note: {note}")?;
        }
        for path in &written {
            outln!("wrote {}", path.display())?;
        }
        print_tolerance_note(built.integrality_tolerance)?;
    }
    Ok(())
}

/// The exact search's rows for the model (`--dp-bounds`), with the search's tree, or none.
fn search_rows(
    formulation: &AnyFormulation,
    train: &Dataset,
    families: DpBounds,
    constraints: &Option<SideConstraints>,
    notes: &mut Vec<String>,
) -> Result<Option<(SearchRowSource, Tree)>> {
    if families == DpBounds::None {
        return Ok(None);
    }
    let raise = std::env::var(RAISE_DP_BOUNDS_FOR_TESTS)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    search_rows_alone(
        formulation,
        train,
        families,
        constraints.is_some(),
        raise,
        notes,
    )
    .map(Some)
}

/// Writes the map of the model's variables to `path`: each one's name in the file, its name,
/// node and meaning.
fn write_variable_map(
    path: &Path,
    formulation: &AnyFormulation,
    built: &AnyBuilt,
    mip: &MipModel,
) -> Result<()> {
    let columns: std::collections::HashMap<&str, usize> = mip
        .vars()
        .iter()
        .enumerate()
        .map(|(column, var)| (var.name.as_str(), column))
        .collect();
    let roles: Vec<serde_json::Value> = built
        .roles
        .iter()
        .map(|role| {
            let column = columns.get(role.name.as_str()).copied();
            json!({
                "file_name": column.map(|c| mip.file_name(c)),
                "name": role.name,
                "node": role.node,
                "meaning": role.meaning,
            })
        })
        .collect();
    write_with(path, |out| {
        serde_json::to_writer_pretty(
            &mut *out,
            &json!({
                "formulation": formulation.name(),
                "parameters": formulation.parameters(),
                "variables": roles,
            }),
        )
        .map_err(std::io::Error::other)
    })
}

/// Writes the warm start beside `output` (`.mst` and HiGHS's `.sol`), adding the files to
/// `written`; its objective and feasibility in the model, or null without a start.
fn write_start(
    output: &Path,
    built: &AnyBuilt,
    mip: &MipModel,
    written: &mut Vec<PathBuf>,
) -> Result<serde_json::Value> {
    let Some(encoded) = &built.warm_start else {
        return Ok(serde_json::Value::Null);
    };
    let start = &encoded.assignment;
    let feasibility = mip.check(start);
    let mst = with_extension(output, "mst");
    let sol = with_extension(output, "sol");
    write_with(&mst, |out| mip.write_mst(start, out))?;
    write_with(&sol, |out| mip.write_highs_solution(start, out))?;
    written.push(mst);
    written.push(sol);
    Ok(json!({
        "objective": mip.objective_value(start),
        "feasible": feasibility.feasible,
        "worst_violation": feasibility.worst,
    }))
}

/// The text summary: the model's size, the front's objective with `--max-fp`, and the
/// exact search's rows.
fn print_summary(
    formulation: &AnyFormulation,
    max_fp: Option<u32>,
    train: &Dataset,
    (mip, rows): (&MipModel, Option<&SearchRows>),
) -> Result<()> {
    let size = mip.size();
    outln!(
        "{} depth {}: {} variables ({} binary, {} integer, {} continuous), {} constraints, {} non-zeros",
        formulation.name().to_uppercase(),
        formulation.depth(),
        size.variables,
        size.binaries,
        size.integers,
        size.continuous,
        size.constraints,
        size.nonzeros
    )?;
    if let Some(max_fp) = max_fp {
        outln!(
            "objective: (negatives + 1) * false negatives + false positives, with at most \
             {max_fp} false positives (class `{}` positive)",
            train.classes()[1]
        )?;
    }
    if let Some(rows) = rows {
        outln!("{}", rows_line(&rows.report))?;
    }
    Ok(())
}

/// The note on the integrality tolerance a model with big-M rows needs, if it needs one.
fn print_tolerance_note(tolerance: Option<f64>) -> Result<()> {
    if let Some(tolerance) = tolerance {
        outln!(
            "note: solve this model with an integrality tolerance of at most {tolerance:e} \
             (e.g. Gurobi IntFeasTol, CPLEX mip tolerances integrality, HiGHS \
             mip_feasibility_tolerance): with a solver's default (1e-5 to 1e-6) its big-M rows \
             let near-binary values fake a better objective"
        )?;
    }
    Ok(())
}

/// What the exact search's rows say, in one line.
fn rows_line(report: &SearchRowsReport) -> String {
    let mut said = Vec::new();
    if report.objective_rows > 0 {
        said.push(format!("dp_bound (objective >= {})", report.lower_bound));
    }
    if report.split_rows > 0 {
        said.push(format!(
            "dp_root_splits (over {} root splits, the least bound {})",
            report.root_splits,
            report
                .least_split_bound
                .map_or_else(|| "-".to_string(), |b| b.to_string())
        ));
    }
    match (said.is_empty(), &report.left_out) {
        (_, Some(why)) => format!("no rows from the exact search: {why}"),
        (true, None) => "no rows from the exact search".to_string(),
        (false, None) => format!(
            "rows from the exact search ({:.2} s): {}",
            report.seconds,
            said.join(", ")
        ),
    }
}
