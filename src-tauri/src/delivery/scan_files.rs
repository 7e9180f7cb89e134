//! The scans a coordinator hands the sheets desk: image files, folders of them,
//! and scanners' PDFs, whose page images are taken out as the scanner wrote them
//! (`scoredesk_sheets::pdf`).

use std::path::PathBuf;

use scoredesk_sheets::pdf::{is_pdf, page_images};

/// The image files the sheets desk reads.
pub(super) const SCAN_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "tif", "tiff"];

/// The scans among `paths`: files as they are, folders for the images (and
/// PDFs) in them, a scanner's PDF for the page images it holds (taken out into
/// `pdf_pages` by poppler's pdfimages, as the scanner wrote them). Each with the
/// name its refusal would give it ("batch.pdf, page 3").
pub(super) fn scan_files(
    paths: &[String],
    pdf_pages: &std::path::Path,
    refused: &mut Vec<String>,
) -> Vec<(String, PathBuf)> {
    let is_scan = |file: &PathBuf| {
        file.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCAN_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    };
    let name_of = |file: &PathBuf| {
        file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let mut files = Vec::new();
    for path in paths.iter().map(PathBuf::from) {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(&path)
                .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            inside.sort();
            files.extend(
                inside
                    .into_iter()
                    .filter(|file| is_scan(file) || is_pdf(file)),
            );
        } else if path.is_file() {
            files.push(path);
        } else {
            refused.push(format!("{}: no such file or folder", path.display()));
        }
    }
    let mut scans = Vec::new();
    for (index, file) in files.into_iter().enumerate() {
        if !is_pdf(&file) {
            scans.push((name_of(&file), file));
            continue;
        }
        let into = pdf_pages.join(index.to_string());
        let taken = std::fs::create_dir_all(&into)
            .map_err(|e| e.to_string())
            .and_then(|()| page_images(&file, &into).map_err(|e| e.to_string()));
        match taken {
            Ok(pages) => scans.extend(
                pages
                    .into_iter()
                    .map(|(page, image)| (format!("{}, page {page}", name_of(&file)), image)),
            ),
            Err(message) => refused.push(format!("{}: {message}", name_of(&file))),
        }
    }
    scans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_opened_and_what_is_missing_or_unreadable_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.png"), b"x").unwrap();
        std::fs::write(dir.path().join("a.JPG"), b"x").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
        std::fs::write(dir.path().join("broken.pdf"), b"not a PDF").unwrap();
        let pages = tempfile::tempdir().unwrap();
        let mut refused = Vec::new();
        let paths = [
            dir.path().display().to_string(),
            dir.path().join("gone.png").display().to_string(),
        ];
        let scans = scan_files(&paths, pages.path(), &mut refused);
        let names: Vec<&str> = scans.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["a.JPG", "b.png"]);
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].ends_with("gone.png: no such file or folder"),
            "{refused:?}"
        );
        assert!(refused[1].starts_with("broken.pdf: "), "{refused:?}");
    }
}
