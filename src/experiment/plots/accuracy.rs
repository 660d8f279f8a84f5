//! Train and test accuracy of the greedy tree and of each formulation's tree: one figure per
//! depth, a panel per dataset, four bars per formulation (greedy train, greedy test, optimal
//! train, optimal test; medians over seeds, solvers and warm starts).

use std::collections::{BTreeMap, BTreeSet};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::experiment::plots::canvas::{
    text, text_width, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, LEGEND_SIZE, TICK_SIZE,
    TITLE_SIZE,
};
use crate::experiment::row::Row;
use crate::experiment::summary::stats::median;

/// The four bars of one formulation (`None`: unknown).
#[derive(Debug, Clone)]
struct Bars {
    formulation: String,
    values: [Option<f64>; 4],
}

/// One dataset's panel.
#[derive(Debug, Clone)]
struct Panel {
    dataset: String,
    bars: Vec<Bars>,
}

/// The figure of one depth.
#[derive(Debug, Clone)]
pub struct AccuracyFigure {
    title: String,
    panels: Vec<Panel>,
    columns: usize,
    y_low: f64,
}

const SERIES: [(&str, RGBColor); 4] = [
    ("greedy, train", RGBColor(190, 190, 190)),
    ("greedy, test", RGBColor(100, 100, 100)),
    ("optimal tree, train", RGBColor(140, 180, 230)),
    ("optimal tree, test", RGBColor(31, 90, 170)),
];

const SUBTITLE: &str = "medians over seeds, solvers and warm starts; bar labels in %";
const PANEL_WIDTH: u32 = 520;
const PANEL_HEIGHT: u32 = 380;
const HEADER_HEIGHT: u32 = 90;

/// One figure per depth, with its file stem (`accuracy-d<depth>`).
pub fn accuracy_figures(rows: &[Row]) -> Vec<(String, AccuracyFigure)> {
    let depths: BTreeSet<usize> = rows.iter().map(|r| r.depth).collect();
    depths
        .into_iter()
        .map(|depth| {
            let at_depth: Vec<&Row> = rows.iter().filter(|r| r.depth == depth).collect();
            let mut by_dataset: BTreeMap<&str, BTreeMap<&str, Vec<&Row>>> = BTreeMap::new();
            for row in &at_depth {
                by_dataset
                    .entry(&row.dataset)
                    .or_default()
                    .entry(&row.formulation)
                    .or_default()
                    .push(row);
            }
            let mut lowest: f64 = 1.0;
            let panels: Vec<Panel> = by_dataset
                .into_iter()
                .map(|(dataset, formulations)| Panel {
                    dataset: dataset.to_string(),
                    bars: formulations
                        .into_iter()
                        .map(|(formulation, runs)| {
                            let med = |f: fn(&Row) -> Option<f64>| {
                                median(runs.iter().filter_map(|r| f(r)).collect())
                            };
                            let values = [
                                med(|r| r.greedy_train_accuracy),
                                med(|r| r.greedy_test_accuracy),
                                med(|r| r.train_accuracy),
                                med(|r| r.test_accuracy),
                            ];
                            for v in values.iter().flatten() {
                                lowest = lowest.min(*v);
                            }
                            Bars {
                                formulation: formulation.to_string(),
                                values,
                            }
                        })
                        .collect(),
                })
                .collect();
            let columns = panels.len().clamp(1, 3);
            let figure = AccuracyFigure {
                title: format!("Accuracy at depth {depth}: greedy tree vs optimal tree"),
                panels,
                columns,
                // A tenth below the lowest bar, so differences show.
                y_low: ((lowest - 0.1) * 10.0).floor().max(0.0) / 10.0,
            };
            (format!("accuracy-d{depth}"), figure)
        })
        .collect()
}

impl Figure for AccuracyFigure {
    fn size(&self) -> (u32, u32) {
        let rows = self.panels.len().div_ceil(self.columns).max(1) as u32;
        // At least as wide as the header's longest line, so one panel does not cut it.
        let legend: u32 = SERIES
            .iter()
            .map(|(name, _)| 24 + text_width(name, LEGEND_SIZE) + 30)
            .sum();
        let header = [
            text_width(&self.title, TITLE_SIZE),
            text_width(SUBTITLE, LABEL_SIZE),
            legend,
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
            + 40;
        (
            (PANEL_WIDTH * self.columns as u32).max(header),
            HEADER_HEIGHT + PANEL_HEIGHT * rows,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (header, body) = root.split_vertically(HEADER_HEIGHT);
        header.draw_text(&self.title, &text(TITLE_SIZE), (20, 10))?;
        header.draw_text(
            SUBTITLE,
            &text(LABEL_SIZE).color(&RGBColor(90, 90, 90)),
            (20, 42),
        )?;
        let mut x = 20;
        for (name, colour) in SERIES {
            header.draw(&Rectangle::new([(x, 66), (x + 18, 84)], colour.filled()))?;
            header.draw_text(name, &text(LEGEND_SIZE), (x + 24, 67))?;
            let (width, _) = header.estimate_text_size(name, &text(LEGEND_SIZE))?;
            x += 24 + width as i32 + 30;
        }
        let rows = self.panels.len().div_ceil(self.columns).max(1);
        let areas = body.split_evenly((rows, self.columns));
        for (panel, area) in self.panels.iter().zip(areas.iter()) {
            self.draw_panel(area, panel)?;
        }
        Ok(())
    }
}

impl AccuracyFigure {
    fn draw_panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        panel: &Panel,
    ) -> DrawResult<DB> {
        let n = panel.bars.len().max(1);
        let names: Vec<String> = panel.bars.iter().map(|b| b.formulation.clone()).collect();
        // Headroom above 100% so the labels of full bars stay clear of the panel's caption.
        let y_high = 1.0 + 0.08 * (1.0 - self.y_low);
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.dataset, text(CAPTION_SIZE))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), self.y_low..y_high)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|v| {
                let i = v.round();
                if (v - i).abs() < 1e-9 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc("formulation")
            .y_desc("accuracy")
            .max_light_lines(1)
            .y_label_formatter(&|v| {
                if *v > 1.0 + 1e-9 {
                    String::new()
                } else {
                    format!("{:.0}%", 100.0 * v)
                }
            })
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        let width = 0.8 / SERIES.len() as f64;
        for (i, bars) in panel.bars.iter().enumerate() {
            for (k, value) in bars.values.iter().enumerate() {
                let Some(value) = value else { continue };
                let left = i as f64 - 0.4 + k as f64 * width;
                chart.draw_series([Rectangle::new(
                    [(left + 0.01, self.y_low), (left + width - 0.01, *value)],
                    SERIES[k].1.filled(),
                )])?;
                let label = format!("{:.1}", 100.0 * value);
                let style = text(TICK_SIZE - 2).pos(Pos::new(HPos::Center, VPos::Bottom));
                chart.draw_series([Text::new(label, (left + width / 2.0, *value), style)])?;
            }
        }
        Ok(())
    }
}
