//! Results as delivered: the results themselves, their answers, the scoring tasks
//! finalising them creates, and their topic scores. Multi-row `VALUES` on SQLite;
//! on PostgreSQL `UNNEST` of arrays (`unnest.rs`).

use sea_query::{Query, SimpleExpr};

use super::{unnest, NewAnswer, NewResult, NewTopicScore, BATCH_ROWS};
use crate::model::finalise::NewScoringTask;
use crate::store::schema::*;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Inserts results in batches and returns their generated IDs, in input order.
    pub async fn insert_results(&mut self, results: &[NewResult]) -> Result<Vec<i32>, StoreError> {
        let mut ids = Vec::with_capacity(results.len());
        if let Some(conn) = self.postgres() {
            for chunk in results.chunks(BATCH_ROWS) {
                ids.extend(unnest::results(conn, chunk).await?);
            }
            return Ok(ids);
        }
        for chunk in results.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(Results::Table)
                .columns([
                    Results::CustomerId,
                    Results::AssessmentId,
                    Results::ParticipantId,
                    Results::ParticipantName,
                    Results::FirstName,
                    Results::LastName,
                    Results::GroupId,
                    Results::GroupName,
                    Results::Status,
                    Results::MaxScore,
                    Results::TotalScore,
                    Results::PercentageScore,
                    Results::ScoreBandTitle,
                    Results::WhenStarted,
                    Results::WhenFinished,
                    Results::TimeTaken,
                    Results::StillGoing,
                    Results::Language,
                    Results::ScheduleName,
                    Results::TestCenterName,
                    Results::AttemptId,
                ])
                .returning_col(Results::Id)
                .to_owned();
            for r in chunk {
                let row: [SimpleExpr; 21] = [
                    r.area.id().into(),
                    r.assessment_id.into(),
                    r.participant_id.into(),
                    r.participant_name.clone().into(),
                    r.first_name.clone().into(),
                    r.last_name.clone().into(),
                    r.group_id.into(),
                    r.group_name.clone().into(),
                    r.status.into(),
                    r.max_score.into(),
                    r.total_score.into(),
                    r.percentage_score.into(),
                    r.score_band_title.clone().into(),
                    r.when_started.into(),
                    r.when_finished.into(),
                    r.time_taken.into(),
                    false.into(),
                    r.language.clone().into(),
                    r.schedule_name.clone().into(),
                    r.test_center_name.clone().into(),
                    r.attempt_id.into(),
                ];
                insert.values_panic(row);
            }
            let mut chunk_ids: Vec<(i32,)> = self.fetch_all(&insert).await?;
            // RETURNING gives rows in insertion order on both backends for a single
            // multi-row VALUES insert; sort anyway since IDs ascend with it.
            chunk_ids.sort_unstable();
            ids.extend(chunk_ids.into_iter().map(|(id,)| id));
        }
        Ok(ids)
    }

    pub async fn insert_answers(&mut self, answers: &[NewAnswer]) -> Result<(), StoreError> {
        // Answers may carry megabytes of image; keep statements small when they do.
        let rows = if answers.iter().any(|a| a.content.len() > 64 * 1024) {
            1
        } else {
            BATCH_ROWS
        };
        if let Some(conn) = self.postgres() {
            for chunk in answers.chunks(rows) {
                unnest::answers(conn, chunk).await?;
            }
            return Ok(());
        }
        for chunk in answers.chunks(rows) {
            let mut insert = Query::insert()
                .into_table(Answers::Table)
                .columns([
                    Answers::CustomerId,
                    Answers::QuestionId,
                    Answers::ResultId,
                    Answers::Occurrence,
                    Answers::BlockNumber,
                    Answers::QuestionNumber,
                    Answers::MaxScore,
                    Answers::ActualScore,
                    Answers::Revision,
                    Answers::MediaType,
                    Answers::Content,
                    Answers::AnswerKey,
                ])
                .to_owned();
            for a in chunk {
                insert.values_panic([
                    a.area.id().into(),
                    a.question_id.into(),
                    a.result_id.into(),
                    a.occurrence.into(),
                    a.block_number.into(),
                    a.question_number.into(),
                    a.max_score.into(),
                    a.actual_score.into(),
                    1i32.into(),
                    a.media_type.clone().into(),
                    a.content.clone().into(),
                    a.group_key().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    pub async fn insert_scoring_tasks(
        &mut self,
        tasks: &[NewScoringTask],
    ) -> Result<(), StoreError> {
        if let Some(conn) = self.postgres() {
            for chunk in tasks.chunks(BATCH_ROWS) {
                unnest::scoring_tasks(conn, chunk).await?;
            }
            return Ok(());
        }
        for chunk in tasks.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(ScoringTasks::Table)
                .columns([
                    ScoringTasks::CustomerId,
                    ScoringTasks::QuestionId,
                    ScoringTasks::ResultId,
                    ScoringTasks::GroupId,
                    ScoringTasks::AssessmentId,
                    ScoringTasks::Status,
                    ScoringTasks::CreatedAt,
                    ScoringTasks::ModifiedAt,
                    ScoringTasks::ResultFinishedAt,
                    ScoringTasks::AnswerKey,
                ])
                .to_owned();
            for t in chunk {
                insert.values_panic([
                    t.area.id().into(),
                    t.key.question_id.into(),
                    t.key.result_id.into(),
                    t.group_id.into(),
                    t.assessment_id.into(),
                    t.status.code().into(),
                    t.at.into(),
                    t.at.into(),
                    t.result_finished_at.into(),
                    t.answer_key.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    pub async fn insert_topic_scores(
        &mut self,
        scores: &[NewTopicScore],
    ) -> Result<(), StoreError> {
        if let Some(conn) = self.postgres() {
            for chunk in scores.chunks(BATCH_ROWS) {
                unnest::topic_scores(conn, chunk).await?;
            }
            return Ok(());
        }
        for chunk in scores.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(TopicScores::Table)
                .columns([
                    TopicScores::CustomerId,
                    TopicScores::ResultId,
                    TopicScores::TopicId,
                    TopicScores::PercentageScore,
                    TopicScores::TotalScore,
                    TopicScores::MaxScore,
                    TopicScores::ScoreBandTitle,
                    TopicScores::NumQuestions,
                    TopicScores::TopicPath,
                ])
                .to_owned();
            for s in chunk {
                insert.values_panic([
                    s.area.id().into(),
                    s.result_id.into(),
                    s.topic_id.into(),
                    s.percentage_score.into(),
                    s.total_score.into(),
                    s.max_score.into(),
                    s.score_band_title.clone().into(),
                    s.num_questions.into(),
                    s.topic_path.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }
}
