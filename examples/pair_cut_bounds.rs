//! Root LP bound of FlowOCT with rounds of pair cuts (prototype measurement).
//! Usage: `pair_cut_bounds DATA.csv DEPTH ROUNDS LIMIT PER_GROUP`

use std::path::PathBuf;
use std::time::Instant;

use milptree::data::{read_dataset, TargetColumn};
use milptree::formulation::flowoct::FlowOct;
use milptree::formulation::{BuiltModel, Formulation};
use milptree::solver::{solve, SolveOptions, SolverKind};

fn main() -> milptree::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = PathBuf::from(&args[0]);
    let depth: usize = args[1].parse().unwrap_or(2);
    let rounds: usize = args[2].parse().unwrap_or(10);
    let limit: usize = args[3].parse().unwrap_or(500);
    let per_group: usize = args[4].parse().unwrap_or(5);
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let formulation = FlowOct::new(depth);
    let mut model = formulation.build(&data)?;
    let start = Instant::now();
    let mut total = 0;
    for round in 0..=rounds {
        let relaxed = model.mip().relaxed();
        let solved = solve(
            &relaxed,
            SolverKind::Highs,
            &SolveOptions {
                time_limit: Some(300.0),
                threads: Some(1),
                ..SolveOptions::default()
            },
        )?;
        let Some(solution) = solved.solution else {
            break;
        };
        let cuts = model.violated_pair_cuts(&solution, 1e-3, limit, per_group);
        println!(
            "round {round}: bound {:.3} lp {:.2}s total {:.1}s cuts so far {total} violated {} (max {:.3})",
            solved.report.objective.unwrap_or(f64::NAN),
            solved.report.seconds,
            start.elapsed().as_secs_f64(),
            cuts.len(),
            cuts.first().map_or(0.0, |c| c.violation)
        );
        if cuts.is_empty() {
            break;
        }
        total += cuts.len();
        model.add_pair_cuts(&cuts);
    }
    let mip_limit: f64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    if mip_limit > 0.0 {
        let optimum = milptree::dp::solve(
            &data,
            &milptree::dp::DpProblem::accuracy(&data, depth),
            &milptree::dp::DpOptions::default(),
        )?;
        let encoded = formulation.encode(&model, &optimum.tree)?;
        let solver = if args.get(6).map(String::as_str) == Some("cbc") {
            SolverKind::Cbc
        } else {
            SolverKind::Highs
        };
        let solved = solve(
            model.mip(),
            solver,
            &SolveOptions {
                time_limit: Some(mip_limit),
                threads: Some(1),
                warm_start: Some(encoded.assignment),
                ..SolveOptions::default()
            },
        )?;
        let r = &solved.report;
        println!(
            "mip: {:?} objective {:?} bound {:?} seconds {:.1} nodes {:?} (optimum {})",
            r.termination, r.objective, r.best_bound, r.seconds, r.nodes, optimum.objective
        );
    }
    Ok(())
}
