//! Deciding each bubble. Its darkness is the mean, over the disc inside its
//! printed ring, of how far each point lies from the paper's grey towards the
//! marks' ink (0 is paper, 1 is as dark as the registration marks). The printed
//! letter gives an empty bubble a little; a bubble filled in pencil reads well over
//! half. Between the two thresholds nothing is guessed: the bubble is unsure and a
//! person decides. A bubble that reads blank while ink reaches out around it (a
//! tick or a cross over it covers too little of the disc to read as a mark) is
//! unsure too: a marked bubble is never read as blank unseen.

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
/// Around a bubble that reads blank, the ring of paper from this far out (the
/// printed ring ends 0.15 mm out, and a scan's registration may be a few tenths
/// off) ...
const SPILL_FROM: f32 = BUBBLE_RADIUS + 0.6;
/// ... to this far (millimetres) is looked at too: a tick or a cross drawn over
/// the bubble reaches out into it, while its strokes may cover too little of the
/// disc to read as a mark. Nothing printed comes nearer than 4.5 mm to a
/// bubble's centre (the next row's ring is 6.4 mm away; a box under a number's
/// last row 4.5 mm), so the ring stops half a millimetre short of that.
const SPILL_TO: f32 = BUBBLE_RADIUS + 1.4;
/// A point of that ring is ink from this darkness, and this share of it in ink
/// makes the bubble unsure instead of blank: never read as blank unseen.
const SPILL_INK: f32 = 0.5;
const SPILL_SHARE: f32 = 0.005;

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
    let disc = ring(scan, geometry, bubble, (0.0, INNER_RADIUS), px_per_mm);
    let darkness = if disc.is_empty() {
        0.0
    } else {
        disc.iter().map(|grey| levels.darkness(*grey)).sum::<f32>() / disc.len() as f32
    };
    let verdict = match verdict(darkness) {
        Verdict::Blank if spills(scan, geometry, levels, bubble) => Verdict::Unsure,
        decided => decided,
    };
    BubbleReading {
        question: bubble.question,
        part: bubble.part,
        choice: bubble.choice,
        darkness,
        verdict,
    }
}

/// Whether ink reaches out around the bubble (a tick's or a cross's strokes),
/// sampled at [`MIN_PX_PER_MM`]: the ring from [`SPILL_FROM`] to [`SPILL_TO`].
fn spills(scan: &GrayImage, geometry: &PageGeometry, levels: Levels, bubble: &Bubble) -> bool {
    let around = ring(
        scan,
        geometry,
        bubble,
        (SPILL_FROM, SPILL_TO),
        MIN_PX_PER_MM,
    );
    let ink = around
        .iter()
        .filter(|grey| levels.darkness(**grey) >= SPILL_INK)
        .count();
    !around.is_empty() && ink as f32 / around.len() as f32 >= SPILL_SHARE
}

/// The scan's greys from `from` to `to` millimetres from `bubble`'s centre (a
/// disc from 0), straightened at `px_per_mm`.
fn ring(
    scan: &GrayImage,
    geometry: &PageGeometry,
    bubble: &Bubble,
    (from, to): (f32, f32),
    px_per_mm: f32,
) -> Vec<u8> {
    let square = Rect {
        x: bubble.center.x - to,
        y: bubble.center.y - to,
        width: 2.0 * to,
        height: 2.0 * to,
    };
    let crop = geometry.crop(scan, square, px_per_mm);
    let (cx, cy) = (crop.width() as f32 / 2.0, crop.height() as f32 / 2.0);
    let (from, to) = (from * px_per_mm, to * px_per_mm);
    crop.enumerate_pixels()
        .filter(|(x, y, _)| {
            (from..=to).contains(&(*x as f32 + 0.5 - cx).hypot(*y as f32 + 0.5 - cy))
        })
        .map(|(_, _, pixel)| pixel.0[0])
        .collect()
}
