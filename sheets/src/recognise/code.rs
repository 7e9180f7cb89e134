//! Reading the sheet's code: the code's square, cut out straight with a quiet
//! zone around it, handed to rqrr.

use image::GrayImage;

use crate::code::SheetCode;
use crate::layout::{Rect, CODE};

use super::geometry::PageGeometry;
use super::ScanError;

/// The crop's resolution: about 8 pixels to a module of the printed code.
const CODE_PX_PER_MM: f32 = 8.0;
/// White room around the code, so that rqrr sees its quiet zone.
const QUIET: f32 = 4.0;

/// What the code's square holds, read through `geometry`. `Ok(None)` when no QR
/// code is there (the page may lie the other way round); an error when one is and
/// it is not a sheet's code.
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
    let crop = geometry.crop(scan, square, CODE_PX_PER_MM);
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
        crop.width() as usize,
        crop.height() as usize,
        |x, y| crop.get_pixel(x as u32, y as u32).0[0],
    );
    let mut foreign = None;
    for grid in prepared.detect_grids() {
        match grid.decode() {
            Ok((_, text)) => match SheetCode::decode(&text) {
                Ok(code) => return Ok(Some(code)),
                Err(error) => foreign = Some(error),
            },
            Err(_) => continue,
        }
    }
    match foreign {
        Some(error) => Err(ScanError::Code(error)),
        None => Ok(None),
    }
}
