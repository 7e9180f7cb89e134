//! What operators watch, read for `/metrics`: how the connection pool is used and
//! how deep the scoring queues are (summed from the counts the triggers keep,
//! migration 10, so that a scrape reads a few rows, never the tasks).

use sea_query::{Alias, Expr, Func, Query};

use crate::store::schema::ScoringTaskCounts;
use crate::store::{Pool, Store, StoreError};

/// The connection pool at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections open, idle or in use.
    pub open: u32,
    pub idle: u32,
    /// The most the pool opens.
    pub max: u32,
}

/// Scoring tasks of one customer area in one status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TasksInStatus {
    pub area: i32,
    pub status: i32,
    pub tasks: i64,
}

impl Store {
    /// The transactions' pool and the read lane together.
    pub fn pool_use(&self) -> PoolUse {
        let (pool, (lane_open, lane_idle, lane_max)) = match &self.pool {
            Pool::Sqlite(pool, _, reads) => (
                (
                    pool.size(),
                    pool.num_idle(),
                    pool.options().get_max_connections(),
                ),
                reads.status(),
            ),
            Pool::Postgres(pool, _, reads) => (
                (
                    pool.size(),
                    pool.num_idle(),
                    pool.options().get_max_connections(),
                ),
                reads.status(),
            ),
        };
        let (open, idle, max) = pool;
        PoolUse {
            open: open + lane_open,
            idle: u32::try_from(idle).unwrap_or(u32::MAX) + lane_idle,
            max: max + lane_max,
        }
    }

    /// Scoring tasks by customer area and status, from the kept counts.
    pub async fn scoring_tasks_by_status(&self) -> Result<Vec<TasksInStatus>, StoreError> {
        let select = Query::select()
            .columns([ScoringTaskCounts::CustomerId, ScoringTaskCounts::Status])
            // PostgreSQL sums BIGINTs into NUMERIC: cast back.
            .expr(
                Expr::expr(Func::sum(Expr::col(ScoringTaskCounts::Tasks)))
                    .cast_as(Alias::new("BIGINT")),
            )
            .from(ScoringTaskCounts::Table)
            .group_by_col(ScoringTaskCounts::CustomerId)
            .group_by_col(ScoringTaskCounts::Status)
            .to_owned();
        let rows: Vec<(i32, i32, i64)> = self.fetch_all(&select).await?;
        Ok(rows
            .into_iter()
            .map(|(area, status, tasks)| TasksInStatus {
                area,
                status,
                tasks,
            })
            .collect())
    }
}
