//! Cutting out an essay's frame: straight, at a resolution a scorer can read
//! handwriting at, as a PNG the upload carries as the answer's image. A frame
//! with next to no ink is left unanswered rather than sent as an empty picture.
//! A short answer's box is cut out the same way; a person types what it holds, so
//! any trace of ink in it is sent to them rather than read as blank. An essay's
//! frame with a trace of ink under the writing threshold (two letters in a large
//! frame) is never dropped either: a person decides whether it is an answer.

use std::io::Cursor;

use image::{GrayImage, ImageFormat};

use crate::layout::{EssayArea, Rect};

use super::geometry::PageGeometry;
use super::levels::Levels;

/// About 200 dpi: handwriting stays legible, and the crops stay small.
pub const ESSAY_PX_PER_MM: f32 = 8.0;
/// Cut inside the printed frame (0.4 mm), so that its line is not read as ink.
const INSET: f32 = 1.2;
/// A point is ink when it is at least this dark (pencil writing reads 0.4 to
/// 0.7; a scanner's noise stays under 0.1) ...
const INK: f32 = 0.35;
/// ... and the frame is written in when this share of it is ink (a single
/// 30 mm stroke in a 40 mm frame is about 0.3 %).
const WRITTEN: f32 = 0.001;
/// A short answer's box is shown to a person from this share of ink (a single
/// 4 mm stroke in the 100 × 14 mm box is about 0.15 %; a clean scan has none),
/// and so is an essay's frame with less ink than [`WRITTEN`].
const TRACE: f32 = 0.0002;

/// An essay's frame as read.
#[derive(Debug, Clone, PartialEq)]
pub struct EssayCrop {
    pub question: i32,
    /// A blank's number; 0 for an essay or one short answer.
    pub part: i32,
    /// The frame's inside, upright, as a PNG.
    pub png: Vec<u8>,
    /// The share of the frame that is ink.
    pub ink: f32,
    /// Whether anything is written in it.
    pub written: bool,
    /// An essay's frame with some ink, under what is surely writing but over a
    /// clean scan's specks (a word or two in a large frame, or a smudge): a
    /// person decides whether it is an answer. Never for a short answer's box,
    /// which goes to a person from any trace.
    pub faint: bool,
}

pub(crate) fn crop_essay(
    scan: &GrayImage,
    geometry: &PageGeometry,
    levels: Levels,
    area: &EssayArea,
) -> Result<EssayCrop, image::ImageError> {
    let inside = Rect {
        x: area.frame.x + INSET,
        y: area.frame.y + INSET,
        width: area.frame.width - 2.0 * INSET,
        height: area.frame.height - 2.0 * INSET,
    };
    let crop = geometry.crop(scan, inside, ESSAY_PX_PER_MM);
    let inked = crop
        .pixels()
        .filter(|pixel| levels.darkness(pixel.0[0]) >= INK)
        .count();
    let ink = inked as f32 / (crop.width() * crop.height()).max(1) as f32;
    let mut png = Vec::new();
    crop.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)?;
    Ok(EssayCrop {
        question: area.question,
        part: area.part,
        png,
        ink,
        written: ink >= if area.typed { TRACE } else { WRITTEN },
        faint: !area.typed && (TRACE..WRITTEN).contains(&ink),
    })
}
