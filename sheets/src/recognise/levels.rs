//! What every step of reading a scan shares: why a scan cannot be read, and the
//! paper's and the ink's grey as this scan shows them.

use crate::code::CodeError;

#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("not an image this reader knows (PNG, JPEG or TIFF): {0}")]
    Image(String),
    #[error(
        "the image is {width}×{height} pixels; a page scanned at 150 dpi is at least 1240 wide"
    )]
    TooSmall { width: u32, height: u32 },
    #[error("no registration mark found near the scan's {0} corner: scan the whole page, flat on the glass, with the lid closed and even light (a shadow or a dark edge hides the mark), or print the sheet again if the corner is torn or written over")]
    Mark(&'static str),
    #[error("the registration marks found do not form an answer sheet's page")]
    Geometry,
    #[error("no sheet code could be read on the page, either way up")]
    NoCode,
    #[error("the page's code: {0}")]
    Code(#[from] CodeError),
}

/// The paper's grey and the marks' ink, as this scan shows them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Levels {
    pub(super) paper: f32,
    pub(super) ink: f32,
}

impl Levels {
    /// 0 for paper, 1 for ink, clamped.
    pub fn darkness(&self, grey: u8) -> f32 {
        ((self.paper - f32::from(grey)) / (self.paper - self.ink)).clamp(0.0, 1.0)
    }
}
