//! Reads an IMS/1EdTech QTI content package (QTI 2.1, 2.2 or 3.0: a zip with an
//! `imsmanifest.xml`, items, optionally an assessment test, and media; or QTI 1.2
//! documents, translated item by item into QTI 2.1, `v1`) into plain
//! data: the items in the test's order, each with its markup as an XHTML fragment
//! (images inlined as `data:` URLs), its one interaction, its correct responses,
//! its scoring and maximum; and the items that cannot be imported, each with why.
//!
//! Everything here assumes the package is hostile. Nothing is written to disk;
//! every member is read with a bound, whatever its header claims; entry names that
//! leave the package, duplicate entries, XML with a DOCTYPE (so no entity can be
//! declared: no XXE, no billion laughs), deep nesting and oversized members are
//! refused with a [`PackageError`] that names the file and the element. No database
//! or HTTP here: the server maps the result onto its questions (`model::content`).

mod archive;
mod build;
mod document;
mod error;
mod html;
mod images;
mod item;
pub mod limits;
mod manifest;
mod markup;
mod moodle;
mod names;
mod number;
mod package;
mod reading;
mod response;
mod template;
mod test_order;
mod v1;
mod xml;

pub use document::is_document;
pub use error::PackageError;
pub use item::{
    Area, Blank, Choice, ChoiceScoring, Item, MatchOption, NumberRange, Package, PairKey,
    QtiVersion, Response, ScoreBand, SkippedItem, TextKey, TextScoring,
};
pub use package::{read_package, read_package_with_progress};
pub use reading::{instantiate, CHECKED_DRAWS};
