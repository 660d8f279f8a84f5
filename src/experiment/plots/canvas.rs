//! Drawing one figure twice, as SVG and as PNG, through the [`Figure`] trait, and the style
//! shared by every figure (sizes, colours).

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::experiment::plots::font::FAMILY;

/// The result of drawing on a backend `DB`.
pub type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A figure that can be drawn on any backend.
pub trait Figure {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the figure on `root` (already filled white).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// Writes `figure` to `<stem>.svg` and `<stem>.png`; returns both paths.
pub fn save(figure: &impl Figure, stem: &Path) -> Result<Vec<PathBuf>> {
    let failed = |path: &Path, message: String| Error::Output {
        path: path.display().to_string(),
        source: std::io::Error::other(message),
    };
    let svg = stem.with_extension("svg");
    {
        let root = SVGBackend::new(&svg, figure.size()).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|()| figure.draw(&root).map_err(|e| e.to_string()))
            .and_then(|()| root.present().map_err(|e| e.to_string()))
            .map_err(|e| failed(&svg, e))?;
    }
    let png = stem.with_extension("png");
    {
        let root = BitMapBackend::new(&png, figure.size()).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|()| figure.draw(&root).map_err(|e| e.to_string()))
            .and_then(|()| root.present().map_err(|e| e.to_string()))
            .map_err(|e| failed(&png, e))?;
    }
    Ok(vec![svg, png])
}

/// Font sizes in pixels.
pub const TITLE_SIZE: u32 = 26;
pub const CAPTION_SIZE: u32 = 19;
pub const LABEL_SIZE: u32 = 16;
pub const TICK_SIZE: u32 = 14;
pub const LEGEND_SIZE: u32 = 14;

/// The text style of `size` pixels.
pub fn text(size: u32) -> TextStyle<'static> {
    (FAMILY, size).into_font().into()
}

/// Distinguishable colours (Tableau 10), cycled.
pub fn colour(index: usize) -> RGBColor {
    const PALETTE: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    PALETTE[index % PALETTE.len()]
}

/// Draws a legend of line swatches and labels in `columns` columns, rows of 26 pixels, from the
/// top left of `area` (padded by 20 pixels).
pub fn draw_line_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
    columns: usize,
) -> DrawResult<DB> {
    let (width, _) = area.dim_in_pixel();
    let column_width = (width.saturating_sub(40) / columns.max(1) as u32) as i32;
    for (index, (label, colour)) in entries.iter().enumerate() {
        let x = 20 + (index % columns.max(1)) as i32 * column_width;
        let y = 10 + (index / columns.max(1)) as i32 * 26;
        area.draw(&PathElement::new(
            [(x, y + 9), (x + 30, y + 9)],
            colour.stroke_width(4),
        ))?;
        area.draw_text(label, &text(LEGEND_SIZE + 2), (x + 40, y))?;
    }
    Ok(())
}

/// Draws a header: `title` at the top left, then the `legend`'s line swatches and labels in one
/// row, each `spacing` pixels from the last; returns the x where the row ends, for a caption.
pub fn draw_title_and_legend<DB: DrawingBackend>(
    header: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[(&str, RGBColor)],
    spacing: i32,
) -> std::result::Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    header.draw_text(title, &text(TITLE_SIZE), (20, 10))?;
    let mut x = 20;
    for (label, colour) in legend {
        header.draw(&PathElement::new(
            [(x, 56), (x + 30, 56)],
            colour.stroke_width(4),
        ))?;
        header.draw_text(label, &text(LEGEND_SIZE + 2), (x + 40, 47))?;
        x += spacing;
    }
    Ok(x)
}

/// The width in pixels of `label` drawn at `size` by the figures' font (the embedded DejaVu
/// Sans); a generous guess, a full em per character, when the font cannot be used.
pub fn text_width(label: &str, size: u32) -> u32 {
    let guess = label.chars().count() as u32 * size;
    if super::font::ensure_font().is_err() {
        return guess;
    }
    text(size)
        .font
        .box_size(label)
        .map_or(guess, |(width, _)| width)
}

/// The name a figure's title gives the data file `data`: its stem, or the whole path.
pub fn data_name(data: &Path) -> String {
    data.file_stem().map_or_else(
        || data.display().to_string(),
        |stem| stem.to_string_lossy().into_owned(),
    )
}
