//! Whether PostgreSQL keeps one plan for a statement the service runs again and
//! again, or plans it anew at every execution (docs/benchmarks.md, "Q1 planned once
//! on PostgreSQL"). Read from `pg_prepared_statements` on the connection that ran it.

use sea_query::PostgresQueryBuilder;
use sea_query_binder::SqlxBinder;

use crate::store::{Pool, Store, StoreError};

/// How PostgreSQL planned the executions of one prepared statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlansMade {
    /// Executions that used the plan kept for the statement.
    pub generic: i64,
    /// Executions planned for their bound values, that is planned again.
    pub custom: i64,
}

impl Store {
    /// Runs `statement` `runs` times on one PostgreSQL connection of the read lane,
    /// as a request's reads run, and says how it was planned; `None` on SQLite
    /// (which plans a prepared statement once).
    pub async fn plans_made(
        &self,
        statement: &impl SqlxBinder,
        runs: usize,
    ) -> Result<Option<PlansMade>, StoreError> {
        let Pool::Postgres(_, _, reads) = &self.pool else {
            return Ok(None);
        };
        let (sql, values) = statement.build_sqlx(PostgresQueryBuilder);
        let mut connection = reads.take().await?;
        for _ in 0..runs {
            sqlx::query_with(&sql, values.clone())
                .fetch_all(&mut *connection)
                .await?;
        }
        let (generic, custom): (i64, i64) = sqlx::query_as(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1",
        )
        .bind(&sql)
        .fetch_one(&mut *connection)
        .await?;
        Ok(Some(PlansMade { generic, custom }))
    }
}
