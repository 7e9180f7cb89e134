//! `SecondMarkingQueue`: the double-marked tasks that wait for a marking (round 2
//! or 3) and that the reader may take: nobody is offered a round someone has
//! taken, nor a task he marked in an earlier round (`rows_seen`, so the store's
//! statement leaves them out). Taking one is a POST to `Markings`. Who marked the
//! earlier rounds is never served.

use crate::auth::Principal;
use crate::feeds::handler::Feed;
use crate::odata::edm::EdmType::{DateTime, Int32, Int64};
use crate::odata::model::{one, prop, EntitySet, READ_ONLY};
use crate::odata::value::Value;
use crate::store::read::Constraint;

pub static SECOND_MARKING_QUEUE: EntitySet = EntitySet {
    name: "SecondMarkingQueue",
    type_name: "SecondMarkingTask",
    table: "marking_queue",
    key: &["QuestionID", "ResultID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        // 2: a second marking; 3: the resolution of two that disagree.
        prop("Round", "round", Int32, false),
        prop("QueuedDateTime", "queued_at", DateTime, false),
    ],
    navigations: &[
        one(
            "ScoringTask",
            "ScoringTasks",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one("Question", "Questions", &[("question_id", "id")], true),
    ],
    concurrency: None,
    filterable: &["QuestionID", "ResultID", "Round"],
    media: None,
    writes: READ_ONLY,
};

pub static FEED: Feed = Feed {
    rows_seen: Some(open_to),
    ..Feed::read_only(&SECOND_MARKING_QUEUE)
};

/// The rounds nobody has taken, of tasks `principal` did not mark.
fn open_to(principal: &Principal) -> Vec<Constraint> {
    let me = || Value::String(principal.username.clone());
    vec![
        Constraint::Null("claimed_by"),
        Constraint::NotEqual("first_marker", me()),
        Constraint::NotEqual("second_marker", me()),
    ]
}
