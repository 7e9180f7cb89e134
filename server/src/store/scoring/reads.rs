//! The scoring entities as their writes need them: typed rows, read from wherever a
//! URL addressed them (a key, or a navigation step).

use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::store::read::{plan, Scope};
use crate::store::{Store, StoreError};

/// A ScoringTask as stored.
#[derive(Debug, Clone, Copy)]
pub struct StoredTask {
    pub key: TaskKey,
    pub status: TaskStatus,
}

/// A ScoringResult as stored.
#[derive(Debug, Clone)]
pub struct StoredScoringResult {
    pub key: TaskKey,
    pub rubric_id: i32,
    pub score: Option<i32>,
    pub comments: Option<String>,
    pub created_at: i64,
    /// The concurrency token: `ModifiedDateTime`.
    pub modified_at: i64,
}

/// A DimensionScore as stored.
#[derive(Debug, Clone)]
pub struct StoredDimensionScore {
    pub key: TaskKey,
    pub rubric_id: i32,
    pub order: i32,
    pub score: Option<i16>,
    pub comment: Option<String>,
}

impl Store {
    /// The ScoringTask `scope` addresses, if there is one.
    pub async fn scoring_task_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<StoredTask>, StoreError> {
        let select = plan::first_row(scope, area, &["question_id", "result_id", "status"]);
        let Some((question_id, result_id, status)) =
            self.fetch_optional::<(i64, i32, i32)>(&select).await?
        else {
            return Ok(None);
        };
        Ok(Some(StoredTask {
            key: TaskKey {
                question_id,
                result_id,
            },
            status: TaskStatus::try_from(status).map_err(StoreError::Corrupt)?,
        }))
    }

    /// The ScoringResult `scope` addresses, if there is one.
    pub async fn scoring_result_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<StoredScoringResult>, StoreError> {
        type Row = (i64, i32, i32, Option<i32>, Option<String>, i64, i64);
        let select = plan::first_row(
            scope,
            area,
            &[
                "question_id",
                "rubric_id",
                "result_id",
                "score",
                "comments",
                "created_at",
                "modified_at",
            ],
        );
        let row: Option<Row> = self.fetch_optional(&select).await?;
        Ok(row.map(
            |(question_id, rubric_id, result_id, score, comments, created_at, modified_at)| {
                StoredScoringResult {
                    key: TaskKey {
                        question_id,
                        result_id,
                    },
                    rubric_id,
                    score,
                    comments,
                    created_at,
                    modified_at,
                }
            },
        ))
    }

    /// The DimensionScore `scope` addresses, if there is one.
    pub async fn dimension_score_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<StoredDimensionScore>, StoreError> {
        type Row = (i64, i32, i32, i32, Option<i16>, Option<String>);
        let select = plan::first_row(
            scope,
            area,
            &[
                "question_id",
                "rubric_id",
                "result_id",
                "dimension_order",
                "score",
                "comment",
            ],
        );
        let row: Option<Row> = self.fetch_optional(&select).await?;
        Ok(row.map(
            |(question_id, rubric_id, result_id, order, score, comment)| StoredDimensionScore {
                key: TaskKey {
                    question_id,
                    result_id,
                },
                rubric_id,
                order,
                score,
                comment,
            },
        ))
    }
}
