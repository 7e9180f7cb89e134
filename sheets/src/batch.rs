//! A scan read as one of a print batch's pages: a sheet's page, of this area and
//! batch, of the sheet the batch's snapshot lays out. What `sheets scan` and the
//! desktop both do with each file, so that they refuse the same pages the same way.

use crate::layout::PageLayout;
use crate::recognise::{self, PageReading, Scan};

/// The page in `bytes` read against `layout` (the batch's sheet), or why it is
/// refused, in words for the coordinator.
pub fn read_batch_page(
    bytes: &[u8],
    layout: &[PageLayout],
    area: i32,
    batch: i32,
) -> Result<(Scan, PageReading), String> {
    let scan = recognise::open(bytes).map_err(|error| error.to_string())?;
    scan.code
        .check_batch(area, batch)
        .map_err(|error| error.to_string())?;
    let page = layout
        .get(usize::from(scan.code.page).saturating_sub(1))
        .filter(|_| usize::from(scan.code.pages) == layout.len())
        .ok_or_else(|| {
            format!(
                "the page's code says page {} of {}; the batch's sheet has {} pages",
                scan.code.page,
                scan.code.pages,
                layout.len()
            )
        })?;
    let reading = scan.read(page).map_err(|error| error.to_string())?;
    Ok((scan, reading))
}
