//! The snapshot data feed: a snapshot's content as the XML document it fixed, read
//! only (it is written with its snapshot).

use crate::odata::edm::EdmType::Int32;
use crate::odata::model::{prop, EntitySet, Media, MediaType, READ_ONLY};

pub static ASSESSMENT_SNAPSHOT_DATA: EntitySet = EntitySet {
    name: "AssessmentSnapshotData",
    type_name: "AssessmentSnapshotData",
    table: "assessment_snapshots",
    key: &["ID"],
    properties: &[prop("ID", "id", Int32, false)],
    navigations: &[],
    concurrency: None,
    filterable: &["ID"],
    media: Some(Media {
        content_column: "data_xml",
        media_type: MediaType::Fixed("application/xml"),
    }),
    writes: READ_ONLY,
};
