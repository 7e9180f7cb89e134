//! QTI 1.2 (`questestinterop`): Canvas classic quizzes, Blackboard pools,
//! Questionmark and the tools that write their profile. Each item is translated
//! into the QTI 2.1 item that asks and scores the same (`translate`), and read by
//! the 2.x reader from there; what cannot be translated is skipped with why.

mod blanks;
mod choice;
mod conditions;
mod fill_in;
mod matching;
mod material;
mod translate;

use crate::build::{Document, Translated};
use crate::error::PackageError;
use crate::xml::Element;

/// A QTI 1.2 document's items, in order.
pub fn read(root: &Element, file: &str) -> Result<Document, PackageError> {
    if root.name != "questestinterop" {
        return Err(PackageError::new(
            file,
            format!(
                "the document element is <{}>, not <questestinterop>",
                root.name
            ),
        ));
    }
    let title = root
        .elements()
        .find(|e| matches!(e.name.as_str(), "assessment" | "objectbank" | "section"))
        .and_then(|e| e.attribute("title"))
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    let mut items = Vec::new();
    for item in root.descendants().into_iter().filter(|e| e.name == "item") {
        let identifier = identifier(item);
        if identifier.is_empty() {
            return Err(PackageError::new(file, "an <item> without an ident"));
        }
        items.push(match translate::translate(item, &identifier, file)? {
            Ok(element) => Translated::Item {
                element,
                topic: None,
            },
            Err(reason) => Translated::Skipped { identifier, reason },
        });
    }
    Ok(Document { title, items })
}

/// The item's `ident`; Blackboard writes none, but its object id in the metadata.
/// An `ident=""` written out is an empty identifier, which refuses the document.
fn identifier(item: &Element) -> String {
    if let Some(ident) = item.attribute("ident") {
        return ident.trim().to_owned();
    }
    item.child("itemmetadata")
        .and_then(|m| m.child("bbmd_asi_object_id"))
        .map(|id| id.text().trim().to_owned())
        .filter(|id| !id.is_empty())
        .or_else(|| item.attribute("title").map(|t| t.trim().to_owned()))
        .unwrap_or_default()
}
