//! One item read into an [`Item`] (its markup, its interaction and scoring), or
//! skipped with its reason; and the items a translation (QTI 1.2, Moodle XML)
//! gave, read the same way.

use crate::archive::Archive;
use crate::build::Translated;
use crate::error::PackageError;
use crate::images::Images;
use crate::item::{Item, SkippedItem};
use crate::xml::Element;
use crate::{markup, response};

/// Each translated item of the document at `path` read into `items`, or into
/// `skipped` with why.
pub fn add_translated(
    translated: Vec<Translated>,
    path: &str,
    images: &mut Images<'_>,
    items: &mut Vec<Item>,
    skipped: &mut Vec<SkippedItem>,
) -> Result<(), PackageError> {
    for one in translated {
        match one {
            Translated::Item { element, topic } => {
                match read_item(&element, path, topic, images)? {
                    Ok(item) => items.push(item),
                    Err(skip) => skipped.push(skip),
                }
            }
            Translated::Skipped { identifier, reason } => skipped.push(SkippedItem {
                identifier,
                file: path.to_owned(),
                reason,
            }),
        }
    }
    Ok(())
}

/// One item: `Err` refuses the package (the item is hostile or broken), `Ok(Err)`
/// skips it (it is sound but asks what the service cannot).
pub fn read_item(
    root: &Element,
    path: &str,
    topic: Option<String>,
    images: &mut Images<'_>,
) -> Result<Result<Item, SkippedItem>, PackageError> {
    if root.name != "assessmentItem" {
        return Err(PackageError::new(
            path,
            format!(
                "the document element is <{}>, not an assessment item",
                root.name
            ),
        ));
    }
    let identifier = root
        .attribute("identifier")
        .filter(|i| !i.trim().is_empty())
        .ok_or_else(|| PackageError::new(path, "<assessmentItem> without an identifier"))?
        .trim()
        .to_owned();
    let skip = |reason: String| SkippedItem {
        identifier: identifier.clone(),
        file: path.to_owned(),
        reason,
    };
    let Some(body) = root.child("itemBody") else {
        return Ok(Err(skip("the item has no <itemBody>".into())));
    };
    if let Some(missing) = missing_image(body, path, images.archive()) {
        return Ok(Err(skip(missing)));
    }
    let reading = match response::read(root, body) {
        Ok(reading) => reading,
        Err(reason) => return Ok(Err(skip(reason))),
    };
    let markup = markup::Writer::new(path, images).body(body)?;
    Ok(Ok(Item {
        title: root
            .attribute("title")
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&identifier)
            .to_owned(),
        stem: markup::stem_text(body, 160),
        identifier,
        file: path.to_owned(),
        language: root.attribute("lang").map(str::to_owned),
        topic,
        markup,
        response: reading.response,
        max_score: reading.max_score,
        notes: reading.notes,
    }))
}

/// The first image the item shows that the package does not hold, as the reason
/// to skip the item (a package exported without one of its images: the other
/// items still come in). A path that leaves the package is not this: the markup
/// writer refuses the package for it.
fn missing_image(body: &Element, path: &str, archive: &Archive<'_>) -> Option<String> {
    body.descendants().into_iter().find_map(|element| {
        let (what, src) = match element.name.as_str() {
            "img" => ("img src", element.attribute("src")?),
            "object" if element.attribute("type")?.trim().starts_with("image/") => {
                ("object data", element.attribute("data")?)
            }
            _ => return None,
        };
        if src.trim().starts_with("data:") {
            return None;
        }
        let file = crate::names::resolve(path, src).ok()?;
        (!archive.contains(&file))
            .then(|| format!("the package has no file {file}, which <{what}=\"{src}\"> names"))
    })
}
