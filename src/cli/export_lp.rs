//! `milptree export-lp`: write the exact model `solve` would build as an LP or MPS file (by
//! the output's extension) for external solvers, with a JSON map from variable names to tree
//! nodes and, with a warm start, the start as a `.mst` file (Gurobi's MIP start format) and a
//! `.sol` file HiGHS reads.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::cli::args::ExportLpArgs;
use crate::cli::model_args::ModelArgs;
use crate::cli::output::print_json;
use crate::error::{Error, Result};
use crate::formulation::AnyFormulation;
use crate::learn::WarmStartMode;
use crate::outln;
use crate::pareto::binary_data;

pub fn run(args: ExportLpArgs) -> Result<()> {
    let formulation = args.model.formulation()?;
    if args.max_fp.is_some() {
        refuse_objective_options(&args.model)?;
    }
    export_with(&formulation, &args)
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
    let built = match (args.max_fp, &constraints) {
        (Some(_), Some(_)) => {
            return Err(Error::parameter(
                "--constraints",
                "does not apply with --max-fp (the front's model takes no side constraints)",
            ))
        }
        (Some(max_fp), None) => formulation.build_with_max_false_positives(&data.train, max_fp)?,
        (None, _) => formulation.build_constrained(
            &data.train,
            args.model.warm_start() == WarmStartMode::Greedy,
            constraints.as_ref(),
        )?,
    };
    let mip = &built.mip;
    write_with(&args.output, |out| match format {
        ModelFormat::Lp => mip.write_lp(out),
        ModelFormat::Mps => mip.write_mps(out),
    })?;
    let map_path = with_extension(&args.output, "vars.json");
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
    write_with(&map_path, |out| {
        serde_json::to_writer_pretty(
            &mut *out,
            &json!({
                "formulation": formulation.name(),
                "parameters": formulation.parameters(),
                "variables": roles,
            }),
        )
        .map_err(std::io::Error::other)
    })?;
    let mut written = vec![args.output.clone(), map_path];
    let mut start_report = serde_json::Value::Null;
    if let Some(encoded) = &built.warm_start {
        let start = &encoded.assignment;
        let feasibility = mip.check(start);
        let mst = with_extension(&args.output, "mst");
        let sol = with_extension(&args.output, "sol");
        write_with(&mst, |out| mip.write_mst(start, out))?;
        write_with(&sol, |out| mip.write_highs_solution(start, out))?;
        written.push(mst);
        written.push(sol);
        start_report = json!({
            "objective": mip.objective_value(start),
            "feasible": feasibility.feasible,
            "worst_violation": feasibility.worst,
        });
    }
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
        }))?;
    } else {
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
        if let Some(max_fp) = args.max_fp {
            outln!(
                "objective: (negatives + 1) * false negatives + false positives, with at most \
                 {max_fp} false positives (class `{}` positive)",
                data.train.classes()[1]
            )?;
        }
        for path in &written {
            outln!("wrote {}", path.display())?;
        }
        if let Some(tolerance) = built.integrality_tolerance {
            outln!(
                "note: solve this model with an integrality tolerance of at most {tolerance:e} \
                 (e.g. Gurobi IntFeasTol, CPLEX mip tolerances integrality, HiGHS \
                 mip_feasibility_tolerance): with a solver's default (1e-5 to 1e-6) its big-M rows \
                 let near-binary values fake a better objective"
            )?;
        }
    }
    Ok(())
}
