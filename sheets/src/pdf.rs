//! A scanner's PDF of a batch (one file, a page per sheet page): the page images
//! it embeds, taken out by poppler's `pdfimages` (Debian's poppler-utils) as they
//! are. A JPEG stays the JPEG the scanner wrote; a black-and-white scan's JBIG2 or
//! CCITT image is decoded by poppler into a PNG; nothing is rendered again, so
//! the reader sees the scanner's pixels. A page's largest image is its scan (a
//! scanner's stamp or logo beside it is smaller).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most a page's image may take on disk once taken out (2 GiB): a hostile
/// PDF's compressed image that would fill the disk is stopped there.
const MOST_IMAGE_BLOCKS: u64 = 4 * 1024 * 1024;
/// The most pages read from one PDF.
pub const MOST_PAGES: usize = 5_000;

#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("reading a PDF needs poppler's pdfimages (Debian: apt install poppler-utils): {0}")]
    Tool(std::io::Error),
    #[error("not a PDF whose images can be read: {0}")]
    Unreadable(String),
    #[error("the PDF holds no scanned images (a scanner's PDF has one a page); scan to images, or to a PDF of images")]
    NoImages,
    #[error("the PDF has more than {MOST_PAGES} pages; split the batch")]
    TooManyPages,
}

/// Each page's scan taken out of `pdf` into the folder `into`, in page order:
/// `(page number, its image file)`. A page without an image is left out.
pub fn page_images(pdf: &Path, into: &Path) -> Result<Vec<(u32, PathBuf)>, PdfError> {
    let prefix = into.join("page");
    // `ulimit -f` bounds each file pdfimages writes (in 512-byte blocks).
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f {MOST_IMAGE_BLOCKS} && exec pdfimages -p -j -png -l {MOST_PAGES} \"$0\" \"$1\""
        ))
        .arg(pdf)
        .arg(&prefix)
        .output()
        .map_err(PdfError::Tool)?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said
            .lines()
            .last()
            .unwrap_or("pdfimages failed")
            .trim()
            .to_owned();
        if output.status.code() == Some(127) {
            return Err(PdfError::Tool(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                said,
            )));
        }
        return Err(PdfError::Unreadable(said));
    }
    // `page-<page>-<image>.<ext>`: the largest image of each page.
    let mut pages: BTreeMap<u32, (u64, PathBuf)> = BTreeMap::new();
    let entries = std::fs::read_dir(into).map_err(|e| PdfError::Unreadable(e.to_string()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(page) = page_of(&path) else { continue };
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        if pages.get(&page).is_none_or(|(largest, _)| size > *largest) {
            pages.insert(page, (size, path));
        }
    }
    if pages.is_empty() {
        return Err(PdfError::NoImages);
    }
    if pages.len() > MOST_PAGES {
        return Err(PdfError::TooManyPages);
    }
    Ok(pages
        .into_iter()
        .map(|(page, (_, path))| (page, path))
        .collect())
}

/// The page number in a name pdfimages wrote with `-p`: `page-003-001.jpg` is 3.
fn page_of(path: &Path) -> Option<u32> {
    let stem = path.file_stem()?.to_str()?;
    let mut parts = stem.strip_prefix("page-")?.split('-');
    let page = parts.next()?.parse().ok()?;
    parts.next()?.parse::<u32>().ok()?;
    Some(page)
}

/// Whether `path` names a PDF (by its extension, any case).
pub fn is_pdf(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_number_is_read_from_pdfimages_names() {
        assert_eq!(page_of(Path::new("/t/page-003-001.jpg")), Some(3));
        assert_eq!(page_of(Path::new("/t/page-12-000.png")), Some(12));
        assert_eq!(page_of(Path::new("/t/page-3.png")), None);
        assert_eq!(page_of(Path::new("/t/other-003-001.png")), None);
        assert!(is_pdf(Path::new("batch.PDF")) && !is_pdf(Path::new("batch.png")));
    }
}
