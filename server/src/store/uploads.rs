//! Answer uploads (spec, "AnswerUpload"): what an upload is checked against, and
//! the one transaction that turns a checked upload into a scored Result.

use sea_query::{Expr, Query};

use super::schema::{AnswerUploads, Attempts, Groups, Participants, PrintBatches, Results};
use super::seed_writes::{NewAnswer, NewResult};
use super::{Store, StoreError, Tx};
use crate::model::area::CustomerArea;
use crate::model::finalise::{scoring_tasks_for, FinalisedResult};
use crate::model::upload::MarkedAnswer;

/// An attempt as an upload needs it.
#[derive(Debug, Clone)]
pub struct AttemptForUpload {
    pub assessment_id: i64,
    pub snapshot_id: Option<i32>,
    pub result_id: Option<i32>,
    pub participant_id: Option<i32>,
    /// `(login name, first name, last name)` of the participant.
    pub participant: Option<(String, Option<String>, Option<String>)>,
}

/// A print batch as an upload needs it.
#[derive(Debug, Clone)]
pub struct BatchForUpload {
    pub snapshot_id: i32,
    pub group_id: i32,
    pub group_name: String,
}

/// Everything a checked upload stores.
pub struct CheckedUpload<'a> {
    pub attempt_id: i32,
    pub attempt: &'a AttemptForUpload,
    pub batch: Option<(i32, &'a BatchForUpload)>,
    pub answers: &'a [MarkedAnswer],
    pub language: Option<&'a str>,
    pub file: &'a [u8],
    pub content_type: &'a str,
    pub at: i64,
}

type AttemptRow = (
    i64,
    Option<i32>,
    Option<i32>,
    Option<i32>,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl Store {
    pub async fn attempt_for_upload(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<AttemptForUpload>, StoreError> {
        let row: Option<AttemptRow> = self
            .fetch_optional(
                &Query::select()
                    .column((Attempts::Table, Attempts::AssessmentId))
                    .column((Attempts::Table, Attempts::SnapshotId))
                    .column((Attempts::Table, Attempts::ResultId))
                    .column((Attempts::Table, Attempts::ParticipantId))
                    .column((Participants::Table, Participants::Name))
                    .column((Participants::Table, Participants::FirstName))
                    .column((Participants::Table, Participants::LastName))
                    .from(Attempts::Table)
                    .left_join(
                        Participants::Table,
                        Expr::col((Participants::Table, Participants::Id))
                            .equals((Attempts::Table, Attempts::ParticipantId)),
                    )
                    .and_where(Expr::col((Attempts::Table, Attempts::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Attempts::Table, Attempts::Id)).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(
            |(assessment_id, snapshot_id, result_id, participant_id, name, first, last)| {
                AttemptForUpload {
                    assessment_id,
                    snapshot_id,
                    result_id,
                    participant_id,
                    participant: name.map(|name| (name, first, last)),
                }
            },
        ))
    }

    pub async fn batch_for_upload(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<BatchForUpload>, StoreError> {
        let row: Option<(i32, i32, String)> = self
            .fetch_optional(
                &Query::select()
                    .column((PrintBatches::Table, PrintBatches::SnapshotId))
                    .column((PrintBatches::Table, PrintBatches::GroupId))
                    .column((Groups::Table, Groups::Name))
                    .from(PrintBatches::Table)
                    .inner_join(
                        Groups::Table,
                        Expr::col((Groups::Table, Groups::Id))
                            .equals((PrintBatches::Table, PrintBatches::GroupId)),
                    )
                    .and_where(
                        Expr::col((PrintBatches::Table, PrintBatches::CustomerId)).eq(area.id()),
                    )
                    .and_where(Expr::col((PrintBatches::Table, PrintBatches::Id)).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(
            row.map(|(snapshot_id, group_id, group_name)| BatchForUpload {
                snapshot_id,
                group_id,
                group_name,
            }),
        )
    }
}

impl Tx {
    /// Stores a checked upload: the file as it came, the Result with its answers,
    /// scores and TopicScores, a ScoringTask for each answer a person scores, the
    /// attempt's ResultID and the batch's LastUploadedDateTime. `Conflict` when the
    /// attempt got a result meanwhile (a second upload of the same attempt).
    pub async fn record_upload(
        &mut self,
        area: CustomerArea,
        upload: &CheckedUpload<'_>,
    ) -> Result<i32, StoreError> {
        // The attempt's row lock first: of two uploads of one attempt, the second
        // waits here and then finds the result of the first.
        let taken: Option<(Option<i32>,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Attempts::ResultId)
                    .from(Attempts::Table)
                    .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Attempts::Id).eq(upload.attempt_id))
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        match taken {
            None => return Err(StoreError::NotFound),
            Some((Some(_),)) => {
                return Err(StoreError::Conflict(
                    "the attempt already has a result".into(),
                ))
            }
            Some((None,)) => {}
        }
        let attempt = upload.attempt;
        let (login, first, last) = attempt.participant.clone().unwrap_or_default();
        let (group_id, group_name) = match upload.batch {
            Some((_, batch)) => (Some(batch.group_id), Some(batch.group_name.clone())),
            None => (None, None),
        };
        let result_id = self
            .insert_results(&[NewResult {
                area,
                assessment_id: attempt.assessment_id,
                participant_id: attempt.participant_id,
                participant_name: login,
                first_name: first.unwrap_or_default(),
                last_name: last.unwrap_or_default(),
                group_id,
                group_name,
                // Finished, as every delivered result (the seed's 3).
                status: 3,
                max_score: 0,
                total_score: 0,
                percentage_score: 0,
                score_band_title: None,
                when_started: upload.at,
                when_finished: upload.at,
                time_taken: 0,
                language: upload.language.unwrap_or_default().to_owned(),
                schedule_name: None,
                test_center_name: None,
            }])
            .await?[0];
        self.execute(
            &Query::update()
                .table(Results::Table)
                .value(Results::AttemptId, upload.attempt_id)
                .and_where(Expr::col(Results::Id).eq(result_id))
                .to_owned(),
        )
        .await?;
        let answers: Vec<NewAnswer> = upload
            .answers
            .iter()
            .map(|answer| NewAnswer {
                area,
                question_id: answer.question_id,
                result_id,
                occurrence: 1,
                block_number: 1,
                question_number: answer.question_number,
                max_score: answer.max_score,
                actual_score: answer.actual_score,
                media_type: answer.media_type.clone(),
                content: answer.content.clone(),
            })
            .collect();
        self.insert_answers(&answers).await?;
        let tasks = scoring_tasks_for(
            answers.iter().map(NewAnswer::finalised),
            FinalisedResult {
                area,
                group_id,
                assessment_id: attempt.assessment_id,
                finished_at: upload.at,
            },
        );
        self.insert_scoring_tasks(&tasks).await?;
        self.rescore_result(area, result_id).await?;
        self.execute(
            &Query::update()
                .table(Attempts::Table)
                .value(Attempts::ResultId, result_id)
                .value(Attempts::LastModifiedAt, upload.at)
                .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                .and_where(Expr::col(Attempts::Id).eq(upload.attempt_id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::insert()
                .into_table(AnswerUploads::Table)
                .columns([
                    AnswerUploads::AttemptId,
                    AnswerUploads::CustomerId,
                    AnswerUploads::ContentType,
                    AnswerUploads::UploadedAt,
                    AnswerUploads::Content,
                ])
                .values_panic([
                    upload.attempt_id.into(),
                    area.id().into(),
                    upload.content_type.into(),
                    upload.at.into(),
                    upload.file.to_vec().into(),
                ])
                .to_owned(),
        )
        .await?;
        if let Some((batch_id, _)) = upload.batch {
            self.execute(
                &Query::update()
                    .table(PrintBatches::Table)
                    .value(PrintBatches::LastUploadedAt, upload.at)
                    .value(PrintBatches::ModifiedAt, upload.at)
                    .and_where(Expr::col(PrintBatches::CustomerId).eq(area.id()))
                    .and_where(Expr::col(PrintBatches::Id).eq(batch_id))
                    .to_owned(),
            )
            .await?;
        }
        Ok(result_id)
    }
}
