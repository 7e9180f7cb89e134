//! A point question's answer in an upload (docs/upload-format.md, `Points`):
//! points on its picture, each within it, at most the question's limit, marked
//! by its areas (`model::points`). Its `$value` is the points as given.

use super::types::{answered_only_with, refuse, MarkedAnswer, UploadError, UploadedQuestion};
use crate::model::points::{points_score, stored_points};
use crate::model::snapshot::{limits, SnapshotQuestion};

pub(super) fn mark_points(
    question: &SnapshotQuestion,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    answer: &mut MarkedAnswer,
) -> Result<(), UploadError> {
    answered_only_with(
        "Points",
        question.order,
        uploaded,
        at,
        "Points on its picture",
    )?;
    // A point question always has its picture; one without would take none.
    let picture = question.picture.ok_or_else(|| {
        refuse(
            at("Points"),
            format!("question {} has no picture to mark", question.order),
        )
    })?;
    for (position, point) in uploaded.points.iter().enumerate() {
        if !picture.holds(*point) {
            return Err(refuse(
                at(&format!("Points[{position}]")),
                format!(
                    "({}, {}) is not on the picture of question {}, which is {} by {} pixels",
                    point.0, point.1, question.order, picture.width, picture.height
                ),
            ));
        }
    }
    if uploaded.points.len() > limits::MAX_POINTS {
        return Err(refuse(
            at("Points"),
            format!(
                "{} points are marked on question {}; at most {} are accepted",
                uploaded.points.len(),
                question.order,
                limits::MAX_POINTS
            ),
        ));
    }
    if let Some(most) = question.max_points() {
        if uploaded.points.len() > most {
            let takes = if most == 1 {
                "one".to_owned()
            } else {
                format!("at most {most}")
            };
            return Err(refuse(
                at("Points"),
                format!(
                    "{} points are marked on question {}, which takes {takes}",
                    uploaded.points.len(),
                    question.order
                ),
            ));
        }
    }
    answer.content = stored_points(&uploaded.points).into_bytes();
    answer.actual_score = Some(points_score(
        &question.rule,
        question.max_score,
        &question.areas(),
        &uploaded.points,
    ));
    Ok(())
}
