//! The plans of answer groups' reads, for the plan tests and the benchmark
//! (docs/benchmarks.md, "Answer groups").

use sea_query::{Expr, Query};

use super::answer_groups::{alike_count, alike_ids};
use super::answer_keys::{awaiting_keys, KEYING_BATCH};
use crate::model::answer_groups::GROUP_LIMIT;
use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::store::schema::ScoringTasks;
use crate::store::{AlikeTo, Store, StoreError};

impl Store {
    /// An open task with a typed answer, and its key: the group the plan tests
    /// and the benchmark read.
    pub async fn an_open_typed_task(
        &self,
        area: CustomerArea,
    ) -> Result<Option<(TaskKey, String)>, StoreError> {
        let row: Option<(i64, i32, String)> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        ScoringTasks::QuestionId,
                        ScoringTasks::ResultId,
                        ScoringTasks::AnswerKey,
                    ])
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::AnswerKey).is_not_null())
                    .and_where(Expr::col(ScoringTasks::Status).eq(TaskStatus::Unscored.code()))
                    .limit(1)
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(question_id, result_id, key)| {
            (
                TaskKey {
                    question_id,
                    result_id,
                },
                key,
            )
        }))
    }

    /// The database's plans for reading a group (its first page) and for the
    /// keying of answers written before keys: for the plan tests and the
    /// benchmark (docs/benchmarks.md, "Answer groups").
    pub async fn plans_of_answer_groups(
        &self,
        area: CustomerArea,
        to: &AlikeTo<'_>,
    ) -> Result<[Vec<String>; 3], StoreError> {
        Ok([
            self.explain(&alike_ids(area, to, GROUP_LIMIT)).await?,
            self.explain(&alike_count(area, to)).await?,
            self.explain(&awaiting_keys(KEYING_BATCH)).await?,
        ])
    }
}
