//! Benchmark of fairness bounds: on one two-class dataset with a group column, under each
//! statistical-parity bound given, the exact search (`dp`, depths 1 and 2) and FlowOCT of the
//! same depth on HiGHS and on CBC, each one's training accuracy against the parity gap of its
//! tree (both by plain evaluation of the returned tree), and each MILP's seconds over the
//! search's (`seconds_ratio`); then the search's exact front of training accuracy against the
//! parity gap ([`milptree::fair::front`], at depths 1 and 2), one JSON line per point, drawn as
//! its own series. Prints one JSON line per solve, writes `results.csv` and the figure
//! `accuracy-vs-gap.svg` (and `.png`) in the output folder. Timings are reported, never
//! judged.
//!
//! Usage: `bench_fairness DATA.csv GROUP_COLUMN DEPTH DELTAS OUT_DIR [TIME_LIMIT_SECONDS]`,
//! `DELTAS` comma-separated (e.g. `1,0.2,0.1,0.05,0.02,0`).

use std::io::Write;
use std::path::{Path, PathBuf};

use milptree::budget::Budget;
use milptree::constraints::ConstraintSpec;
use milptree::data::{read_dataset, TargetColumn, ThresholdMode};
use milptree::experiment::plots::canvas::{self, DrawResult, Figure};
use milptree::fair::FairProblem;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method};
use milptree::search_core::Termination;
use milptree::solver::SolverKind;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::json;

/// How long the exact front may run (its points found so far after it, marked incomplete).
const FRONT_SECONDS: f64 = 120.0;

/// One solve's result.
struct Point {
    solver: &'static str,
    delta: f64,
    accuracy: f64,
    gap: f64,
}

/// Training accuracy against the parity gap, one series per solver.
struct AccuracyVsGap {
    title: String,
    points: Vec<Point>,
}

impl Figure for AccuracyVsGap {
    fn size(&self) -> (u32, u32) {
        (800, 560)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let low = self.points.iter().map(|p| p.accuracy).fold(1.0, f64::min);
        let high_gap = self.points.iter().map(|p| p.gap).fold(0.01, f64::max);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, canvas::text(canvas::CAPTION_SIZE))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..high_gap * 1.05, (low - 0.02).max(0.0)..1.0)?;
        chart
            .configure_mesh()
            .x_desc("statistical-parity gap of the tree (training rows)")
            .y_desc("training accuracy")
            .label_style(canvas::text(canvas::TICK_SIZE))
            .axis_desc_style(canvas::text(canvas::LABEL_SIZE))
            .draw()?;
        for (index, solver) in ["front", "dp", "highs", "cbc"].into_iter().enumerate() {
            let colour = canvas::colour(index);
            let mut series: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter(|p| p.solver == solver)
                .map(|p| (p.gap, p.accuracy))
                .collect();
            series.sort_by(|a, b| a.0.total_cmp(&b.0));
            chart
                .draw_series(LineSeries::new(series.clone(), colour.stroke_width(2)))?
                .label(match solver {
                    "dp" => "exact search (dp)".to_string(),
                    "front" => "exact front (dp)".to_string(),
                    _ => format!("FlowOCT on {solver}"),
                })
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
            chart.draw_series(
                series
                    .into_iter()
                    .map(|p| Circle::new(p, 4 + 2 * index as i32, colour.stroke_width(2))),
            )?;
        }
        chart
            .configure_series_labels()
            .label_font(canvas::text(canvas::LEGEND_SIZE))
            .background_style(WHITE)
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        Ok(())
    }
}

fn main() -> milptree::Result<()> {
    let usage = "usage: bench_fairness DATA.csv GROUP_COLUMN DEPTH DELTAS OUT_DIR [TIME_LIMIT]";
    let bad = || milptree::Error::parameter("arguments", usage);
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().ok_or_else(bad)?);
    let group = args.next().ok_or_else(bad)?;
    let depth: usize = args.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
    let deltas: Vec<f64> = args
        .next()
        .ok_or_else(bad)?
        .split(',')
        .map(|d| d.parse().map_err(|_| bad()))
        .collect::<milptree::Result<_>>()?;
    let out = PathBuf::from(args.next().ok_or_else(bad)?);
    let limit: f64 = match args.next() {
        Some(s) => s.parse().map_err(|_| bad())?,
        None => 120.0,
    };
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let name = canvas::data_name(&path);
    let mut points = Vec::new();
    for delta in &deltas {
        let mut dp_seconds = None;
        for solver in [None, Some(SolverKind::Highs), Some(SolverKind::Cbc)] {
            let method = match solver {
                Some(solver) => Method::Milp {
                    formulation: AnyFormulation::from_name(FormulationName::FlowOct, depth)?,
                    solver,
                },
                None => Method::Dp(DpSearch {
                    depth,
                    params: DpParams::default(),
                }),
            };
            let solver = solver.map_or("dp", |s| s.name());
            let spec = ConstraintSpec {
                group_column: Some(group.clone()),
                max_parity_gap: Some(*delta),
                ..ConstraintSpec::default()
            };
            let outcome = learn(
                &method,
                &data,
                LearnOptions {
                    budget: Budget::seconds(limit),
                    threads: Some(1),
                    constraints: Some(spec),
                    ..LearnOptions::default()
                },
            )?;
            let fairness = &outcome.side_constraints["fairness"];
            let accuracy = outcome.tree.as_ref().map(|tree| {
                let right = tree
                    .predict(data.rows())
                    .iter()
                    .zip(data.labels())
                    .filter(|(p, l)| p == l)
                    .count();
                right as f64 / data.n_rows() as f64
            });
            let gap = fairness["parity_gap"].as_f64();
            let seconds = outcome.report.seconds;
            if solver == "dp" {
                dp_seconds = Some(seconds);
            }
            let ratio = dp_seconds
                .filter(|_| solver != "dp")
                .map(|dp| seconds / dp.max(1e-6));
            println!(
                "{}",
                json!({
                    "dataset": name, "depth": depth, "solver": solver, "delta": delta,
                    "termination": outcome.report.termination, "seconds": seconds,
                    "seconds_ratio": ratio, "objective": outcome.evaluated_objective,
                    "accuracy": accuracy, "parity_gap": gap,
                    "opportunity_gap": fairness["opportunity_gap"],
                })
            );
            if let (Some(accuracy), Some(gap)) = (accuracy, gap) {
                points.push(Point {
                    solver,
                    delta: *delta,
                    accuracy,
                    gap,
                });
            }
        }
    }
    if depth <= milptree::fair::MAX_FAIR_DEPTH {
        let spec = ConstraintSpec {
            group_column: Some(group.clone()),
            max_parity_gap: Some(1.0),
            ..ConstraintSpec::default()
        };
        let checked = spec.resolve(&data)?;
        let fairness = checked
            .fairness
            .clone()
            .ok_or_else(|| milptree::Error::parameter("GROUP_COLUMN", "no group column"))?;
        let started = std::time::Instant::now();
        let found = milptree::fair::front(
            &data,
            &fairness,
            &FairProblem {
                depth,
                thresholds: ThresholdMode::All,
                class_weights: vec![1.0; data.n_classes()],
                split_cost: 0.0,
                min_leaf: 1,
                max_leaf: None,
                max_splits: None,
                forbidden: checked.forbidden.clone(),
                depths: Vec::new(),
                bounds: true,
            },
            1,
            &milptree::fair::FairStop {
                budget: Budget::seconds(FRONT_SECONDS),
                ..milptree::fair::FairStop::never()
            },
        )?;
        let seconds = started.elapsed().as_secs_f64();
        let (front, complete) = (found.points, found.termination == Termination::Optimal);
        for point in &front {
            let accuracy = 1.0 - point.objective / data.n_rows() as f64;
            println!(
                "{}",
                json!({
                    "dataset": name, "depth": depth, "solver": "front", "parity_gap": point.gap,
                    "objective": point.objective, "accuracy": accuracy,
                    "front_points": front.len(), "front_seconds": seconds,
                    "front_complete": complete,
                })
            );
            points.push(Point {
                solver: "front",
                delta: point.gap,
                accuracy,
                gap: point.gap,
            });
        }
    }
    write_results(&out, &points)?;
    let figure = AccuracyVsGap {
        title: format!("{name}: exact search and FlowOCT depth {depth}, group `{group}`"),
        points,
    };
    milptree::experiment::plots::font::ensure_font()
        .map_err(|e| milptree::Error::parameter("font", e))?;
    for written in canvas::save(&figure, &out.join("accuracy-vs-gap"))? {
        println!("wrote {}", written.display());
    }
    Ok(())
}

/// `results.csv` in `out`: solver, delta, accuracy, gap.
fn write_results(out: &Path, points: &[Point]) -> milptree::Result<()> {
    let failed = |e: std::io::Error| milptree::Error::Output {
        path: out.display().to_string(),
        source: e,
    };
    std::fs::create_dir_all(out).map_err(failed)?;
    let mut file = std::fs::File::create(out.join("results.csv")).map_err(failed)?;
    writeln!(file, "solver,max_parity_gap,train_accuracy,parity_gap").map_err(failed)?;
    for p in points {
        writeln!(file, "{},{},{},{}", p.solver, p.delta, p.accuracy, p.gap).map_err(failed)?;
    }
    Ok(())
}
