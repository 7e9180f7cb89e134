//! Answer uploads (spec, "AnswerUpload"): what an upload is checked against, and
//! the one transaction that turns a checked upload into a scored Result.

use std::collections::HashMap;

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::finalise::{scoring_tasks_for, FinalisedResult};
use crate::model::result_scores::ResultScores;
use crate::model::upload::MarkedAnswer;
use crate::store::schema::{AnswerUploads, Attempts, Groups, Participants, PrintBatches};
use crate::store::seed_writes::{NewAnswer, NewResult, NewTopicScore, BATCH_ROWS};
use crate::store::{Store, StoreError, Tx};

use super::upload_arrays;

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
#[derive(Debug, Clone)]
pub struct CheckedUpload {
    pub area: CustomerArea,
    pub attempt_id: i32,
    pub attempt: AttemptForUpload,
    pub batch: Option<(i32, BatchForUpload)>,
    pub answers: Vec<MarkedAnswer>,
    /// The result's scores, computed from `answers` (model::upload::scores_of).
    pub scores: ResultScores,
    pub language: Option<String>,
    pub file: bytes::Bytes,
    pub content_type: &'static str,
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
    /// Stores checked uploads, each as the file it came as and a Result with its
    /// answers, scores and TopicScores, a ScoringTask for each answer a person
    /// scores, the attempt's ResultID and the batch's LastUploadedDateTime. Returns,
    /// in order, each upload's new ResultID, or `Conflict` for an upload whose
    /// attempt has a result already (an earlier upload, or one before it in
    /// `uploads`), which stores nothing of it.
    ///
    /// A fixed number of statements however many uploads are given: on SQLite the
    /// transaction holds the database's one write lock, and each statement costs a
    /// round trip to the connection's thread, so that is what bounds uploads per
    /// second (store::upload_writer, docs/benchmarks.md "Answer uploads").
    pub async fn record_uploads(
        &mut self,
        uploads: &[CheckedUpload],
    ) -> Result<Vec<Result<i32, StoreError>>, StoreError> {
        let free = self.free_attempts(uploads).await?;
        let claiming: Vec<&CheckedUpload> = uploads
            .iter()
            .zip(&free)
            .filter(|(_, free)| **free)
            .map(|(upload, _)| upload)
            .collect();
        let mut outcomes = Vec::with_capacity(uploads.len());
        if claiming.is_empty() {
            outcomes.extend(uploads.iter().map(|_| Err(already_taken())));
            return Ok(outcomes);
        }
        let results: Vec<NewResult> = claiming.iter().map(|upload| new_result(upload)).collect();
        let result_ids = self.insert_results(&results).await?;
        self.claim_attempts(&claiming, &result_ids).await?;
        let mut answers = Vec::new();
        let mut tasks = Vec::new();
        let mut topic_scores = Vec::new();
        for (upload, result_id) in claiming.iter().zip(&result_ids) {
            let theirs: Vec<NewAnswer> = new_answers(upload, *result_id);
            tasks.extend(scoring_tasks_for(
                theirs.iter().map(NewAnswer::finalised),
                FinalisedResult {
                    area: upload.area,
                    group_id: upload.batch.as_ref().map(|(_, batch)| batch.group_id),
                    assessment_id: upload.attempt.assessment_id,
                    finished_at: upload.at,
                },
            ));
            answers.extend(theirs);
            topic_scores.extend(
                upload.scores.topics.iter().map(|topic| {
                    NewTopicScore::from_scores(upload.area, *result_id, topic.clone())
                }),
            );
        }
        self.insert_answers(&answers).await?;
        self.insert_scoring_tasks(&tasks).await?;
        self.insert_topic_scores(&topic_scores).await?;
        self.insert_upload_files(&claiming).await?;
        self.touch_batches(&claiming).await?;
        let mut result_ids = result_ids.into_iter();
        for free in free {
            outcomes.push(if free {
                Ok(result_ids.next().expect("one result per claimed upload"))
            } else {
                Err(already_taken())
            });
        }
        Ok(outcomes)
    }

    async fn insert_upload_files(&mut self, claiming: &[&CheckedUpload]) -> Result<(), StoreError> {
        // Files may be megabytes (images in them): a statement each when they are.
        let rows = if claiming.iter().any(|u| u.file.len() > 64 * 1024) {
            1
        } else {
            BATCH_ROWS
        };
        if let Some(conn) = self.postgres() {
            for chunk in claiming.chunks(rows) {
                let ids: Vec<i32> = chunk.iter().map(|u| u.attempt_id).collect();
                let areas: Vec<i32> = chunk.iter().map(|u| u.area.id()).collect();
                let types: Vec<&str> = chunk.iter().map(|u| u.content_type).collect();
                let at: Vec<i64> = chunk.iter().map(|u| u.at).collect();
                let files: Vec<&[u8]> = chunk.iter().map(|u| &u.file[..]).collect();
                upload_arrays::insert_files(conn, &ids, &areas, &types, &at, &files).await?;
            }
            return Ok(());
        }
        for chunk in claiming.chunks(rows) {
            let mut insert = Query::insert()
                .into_table(AnswerUploads::Table)
                .columns([
                    AnswerUploads::AttemptId,
                    AnswerUploads::CustomerId,
                    AnswerUploads::ContentType,
                    AnswerUploads::UploadedAt,
                    AnswerUploads::Content,
                ])
                .to_owned();
            for upload in chunk {
                insert.values_panic([
                    upload.attempt_id.into(),
                    upload.area.id().into(),
                    upload.content_type.into(),
                    upload.at.into(),
                    upload.file.to_vec().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    /// Sets LastUploadedDateTime of each batch uploaded to: one statement a batch.
    async fn touch_batches(&mut self, claiming: &[&CheckedUpload]) -> Result<(), StoreError> {
        let mut latest: HashMap<(i32, i32), i64> = HashMap::new();
        for upload in claiming {
            if let Some((batch_id, _)) = &upload.batch {
                let at = latest.entry((upload.area.id(), *batch_id)).or_default();
                *at = (*at).max(upload.at);
            }
        }
        for ((area, batch_id), at) in latest {
            self.execute(
                &Query::update()
                    .table(PrintBatches::Table)
                    .value(PrintBatches::LastUploadedAt, at)
                    .value(PrintBatches::ModifiedAt, at)
                    .and_where(Expr::col(PrintBatches::CustomerId).eq(area))
                    .and_where(Expr::col(PrintBatches::Id).eq(batch_id))
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }
}

fn already_taken() -> StoreError {
    StoreError::Conflict("the attempt already has a result".into())
}

fn new_result(upload: &CheckedUpload) -> NewResult {
    let (login, first, last) = upload.attempt.participant.clone().unwrap_or_default();
    let (group_id, group_name) = match &upload.batch {
        Some((_, batch)) => (Some(batch.group_id), Some(batch.group_name.clone())),
        None => (None, None),
    };
    let scores = &upload.scores;
    NewResult {
        area: upload.area,
        assessment_id: upload.attempt.assessment_id,
        participant_id: upload.attempt.participant_id,
        participant_name: login,
        first_name: first.unwrap_or_default(),
        last_name: last.unwrap_or_default(),
        group_id,
        group_name,
        // Finished, as every delivered result (the seed's 3).
        status: 3,
        max_score: scores.max_score,
        total_score: scores.total_score,
        percentage_score: scores.percentage_score,
        score_band_title: scores.score_band_title.clone(),
        when_started: upload.at,
        when_finished: upload.at,
        time_taken: 0,
        language: upload.language.clone().unwrap_or_default(),
        schedule_name: None,
        test_center_name: None,
        attempt_id: Some(upload.attempt_id),
    }
}

fn new_answers(upload: &CheckedUpload, result_id: i32) -> Vec<NewAnswer> {
    upload
        .answers
        .iter()
        .map(|answer| NewAnswer {
            area: upload.area,
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
        .collect()
}
