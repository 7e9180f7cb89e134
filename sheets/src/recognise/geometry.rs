//! From the page's millimetres to the scan's pixels: the projective transform that
//! carries the layout's four mark centres onto the marks found, which corrects
//! rotation, shift, scale and a scanner's slight skew in one step.

use image::{GrayImage, Luma};
use imageproc::geometric_transformations::{warp_into, Interpolation, Projection};

use crate::layout::{marks, Rect};

use super::marks::FoundMark;

/// The marks' centres are 180 mm apart across the page and 267 mm down it.
const ACROSS: f32 = 180.0;
const DOWN: f32 = 267.0;
/// How far the found marks may stray from a rectangle of the page's proportions.
const PROPORTION_TOLERANCE: f32 = 0.08;
/// How far, in millimetres, the fourth mark may lie from where the other three
/// put it. A flat page on a scanner bends nothing: a mark that strays is damaged,
/// covered or not a mark, and reading through it would misplace every bubble.
const CORNER_TOLERANCE: f32 = 1.5;

#[derive(Debug, Clone, Copy)]
pub(crate) struct PageGeometry {
    page_to_scan: Projection,
    /// The scan's resolution, as the marks measure it.
    pub px_per_mm: f32,
}

impl PageGeometry {
    /// The page as the found marks place it, upright or turned half round. `None`
    /// when the marks do not form the page's rectangle.
    pub fn from_marks(found: &[FoundMark; 4], upside_down: bool) -> Option<Self> {
        let page = marks().map(|mark| (mark.center.x, mark.center.y));
        // A page turned half round shows its bottom right mark at the top left.
        let page = if upside_down {
            [page[2], page[3], page[0], page[1]]
        } else {
            page
        };
        let scan = found.map(|mark| (mark.x, mark.y));
        let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
        let across = (distance(scan[0], scan[1]) + distance(scan[3], scan[2])) / 2.0;
        let down = (distance(scan[0], scan[3]) + distance(scan[1], scan[2])) / 2.0;
        let proportion = (across / down) / (ACROSS / DOWN);
        if !(1.0 - PROPORTION_TOLERANCE..=1.0 + PROPORTION_TOLERANCE).contains(&proportion) {
            return None;
        }
        let px_per_mm = across / ACROSS;
        // The marks are a rectangle's corners; any map a scanner makes keeps it a
        // parallelogram, whose fourth corner the other three fix.
        let predicted = (
            scan[1].0 + scan[3].0 - scan[0].0,
            scan[1].1 + scan[3].1 - scan[0].1,
        );
        if distance(predicted, scan[2]) / px_per_mm > CORNER_TOLERANCE {
            return None;
        }
        let page_to_scan = Projection::from_control_points(page, scan)?;
        Some(PageGeometry {
            page_to_scan,
            px_per_mm,
        })
    }

    /// A rectangle of the page, upright, at `px_per_mm`: the scan resampled so
    /// that the crop is straight whatever the page's angle.
    pub fn crop(&self, scan: &GrayImage, rect: Rect, px_per_mm: f32) -> GrayImage {
        let width = (rect.width * px_per_mm).round().max(1.0) as u32;
        let height = (rect.height * px_per_mm).round().max(1.0) as u32;
        // The crop's pixel (u, v) is the page's (x + u / s, y + v / s).
        let crop_to_page = Projection::translate(rect.x, rect.y)
            * Projection::scale(1.0 / px_per_mm, 1.0 / px_per_mm);
        let crop_to_scan = self.page_to_scan * crop_to_page;
        let mut out = GrayImage::new(width, height);
        // warp_into takes the map from its input (the scan) to its output.
        warp_into(
            scan,
            &crop_to_scan.invert(),
            Interpolation::Bilinear,
            Luma([255]),
            &mut out,
        );
        out
    }
}
