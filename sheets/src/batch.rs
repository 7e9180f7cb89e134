//! A scan read as one of a print batch's pages: a sheet's page, of this area and
//! batch, of the sheet the batch's snapshot lays out. What `sheets scan` and the
//! desktop both do with each file, so that they refuse the same pages the same way.

use crate::layout::{lay_out, printed_in, PageLayout, SheetQuestion};
use crate::recognise::{self, PageReading, Scan};

/// A page of the batch, found, with the layout it was printed with and what was
/// read through it.
pub struct BatchPage {
    pub scan: Scan,
    pub layout: PageLayout,
    pub reading: PageReading,
}

/// The page in `bytes` read as a page of the batch's sheet, which asks
/// `questions` (laid out as the page's code says it was printed), or why it is
/// refused, in words for the coordinator.
pub fn read_batch_page(
    bytes: &[u8],
    questions: &[SheetQuestion],
    area: i32,
    batch: i32,
) -> Result<BatchPage, String> {
    let scan = recognise::open(bytes).map_err(|error| error.to_string())?;
    scan.code
        .check_batch(area, batch)
        .map_err(|error| error.to_string())?;
    let mut layout = lay_out(&printed_in(questions, scan.code.edition));
    let pages = layout.len();
    let index = usize::from(scan.code.page).saturating_sub(1);
    if usize::from(scan.code.pages) != pages || index >= pages {
        return Err(format!(
            "the page's code says page {} of {}; the batch's sheet has {} pages",
            scan.code.page, scan.code.pages, pages
        ));
    }
    let layout = layout.swap_remove(index);
    let reading = scan.read(&layout).map_err(|error| error.to_string())?;
    Ok(BatchPage {
        scan,
        layout,
        reading,
    })
}
