//! The rows of seeded scripts (our extension, `Seeds`; docs/marking-quality.md,
//! "Seeds"): a seed made from a scored task, with its definitive marks. Serving
//! copies of it is `seed_copies`. Every method runs in the transaction it is
//! given; the rules are `model::seeds`.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::store::schema::{ScoringResults, ScoringTasks, SeedScores, Seeds};
use crate::store::{now_millis, StoreError, Tx};

/// A task as making a seed of it needs it.
#[derive(Debug)]
pub struct SeedableTask {
    pub status: TaskStatus,
    /// Whose seed copy the task is, if it is one.
    pub seed_for: Option<String>,
    /// Its ScoringResult's rubric, if it has one.
    pub rubric_id: Option<i32>,
    /// Its dimension scores: (order, score, comment).
    pub marks: Vec<(i32, Option<i32>, Option<String>)>,
}

/// A new seed, checked.
pub struct NewSeed<'a> {
    pub task: TaskKey,
    pub rubric_id: i32,
    /// (dimension order, definitive score, its reason: the dimension's comment).
    pub marks: &'a [(i32, i32, Option<String>)],
    pub reasons: &'a str,
    pub created_by: &'a str,
}

impl Tx {
    /// The task `key` as making a seed of it needs it; None when there is none.
    pub async fn seedable_task(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
    ) -> Result<Option<SeedableTask>, StoreError> {
        let task: Option<(i32, Option<String>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([ScoringTasks::Status, ScoringTasks::SeedFor])
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::QuestionId).eq(key.question_id))
                    .and_where(Expr::col(ScoringTasks::ResultId).eq(key.result_id))
                    .to_owned(),
            )
            .await?;
        let Some((status, seed_for)) = task else {
            return Ok(None);
        };
        let rubric_id: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringResults::RubricId)
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(key.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(key.result_id))
                    .to_owned(),
            )
            .await?;
        let marks = self.dimension_marks(area, key).await?;
        Ok(Some(SeedableTask {
            status: TaskStatus::try_from(status).map_err(StoreError::Corrupt)?,
            seed_for,
            rubric_id: rubric_id.map(|(id,)| id),
            marks: marks
                .into_iter()
                .map(|(order, score, comment)| (order, score.map(i32::from), comment))
                .collect(),
        }))
    }

    /// Makes a seed; None when the task is a seed already.
    pub async fn insert_seed(
        &mut self,
        area: CustomerArea,
        seed: NewSeed<'_>,
    ) -> Result<Option<i32>, StoreError> {
        let exists: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Seeds::Id)
                    .from(Seeds::Table)
                    .and_where(Expr::col(Seeds::QuestionId).eq(seed.task.question_id))
                    .and_where(Expr::col(Seeds::ResultId).eq(seed.task.result_id))
                    .to_owned(),
            )
            .await?;
        if exists.is_some() {
            return Ok(None);
        }
        let total: i32 = seed.marks.iter().map(|(_, score, _)| score).sum();
        let id: i32 = self
            .fetch_scalar(
                &Query::insert()
                    .into_table(Seeds::Table)
                    .columns([
                        Seeds::CustomerId,
                        Seeds::QuestionId,
                        Seeds::ResultId,
                        Seeds::RubricId,
                        Seeds::Score,
                        Seeds::Reasons,
                        Seeds::CreatedBy,
                        Seeds::CreatedAt,
                    ])
                    .values_panic([
                        area.id().into(),
                        seed.task.question_id.into(),
                        seed.task.result_id.into(),
                        seed.rubric_id.into(),
                        total.into(),
                        seed.reasons.into(),
                        seed.created_by.into(),
                        now_millis().into(),
                    ])
                    .returning_col(Seeds::Id)
                    .to_owned(),
            )
            .await?;
        if !seed.marks.is_empty() {
            let mut insert = Query::insert()
                .into_table(SeedScores::Table)
                .columns([
                    SeedScores::SeedId,
                    SeedScores::DimensionOrder,
                    SeedScores::CustomerId,
                    SeedScores::Score,
                    SeedScores::Reason,
                ])
                .to_owned();
            for (order, score, reason) in seed.marks {
                insert.values_panic([
                    id.into(),
                    (*order).into(),
                    area.id().into(),
                    (*score).into(),
                    reason.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(Some(id))
    }
}
