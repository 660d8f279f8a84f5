//! The figure of a front of `milptree pareto` ([`FrontFigure`]): false positives against false negatives, the front
//! as a staircase of points, the lower-bound front dashed when the search was stopped, the F1-
//! and MCC-optimal points marked, and reference trees (CART, the accuracy-optimal tree) placed
//! in the same plane. Drawn as SVG and PNG with the figures' shared canvas and font.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::Result;
use crate::experiment::plots::canvas::{
    self, text, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, LEGEND_SIZE, TICK_SIZE, TITLE_SIZE,
};
use crate::experiment::plots::font;
use crate::learn::front_document::FrontDocument;
use crate::pareto::Metric;

/// How a marked point is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Triangle,
    Ring,
    Square,
    Cross,
}

impl Marker {
    /// The drawing order: the filled square, the filled triangle, the ring, the cross.
    fn layer(self) -> u8 {
        match self {
            Marker::Square => 0,
            Marker::Triangle => 1,
            Marker::Ring => 2,
            Marker::Cross => 3,
        }
    }
}

/// A marked point with its legend entry.
#[derive(Debug, Clone, PartialEq)]
struct Mark {
    label: String,
    at: (f64, f64),
    marker: Marker,
    colour: RGBColor,
}

/// The figure of one front.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontFigure {
    title: String,
    caption: String,
    points: Vec<(f64, f64)>,
    lower: Option<Vec<(f64, f64)>>,
    marks: Vec<Mark>,
}

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 820;
const FRONT_COLOUR: RGBColor = RGBColor(31, 119, 180);
const BOUND_COLOUR: RGBColor = RGBColor(120, 120, 120);

impl FrontFigure {
    /// The figure of `document`, titled with the data's name.
    pub fn new(document: &FrontDocument, dataset: &str) -> FrontFigure {
        let point = |fp: f64, fn_: f64| (fp, fn_);
        let points: Vec<(f64, f64)> = document
            .points
            .iter()
            .map(|p| point(p.train.fp, p.train.fn_))
            .collect();
        let lower = (!document.complete).then(|| {
            document
                .lower_bound
                .iter()
                .map(|p| point(p.fp, p.fn_))
                .collect()
        });
        let mut marks = Vec::new();
        for (metric, marker, colour, name) in [
            (Metric::F1, Marker::Triangle, RGBColor(214, 39, 40), "F1"),
            (Metric::Mcc, Marker::Ring, RGBColor(148, 103, 189), "MCC"),
        ] {
            if let Some(best) = document.best.get(metric.key()) {
                marks.push(Mark {
                    label: format!(
                        "{name}-optimal: {name} {:.4} (FP {}, FN {})",
                        best.value, best.fp, best.fn_
                    ),
                    at: point(best.fp, best.fn_),
                    marker,
                    colour,
                });
            }
        }
        for reference in &document.references {
            let (marker, colour, name) = match reference.name.as_str() {
                "cart" => (Marker::Square, RGBColor(44, 160, 44), "CART".to_string()),
                "accuracy_optimal" => (
                    Marker::Cross,
                    RGBColor(255, 127, 14),
                    "accuracy-optimal".to_string(),
                ),
                other => (Marker::Cross, RGBColor(140, 86, 75), other.to_string()),
            };
            marks.push(Mark {
                label: format!(
                    "{name}: F1 {:.4}, MCC {:.4} (FP {}, FN {})",
                    reference.train.metrics[Metric::F1.key()],
                    reference.train.metrics[Metric::Mcc.key()],
                    reference.train.fp,
                    reference.train.fn_
                ),
                at: point(reference.train.fp, reference.train.fn_),
                marker,
                colour,
            });
        }
        let status = if document.complete {
            "complete".to_string()
        } else {
            format!(
                "stopped ({}); dashed: lower-bound front",
                serde_json::to_value(document.termination)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            )
        };
        FrontFigure {
            title: format!(
                "{dataset}, depth {}: Pareto front of (false positives, false negatives)",
                document.depth
            ),
            caption: format!(
                "{} points, {status}; positive class `{}` ({} rows), negative `{}` ({} rows); {} {}",
                document.points.len(),
                document.positive_class,
                document.positives,
                document.negative_class,
                document.negatives,
                document.method,
                if document.method == document.solver {
                    String::new()
                } else {
                    document.solver.clone()
                }
            )
            .trim_end()
            .to_string(),
            points,
            lower,
            marks,
        }
    }

    /// Writes the figure to `<stem>.svg` and `<stem>.png`; `Ok(None)` with the reason when no
    /// font is available.
    pub fn save(&self, stem: &Path) -> Result<std::result::Result<Vec<PathBuf>, String>> {
        if let Err(reason) = font::ensure_font() {
            return Ok(Err(reason));
        }
        canvas::save(self, stem).map(Ok)
    }
}

/// The staircase through `points` (sorted by the first coordinate): along the first axis to
/// each point, then along the second.
pub(crate) fn staircase(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut path = Vec::with_capacity(2 * points.len());
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            path.push((x, points[i - 1].1));
        }
        path.push((x, y));
    }
    path
}

impl Figure for FrontFigure {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let body = root.titled(&self.title, text(TITLE_SIZE))?;
        let all = self
            .points
            .iter()
            .chain(self.lower.iter().flatten())
            .chain(self.marks.iter().map(|m| &m.at));
        let (x_max, y_max) = all.fold((1.0f64, 1.0f64), |(x, y), &(a, b)| (x.max(a), y.max(b)));
        let mut chart = ChartBuilder::on(&body)
            .caption(&self.caption, text(CAPTION_SIZE))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.02 * x_max..x_max * 1.04, -0.02 * y_max..y_max * 1.04)?;
        chart
            .configure_mesh()
            .x_desc("false positives (negative rows predicted positive)")
            .y_desc("false negatives (positive rows predicted negative)")
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .max_light_lines(2)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        if let Some(lower) = &self.lower {
            chart
                .draw_series(DashedLineSeries::new(
                    staircase(lower),
                    8,
                    6,
                    BOUND_COLOUR.stroke_width(2),
                ))?
                .label("lower-bound front")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], BOUND_COLOUR));
        }
        chart
            .draw_series(LineSeries::new(
                staircase(&self.points),
                FRONT_COLOUR.mix(0.6).stroke_width(2),
            ))?
            .label(format!("front ({} trees)", self.points.len()))
            .legend(|(x, y)| Circle::new((x + 12, y), 4, FRONT_COLOUR.filled()));
        chart.draw_series(
            self.points
                .iter()
                .map(|&p| Circle::new(p, 4, FRONT_COLOUR.filled())),
        )?;
        // Filled markers first, the largest first, then outlines, the cross small and thin
        // enough to leave the triangle around it in view: marks at one point (the F1- and the
        // accuracy-optimal tree are often one tree) all stay visible.
        let mut order: Vec<&Mark> = self.marks.iter().collect();
        order.sort_by_key(|mark| mark.marker.layer());
        for mark in order {
            let colour = mark.colour;
            let style = colour.stroke_width(3);
            let series = match mark.marker {
                Marker::Triangle => chart
                    .draw_series([TriangleMarker::new(mark.at, 15, colour.filled())])?
                    .legend(move |(x, y)| TriangleMarker::new((x + 12, y), 8, colour.filled())),
                Marker::Ring => chart
                    .draw_series([Circle::new(mark.at, 14, style)])?
                    .legend(move |(x, y)| Circle::new((x + 12, y), 8, colour.stroke_width(3))),
                Marker::Square => chart
                    .draw_series([EmptyElement::at(mark.at)
                        + Rectangle::new([(-8, -8), (8, 8)], colour.filled())])?
                    .legend(move |(x, y)| {
                        Rectangle::new([(x + 6, y - 6), (x + 18, y + 6)], colour.filled())
                    }),
                Marker::Cross => chart
                    .draw_series([Cross::new(mark.at, 7, colour.stroke_width(2))])?
                    .legend(move |(x, y)| Cross::new((x + 12, y), 7, colour.stroke_width(3))),
            };
            series.label(mark.label.clone());
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(text(LEGEND_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(190, 190, 190))
            .draw()?;
        Ok(())
    }
}
