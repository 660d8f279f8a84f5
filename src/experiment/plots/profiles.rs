//! Performance profiles of time to optimality (see [`crate::experiment::profile`]): one figure
//! per warm-start setting, a curve per formulation and solver.

use std::collections::{BTreeMap, BTreeSet};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::experiment::plots::canvas::{
    colour, draw_line_legend, text, DrawResult, Figure, LABEL_SIZE, TICK_SIZE, TITLE_SIZE,
};
use crate::experiment::profile::{performance_profile, Profile};
use crate::experiment::row::Row;
use crate::experiment::summary::time_to_optimality;

/// Columns of the legend below the chart.
const LEGEND_COLUMNS: usize = 2;

/// The figure of one warm-start setting.
#[derive(Debug, Clone)]
pub struct ProfileFigure {
    title: String,
    profile: Profile,
}

/// The profile of the runs of `rows` with warm start `warm_start`: problems are dataset,
/// depth, split and time limit; configurations are formulation × solver.
pub fn profile_of(rows: &[Row], warm_start: &str) -> Profile {
    let mut times = BTreeMap::new();
    for row in rows.iter().filter(|r| r.warm_start.name() == warm_start) {
        let problem = format!(
            "{}|{}|{}|{}|{}",
            row.dataset, row.depth, row.seed, row.test_fraction, row.time_limit
        );
        let configuration = format!("{} · {}", row.formulation, row.solver_label());
        times.insert((problem, configuration), time_to_optimality(row));
    }
    performance_profile(&times)
}

/// One figure per warm-start setting present, with its file stem (`profile-<warm start>`).
pub fn profile_figures(rows: &[Row]) -> Vec<(String, ProfileFigure)> {
    let warm_starts: BTreeSet<&str> = rows.iter().map(|r| r.warm_start.name()).collect();
    warm_starts
        .into_iter()
        .filter_map(|warm_start| {
            let profile = profile_of(rows, warm_start);
            if profile.problems == 0 {
                return None;
            }
            let setting = match warm_start {
                "none" => "cold start".to_string(),
                "greedy" => "greedy warm start".to_string(),
                other => other.to_string(),
            };
            let title = format!(
                "Performance profile: time to optimality, {setting} ({} problems)",
                profile.problems
            );
            Some((
                format!("profile-{warm_start}"),
                ProfileFigure { title, profile },
            ))
        })
        .collect()
}

impl ProfileFigure {
    /// Height of the legend below the chart.
    fn legend_height(&self) -> u32 {
        20 + 26 * self.profile.curves.len().div_ceil(LEGEND_COLUMNS) as u32
    }
}

impl Figure for ProfileFigure {
    fn size(&self) -> (u32, u32) {
        (1100, 700 + self.legend_height())
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (height, legend_height) = (self.size().1, self.legend_height());
        let (plot, legend) = root.split_vertically(height - legend_height);
        let failure = self.profile.failure_ratio;
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, text(TITLE_SIZE - 2))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d((1f64..failure).log_scale().base(2.0), -0.03f64..1.05f64)?;
        chart
            .configure_mesh()
            .x_desc("τ: time to optimality / fastest time on the problem (log₂ scale)")
            .y_desc("fraction of problems solved within τ")
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .x_label_formatter(&|v| {
                format!("{v:.3}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            })
            .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
            .max_light_lines(1)
            .draw()?;
        let mut entries = Vec::new();
        for (index, curve) in self.profile.curves.iter().enumerate() {
            let colour = colour(index);
            entries.push((
                format!(
                    "{} (optimal on {} of {})",
                    curve.label, curve.solved, self.profile.problems
                ),
                colour,
            ));
            let mut line = vec![(1.0, 0.0)];
            for &(tau, fraction) in &curve.steps {
                let previous = line.last().map_or(0.0, |p| p.1);
                line.push((tau, previous));
                line.push((tau, fraction));
            }
            let last = line.last().map_or(0.0, |p| p.1);
            line.push((failure, last));
            chart.draw_series(LineSeries::new(line, colour.stroke_width(3)))?;
        }
        if self.profile.curves.iter().all(|c| c.solved == 0) {
            chart.draw_series([Text::new(
                "no run proved optimality within its time limit",
                (1.02, 0.5),
                text(LABEL_SIZE + 2).color(&RGBColor(90, 90, 90)),
            )])?;
        }
        draw_line_legend(&legend, &entries, LEGEND_COLUMNS)?;
        Ok(())
    }
}
