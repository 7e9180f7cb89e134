//! What was delivered and answered: questions, answers, participants, groups and
//! assessments.

use crate::odata::edm::EdmType::{DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::model::{
    many_current, one, prop, EntitySet, Media, MediaType, Navigation, Through, Verb, Writes,
    READ_ONLY,
};

pub static QUESTIONS: EntitySet = EntitySet {
    name: "Questions",
    type_name: "Question",
    table: "questions",
    key: &["QuestionID"],
    properties: &[
        prop("QuestionID", "id", Int64, false),
        prop("Revision", "revision", Int32, false),
        prop("Language", "language", Str, true),
        prop("Description", "description", Str, true),
        prop("QuestionType", "question_type", Str, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    // Typed as a collection of at most one, as the spec says: the question's
    // current rubric; a replaced one (migration 18) is reached only by its key,
    // as ScoringResults made with it name it.
    navigations: &[many_current(
        "Rubric",
        "Rubrics",
        &[("id", "question_id")],
        "replaced_at",
    )],
    concurrency: None,
    filterable: &["QuestionID"],
    media: Some(Media {
        content_column: "markup",
        media_type: MediaType::Fixed("application/xhtml+xml"),
    }),
    writes: READ_ONLY,
};

pub static ANSWERS: EntitySet = EntitySet {
    name: "Answers",
    type_name: "Answer",
    table: "answers",
    key: &["QuestionID", "ResultID", "Occurrence", "BlockNumber"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Occurrence", "occurrence", Int16, false),
        prop("BlockNumber", "block_number", Int16, false),
        prop("QuestionNumber", "question_number", Int32, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("ActualScore", "actual_score", Int32, true),
        prop("Revision", "revision", Int32, false),
    ],
    navigations: &[
        one("Question", "Questions", &[("question_id", "id")], true),
        one("Result", "Results", &[("result_id", "id")], true),
    ],
    concurrency: None,
    filterable: &["QuestionID", "ResultID"],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Column("media_type"),
    }),
    writes: READ_ONLY,
};

pub static PARTICIPANTS: EntitySet = EntitySet {
    name: "Participants",
    type_name: "Participant",
    table: "participants",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Name", "name", Str, false),
        prop("FirstName", "first_name", Str, true),
        prop("LastName", "last_name", Str, true),
        prop("PrimaryEmail", "primary_email", Str, true),
    ],
    navigations: &[Navigation {
        name: "Groups",
        target: "Groups",
        many: true,
        on: &[("id", "id")],
        required: false,
        copied: &[],
        through: Some(Through {
            table: "group_participants",
            near: "participant_id",
            far: "group_id",
        }),
        current: None,
    }],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    writes: Writes {
        entity: &[Verb::Patch, Verb::Merge],
        collection: &[Verb::Post],
        links: &["Groups"],
    },
};

pub static GROUPS: EntitySet = EntitySet {
    name: "Groups",
    type_name: "Group",
    table: "groups",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        // Migration 9: what `Group/Name eq` names is one group.
        prop("Name", "name", Str, false).unique_in_area(),
        prop("Description", "description", Str, true),
        // Our extension: a signed link to the group's class list, on a single
        // read (null in collections), as a snapshot's printable document.
        prop("ClassListSourceUrl", "", Str, true),
    ],
    navigations: &[Navigation {
        name: "Participants",
        target: "Participants",
        many: true,
        on: &[("id", "id")],
        required: false,
        copied: &[],
        through: Some(Through {
            table: "group_participants",
            near: "group_id",
            far: "participant_id",
        }),
        current: None,
    }],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    writes: Writes {
        entity: &[Verb::Patch, Verb::Merge],
        collection: &[Verb::Post],
        links: &["Participants"],
    },
};

pub static ASSESSMENTS: EntitySet = EntitySet {
    name: "Assessments",
    type_name: "Assessment",
    table: "assessments",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int64, false),
        prop("Name", "name", Str, false),
        prop("Language", "language", Str, true),
        prop("Description", "description", Str, true),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    // Our extension: the questions the assessment asks now (an authoring tool
    // lists them to write their rubrics); snapshots fix their own.
    navigations: &[Navigation {
        name: "Questions",
        target: "Questions",
        many: true,
        on: &[("id", "id")],
        required: false,
        copied: &[],
        through: Some(Through {
            table: "assessment_questions",
            near: "assessment_id",
            far: "question_id",
        }),
        current: None,
    }],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    // Renamed, and deleted while unused: our extension (assessments.rs).
    writes: Writes {
        entity: &[Verb::Patch, Verb::Merge, Verb::Delete],
        collection: &[],
        links: &[],
    },
};
