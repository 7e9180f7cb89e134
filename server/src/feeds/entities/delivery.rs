//! External delivery (spec, "External delivery"): snapshots and their data, print
//! batches, attempts and answer uploads.

use crate::odata::edm::EdmType::{Boolean, DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, Media, MediaType, READ_ONLY};

use super::limits::*;

pub static ASSESSMENT_SNAPSHOTS: EntitySet = EntitySet {
    name: "AssessmentSnapshots",
    type_name: "AssessmentSnapshot",
    table: "assessment_snapshots",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("Language", "language", Str, true),
        prop("ExpiresDateTime", "expires_at", DateTime, true),
        // Signed, time-limited links computed per request.
        prop("PrintableDocumentSourceUrl", "", Str, true),
        prop("PrintableDocumentWithAnswersSourceUrl", "", Str, true),
    ],
    navigations: &[one(
        "AssessmentSnapshotData",
        "AssessmentSnapshotData",
        &[("id", "id")],
        true,
    )],
    concurrency: None,
    filterable: &["ID", "AssessmentID"],
    media: None,
    writes: CREATE_AND_MERGE,
};

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

pub static PRINT_BATCHES: EntitySet = EntitySet {
    name: "PrintBatches",
    type_name: "PrintBatch",
    table: "print_batches",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("GroupID", "group_id", Int32, false),
        prop("SnapshotID", "snapshot_id", Int32, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("LastUploadedDateTime", "last_uploaded_at", DateTime, true),
        // Our extension (docs/paper-sheets.md): a signed, time-limited link to the
        // batch's personal answer sheets, computed per request like a snapshot's.
        prop("AnswerSheetsSourceUrl", "", Str, true),
    ],
    navigations: &[
        one("Group", "Groups", &[("group_id", "id")], true),
        one(
            "AssessmentSnapshot",
            "AssessmentSnapshots",
            &[("snapshot_id", "id")],
            true,
        ),
    ],
    concurrency: None,
    // SnapshotID is our extension (docs/odata.md): a snapshot's batches, by index
    // (migration 16).
    filterable: &["ID", "GroupID", "SnapshotID"],
    media: None,
    writes: CREATE_ONLY,
};

pub static ATTEMPTS: EntitySet = EntitySet {
    name: "Attempts",
    type_name: "Attempt",
    table: "attempts",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("ParticipantID", "participant_id", Int32, true),
        prop("AssessmentID", "assessment_id", Int64, true),
        prop("AssessmentSnapshotID", "snapshot_id", Int32, true),
        prop("ExternalAttemptID", "external_attempt_id", Str, true).max_length(NAME_LENGTH),
        prop("LockStatus", "lock_status", Boolean, false),
        prop("LockRequired", "lock_required", Boolean, false),
        prop("ResultID", "result_id", Int32, true),
        prop("LastModifiedDateTime", "last_modified_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    // AssessmentSnapshotID and ParticipantID are our extension (docs/odata.md): a
    // batch's attempts, and a participant's, by index (migrations 15 and 16).
    filterable: &[
        "ID",
        "ExternalAttemptID",
        "AssessmentSnapshotID",
        "ParticipantID",
    ],
    media: None,
    writes: CREATE_ONLY,
};

pub static ANSWER_UPLOADS: EntitySet = EntitySet {
    name: "AnswerUploads",
    type_name: "AnswerUpload",
    table: "answer_uploads",
    key: &["AttemptID"],
    properties: &[
        prop("AttemptID", "attempt_id", Int32, false),
        prop("UploadedDateTime", "uploaded_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["AttemptID"],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Column("content_type"),
    }),
    writes: CREATE_ONLY,
};
