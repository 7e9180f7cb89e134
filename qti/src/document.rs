//! A package that is one XML file rather than a zip: a Moodle XML question bank
//! (`<quiz>`) or a bare QTI 1.2 document (`<questestinterop>`, as Questionmark
//! exports it). Its images are inside it (Moodle's base64 files) or nowhere: an
//! image named by path skips its item, since there is no package to hold it.

use crate::archive::Archive;
use crate::error::PackageError;
use crate::images::Images;
use crate::item::{Package, QtiVersion};
use crate::{limits, moodle, reading, v1, xml};

/// How messages name the file, which has no name of its own here.
pub const FILE: &str = "the XML file";

/// An empty zip (its end-of-directory record alone): the images of a document
/// come from no archive.
const NO_ARCHIVE: &[u8] = b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";

/// Whether `bytes` are an XML document rather than a zip.
pub fn is_document(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'<')
}

pub fn read(bytes: &[u8], progress: &mut dyn FnMut(usize, usize)) -> Result<Package, PackageError> {
    if bytes.len() > limits::MAX_DOCUMENT_BYTES {
        return Err(PackageError::new(
            FILE,
            format!(
                "{} bytes; an XML file of at most {} bytes is accepted",
                bytes.len(),
                limits::MAX_DOCUMENT_BYTES
            ),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let root = xml::parse(bytes, FILE)?;
    let (version, document) = match root.name.as_str() {
        "quiz" => (QtiVersion::Moodle, moodle::read(&root, FILE)?),
        "questestinterop" => (QtiVersion::V1, v1::read(&root, FILE)?),
        other => {
            return Err(PackageError::new(
                FILE,
                format!(
                    "the document element is <{other}>: an XML file is read as a Moodle XML \
                     bank (<quiz>) or QTI 1.2 (<questestinterop>)"
                ),
            ))
        }
    };
    drop(root);
    if document.items.len() > limits::MAX_ITEMS {
        return Err(PackageError::package(format!(
            "{} items; at most {} are imported from one package",
            document.items.len(),
            limits::MAX_ITEMS
        )));
    }
    let total = document.items.len();
    progress(0, total);
    let mut images = Images::new(Archive::open(NO_ARCHIVE)?);
    let (mut items, mut skipped) = (Vec::new(), Vec::new());
    reading::add_translated(document.items, FILE, &mut images, &mut items, &mut skipped)?;
    progress(total, total);
    Ok(Package {
        version,
        identifier: match version {
            QtiVersion::Moodle => "moodle".into(),
            _ => "questestinterop".into(),
        },
        test_identifier: None,
        title: document.title.unwrap_or_default(),
        language: None,
        items,
        skipped,
        score_bands: Vec::new(),
        images: images.count(),
        notes: Vec::new(),
    })
}
