//! The figure of a tuning run: the mean validation metric (with one standard deviation either
//! side) and the mean training metric of every configuration, against the depth when only the
//! depth varies, else against the mean number of leaves; the chosen configuration circled.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::experiment::plots::canvas::{
    self, colour, text, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, TICK_SIZE,
};
use crate::experiment::plots::font::ensure_font;
use crate::tune::{Config, ConfigRow, TuneMetric, TuneResult};

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 640;
const HEADER: u32 = 80;

struct TuneFigure<'a> {
    title: String,
    metric: TuneMetric,
    x_label: &'static str,
    /// `(x, validation mean, sd, train mean, chosen)` per configuration with a score.
    points: Vec<(f64, f64, f64, Option<f64>, bool)>,
    rows: &'a [ConfigRow],
}

/// Whether the configurations differ in their depth only.
pub(crate) fn depth_only(rows: &[ConfigRow]) -> bool {
    let key = |c: &Config| Config { depth: None, ..*c };
    rows.iter()
        .all(|r| r.config.depth.is_some() && key(&r.config) == key(&rows[0].config))
}

/// Draws the figure of `result` to `<stem>.svg` and `<stem>.png`.
pub fn draw(
    stem: &Path,
    result: &TuneResult,
    metric: TuneMetric,
    data: &Path,
) -> Result<Vec<PathBuf>> {
    ensure_font().map_err(|reason| Error::Output {
        path: stem.display().to_string(),
        source: std::io::Error::other(reason),
    })?;
    let by_depth = depth_only(&result.rows);
    let points = result
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let x = if by_depth {
                row.config.depth.map(|d| d as f64)
            } else {
                row.leaves_mean
            }?;
            Some((
                x,
                row.mean?,
                row.sd.unwrap_or(0.0),
                row.train_mean,
                result.chosen == Some(i),
            ))
        })
        .collect();
    let name = canvas::data_name(data);
    let figure = TuneFigure {
        title: format!("Cross-validated {metric} on {name}"),
        metric,
        x_label: if by_depth { "depth" } else { "mean leaves" },
        points,
        rows: &result.rows,
    };
    canvas::save(&figure, stem)
}

impl Figure for TuneFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (header, body) = root.split_vertically(HEADER);
        let x = canvas::draw_title_and_legend(
            &header,
            &self.title,
            &[
                ("validation (mean, +/- 1 sd)", colour(0)),
                ("train (mean)", colour(1)),
            ],
            300,
        )?;
        header.draw_text(
            &format!("circled: chosen; {} configurations", self.rows.len()),
            &text(LABEL_SIZE).color(&RGBColor(90, 90, 90)),
            (x, 47),
        )?;
        let xs = self.points.iter().map(|p| p.0);
        let (x_low, x_high) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
        let (x_low, x_high) = if x_low.is_finite() {
            (x_low - 0.5, x_high + 0.5)
        } else {
            (0.0, 1.0)
        };
        let ys: Vec<f64> = self
            .points
            .iter()
            .flat_map(|p| [p.1 - p.2, p.1 + p.2].into_iter().chain(p.3))
            .collect();
        let y_high = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let y_low = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let (y_low, y_high) = if y_low.is_finite() {
            let pad = ((y_high - y_low) * 0.08).max(0.01);
            (y_low - pad, y_high + pad)
        } else {
            (0.0, 1.0)
        };
        let mut chart = ChartBuilder::on(&body)
            .caption(
                format!("{} against {}", self.metric, self.x_label),
                text(CAPTION_SIZE),
            )
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x_low..x_high, y_low..y_high)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label)
            .y_desc(self.metric.name())
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        let mut points = self.points.clone();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let validation: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.1)).collect();
        chart.draw_series(LineSeries::new(
            validation.clone(),
            colour(0).stroke_width(3),
        ))?;
        chart.draw_series(points.iter().map(|p| {
            PathElement::new(
                [(p.0, p.1 - p.2), (p.0, p.1 + p.2)],
                colour(0).stroke_width(2),
            )
        }))?;
        chart.draw_series(
            validation
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 5, colour(0).filled())),
        )?;
        let train: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| p.3.map(|t| (p.0, t)))
            .collect();
        chart.draw_series(LineSeries::new(train.clone(), colour(1).stroke_width(3)))?;
        chart.draw_series(
            train
                .iter()
                .map(|&(x, y)| TriangleMarker::new((x, y), 6, colour(1).filled())),
        )?;
        chart.draw_series(
            points
                .iter()
                .filter(|p| p.4)
                .map(|p| Circle::new((p.0, p.1), 12, colour(3).stroke_width(3))),
        )?;
        Ok(())
    }
}
