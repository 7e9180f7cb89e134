//! Reading the sheet's code: the code's square, cut out straight with a quiet
//! zone around it, handed to rqrr. rqrr samples each module once, so a module
//! on the edge of a blurred or compressed scan can read wrong and fail the error
//! correction; the square is then tried again at other resolutions, and with its
//! own threshold instead of rqrr's, before the page is given up.

use image::GrayImage;
use imageproc::contrast::otsu_level;

use crate::code::SheetCode;
use crate::layout::{Rect, CODE};

use super::geometry::PageGeometry;
use super::levels::ScanError;

/// White room around the code, so that rqrr sees its quiet zone.
const QUIET: f32 = 4.0;
/// The tries, in order: pixels to the millimetre (a module is about 1 mm), and
/// whether to threshold the square ourselves.
const TRIES: [(f32, bool); 6] = [
    (8.0, false),
    (8.0, true),
    (6.0, false),
    (6.0, true),
    (11.0, false),
    (11.0, true),
];

/// What the code's square holds, read through `geometry`. `Ok(None)` when no QR
/// code could be read there (the page may lie the other way round); an error when
/// one is read and it is not a sheet's code.
pub(crate) fn read_code(
    scan: &GrayImage,
    geometry: &PageGeometry,
) -> Result<Option<SheetCode>, ScanError> {
    let square = Rect {
        x: CODE.x - QUIET,
        y: CODE.y - QUIET,
        width: CODE.width + 2.0 * QUIET,
        height: CODE.height + 2.0 * QUIET,
    };
    let mut seen_a_code = false;
    for (px_per_mm, threshold) in TRIES {
        let crop = geometry.crop(scan, square, px_per_mm);
        let (width, height) = (crop.width() as usize, crop.height() as usize);
        let mut prepared = if threshold {
            let level = otsu_level(&crop);
            rqrr::PreparedImage::prepare_from_bitmap(width, height, |x, y| {
                crop.get_pixel(x as u32, y as u32).0[0] <= level
            })
        } else {
            rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
                crop.get_pixel(x as u32, y as u32).0[0]
            })
        };
        for grid in prepared.detect_grids() {
            seen_a_code = true;
            if let Ok((_, text)) = grid.decode() {
                return SheetCode::decode(&text).map(Some).map_err(ScanError::Code);
            }
        }
        // Nothing that looks like a QR code: not this way up, or no code at all.
        if !seen_a_code && px_per_mm < 8.0 {
            return Ok(None);
        }
    }
    Ok(None)
}
