//! Incumbent and bound over time: one figure per dataset and depth, a row of panels per
//! formulation and solver, a column per warm-start setting (cold on the left, warm on the
//! right), the seeds overlaid in colours (incumbent solid, bound dashed). Time is on a log
//! scale, shared by every panel of the figure; the objective axis is shared along each row, so
//! cold and warm are compared at a glance. Runs whose report gives the final state only show
//! their final incumbent and bound as markers, with a note.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::budget::seconds_of;
use crate::experiment::plots::canvas::{
    colour, text, text_width, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, LEGEND_SIZE, TICK_SIZE,
    TITLE_SIZE,
};
use crate::experiment::row::Row;
use crate::solver::TrajectoryPoint;

/// One run in a panel.
#[derive(Debug, Clone)]
struct RunLine {
    seed: u64,
    points: Vec<TrajectoryPoint>,
    /// When the solve ended.
    end: f64,
    complete: bool,
}

/// One panel: a formulation, solver and warm start.
#[derive(Debug, Clone)]
struct Panel {
    caption: String,
    runs: Vec<RunLine>,
}

/// A row of panels sharing the objective axis.
#[derive(Debug, Clone)]
struct PanelRow {
    panels: Vec<Panel>,
    y_range: (f64, f64),
}

/// The figure of one dataset and depth.
#[derive(Debug, Clone)]
pub struct TrajectoryFigure {
    title: String,
    rows: Vec<PanelRow>,
    columns: usize,
    x_range: (f64, f64),
    /// The runs' time limit, when they share one (a line at it).
    time_limit: Option<Duration>,
    /// Every seed of the figure, for the colours.
    seeds: Vec<u64>,
}

const PANEL_WIDTH: u32 = 720;
const PANEL_HEIGHT: u32 = 400;
const TITLE_HEIGHT: u32 = 50;

fn warm_start_label(mode: &str) -> &str {
    match mode {
        "none" => "cold start",
        "greedy" => "greedy warm start",
        other => other,
    }
}

/// The figures of `rows`, with the file stem of each (`trajectories-<dataset>-d<depth>`).
pub fn trajectory_figures(
    rows: &[Row],
    trajectories: &HashMap<String, Vec<TrajectoryPoint>>,
) -> Vec<(String, TrajectoryFigure)> {
    let mut by_file: BTreeMap<(String, usize), Vec<&Row>> = BTreeMap::new();
    for row in rows.iter().filter(|r| !r.termination.is_error()) {
        by_file
            .entry((row.dataset.clone(), row.depth))
            .or_default()
            .push(row);
    }
    by_file
        .into_iter()
        .map(|((dataset, depth), runs)| {
            let stem = format!("trajectories-{dataset}-d{depth}");
            (stem, figure(&dataset, depth, &runs, trajectories))
        })
        .collect()
}

fn figure(
    dataset: &str,
    depth: usize,
    runs: &[&Row],
    trajectories: &HashMap<String, Vec<TrajectoryPoint>>,
) -> TrajectoryFigure {
    let warm_starts: Vec<String> = {
        let set: BTreeSet<&str> = runs.iter().map(|r| r.warm_start.name()).collect();
        // Cold first.
        let mut list: Vec<String> = set.into_iter().map(str::to_string).collect();
        list.sort_by_key(|w| (w != "none", w.clone()));
        list
    };
    let seeds: Vec<u64> = runs
        .iter()
        .map(|r| r.seed)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let combos: BTreeSet<(String, String)> = runs
        .iter()
        .map(|r| (r.formulation.clone(), r.solver_label()))
        .collect();
    let mut smallest_time = f64::INFINITY;
    let mut largest_time: f64 = 0.0;
    let mut panel_rows = Vec::new();
    for (formulation, solver) in &combos {
        let mut low = f64::INFINITY;
        let mut high = f64::NEG_INFINITY;
        let mut panels = Vec::new();
        for warm_start in &warm_starts {
            let mut lines = Vec::new();
            for row in runs.iter().filter(|r| {
                &r.formulation == formulation
                    && &r.solver_label() == solver
                    && r.warm_start.name() == *warm_start
            }) {
                let points = trajectories.get(&row.run_key).cloned().unwrap_or_default();
                for point in &points {
                    for value in [point.incumbent, point.bound].into_iter().flatten() {
                        low = low.min(value);
                        high = high.max(value);
                    }
                    if point.seconds > 0.0 {
                        smallest_time = smallest_time.min(point.seconds);
                    }
                }
                let end = row
                    .seconds
                    .or_else(|| points.last().map(|p| p.seconds))
                    .unwrap_or(0.0);
                largest_time = largest_time.max(end);
                lines.push(RunLine {
                    seed: row.seed,
                    points,
                    end,
                    complete: row.trajectory_complete,
                });
            }
            panels.push(Panel {
                caption: format!(
                    "{formulation} · {solver} · {}",
                    warm_start_label(warm_start)
                ),
                runs: lines,
            });
        }
        let (low, high) = if low.is_finite() {
            (low, high)
        } else {
            (0.0, 1.0)
        };
        let span = if high > low {
            high - low
        } else {
            low.abs().max(1.0) * 0.1
        };
        panel_rows.push(PanelRow {
            panels,
            // Room above for the legend.
            y_range: (low - 0.05 * span, high + 0.45 * span),
        });
    }
    let x_low = if smallest_time.is_finite() {
        10f64.powf(smallest_time.log10().floor()).clamp(1e-4, 0.1)
    } else {
        0.01
    };
    let x_high = (largest_time * 1.5).max(x_low * 100.0);
    let limits: BTreeSet<String> = runs.iter().map(|r| r.time_limit.to_string()).collect();
    let time_limit = (limits.len() == 1)
        .then(|| Duration::try_from_secs_f64(runs[0].time_limit).ok())
        .flatten();
    TrajectoryFigure {
        title: format!(
            "{dataset}, depth {depth}: incumbent (solid) and best bound (dashed) over time"
        ),
        rows: panel_rows,
        columns: warm_starts.len(),
        x_range: (x_low, x_high),
        time_limit,
        seeds,
    }
}

/// Whether a series is known at two moments or more (and so draws as a line rather than a
/// marker): step points come in pairs after the first, plus the extension to the end.
fn is_line(points: &[(f64, f64)]) -> bool {
    points.len() >= 4
}

/// Decimals for tick labels of an axis spanning `span`.
pub fn decimals_for(span: f64) -> usize {
    if !(span.is_finite() && span > 0.0) {
        return 2;
    }
    (-(span / 6.0).log10().floor()).clamp(0.0, 6.0) as usize
}

/// Step-function points of `value` over `points`, until `end`; times below `floor` are drawn
/// at `floor` (log scale).
fn steps(
    points: &[TrajectoryPoint],
    value: fn(&TrajectoryPoint) -> Option<f64>,
    end: f64,
    floor: f64,
) -> Vec<(f64, f64)> {
    let mut line: Vec<(f64, f64)> = Vec::new();
    for point in points {
        let Some(v) = value(point) else { continue };
        let t = point.seconds.max(floor);
        if let Some(&(_, previous)) = line.last() {
            line.push((t, previous));
        }
        line.push((t, v));
    }
    if let Some(&(t, v)) = line.last() {
        line.push((end.max(t), v));
    }
    line
}

impl Figure for TrajectoryFigure {
    fn size(&self) -> (u32, u32) {
        // At least as wide as the title, so one column of panels does not clip it.
        let title = text_width(&self.title, TITLE_SIZE) + 40;
        (
            (PANEL_WIDTH * self.columns.max(1) as u32).max(title),
            TITLE_HEIGHT + PANEL_HEIGHT * self.rows.len().max(1) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let body = root.titled(&self.title, text(TITLE_SIZE))?;
        let areas = body.split_evenly((self.rows.len().max(1), self.columns.max(1)));
        for (r, row) in self.rows.iter().enumerate() {
            for (c, panel) in row.panels.iter().enumerate() {
                let area = &areas[r * self.columns + c];
                self.draw_panel(area, panel, row.y_range)?;
            }
        }
        Ok(())
    }
}

impl TrajectoryFigure {
    fn draw_panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        panel: &Panel,
        (y_low, y_high): (f64, f64),
    ) -> DrawResult<DB> {
        let (x_low, x_high) = self.x_range;
        let decimals = decimals_for(y_high - y_low);
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.caption, text(CAPTION_SIZE))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d((x_low..x_high).log_scale(), y_low..y_high)?;
        chart
            .configure_mesh()
            .x_desc("time since the solve started (s, log scale)")
            .y_desc("objective value")
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .y_labels(10)
            .max_light_lines(1)
            .y_label_formatter(&|v| format!("{v:.decimals$}"))
            .x_label_formatter(&|v| format!("{v}"))
            .draw()?;
        let limit = self.time_limit.map(seconds_of);
        if let Some(limit) = limit.filter(|l| *l > x_low && *l < x_high) {
            chart
                .draw_series(DashedLineSeries::new(
                    [(limit, y_low), (limit, y_high)],
                    3,
                    5,
                    RGBColor(120, 120, 120).stroke_width(1),
                ))?
                .label("time limit")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], RGBColor(120, 120, 120)));
        }
        let several = self.seeds.len() > 1;
        let mut notes = Vec::new();
        for run in &panel.runs {
            let index = self.seeds.iter().position(|&s| s == run.seed).unwrap_or(0);
            let colour = colour(index);
            let suffix = if several {
                format!(", seed {}", run.seed)
            } else {
                String::new()
            };
            let incumbent = steps(&run.points, |p| p.incumbent, run.end, x_low);
            let bound = steps(&run.points, |p| p.bound, run.end, x_low);
            if incumbent.is_empty() {
                notes.push(format!("no solution{suffix}"));
            }
            // A series known at one moment only (the solver's final state, or a bound recorded
            // once) is a marker; a longer one is a step line.
            if is_line(&incumbent) && run.complete {
                chart
                    .draw_series(LineSeries::new(incumbent, colour.stroke_width(3)))?
                    .label(format!("incumbent{suffix}"))
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 24, y)], colour.stroke_width(3))
                    });
            } else if let Some(&(t, v)) = incumbent.last() {
                chart
                    .draw_series([Circle::new((t, v), 7, colour.filled())])?
                    .label(format!("final incumbent{suffix}"))
                    .legend(move |(x, y)| Circle::new((x + 12, y), 6, colour.filled()));
            }
            if is_line(&bound) && run.complete {
                chart
                    .draw_series(DashedLineSeries::new(bound, 8, 5, colour.stroke_width(2)))?
                    .label(format!("bound{suffix}"))
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 8, y)], colour.stroke_width(2))
                    });
            } else if let Some(&(t, v)) = bound.last() {
                chart
                    .draw_series([TriangleMarker::new((t, v), 8, colour.stroke_width(2))])?
                    .label(format!("final bound{suffix}"))
                    .legend(move |(x, y)| {
                        TriangleMarker::new((x + 12, y), 6, colour.stroke_width(2))
                    });
            }
            if !run.complete {
                notes.push("trajectory not reported by the solver: final state only".to_string());
            }
        }
        notes.dedup();
        for (i, note) in notes.iter().enumerate() {
            let y = y_high - (0.06 + 0.08 * i as f64) * (y_high - y_low);
            chart.draw_series([Text::new(
                note.clone(),
                (x_low * 1.15, y),
                text(TICK_SIZE).color(&RGBColor(90, 90, 90)),
            )])?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(text(LEGEND_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(180, 180, 180))
            .draw()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(seconds: f64, incumbent: Option<f64>, bound: Option<f64>) -> TrajectoryPoint {
        TrajectoryPoint {
            seconds,
            incumbent,
            bound,
        }
    }

    #[test]
    fn steps_hold_each_value_until_the_next() {
        let points = [
            point(0.001, Some(3.0), None),
            point(2.0, Some(2.0), Some(1.0)),
            point(5.0, Some(2.0), Some(1.5)),
        ];
        let incumbent = steps(&points, |p| p.incumbent, 6.0, 0.01);
        assert_eq!(
            incumbent,
            vec![
                (0.01, 3.0),
                (2.0, 3.0),
                (2.0, 2.0),
                (5.0, 2.0),
                (5.0, 2.0),
                (6.0, 2.0)
            ]
        );
        assert!(is_line(&incumbent));
        // A bound known from one point on is a line; known once (the final state), a marker.
        assert!(is_line(&steps(&points, |p| p.bound, 6.0, 0.01)));
        let once = steps(&points[2..], |p| p.bound, 6.0, 0.01);
        assert_eq!(once, vec![(5.0, 1.5), (6.0, 1.5)]);
        assert!(!is_line(&once));
        assert!(steps(&points[..1], |p| p.bound, 6.0, 0.01).is_empty());
    }

    #[test]
    fn tick_decimals_follow_the_span() {
        assert_eq!(decimals_for(1.4), 1);
        assert_eq!(decimals_for(0.06), 2);
        assert_eq!(decimals_for(0.5), 2);
        assert_eq!(decimals_for(60.0), 0);
    }
}
