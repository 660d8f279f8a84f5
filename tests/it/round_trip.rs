//! LP / MPS / start files round trip: exported, read back by HiGHS's and CBC's own readers,
//! solved, and compared with the in-memory model: same optimum, and the solution read back by
//! column name is feasible for our record with the same objective.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use milptree::budget::Budget;
use milptree::mip::MipModel;
use milptree::solver::{self, FileSolved, SolveOptions, SolverKind, Termination};

use crate::models::{self, Known};

fn write(model: &MipModel, dir: &Path, file: &str) -> PathBuf {
    let path = dir.join(file);
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    let result = if file.ends_with(".mps") {
        model.write_mps(&mut out)
    } else {
        model.write_lp(&mut out)
    };
    result.expect("write");
    drop(out);
    path
}

fn solve_file(
    kind: SolverKind,
    path: &Path,
    start: Option<&Path>,
    options: &SolveOptions,
) -> FileSolved {
    solver::solve_file(kind, path, start, options)
        .unwrap_or_else(|e| panic!("{kind} cannot solve {}: {e}", path.display()))
}

/// The solution read from a file, as an assignment of `model` (matched by file name).
fn assignment_of(model: &MipModel, values: &[(String, f64)]) -> milptree::mip::Assignment {
    let columns: HashMap<&str, usize> = (0..model.vars().len())
        .map(|j| (model.file_name(j), j))
        .collect();
    assert_eq!(values.len(), model.vars().len(), "column count");
    let mut start = model.start();
    for (name, value) in values {
        let column = columns
            .get(name.as_str())
            .unwrap_or_else(|| panic!("unknown column `{name}` read back"));
        start.set_column(*column, *value);
    }
    start.finish().expect("every column read back")
}

#[test]
fn lp_and_mps_files_give_the_in_memory_optimum() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cases: Vec<Known> = vec![
        models::knapsack(),
        models::assignment(),
        models::set_cover(),
        models::mixed(),
        models::lp(),
    ];
    for (k, known) in cases.iter().enumerate() {
        let model = &known.model;
        assert_eq!(
            solver::solve(model, SolverKind::Highs, &SolveOptions::default())
                .expect("solve")
                .report
                .objective
                .map(|o| (o - known.optimum).abs() < 1e-6),
            Some(true)
        );
        for file in [format!("model{k}.lp"), format!("model{k}.mps")] {
            let path = write(model, dir.path(), &file);
            for kind in SolverKind::ALL {
                let what = format!("{kind} reading {} ({file})", model.name());
                let solved = solve_file(kind, &path, None, &SolveOptions::default());
                assert_eq!(solved.report.termination, Termination::Optimal, "{what}");
                // CBC's LP reader drops the objective constant (only `mixed` has one).
                let expected = if kind == SolverKind::Cbc && file.ends_with(".lp") {
                    known.optimum - model.objective_constant()
                } else {
                    known.optimum
                };
                let objective = solved.report.objective.expect("an objective");
                assert!(
                    (objective - expected).abs() < 1e-6,
                    "{what}: {objective} vs {expected}"
                );
                let bound = solved.report.best_bound.expect("a bound");
                assert!((bound - expected).abs() < 1e-6, "{what}: bound {bound}");
                let abs_gap = solved.report.abs_gap.expect("a gap");
                assert!(abs_gap < 1e-6, "{what}: gap {abs_gap}");
                let values = solved.solution.expect("a solution");
                let assignment = assignment_of(model, &values);
                let check = model.check(&assignment);
                assert!(check.feasible, "{what}: {check:?}");
                let ours = model.objective_value(&assignment);
                assert!((ours - known.optimum).abs() < 1e-6, "{what}: {ours}");
            }
        }
    }
}

#[test]
fn start_files_are_read_back_as_starts() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (model, x, greedy) = models::hard_knapsack();
    let mut start = model.start();
    for (&v, &value) in x.iter().zip(&greedy) {
        start.set(v, value);
    }
    let start = start.finish().expect("complete");
    let start_objective = model.objective_value(&start);
    let sol = dir.path().join("start.sol");
    model
        .write_highs_solution(&start, &mut File::create(&sol).expect("create"))
        .expect("write .sol");
    let mst = dir.path().join("start.mst");
    model
        .write_mst(&start, &mut File::create(&mst).expect("create"))
        .expect("write .mst");
    let zero = SolveOptions {
        budget: Budget::seconds(0.0),
        ..SolveOptions::default()
    };
    for file in ["hard.lp", "hard.mps"] {
        let path = write(&model, dir.path(), file);
        for (kind, start_file) in [(SolverKind::Highs, &sol), (SolverKind::Cbc, &mst)] {
            let what = format!("{kind} reading {file}");
            // Without the start, a time limit of 0 leaves no solution ...
            let without = solve_file(kind, &path, None, &zero);
            assert!(without.solution.is_none(), "{what}");
            // ... with it, the start is the solution.
            let with = solve_file(kind, &path, Some(start_file), &zero);
            assert_eq!(with.report.termination, Termination::TimeLimit, "{what}");
            let objective = with.report.objective.expect("the start's objective");
            assert!(
                (objective - start_objective).abs() < 1e-6,
                "{what}: {objective}"
            );
            let values = with.solution.expect("the start");
            let read = assignment_of(&model, &values);
            assert_eq!(
                model.round_integers(&read).values(),
                start.values(),
                "{what}"
            );
        }
    }
}
