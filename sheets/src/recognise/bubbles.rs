//! Deciding each bubble. Its darkness is the mean, over the disc inside its
//! printed ring, of how far each point lies from the paper's grey towards the
//! marks' ink (0 is paper, 1 is as dark as the registration marks). The printed
//! letter gives an empty bubble a little; a bubble filled in pencil reads well over
//! half. Between the two thresholds nothing is guessed: the bubble is unsure and a
//! person decides.

use image::GrayImage;

use crate::layout::{Bubble, Rect, BUBBLE_RADIUS};

use super::geometry::PageGeometry;
use super::levels::Levels;

/// At least this dark: marked.
pub const MARKED: f32 = 0.47;
/// At most this dark: blank.
pub const BLANK: f32 = 0.20;
/// The disc measured: inside the ring (0.3 mm thick), with room for blur and for
/// the few tenths of a millimetre the marks' centres may be off.
const INNER_RADIUS: f32 = BUBBLE_RADIUS - 0.8;
/// The disc is sampled at the scan's resolution, but never coarser than this.
const MIN_PX_PER_MM: f32 = 6.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Marked,
    Blank,
    /// Between the thresholds: a light mark, a poor erasure, a smudge.
    Unsure,
}

/// One bubble as read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BubbleReading {
    pub question: i32,
    /// A grid's row (0 for a choice question).
    pub part: i32,
    pub choice: i32,
    /// 0 (paper) to 1 (the marks' ink).
    pub darkness: f32,
    pub verdict: Verdict,
}

pub fn verdict(darkness: f32) -> Verdict {
    if darkness >= MARKED {
        Verdict::Marked
    } else if darkness <= BLANK {
        Verdict::Blank
    } else {
        Verdict::Unsure
    }
}

pub(crate) fn read_bubble(
    scan: &GrayImage,
    geometry: &PageGeometry,
    levels: Levels,
    bubble: &Bubble,
) -> BubbleReading {
    let px_per_mm = geometry.px_per_mm.max(MIN_PX_PER_MM);
    let square = Rect {
        x: bubble.center.x - INNER_RADIUS,
        y: bubble.center.y - INNER_RADIUS,
        width: 2.0 * INNER_RADIUS,
        height: 2.0 * INNER_RADIUS,
    };
    let crop = geometry.crop(scan, square, px_per_mm);
    let (cx, cy) = (crop.width() as f32 / 2.0, crop.height() as f32 / 2.0);
    let radius = INNER_RADIUS * px_per_mm;
    let (mut sum, mut count) = (0.0f32, 0u32);
    for (x, y, pixel) in crop.enumerate_pixels() {
        if (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy) <= radius {
            sum += levels.darkness(pixel.0[0]);
            count += 1;
        }
    }
    let darkness = if count == 0 { 0.0 } else { sum / count as f32 };
    BubbleReading {
        question: bubble.question,
        part: bubble.part,
        choice: bubble.choice,
        darkness,
        verdict: verdict(darkness),
    }
}
