//! Small entity sets for the read module's unit tests: a property of every type the
//! filter generators use, a to-one navigation that must be set and one that need
//! not, and a collection behind it.

use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int32, Int64, String as Str};
use crate::odata::model::{many, one, prop, EntitySet, READ_ONLY};

/// A set with a property of every type the generators use, and `Result/WhenFinished`.
pub static THINGS: EntitySet = EntitySet {
    name: "Things",
    type_name: "Thing",
    table: "things",
    key: &["QuestionID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("Status", "status", Int32, false),
        prop("ParticipantName", "participant_name", Str, true),
        prop("StillGoing", "still_going", Boolean, false),
        prop("PercentageScore", "percentage_score", Double, false),
    ],
    navigations: &[
        one("Result", "Results", &[("result_id", "id")], true),
        one("Reviewed", "Results", &[("reviewed_id", "id")], false),
    ],
    concurrency: None,
    filterable: &[
        "QuestionID",
        "Status",
        "ParticipantName",
        "StillGoing",
        "PercentageScore",
    ],
    media: None,
    writes: READ_ONLY,
};

pub static RESULTS: EntitySet = EntitySet {
    name: "Results",
    type_name: "Result",
    table: "results",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("WhenFinished", "when_finished", DateTime, true),
    ],
    navigations: &[many("Answers", "Answers", &[("id", "result_id")])],
    concurrency: None,
    filterable: &["ID", "WhenFinished"],
    media: None,
    writes: READ_ONLY,
};

pub static ANSWERS: EntitySet = EntitySet {
    name: "Answers",
    type_name: "Answer",
    table: "answers",
    key: &["ResultID"],
    properties: &[prop("ResultID", "result_id", Int32, false)],
    navigations: &[],
    concurrency: None,
    filterable: &["ResultID"],
    media: None,
    writes: READ_ONLY,
};

pub fn lookup(name: &str) -> Option<&'static EntitySet> {
    [&THINGS, &RESULTS, &ANSWERS]
        .into_iter()
        .find(|set| set.name == name)
}
