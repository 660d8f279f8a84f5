//! The font of the figures. Plotters draws text with `ab_glyph` from a font file registered at
//! run time (no fontconfig or freetype needed): the file named by `MILPTREE_FONT`, or the first
//! of the usual places of DejaVu Sans or Liberation Sans (Debian and Ubuntu:
//! `fonts-dejavu-core`, which `scripts/setup` installs). Without a font no figure is drawn.

use std::path::PathBuf;
use std::sync::OnceLock;

use plotters::style::{register_font, FontStyle};

/// The environment variable naming a TrueType or OpenType font file for the figures.
pub const FONT_VARIABLE: &str = "MILPTREE_FONT";

/// The font family name the figures use.
pub const FAMILY: &str = "sans-serif";

const CANDIDATES: [&str; 8] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/Library/Fonts/Arial.ttf",
];

/// Registers the font once per process; the path used, or why there is none.
pub fn ensure_font() -> Result<PathBuf, String> {
    static FONT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FONT.get_or_init(load).clone()
}

fn load() -> Result<PathBuf, String> {
    let candidates: Vec<PathBuf> = match std::env::var_os(FONT_VARIABLE) {
        Some(path) => vec![PathBuf::from(path)],
        None => CANDIDATES.iter().map(PathBuf::from).collect(),
    };
    for path in &candidates {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        // Plotters keeps registered fonts for the life of the process.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        return match register_font(FAMILY, FontStyle::Normal, bytes) {
            Ok(()) => Ok(path.clone()),
            Err(_) => Err(format!("{} is not a usable font file", path.display())),
        };
    }
    Err(match std::env::var_os(FONT_VARIABLE) {
        Some(path) => format!(
            "{FONT_VARIABLE}={} cannot be read",
            PathBuf::from(path).display()
        ),
        None => format!(
            "no font found (install fonts-dejavu-core, or set {FONT_VARIABLE} to a .ttf file)"
        ),
    })
}
