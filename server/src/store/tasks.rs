//! Scoring-task reads.

use sea_query::{Condition, Expr, Query};

use super::schema::ScoringTasks;
use super::{Store, StoreError};

impl Store {
    /// Counts one customer area's scoring tasks that satisfy `filter`.
    pub async fn count_scoring_tasks(
        &self,
        customer_id: i32,
        filter: Condition,
    ) -> Result<i64, StoreError> {
        let query = Query::select()
            .expr(Expr::col((ScoringTasks::Table, ScoringTasks::QuestionId)).count())
            .from(ScoringTasks::Table)
            .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::CustomerId)).eq(customer_id))
            .cond_where(filter)
            .to_owned();
        self.fetch_scalar(&query).await
    }
}
