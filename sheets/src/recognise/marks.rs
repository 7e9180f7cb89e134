//! Finding the four registration marks: in each corner of the scan, the dark
//! connected region that is solid, square and about a mark's size, nearest to
//! where the mark should be. Searching only the corners keeps the work small and
//! keeps the header's text, the code and the bubbles out of the choice.

use image::{GrayImage, Luma};
use imageproc::region_labelling::{connected_components, Connectivity};

use crate::layout::{MARK_INSET, MARK_SIDE, PAGE_WIDTH};

use super::levels::ScanError;

/// How far from each corner a mark is looked for, in millimetres of the nominal
/// page: room for 5 degrees of rotation, a 10 mm shift and a 10 % scale.
const SEARCH: f32 = 62.0;
/// A dark region is a mark when its bounding box is this close to a mark's size
/// (a square rotated by 5 degrees grows its box by 9 %), ...
const SIZE_MIN: f32 = 0.7;
const SIZE_MAX: f32 = 1.45;
/// ... it is about as wide as high (a mark cut by the scan's edge is not: its
/// centre would be wrong), ...
const ASPECT_MAX: f32 = 1.15;
/// ... and it fills most of that box (a rotated square fills 84 % at 5 degrees;
/// a filled bubble, a circle, fills 79 % and is too small besides).
const FILL_MIN: f32 = 0.72;

/// A mark as found: its centre in the scan, and how dark its ink is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FoundMark {
    pub x: f32,
    pub y: f32,
    pub ink: f32,
}

#[derive(Default, Clone, Copy)]
struct Region {
    count: u32,
    min_x: u32,
    max_x: u32,
    min_y: u32,
    max_y: u32,
    sum_x: u64,
    sum_y: u64,
    sum_grey: u64,
}

const CORNERS: [&str; 4] = ["top left", "top right", "bottom right", "bottom left"];

/// The marks in the scan's corners: top left, top right, bottom right, bottom left
/// as the scan lies (a page upside down has its bottom right mark top left).
pub(crate) fn find_marks(image: &GrayImage, threshold: u8) -> Result<[FoundMark; 4], ScanError> {
    let (width, height) = image.dimensions();
    let px_per_mm = width as f32 / PAGE_WIDTH;
    let window = ((SEARCH * px_per_mm) as u32).min(width / 2).min(height / 2);
    let mut found = [FoundMark {
        x: 0.0,
        y: 0.0,
        ink: 0.0,
    }; 4];
    for (corner, name) in CORNERS.iter().enumerate() {
        let right = corner == 1 || corner == 2;
        let bottom = corner >= 2;
        let left = if right { width - window } else { 0 };
        let top = if bottom { height - window } else { 0 };
        // Where the mark's centre would be on an unmoved scan, in the window.
        let inset = MARK_INSET * px_per_mm;
        let expected_x = if right { window as f32 - inset } else { inset };
        let expected_y = if bottom { window as f32 - inset } else { inset };
        let mark = find_in_window(
            image,
            (left, top),
            window,
            threshold,
            px_per_mm,
            (expected_x, expected_y),
        )
        .ok_or(ScanError::Mark(name))?;
        found[corner] = FoundMark {
            x: left as f32 + mark.x,
            y: top as f32 + mark.y,
            ink: mark.ink,
        };
    }
    Ok(found)
}

fn find_in_window(
    image: &GrayImage,
    (left, top): (u32, u32),
    window: u32,
    threshold: u8,
    px_per_mm: f32,
    expected: (f32, f32),
) -> Option<FoundMark> {
    let dark = GrayImage::from_fn(window, window, |x, y| {
        let Luma([grey]) = *image.get_pixel(left + x, top + y);
        Luma([u8::from(grey < threshold)])
    });
    let labels = connected_components(&dark, Connectivity::Eight, Luma([0u8]));
    let mut regions: Vec<Region> = Vec::new();
    for (x, y, label) in labels.enumerate_pixels() {
        let label = label.0[0] as usize;
        if label == 0 {
            continue;
        }
        if regions.len() < label {
            regions.resize(label, Region::default());
        }
        let region = &mut regions[label - 1];
        if region.count == 0 {
            (region.min_x, region.max_x, region.min_y, region.max_y) = (x, x, y, y);
        }
        region.count += 1;
        region.min_x = region.min_x.min(x);
        region.max_x = region.max_x.max(x);
        region.min_y = region.min_y.min(y);
        region.max_y = region.max_y.max(y);
        region.sum_x += u64::from(x);
        region.sum_y += u64::from(y);
        region.sum_grey += u64::from(image.get_pixel(left + x, top + y).0[0]);
    }
    let side = MARK_SIDE * px_per_mm;
    regions
        .iter()
        .filter(|region| {
            let w = (region.max_x - region.min_x + 1) as f32;
            let h = (region.max_y - region.min_y + 1) as f32;
            let fill = region.count as f32 / (w * h);
            (SIZE_MIN * side..=SIZE_MAX * side).contains(&w)
                && (SIZE_MIN * side..=SIZE_MAX * side).contains(&h)
                && w.max(h) / w.min(h) <= ASPECT_MAX
                && fill >= FILL_MIN
        })
        .map(|region| FoundMark {
            x: region.sum_x as f32 / region.count as f32,
            y: region.sum_y as f32 / region.count as f32,
            ink: region.sum_grey as f32 / region.count as f32,
        })
        .min_by(|a, b| {
            let distance = |m: &FoundMark| (m.x - expected.0).hypot(m.y - expected.1);
            distance(a).total_cmp(&distance(b))
        })
}
