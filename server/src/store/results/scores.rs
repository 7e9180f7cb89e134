//! Rewriting a Result's scores and TopicScores from its answers, inside the caller's
//! transaction. The arithmetic is the domain's ([`crate::model::result_scores`]).

use sea_query::{Expr, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::result_scores::{self, ScoreBand, ScoredAnswer, Topic};
use crate::store::schema::{Answers, Questions, Results, ScoreBands, TopicScores, Topics};
use crate::store::seed_writes::NewTopicScore;
use crate::store::{Store, StoreError, Tx};

/// An answer's `max_score`, `actual_score`, and its question's topic ID and path.
type AnswerRow = (i32, Option<i32>, Option<i32>, Option<String>);

/// An assessment's score bands, lowest first.
fn bands_of(area: CustomerArea, assessment_id: i64) -> SelectStatement {
    Query::select()
        .columns([ScoreBands::MinPercentage, ScoreBands::Title])
        .from(ScoreBands::Table)
        .and_where(Expr::col(ScoreBands::CustomerId).eq(area.id()))
        .and_where(Expr::col(ScoreBands::AssessmentId).eq(assessment_id))
        .order_by(ScoreBands::MinPercentage, Order::Asc)
        .to_owned()
}

fn score_bands(rows: Vec<(i32, String)>) -> Vec<ScoreBand> {
    rows.into_iter()
        .map(|(min_percentage, title)| ScoreBand {
            min_percentage,
            title,
        })
        .collect()
}

impl Store {
    /// An assessment's score bands, lowest first (what a new result's band is
    /// chosen from).
    pub async fn score_bands(
        &self,
        area: CustomerArea,
        assessment_id: i64,
    ) -> Result<Vec<ScoreBand>, StoreError> {
        Ok(score_bands(
            self.fetch_all(&bands_of(area, assessment_id)).await?,
        ))
    }
}

impl Tx {
    /// Recomputes `TotalScore`, `MaxScore`, `PercentageScore` and `ScoreBandTitle` of
    /// result `result_id`, and replaces its TopicScores. The caller holds the result's
    /// row lock (see [`Tx::lock_result`]), so concurrent rescoring of one result is
    /// serialised and each sees the answers the other committed.
    pub async fn rescore_result(
        &mut self,
        area: CustomerArea,
        result_id: i32,
    ) -> Result<(), StoreError> {
        let assessment_id: i64 = self
            .fetch_scalar(
                &Query::select()
                    .column(Results::AssessmentId)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(result_id))
                    .to_owned(),
            )
            .await?;
        let rows: Vec<AnswerRow> = self
            .fetch_all(
                &Query::select()
                    .column((Answers::Table, Answers::MaxScore))
                    .column((Answers::Table, Answers::ActualScore))
                    .column((Topics::Table, Topics::Id))
                    .column((Topics::Table, Topics::Path))
                    .from(Answers::Table)
                    .inner_join(
                        Questions::Table,
                        Expr::col((Questions::Table, Questions::Id))
                            .equals((Answers::Table, Answers::QuestionId)),
                    )
                    .left_join(
                        Topics::Table,
                        Expr::col((Topics::Table, Topics::Id))
                            .equals((Questions::Table, Questions::TopicId)),
                    )
                    .and_where(Expr::col((Answers::Table, Answers::CustomerId)).eq(area.id()))
                    .and_where(Expr::col((Answers::Table, Answers::ResultId)).eq(result_id))
                    .to_owned(),
            )
            .await?;
        let answers: Vec<ScoredAnswer> = rows
            .into_iter()
            .map(|(max_score, actual_score, topic_id, path)| ScoredAnswer {
                max_score,
                actual_score,
                topic: topic_id.map(|id| Topic {
                    id,
                    path: path.unwrap_or_default(),
                }),
            })
            .collect();
        let bands = score_bands(self.fetch_all(&bands_of(area, assessment_id)).await?);
        let scores = result_scores::compute(&answers, &bands);
        self.execute(
            &Query::update()
                .table(Results::Table)
                .values([
                    (Results::TotalScore, scores.total_score.into()),
                    (Results::MaxScore, scores.max_score.into()),
                    (Results::PercentageScore, scores.percentage_score.into()),
                    (
                        Results::ScoreBandTitle,
                        scores.score_band_title.clone().into(),
                    ),
                ])
                .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                .and_where(Expr::col(Results::Id).eq(result_id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(TopicScores::Table)
                .and_where(Expr::col(TopicScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(TopicScores::ResultId).eq(result_id))
                .to_owned(),
        )
        .await?;
        let topic_scores: Vec<NewTopicScore> = scores
            .topics
            .into_iter()
            .map(|topic| NewTopicScore::from_scores(area, result_id, topic))
            .collect();
        self.insert_topic_scores(&topic_scores).await
    }

    /// Takes the row lock of a result for the rest of the transaction (PostgreSQL
    /// `SELECT ... FOR UPDATE`; SQLite's `BEGIN IMMEDIATE` already holds the database
    /// lock, and sea-query leaves the clause out there). Returns whether it exists.
    pub async fn lock_result(
        &mut self,
        area: CustomerArea,
        result_id: i32,
    ) -> Result<bool, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Results::Id)
                    .from(Results::Table)
                    .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Results::Id).eq(result_id))
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        Ok(found.is_some())
    }
}
