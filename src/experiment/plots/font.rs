//! The font of the figures: DejaVu Sans, embedded in the binary (`assets/fonts/`, next to its
//! licence), so that the figures are the same on every machine and need no font installed.
//! Plotters draws text with `ab_glyph` from fonts registered at run time; this module
//! registers the embedded one under [`FAMILY`].

use std::sync::OnceLock;

use plotters::style::{register_font, FontStyle};

/// The font family name the figures use.
pub const FAMILY: &str = "sans-serif";

/// DejaVu Sans 2.37 (`assets/fonts/DejaVuSans.ttf`, licence in `LICENSE-DejaVu.txt`).
pub static DEJAVU_SANS: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Registers the embedded font once per process; why it cannot be, if it cannot.
pub fn ensure_font() -> Result<(), String> {
    static FONT: OnceLock<Result<(), String>> = OnceLock::new();
    FONT.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS)
            .map_err(|_| "the embedded DejaVu Sans is not a usable font".to_string())
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_is_dejavu_sans_and_registers() {
        // A TrueType file (version 1.0 tag) whose name table names DejaVu Sans.
        assert_eq!(&DEJAVU_SANS[..4], &[0, 1, 0, 0]);
        let name = b"DejaVu Sans";
        assert!(DEJAVU_SANS.windows(name.len()).any(|w| w == name));
        assert_eq!(ensure_font(), Ok(()));
    }
}
