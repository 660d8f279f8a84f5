//! The figure of a regularisation path: on the left, the training loss (and the test loss,
//! when there is a test set) against the number of leaves, each point labelled with its
//! penalty, so the knee shows; on the right, the leaves against the penalty (log scale).

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::cli::path::PathRow;
use crate::error::{Error, Result};
use crate::experiment::plots::canvas::{
    self, colour, text, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, TICK_SIZE,
};
use crate::experiment::plots::font::ensure_font;

const WIDTH: u32 = 1300;
const HEIGHT: u32 = 620;
const HEADER: u32 = 80;

struct PathFigure<'a> {
    title: String,
    objective: &'a str,
    rows: &'a [PathRow],
}

/// Draws the figure of `rows` to `<stem>.svg` and `<stem>.png`.
pub fn draw(stem: &Path, rows: &[PathRow], objective: &str, data: &Path) -> Result<Vec<PathBuf>> {
    ensure_font().map_err(|reason| Error::Output {
        path: stem.display().to_string(),
        source: std::io::Error::other(reason),
    })?;
    if let Some(dir) = stem.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| Error::Output {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let name = canvas::data_name(data);
    let figure = PathFigure {
        title: format!("Regularisation path on {name} ({objective})"),
        objective,
        rows,
    };
    canvas::save(&figure, stem)
}

impl Figure for PathFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (header, body) = root.split_vertically(HEADER);
        let mut legend = vec![("train loss", colour(0))];
        if self.rows.iter().any(|r| r.test.is_some()) {
            legend.push(("test loss", colour(1)));
        }
        let x = canvas::draw_title_and_legend(&header, &self.title, &legend, 200)?;
        header.draw_text(
            "points labelled with their leaf penalty",
            &text(LABEL_SIZE).color(&RGBColor(90, 90, 90)),
            (x + 20, 47),
        )?;
        let (left, right) = body.split_horizontally(WIDTH * 62 / 100);
        self.draw_loss(&left)?;
        self.draw_leaves(&right)
    }
}

impl PathFigure<'_> {
    fn draw_loss<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let leaves_max = self.rows.iter().map(|r| r.leaves).max().unwrap_or(1).max(2) as f64;
        let losses: Vec<f64> = self
            .rows
            .iter()
            .flat_map(|r| std::iter::once(r.train.loss).chain(r.test.map(|t| t.loss)))
            .collect();
        let high = losses.iter().copied().fold(0.0f64, f64::max);
        let low = losses.iter().copied().fold(high, f64::min);
        let pad = ((high - low) * 0.1).max(0.01);
        let mut chart = ChartBuilder::on(area)
            .caption("loss against leaves", text(CAPTION_SIZE))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0.5f64..leaves_max + 0.5, (low - pad).max(0.0)..high + pad)?;
        chart
            .configure_mesh()
            .x_desc("leaves")
            .y_desc(format!("loss (1 - {})", self.objective))
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        let mut train: Vec<(f64, f64)> = self
            .rows
            .iter()
            .map(|r| (r.leaves as f64, r.train.loss))
            .collect();
        train.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        chart.draw_series(LineSeries::new(train.clone(), colour(0).stroke_width(3)))?;
        chart.draw_series(
            train
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 5, colour(0).filled())),
        )?;
        let mut test: Vec<(f64, f64)> = self
            .rows
            .iter()
            .filter_map(|r| r.test.map(|t| (r.leaves as f64, t.loss)))
            .collect();
        if !test.is_empty() {
            test.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
            chart.draw_series(LineSeries::new(test.clone(), colour(1).stroke_width(3)))?;
            chart.draw_series(
                test.iter()
                    .map(|&(x, y)| TriangleMarker::new((x, y), 6, colour(1).filled())),
            )?;
        }
        // One label per distinct tree size: the penalties that gave it.
        let mut labelled: Vec<(usize, f64, Vec<f64>)> = Vec::new();
        for row in self.rows {
            match labelled
                .iter_mut()
                .find(|(leaves, _, _)| *leaves == row.leaves)
            {
                Some((_, _, lambdas)) => lambdas.push(row.lambda),
                None => labelled.push((row.leaves, row.train.loss, vec![row.lambda])),
            }
        }
        let style = text(TICK_SIZE - 1)
            .color(&RGBColor(60, 60, 60))
            .pos(Pos::new(HPos::Left, VPos::Bottom));
        for (leaves, loss, lambdas) in labelled {
            let label = match lambdas.as_slice() {
                [one] => format!("{one:.3e}"),
                many => format!(
                    "{:.2e}..{:.2e}",
                    many.first().copied().unwrap_or_default(),
                    many.last().copied().unwrap_or_default()
                ),
            };
            chart.draw_series([Text::new(label, (leaves as f64 + 0.1, loss), style.clone())])?;
        }
        Ok(())
    }

    fn draw_leaves<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let lambdas: Vec<f64> = self.rows.iter().map(|r| r.lambda).collect();
        let low = lambdas.iter().copied().fold(f64::INFINITY, f64::min);
        let high = lambdas.iter().copied().fold(0.0f64, f64::max);
        let (low, high) = if high > low {
            (low / 1.3, high * 1.3)
        } else {
            (low / 2.0, high * 2.0)
        };
        let leaves_max = self.rows.iter().map(|r| r.leaves).max().unwrap_or(1) as f64;
        let mut chart = ChartBuilder::on(area)
            .caption("leaves against penalty", text(CAPTION_SIZE))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d((low..high).log_scale(), 0.0f64..leaves_max + 1.0)?;
        chart
            .configure_mesh()
            .x_desc("leaf penalty (log scale)")
            .y_desc("leaves")
            .x_label_formatter(&|v| format!("{v:.0e}"))
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        let points: Vec<(f64, f64)> = self
            .rows
            .iter()
            .map(|r| (r.lambda, r.leaves as f64))
            .collect();
        chart.draw_series(LineSeries::new(points.clone(), colour(2).stroke_width(3)))?;
        chart.draw_series(
            points
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 5, colour(2).filled())),
        )?;
        Ok(())
    }
}
