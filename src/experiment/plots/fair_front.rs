//! The figure of `milptree pareto --group-column` ([`FairFrontFigure`]): training accuracy
//! against the gap between the groups, the front as a staircase of points, its two ends
//! (the best tree of gap 0, the most accurate tree) marked. Drawn as SVG and PNG with the
//! figures' shared canvas and font.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::constraints::fairness::FairnessKind;
use crate::error::Result;
use crate::experiment::plots::canvas::{
    self, text, DrawResult, Figure, CAPTION_SIZE, LABEL_SIZE, LEGEND_SIZE, TICK_SIZE, TITLE_SIZE,
};
use crate::experiment::plots::font;
use crate::experiment::plots::front::staircase;
use crate::learn::fair_front::FairFrontDocument;

/// The figure of one front of fairness.
#[derive(Debug, Clone, PartialEq)]
pub struct FairFrontFigure {
    title: String,
    caption: String,
    x_label: String,
    /// (gap, accuracy), by increasing gap.
    points: Vec<(f64, f64)>,
}

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 820;
const FRONT_COLOUR: RGBColor = RGBColor(31, 119, 180);
const FAIR_COLOUR: RGBColor = RGBColor(44, 160, 44);
const BEST_COLOUR: RGBColor = RGBColor(214, 39, 40);

impl FairFrontFigure {
    /// The figure of `document`, titled with the data's name.
    pub fn new(document: &FairFrontDocument, dataset: &str) -> FairFrontFigure {
        let gap = match document.fairness {
            FairnessKind::Parity => "statistical-parity gap",
            FairnessKind::Opportunity => "equal-opportunity gap",
        };
        FairFrontFigure {
            title: format!(
                "{dataset}, depth {}: training accuracy against the {gap}",
                document.depth
            ),
            caption: format!(
                "{} points, complete; groups of `{}`: {}; positive class `{}`",
                document.points.len(),
                document.group_column,
                document.groups.join(", "),
                document.positive_class
            ),
            x_label: format!("{gap} between the groups (training rows)"),
            points: document
                .points
                .iter()
                .map(|p| (p.train.gap, p.train.accuracy))
                .collect(),
        }
    }

    /// Writes the figure to `<stem>.svg` and `<stem>.png`; `Ok(Err(reason))` when no font is
    /// available.
    pub fn save(&self, stem: &Path) -> Result<std::result::Result<Vec<PathBuf>, String>> {
        if let Err(reason) = font::ensure_font() {
            return Ok(Err(reason));
        }
        canvas::save(self, stem).map(Ok)
    }
}

impl Figure for FairFrontFigure {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let body = root.titled(&self.title, text(TITLE_SIZE))?;
        let x_max = self.points.iter().map(|p| p.0).fold(0.01, f64::max);
        let y_low = self.points.iter().map(|p| p.1).fold(1.0, f64::min);
        let y_high = self.points.iter().map(|p| p.1).fold(0.0, f64::max);
        let pad = ((y_high - y_low) * 0.08).max(0.01);
        let mut chart = ChartBuilder::on(&body)
            .caption(&self.caption, text(CAPTION_SIZE))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(
                -0.02 * x_max..x_max * 1.04,
                (y_low - pad).max(0.0)..(y_high + pad).min(1.0),
            )?;
        chart
            .configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc("training accuracy")
            .axis_desc_style(text(LABEL_SIZE))
            .label_style(text(TICK_SIZE))
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(215, 215, 215))
            .max_light_lines(2)
            .x_label_formatter(&|v| format!("{v:.3}"))
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()?;
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
        if let (Some(&fair), Some(&best)) = (self.points.first(), self.points.last()) {
            chart
                .draw_series([TriangleMarker::new(fair, 12, FAIR_COLOUR.filled())])?
                .label(format!("best of gap {:.4}: accuracy {:.4}", fair.0, fair.1))
                .legend(|(x, y)| TriangleMarker::new((x + 12, y), 8, FAIR_COLOUR.filled()));
            chart
                .draw_series([Circle::new(best, 12, BEST_COLOUR.stroke_width(3))])?
                .label(format!(
                    "most accurate: accuracy {:.4}, gap {:.4}",
                    best.1, best.0
                ))
                .legend(|(x, y)| Circle::new((x + 12, y), 8, BEST_COLOUR.stroke_width(3)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font(text(LEGEND_SIZE))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(190, 190, 190))
            .draw()?;
        Ok(())
    }
}
