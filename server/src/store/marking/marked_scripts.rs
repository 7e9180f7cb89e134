//! A marked script read for printing (`model::marked_script`): one result's
//! scoring tasks with their questions, answers, scores, dimension scores and
//! annotations, in a few statements by result.

use std::collections::HashMap;

use sea_query::{Expr, JoinType, Order, Query};

use crate::model::annotations::canvas_of;
use crate::model::annotations::Canvas;
use crate::model::area::CustomerArea;
use crate::model::marked_script::{
    points_of, Mark, MarkedAnswer, MarkedDimension, MarkedQuestion, MarkedScript,
};
use crate::model::scoring::TaskStatus;
use crate::store::schema::{
    Annotations, Answers, Assessments, DimensionScores, Dimensions, Questions, Results,
    ScoringResults, ScoringTasks,
};
use crate::store::{Store, StoreError};

type TaskRow = (
    i64,
    i32,
    Option<String>,
    String,
    i32,
    Option<i32>,
    Option<String>,
);
/// Participant name, first and last name, assessment, total and maximum.
type ResultRow = (
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    i32,
    i32,
);
type AnswerRow = (i64, i16, i16, i32, String, Vec<u8>);
type DimensionRow = (i64, String, i16, Option<i16>, Option<String>);
type MarkRow = (
    i64,
    i16,
    i16,
    String,
    Option<String>,
    Option<i32>,
    Option<i32>,
    Option<String>,
);

impl Store {
    /// The marked script of result `result_id` (none for a result not of the
    /// area, or a seed copy, which is no participant's).
    pub async fn marked_script(
        &self,
        area: CustomerArea,
        result_id: i32,
    ) -> Result<Option<MarkedScript>, StoreError> {
        let result: Option<ResultRow> = self
            .fetch_optional(
                &Query::select()
                    .column((Results::Table, Results::ParticipantName))
                    .column((Results::Table, Results::FirstName))
                    .column((Results::Table, Results::LastName))
                    .column((Assessments::Table, Assessments::Name))
                    .column((Results::Table, Results::TotalScore))
                    .column((Results::Table, Results::MaxScore))
                    .from(Results::Table)
                    .inner_join(
                        Assessments::Table,
                        Expr::col((Assessments::Table, Assessments::Id))
                            .equals((Results::Table, Results::AssessmentId)),
                    )
                    .and_where(Expr::col((Results::Table, Results::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Results::Table, Results::Id)).eq(result_id))
                    .and_where(Expr::col((Results::Table, Results::SeedFor)).is_null())
                    .to_owned(),
            )
            .await?;
        let Some((name, first, last, assessment, total_score, max_score)) = result else {
            return Ok(None);
        };
        let participant = match (first, last) {
            (Some(first), Some(last)) => Some(format!("{first} {last}")),
            _ => name,
        };
        let tasks: Vec<TaskRow> = self
            .fetch_all(
                &Query::select()
                    .column((ScoringTasks::Table, ScoringTasks::QuestionId))
                    .column((ScoringTasks::Table, ScoringTasks::Status))
                    .column((Questions::Table, Questions::Description))
                    .column((Questions::Table, Questions::Markup))
                    .column((Questions::Table, Questions::MaxScore))
                    .column((ScoringResults::Table, ScoringResults::Score))
                    .column((ScoringResults::Table, ScoringResults::Comments))
                    .from(ScoringTasks::Table)
                    .inner_join(
                        Questions::Table,
                        Expr::col((Questions::Table, Questions::Id))
                            .equals((ScoringTasks::Table, ScoringTasks::QuestionId)),
                    )
                    .join(
                        JoinType::LeftJoin,
                        ScoringResults::Table,
                        Expr::col((ScoringResults::Table, ScoringResults::QuestionId))
                            .equals((ScoringTasks::Table, ScoringTasks::QuestionId))
                            .and(
                                Expr::col((ScoringResults::Table, ScoringResults::ResultId))
                                    .equals((ScoringTasks::Table, ScoringTasks::ResultId)),
                            ),
                    )
                    .and_where(
                        Expr::col((ScoringTasks::Table, ScoringTasks::CustomerId)).eq(area.id()),
                    )
                    .and_where(
                        Expr::col((ScoringTasks::Table, ScoringTasks::ResultId)).eq(result_id),
                    )
                    .to_owned(),
            )
            .await?;
        let answers: Vec<AnswerRow> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Answers::QuestionId,
                        Answers::Occurrence,
                        Answers::BlockNumber,
                        Answers::QuestionNumber,
                        Answers::MediaType,
                        Answers::Content,
                    ])
                    .from(Answers::Table)
                    .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Answers::ResultId).eq(result_id))
                    .and_where(Expr::col(Answers::QuestionId).is_in(tasks.iter().map(|t| t.0)))
                    .order_by(Answers::Occurrence, Order::Desc)
                    .order_by(Answers::BlockNumber, Order::Desc)
                    .to_owned(),
            )
            .await?;
        let dimensions: Vec<DimensionRow> = self
            .fetch_all(
                &Query::select()
                    .column((DimensionScores::Table, DimensionScores::QuestionId))
                    .column((Dimensions::Table, Dimensions::Name))
                    .column((Dimensions::Table, Dimensions::MaxScore))
                    .column((DimensionScores::Table, DimensionScores::Score))
                    .column((DimensionScores::Table, DimensionScores::Comment))
                    .from(DimensionScores::Table)
                    .inner_join(
                        Dimensions::Table,
                        Expr::col((Dimensions::Table, Dimensions::RubricId))
                            .equals((DimensionScores::Table, DimensionScores::RubricId))
                            .and(
                                Expr::col((Dimensions::Table, Dimensions::DimensionOrder)).equals(
                                    (DimensionScores::Table, DimensionScores::DimensionOrder),
                                ),
                            ),
                    )
                    .and_where(
                        Expr::col((DimensionScores::Table, DimensionScores::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((DimensionScores::Table, DimensionScores::ResultId))
                            .eq(result_id),
                    )
                    .order_by(
                        (DimensionScores::Table, DimensionScores::DimensionOrder),
                        Order::Asc,
                    )
                    .to_owned(),
            )
            .await?;
        let marks: Vec<MarkRow> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Annotations::QuestionId,
                        Annotations::Occurrence,
                        Annotations::BlockNumber,
                        Annotations::Kind,
                        Annotations::Points,
                        Annotations::TextStart,
                        Annotations::TextEnd,
                        Annotations::Note,
                    ])
                    .from(Annotations::Table)
                    .and_where(Expr::col(Annotations::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Annotations::ResultId).eq(result_id))
                    .order_by(Annotations::Id, Order::Asc)
                    .to_owned(),
            )
            .await?;
        // The first block of each task's answer (the rows come last first).
        let mut first_blocks: HashMap<i64, AnswerRow> = HashMap::new();
        for row in answers {
            first_blocks.insert(row.0, row);
        }
        let mut questions: Vec<MarkedQuestion> = tasks
            .into_iter()
            .filter_map(
                |(question, status, description, markup, max, score, comments)| {
                    let (_, occurrence, block, number, media_type, content) =
                        first_blocks.remove(&question)?;
                    let answer = match canvas_of(&media_type, &content) {
                        Some(Canvas::Text { .. }) => {
                            MarkedAnswer::Text(String::from_utf8_lossy(&content).into_owned())
                        }
                        Some(Canvas::Scan { width, height }) => MarkedAnswer::Scan {
                            media_type,
                            content,
                            width,
                            height,
                        },
                        None => MarkedAnswer::Other(media_type),
                    };
                    Some(MarkedQuestion {
                        number,
                        description,
                        markup,
                        max_score: max,
                        scored: status == TaskStatus::Scored.code(),
                        score,
                        comments,
                        dimensions: dimensions
                            .iter()
                            .filter(|d| d.0 == question)
                            .map(|(_, name, max, score, comment)| MarkedDimension {
                                name: name.clone(),
                                max_score: i32::from(*max),
                                score: score.map(i32::from),
                                comment: comment.clone(),
                            })
                            .collect(),
                        answer,
                        marks: marks
                            .iter()
                            .filter(|m| m.0 == question && m.1 == occurrence && m.2 == block)
                            .map(|(_, _, _, kind, points, start, end, text)| Mark {
                                kind: kind.clone(),
                                points: points.as_deref().map(points_of).unwrap_or_default(),
                                range: start.zip(*end).and_then(|(s, e)| {
                                    Some((usize::try_from(s).ok()?, usize::try_from(e).ok()?))
                                }),
                                text: text.clone(),
                            })
                            .collect(),
                    })
                },
            )
            .collect();
        questions.sort_by_key(|q| q.number);
        Ok(Some(MarkedScript {
            result_id,
            participant,
            assessment,
            total_score,
            max_score,
            questions,
        }))
    }
}
